/*
** Pooled intervals and the time level's widening (see intervals.h).
*/
#include "intervals.h"

#include <math.h>
#include <stdbool.h>
#include <stdlib.h>

/* The t interval over the units, exp(mean log +- h), stretched to hold the pooled estimate
** `center` where a bimodal cell puts it off that mean; NAN under QSB_MIN_UNITS. */
static void t_bounds(double center, const qsb_unit_spread *s, double *lo, double *hi)
{
    double h = qsb_unit_half_width(s);
    bool known = isfinite(h) && isfinite(s->log_mean) && center > 0;
    *lo = known ? fmin(center, exp(s->log_mean)) * exp(-h) : NAN;
    *hi = known ? fmax(center, exp(s->log_mean)) * exp(h) : NAN;
}

/* From 6 units the order statistics of the units' medians, which aim at the median the
** spec's estimate is (a t interval aims at the mean of logs, and where the units land on a
** few speeds the two differ by more than the interval: stretched to hold the median, it
** stopped narrowing with more units); with 5, the t interval (no order-statistic interval
** exists). */
int qsb_pooled_interval(double center, const double *values, const uint32_t *units, size_t n,
                        double *lo, double *hi)
{
    if (qsb_unit_median_order_interval(values, units, n, lo, hi) != 0)
        return -1;
    if (isfinite(*lo) && isfinite(*hi) && center > 0) {
        *lo = fmin(*lo, center);
        *hi = fmax(*hi, center);
        return 0;
    }
    qsb_unit_spread s;
    if (qsb_unit_spread_of(values, units, n, &s) != 0)
        return -1;
    t_bounds(center, &s, lo, hi);
    return 0;
}

/* Over QSB_MIN_UNITS units or more: the geometric mean of the units' ratios and its t
** interval; else the median's order-statistic or t interval of qsb_pooled_interval. */
static int pooled_delta_of(const double *ratios, const uint32_t *units, size_t pairs,
                           double *delta_pct, double *lo_pct, double *hi_pct)
{
    qsb_unit_spread s;
    if (qsb_unit_spread_of(ratios, units, pairs, &s) != 0)
        return -1;
    double h = qsb_unit_half_width(&s);
    if (isfinite(h) && isfinite(s.log_mean)) {
        *delta_pct = expm1(s.log_mean) * 100.0;
        *lo_pct = expm1(s.log_mean - h) * 100.0;
        *hi_pct = expm1(s.log_mean + h) * 100.0;
        return 0;
    }
    double ratio = 1.0 + *delta_pct / 100.0, lo = NAN, hi = NAN;
    if (qsb_pooled_interval(ratio, ratios, units, pairs, &lo, &hi) != 0)
        return -1;
    *lo_pct = *delta_pct + (lo - ratio) * 100.0;
    *hi_pct = *delta_pct + (hi - ratio) * 100.0;
    return 0;
}

int qsb_pooled_delta(const double *base, const double *cand, const uint32_t *units,
                     size_t pairs, double *delta_pct, double *lo_pct, double *hi_pct)
{
    double *ratios = malloc((pairs ? pairs : 1) * sizeof *ratios);
    if (!ratios)
        return -1;
    int status = qsb_paired_ratios(base, cand, pairs, ratios) == 0
                     ? pooled_delta_of(ratios, units, pairs, delta_pct, lo_pct, hi_pct)
                     : 0;
    free(ratios);
    return status;
}

int qsb_time_level_add_row(qsb_time_level *t, const double *samples, const uint32_t *units,
                           size_t n)
{
    return qsb_drift_add(&t->medians, samples, units, n);
}

int qsb_time_level_add_pair(qsb_time_level *t, const double *base, size_t base_n,
                            const double *cand, const uint32_t *units, size_t n)
{
    size_t pairs = n < base_n ? n : base_n;
    double *ratios = malloc((pairs ? pairs : 1) * sizeof *ratios);
    if (!ratios)
        return -1;
    int status = qsb_paired_ratios(base, cand, pairs, ratios) == 0
                     ? qsb_drift_add(&t->ratios, ratios, units, pairs)
                     : 0;
    free(ratios);
    return status;
}

void qsb_widen_delta(double delta_pct, double *lo_pct, double *hi_pct, double factor)
{
    if (factor == 1.0 || !isfinite(*lo_pct))
        return;
    double center = 1.0 + delta_pct / 100.0;
    double lo = 1.0 + *lo_pct / 100.0, hi = 1.0 + *hi_pct / 100.0;
    qsb_widen_interval(center, &lo, &hi, factor);
    *lo_pct = delta_pct + (lo - center) * 100.0;
    *hi_pct = delta_pct + (hi - center) * 100.0;
}
