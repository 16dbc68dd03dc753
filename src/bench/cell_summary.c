/*
** The summaries of the matrix's cells (matrix_state.h): the precision of a cell's intervals
** over units (stats.h), which decides when a cell has enough; the summaries and paired deltas
** of every cell with its minimum of units; the noisy and mostly-slowed rows; the time level's
** widening of every interval (stats.h qsb_drift).
*/
#include "matrix_state.h"

#include <math.h>

#include "diag.h"

/* The half-width of row i's interval in % of its estimate: its median's, and for a
** candidate beside a verified baseline the wider of that and its paired ratio's. INFINITY
** while there is none. */
static double row_precision_pct(const qsb_cell *cell, size_t i)
{
    const qsb_row *row = &cell->rows[i], *base = &cell->rows[0];
    qsb_unit_spread spread;
    if (qsb_unit_spread_of(row->samples, row->units, row->nsamples, &spread) != 0)
        return INFINITY;
    double pct = qsb_unit_precision_pct(&spread);
    if (i == 0 || !base->verified)
        return pct;
    size_t pairs = row->nsamples < base->nsamples ? row->nsamples : base->nsamples;
    if (qsb_paired_ratio_spread(base->samples, row->samples, row->units, pairs, &spread) != 0)
        return INFINITY;
    return fmax(pct, qsb_unit_precision_pct(&spread));
}

/* The widest interval of the cell's verified rows; 0 when none is left to measure. */
double matrix_cell_precision_pct(const qsb_cell *cell)
{
    double widest = 0;
    for (size_t i = 0; i < cell->nrows; i++)
        if (cell->rows[i].verified)
            widest = fmax(widest, row_precision_pct(cell, i));
    return widest;
}

static int summarize_cell(qsb_cell *cell)
{
    for (size_t i = 0; i < cell->nrows; i++)
        if (qsb_summarize_units(cell->rows[i].samples, cell->rows[i].units,
                                cell->rows[i].nsamples, &cell->rows[i].summary) != 0)
            return qsb_out_of_memory("statistics");
    const qsb_row *base = &cell->rows[0];
    for (size_t i = 1; i < cell->nrows && base->verified; i++) {
        qsb_row *row = &cell->rows[i];
        size_t pairs = row->nsamples < base->nsamples ? row->nsamples : base->nsamples;
        if (row->verified &&
            qsb_paired_delta_units(base->samples, row->samples, row->units, pairs,
                                   &row->delta_pct, &row->delta_lo, &row->delta_hi) != 0)
            row->delta_pct = row->delta_lo = row->delta_hi = NAN;
    }
    return QSB_OK;
}

/* A row of short sorts whose median is more than QSB_SLOWED_FLAG_PCT % above its fastest
** sample (docs/measurement.md, "Slowed samples"): the machine was slowed for most of its
** samples, so its median (and delta) is the busy machine's. *factor: median / fastest. */
static bool mostly_slowed(const matrix_state *s, const qsb_row *row, double *factor)
{
    const qsb_summary *sum = &row->summary;
    if (s->cfg->metric == QSB_METRIC_COMPARISONS) /* exact counts, and no timer */
        return false;
    if (!row->verified || !(sum->min > 0))
        return false;
    double sample_ns = qsb_timer_to_ns(s->setup->timer, 1) * sum->median *
                       (double)(row->batch ? row->batch : 1);
    if (!(sample_ns <= QSB_RETAKE_LIMIT_S * 1e9))
        return false;
    *factor = sum->median / sum->min;
    return *factor > 1 + QSB_SLOWED_FLAG_PCT / 100;
}

/* Noisy rows: a reported interval (the median's, and a candidate's delta) missing or wider
** than the precision, or mostly slowed. */
static void flag_noisy_rows(const matrix_state *s, qsb_cell *cell)
{
    bool exact = s->cfg->metric == QSB_METRIC_COMPARISONS;
    for (size_t i = 0; i < cell->nrows; i++) {
        double factor;
        qsb_row *row = &cell->rows[i];
        double pct = qsb_row_interval_pct(cell, i);
        if (row->verified && !exact)
            row->noisy = !(pct <= s->cfg->precision_pct) || /* the schedule's: 0 for a gate */
                         mostly_slowed(s, row, &factor);
    }
}

/* The time level (stats.h qsb_drift): the run's factors, pooled over its rows, for the deltas
** (paired ratios) and for the medians, recorded in the context and applied to every interval.
** Exact counts have no intervals. */
static int widen_for_drift(matrix_state *s)
{
    qsb_results *r = s->results;
    r->context.drift_ratios = r->context.drift_medians = NAN;
    if (s->cfg->metric == QSB_METRIC_COMPARISONS)
        return QSB_OK;
    return qsb_widen_for_time(r) == 0 ? QSB_OK : qsb_out_of_memory("statistics");
}

/* Every cell with its minimum of units (or exact counts) is summarized, in the cells' order;
** the others (an interrupted run's) are dropped: without an interval they would be numbers
** nobody could judge. */
int matrix_finish_cells(matrix_state *s)
{
    qsb_results *r = s->results;
    size_t kept = 0;
    int status = QSB_OK;
    for (size_t i = 0; i < s->nplans && status == QSB_OK; i++) {
        cell_plan *p = &s->plans[i];
        if (!p->visited)
            continue;
        qsb_cell *cell = &r->cells[p->index];
        if (!p->done && p->units < s->setup->schedule.min_units)
            continue;
        status = summarize_cell(cell);
        s->totals->cells_done++;
        qsb_cell moved = r->cells[kept]; /* earlier moves only touched positions below */
        r->cells[kept] = *cell;
        *cell = moved;
        kept++;
    }
    while (r->ncells > kept)
        qsb_results_drop_last_cell(r);
    if (status == QSB_OK)
        status = widen_for_drift(s);
    for (size_t c = 0; c < r->ncells && status == QSB_OK; c++) {
        flag_noisy_rows(s, &r->cells[c]);
        for (size_t k = 0; k < r->cells[c].nrows; k++)
            if (r->cells[c].rows[k].noisy) {
                s->totals->noisy_cells++;
                break;
            }
    }
    return status;
}

size_t matrix_count_failed(const qsb_results *results)
{
    size_t failed = 0;
    for (size_t c = 0; c < results->ncells; c++)
        for (size_t i = 0; i < results->cells[c].nrows; i++)
            failed += !results->cells[c].rows[i].verified;
    return failed;
}
