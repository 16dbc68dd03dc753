/*
** The cluster bootstrap of a pooled median (see bootstrap.h): whole units resampled with
** replacement from a fixed seed, so the interval is a pure function of the samples.
*/
#include "bootstrap.h"

#include "summary.h"
#include "units.h"

#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

typedef struct {
    double value;
    uint32_t unit; /* dense: 0 .. units-1 */
} unit_value;

static int compare_unit_value(const void *pa, const void *pb)
{
    const unit_value *a = pa, *b = pb;
    return (a->value > b->value) - (a->value < b->value);
}

static uint64_t splitmix64(uint64_t *state)
{
    uint64_t z = (*state += 0x9e3779b97f4a7c15u);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9u;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebu;
    return z ^ (z >> 31);
}

/* The median of the sorted values with each unit's values counted weight[unit] times: the
** first value at which the running weight reaches half the total (the lower median). */
static double weighted_median(const unit_value *v, size_t n, const size_t *weight)
{
    size_t total = 0, run = 0;
    for (size_t i = 0; i < n; i++)
        total += weight[v[i].unit];
    for (size_t i = 0; i < n; i++) {
        run += weight[v[i].unit];
        if (2 * run >= total && weight[v[i].unit] > 0)
            return v[i].value;
    }
    return NAN;
}

/* Finite values with their units renumbered 0 .. *units-1, sorted by value. */
static unit_value *dense_sorted(const double *values, const uint32_t *units, size_t n,
                                size_t *m, size_t *count)
{
    uint32_t top = 0;
    for (size_t i = 0; i < n; i++)
        top = units[i] > top ? units[i] : top;
    unit_value *v = malloc((n ? n : 1) * sizeof *v);
    int32_t *dense = malloc(((size_t)top + 1) * sizeof *dense);
    if (!v || !dense) {
        free(v);
        free(dense);
        return NULL;
    }
    for (size_t u = 0; u <= top; u++)
        dense[u] = -1;
    *m = *count = 0;
    for (size_t i = 0; i < n; i++) {
        if (!isfinite(values[i]))
            continue;
        if (dense[units[i]] < 0)
            dense[units[i]] = (int32_t)(*count)++;
        v[(*m)++] = (unit_value){values[i], (uint32_t)dense[units[i]]};
    }
    free(dense);
    qsort(v, *m, sizeof *v, compare_unit_value);
    return v;
}

int qsb_unit_median_interval(const double *values, const uint32_t *units, size_t n, double *lo,
                             double *hi)
{
    *lo = *hi = NAN;
    if (!units || n == 0)
        return 0;
    size_t m, count;
    unit_value *v = dense_sorted(values, units, n, &m, &count);
    if (!v)
        return -1;
    size_t *weight = calloc(count ? count : 1, sizeof *weight);
    double *medians = malloc(QSB_BOOTSTRAP_RESAMPLES * sizeof *medians);
    int status = weight && medians ? 0 : -1;
    if (status == 0 && count >= QSB_MIN_UNITS) {
        uint64_t state = QSB_BOOTSTRAP_SEED; /* a pure function of the samples */
        for (size_t b = 0; b < QSB_BOOTSTRAP_RESAMPLES; b++) {
            memset(weight, 0, count * sizeof *weight);
            for (size_t k = 0; k < count; k++)
                weight[splitmix64(&state) % count]++;
            medians[b] = weighted_median(v, m, weight);
        }
        qsb_sort_doubles(medians, QSB_BOOTSTRAP_RESAMPLES);
        *lo = medians[(size_t)(0.025 * QSB_BOOTSTRAP_RESAMPLES)];
        *hi = medians[(size_t)(0.975 * QSB_BOOTSTRAP_RESAMPLES) - 1];
    }
    free(v);
    free(weight);
    free(medians);
    return status;
}

int qsb_paired_delta_units(const double *base, const double *cand, const uint32_t *units,
                           size_t n, double *pct, double *lo, double *hi)
{
    if (qsb_paired_delta(base, cand, n, pct, lo, hi) != 0)
        return -1;
    if (!units)
        return 0;
    double *ratios = malloc((n ? n : 1) * sizeof *ratios);
    int status = ratios ? 0 : -1;
    if (status == 0)
        qsb_paired_ratios(base, cand, n, ratios);
    if (status == 0)
        status = qsb_unit_median_interval(ratios, units, n, lo, hi);
    free(ratios);
    *lo = (*lo - 1.0) * 100.0;
    *hi = (*hi - 1.0) * 100.0;
    return status;
}

int qsb_summarize_units(const double *x, const uint32_t *units, size_t n, qsb_summary *out)
{
    if (qsb_summarize(x, n, out) != 0)
        return -1;
    if (!units)
        return 0;
    return qsb_unit_median_interval(x, units, n, &out->median_lo, &out->median_hi);
}
