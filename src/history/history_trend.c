/*
** The trend of a history for the report (history.h, trend.h). While the series are walked a point's
** x holds its run's id; once every series is in, each cell's runs are sorted into commit
** order and the ids become places on that axis.
*/
#include "history.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "detect.h"
#include "diag.h"
#include "grow.h"
#include "states_text.h"

#define METHOD "history detect: the penalised step fit of each series, each run weighted by " \
               "its own interval and the variance between runs (docs/measurement.md)"

typedef struct {
    int64_t time, id;
    char *commit;
} axis_run;

typedef struct {
    axis_run *runs; /* per cell, parallel to the trend's cells */
    size_t n, cap;
    size_t lines_cap, steps_cap; /* of the cell's lines and steps */
} cell_axis;

typedef struct {
    qsb_trend *t;
    cell_axis *axes;
    size_t cells_cap;
    int failed;
} loader;

static char *copy(const char *s)
{
    return strdup(s ? s : "");
}

/* The cell of the series (machine, metric, pattern, nelem, size), made when new; -1 on no
** memory. */
static long find_cell(loader *ld, const qsb_history_series *s)
{
    qsb_trend *t = ld->t;
    for (size_t i = 0; i < t->ncells; i++) {
        const qsb_trend_cell *c = &t->cells[i];
        if (c->nelem == s->nelem && c->size == s->size && strcmp(c->pattern, s->pattern) == 0 &&
            strcmp(c->machine, s->machine) == 0 && strcmp(c->metric, s->metric) == 0)
            return (long)i;
    }
    size_t cap = ld->cells_cap;
    if (QSB_GROW(t->cells, ld->cells_cap, t->ncells + 1) != 0 ||
        QSB_GROW(ld->axes, cap, t->ncells + 1) != 0)
        return -1;
    qsb_trend_cell *c = &t->cells[t->ncells];
    c->machine = copy(s->machine);
    c->pattern = copy(s->pattern);
    c->metric = copy(s->metric);
    c->nelem = s->nelem;
    c->size = s->size;
    if (!c->machine || !c->pattern || !c->metric)
        return -1;
    return (long)t->ncells++;
}

static int add_axis_runs(cell_axis *axis, const qsb_history_series *s)
{
    for (size_t i = 0; i < s->n; i++) {
        const qsb_history_point *p = &s->points[i];
        size_t k = 0;
        while (k < axis->n && axis->runs[k].id != p->run_id)
            k++;
        if (k < axis->n)
            continue;
        if (QSB_GROW(axis->runs, axis->cap, axis->n + 1) != 0)
            return -1;
        axis->runs[axis->n] = (axis_run){p->time, p->run_id, copy(p->commit)};
        if (!axis->runs[axis->n++].commit)
            return -1;
    }
    return 0;
}

/* The states of a point in words, or NULL when it has none (or on no memory: shown without). */
static char *states_words(const qsb_history_point *p)
{
    char words[512];
    return qsb_states_words(p->state, p->nstates, words, sizeof words) ? strdup(words) : NULL;
}

static int add_line(qsb_trend_cell *c, cell_axis *axis, const qsb_history_series *s)
{
    size_t deltas = 0;
    for (size_t i = 0; i < s->n; i++)
        deltas += !s->points[i].baseline && isfinite(s->points[i].delta_pct);
    if (deltas == 0)
        return 0; /* a baseline's series: no delta to draw */
    if (QSB_GROW(c->lines, axis->lines_cap, c->nlines + 1) != 0)
        return -1;
    qsb_trend_line *line = &c->lines[c->nlines++];
    line->algorithm = copy(s->algorithm);
    line->points = calloc(s->n, sizeof *line->points);
    line->n = 0;
    if (!line->algorithm || !line->points)
        return -1;
    for (size_t i = 0; i < s->n; i++) {
        const qsb_history_point *p = &s->points[i];
        if (p->baseline)
            continue;
        line->points[line->n++] = (qsb_trend_point){(size_t)p->run_id, p->delta_pct,
                                                     p->delta_lo, p->delta_hi,
                                                     states_words(p)};
    }
    return 0;
}

static int add_steps(qsb_trend_cell *c, cell_axis *axis, const qsb_history_series *s)
{
    qsb_step_list list = {0};
    int status = qsb_detect_series(s, &list);
    if (status == QSB_OK && QSB_GROW(c->steps, axis->steps_cap, c->nsteps + list.n) != 0)
        status = QSB_ESYSTEM;
    for (size_t i = 0; i < list.n && status == QSB_OK; i++) {
        const qsb_step *from = &list.steps[i];
        qsb_trend_step *to = &c->steps[c->nsteps++];
        *to = (qsb_trend_step){copy(from->algorithm),
                               from->view == QSB_VIEW_DELTA ? "delta" : "median",
                               copy(from->before), copy(from->after),
                               (size_t)s->points[from->after_index].run_id, from->change_pct,
                               from->lo, from->hi};
        if (!to->algorithm || !to->before || !to->after)
            status = QSB_ESYSTEM;
    }
    qsb_step_list_free(&list);
    return status;
}

