/*
** `compare --calibration RUN1 RUN2` (compare.h): do two runs of the same thing give paired
** deltas that agree within their combined intervals? Row by row, state by state where both
** runs show states, and the run level the rows' differences show together.
*/
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "compare.h"
#include "compare_match.h"
#include "compare_states.h"
#include "diag.h"
#include "states_text.h"
#include "stats.h"

/* The half-width of an interval of a delta on the log scale; NAN when unknown. */
static double log_half_width(double lo_pct, double hi_pct)
{
    if (!(lo_pct > -100.0) || !isfinite(hi_pct) || hi_pct < lo_pct)
        return NAN;
    return (log1p(hi_pct / 100.0) - log1p(lo_pct / 100.0)) / 2.0;
}

static void calibration_row(qsb_calibration_row *cr, const qsb_cell *cell, const qsb_row *a,
                            const qsb_row *b)
{
    *cr = (qsb_calibration_row){cell->pattern, a->algorithm, cell->nelem, cell->size,
                                a->delta_pct, b->delta_pct, a->delta_lo, a->delta_hi,
                                b->delta_lo, b->delta_hi, fabs(a->delta_pct - b->delta_pct),
                                NAN, NAN, NAN};
    double h1 = log_half_width(a->delta_lo, a->delta_hi);
    double h2 = log_half_width(b->delta_lo, b->delta_hi);
    if (isnan(h1) || isnan(h2) || !(a->delta_pct > -100.0) || !(b->delta_pct > -100.0))
        return;
    double d = fabs(log1p(a->delta_pct / 100.0) - log1p(b->delta_pct / 100.0));
    double h = sqrt(h1 * h1 + h2 * h2);
    cr->excess = h > 0.0 ? d / h : d > 0.0 ? INFINITY : 0.0;
    cr->log_diff = d;
    cr->log_h = h;
}

/* The run level of c (compare.h), as a meta-analysis measures heterogeneity: each row's
** difference d over its variance v = (h / 1.96)^2, summed as Cochran's Q = sum d^2 / v, is
** chi-square on the rows' count when the intervals hold every difference; when it is beyond
** that (p < 0.05), the moment estimate of a variance tau^2 = (Q - m) / sum(1 / v) shared by
** the rows' differences (DerSimonian and Laird's, with the mean difference known to be 0) is
** a level of variance tau^2 / 2 in each run, given as a 95% half-width. Rows with an interval
** of no width cannot be weighed and are left out. */
static void find_run_level(qsb_calibration *c)
{
    const double z975 = 1.959964;
    double q = 0.0, weights = 0.0;
    size_t m = 0;
    for (size_t i = 0; i < c->n; i++) {
        const qsb_calibration_row *cr = &c->rows[i];
        if (!(cr->log_h > 0.0))
            continue; /* NAN: no interval */
        double v = (cr->log_h / z975) * (cr->log_h / z975);
        q += cr->log_diff * cr->log_diff / v;
        weights += 1.0 / v;
        m++;
    }
    c->run_level_rows = m;
    c->run_level_q = c->run_level_p = c->run_level_pct = NAN;
    if (m == 0)
        return;
    c->run_level_q = q;
    c->run_level_p = qsb_chi2_sf(q, (double)m);
    double tau2 = c->run_level_p < 0.05 && q > (double)m ? (q - (double)m) / weights : 0.0;
    c->run_level_pct = expm1(z975 * sqrt(tau2 / 2.0)) * 100.0;
}

/* The parsed states of row i of cell and the speeds that define them (the baseline's states'
** medians when its row has states, else the row's own); 0 when the row has none. */
static size_t parsed_states(const qsb_cell *cell, size_t i, qsb_state_estimate *s,
                            double *speeds)
{
    const char *why;
    size_t n = cell->rows[i].states ? qsb_states_parse(cell->rows[i].states, s, &why) : 0;
    qsb_state_estimate by[QSB_STATES_MAX];
    const qsb_row *base = &cell->rows[0];
    size_t nb = base->states ? qsb_states_parse(base->states, by, &why) : 0;
    bool by_base = i > 0 && nb > 0;
    if (by_base && nb != n)
        return 0;
    for (size_t k = 0; k < n; k++)
        speeds[k] = by_base ? by[k].median : s[k].median;
    return n;
}

