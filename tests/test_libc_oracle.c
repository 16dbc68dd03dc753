/*
** test_libc_oracle ENTRY: one registry entry that follows a libc other than glibc and musl,
** against that libc's real qsort, on the oracle grid (oracle_grid.h): every pattern x both
** input modes x 11 lengths from 0 to 4,097 x 10 element sizes from 1 to 64 bytes, then the
** seed matrix at its L1 size (49,152 elements of 4, 8 and 32 bytes). Each cell: the same
** comparator calls and the same result bytes.
**
** The real code comes from Debian's packages, built here by tests/libc_oracle_object.sh and
** linked into this test (never kept in the source tree): klibc's and dietlibc's objects taken
** out of their static libraries as compiled, newlib's qsort.c compiled from newlib-source, and
** libbsd's heapsort and mergesort through -lbsd. Their qsort signature is run through the
** registry's qsort adapter (qsort_adapter.h). dietlibc's pivots come from its rand(): before
** each sort its generator is put back to a fresh process's state (srand(1)), as the entry's is.
**
** A package that is missing is a failure that names it, never a skip: the suite expects
** tools/install-deps --tests to have installed every oracle's package.
*/
#include <stdio.h>
#include <string.h>

#include "check.h"
#include "counting.h"
#include "oracle_grid.h"
#include "qsort_adapter.h"

#if QSB_HAVE_KLIBC
void klibc_qsort(void *base, size_t n, size_t size, qsb_plain_compare cmp);
#endif
#if QSB_HAVE_DIETLIBC
void dietlibc_qsort(void *base, size_t n, size_t size, qsb_plain_compare cmp);
void dietlibc_srand(unsigned seed);

static void dietlibc_fresh_qsort(void *base, size_t n, size_t size, qsb_plain_compare cmp)
{
    dietlibc_srand(1); /* the state of a process that has not called rand() yet */
    dietlibc_qsort(base, n, size, cmp);
}
#endif
#if QSB_HAVE_NEWLIB
void newlib_qsort(void *base, size_t n, size_t size, qsb_plain_compare cmp);
#endif
#if QSB_HAVE_LIBBSD
/* libbsd's <bsd/stdlib.h> declarations, spelled here so that only the library is needed. */
int heapsort(void *base, size_t n, size_t size, qsb_plain_compare cmp);
int mergesort(void *base, size_t n, size_t size, qsb_plain_compare cmp);

static int libbsd_status; /* the last call's return value: 0, or -1 with errno */

static void libbsd_heapsort(void *base, size_t n, size_t size, qsb_plain_compare cmp)
{
    libbsd_status = heapsort(base, n, size, cmp);
}

static void libbsd_mergesort(void *base, size_t n, size_t size, qsb_plain_compare cmp)
{
    libbsd_status = mergesort(base, n, size, cmp);
}
#endif

typedef struct {
    const char *entry;       /* the registry's name */
    const char *package;     /* the Debian package the real code comes from */
    qsb_plain_sort_fn real;  /* NULL: not built, the package was missing at configure time */
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
    qsb_call_plain_sort(o->real, base, n, size, qsb_counting_compare, &counter);
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
