/*
** `msort` and `quicksort` against glibc 2.36 itself: on the oracle grid (oracle_grid.h), the
** same comparator calls and the same bytes as the real stdlib/msort.c (qsort_r) and
** stdlib/qsort.c (_quicksort), compiled at build time from Debian's glibc-source tarball by
** tools/glibc-qsort-plugin into a plug-in in the build directory (never into the source tree;
** glibc_release_tree.sh takes out the one 2024 backport in which Debian's tree differs from
** the release). Skipped (77) when glibc-source is not installed.
*/
#include <dlfcn.h>
#include <stdio.h>
#include <string.h>

#include "check.h"
#include "counting.h"
#include "element.h"
#include "oracle_grid.h"

static int run_glibc(void *ctx, void *base, size_t n, size_t size, uint64_t *calls)
{
    qsb_sort_fn sort = *(qsb_sort_fn *)ctx;
    *calls = qsb_count_comparisons(sort, base, n, size, qsb_comparator(size), NULL);
    return 0;
}

static qsb_sort_fn symbol(void *handle, const char *name)
{
    qsb_sort_fn fn;
    void *p = dlsym(handle, name);
    CHECK_MSG(p != NULL, "%s: %s", name, dlerror());
    memcpy(&fn, &p, sizeof fn); /* object to function pointer, as POSIX allows */
    return fn;
}

int main(void)
{
    if (QSB_GLIBC_PLUGIN[0] == '\0') {
        printf("SKIPPED: %s not found at configure time, so there is no glibc oracle "
               "(apt-get install glibc-source, then re-run cmake)\n", QSB_GLIBC_TARBALL);
        return 77;
    }
    void *handle = dlopen(QSB_GLIBC_PLUGIN, RTLD_NOW | RTLD_LOCAL);
    CHECK_MSG(handle != NULL, "%s", dlerror());
    if (!handle)
        return check_done();
    static const size_t counts[] = {0, 1, 2, 3, 7, 8, 9, 31, 100, 1000, 4097};
    static const size_t sizes[] = {1, 2, 3, 4, 8, 12, 16, 32, 33, 64};
    const oracle_grid grid = {counts, sizeof counts / sizeof counts[0], sizes,
                              sizeof sizes / sizeof sizes[0]};
    qsb_sort_fn msort = symbol(handle, "glibc_qsort_r");
    qsb_sort_fn quicksort = symbol(handle, "glibc_quicksort");
    if (msort)
        CHECK(oracle_grid_check("msort", &grid, run_glibc, &msort) == 0);
    if (quicksort)
        CHECK(oracle_grid_check("quicksort", &grid, run_glibc, &quicksort) == 0);
    dlclose(handle);
    return check_done();
}
