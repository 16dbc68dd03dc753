/*
** test_libc_oracle ENTRY: one registry entry that follows a libc other than glibc and musl,
** against that libc's real qsort, on the oracle grid (oracle_grid.h): every pattern x both
** input modes x 11 lengths from 0 to 4,097 x 10 element sizes from 1 to 64 bytes, then the
** seed matrix at its L1 size (49,152 elements of 4, 8 and 32 bytes); then McIlroy's adversary
** played live against the entry and frozen into fixed inputs (the heapsorts' and the quicksorts'
** worst paths), and a comparator that answers at random from one seed (both sorts given the
** same answers; not for klibc, whose passes then never end). Each: the same comparator calls
** and the same result bytes.
**
** The real code comes from Debian's packages, built here by tests/libc_oracle_object.sh and
** linked into this test (never kept in the source tree): klibc's and dietlibc's objects taken
** out of their static libraries as compiled, newlib's qsort.c compiled from newlib-source, and
** libbsd's heapsort and mergesort through -lbsd. They have qsort's signature: a thread-local
** record of the comparator and its argument and a two-argument trampoline run them here, as the
** plug-ins' adapter does. dietlibc's pivots come from its rand(): before each sort its
** generator is put back to a fresh process's state (srand(1)), as the entry's is.
**
** A package that is missing is a failure that names it, never a skip: the suite expects
** tools/install-deps --tests to have installed every oracle's package.
*/
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "adversary.h"
#include "check.h"
#include "counting.h"
#include "oracle_grid.h"
#include "rng.h"

typedef int (*plain_compare)(const void *a, const void *b);
typedef void (*plain_sort_fn)(void *base, size_t n, size_t size, plain_compare cmp);

/* The comparator of the real sort running on this thread, and the trampoline it is given. */
static _Thread_local struct {
    qsb_compare cmp;
    void *arg;
} current;

static int trampoline(const void *a, const void *b)
{
    return current.cmp(a, b, current.arg);
}

static void call_plain_sort(plain_sort_fn sort, void *base, size_t n, size_t size,
                                qsb_compare cmp, void *arg)
{
    current.cmp = cmp;
    current.arg = arg;
    sort(base, n, size, trampoline);
}

#if QSB_HAVE_KLIBC
void klibc_qsort(void *base, size_t n, size_t size, plain_compare cmp);
#endif
#if QSB_HAVE_DIETLIBC
void dietlibc_qsort(void *base, size_t n, size_t size, plain_compare cmp);
void dietlibc_srand(unsigned seed);

static void dietlibc_fresh_qsort(void *base, size_t n, size_t size, plain_compare cmp)
{
    dietlibc_srand(1); /* the state of a process that has not called rand() yet */
    dietlibc_qsort(base, n, size, cmp);
}
#endif
#if QSB_HAVE_NEWLIB
void newlib_qsort(void *base, size_t n, size_t size, plain_compare cmp);
#endif
#if QSB_HAVE_LIBBSD
/* libbsd's <bsd/stdlib.h> declarations, spelled here so that only the library is needed. */
int heapsort(void *base, size_t n, size_t size, plain_compare cmp);
int mergesort(void *base, size_t n, size_t size, plain_compare cmp);

static int libbsd_status; /* the last call's return value: 0, or -1 with errno */

static void libbsd_heapsort(void *base, size_t n, size_t size, plain_compare cmp)
{
    libbsd_status = heapsort(base, n, size, cmp);
}

static void libbsd_mergesort(void *base, size_t n, size_t size, plain_compare cmp)
{
    libbsd_status = mergesort(base, n, size, cmp);
}
#endif

typedef struct {
    const char *entry;       /* the registry's name */
    const char *package;     /* the Debian package the real code comes from */
    plain_sort_fn real;  /* NULL: not built, the package was missing at configure time */
    size_t min_size;         /* smaller elements are refused by the real code (and the entry) */
} libc_oracle;

