/*
** The steps of the history's series (detect.h). Values are taken on the log scale (a delta
** as log(1 + delta/100), a median as its log), so a step is a ratio and its interval
** symmetric there; a point's own variance is its 95% interval's half-width / 1.96, squared.
*/
#include "detect.h"

#include <math.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#include "changepoint.h"
#include "random_effects.h"
#include "student_t.h"
#include "diag.h"
#include "grow.h"

#define MIN_SEGMENT 2        /* points on each side of a step inside a series */
#define MIN_POINTS 3         /* a shorter series has no steps to find */
#define VARIANCE_FLOOR 1e-10 /* exact counts: a step of 0.01% is still one */
#define POWER_SERIES 400     /* simulated series behind the detectable step */
#define POWER_POINTS_MAX 1000 /* a longer series is simulated at this length */
#define POWER 0.8

/* The penalty per step: 4 ln n, twice the Bayesian information criterion's ln n per
** parameter (a step's level and its place), times 1 + 4/n for short series: the between-runs
** variance is estimated from the series itself, from few differences when it is short. With
** 2 ln n or 3 ln n too many A/A series got a step (`test_history_detect sweep`:
** docs/results.md#history-penalty; docs/measurement.md, "History: steps across commits"). */
static double penalty(size_t n)
{
    return 4.0 * log((double)n) * (1.0 + 4.0 / (double)n);
}

typedef struct {
    double *y, *var;
    unsigned char *can_start;
    size_t *index, *starts; /* index[k]: the series' point of value k */
    size_t n;
    double own, between;    /* the median own variance, and the variance between runs added */
} view_values;

static int log_interval_var(double lo_pct, double hi_pct, double *var)
{
    if (!isfinite(lo_pct) || !isfinite(hi_pct) || !(lo_pct > -100.0) || hi_pct < lo_pct)
        return -1;
    double half = (log1p(hi_pct / 100.0) - log1p(lo_pct / 100.0)) / 2.0 / QSB_STEP_Z;
    *var = half * half;
    return 0;
}

/* The view's value and own variance of point p; -1 when it has none. */
static int point_value(const qsb_history_point *p, qsb_series_view view, double *y,
                       double *var)
{
    *var = NAN;
    if (!p->verified)
        return -1;
    if (view == QSB_VIEW_DELTA) {
        if (p->baseline || !(p->delta_pct > -100.0) || !isfinite(p->delta_pct))
            return -1;
        *y = log1p(p->delta_pct / 100.0);
        if (log_interval_var(p->delta_lo, p->delta_hi, var) != 0)
            *var = NAN;
        return 0;
    }
    if (!(p->median > 0.0) || !isfinite(p->median))
        return -1;
    *y = log(p->median);
    if (p->median_lo > 0.0 && p->median_hi >= p->median_lo) {
        double half = (log(p->median_hi) - log(p->median_lo)) / 2.0 / QSB_STEP_Z;
        *var = half * half;
    }
    return 0;
}

static void values_free(view_values *v)
{
    free(v->y);
    free(v->var);
    free(v->can_start);
    free(v->index);
    free(v->starts);
}

/* Unknown own variances take the median of the known ones; then every point gets the
** between-runs variance added. */
static void complete_variances(view_values *v)
{
    double *known = malloc(v->n * sizeof *known);
    size_t k = 0;
    for (size_t i = 0; known && i < v->n; i++)
        if (isfinite(v->var[i]))
            known[k++] = v->var[i];
    double fill = 0.0;
    if (k) {
        qsb_sort_doubles(known, k);
        fill = qsb_median_of_sorted(known, k);
    }
    free(known);
    for (size_t i = 0; i < v->n; i++)
        if (!isfinite(v->var[i]))
            v->var[i] = fill;
    double between = qsb_between_variance(v->y, v->var, v->n);
    v->own = fill;
    v->between = between;
    for (size_t i = 0; i < v->n; i++) {
        v->var[i] += between;
        if (v->var[i] < VARIANCE_FLOOR)
            v->var[i] = VARIANCE_FLOOR;
    }
}

static int values_build(const qsb_history_series *s, qsb_series_view view, view_values *v)
{
    memset(v, 0, sizeof *v);
    size_t n = s->n ? s->n : 1;
    v->y = malloc(n * sizeof *v->y);
    v->var = malloc(n * sizeof *v->var);
    v->can_start = malloc(n);
    v->index = malloc(n * sizeof *v->index);
    v->starts = malloc(n * sizeof *v->starts);
    if (!v->y || !v->var || !v->can_start || !v->index || !v->starts) {
        values_free(v);
        return qsb_out_of_memory("detect");
    }
    for (size_t i = 0; i < s->n; i++) {
        const qsb_history_point *p = &s->points[i];
        if (point_value(p, view, &v->y[v->n], &v->var[v->n]) != 0)
            continue;
        v->can_start[v->n] = v->n > 0 &&
                             strcmp(s->points[v->index[v->n - 1]].commit, p->commit) != 0;
        v->index[v->n++] = i;
    }
    complete_variances(v);
    return QSB_OK;
}

