/*
** The level above units: time. How much a run's rows moved between the halves of their
** units, as a factor that widens the run's intervals.
*/
#ifndef QSB_DRIFT_H
#define QSB_DRIFT_H

#include <stddef.h>
#include <stdint.h>

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
