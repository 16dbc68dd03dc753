/*
** `llvm` against LLVM libc itself: the object of Debian's libllvmlibc-22-dev (qsort_r.cpp.o
** of /usr/lib/llvm-22/lib/libllvmlibc.a, as compiled by LLVM) is made into a plug-in at test
** time by tools/llvm-qsort-plugin, in a temporary directory, and run beside our entry:
** - the oracle grid (oracle_grid.h): every pattern x both input modes x 26 lengths from 0 to
**   20,000 x 13 element sizes (the 4-, 8- and 16-byte instantiations with their branchless
**   Lomuto partition, the generic one with its Hoare partition, byte and block swaps); then
**   sizes at and above LLVM's 4096-byte swap buffer, and lengths of 65,537 and 262,143;
** - a McIlroy adversary played live against our entry, frozen into a fixed input: it
**   exhausts the step budget, so the heapsort is compared too;
** - comparators that break the contract (random answers from one seed, always less, always
**   equal, always greater): given the same answers, the same calls and bytes.
** Each: the same comparator calls and the same result bytes. Skipped (77) when the archive
** is absent (apt-get install libllvmlibc-22-dev).
*/
#include <dlfcn.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "adversary.h"
#include "check.h"
#include "counting.h"
#include "oracle_grid.h"
#include "rng.h"

typedef struct {
    qsb_sort_fn real;
} oracle;

static int run_llvm(void *ctx, void *base, size_t n, size_t size, uint64_t *calls)
{
    const oracle *o = ctx;
    *calls = qsb_count_comparisons(o->real, base, n, size, qsb_comparator(size), NULL);
    return 0;
}

/* Builds the plug-in into dir; returns the real sort, or NULL (reported). */
static qsb_sort_fn build_plugin(const char *dir, void **handle)
{
    char path[512], command[1536];
    snprintf(path, sizeof path, "%s/llvm-qsort.so", dir);
    snprintf(command, sizeof command, "sh '%s/tools/llvm-qsort-plugin' '%s' '%s'",
             QSB_SOURCE_DIR, QSB_LLVM_LIBC_ARCHIVE, path);
    int status = system(command);
    CHECK_MSG(status == 0, "%s failed", command);
    if (status != 0)
        return NULL;
    *handle = dlopen(path, RTLD_NOW | RTLD_LOCAL);
    CHECK_MSG(*handle != NULL, "%s", dlerror());
    void *p = *handle ? dlsym(*handle, "llvm_qsort_r") : NULL;
    CHECK_MSG(p != NULL, "llvm_qsort_r: %s", dlerror());
    unlink(path);
    qsb_sort_fn fn = NULL;
    memcpy(&fn, &p, sizeof fn); /* object to function pointer, as POSIX allows */
    return fn;
}

static void check_grids(oracle *o)
{
    static const size_t counts[] = {0,  1,  2,  3,  4,   5,   6,   7,   8,    9,    15,   16,   17,
                                    31, 63, 64, 65, 100, 511, 512, 513, 1000, 4097, 8191, 8192,
                                    20000};
    static const size_t sizes[] = {1, 2, 3, 4, 5, 8, 12, 16, 24, 32, 33, 64, 100};
    const oracle_grid grid = {counts, sizeof counts / sizeof counts[0], sizes,
                              sizeof sizes / sizeof sizes[0]};
    CHECK(oracle_grid_check("llvm", &grid, run_llvm, o) == 0);

    static const size_t wide_counts[] = {2, 3, 8, 9, 64, 65, 1000};
    static const size_t wide_sizes[] = {4096, 4100};
    const oracle_grid wide = {wide_counts, sizeof wide_counts / sizeof wide_counts[0],
                              wide_sizes, sizeof wide_sizes / sizeof wide_sizes[0]};
    CHECK(oracle_grid_check("llvm", &wide, run_llvm, o) == 0);

    static const size_t large_counts[] = {65537, 262143};
    static const size_t large_sizes[] = {4, 8, 16, 12};
    const oracle_grid large = {large_counts, sizeof large_counts / sizeof large_counts[0],
                               large_sizes, sizeof large_sizes / sizeof large_sizes[0]};
    CHECK(oracle_grid_check("llvm", &large, run_llvm, o) == 0);
}

/* ---- the adversary: values decided lazily (McIlroy 1999), then frozen ---- */