static char *copy(const char *text)
{
    return strdup(text ? text : "");
}

static int append_step(qsb_step_list *list, const qsb_history_series *s, qsb_series_view view,
                       const view_values *v, size_t from, size_t cut, size_t to, int gates)
{
    if (QSB_GROW(list->steps, list->cap, list->n + 1) != 0)
        return qsb_out_of_memory("detect");
    double m1, v1, m2, v2;
    qsb_weighted_mean(v->y, v->var, from, cut, &m1, &v1);
    qsb_weighted_mean(v->y, v->var, cut, to, &m2, &v2);
    double d = m2 - m1, se = sqrt(v1 + v2);
    qsb_step *st = &list->steps[list->n];
    memset(st, 0, sizeof *st);
    st->machine = copy(s->machine);
    st->pattern = copy(s->pattern);
    st->algorithm = copy(s->algorithm);
    st->metric_unit = copy(s->metric);
    st->nelem = s->nelem;
    st->size = s->size;
    st->view = view;
    st->before = copy(s->points[v->index[cut - 1]].commit);
    st->after = copy(s->points[v->index[cut]].commit);
    st->after_index = v->index[cut];
    st->change_pct = expm1(d) * 100.0;
    st->lo = expm1(d - QSB_STEP_Z * se) * 100.0;
    st->hi = expm1(d + QSB_STEP_Z * se) * 100.0;
    st->at_newest = strcmp(st->after, s->points[v->index[v->n - 1]].commit) == 0;
    st->gates = gates;
    list->n++;
    if (!st->machine || !st->pattern || !st->algorithm || !st->metric_unit || !st->before ||
        !st->after)
        return qsb_out_of_memory("detect");
    return QSB_OK;
}

/* What the detectable step of a series needs: its newest commit's points against the weighted
** mean of those before them (their standard error), the series' length and how much of a
** point's variance its own interval holds. The points of a series with one commit have none. */
static bool newest_reach(const view_values *v, qsb_series_reach *out)
{
    size_t cut = v->n - 1;
    while (cut > 0 && !v->can_start[cut])
        cut--;
    if (cut == 0)
        return false;
    double m1, v1, m2, v2;
    qsb_weighted_mean(v->y, v->var, 0, cut, &m1, &v1);
    qsb_weighted_mean(v->y, v->var, cut, v->n, &m2, &v2);
    double total = v->own + v->between;
    *out = (qsb_series_reach){sqrt(v1 + v2), sqrt(fmax(total, VARIANCE_FLOOR)),
                              total > 0 ? v->own / total : 1.0, v->n, v->n - cut};
    return true;
}

static int append_reach(qsb_step_list *list, const qsb_series_reach *reach)
{
    if (QSB_GROW(list->seen, list->seen_cap, list->nseen + 1) != 0)
        return qsb_out_of_memory("detect");
    list->seen[list->nseen++] = *reach;
    return QSB_OK;
}

static int detect_view(const qsb_history_series *s, qsb_series_view view, int gates,
                       qsb_step_list *list, size_t *found)
{
    view_values v;
    int status = values_build(s, view, &v);
    *found = 0;
    if (status != QSB_OK || v.n < MIN_POINTS) {
        values_free(&v);
        return status;
    }
    qsb_series_reach reach;
    if (gates && newest_reach(&v, &reach))
        status = append_reach(list, &reach);
    size_t k = status == QSB_OK ? qsb_step_fit(v.y, v.var, v.can_start, v.n, MIN_SEGMENT,
                                               penalty(v.n), v.starts)
                                : 0;
    if (k == (size_t)-1) {
        values_free(&v);
        return qsb_out_of_memory("detect");
    }
    /* each step's change is between the segments on either side of it */
    for (size_t j = 0; j < k && status == QSB_OK; j++) {
        size_t from = j ? v.starts[j - 1] : 0, to = j + 1 < k ? v.starts[j + 1] : v.n;
        status = append_step(list, s, view, &v, from, v.starts[j], to, gates);
    }
    *found = v.n;
    values_free(&v);
    return status;
}

int qsb_detect_series(const qsb_history_series *series, qsb_step_list *list)
{
    size_t delta_points;
    int status = detect_view(series, QSB_VIEW_DELTA, 1, list, &delta_points);
    size_t median_points;
    if (status == QSB_OK)
        status = detect_view(series, QSB_VIEW_MEDIAN, delta_points == 0, list, &median_points);
    return status;
}

