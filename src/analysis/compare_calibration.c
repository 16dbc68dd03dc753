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
#include "stats.h"

/* The half-width of an interval on the log scale, of a delta (in %) or of a median; NAN when
** unknown. */
static double log_half_width(double lo, double hi)
{
    if (!(lo > 0.0) || !isfinite(hi) || hi < lo)
        return NAN;
    return (log(hi) - log(lo)) / 2.0;
}

static double delta_half_width(double lo_pct, double hi_pct)
{
    return log_half_width(1.0 + lo_pct / 100.0, 1.0 + hi_pct / 100.0);
}

static void calibration_row(qsb_calibration_row *cr, const qsb_cell *cell, const qsb_row *a,
                            const qsb_row *b, double assumed_level_pct)
{
    *cr = (qsb_calibration_row){cell->pattern, a->algorithm, cell->nelem, cell->size,
                                a->delta_pct, b->delta_pct, a->delta_lo, a->delta_hi,
                                b->delta_lo, b->delta_hi, fabs(a->delta_pct - b->delta_pct),
                                NAN, NAN, NAN};
    double h1 = delta_half_width(a->delta_lo, a->delta_hi);
    double h2 = delta_half_width(b->delta_lo, b->delta_hi);
    if (isnan(h1) || isnan(h2) || !(a->delta_pct > -100.0) || !(b->delta_pct > -100.0))
        return;
    double d = fabs(log1p(a->delta_pct / 100.0) - log1p(b->delta_pct / 100.0));
    double l = qsb_run_level_log(assumed_level_pct);
    double h = sqrt(h1 * h1 + h2 * h2 + 2.0 * l * l);
    cr->excess = h > 0.0 ? d / h : d > 0.0 ? INFINITY : 0.0;
    cr->log_diff = d;
    cr->log_h = sqrt(h1 * h1 + h2 * h2);
}

/* Cochran's Q of the differences seen so far, and what weighs them. */
typedef struct {
    double q, weights;
    size_t m;
} level_sum;

/* A row's difference d over its variance v = (h / 1.96)^2, h its intervals' combined log
** half-width; a row whose interval has no width cannot be weighed and is left out. */
static void level_add(level_sum *s, double d, double h)
{
    if (!(h > 0.0))
        return; /* NAN: no interval */
    double v = (h / QSB_Z975) * (h / QSB_Z975);
    s->q += d * d / v;
    s->weights += 1.0 / v;
    s->m++;
}

/* The run level of the rows summed (compare.h), as a meta-analysis measures heterogeneity:
** Q is chi-square on the rows' count when the intervals hold every difference; when it is
** beyond that (p < 0.05), the moment estimate of a variance tau^2 = (Q - m) / sum(1 / v)
** shared by the rows' differences (DerSimonian and Laird's, with the mean difference known to
** be 0) is a level of variance tau^2 / 2 in each run, given as a 95% half-width. */
static qsb_run_level level_of(const level_sum *s)
{
    qsb_run_level level = {s->m, NAN, NAN, NAN};
    if (s->m == 0)
        return level;
    double m = (double)s->m;
    level.q = s->q;
    level.p = qsb_chi2_sf(s->q, m);
    double tau2 = level.p < 0.05 && s->q > m ? (s->q - m) / s->weights : 0.0;
    level.pct = expm1(QSB_Z975 * sqrt(tau2 / 2.0)) * 100.0;
    return level;
}

static qsb_run_level deltas_level(const qsb_calibration *c)
{
    level_sum s = {0.0, 0.0, 0};
    for (size_t i = 0; i < c->n; i++)
        level_add(&s, c->rows[i].log_diff, c->rows[i].log_h);
    return level_of(&s);
}

/* Row a (of RUN1) and its match b added to the medians' level: both verified, each median
** with an interval. */
static void add_median(level_sum *s, const qsb_row *a, const qsb_row *b)
{
    if (!a->verified || !b->verified || !(a->summary.median > 0.0) ||
        !(b->summary.median > 0.0))
        return;
    double h1 = log_half_width(a->summary.median_lo, a->summary.median_hi);
    double h2 = log_half_width(b->summary.median_lo, b->summary.median_hi);
    if (!isnan(h1) && !isnan(h2))
        level_add(s, fabs(log(b->summary.median / a->summary.median)), sqrt(h1 * h1 + h2 * h2));
}

/* The speeds that define the states of row i of cell (the baseline's states' medians when
** its row has states, else the row's own); the row's states, or 0 when it has none. */
static size_t state_speeds(const qsb_cell *cell, size_t i, double *speeds)
{
    const qsb_row *row = &cell->rows[i], *base = &cell->rows[0];
    const qsb_row *by = i > 0 && base->states ? base : row;
    if (by->nstates != row->nstates)
        return 0;
    for (size_t k = 0; k < row->nstates; k++)
        speeds[k] = by->states[k].median;
    return row->nstates;
}