static void check_adversary(const oracle *o, size_t n, size_t size)
{
    uint32_t *values = malloc(n * sizeof *values), *indices = malloc(n * sizeof *indices);
    char *ours = calloc(n, size), *real = calloc(n, size);
    if (!CHECK(values && indices && ours && real))
        goto done;
    for (size_t i = 0; i < n; i++) {
        indices[i] = (uint32_t)i;
        values[i] = (uint32_t)n;
    }
    adversary adv = {values, (uint32_t)n, 0, 0};
    qsb_count_comparisons(qsb_algorithm_find("llvm")->sort, indices, n, sizeof *indices,
                          adversary_compare, &adv);
    for (size_t i = 0; i < n; i++) {
        if (values[i] == n)
            values[i] = adv.next_solid++;
        memcpy(ours + i * size, &values[i], sizeof values[i]);
    }
    memcpy(real, ours, n * size);
    qsb_compare cmp = qsb_comparator(4); /* reads the first four bytes, native order */
    uint64_t mine = qsb_count_comparisons(qsb_algorithm_find("llvm")->sort, ours, n, size, cmp,
                                          NULL);
    uint64_t theirs = qsb_count_comparisons(o->real, real, n, size, cmp, NULL);
    CHECK_MSG(mine == theirs && memcmp(ours, real, n * size) == 0,
              "adversary n=%zu size=%zu: ours %llu calls, the real code %llu%s", n, size,
              (unsigned long long)mine, (unsigned long long)theirs,
              memcmp(ours, real, n * size) ? ", different bytes" : "");
    printf("adversary n=%zu size=%zu: %llu calls on both\n", n, size, (unsigned long long)mine);
done:
    free(values);
    free(indices);
    free(ours);
    free(real);
}

/* ---- comparators that break the contract ---- */

static int answer_random(const void *a, const void *b, void *rng)
{
    (void)a, (void)b;
    return (int)(qsb_rng_next31(rng) % 3) - 1;
}

static int answer_less(const void *a, const void *b, void *arg)
{
    (void)a, (void)b, (void)arg;
    return -1;
}

static int answer_equal(const void *a, const void *b, void *arg)
{
    (void)a, (void)b, (void)arg;
    return 0;
}

static int answer_greater(const void *a, const void *b, void *arg)
{
    (void)a, (void)b, (void)arg;
    return 1;
}

static void check_broken(const oracle *o)
{
    static const struct {
        const char *name;
        qsb_compare cmp;
    } broken[] = {{"random", answer_random},
                  {"always-less", answer_less},
                  {"always-equal", answer_equal},
                  {"always-greater", answer_greater}};
    static const size_t counts[] = {2, 7, 8, 63, 64, 1000, 4097};
    static const size_t sizes[] = {4, 8, 16, 12};
    unsigned long cells = 0;
    for (size_t b = 0; b < sizeof broken / sizeof broken[0]; b++)
        for (size_t c = 0; c < sizeof counts / sizeof counts[0]; c++)
            for (size_t s = 0; s < sizeof sizes / sizeof sizes[0]; s++) {
                size_t n = counts[c], size = sizes[s];
                char *ours = malloc(n * size), *real = malloc(n * size);
                if (!CHECK(ours && real)) {
                    free(ours), free(real);
                    return;
                }
                qsb_rng fill, answers_ours, answers_real;
                qsb_rng_seed(&fill, QSB_DEFAULT_SEED + c);
                qsb_fill_random(&fill, ours, n * size);
                memcpy(real, ours, n * size);
                qsb_rng_seed(&answers_ours, QSB_DEFAULT_SEED);
                qsb_rng_seed(&answers_real, QSB_DEFAULT_SEED);
                uint64_t mine = qsb_count_comparisons(qsb_algorithm_find("llvm")->sort, ours, n,
                                                      size, broken[b].cmp, &answers_ours);
                uint64_t theirs = qsb_count_comparisons(o->real, real, n, size, broken[b].cmp,
                                                        &answers_real);
                CHECK_MSG(mine == theirs && memcmp(ours, real, n * size) == 0,
                          "%s n=%zu size=%zu: ours %llu calls, the real code %llu%s",
                          broken[b].name, n, size, (unsigned long long)mine,
                          (unsigned long long)theirs,
                          memcmp(ours, real, n * size) ? ", different bytes" : "");
                free(ours);
                free(real);
                cells++;
            }
    printf("broken comparators: %lu cells compared\n", cells);
}

int main(void)
{
    if (access(QSB_LLVM_LIBC_ARCHIVE, R_OK) != 0) {
        printf("SKIPPED: %s not found, so there is no LLVM libc oracle "
               "(apt-get install libllvmlibc-22-dev)\n", QSB_LLVM_LIBC_ARCHIVE);
        return 77;
    }
    char dir[] = "/tmp/qsb-llvm-XXXXXX";
    if (!CHECK(mkdtemp(dir) != NULL))
        return check_done();
    void *handle = NULL;
    oracle o = {build_plugin(dir, &handle)};
    rmdir(dir);
    if (!o.real)
        return check_done();
    check_grids(&o);
    check_adversary(&o, 2048, 4);
    check_adversary(&o, 2048, 12);
    check_adversary(&o, 20000, 8);
    check_broken(&o);
    dlclose(handle);
    return check_done();
}
