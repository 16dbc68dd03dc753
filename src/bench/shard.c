/*
** The shards of a matrix: a longest-processing-time-first split by estimated cost (shard.h).
*/
#include "shard.h"

#include <math.h>
#include <stdlib.h>

double qsb_shard_cell_cost(uint64_t nelem, uint64_t size, size_t algos)
{
    double n = (double)nelem;
    return n * log2(n > 2 ? n : 2) * (1.0 + (double)size / 32.0) * (double)algos;
}

/* Largest cost first; equal costs in matrix order. */
static int by_cost(const void *pa, const void *pb, void *ctx)
{
    const double *cost = ctx;
    size_t a = *(const size_t *)pa, b = *(const size_t *)pb;
    if (cost[a] != cost[b])
        return (cost[a] < cost[b]) - (cost[a] > cost[b]);
    return (a > b) - (a < b);
}

int qsb_shard_assign(const double *cost, size_t n, uint32_t nshards, uint32_t *owner)
{
    size_t *order = malloc((n ? n : 1) * sizeof *order);
    double *load = calloc(nshards ? nshards : 1, sizeof *load);
    if (!order || !load) {
        free(order);
        free(load);
        return -1;
    }
    for (size_t i = 0; i < n; i++)
        order[i] = i;
    qsort_r(order, n, sizeof *order, by_cost, (void *)cost);
    for (size_t j = 0; j < n; j++) {
        uint32_t best = 0;
        for (uint32_t s = 1; s < nshards; s++)
            if (load[s] < load[best])
                best = s;
        owner[order[j]] = best;
        load[best] += cost[order[j]];
    }
    free(order);
    free(load);
    return 0;
}

size_t qsb_shard_cells(const uint64_t *nelem, size_t n_nelem, const uint64_t *sizes,
                       size_t n_sizes, size_t n_patterns, size_t algos, uint32_t k,
                       uint32_t nshards, unsigned char *in)
{
    size_t n = n_patterns * n_sizes * n_nelem, c = 0, count = 0;
    double *cost = malloc((n ? n : 1) * sizeof *cost);
    uint32_t *owner = malloc((n ? n : 1) * sizeof *owner);
    if (!cost || !owner) {
        free(cost);
        free(owner);
        return SIZE_MAX;
    }
    for (size_t p = 0; p < n_patterns; p++)
        for (size_t z = 0; z < n_sizes; z++)
            for (size_t e = 0; e < n_nelem; e++)
                cost[c++] = qsb_shard_cell_cost(nelem[e], sizes[z], algos);
    int failed = qsb_shard_assign(cost, n, nshards, owner) != 0;
    for (size_t i = 0; i < n && !failed; i++) {
        in[i] = owner[i] == k - 1;
        count += in[i];
    }
    free(cost);
    free(owner);
    return failed ? SIZE_MAX : count;
}
