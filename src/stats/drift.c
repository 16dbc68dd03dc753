/*
** The time level above units (see drift.h): how far a run's rows moved between the first and
** the second half of their units, pooled into one widening factor.
*/
#include "drift.h"

#include "summary.h"
#include "units.h"

#include <math.h>
#include <stdbool.h>
#include <stdlib.h>

int qsb_drift_add(qsb_drift *d, const double *values, const uint32_t *units, size_t n)
{
    double *logs;
    size_t u;
    bool positive;
    if (qsb_unit_logs(values, units, n, &logs, &u, &positive) != 0)
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
