/*
** `compare --calibration RUN1 RUN2` (compare.h): do two runs of the same thing give paired
** deltas that agree within their combined intervals? Row by row, and state by state where
** both runs show states.
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

/* The median over the rows with intervals of their excess when each run's half-widths get r
** added in quadrature: d / sqrt(h^2 + 2 r^2). z: scratch of c->n; NAN without such rows. */
static double median_excess(const qsb_calibration *c, double r, double *z)
{
    size_t m = 0;
    for (size_t i = 0; i < c->n; i++) {
        const qsb_calibration_row *cr = &c->rows[i];
        if (isnan(cr->log_diff))
            continue;
        double h = sqrt(cr->log_h * cr->log_h + 2.0 * r * r);
        z[m++] = h > 0.0 ? cr->log_diff / h : cr->log_diff > 0.0 ? INFINITY : 0.0;
    }
    qsb_sort_doubles(z, m);
    return m ? qsb_median_of_sorted(z, m) : NAN;
}

/* qsb_calibration.run_level_pct: the smallest r for which the median excess is that of honest
** intervals, |N(0, 1)|'s median over 1.96 (0.3441; lower for intervals over few units, so
** the level found is, if anything, too small). The median, so that a row or two far apart
** do not set it. */
static double run_level_pct(const qsb_calibration *c)
{
    const double honest_median = 0.6744898 / 1.959964;
    double *z = malloc((c->n ? c->n : 1) * sizeof *z);
    if (!z)
        return NAN; /* the report goes without it */
    double at_zero = median_excess(c, 0.0, z), lo = 0.0, hi = 0.0;
    for (size_t i = 0; i < c->n; i++)
        hi = c->rows[i].log_diff > hi ? c->rows[i].log_diff : hi; /* NAN compares false */
    hi = at_zero > honest_median ? 2.0 * hi : 0.0; /* there every excess is below 0.36 */
    for (int k = 0; k < 100 && hi - lo > 1e-12; k++) {
        double mid = (lo + hi) / 2.0;
        *(median_excess(c, mid, z) > honest_median ? &lo : &hi) = mid;
    }
    free(z);
    return isnan(at_zero) ? NAN : expm1(hi) * 100.0;
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
    out->median_diff_pts = out->worst_diff_pts = out->run_level_pct = NAN;
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
            if (out->n == 0 || cr->diff_pts > out->rows[out->worst].diff_pts)
                out->worst = out->n;
            out->with_interval += !isnan(cr->excess);
            out->agree += cr->excess <= 1.0;
            out->n++;
            calibrate_states(out, cell, i, hit->cell, hit->row);
        }
    }
    free(refs);
    out->run_level_pct = run_level_pct(out);
    for (size_t i = 0; i < out->n; i++)
        diffs[i] = out->rows[i].diff_pts;
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
