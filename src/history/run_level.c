/*
** Each machine's run level from its history (see run_level.h).
*/
#include "run_level.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "diag.h"
#include "grow.h"
#include "summary.h"

/* The point's log delta and its variance; NAN where it has none. */
static void delta_of(const qsb_history_point *p, double *y, double *v)
{
    *y = log1p(p->delta_pct / 100.0);
    *v = qsb_interval_variance(log1p(p->delta_lo / 100.0), log1p(p->delta_hi / 100.0));
}

static void median_of(const qsb_history_point *p, double *y, double *v)
{
    bool known = p->median > 0 && p->median_lo > 0 && p->median_hi > 0;
    *y = known ? log(p->median) : NAN;
    *v = known ? qsb_interval_variance(log(p->median_lo), log(p->median_hi)) : NAN;
}

typedef struct {
    const char *metric;
    size_t last_n;
    qsb_run_levels *out;
    size_t cap;
    double *y, *v; /* scratch for the points of one series */
    size_t scratch;
} level_walk;

/* Fits re to the k runs' y and v, the variances first multiplied by scale. */
static void fit(const double *y, double *v, size_t k, double scale, qsb_random_effects *re)
{
    for (size_t i = 0; i < k; i++)
        v[i] *= scale;
    qsb_random_effects_dl(y, v, k, re);
    re->k = k;
}

/* The series' last last_n points that have an estimate, kept in *y and *v (one block), and
** re fitted to them. */
static int estimate(level_walk *w, const qsb_history_series *s,
                    void (*of)(const qsb_history_point *, double *, double *),
                    qsb_random_effects *re, double **y, double **v)
{
    size_t k = 0;
    for (size_t i = s->n; i-- > 0 && k < w->last_n;) {
        of(&s->points[i], &w->y[k], &w->v[k]);
        k += s->points[i].verified && isfinite(w->y[k]) && isfinite(w->v[k]);
    }
    if (!(*y = malloc((k ? 2 * k : 1) * sizeof **y)))
        return qsb_out_of_memory("run levels");
    *v = *y + k;
    memcpy(*y, w->y, k * sizeof **y);
    memcpy(*v, w->v, k * sizeof **v);
    fit(*y, *v, k, 1.0, re);
    return QSB_OK;
}

/* The states of the series' last last_n verified points that have them (a candidate's). */
static int states_of(level_walk *w, const qsb_history_series *s, qsb_row_level *row)
{
    for (size_t i = s->n; i-- > 0 && row->nstates < w->last_n;) {
        const qsb_history_point *p = &s->points[i];
        if (p->baseline || !p->verified || !p->states)
            continue;
        if (!row->states && !(row->states = malloc(w->last_n * sizeof *row->states)))
            return qsb_out_of_memory("run levels");
        qsb_run_states *r = &row->states[row->nstates];
        r->n = p->nstates;
        if (r->n)
            memcpy(r->s, p->state, r->n * sizeof *r->s);
        row->nstates += r->n >= 2;
    }
    return QSB_OK;
}

static int grow(level_walk *w, size_t points)
{
    size_t y = w->scratch, v = w->scratch; /* the two grow alike */
    if (QSB_GROW(w->out->rows, w->cap, w->out->n + 1) != 0 || QSB_GROW(w->y, y, points) != 0 ||
        QSB_GROW(w->v, v, points) != 0)
        return qsb_out_of_memory("run levels");
    w->scratch = v;
    return QSB_OK;
}

static int visit_series(void *ctx, const qsb_history_series *s)
{
    level_walk *w = ctx;
    if (strcmp(s->metric, w->metric) != 0 || s->n == 0)
        return QSB_OK;
    int status = grow(w, s->n);
    if (status != QSB_OK)
        return status;
    qsb_row_level *row = &w->out->rows[w->out->n];
    memset(row, 0, sizeof *row);
    row->pattern = strdup(s->pattern);
    row->algorithm = strdup(s->algorithm);
    if (!row->pattern || !row->algorithm) {
        free(row->pattern);
        free(row->algorithm);
        return qsb_out_of_memory("run levels");
    }
    if (s->n > w->out->runs)
        w->out->runs = s->n;
    row->nelem = s->nelem;
    row->size = s->size;
    row->baseline = s->points[s->n - 1].baseline;
    row->last_run_id = s->points[s->n - 1].run_id;
    w->out->n++;
    status = estimate(w, s, delta_of, &row->delta, &row->delta_y, &row->delta_v);
    if (status == QSB_OK)
        status = estimate(w, s, median_of, &row->median, &row->median_y, &row->median_v);
    return status == QSB_OK ? states_of(w, s, row) : status;
}

/* The mean of the rows' own tau^2 where a row has 2 runs or more. */
static double pooled(const qsb_run_levels *l, bool delta)
{
    double sum = 0;
    size_t n = 0;
    for (size_t i = 0; i < l->n; i++) {
        const qsb_random_effects *re = delta ? &l->rows[i].delta : &l->rows[i].median;
        if (re->k >= 2 && isfinite(re->tau2)) {
            sum += re->tau2;
            n++;
        }
    }
    return n ? sum / (double)n : NAN;
}