static int visit(void *ctx, const qsb_history_series *s)
{
    loader *ld = ctx;
    long k = find_cell(ld, s);
    if (k < 0 || add_axis_runs(&ld->axes[k], s) != 0 ||
        add_line(&ld->t->cells[k], &ld->axes[k], s) != 0 ||
        add_steps(&ld->t->cells[k], &ld->axes[k], s) != QSB_OK)
        return qsb_out_of_memory("the history's trend");
    return QSB_OK;
}

static int by_commit_order(const void *a, const void *b)
{
    const axis_run *x = a, *y = b;
    if (x->time != y->time)
        return (x->time > y->time) - (x->time < y->time);
    return (x->id > y->id) - (x->id < y->id);
}

static size_t place_of(const cell_axis *axis, size_t run_id)
{
    for (size_t i = 0; i < axis->n; i++)
        if ((size_t)axis->runs[i].id == run_id)
            return i;
    return 0; /* not reached: every point's run is on its cell's axis */
}

/* Sorts each cell's runs into commit order; the axis' commits and the points' places. */
static int finish_cell(qsb_trend_cell *c, cell_axis *axis)
{
    qsort(axis->runs, axis->n, sizeof *axis->runs, by_commit_order);
    if (!(c->commits = calloc(axis->n ? axis->n : 1, sizeof *c->commits)))
        return -1;
    for (size_t i = 0; i < axis->n; i++) {
        c->commits[i] = axis->runs[i].commit;
        axis->runs[i].commit = NULL;
    }
    c->ncommits = axis->n;
    for (size_t l = 0; l < c->nlines; l++)
        for (size_t i = 0; i < c->lines[l].n; i++)
            c->lines[l].points[i].x = place_of(axis, c->lines[l].points[i].x);
    for (size_t k = 0; k < c->nsteps; k++)
        c->steps[k].after_x = place_of(axis, c->steps[k].after_x);
    return 0;
}

int qsb_trend_load(const char *path, qsb_trend *out)
{
    memset(out, 0, sizeof *out);
    out->source = path;
    out->method = METHOD;
    qsb_history *h;
    int status = qsb_history_open(path, QSB_HISTORY_READ, &h);
    if (status != QSB_OK)
        return status;
    qsb_history_run *runs = NULL;
    status = qsb_history_runs(h, NULL, &runs, &out->nruns);
    qsb_history_runs_free(runs, out->nruns);
    loader ld = {out, NULL, 0, 0};
    qsb_history_filter all = {NULL, 0, 0, NULL, NULL, QSB_HISTORY_COMPLETE_RUNS};
    if (status == QSB_OK)
        status = qsb_history_walk(h, &all, QSB_HISTORY_NO_SAMPLES, visit, &ld);
    for (size_t i = 0; i < out->ncells && status == QSB_OK; i++)
        if (finish_cell(&out->cells[i], &ld.axes[i]) != 0)
            status = qsb_out_of_memory("the history's trend");
    for (size_t i = 0; i < out->ncells; i++) {
        for (size_t k = 0; k < ld.axes[i].n; k++)
            free(ld.axes[i].runs[k].commit);
        free(ld.axes[i].runs);
    }
    free(ld.axes);
    qsb_history_close(h);
    return status;
}

void qsb_trend_free(qsb_trend *t)
{
    for (size_t i = 0; i < t->ncells; i++) {
        qsb_trend_cell *c = &t->cells[i];
        for (size_t l = 0; l < c->nlines; l++) {
            for (size_t k = 0; k < c->lines[l].n; k++)
                free(c->lines[l].points[k].states);
            free(c->lines[l].points);
            free(c->lines[l].algorithm);
        }
        for (size_t k = 0; k < c->nsteps; k++) {
            free(c->steps[k].algorithm);
            free(c->steps[k].before);
            free(c->steps[k].after);
        }
        for (size_t k = 0; k < c->ncommits; k++)
            free(c->commits[k]);
        free(c->commits);
        free(c->lines);
        free(c->steps);
        free(c->machine);
        free(c->pattern);
        free(c->metric);
    }
    free(t->cells);
    memset(t, 0, sizeof *t);
}
