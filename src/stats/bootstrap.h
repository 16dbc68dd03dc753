/*
** The cluster bootstrap of a pooled median over units, and the summaries and paired deltas
** whose intervals it gives.
*/
#ifndef QSB_BOOTSTRAP_H
#define QSB_BOOTSTRAP_H

#include "summary.h"

#include <stddef.h>
#include <stdint.h>

/* The reported intervals: the 95% interval of the median of all the values (the spec's
** estimate, pooled over units) by a cluster bootstrap that resamples whole units with
** replacement QSB_BOOTSTRAP_RESAMPLES times (percentile interval). Resampling units, not
** samples, keeps what the samples of a unit share; it follows the pooled median where it
** jumps, as it does when placement makes a sort bimodal. The resampling seed is fixed: the
** interval is a pure function of the samples. NANs below QSB_MIN_UNITS units or without
** units. Returns 0, or -1 when out of memory. (The t interval above is the schedule's cheaper
** measure of which cells need more units.) */
#define QSB_BOOTSTRAP_RESAMPLES 1000
#define QSB_BOOTSTRAP_SEED UINT64_C(0x9abc56781234)
int qsb_unit_median_interval(const double *values, const uint32_t *units, size_t n, double *lo,
                             double *hi);

/* qsb_paired_delta's point estimate (the spec's median of paired ratios); with units, the
** interval is the cluster bootstrap's, else order statistics as there. */
int qsb_paired_delta_units(const double *base, const double *cand, const uint32_t *units,
                           size_t n, double *pct, double *lo, double *hi);

/* qsb_summarize; with units, the median's interval is the cluster bootstrap's. */
int qsb_summarize_units(const double *x, const uint32_t *units, size_t n, qsb_summary *out);

#endif
