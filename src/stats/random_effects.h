/*
** The level between runs, from a history of runs of one thing on one machine: each run gives
** an estimate y[i] (a log delta, or a log median) with its own within-run variance v[i] (from
** its 95% interval); the runs scatter around a common mean by a between-run variance tau^2
** that no run's own interval sees. DerSimonian and Laird's moment estimate of tau^2, the
** random-effects mean, the prediction interval of one new run, a row's tau^2 shrunk toward
** the machine's pooled one where the row has few runs, and the smallest change a gate of that
** spread sees. The method and why: docs/measurement.md, "The run level from history".
*/
#ifndef QSB_RANDOM_EFFECTS_H
#define QSB_RANDOM_EFFECTS_H

#include <stddef.h>

/* Runs a row's own tau^2 counts for against the machine's pooled one (K0 pseudo-runs). */
#define QSB_SHRINK_RUNS 5.0
/* Below this many runs no level is claimed ("run level unknown (N runs)"). */
#define QSB_LEVEL_MIN_RUNS 5

typedef struct {
    size_t k;      /* runs with a finite estimate and a positive variance */
    double tau2;   /* between-run variance (>= 0); NAN under 2 runs */
    double mean;   /* the random-effects mean, weights 1 / (v + tau^2) */
    double mean_var; /* its variance */
    double q;      /* Cochran's Q (heterogeneity) */
} qsb_random_effects;

/* DerSimonian-Laird over y[0..n), v[0..n) (pairs with a non-finite y or v <= 0 left out).
** Returns 0, or -1 with out->k < 2 (one run: its estimate and variance as the mean, tau^2
** NAN; none: NANs). */
int qsb_random_effects_dl(const double *y, const double *v, size_t n, qsb_random_effects *out);

/* A row's tau^2 from k runs, shrunk toward the pooled one: (k tau2 + K0 pooled) / (k + K0);
** the pooled alone where the row has none (NAN tau2). */
double qsb_tau2_shrunk(double tau2, size_t k, double pooled);

/* The sd of one new run's estimate around the history's mean: sqrt(tau^2 + the mean's variance
** + the new run's own variance); the prediction interval is mean +- t(0.975, df) times it. */
double qsb_prediction_sd(const qsb_random_effects *re, double tau2, double v_new);

/* That prediction's degrees of freedom (Welch-Satterthwaite): the history's part, tau^2 and the
** mean's variance, is estimated from k runs (k - 1 df); the new run's own variance comes with
** its interval, whose quantile already counts its units, so it counts as known. k - 1 where
** the history's part is all, more the larger the new run's share; INFINITY under 2 runs. */
double qsb_prediction_df(const qsb_random_effects *re, double tau2, double v_new);

/* Runs of a view (summed k - 1 over its rows) below which its dispersion is not estimated. */
#define QSB_DISPERSION_MIN_DF 30.0

/* The smallest true slowdown, in %, that a one-sided test of "slower than threshold_pct" at
** level alpha catches with 80% power when its log estimate has sd and df degrees of freedom
** (INFINITY: a normal's): the threshold's log plus (t(1 - alpha, df) + t(0.8, df)) sd. It is
** always above the threshold: a pass rules out slowdowns above it, not above the threshold. */
double qsb_detectable_pct(double threshold_pct, double sd, double alpha, double df);

/* A spread's 95% half-width as a percentage: (exp(1.96 sqrt(var)) - 1) * 100. */
double qsb_level_pct(double var);

/* The variance of an estimate from its 95% interval [log_lo, log_hi] on the log scale,
** ((log_hi - log_lo) / 2 / 1.96)^2, the inverse of qsb_level_pct; NAN for an interval without
** width. */
double qsb_interval_variance(double log_lo, double log_hi);

#endif
