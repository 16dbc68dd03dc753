/*
** The time level of a result (stats.h, qsb_drift): a result whose units are numbered in time
** order (the units of one process, or the worker processes of a run) is checked for a state
** of the machine that moved between the first and the second half of its units, and its
** intervals are widened by what was found (docs/measurement.md, "Intervals").
*/
#ifndef QSB_TIME_LEVEL_H
#define QSB_TIME_LEVEL_H

#include "result.h"

/* Pools every verified row's units into two factors (>= 1): one for the deltas (paired ratios)
** and one for the medians; records them in the context (drift_ratios, drift_medians) and
** widens every interval by them on the log scale. Returns 0, or -1 when out of memory. */
int qsb_widen_for_time(qsb_results *r);

#endif
