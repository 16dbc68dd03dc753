/*
** Interval procedures built on the statistics of stats.h, over plain arrays (the result
** structure walks its rows and calls these):
**
** - pooled intervals, where every unit is a separate run or worker process: a median's from 6
**   units the order-statistic interval of the units' medians, with 5 the t interval over
**   them, either stretched to hold the pooled estimate; a delta's the geometric mean of the
**   units' ratios with its t interval; none under QSB_MIN_UNITS units;
** - the time level: a result's rows pooled into two drift factors (qsb_drift: one for the
**   medians, one for the paired ratios of the deltas), by which every interval is widened on
**   the log scale.
**
** Deltas and their bounds are percentages (cand / base - 1) * 100; a bound is kept as an
** offset from its delta, so a bound equal to the delta stays equal, rounding or not.
*/
#ifndef QSB_INTERVALS_H
#define QSB_INTERVALS_H

#include <stddef.h>
#include <stdint.h>

#include "stats.h"

/* The 95% interval of the pooled estimate `center` of values[] (value i in units[i]) over
** their units, as above. NANs under QSB_MIN_UNITS units. Returns 0, or -1 when out of
** memory. */
int qsb_pooled_interval(double center, const double *values, const uint32_t *units, size_t n,
                        double *lo, double *hi);

/* The pooled delta of the paired ratios cand[i] / base[i] (percent) and its 95% interval
** into *lo_pct, *hi_pct: from QSB_MIN_UNITS units the geometric mean of the units' ratios
** (each unit's median of its ratios) and the t interval over them, exp(m +- t(0.975, U-1) *
** s / sqrt(U)); *delta_pct is replaced. A mixture of speed modes moves that mean smoothly
** with the modes' shares, where the median of the pooled ratios jumps between them, and the
** t interval narrows as 1/sqrt(U) where the order statistics of the units' medians are wider
** and coarser. Under QSB_MIN_UNITS units *delta_pct (the pooled median) is kept and its
** bounds are NAN. Unchanged when no pair is valid. Returns 0, or -1 when out of memory. */
int qsb_pooled_delta(const double *base, const double *cand, const uint32_t *units,
                     size_t pairs, double *delta_pct, double *lo_pct, double *hi_pct);

/* The time level of one result, accumulated row by row. Zero-initialise. */
typedef struct {
    qsb_drift medians; /* every verified row's samples */
    qsb_drift ratios;  /* every verified candidate's paired ratios with its verified baseline */
} qsb_time_level;

/* A verified row's samples (sample i in units[i], numbered in time order). 0, or -1 when out
** of memory. */
int qsb_time_level_add_row(qsb_time_level *t, const double *samples, const uint32_t *units,
                           size_t n);

/* A verified candidate's paired ratios with its verified baseline (the first min(n, base_n)
** samples of each; the candidate's units). 0, or -1 when out of memory. */
int qsb_time_level_add_pair(qsb_time_level *t, const double *base, size_t base_n,
                            const double *cand, const uint32_t *units, size_t n);

/* [lo_pct, hi_pct] of the delta delta_pct widened by factor on the ratio's log scale. Unknown
** bounds stay unknown. */
void qsb_widen_delta(double delta_pct, double *lo_pct, double *hi_pct, double factor);

#endif
