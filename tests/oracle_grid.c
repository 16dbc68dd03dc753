/*
** The oracle grid (oracle_grid.h): for each cell, generate once, sort one copy with our entry
** and one with the oracle, compare counts and bytes. Each difference is printed on stderr
** (check.h's counters are per test file, so the caller checks the returned count).
*/
#include "oracle_grid.h"

#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "counting.h"
#include "element.h"
#include "patterns.h"

/* Returns 1 when the cell differs (or could not run), 0 when it matches. */
static int cell_differs(const qsb_algorithm *ours, oracle_sort_fn oracle, void *ctx,
                        const qsb_pattern *pattern, qsb_mode mode, size_t n, size_t size)
{
    const char *m = mode == QSB_MODE_DEFAULT ? "default" : "compat";
    size_t bytes = n * size;
    char *a = malloc(bytes + 1), *b = malloc(bytes + 1);
    const char *problem = NULL;
    uint64_t mine = 0, real = 0;
    if (!a || !b) {
        problem = "out of memory";
    } else {
        qsb_generate(pattern, a, n, size, QSB_DEFAULT_SEED, mode);
        memcpy(b, a, bytes);
        mine = qsb_count_comparisons(ours->sort, a, n, size, qsb_comparator(size), NULL);
        if (oracle(ctx, b, n, size, &real) != 0)
            problem = "the oracle failed";
        else if (mine != real)
            problem = "different comparator calls";
        else if (memcmp(a, b, bytes) != 0)
            problem = "different bytes";
    }
    if (problem)
        fprintf(stderr, "%s %s %s n=%zu size=%zu: %s (ours %" PRIu64 ", the real code %" PRIu64
                ")\n", ours->name, m, pattern->name, n, size, problem, mine, real);
    free(a);
    free(b);
    return problem != NULL;
}

unsigned long oracle_grid_check(const char *ours_name, const oracle_grid *grid,
                                oracle_sort_fn oracle, void *ctx)
{
    static const qsb_mode modes[] = {QSB_MODE_DEFAULT, QSB_MODE_COMPAT_2021};
    const qsb_algorithm *ours = qsb_algorithm_find(ours_name);
    unsigned long cells = 0, differ = 0;
    if (!ours) {
        fprintf(stderr, "'%s' is not in the registry\n", ours_name);
        return 1;
    }
    for (size_t p = 0; p < qsb_pattern_count; p++)
        for (size_t c = 0; c < grid->ncounts; c++)
            for (size_t s = 0; s < grid->nsizes; s++)
                for (size_t m = 0; m < sizeof modes / sizeof modes[0]; m++) {
                    cells++;
                    differ += cell_differs(ours, oracle, ctx, &qsb_patterns[p], modes[m],
                                           grid->counts[c], grid->sizes[s]);
                }
    printf("%s: %lu cells against the real code, %lu differ\n", ours_name, cells, differ);
    return differ;
}