static int visit_series(void *ctx, const qsb_history_series *series)
{
    return qsb_detect_series(series, ctx);
}

int qsb_detect_all(qsb_history *h, const char *machine, qsb_history_runs_taken runs,
                   qsb_step_list *list)
{
    qsb_history_filter f = {NULL, 0, 0, NULL, machine, runs};
    return qsb_history_walk(h, &f, QSB_HISTORY_NO_SAMPLES, visit_series, list);
}

/* ---- the detectable step ---- */

/* A normal deviate from a splitmix64 stream: the simulation is the same at every call. */
static double sim_normal(uint64_t *state)
{
    double u[2];
    for (int k = 0; k < 2; k++) {
        uint64_t z = (*state += 0x9E3779B97F4A7C15ull);
        z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
        z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
        u[k] = ((double)((z ^ (z >> 31)) >> 11) + 0.5) / 9007199254740992.0;
    }
    return sqrt(-2.0 * log(u[0])) * cos(6.283185307179586 * u[1]);
}

/* The share of simulated series (noise[r * n + i], points of variance 1) in which a step of
** size `step` on the last `newest` points fails detect: its points' mean against the rest,
** each point's variance its own share plus the between-runs variance estimated from the
** series, beyond the root of the penalty, and larger than bound. */
static double share_found(const double *noise, size_t n, size_t newest, double own_share,
                          double beta, double bound, double step, double *y, double *var)
{
    size_t found = 0;
    for (size_t r = 0; r < POWER_SERIES; r++) {
        for (size_t i = 0; i < n; i++) {
            y[i] = noise[r * n + i] + (i >= n - newest ? step : 0.0);
            var[i] = own_share;
        }
        double between = qsb_between_variance(y, var, n), m1, v1, m2, v2;
        for (size_t i = 0; i < n; i++)
            var[i] = fmax(own_share + between, VARIANCE_FLOOR);
        qsb_weighted_mean(y, var, 0, n - newest, &m1, &v1);
        qsb_weighted_mean(y, var, n - newest, n, &m2, &v2);
        found += m2 - m1 > sqrt(beta * (v1 + v2)) && m2 - m1 > bound;
    }
    return (double)found / POWER_SERIES;
}

/* The step, in a point's standard deviations, that detect fails on in a share POWER of
** simulated series like this one (bound: the threshold in the same units); NAN when out of
** memory. */
static double power_step(const qsb_series_reach *s, double bound)
{
    size_t n = s->n < POWER_POINTS_MAX ? s->n : POWER_POINTS_MAX;
    size_t newest = s->newest < n ? s->newest : n - 1;
    double *noise = malloc((POWER_SERIES + 2) * n * sizeof *noise);
    if (!noise)
        return NAN;
    double *y = noise + POWER_SERIES * n, *var = y + n;
    uint64_t state = 0x5eed;
    for (size_t i = 0; i < POWER_SERIES * n; i++)
        noise[i] = sim_normal(&state);
    double lo = 0.0, hi = 64.0 + bound, beta = penalty(s->n);
    for (int k = 0; k < 20; k++) {
        double mid = (lo + hi) / 2.0;
        if (share_found(noise, n, newest, s->own_share, beta, bound, mid, y, var) >= POWER)
            hi = mid;
        else
            lo = mid;
    }
    free(noise);
    return hi;
}

static int by_se(const void *a, const void *b)
{
    double x = ((const qsb_series_reach *)a)->se, y = ((const qsb_series_reach *)b)->se;
    return (x > y) - (x < y);
}

double qsb_steps_detectable_pct(const qsb_step_list *steps, double threshold_pct)
{
    if (!steps->nseen)
        return NAN;
    qsb_series_reach *sorted = malloc(steps->nseen * sizeof *sorted);
    if (!sorted)
        return NAN;
    memcpy(sorted, steps->seen, steps->nseen * sizeof *sorted);
    qsort(sorted, steps->nseen, sizeof *sorted, by_se);
    qsb_series_reach median = sorted[(steps->nseen - 1) / 2];
    free(sorted);
    double bound = log1p(threshold_pct / 100.0) / median.point_sd;
    return expm1(power_step(&median, bound) * median.point_sd) * 100.0;
}

int qsb_step_fails(const qsb_step *step, double threshold_pct)
{
    return step->gates && step->at_newest && step->change_pct > threshold_pct;
}

void qsb_step_list_free(qsb_step_list *list)
{
    for (size_t i = 0; i < list->n; i++) {
        qsb_step *s = &list->steps[i];
        free(s->machine);
        free(s->pattern);
        free(s->algorithm);
        free(s->metric_unit);
        free(s->before);
        free(s->after);
    }
    free(list->steps);
    free(list->seen);
    memset(list, 0, sizeof *list);
}
