/*
** Pure statistics over samples: no I/O, no clock, no global state. Medians and order
** statistics are taken on copies sorted with libc's qsort, never with an algorithm under test.
*/
#ifndef QSB_STATS_H
#define QSB_STATS_H

#include <stddef.h>

#include "result.h"

/* min, median, mean, two-pass stddev, cv, 95% interval of the median (order statistics),
** outliers by the MAD rule. n == 0 gives NANs and 0 outliers; the stddev (n - 1) and cv are
** NAN below 2 samples, the median's interval below 6. Samples must not be NAN. Returns 0, or
** -1 when out of memory (for the sorted copy). */
int qsb_summarize(const double *x, size_t n, qsb_summary *out);

double qsb_median_of_sorted(const double *sorted, size_t n);

/* The rank l (1-based) such that [x(l), x(n+1-l)] of n sorted samples is the 95% interval of
** the median by order statistics (exact binomial up to n = 200, normal approximation above);
** 0 when n < 6, where no such interval exists. */
size_t qsb_median_ci_rank(size_t n);

/* The paired delta of the spec: median over i of (cand[i] / base[i] - 1) * 100, with a 95%
** interval (order statistics on the ratios; NAN below 6 pairs). Pairs with base[i] <= 0 or a
** non-finite cand[i] are skipped. Returns 0, or -1 when out of memory or no valid pair. */
int qsb_paired_delta(const double *base, const double *cand, size_t n, double *pct,
                     double *lo, double *hi);

/* Two-sided Mann-Whitney U test p-value: exact when both samples have at most 20 values and
** no value is tied, else the normal approximation with tie and continuity corrections. NAN
** when a sample is empty or out of memory; 1 when every value is tied. */
double qsb_mann_whitney_p(const double *a, size_t na, const double *b, size_t nb);

#endif
