/*
** Shards: `run --shard K/N` runs part K (1-based) of N of the matrix's cells, so
** that N jobs of any engine (CI, Slurm) together run the matrix once; `merge` joins them.
**
** The split is deterministic, from the matrix alone: each cell's estimated cost
**   n log2 n * (1 + size/32) * algorithms
** (the run's own estimate, estimate.h), then longest processing time first: cells by cost,
** largest first (ties: the lower matrix index first), each to the shard with the least cost
** so far (ties: the lowest shard). The largest shard is then at most 4/3 of the optimum.
** Cells are indexed in matrix order: pattern, then element size, then element count.
*/
#ifndef QSB_SHARD_H
#define QSB_SHARD_H

#include <stddef.h>
#include <stdint.h>

/* Estimated cost of one cell (any unit: only ratios matter). */
double qsb_shard_cell_cost(uint64_t nelem, uint64_t size, size_t algos);

/* owner[i] = the shard (0 .. nshards-1) of cell i, for n cells of the given costs. Returns 0,
** or -1 when out of memory. */
int qsb_shard_assign(const double *cost, size_t n, uint32_t nshards, uint32_t *owner);

/* Which cells of the matrix (n_patterns x n_sizes x n_nelem, matrix order) shard k of
** nshards (1-based k) runs: in[i] set for those. Returns how many, or SIZE_MAX when out of
** memory. */
size_t qsb_shard_cells(const uint64_t *nelem, size_t n_nelem, const uint64_t *sizes,
                       size_t n_sizes, size_t n_patterns, size_t algos, uint32_t k,
                       uint32_t nshards, unsigned char *in);

#endif