static const libc_oracle oracles[] = {
#if QSB_HAVE_LIBBSD
    {"bsd-heapsort", "libbsd-dev", libbsd_heapsort, 1},
    {"bsd-mergesort", "libbsd-dev", libbsd_mergesort, sizeof(void *) / 2},
#else
    {"bsd-heapsort", "libbsd-dev", NULL, 1},
    {"bsd-mergesort", "libbsd-dev", NULL, sizeof(void *) / 2},
#endif
#if QSB_HAVE_DIETLIBC
    {"dietlibc", "dietlibc-dev", dietlibc_fresh_qsort, 1},
#else
    {"dietlibc", "dietlibc-dev", NULL, 1},
#endif
#if QSB_HAVE_KLIBC
    {"klibc", "libklibc-dev", klibc_qsort, 1},
#else
    {"klibc", "libklibc-dev", NULL, 1},
#endif
#if QSB_HAVE_NEWLIB
    {"newlib", "newlib-source", newlib_qsort, 1},
#else
    {"newlib", "newlib-source", NULL, 1},
#endif
};

static int run_real(void *ctx, void *base, size_t n, size_t size, uint64_t *calls)
{
    const libc_oracle *o = ctx;
    qsb_counter counter = {qsb_comparator(size), NULL, 0};
#if QSB_HAVE_LIBBSD
    libbsd_status = 0;
#endif
    call_plain_sort(o->real, base, n, size, qsb_counting_compare, &counter);
    *calls = counter.calls;
#if QSB_HAVE_LIBBSD
    if (libbsd_status != 0)
        return -1;
#endif
    return 0;
}

/* The grid's sizes that the real code accepts. */
static size_t accepted_sizes(const libc_oracle *o, const size_t *all, size_t count, size_t *out)
{
    size_t kept = 0;
    for (size_t i = 0; i < count; i++)
        if (all[i] >= o->min_size)
            out[kept++] = all[i];
    return kept;
}

/* Sorts base with the real code through the adapter; returns its comparator calls. */
static uint64_t real_calls(const libc_oracle *o, void *base, size_t n, size_t size,
                           qsb_compare cmp, void *arg)
{
    qsb_counter counter = {cmp, arg, 0};
    call_plain_sort(o->real, base, n, size, qsb_counting_compare, &counter);
    return counter.calls;
}

/* The adversary's values for n elements, decided against our entry, laid out in elements of
** `size` bytes (the first four bytes hold the value); NULL when out of memory. */
static char *adversary_input(const qsb_algorithm *ours, size_t n, size_t size)
{
    uint32_t *values = malloc(n * sizeof *values), *indices = malloc(n * sizeof *indices);
    char *input = calloc(n, size);
    if (values && indices && input) {
        for (size_t i = 0; i < n; i++) {
            indices[i] = (uint32_t)i;
            values[i] = (uint32_t)n;
        }
        adversary adv = {values, (uint32_t)n, 0, 0};
        ours->sort(indices, n, sizeof *indices, adversary_compare, &adv);
        for (size_t i = 0; i < n; i++) {
            if (values[i] == n)
                values[i] = adv.next_solid++;
            memcpy(input + i * size, &values[i], sizeof values[i]);
        }
    } else {
        free(input);
        input = NULL;
    }
    free(values);
    free(indices);
    return input;
}

static void check_adversary(const libc_oracle *o, const qsb_algorithm *ours, size_t n,
                            size_t size)
{
    char *ours_input = adversary_input(ours, n, size), *real_input = malloc(n * size);
    if (!CHECK(ours_input && real_input)) {
        free(ours_input);
        free(real_input);
        return;
    }
    memcpy(real_input, ours_input, n * size);
    qsb_compare cmp = qsb_comparator(4); /* the first four bytes, native order */
    uint64_t mine = qsb_count_comparisons(ours->sort, ours_input, n, size, cmp, NULL);
    uint64_t theirs = real_calls(o, real_input, n, size, cmp, NULL);
    int same_bytes = memcmp(ours_input, real_input, n * size) == 0;
    CHECK_MSG(mine == theirs && same_bytes, "%s adversary n=%zu size=%zu: ours %llu calls, "
              "the real code %llu%s", o->entry, n, size, (unsigned long long)mine,
              (unsigned long long)theirs, same_bytes ? "" : ", different bytes");
    printf("%s: adversary n=%zu size=%zu: %llu calls on both\n", o->entry, n, size,
           (unsigned long long)mine);
    free(ours_input);
    free(real_input);
}

