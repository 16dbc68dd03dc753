/*
** How long a run's cells take, estimated before the first sort (the run announces it, and
** plans its budget and its worker processes by it; plan.h).
**
** A round of a cell costs about its sorts' work n log2 n, wider elements costing more to move
** (shard.h qsb_shard_cell_cost: the same model splits shards); what a unit of work costs is
** probed on this machine, per pattern and per algorithm of the run: a sorted input takes a
** quarter of a random one's time here, and one algorithm can be several times another.
*/
#ifndef QSB_ESTIMATE_H
#define QSB_ESTIMATE_H

#include "run_config.h"

/* What this machine's sorts cost: seconds per unit of work of each pattern's round (its
** algorithms' sorts summed), in the order of cfg->patterns. */
typedef struct {
    double *round_per_work; /* n_patterns of them (malloc'd) */
    size_t n_patterns;
} qsb_sort_costs;

/* Probes the run's algorithms on each of its patterns (a few milliseconds each). QSB_OK, or
** an error (reported) when out of memory. */
int qsb_estimate_probe(const qsb_run_config *cfg, qsb_sort_costs *costs);
void qsb_sort_costs_free(qsb_sort_costs *costs);

/* Estimated seconds of one round of each cell the run visits (its shard's, in the matrix's
** order) into round_s, and of its first visit's extra work (the counted sorts, input and
** checks) into first_s: a pure function of the probed costs, so that tests give made-up
** ones. */
void qsb_estimate_cells(const qsb_run_config *cfg, const qsb_sort_costs *costs,
                        double *round_s, double *first_s);

#endif
