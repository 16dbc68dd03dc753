/*
** `musl` against musl itself: on the oracle grid (oracle_grid.h), the same comparator calls and
** the same bytes as musl 1.2.3's qsort_r, run by musl_oracle (a static musl binary, built when
** musl-gcc is found). Each cell's input goes to the oracle as a file, exactly as `qsortbench
** gen` writes it. Skipped (77) without musl-gcc: install musl-tools.
*/
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "check.h"
#include "oracle_grid.h"

typedef struct {
    char input[64], output[64]; /* temporary files */
} oracle_files;

static int write_file(const char *path, const void *data, size_t bytes)
{
    FILE *fp = fopen(path, "wb");
    if (!fp)
        return -1;
    int ok = fwrite(data, 1, bytes, fp) == bytes;
    return fclose(fp) == 0 && ok ? 0 : -1;
}

static int read_file(const char *path, void *data, size_t bytes)
{
    FILE *fp = fopen(path, "rb");
    if (!fp)
        return -1;
    int ok = fread(data, 1, bytes, fp) == bytes && fgetc(fp) == EOF;
    fclose(fp);
    return ok ? 0 : -1;
}

static int run_musl(void *ctx, void *base, size_t n, size_t size, uint64_t *calls)
{
    const oracle_files *f = ctx;
    if (write_file(f->input, base, n * size) != 0)
        return -1;
    char command[512];
    snprintf(command, sizeof command, "'%s' %zu '%s' '%s'", QSB_MUSL_ORACLE, size, f->input,
             f->output);
    FILE *p = popen(command, "r");
    if (!p)
        return -1;
    unsigned long long count;
    int got = fscanf(p, "%llu", &count);
    if (pclose(p) != 0 || got != 1)
        return -1;
    *calls = count;
    return read_file(f->output, base, n * size);
}

int main(void)
{
    if (QSB_MUSL_ORACLE[0] == '\0') {
        printf("SKIPPED: musl-gcc was not found at configure time, so there is no musl oracle "
               "(apt-get install musl-tools, then re-run cmake)\n");
        return 77;
    }
    static const size_t counts[] = {0, 1, 2, 3, 7, 8, 9, 31, 100, 1000, 4097};
    static const size_t sizes[] = {1, 3, 4, 8, 12, 32, 64};
    const oracle_grid grid = {counts, sizeof counts / sizeof counts[0], sizes,
                              sizeof sizes / sizeof sizes[0]};
    oracle_files files;
    int in_fd = -1, out_fd = -1;
    strcpy(files.input, "/tmp/qsb-musl-in-XXXXXX");
    strcpy(files.output, "/tmp/qsb-musl-out-XXXXXX");
    if (!CHECK((in_fd = mkstemp(files.input)) >= 0 && (out_fd = mkstemp(files.output)) >= 0))
        return check_done();
    close(in_fd);
    close(out_fd);
    CHECK(oracle_grid_check("musl", &grid, run_musl, &files) == 0);
    unlink(files.input);
    unlink(files.output);
    return check_done();
}
