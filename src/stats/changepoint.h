/*
** Steps in a series of measurements, each with its own variance: the penalised, weighted
** least-squares step fit (optimal partitioning, Jackson et al. 2005) with PELT pruning
** (Killick, Fearnhead & Eckley 2012). The segmentation minimises
**
**     sum over segments of  sum_i (y_i - mean_w(segment))^2 / var_i   +  beta per step,
**
** the weighted cost asv's step detection also minimises (it uses the absolute deviation),
** over every placement of any number of steps. PELT drops a candidate start once it can no
** longer begin the last segment of an optimal fit, so the cost is close to linear in n on
** series with few steps. docs/measurement.md ("History: steps across commits") says why this
** method and how the variances and the penalty are chosen.
*/
#ifndef QSB_CHANGEPOINT_H
#define QSB_CHANGEPOINT_H

#include <stddef.h>

/* Above this many points, PELT's pruning (which needs steps to prune at) would leave a flat
** series quadratic: the fit then chooses only among the cuts binary segmentation proposes
** (Scott & Knott 1974; gate: a quarter of the penalty) and their neighbours, still exactly
** among those. */
#define QSB_STEP_FIT_EXACT_MAX 2000

/* The optimal segmentation of y[0..n-1] with variances var[0..n-1] (each > 0): the start
** index of every segment but the first, ascending, in starts (room for n entries); returns
** their count. A segment may start at i (1 <= i < n) only where can_start is NULL or
** can_start[i] is non-zero. Every segment but the last holds at least min_length points
** (a lone outlier inside the series is not a step; the newest points may be one). beta > 0:
** the penalty of each step. Returns (size_t)-1 when out of memory. */
size_t qsb_step_fit(const double *y, const double *var, const unsigned char *can_start,
                    size_t n, size_t min_length, double beta, size_t *starts);

/* The weighted mean of y[from..to-1] and its variance (1 / sum of 1/var). */
void qsb_weighted_mean(const double *y, const double *var, size_t from, size_t to,
                       double *mean, double *mean_var);

/* The variance between successive points that their own variances leave out, for series
** whose points are runs on a machine whose state moves between runs: the robust variance of
** the successive differences (1.4826 x their median absolute value, squared, halved: a step
** moves only one difference) less the median of var[]; 0 when that is negative or n < 3. */
double qsb_between_variance(const double *y, const double *var, size_t n);

#endif
