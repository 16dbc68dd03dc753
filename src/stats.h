/*
** Pure statistics over samples: no I/O, no clock, no global state. Medians and order
** statistics are taken on copies sorted with libc's qsort, never with an algorithm under test.
*/
#ifndef QSB_STATS_H
#define QSB_STATS_H

#include <stddef.h>

#include "result.h"

/* min, median, mean, two-pass stddev, cv, 95% interval of the median (order statistics),
** outliers by the MAD rule. n == 0 gives NANs and 0 outliers. Returns 0, or -1 when out of
** memory (for the sorted copy). */
int qsb_summarize(const double *x, size_t n, qsb_summary *out);

double qsb_median_of_sorted(const double *sorted, size_t n);

/* The paired delta of the spec: median over i of (cand[i] / base[i] - 1) * 100, with a 95%
** interval (order statistics on the ratios). Pairs with base[i] <= 0 are skipped. Returns 0,
** or -1 when out of memory or no valid pair. */
int qsb_paired_delta(const double *base, const double *cand, size_t n, double *pct,
                     double *lo, double *hi);

/* Two-sided Mann-Whitney U test p-value (exact for small samples, normal approximation with
** tie correction otherwise). */
double qsb_mann_whitney_p(const double *a, size_t na, const double *b, size_t nb);

#endif
