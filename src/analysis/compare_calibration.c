/*
** `compare --calibration RUN1 RUN2 [RUN3 ...]` (compare.h): do two runs of the same thing give
** paired deltas that agree within their combined intervals? Row by row, state by state where
** both runs show states, and the run level the rows' differences show together; then the
** report of the runs, each against the next, as text and JSON.
*/
#include <cjson/cJSON.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "compare.h"
#include "compare_format.h"
#include "compare_match.h"
#include "compare_states.h"
#include "diag.h"
#include "json_write.h"
#include "outfile.h"
#include "pool.h"
#include "read_results.h"
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
    int status = compare_check_metrics(a, b);
    if (status != QSB_OK)
        return status;
    size_t nrefs;
    qsb_row_ref *refs = compare_row_index(b, &nrefs);
    out->rows = malloc((compare_row_count(a) + 1) * sizeof *out->rows);
    double *diffs = malloc((compare_row_count(a) + 1) * sizeof *diffs);
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
            const qsb_row_ref *hit = compare_find_row(refs, nrefs, cell, i);
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

int qsb_calibration_status(const qsb_calibration_totals *t, qsb_compare_strictness strictness)
{
    bool enough = share_of(t->agree, t->with_interval) >= QSB_CALIBRATION_STRICT_SHARE;
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

/* ---- --calibration ---- */

/* One run level's line: found, none found, or nothing when no row could be weighed. */
static void write_run_level(FILE *fp, const char *name, const char *what,
                            const qsb_run_level *l)
{
    if (l->pct > 0.0)
        fprintf(fp, "%s: +-%.2f%% a run (Cochran's Q %.1f over %zu rows, p %.2g): the 95%% "
                "half-width each run's intervals would need added (in quadrature) for %s to "
                "be what their intervals predict; how far the runs moved together beyond "
                "their processes' spread, which no count of processes in one run samples "
                "(compare --run-level adds it)\n", name, l->pct, l->q, l->rows, l->p, what);
    else if (l->pct == 0.0)
        fprintf(fp, "%s: none found (Cochran's Q %.1f over %zu rows, p %.2g: %s are what the "
                "intervals predict)\n", name, l->q, l->rows, l->p, what);
}

static void write_text(FILE *fp, const qsb_calibration *c, const char *path1, const char *path2,
                       const char *metric)
{
    char p1[QSB_QUOTE_PATH_MAX + 1], p2[QSB_QUOTE_PATH_MAX + 1];
    char level[96] = "";
    if (c->assumed_level_pct > 0.0)
        snprintf(level, sizeof level, " and l that of the run level +-%g%% a run (--run-level)",
                 c->assumed_level_pct);
    fprintf(fp, "calibration %s vs %s (metric %s; paired deltas of the candidate rows; agree: "
            "|d1 - d2| <= sqrt(h1^2 + h2^2%s), h the half-widths of the 95%% intervals%s, on "
            "the log scale)\n", compare_shown(p1, sizeof p1, path1),
            compare_shown(p2, sizeof p2, path2), metric,
            c->assumed_level_pct > 0.0 ? " + 2 l^2" : "", level);
    fprintf(fp, "%-12s %9s %5s  %-16s %9s %20s %9s %20s %9s  %s\n", "pattern", "nelem", "size",
            "algorithm", "delta 1", "95% interval 1", "delta 2", "95% interval 2", "diff",
            "agree");
    for (size_t i = 0; i < c->n; i++) {
        const qsb_calibration_row *cr = &c->rows[i];
        char pattern[COMPARE_NAME_MAX + 1], algorithm[COMPARE_NAME_MAX + 1];
        char d1[32], d2[32], i1[80], i2[80], lo[32], hi[32];
        compare_format_pct(d1, sizeof d1, cr->d1);
        compare_format_pct(d2, sizeof d2, cr->d2);
        compare_format_pct(lo, sizeof lo, cr->lo1);
        compare_format_pct(hi, sizeof hi, cr->hi1);
        snprintf(i1, sizeof i1, isnan(cr->lo1) ? "-" : "[%s, %s]", lo, hi);
        compare_format_pct(lo, sizeof lo, cr->lo2);
        compare_format_pct(hi, sizeof hi, cr->hi2);
        snprintf(i2, sizeof i2, isnan(cr->lo2) ? "-" : "[%s, %s]", lo, hi);
        fprintf(fp, "%-12s %9llu %5llu  %-16s %9s %20s %9s %20s %9.2f  %s\n",
                compare_shown(pattern, sizeof pattern, cr->pattern), (unsigned long long)cr->nelem,
                (unsigned long long)cr->size,
                compare_shown(algorithm, sizeof algorithm, cr->algorithm), d1, i1, d2, i2,
                cr->diff_pts,
                isnan(cr->excess) ? "-" : cr->excess <= 1.0 ? "yes" : "NO");
    }
    if (c->n == 0) {
        fprintf(fp, "no candidate row has a delta in both runs\n");
        return;
    }
    const qsb_calibration_row *w = &c->rows[c->worst];
    char pattern[COMPARE_NAME_MAX + 1], algorithm[COMPARE_NAME_MAX + 1];
    fprintf(fp, "%zu of %zu rows with intervals agree (%.1f%%; honest 95%% intervals agree in "
            "about 95%%); difference of the deltas: median %.2f points, worst %.2f points "
            "(%s/%llu/%llu %s); %zu row%s without an interval in a run\n",
            c->agree, c->with_interval, share_of(c->agree, c->with_interval) * 100.0,
            c->median_diff_pts, c->worst_diff_pts,
            compare_shown(pattern, sizeof pattern, w->pattern),
            (unsigned long long)w->nelem, (unsigned long long)w->size,
            compare_shown(algorithm, sizeof algorithm, w->algorithm), c->n - c->with_interval,
            c->n - c->with_interval == 1 ? "" : "s");
    write_run_level(fp, "run level", "the rows' differences", &c->run_level);
    write_run_level(fp, "run level of the medians", "the medians' differences (every row)",
                    &c->run_level_medians);
    if (c->state_pairs || c->state_only)
        fprintf(fp, "by state: %zu of %zu matched (row, state) pairs with intervals agree "
                "(%.1f%%); %zu state%s in one run only\n",
                c->state_agree, c->state_with_interval,
                c->state_with_interval ? 100.0 * (double)c->state_agree /
                                             (double)c->state_with_interval
                                       : 0.0,
                c->state_only, c->state_only == 1 ? "" : "s");
}

/* A run level's four numbers as PREFIX_pct, PREFIX_rows, PREFIX_q and PREFIX_p; nonzero
** when out of memory. */
static int add_run_level(cJSON *root, const char *prefix, const qsb_run_level *l)
{
    const char *suffix[4] = {"pct", "rows", "q", "p"};
    double value[4] = {l->pct, (double)l->rows, l->q, l->p};
    for (size_t i = 0; i < 4; i++) {
        char name[64];
        snprintf(name, sizeof name, "%s_%s", prefix, suffix[i]);
        if (compare_json_number(root, name, value[i]))
            return 1;
    }
    return 0;
}

static cJSON *calibration_json(const qsb_calibration *c, const char *path1, const char *path2,
                               const char *metric, qsb_compare_strictness strictness,
                               int status)
{
    cJSON *root = cJSON_CreateObject();
    int bad = !root || compare_json_number(root, "schema_version", 1) ||
              !cJSON_AddStringToObject(root, "kind", "calibration") ||
              !cJSON_AddStringToObject(root, "run1", path1) ||
              !cJSON_AddStringToObject(root, "run2", path2) ||
              !cJSON_AddStringToObject(root, "metric", metric) ||
              !cJSON_AddStringToObject(root, "criterion",
                                       c->assumed_level_pct > 0.0
                                           ? "|log(1+d1) - log(1+d2)| <= sqrt(h1^2 + h2^2 + 2 l^2)"
                                           : "|log(1+d1) - log(1+d2)| <= sqrt(h1^2 + h2^2)") ||
              compare_json_number(root, "rows", (double)c->n) ||
              compare_json_number(root, "with_interval", (double)c->with_interval) ||
              compare_json_number(root, "agree", (double)c->agree) ||
              compare_json_number(root, "share", share_of(c->agree, c->with_interval)) ||
              compare_json_number(root, "median_diff_pts", c->median_diff_pts) ||
              compare_json_number(root, "worst_diff_pts", c->worst_diff_pts) ||
              compare_json_number(root, "assumed_run_level_pct", c->assumed_level_pct) ||
              add_run_level(root, "run_level", &c->run_level) ||
              add_run_level(root, "run_level_medians", &c->run_level_medians) ||
              compare_json_number(root, "state_pairs", (double)c->state_pairs) ||
              compare_json_number(root, "state_with_interval", (double)c->state_with_interval) ||
              compare_json_number(root, "state_agree", (double)c->state_agree) ||
              compare_json_number(root, "state_only", (double)c->state_only) ||
              !cJSON_AddBoolToObject(root, "strict", strictness == QSB_COMPARE_STRICT) ||
              compare_json_number(root, "strict_share", QSB_CALIBRATION_STRICT_SHARE) ||
              !cJSON_AddStringToObject(root, "verdict", status == QSB_OK ? "pass" : "fail");
    cJSON *cells = bad ? NULL : cJSON_AddArrayToObject(root, "cells");
    bad = !cells;
    for (size_t i = 0; i < c->n && !bad; i++) {
        const qsb_calibration_row *cr = &c->rows[i];
        cJSON *o = cJSON_CreateObject();
        bad = !o || !cJSON_AddItemToArray(cells, o);
        if (bad) {
            cJSON_Delete(o);
            break;
        }
        bad = !cJSON_AddStringToObject(o, "pattern", cr->pattern) ||
              compare_json_number(o, "nelem", (double)cr->nelem) ||
              compare_json_number(o, "size", (double)cr->size) ||
              !cJSON_AddStringToObject(o, "algorithm", cr->algorithm) ||
              compare_json_number(o, "delta1", cr->d1) || compare_json_number(o, "lo1", cr->lo1) ||
              compare_json_number(o, "hi1", cr->hi1) || compare_json_number(o, "delta2", cr->d2) ||
              compare_json_number(o, "lo2", cr->lo2) || compare_json_number(o, "hi2", cr->hi2) ||
              compare_json_number(o, "diff_pts", cr->diff_pts) ||
              compare_json_number(o, "excess", cr->excess) ||
              !(isnan(cr->excess) ? cJSON_AddNullToObject(o, "agree")
                                  : cJSON_AddBoolToObject(o, "agree", cr->excess <= 1.0));
    }
    if (!bad)
        return root;
    cJSON_Delete(root);
    return NULL;
}

static int write_json(FILE *fp, const qsb_calibration *c, const char *path1, const char *path2,
                      const char *metric, qsb_compare_strictness strictness, int verdict)
{
    cJSON *root = calibration_json(c, path1, path2, metric, strictness, verdict);
    return qsb_json_print(fp, root, "calibration JSON");
}

/* How often a level was found over the pairs, and the largest with its pair ("in 2 of 5
** pairs, largest +-6.23% (b.json vs c.json)"), shown as the table's header shows paths. */
static const char *levels_found_text(char *buf, size_t len, size_t found, size_t pairs,
                                     double largest, const char *const *paths, size_t at)
{
    char p1[QSB_QUOTE_PATH_MAX + 1], p2[QSB_QUOTE_PATH_MAX + 1];
    if (found == 0)
        snprintf(buf, len, "in none of %zu pairs", pairs);
    else
        snprintf(buf, len, "in %zu of %zu pairs, largest +-%.2f%% (%s vs %s)", found, pairs,
                 largest, compare_shown(p1, sizeof p1, paths[at]),
                 compare_shown(p2, sizeof p2, paths[at + 1]));
    return buf;
}

static void write_totals(FILE *fp, const qsb_calibration_totals *t, const char *const *paths)
{
    char d[2 * QSB_QUOTE_PATH_MAX + 96], m[2 * QSB_QUOTE_PATH_MAX + 96];
    fprintf(fp, "\nover %zu runs (%zu pairs of consecutive runs): %zu of %zu rows with intervals "
            "agree (%.1f%%)\n", t->pairs + 1, t->pairs, t->agree, t->with_interval,
            t->with_interval ? 100.0 * share_of(t->agree, t->with_interval) : 0.0);
    if (t->levels_found == 0 && t->medians_levels_found == 0) {
        fprintf(fp, "run level: none found in any pair (the runs moved no more than their "
                "intervals say)\n");
        return;
    }
    fprintf(fp, "run level found %s; of the medians %s: the largest is what compare --run-level "
            "wants between runs of this machine (of the medians for times, of the deltas with "
            "--normalize)\n",
            levels_found_text(d, sizeof d, t->levels_found, t->pairs, t->largest_level_pct, paths,
                              t->largest_level_pair),
            levels_found_text(m, sizeof m, t->medians_levels_found, t->pairs,
                              t->largest_medians_level_pct, paths,
                              t->largest_medians_level_pair));
}

static int write_series_json(FILE *fp, const qsb_calibration *pairs, const char *const *paths,
                             const char *metric, const qsb_calibration_totals *t,
                             qsb_compare_strictness strictness, int verdict)
{
    cJSON *root = cJSON_CreateObject();
    int bad = !root || compare_json_number(root, "schema_version", 1) ||
              !cJSON_AddStringToObject(root, "kind", "calibration-series");
    cJSON *runs = bad ? NULL : cJSON_AddArrayToObject(root, "runs");
    bad = !runs;
    for (size_t i = 0; i <= t->pairs && !bad; i++)
        bad = !cJSON_AddItemToArray(runs, cJSON_CreateString(paths[i]));
    bad = bad || !cJSON_AddStringToObject(root, "metric", metric) ||
          compare_json_number(root, "with_interval", (double)t->with_interval) ||
          compare_json_number(root, "agree", (double)t->agree) ||
          compare_json_number(root, "share", share_of(t->agree, t->with_interval)) ||
          compare_json_number(root, "levels_found", (double)t->levels_found) ||
          compare_json_number(root, "largest_run_level_pct", t->largest_level_pct) ||
          compare_json_number(root, "medians_levels_found", (double)t->medians_levels_found) ||
          compare_json_number(root, "largest_run_level_medians_pct",
                              t->largest_medians_level_pct) ||
          !cJSON_AddBoolToObject(root, "strict", strictness == QSB_COMPARE_STRICT) ||
          !cJSON_AddStringToObject(root, "verdict", verdict == QSB_OK ? "pass" : "fail");
    cJSON *list = bad ? NULL : cJSON_AddArrayToObject(root, "pairs");
    bad = !list;
    for (size_t k = 0; k < t->pairs && !bad; k++) {
        qsb_calibration_totals one;
        qsb_calibration_add_up(&pairs[k], 1, &one);
        cJSON *pair = calibration_json(&pairs[k], paths[k], paths[k + 1], metric, strictness,
                                       qsb_calibration_status(&one, strictness));
        bad = !pair || !cJSON_AddItemToArray(list, pair);
        if (bad)
            cJSON_Delete(pair);
    }
    if (bad) {
        cJSON_Delete(root);
        root = NULL;
    }
    return qsb_json_print(fp, root, "calibration JSON");
}

/* ---- the report over RUN1 RUN2 ... ---- */

/* Reads the runs and calibrates each against the next, the level known once the first is
** read; each pair's report on text. */
static int calibrate_pairs(const char *const *paths, size_t n, qsb_calibration_level level,
                           qsb_results *runs, qsb_calibration *cals, FILE *text)
{
    int status = qsb_read_results(paths[0], &runs[0]);
    if (status == QSB_OK && level.of_first)
        status = level.of_first(&runs[0], level.ctx, &level.pct);
    for (size_t k = 0; k + 1 < n && status == QSB_OK; k++) {
        status = qsb_read_results(paths[k + 1], &runs[k + 1]);
        if (status == QSB_OK) /* the same run twice would agree at 100% and prove nothing */
            status = qsb_check_separate_runs("compare --calibration", &runs[k], paths[k],
                                             &runs[k + 1], paths[k + 1]);
        if (status == QSB_OK)
            status = qsb_calibrate(&runs[k], &runs[k + 1], level.pct, &cals[k]);
        if (status != QSB_OK)
            break;
        if (k > 0)
            fputc('\n', text);
        write_text(text, &cals[k], paths[k], paths[k + 1], runs[0].context.metric);
    }
    return status;
}

/* What compare --calibration reads and adds up, between --json's open and its commit. */
typedef struct {
    const char *const *paths;
    size_t n;
    qsb_calibration_level level;
    qsb_compare_strictness strictness;
    qsb_calibration_totals totals;
} calibration_job;

/* Between --json's open and its commit: the runs calibrated, each pair's report on the text
** stream, what they add up to, the JSON. */
static int calibration_into(const qsb_outputs *out, void *arg)
{
    calibration_job *job = arg;
    FILE *text = qsb_outputs_text_stream(out), *json = out->file[0].fp;
    size_t n = job->n, pairs = n - 1;
    qsb_results *runs = calloc(n, sizeof *runs);
    qsb_calibration *cals = calloc(pairs, sizeof *cals);
    int status = runs && cals ? calibrate_pairs(job->paths, n, job->level, runs, cals, text)
                              : qsb_out_of_memory("compare --calibration");
    int verdict = QSB_OK;
    if (status == QSB_OK) {
        qsb_calibration_add_up(cals, pairs, &job->totals);
        verdict = qsb_calibration_status(&job->totals, job->strictness);
        if (pairs > 1)
            write_totals(text, &job->totals, job->paths);
        const char *metric = runs[0].context.metric;
        if (json && pairs == 1)
            status = write_json(json, &cals[0], job->paths[0], job->paths[1], metric,
                                job->strictness, verdict);
        else if (json)
            status = write_series_json(json, cals, job->paths, metric, &job->totals,
                                       job->strictness, verdict);
    }
    for (size_t i = 0; runs && i < n; i++)
        qsb_results_free(&runs[i]);
    for (size_t k = 0; cals && k < pairs; k++)
        qsb_calibration_free(&cals[k]);
    free(runs);
    free(cals);
    return status != QSB_OK ? status : verdict;
}

int qsb_calibration_command(const char *const *paths, size_t n, const char *json_path,
                            const qsb_file_group *also_read, qsb_calibration_level level,
                            qsb_compare_strictness strictness)
{
    calibration_job job = {paths, n, level, strictness, {0}};
    qsb_file_group *read = calloc(n + 1, sizeof *read);
    char (*names)[24] = calloc(n, sizeof *names);
    int status = read && names ? QSB_OK : qsb_out_of_memory("compare --calibration");
    for (size_t i = 0; i < n && status == QSB_OK; i++) { /* named RUN1, RUN2, ... in messages */
        snprintf(names[i], sizeof names[i], "RUN%zu", i + 1);
        read[i] = (qsb_file_group){names[i], QSB_FILES_READ, &paths[i], 1};
    }
    if (status == QSB_OK && also_read)
        read[n] = *also_read;
    const qsb_output_spec spec = {"--json", json_path};
    if (status == QSB_OK)
        status = qsb_with_outputs(&spec, 1, read, n + (also_read != NULL), calibration_into,
                                  &job);
    free(read);
    free(names);
    if (status != QSB_FINDING)
        return status;
    const qsb_calibration_totals *t = &job.totals;
    return qsb_error(QSB_FINDING, "--calibration --strict: %zu of %zu rows agree, under %.0f%%: "
                     "the intervals are too narrow on this machine (or the runs differ)",
                     t->agree, t->with_interval, QSB_CALIBRATION_STRICT_SHARE * 100.0);
}
