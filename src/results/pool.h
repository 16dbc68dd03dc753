/*
** Pooling runs (`merge --pool`): several runs of the same matrix on one machine, each a
** separate process at its own time, become one result in which every run is one unit. The
** level that one run cannot sample (its process and its minutes: docs/measurement.md, "The
** levels") is then the level the intervals are taken over:
**
** - samples: every run's rounds in which all its verified rows sorted, concatenated, each
**   sample's unit = the index of its run (0, 1, ...);
** - a median: the pooled median; its 95% interval (stats intervals.h, qsb_pooled_interval) from
**   6 runs the order-statistic interval of the runs' medians, with 5 t over the runs,
**   exp(m +- t(0.975, 4) * s / sqrt(5)), m and s the mean and sd of the runs' log medians,
**   stretched to hold the pooled median;
** - a delta (intervals.h, qsb_pooled_delta): from QSB_MIN_UNITS runs, the geometric mean of
**   the runs' paired ratios (each run's median of cand[i] / base[i]) with the t interval
**   exp(m +- t(0.975, U-1) * s / sqrt(U)) over them (a mixture of speed modes moves it
**   smoothly, where the median of the pooled ratios jumps between modes); under QSB_MIN_UNITS runs the spec's median of the
**   pooled paired ratios, no interval;
** - states (stats states.h): a row whose units' medians fall into separated groups gets them
**   in `states`, rounded as the files write them, each with its share, processes, median and
**   (a candidate, its units grouped by the baseline's states when it has them, else by its
**   own) delta with its t interval over the state's units, widened by the drift factor as the
**   row's, none when a state holds none of the row's units; a row with
**   states is noisy when a state of 3 units or more misses the precision (its speed's t
**   interval, or its delta's), else by its own intervals as before; none for exact counts;
** - a row failed in any run is failed; comparisons are the first run's (the counted sorts are
**   the same input each time); retaken and near_units add up;
** - the context is the first run's, incomplete when any was, its drift factors 1 (the runs
**   are the level above), its repetitions say it was pooled, its run id the runs' XORed.
**
** The runs must agree on metric, machine, seed, mode, baseline, shard, their whole matrix
** (when their files give it), their cells and rows and their algorithms' identities (the same
** command; runs of one shard pool into that shard, which merge then joins with the others);
** otherwise one line through diag naming the first difference and QSB_EUSAGE. Fewer than
** QSB_MIN_UNITS runs pool without intervals, and a warning says so. No run may be given twice
** (its run id, or identical samples): one line naming both files,
** QSB_EUSAGE.
*/
#ifndef QSB_POOL_H
#define QSB_POOL_H

#include <stddef.h>

#include "merge.h"

/* Whether run b may stand beside run a as another run of the same command, as pooling and
** compare --calibration need: not the same run (its run id, or identical samples), and the
** same metric, machine, inputs, baseline, shard, matrix, cells and algorithms (a plug-in's
** library and symbol, as the command lines give them). QSB_OK,
** or one line naming who ("compare --calibration"), both files and the first difference,
** QSB_EUSAGE. */
int qsb_check_separate_runs(const char *who, const qsb_results *a, const char *file_a,
                            const qsb_results *b, const char *file_b);

/* Pools the separate runs in[0..n-1] (merge --pool; their results are freed, also on
** failure) into *out; the drift factors stay 1. Returns QSB_OK, QSB_EUSAGE or QSB_ESYSTEM
** (reported). */
int qsb_pool_runs(qsb_merge_input *in, size_t n, qsb_results *out);

/* The same for a series: the processes of one run in time order (in[0] the first), of which
** those after the first may hold only some of its cells (a cell's units are then the
** processes that visited it); the time level is measured over them and widens the intervals
** (result.h qsb_widen_for_time). */
int qsb_pool_series(qsb_merge_input *in, size_t n, qsb_results *out);

#endif
