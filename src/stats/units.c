/*
** Units, the independent level of the experiment (see units.h): the units' medians, their
** spread on the log scale, the order-statistic interval of their median, and what a
** precision target asks of them; and the time level above units, how far a run's rows moved
** between the first and the second half of their units, pooled into one widening factor.
*/
#include "units.h"

#include "student_t.h"
#include "summary.h"

#include <math.h>
#include <stdbool.h>
#include <stdlib.h>

static int compare_unit_values(const void *pa, const void *pb)
{
    const double *a = pa, *b = pb; /* (unit, value) pairs */
    if (a[0] != b[0])
        return (a[0] > b[0]) - (a[0] < b[0]);
    return (a[1] > b[1]) - (a[1] < b[1]);
}

/* The logs of the units' medians, in the units' order, into logs (n long); *count gets how
** many units, *positive whether every median was positive (else its log is NAN). Returns
** false when out of memory. */
static bool unit_log_medians(const double *values, const uint32_t *units, size_t n,
                             double *logs, size_t *count, bool *positive)
{
    *count = 0;
    *positive = true;
    double *pairs = malloc(2 * (n ? n : 1) * sizeof *pairs);
    if (!pairs)
        return false;
    size_t m = 0;
    for (size_t i = 0; i < n; i++)
        if (isfinite(values[i])) {
            pairs[2 * m] = (double)units[i];
            pairs[2 * m + 1] = values[i];
            m++;
        }
    qsort(pairs, m, 2 * sizeof *pairs, compare_unit_values);
    for (size_t start = 0, end; start < m; start = end) {
        for (end = start; end < m && pairs[2 * end] == pairs[2 * start]; end++)
            ;
        size_t k = end - start, mid = start + k / 2;
        double median = k % 2 ? pairs[2 * mid + 1]
                              : (pairs[2 * (mid - 1) + 1] + pairs[2 * mid + 1]) / 2.0;
        *positive &= median > 0;
        logs[(*count)++] = median > 0 ? log(median) : NAN;
    }
    free(pairs);
    return true;
}

/* The logs of the units' medians of values (non-finite values skipped), in the units' order,
** into a new array *logs (n long, the caller frees it; NULL without units): *count units,
** *positive whether every median was positive (else its log is NAN; false without units).
** Returns 0, or -1 when out of memory. */
static int unit_logs(const double *values, const uint32_t *units, size_t n, double **logs,
                     size_t *count, bool *positive)
{
    *logs = NULL;
    *count = 0;
    *positive = false;
    if (!units || n == 0)
        return 0;
    *logs = malloc(n * sizeof **logs);
    if (!*logs || !unit_log_medians(values, units, n, *logs, count, positive)) {
        free(*logs);
        *logs = NULL;
        return -1;
    }
    return 0;
}

int qsb_unit_spread_of(const double *values, const uint32_t *units, size_t n,
                       qsb_unit_spread *out)
{
    *out = (qsb_unit_spread){0, NAN, NAN};
    double *logs;
    size_t u;
    bool positive;
    if (unit_logs(values, units, n, &logs, &u, &positive) != 0)
        return -1;
    out->units = u;
    if (positive && u > 0) {
        double mean = qsb_mean(logs, u);
        out->log_mean = mean;
        out->log_sd = u > 1 ? qsb_stddev(logs, u, mean) : NAN;
    }
    free(logs);
    return 0;
}

int qsb_unit_median_order_interval(const double *values, const uint32_t *units, size_t n,
                                   double *lo, double *hi)
{
    *lo = *hi = NAN;
    double *logs;
    size_t u;
    bool positive;
    if (unit_logs(values, units, n, &logs, &u, &positive) != 0)
        return -1;
    if (positive && u > 0) {
        qsb_sort_doubles(logs, u);
        qsb_median_interval_of_sorted(logs, u, lo, hi);
        *lo = exp(*lo); /* NAN stays NAN */
        *hi = exp(*hi);
    }
    free(logs);
    return 0;
}

