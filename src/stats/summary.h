/*
** Summaries of samples: min, median and its interval by order statistics, mean, standard
** deviation, outliers, and the paired delta of two runs. Order statistics are taken on copies
** sorted with libc's qsort, never with an algorithm under test.
*/
#ifndef QSB_SUMMARY_H
#define QSB_SUMMARY_H

#include <stddef.h>

/* What a row's samples come to (result.h keeps one per row). */
typedef struct {
    double min, median, mean, stddev;
    double cv;                  /* stddev / mean */
    double median_lo, median_hi; /* 95% interval of the median; NAN when unknown */
    unsigned outliers;          /* median-absolute-deviation rule */
} qsb_summary;

/* min, median, mean, two-pass stddev, cv, 95% interval of the median (order statistics),
** outliers by the MAD rule. n == 0 gives NANs and 0 outliers; the stddev (n - 1) and cv are
** NAN below 2 samples, the median's interval below 6. Samples must not be NAN. Returns 0, or
** -1 when out of memory (for the sorted copy). */
int qsb_summarize(const double *x, size_t n, qsb_summary *out);

double qsb_median_of_sorted(const double *sorted, size_t n);

/* The spread of x[0..n) around its median that a normal's sd would be, robust to outliers:
** 1.4826 times the median absolute deviation. scratch has n slots. */
double qsb_robust_sd(const double *x, size_t n, double median, double *scratch);

/* The median of the finite values of x[0..n), sorted in place (NANs moved to the end); NAN
** when none is finite. */
double qsb_median_of_finite(double *x, size_t n);

/* Sorts x ascending with libc's qsort (never an algorithm under test). x must hold no NAN. */
void qsb_sort_doubles(double *x, size_t n);

/* The rank l (1-based) such that [x(l), x(n+1-l)] of n sorted samples is the 95% interval of
** the median by order statistics (exact binomial up to n = 200, normal approximation above);
** 0 when n < 6, where no such interval exists. */
size_t qsb_median_ci_rank(size_t n);

/* The paired delta of the spec: median over i of (cand[i] / base[i] - 1) * 100, with a 95%
** interval (order statistics on the ratios; NAN below 6 pairs). Pairs with base[i] <= 0 or a
** non-finite cand[i] are skipped. Returns 0, or -1 when out of memory or no valid pair. */
int qsb_paired_delta(const double *base, const double *cand, size_t n, double *pct,
                     double *lo, double *hi);

/* The 95% interval of the median of n sorted values by order statistics, [x(l), x(n+1-l)]
** with l = qsb_median_ci_rank(n); NANs when no such interval exists (n < 6). */
void qsb_median_interval_of_sorted(const double *sorted, size_t n, double *lo, double *hi);

/* The mean of n > 0 values; the sample standard deviation (n - 1) around that mean, in a
** second pass over the deviations, NAN below 2 values. */
double qsb_mean(const double *x, size_t n);
double qsb_stddev(const double *x, size_t n, double mean);

/* The standard normal's 97.5% quantile. */
#define QSB_Z_975 1.959963984540054

#endif