/* The rows' matched states checked as the rows are (calibration_row), added up in out. */
static void calibrate_states(qsb_calibration *out, const qsb_cell *ca, size_t ia,
                             const qsb_cell *cb, size_t ib)
{
    const qsb_state_estimate *sa = ca->rows[ia].states, *sb = cb->rows[ib].states;
    double va[QSB_STATES_MAX], vb[QSB_STATES_MAX];
    size_t na = state_speeds(ca, ia, va), nb = state_speeds(cb, ib, vb);
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
        calibration_row(&cr, ca, &rx, &ry, out->assumed_level_pct);
        out->state_pairs++;
        out->state_with_interval += !isnan(cr.excess);
        out->state_agree += cr.excess <= 1.0;
    }
}

/* Row i of cell (of RUN1) and its match in RUN2 (hit) checked as a row and by state, added
** up in out, when both are candidates with a delta. */
static void calibrate_row(qsb_calibration *out, const qsb_cell *cell, size_t i,
                          const qsb_row_ref *hit, double *diffs)
{
    const qsb_row *ra = &cell->rows[i], *rb = &hit->cell->rows[hit->row];
    if (i == 0 || hit->row == 0 || !ra->verified || !rb->verified ||
        !isfinite(ra->delta_pct) || !isfinite(rb->delta_pct))
        return;
    qsb_calibration_row *cr = &out->rows[out->n];
    calibration_row(cr, cell, ra, rb, out->assumed_level_pct);
    diffs[out->n] = cr->diff_pts;
    if (out->n == 0 || cr->diff_pts > out->rows[out->worst].diff_pts)
        out->worst = out->n;
    out->with_interval += !isnan(cr->excess);
    out->agree += cr->excess <= 1.0;
    out->n++;
    calibrate_states(out, cell, i, hit->cell, hit->row);
}

int qsb_calibrate(const qsb_results *a, const qsb_results *b, double assumed_level_pct,
                  qsb_calibration *out)
{
    memset(out, 0, sizeof *out);
    out->median_diff_pts = out->worst_diff_pts = NAN;
    out->assumed_level_pct = assumed_level_pct;
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
    level_sum medians = {0.0, 0.0, 0};
    for (size_t c = 0; c < a->ncells; c++) {
        const qsb_cell *cell = &a->cells[c];
        for (size_t i = 0; i < cell->nrows; i++) {
            qsb_row_ref key = {cell, cell->rows[i].algorithm, i, false};
            const qsb_row_ref *hit =
                nrefs ? bsearch(&key, refs, nrefs, sizeof *refs, qsb_row_ref_order) : NULL;
            if (!hit)
                continue;
            add_median(&medians, &cell->rows[i], &hit->cell->rows[hit->row]);
            calibrate_row(out, cell, i, hit, diffs);
        }
    }
    free(refs);
    out->run_level = deltas_level(out);
    out->run_level_medians = level_of(&medians);
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

/* agree of with_interval rows; NAN when there are none. */
static double share_of(size_t agree, size_t with_interval)
{
    return with_interval ? (double)agree / (double)with_interval : NAN;
}

double qsb_calibration_agree_share(const qsb_calibration *c)
{
    return share_of(c->agree, c->with_interval);
}

double qsb_calibration_totals_share(const qsb_calibration_totals *t)
{
    return share_of(t->agree, t->with_interval);
}

int qsb_calibration_status(const qsb_calibration_totals *t, qsb_compare_strictness strictness)
{
    bool enough = qsb_calibration_totals_share(t) >= QSB_CALIBRATION_STRICT_SHARE;
    return strictness == QSB_COMPARE_STRICT && !enough ? QSB_FINDING : QSB_OK;
}

/* A pair's level into the totals' count and largest. */
static void add_level(const qsb_run_level *l, size_t pair, size_t *found, double *largest,
                      size_t *at)
{
    if (!(l->pct > 0.0))
        return; /* none found, or no row weighed */
    (*found)++;
    if (l->pct > *largest) {
        *largest = l->pct;
        *at = pair;
    }
}

void qsb_calibration_add_up(const qsb_calibration *pairs, size_t n, qsb_calibration_totals *out)
{
    memset(out, 0, sizeof *out);
    out->pairs = n;
    for (size_t i = 0; i < n; i++) {
        out->with_interval += pairs[i].with_interval;
        out->agree += pairs[i].agree;
        add_level(&pairs[i].run_level, i, &out->levels_found, &out->largest_level_pct,
                  &out->largest_level_pair);
        add_level(&pairs[i].run_level_medians, i, &out->medians_levels_found,
                  &out->largest_medians_level_pct, &out->largest_medians_level_pair);
    }
}
