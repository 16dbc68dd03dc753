/*
** Student's t distribution (from the regularized incomplete beta), the chi-square's tail, and
** Welch's comparisons of sets of units on the log scale: two (a difference and its se), or
** several (one test that they share a mean).
*/
#ifndef QSB_STUDENT_T_H
#define QSB_STUDENT_T_H

#include "units.h"

/* The regularized incomplete beta function I_x(a, b) (a, b > 0, 0 <= x <= 1; NAN outside),
** by its continued fraction (modified Lentz), relative accuracy about 1e-14. */
double qsb_incomplete_beta(double a, double b, double x);

/* Student's t with df > 0 degrees of freedom (not necessarily whole: Welch), df INFINITY is
** the normal: P(T <= t), P(T >= t), and the quantile q with P(T <= q) = p (0 < p < 1). */
double qsb_t_cdf(double t, double df);
double qsb_t_sf(double t, double df);
double qsb_t_quantile(double p, double df);

/* P(X >= x) for X ~ chi-square with k > 0 degrees of freedom (the regularized upper incomplete
** gamma Q(k/2, x/2), relative accuracy about 1e-14); NAN for k <= 0. */
double qsb_chi2_sf(double x, double k);

/* Welch's comparison of the mean logs of two sets of units: diff = b.log_mean - a.log_mean,
** se = sqrt(sd_a^2 / U_a + sd_b^2 / U_b), df by Welch-Satterthwaite (INFINITY when se is 0).
** Returns 0, or -1 when either side has fewer than 2 units or no sd. */
typedef struct {
    double diff, se, df;
} qsb_welch;
int qsb_welch_units(const qsb_unit_spread *a, const qsb_unit_spread *b, qsb_welch *out);

/* Welch's one-way test that sets[0..k) share one mean log (Welch 1951, for unequal spreads):
** the spread of the sets' means weighted by U / sd^2 against what their errors give, an F with
** k - 1 and a Welch-Satterthwaite df. Sets of fewer than 2 units or no finite sd are left out;
** for two sets the p is the two-sided p of qsb_welch_units' t. The p, or NAN when fewer than
** two sets are left or one has sd 0. */
double qsb_welch_anova_p(const qsb_unit_spread *sets, size_t k);

/* P(T >= (diff - bound) / se) for T ~ t(df): the one-sided p of H0 "the true difference is at
** most bound". se 0 gives 0 when diff > bound, else 1. */
double qsb_one_sided_p(double diff, double se, double df, double bound);

#endif
