/*
** Pure statistics over samples: no I/O, no clock, no global state. Medians and order
** statistics are taken on copies sorted with libc's qsort, never with an algorithm under test.
*/
#ifndef QSB_STATS_H
#define QSB_STATS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

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

/* ---- Units (Kalibera & Jones): the experiment has levels, rounds within a unit and units
** within a run. A unit is a placement of the code (placement.h); samples of one unit share it and
** are not independent of each other, units are. So intervals are taken over units: the
** reported ones by a cluster bootstrap of the pooled median (qsb_unit_median_interval; over
** worker processes or pooled runs, by order statistics: qsb_unit_median_order_interval), and
** the schedule's measure of precision by t over the units' medians,
** center * exp(+-t(0.975, U-1) * sd(log unit medians) / sqrt(U)). Below QSB_MIN_UNITS units
** no interval is claimed. ---- */
#define QSB_MIN_UNITS 5

typedef struct {
    size_t units;    /* units with a finite value */
    double log_mean; /* mean and sd of the logs of the units' medians; NAN when unknown (a */
    double log_sd;   /* median <= 0, or a single unit for the sd) */
} qsb_unit_spread;

/* Groups values[i] by units[i] (non-finite values skipped) into the spread of the units'
** medians. units NULL gives 0 units. Returns 0, or -1 when out of memory. */
int qsb_unit_spread_of(const double *values, const uint32_t *units, size_t n,
                       qsb_unit_spread *out);

/* The 95% interval of the median of the units' medians by order statistics (as for samples
** above: [m(l), m(U+1-l)] of the U sorted unit medians), distribution-free, so a few speeds a
** unit can land on widen it no more than their share does. NANs under 6 units (no such
** interval), when a median is not positive, or without units. Returns 0, or -1 when out of
** memory. */
int qsb_unit_median_order_interval(const double *values, const uint32_t *units, size_t n,
                                   double *lo, double *hi);

/* Half-width of the 95% interval of the log of the estimate (t * sd / sqrt(U)); NAN below
** QSB_MIN_UNITS units. */
double qsb_unit_half_width(const qsb_unit_spread *s);

/* The half-width as a percentage of the estimate, (exp(h) - 1) * 100; INFINITY when none. */
double qsb_unit_precision_pct(const qsb_unit_spread *s);

/* How many units an interval of half-width pct % over units units would need to narrow to
** target_pct %, the units' spread staying as it is (the t quantile falls with them too): units
** when it is already within the target, else the fewest more that reach it, at most
** max_units; 0 when either width is not a positive finite number or units < 2. */
size_t qsb_units_for_precision(size_t units, double pct, double target_pct, size_t max_units);

/* ratios[i] = cand[i] / base[i], NAN where base[i] <= 0 or cand[i] is not finite. Returns 0,
** or -1 when no pair is valid. */
int qsb_paired_ratios(const double *base, const double *cand, size_t n, double *ratios);

/* The spread over units of the n paired ratios cand[i] / base[i] (sample i in units[i]): what
** a candidate's tests and the schedule's precision are made of. No valid pair gives 0 units.
** Returns 0, or -1 when out of memory. */
int qsb_paired_ratio_spread(const double *base, const double *cand, const uint32_t *units,
                            size_t n, qsb_unit_spread *out);

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

/* Two-sided Mann-Whitney U test p-value: exact when both samples have at most 20 values and
** no value is tied, else the normal approximation with tie and continuity corrections. NAN
** when a sample is empty or out of memory; 1 when every value is tied. */
double qsb_mann_whitney_p(const double *a, size_t na, const double *b, size_t nb);

/* The Hodges-Lehmann / Moses 95% interval of cand/base in percent: the ratios of every pair
** (base[i], cand[j]) sorted, the C-th from each end with C from the normal approximation of
** the U statistic's distribution. Returns 0, or -1 when it does not exist: a value <= 0, too
** few samples (C < 1), more than QSB_CHANGE_MAX_PAIRS pairs, or out of memory. */
#define QSB_CHANGE_MAX_PAIRS ((size_t)4 << 20)
int qsb_change_interval(const double *base, size_t nb, const double *cand, size_t nc,
                        double *lo_pct, double *hi_pct);

/* The smallest two-sided p the exact U test can give for samples of m and n values. */
double qsb_min_attainable_p(size_t m, size_t n);

/* ---- The level above units: time. The machine's state (other tenants, frequency) can change
** within minutes, moving every unit after the change: units then are not independent in time
** and their interval is too narrow for the next run. Each row's units are split in time into
** a first and a second half; the halves' means differ by more than the units' scatter
** predicts when the state moved. Pooled over the rows of a run, that excess is a factor
** (>= 1) by which the run's intervals are widened (docs/measurement.md). ---- */
#define QSB_DRIFT_MIN_UNITS 4 /* two units per half, at least */

typedef struct {
    double between;  /* sum over rows of the halves' mean logs' variance */
    double expected; /* what independent units would give */
    size_t rows;     /* rows with at least QSB_DRIFT_MIN_UNITS units */
} qsb_drift;