/* The rows' matched states checked as the rows are (calibration_row), added up in out. */
static void calibrate_states(qsb_calibration *out, const qsb_cell *ca, size_t ia,
                             const qsb_cell *cb, size_t ib)
{
    qsb_state_estimate sa[QSB_STATES_MAX], sb[QSB_STATES_MAX];
    double va[QSB_STATES_MAX], vb[QSB_STATES_MAX];
    size_t na = parsed_states(ca, ia, sa, va), nb = parsed_states(cb, ib, sb, vb);
    if (na == 0 || nb == 0)
        return;
    qsb_state_pairs pairs;
    qsb_match_states(va, na, vb, nb, &pairs);
    out->state_only += pairs.only_base + pairs.only_new;
    for (size_t k = 0; k < pairs.n; k++) {
        const qsb_state_estimate *x = &sa[pairs.base[k]], *y = &sb[pairs.cand[k]];
        qsb_row rx = {.delta_pct = x->delta_pct, .delta_lo = x->delta_lo, .delta_hi = x->delta_hi};
        qsb_row ry = {.delta_pct = y->delta_pct, .delta_lo = y->delta_lo, .delta_hi = y->delta_hi};
        qsb_calibration_row cr;
        calibration_row(&cr, ca, &rx, &ry);
        out->state_pairs++;
        out->state_with_interval += !isnan(cr.excess);
        out->state_agree += cr.excess <= 1.0;
    }
}

int qsb_calibrate(const qsb_results *a, const qsb_results *b, qsb_calibration *out)
{
    memset(out, 0, sizeof *out);
    out->median_diff_pts = out->worst_diff_pts = NAN;
    int status = qsb_check_metrics(a, b);
    if (status != QSB_OK)
        return status;
    size_t nrefs;
    qsb_row_ref *refs = qsb_row_index(b, &nrefs);
    out->rows = malloc((qsb_row_count(a) + 1) * sizeof *out->rows);
    double *diffs = malloc((qsb_row_count(a) + 1) * sizeof *diffs);
    if (!refs || !out->rows || !diffs) {
        free(refs);
        free(diffs);
        qsb_calibration_free(out);
        return qsb_out_of_memory("compare --calibration");
    }
    for (size_t c = 0; c < a->ncells; c++) {
        const qsb_cell *cell = &a->cells[c];
        for (size_t i = 1; i < cell->nrows; i++) {
            const qsb_row *ra = &cell->rows[i];
            qsb_row_ref key = {cell, ra->algorithm, i, false};
            const qsb_row_ref *hit =
                nrefs ? bsearch(&key, refs, nrefs, sizeof *refs, qsb_row_ref_order) : NULL;
            const qsb_row *rb = hit ? &hit->cell->rows[hit->row] : NULL;
            if (!rb || hit->row == 0 || !ra->verified || !rb->verified ||
                !isfinite(ra->delta_pct) || !isfinite(rb->delta_pct))
                continue;
            qsb_calibration_row *cr = &out->rows[out->n];
            calibration_row(cr, cell, ra, rb);
            diffs[out->n] = cr->diff_pts;
            if (out->n == 0 || cr->diff_pts > out->rows[out->worst].diff_pts)
                out->worst = out->n;
            out->with_interval += !isnan(cr->excess);
            out->agree += cr->excess <= 1.0;
            out->n++;
            calibrate_states(out, cell, i, hit->cell, hit->row);
        }
    }
    free(refs);
    find_run_level(out);
    if (out->n) {
        qsb_sort_doubles(diffs, out->n);
        out->median_diff_pts = qsb_median_of_sorted(diffs, out->n);
        out->worst_diff_pts = diffs[out->n - 1];
    }
    free(diffs);
    return QSB_OK;
}

void qsb_calibration_free(qsb_calibration *c)
{
    free(c->rows);
    memset(c, 0, sizeof *c);
}

double qsb_calibration_agree_share(const qsb_calibration *c)
{
    return c->with_interval ? (double)c->agree / (double)c->with_interval : NAN;
}

int qsb_calibration_status(const qsb_calibration *c, qsb_compare_strictness strictness)
{
    bool enough = qsb_calibration_agree_share(c) >= QSB_CALIBRATION_STRICT_SHARE;
    return strictness == QSB_COMPARE_STRICT && !enough ? QSB_FINDING : QSB_OK;
}