/* A view's scale (run_level.h): its dispersion where that is below 1 and estimated over
** QSB_DISPERSION_MIN_DF or more; 1 otherwise. */
static double view_scale(const qsb_run_levels *l, bool delta)
{
    double q = 0, df = 0;
    for (size_t i = 0; i < l->n; i++) {
        const qsb_random_effects *re = delta ? &l->rows[i].delta : &l->rows[i].median;
        if (re->k >= QSB_LEVEL_MIN_RUNS && isfinite(re->q)) {
            q += re->q;
            df += (double)(re->k - 1);
        }
    }
    return df >= QSB_DISPERSION_MIN_DF && q < df ? q / df : 1.0;
}

/* Each row fitted again with its view's within-run variances scaled, where a scale is below 1. */
static void scale_views(qsb_run_levels *l)
{
    l->delta_scale = view_scale(l, true);
    l->median_scale = view_scale(l, false);
    for (size_t i = 0; i < l->n; i++) {
        qsb_row_level *r = &l->rows[i];
        if (l->delta_scale < 1.0)
            fit(r->delta_y, r->delta_v, r->delta.k, l->delta_scale, &r->delta);
        if (l->median_scale < 1.0)
            fit(r->median_y, r->median_v, r->median.k, l->median_scale, &r->median);
    }
}

int qsb_history_run_levels(qsb_history *h, const char *machine, const char *metric,
                           size_t last_n, qsb_run_levels *out)
{
    memset(out, 0, sizeof *out);
    level_walk w = {metric, last_n ? last_n : QSB_HISTORY_LAST_RUNS, out, 0, NULL, NULL, 0};
    qsb_history_filter all = {NULL, 0, 0, NULL, machine, QSB_HISTORY_COMPLETE_RUNS};
    int status = qsb_history_walk(h, &all, QSB_HISTORY_NO_SAMPLES, visit_series, &w);
    free(w.y);
    free(w.v);
    if (status != QSB_OK) {
        qsb_run_levels_free(out);
        return status;
    }
    scale_views(out);
    out->pooled_delta_tau2 = pooled(out, true);
    out->pooled_median_tau2 = pooled(out, false);
    for (size_t i = 0; i < out->n; i++) {
        qsb_row_level *r = &out->rows[i];
        r->delta_tau2 = qsb_tau2_shrunk(r->delta.tau2, r->delta.k, out->pooled_delta_tau2);
        r->median_tau2 = qsb_tau2_shrunk(r->median.tau2, r->median.k, out->pooled_median_tau2);
    }
    return QSB_OK;
}

void qsb_run_levels_free(qsb_run_levels *levels)
{
    for (size_t i = 0; i < levels->n; i++) {
        free(levels->rows[i].pattern);
        free(levels->rows[i].algorithm);
        free(levels->rows[i].states);
        free(levels->rows[i].delta_y);
        free(levels->rows[i].median_y);
    }
    free(levels->rows);
    memset(levels, 0, sizeof *levels);
}

const qsb_row_level *qsb_run_levels_find(const qsb_run_levels *levels, const char *pattern,
                                         uint64_t nelem, uint64_t size, const char *algorithm)
{
    for (size_t i = 0; i < levels->n; i++) {
        const qsb_row_level *r = &levels->rows[i];
        if (r->nelem == nelem && r->size == size && strcmp(r->pattern, pattern) == 0 &&
            strcmp(r->algorithm, algorithm) == 0)
            return r;
    }
    return NULL;
}

double qsb_row_level_pct(const qsb_row_level *row)
{
    const qsb_random_effects *re = row->baseline ? &row->median : &row->delta;
    if (re->k < QSB_LEVEL_MIN_RUNS)
        return NAN;
    return qsb_level_pct(row->baseline ? row->median_tau2 : row->delta_tau2);
}

double qsb_run_levels_median_pct(const qsb_run_levels *levels)
{
    double *v = malloc((levels->n ? levels->n : 1) * sizeof *v);
    for (size_t i = 0; v && i < levels->n; i++)
        v[i] = qsb_row_level_pct(&levels->rows[i]);
    double median = v ? qsb_median_of_finite(v, levels->n) : NAN;
    free(v);
    return median;
}

/* The machine's level of one view, the deltas (the candidates' rows) or the medians (every
** row): the median over its rows with a known level; NAN when none. */
static double view_pct(const qsb_run_levels *levels, bool deltas)
{
    double *v = malloc((levels->n ? levels->n : 1) * sizeof *v);
    for (size_t i = 0; v && i < levels->n; i++) {
        const qsb_row_level *r = &levels->rows[i];
        const qsb_random_effects *re = deltas ? &r->delta : &r->median;
        v[i] = re->k >= QSB_LEVEL_MIN_RUNS ? qsb_level_pct(deltas ? r->delta_tau2
                                                                  : r->median_tau2)
                                           : NAN;
    }
    double median = v ? qsb_median_of_finite(v, levels->n) : NAN;
    free(v);
    return median;
}

int qsb_history_view_level(const char *path, const char *machine, const char *metric,
                           bool deltas, double *pct)
{
    qsb_history *h = NULL;
    qsb_run_levels levels;
    *pct = NAN;
    int status = qsb_history_open(path, QSB_HISTORY_READ, &h);
    if (status == QSB_OK)
        status = qsb_history_check_machine(h, machine);
    if (status == QSB_OK)
        status = qsb_history_run_levels(h, machine, metric, QSB_HISTORY_LAST_RUNS, &levels);
    qsb_history_close(h);
    if (status != QSB_OK)
        return status;
    *pct = view_pct(&levels, deltas);
    qsb_run_levels_free(&levels);
    return QSB_OK;
}
