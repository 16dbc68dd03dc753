/*
** The oracle grid: one of our sorts against the real libc code it follows, on every pattern x
** counts x sizes x both input modes (default seed), with the same input bytes. Each cell must
** make the same number of comparator calls and leave the same bytes (the sorts are the same
** algorithm, so even unstable ones order equal keys alike). Used by test_musl_oracle and
** test_glibc_oracle; each differing cell is named on stderr.
*/
#ifndef QSB_ORACLE_GRID_H
#define QSB_ORACLE_GRID_H

#include <stddef.h>
#include <stdint.h>

#include "registry.h"

/* The real code: sorts base (n elements of size bytes) with the spec's comparator of that
** size, sets *calls to its comparator calls, returns 0 (or -1 when it could not run). */
typedef int (*oracle_sort_fn)(void *ctx, void *base, size_t n, size_t size, uint64_t *calls);

typedef struct {
    const size_t *counts;
    size_t ncounts;
    const size_t *sizes;
    size_t nsizes;
} oracle_grid;

/* Runs the whole grid; returns the number of cells that differ (0: all match). */
unsigned long oracle_grid_check(const char *ours_name, const oracle_grid *grid,
                                oracle_sort_fn oracle, void *ctx);

#endif
