/*
** Where a run's time went (run.h qsb_run_totals), from its own measurements or from what its
** worker processes' files say (the time split, result.h qsb_time_split), recorded into its
** results and told in its last lines on stderr: the noisy cells, the drift, and the overhead
** and peak memory.
*/
#ifndef QSB_TOTALS_H
#define QSB_TOTALS_H

#include <stdbool.h>
#include <stddef.h>

#include "result.h"
#include "run.h"
#include "run_config.h"

/* The workers' pooled cells into the run's results (the context stays the run's, but for the
** drift and whether it is incomplete: pooled's), and what they spent (their sum, pool.c)
** into totals beside the run's own generation of the inputs. pooled gets the run's previous
** cells, to be freed with it. */
void qsb_totals_take_workers(qsb_results *results, qsb_results *pooled,
                             qsb_run_totals *totals);

/* The time split of totals over wall_ns into the context (wall 0: the split is unknown). */
void qsb_totals_record_split(qsb_context *c, const qsb_run_totals *t, double wall_ns);

/* One warning for all the noisy cells (with the units the precision would take), one when
** the drift widened r's intervals markedly. */
void qsb_totals_warn(const qsb_run_config *cfg, const qsb_run_totals *t, const qsb_results *r);

/* The last line: the wall time inside timed sorts and where the rest went, the peak memory;
** processes > 1: a run of that many worker processes (their sums, the children's peak), jobs
** of them at once (--jobs: the shares are of jobs times the wall time). */
void qsb_totals_print(const qsb_run_totals *t, double wall_ns, qsb_metric metric,
                      size_t processes, size_t jobs);

#endif