double qsb_unit_half_width(const qsb_unit_spread *s)
{
    if (s->units < QSB_MIN_UNITS || !isfinite(s->log_sd))
        return NAN;
    return qsb_t_quantile(0.975, (double)(s->units - 1)) * s->log_sd / sqrt((double)s->units);
}

double qsb_unit_precision_pct(const qsb_unit_spread *s)
{
    double h = qsb_unit_half_width(s);
    return isfinite(h) ? (exp(h) - 1.0) * 100.0 : INFINITY;
}

/* t(0.975, U - 1) / sqrt(U): how a unit-level interval's half-width falls with U units. */
static double width_factor(size_t units)
{
    return qsb_t_quantile(0.975, (double)(units - 1)) / sqrt((double)units);
}

size_t qsb_units_for_precision(size_t units, double pct, double target_pct, size_t max_units)
{
    if (units < 2 || !(pct > 0) || !isfinite(pct) || !(target_pct > 0) || !isfinite(target_pct))
        return 0;
    /* The log half-width is factor(U) * sd: the same sd at the target. */
    double goal = log1p(target_pct / 100.0) / log1p(pct / 100.0) * width_factor(units);
    size_t lo = units, hi = units;
    while (hi < max_units && width_factor(hi) > goal) { /* doubling, then bisection */
        lo = hi;
        hi = hi * 2 < max_units ? hi * 2 : max_units;
    }
    if (width_factor(hi) > goal)
        return max_units;
    while (hi - lo > 1) {
        size_t mid = lo + (hi - lo) / 2;
        if (width_factor(mid) > goal)
            lo = mid;
        else
            hi = mid;
    }
    return width_factor(lo) <= goal ? lo : hi;
}

int qsb_paired_ratios(const double *base, const double *cand, size_t n, double *ratios)
{
    size_t valid = 0;
    for (size_t i = 0; i < n; i++) {
        bool ok = base[i] > 0.0 && isfinite(cand[i]);
        ratios[i] = ok ? cand[i] / base[i] : NAN;
        valid += ok;
    }
    return valid > 0 ? 0 : -1;
}

int qsb_paired_ratio_spread(const double *base, const double *cand, const uint32_t *units,
                            size_t n, qsb_unit_spread *out)
{
    *out = (qsb_unit_spread){0, NAN, NAN};
    double *ratios = malloc((n ? n : 1) * sizeof *ratios);
    if (!ratios)
        return -1;
    int status = qsb_paired_ratios(base, cand, n, ratios) == 0
                     ? qsb_unit_spread_of(ratios, units, n, out)
                     : 0; /* no valid pair: no unit */
    free(ratios);
    return status;
}

int qsb_drift_add(qsb_drift *d, const double *values, const uint32_t *units, size_t n)
{
    double *logs;
    size_t u;
    bool positive;
    if (unit_logs(values, units, n, &logs, &u, &positive) != 0)
        return -1;
    if (positive && u >= QSB_DRIFT_MIN_UNITS) {
        size_t first = u / 2, second = u - first;
        double m1 = qsb_mean(logs, first), m2 = qsb_mean(logs + first, second);
        double var = qsb_stddev(logs, u, qsb_mean(logs, u));
        var *= var;
        /* two block means: their variance is (m1 - m2)^2 / 2; independent units predict the
        ** mean of var / block size */
        d->between += (m1 - m2) * (m1 - m2) / 2.0;
        d->expected += var * (1.0 / (double)first + 1.0 / (double)second) / 2.0;
        d->rows++;
    }
    free(logs);
    return 0;
}

double qsb_drift_factor(const qsb_drift *d)
{
    if (d->rows == 0 || !(d->expected > 0.0))
        return 1.0;
    return sqrt(fmax(1.0, d->between / d->expected));
}

void qsb_widen_interval(double center, double *lo, double *hi, double factor)
{
    if (!(center > 0.0) || !(*lo > 0.0) || !(*hi > 0.0) || factor == 1.0)
        return;
    *lo = center * pow(*lo / center, factor);
    *hi = center * pow(*hi / center, factor);
}
