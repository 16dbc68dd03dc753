/*
** The time level of a result (time_level.h).
*/
#include "time_level.h"

#include <math.h>
#include <stdlib.h>

#include "stats.h"

/* The paired ratios of a candidate row and its baseline, as a row of the drift's pool. */
static int drift_add_ratios(qsb_drift *d, const qsb_row *base, const qsb_row *row)
{
    size_t n = row->nsamples < base->nsamples ? row->nsamples : base->nsamples;
    double *ratios = malloc((n ? n : 1) * sizeof *ratios);
    if (!ratios)
        return -1;
    int status = qsb_paired_ratios(base->samples, row->samples, n, ratios) == 0
                     ? qsb_drift_add(d, ratios, row->units, n)
                     : 0;
    free(ratios);
    return status;
}

/* Row's intervals widened by the factors: its median's by fm, its delta's by fr. */
static void widen_row(qsb_row *row, double fm, double fr)
{
    qsb_widen_interval(row->summary.median, &row->summary.median_lo, &row->summary.median_hi,
                       fm);
    if (fr == 1.0 || !isfinite(row->delta_lo))
        return;
    double center = 1.0 + row->delta_pct / 100.0;
    double lo = 1.0 + row->delta_lo / 100.0, hi = 1.0 + row->delta_hi / 100.0;
    qsb_widen_interval(center, &lo, &hi, fr);
    /* as offsets from the delta: a bound equal to it stays equal (no rounding across it) */
    row->delta_lo = row->delta_pct + (lo - center) * 100.0;
    row->delta_hi = row->delta_pct + (hi - center) * 100.0;
}

int qsb_widen_for_time(qsb_results *r)
{
    qsb_drift ratios = {0}, medians = {0};
    for (size_t c = 0; c < r->ncells; c++) {
        const qsb_cell *cell = &r->cells[c];
        const qsb_row *base = &cell->rows[0];
        for (size_t i = 0; i < cell->nrows; i++) {
            const qsb_row *row = &cell->rows[i];
            if (!row->verified)
                continue;
            if (qsb_drift_add(&medians, row->samples, row->units, row->nsamples) != 0 ||
                (i > 0 && base->verified && drift_add_ratios(&ratios, base, row) != 0))
                return -1;
        }
    }
    r->context.drift_ratios = qsb_drift_factor(&ratios);
    r->context.drift_medians = qsb_drift_factor(&medians);
    for (size_t c = 0; c < r->ncells; c++)
        for (size_t i = 0; i < r->cells[c].nrows; i++)
            widen_row(&r->cells[c].rows[i], r->context.drift_medians, r->context.drift_ratios);
    return 0;
}
