/*
** A run's shared inputs (src/bench/shared_inputs.h):
**
** - the file holds each cell's input byte for byte as qsb_generate makes it, with its multiset
**   hash, and only the cells of the run's shard;
** - a cell of another seed, mode, pattern, count or size is not found (the worker generates
**   it), nor one beyond the memory cap;
** - a descriptor that is not such a file is refused with one error line, and --inputs-fd is
**   refused outside a worker;
** - a worker reads its inputs from the file it is handed: the real binary, given a file in
**   which one input was altered after it was hashed, fails that cell's verification (and
**   only that cell's), and passes with the file as made.
*/
#include <fcntl.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "check.h"
#include "patterns.h"
#include "run_binary.h"
#include "shared_inputs.h"
#include "verify.h"

static char dir[256];

/* Does the file hold the cell, byte for byte as generated, with the right hash? */
static bool holds_generated(qsb_shared_inputs *si, const char *pattern, size_t n, size_t size,
                            uint64_t seed, qsb_mode mode)
{
    const unsigned char *input = NULL;
    qsb_multiset_hash hash = {0, 0};
    if (!qsb_shared_inputs_map(si, pattern, n, size, seed, mode, &input, &hash))
        return false;
    unsigned char *expected = malloc(n * size);
    qsb_generate(qsb_pattern_find(pattern), expected, n, size, seed, mode);
    qsb_multiset_hash want = qsb_multiset_hash_of(expected, n, size);
    bool same = memcmp(input, expected, n * size) == 0 && hash.sum == want.sum &&
                hash.xor == want.xor;
    free(expected);
    CHECK_MSG(same, "%s %zu x %zu: the shared bytes or hash differ from the generator's",
              pattern, n, size);
    return same;
}

/* The worker's side of a file the run made: its own descriptor, as after an exec. */
static qsb_shared_inputs *reopen(const qsb_shared_inputs *made)
{
    int fd = dup(qsb_shared_inputs_fd(made));
    CHECK(fd > STDERR_FILENO);
    return qsb_shared_inputs_open(fd);
}

static void test_every_cell_as_generated(void)
{
    qsb_run_config cfg;
    const char *const options[] = {
        "--nelem", "100:1000", "--sizes", "4,32", "--patterns", "random,sorted,repeated", NULL};
    CHECK(parse_run_config(&cfg, options) == 0);
    double seconds = -1;
    qsb_shared_inputs *made = qsb_shared_inputs_create(&cfg, UINT64_MAX, &seconds);
    CHECK(made != NULL && seconds >= 0);
    if (!made)
        return;
    CHECK_EQ_U64(qsb_shared_inputs_cells(made), 12);
    CHECK(fcntl(qsb_shared_inputs_fd(made), F_GETFD) & FD_CLOEXEC); /* workers.c hands it on */
    qsb_shared_inputs *si = reopen(made);
    CHECK(si != NULL);
    const char *patterns[] = {"random", "sorted", "repeated"};
    size_t counts[] = {100, 1000}, sizes[] = {4, 32};
    for (size_t p = 0; si && p < 3; p++)
        for (size_t c = 0; c < 2; c++)
            for (size_t z = 0; z < 2; z++)
                CHECK(holds_generated(si, patterns[p], counts[c], sizes[z], cfg.seed,
                                      cfg.mode));
    const unsigned char *input;
    qsb_multiset_hash hash;
    if (si) { /* other cells, or this cell of another run */
        CHECK(!qsb_shared_inputs_map(si, "bitonic", 100, 4, cfg.seed, cfg.mode, &input, &hash));
        CHECK(!qsb_shared_inputs_map(si, "random", 101, 4, cfg.seed, cfg.mode, &input, &hash));
        CHECK(!qsb_shared_inputs_map(si, "random", 100, 8, cfg.seed, cfg.mode, &input, &hash));
        CHECK(!qsb_shared_inputs_map(si, "random", 100, 4, cfg.seed + 1, cfg.mode, &input,
                                     &hash));
        CHECK(!qsb_shared_inputs_map(si, "random", 100, 4, cfg.seed, QSB_MODE_COMPAT_2021,
                                     &input, &hash));
    }
    qsb_shared_inputs_close(si);
    qsb_shared_inputs_close(made);
    qsb_run_config_free(&cfg);
}

/* The cells in the matrix's order while they fit: 1000 x 4 bytes take one page, the next
** cell (1000 x 32 bytes) eight. */
static void test_cap_and_shard(void)
{
    qsb_run_config cfg;
    const char *const options[] = {
        "--nelem", "1000", "--sizes", "4,32", "--patterns", "random", NULL};
    CHECK(parse_run_config(&cfg, options) == 0);
    double seconds;
    uint64_t page = (uint64_t)sysconf(_SC_PAGESIZE);
    qsb_shared_inputs *made = qsb_shared_inputs_create(&cfg, 4000 < page ? page : 2 * page,
                                                       &seconds);
    CHECK(made != NULL);
    qsb_shared_inputs *si = made ? reopen(made) : NULL;
    if (si) {
        CHECK_EQ_U64(qsb_shared_inputs_cells(made), 1);
        CHECK(holds_generated(si, "random", 1000, 4, cfg.seed, cfg.mode));
        const unsigned char *input;
        qsb_multiset_hash hash;
        CHECK(!qsb_shared_inputs_map(si, "random", 1000, 32, cfg.seed, cfg.mode, &input,
                                     &hash));
    }
    qsb_shared_inputs_close(si);
    qsb_shared_inputs_close(made);
    CHECK(qsb_shared_inputs_create(&cfg, 0, &seconds) == NULL); /* nothing fits */
    qsb_run_config_free(&cfg);

    const char *const sharded[] = {
        "--nelem", "1000", "--sizes", "4,32", "--patterns", "random,sorted", "--shard",
        "1/2", NULL};
    CHECK(parse_run_config(&cfg, sharded) == 0);
    made = qsb_shared_inputs_create(&cfg, UINT64_MAX, &seconds);
    CHECK(made != NULL);
    if (made)
        CHECK_EQ_U64(qsb_shared_inputs_cells(made), qsb_run_config_cells(&cfg));
    CHECK(qsb_run_config_cells(&cfg) < 4);
    qsb_shared_inputs_close(made);
    qsb_run_config_free(&cfg);
}