static int answer_random(const void *a, const void *b, void *rng)
{
    (void)a, (void)b;
    return (int)(qsb_rng_next31(rng) % 3) - 1;
}

static void check_random_answers(const libc_oracle *o, const qsb_algorithm *ours)
{
    static const size_t counts[] = {2, 7, 8, 63, 64, 1000, 4097};
    static const size_t sizes[] = {4, 8, 12, 16};
    unsigned long cells = 0;
    for (size_t c = 0; c < sizeof counts / sizeof counts[0]; c++)
        for (size_t s = 0; s < sizeof sizes / sizeof sizes[0]; s++) {
            size_t n = counts[c], size = sizes[s];
            char *mine = malloc(n * size), *real = malloc(n * size);
            if (!CHECK(mine && real)) {
                free(mine), free(real);
                return;
            }
            qsb_rng fill, answers_mine, answers_real;
            qsb_rng_seed(&fill, QSB_DEFAULT_SEED + c);
            qsb_fill_random(&fill, mine, n * size);
            memcpy(real, mine, n * size);
            qsb_rng_seed(&answers_mine, QSB_DEFAULT_SEED);
            qsb_rng_seed(&answers_real, QSB_DEFAULT_SEED);
            uint64_t ours_calls = qsb_count_comparisons(ours->sort, mine, n, size,
                                                        answer_random, &answers_mine);
            uint64_t real_count = real_calls(o, real, n, size, answer_random, &answers_real);
            CHECK_MSG(ours_calls == real_count && memcmp(mine, real, n * size) == 0,
                      "%s random answers n=%zu size=%zu: ours %llu calls, the real code %llu",
                      o->entry, n, size, (unsigned long long)ours_calls,
                      (unsigned long long)real_count);
            free(mine);
            free(real);
            cells++;
        }
    printf("%s: random answers: %lu cells compared\n", o->entry, cells);
}

static void check_entry(const libc_oracle *o)
{
    static const size_t counts[] = {0, 1, 2, 3, 7, 8, 9, 31, 100, 1000, 4097};
    static const size_t sizes[] = {1, 2, 3, 4, 8, 12, 16, 32, 33, 64};
    size_t kept[sizeof sizes / sizeof sizes[0]];
    const oracle_grid grid = {counts, sizeof counts / sizeof counts[0], kept,
                              accepted_sizes(o, sizes, sizeof sizes / sizeof sizes[0], kept)};
    CHECK(oracle_grid_check(o->entry, &grid, run_real, (void *)o) == 0);

    static const size_t seed_counts[] = {49152}; /* the seed matrix's L1 size */
    static const size_t seed_sizes[] = {4, 8, 32};
    const oracle_grid seed = {seed_counts, 1, seed_sizes, 3};
    CHECK(oracle_grid_check(o->entry, &seed, run_real, (void *)o) == 0);

    const qsb_algorithm *ours = qsb_algorithm_find(o->entry);
    if (!ours)
        return; /* oracle_grid_check has said so */
    check_adversary(o, ours, 2048, 4);
    check_adversary(o, ours, 2048, 12);
    if (strcmp(o->entry, "klibc") != 0)
        check_random_answers(o, ours);
}

int main(int argc, char **argv)
{
    if (argc != 2) {
        CHECK_MSG(0, "usage: test_libc_oracle ENTRY");
        return check_done();
    }
    for (size_t i = 0; i < sizeof oracles / sizeof oracles[0]; i++) {
        const libc_oracle *o = &oracles[i];
        if (strcmp(o->entry, argv[1]) != 0)
            continue;
        CHECK_MSG(o->real != NULL, "%s: its oracle was not built: the package %s is missing "
                  "(tools/install-deps --tests installs it; then re-run cmake)", o->entry,
                  o->package);
        if (o->real)
            check_entry(o);
        return check_done();
    }
    CHECK_MSG(0, "no oracle for '%s'", argv[1]);
    return check_done();
}