/* Adds a row: values[i] taken in units[i] (units numbered in time order, as a run does).
** Rows without units or with fewer than QSB_DRIFT_MIN_UNITS add nothing. 0, or -1 when out
** of memory. */
int qsb_drift_add(qsb_drift *d, const double *values, const uint32_t *units, size_t n);

/* sqrt(between / expected), at least 1; 1 without a row. */
double qsb_drift_factor(const qsb_drift *d);

/* Widens [lo, hi] around center by factor on the log scale:
** center * (bound / center)^factor. Nothing happens to unknown or non-positive bounds. */
void qsb_widen_interval(double center, double *lo, double *hi, double factor);

/* ---- Speed modes: a cell's units (processes) can settle at separated speeds for their
** whole life (where the code landed decides it, docs/measurement.md), so that their medians
** form two groups with a gap far wider than the scatter within either. A median of such a
** mixture jumps between the groups as their shares move; the run reports the modes. ---- */
#define QSB_MODES_MIN_UNITS 8   /* fewer units claim no modes */
#define QSB_MODE_MIN_SHARE 0.15 /* each mode holds this share of the units at least, and 2 */
#define QSB_MODE_MIN_GAP 0.05   /* the modes' nearest medians 5% apart at least */
#define QSB_MODE_GAP_SDS 4.0    /* ... and this many within-mode standard deviations (logs) */

typedef struct {
    bool found;       /* two modes */
    double split;     /* a unit median below it is in the fast mode [0], else the slow [1] */
    size_t count[2];  /* units in each mode */
    double center[2]; /* the geometric mean of each mode's unit medians */
} qsb_unit_modes;

/* The units' medians of values split at their widest gap between two admissible groups,
** claimed as modes where that gap is at least QSB_MODE_MIN_GAP and QSB_MODE_GAP_SDS
** within-mode standard deviations on the log scale. Returns 0, or -1 when out of memory. */
int qsb_unit_modes_of(const double *values, const uint32_t *units, size_t n,
                      qsb_unit_modes *out);

/* Each mode's geometric mean of the units' medians of values, the units assigned to the modes
** of m by their medians of `by` (a paired row: the mode a unit's baseline ran in); NAN for a
** mode without units. Returns 0, or -1 when out of memory. */
int qsb_unit_modes_centers(const qsb_unit_modes *m, const double *by, const double *values,
                           const uint32_t *units, size_t n, double center[2]);

/* ---- Tests over units, and corrections for many tests ---- */

/* The regularized incomplete beta function I_x(a, b) (a, b > 0, 0 <= x <= 1; NAN outside),
** by its continued fraction (modified Lentz), relative accuracy about 1e-14. */
double qsb_incomplete_beta(double a, double b, double x);

/* Student's t with df > 0 degrees of freedom (not necessarily whole: Welch), df INFINITY is
** the normal: P(T <= t), P(T >= t), and the quantile q with P(T <= q) = p (0 < p < 1). */
double qsb_t_cdf(double t, double df);
double qsb_t_sf(double t, double df);
double qsb_t_quantile(double p, double df);

/* Welch's comparison of the mean logs of two sets of units: diff = b.log_mean - a.log_mean,
** se = sqrt(sd_a^2 / U_a + sd_b^2 / U_b), df by Welch-Satterthwaite (INFINITY when se is 0).
** Returns 0, or -1 when either side has fewer than 2 units or no sd. */
typedef struct {
    double diff, se, df;
} qsb_welch;
int qsb_welch_units(const qsb_unit_spread *a, const qsb_unit_spread *b, qsb_welch *out);

/* P(T >= (diff - bound) / se) for T ~ t(df): the one-sided p of H0 "the true difference is at
** most bound". se 0 gives 0 when diff > bound, else 1. */
double qsb_one_sided_p(double diff, double se, double df, double bound);

/* Corrections of p-values for many tests. Holm (step-down Bonferroni) controls the chance of
** any false finding (family-wise error) under any dependence; Benjamini-Hochberg controls
** the expected share of false findings (false discovery rate) for independent or positively
** dependent tests. */
typedef enum { QSB_CORRECTION_HOLM, QSB_CORRECTION_BH, QSB_CORRECTION_NONE } qsb_correction;

/* "holm", "bh", "none" */
const char *qsb_correction_name(qsb_correction c);
/* The correction of that name: 0, or -1 for another name. */
int qsb_correction_of(const char *name, qsb_correction *out);

/* adjusted[i] for the finite p[i] (m of them: the tests), NAN elsewhere; adjusted[i] < alpha
** is the corrected decision at level alpha. Returns m, or -1 when out of memory (adjusted is
** then all NAN). p and adjusted may be the same array (a large family needs no second one),
** but may not overlap otherwise. */
long qsb_adjust_p(const double *p, size_t n, qsb_correction c, double *adjusted);

#endif