static void test_not_an_inputs_file(void)
{
    char path[300];
    snprintf(path, sizeof path, "%s/junk", dir);
    FILE *f = fopen(path, "w");
    CHECK(f != NULL);
    if (f) {
        fputs("qsbinpu? this is no file of inputs\n", f);
        fclose(f);
    }
    int fd = open(path, O_RDONLY);
    CHECK(fd > STDERR_FILENO);
    fprintf(stderr, "(an error line about --inputs-fd is expected next)\n");
    CHECK(qsb_shared_inputs_open(fd) == NULL);
    close(fd);

    char err[300];
    snprintf(err, sizeof err, "%s/outside.err", dir);
    char *argv[] = {QSB_BINARY, "run", "--nelem", "100", "--inputs-fd", "3", NULL};
    CHECK(run_binary(argv, NULL, err) == 2);
    char *text = slurp(err, NULL);
    CHECK(text &&
          strstr(text, "qsortbench: error: --inputs-fd is for worker processes") != NULL);
    free(text);
}

/* The binary as worker 1 of a run whose inputs file is fd; the CSV's `verified` per row. */
static int run_worker(int fd, const char *name, csv_table *table)
{
    char fd_option[32], csv[300], err[300];
    snprintf(fd_option, sizeof fd_option, "--inputs-fd=%d", fd);
    snprintf(csv, sizeof csv, "%s/%s.csv", dir, name);
    snprintf(err, sizeof err, "%s/%s.err", dir, name);
    char *argv[] = {QSB_BINARY, "run", "--worker", "1:0.001", "--nelem", "200:300",
                    "--sizes", "4", "--patterns", "random", "--algos", "msort,introsort",
                    fd_option, "--csv", csv, "--json", "-", "--quiet", NULL};
    int status = run_binary(argv, NULL, err);
    CHECK(csv_table_read(csv, table) == 0);
    return status;
}

static void test_worker_sorts_the_shared_inputs(void)
{
    qsb_run_config cfg;
    const char *const options[] = {
        "--nelem", "200:300", "--sizes", "4", "--patterns", "random", NULL};
    CHECK(parse_run_config(&cfg, options) == 0);
    double seconds;
    qsb_shared_inputs *made = qsb_shared_inputs_create(&cfg, UINT64_MAX, &seconds);
    CHECK(made != NULL);
    if (!made)
        return;
    int fd = qsb_shared_inputs_fd(made);
    CHECK(fcntl(fd, F_SETFD, 0) == 0); /* handed to the binary, as workers.c does */
    csv_table table;
    CHECK(run_worker(fd, "as-made", &table) == 0);
    CHECK_EQ_U64(table.nrows, 5);
    for (size_t r = 1; r < table.nrows; r++)
        CHECK(strcmp(csv_table_get(&table, r, "verified"), "true") == 0);
    csv_table_free(&table);

    /* One byte of the 200-element input altered after its hash was taken (found in the file
    ** by its bytes): that cell's sorts are not a permutation of what was hashed. */
    off_t bytes = lseek(fd, 0, SEEK_END);
    unsigned char *file = malloc((size_t)bytes), expected[200 * 4];
    qsb_generate(qsb_pattern_find("random"), expected, 200, 4, cfg.seed, cfg.mode);
    CHECK(file && pread(fd, file, (size_t)bytes, 0) == bytes);
    unsigned char *at = file ? memmem(file, (size_t)bytes, expected, sizeof expected) : NULL;
    CHECK(at != NULL);
    if (at) {
        unsigned char byte = at[0] ^ 0x5a;
        CHECK(pwrite(fd, &byte, 1, at - file) == 1);
    }
    free(file);
    CHECK(run_worker(fd, "altered", &table) == 1);
    CHECK_EQ_U64(table.nrows, 5);
    for (size_t r = 1; r < table.nrows; r++) {
        bool altered_cell = strcmp(csv_table_get(&table, r, "nelem"), "200") == 0;
        CHECK(strcmp(csv_table_get(&table, r, "verified"), altered_cell ? "false" : "true") ==
              0);
        if (altered_cell)
            CHECK(strstr(csv_table_get(&table, r, "failure"), "not a permutation") != NULL);
    }
    csv_table_free(&table);
    qsb_shared_inputs_close(made);
    qsb_run_config_free(&cfg);
}

int main(void)
{
    if (make_temp_dir(dir, sizeof dir, "qsb-shared-inputs") != 0) {
        fprintf(stderr, "cannot make a temporary directory\n");
        return 1;
    }
    test_every_cell_as_generated();
    test_cap_and_shard();
    test_not_an_inputs_file();
    test_worker_sorts_the_shared_inputs();
    remove_temp_dir(dir);
    return check_done();
}
