/*
** Units, the independent level of the experiment: the spread of the units' medians, the
** order-statistic interval of their median, the precision they give and how many a target
** needs, the paired ratios that a candidate's tests are made of, and the time level above
** units, the drift between a run's halves that widens its intervals.
*/
#ifndef QSB_UNITS_H
#define QSB_UNITS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* Units (Kalibera & Jones): the experiment has levels, rounds within a unit and units
** within a run. A unit is a placement of the code (placement.h); samples of one unit share it and
** are not independent of each other, units are. So intervals are taken over units: the
** reported ones by a cluster bootstrap of the pooled median (qsb_unit_median_interval; over
** worker processes or pooled runs, by order statistics: qsb_unit_median_order_interval), and
** the schedule's measure of precision by t over the units' medians,
** center * exp(+-t(0.975, U-1) * sd(log unit medians) / sqrt(U)). Below QSB_MIN_UNITS units
** no interval is claimed. */
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


/* The level above units: time. How much a run's rows moved between the halves of their
** units, as a factor that widens the run's intervals. */

/* The machine's state (other tenants, frequency) can change
** within minutes, moving every unit after the change: units then are not independent in time
** and their interval is too narrow for the next run. Each row's units are split in time into
** a first and a second half; the halves' means differ by more than the units' scatter
** predicts when the state moved. Pooled over the rows of a run, that excess is a factor
** (>= 1) by which the run's intervals are widened (docs/measurement.md). */
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

#endif
