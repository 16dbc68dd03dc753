/*
** reference_counts: measures the comparator calls of a sort in a plug-in (a shared object with
** qsort_r's signature, e.g. a glibc tree's code built by tools/glibc-qsort-plugin) on the
** reference grid, and prints them as a reference CSV for test_reference:
**
**   reference_counts PLUGIN.so SYMBOL COLUMN > comparisons-COLUMN.csv
**
** Grid: both input modes (compat, default) x every pattern x the lengths of the suite's
** reference (0 1 2 3 5 6 7 17 32 100 1000 4096) x every element size 1..64, the default seed,
** inputs from qsb_generate, the patterns spec's comparator. Columns: mode, seed, pattern,
** nelem, size, then COLUMN (the registry entry the counts are for). Also checks that each
** result is sorted (exit 1 when one is not). Not a ctest test: it makes reference data.
*/
#include <dlfcn.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "counting.h"
#include "element.h"
#include "patterns.h"
#include "registry.h"

#define MAX_SIZE 64

static const size_t lengths[] = {0, 1, 2, 3, 5, 6, 7, 17, 32, 100, 1000, 4096};

static int sorted(const char *base, size_t n, size_t size)
{
    for (size_t i = 1; i < n; i++)
        if (qsb_key(base + (i - 1) * size, size) > qsb_key(base + i * size, size))
            return 0;
    return 1;
}

/* Prints one row per cell of `mode`; returns the number of unsorted results. */
static unsigned long measure_mode(qsb_sort_fn sort, qsb_mode mode, char *buf)
{
    unsigned long unsorted = 0;
    for (size_t p = 0; p < qsb_pattern_count; p++)
        for (size_t l = 0; l < sizeof lengths / sizeof lengths[0]; l++)
            for (size_t size = 1; size <= MAX_SIZE; size++) {
                size_t n = lengths[l];
                qsb_generate(&qsb_patterns[p], buf, n, size, QSB_DEFAULT_SEED, mode);
                uint64_t calls = qsb_count_comparisons(sort, buf, n, size,
                                                       qsb_comparator(size), NULL);
                if (!sorted(buf, n, size)) {
                    fprintf(stderr, "%s n=%zu size=%zu: not sorted\n", qsb_patterns[p].name,
                            n, size);
                    unsorted++;
                }
                printf("%s,0x%" PRIx64 ",%s,%zu,%zu,%" PRIu64 "\n",
                       mode == QSB_MODE_COMPAT_2021 ? "compat" : "default", QSB_DEFAULT_SEED,
                       qsb_patterns[p].name, n, size, calls);
            }
    return unsorted;
}

int main(int argc, char **argv)
{
    if (argc != 4) {
        fprintf(stderr, "usage: reference_counts PLUGIN.so SYMBOL COLUMN\n");
        return 2;
    }
    void *handle = dlopen(argv[1], RTLD_NOW | RTLD_LOCAL);
    void *symbol = handle ? dlsym(handle, argv[2]) : NULL;
    if (!symbol) {
        fprintf(stderr, "reference_counts: %s\n", dlerror());
        return 2;
    }
    qsb_sort_fn sort;
    memcpy(&sort, &symbol, sizeof sort); /* object to function pointer, as POSIX allows */
    char *buf = malloc(lengths[sizeof lengths / sizeof lengths[0] - 1] * MAX_SIZE + 1);
    if (!buf)
        return 3;
    printf("mode,seed,pattern,nelem,size,%s\n", argv[3]);
    unsigned long unsorted = measure_mode(sort, QSB_MODE_COMPAT_2021, buf) +
                             measure_mode(sort, QSB_MODE_DEFAULT, buf);
    free(buf);
    dlclose(handle);
    return unsorted ? 1 : 0;
}
