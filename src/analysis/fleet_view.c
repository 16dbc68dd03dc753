/*
** fleet_view.h: fleet charts through plot.c on two synthetic result structures, and the
** machine-against-machine table of compare --machines.
*/
#include "fleet_view.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "diag.h"
#include "grow.h"
#include "read_results.h"

/* ---- charts ---- */

/* The row's figures the charts read (no samples). */
static void copy_figures(qsb_row *to, const qsb_row *from)
{
    to->summary = from->summary;
    to->delta_pct = from->delta_pct;
    to->delta_lo = from->delta_lo;
    to->delta_hi = from->delta_hi;
    to->comparisons = from->comparisons;
    to->verified = from->verified;
    to->noisy = from->noisy;
}

/* A context that names the machines (the charts' subtitle) and carries machine 0's metric,
** seed and mode. */
static int fleet_context(qsb_context *c, const qsb_results *runs, size_t n)
{
    size_t len = 32;
    for (size_t m = 0; m < n; m++)
        len += strlen(qsb_machine_name(&runs[m].context)) + 2;
    char *host = malloc(len);
    if (!host)
        return -1;
    int at = snprintf(host, len, "%zu machines: ", n);
    for (size_t m = 0; m < n; m++)
        at += snprintf(host + at, len - (size_t)at, "%s%s", m ? ", " : "",
                       qsb_machine_name(&runs[m].context));
    c->host = host;
    c->seed = runs[0].context.seed;
    c->pinned_cpu = -1;
    return qsb_set_string(&c->metric, runs[0].context.metric) != 0 ||
                   qsb_set_string(&c->mode, runs[0].context.mode) != 0
               ? -1 : 0;
}

/* Deltas: a cell per (pattern/count, machine as the "count", size), the machine's rows. */
static int deltas_view(const qsb_results *runs, size_t n, qsb_results *v)
{
    int failed = fleet_context(&v->context, runs, n) != 0 ||
                 qsb_set_string(&v->baseline, runs[0].baseline) != 0;
    for (size_t m = 0; m < n && !failed; m++)
        for (size_t c = 0; c < runs[m].ncells && !failed; c++) {
            const qsb_cell *cell = &runs[m].cells[c];
            char group[256];
            snprintf(group, sizeof group, "%s/%llu", cell->pattern,
                     (unsigned long long)cell->nelem);
            const char **names = malloc(cell->nrows * sizeof *names);
            for (size_t i = 0; names && i < cell->nrows; i++)
                names[i] = cell->rows[i].algorithm;
            qsb_cell *to = names ? qsb_results_add_cell(v, group, m + 1, cell->size, names,
                                                        cell->nrows)
                                 : NULL;
            free(names);
            failed = !to;
            for (size_t i = 0; to && i < cell->nrows; i++)
                copy_figures(&to->rows[i], &cell->rows[i]);
        }
    return failed ? -1 : 0;
}

/* Series: the cells of every machine together, a row per algorithm@machine. */
static int series_view(const qsb_results *runs, size_t n, qsb_results *v)
{
    char name[512];
    int failed = fleet_context(&v->context, runs, n) != 0;
    snprintf(name, sizeof name, "%s@%s", runs[0].baseline ? runs[0].baseline : "?",
             qsb_machine_name(&runs[0].context));
    failed = failed || qsb_set_string(&v->baseline, name) != 0;
    for (size_t m = 0; m < n && !failed; m++)
        for (size_t c = 0; c < runs[m].ncells && !failed; c++) {
            const qsb_cell *cell = &runs[m].cells[c];
            qsb_cell *to = NULL;
            for (size_t k = 0; k < v->ncells && !to; k++)
                if (strcmp(v->cells[k].pattern, cell->pattern) == 0 &&
                    v->cells[k].nelem == cell->nelem && v->cells[k].size == cell->size)
                    to = &v->cells[k];
            if (!to && !(to = qsb_results_add_cell(v, cell->pattern, cell->nelem, cell->size,
                                                   NULL, 0))) {
                failed = 1;
                break;
            }
            size_t cap = to->nrows; /* at least: the cell's rows are all in use */
            if (QSB_GROW(to->rows, cap, to->nrows + cell->nrows) != 0) {
                failed = 1;
                break;
            }
            for (size_t i = 0; i < cell->nrows && !failed; i++) {
                snprintf(name, sizeof name, "%s@%s", cell->rows[i].algorithm,
                         qsb_machine_name(&runs[m].context));
                failed = qsb_row_init(&to->rows[to->nrows], name) != 0;
                if (!failed)
                    copy_figures(&to->rows[to->nrows++], &cell->rows[i]);
            }
        }
    return failed ? -1 : 0;
}

int qsb_plot_fleet_file(const qsb_results *runs, size_t n, const char *results_path,
                        const qsb_plot_options *opt)
{
    for (size_t m = 1; m < n; m++)
        if (!runs[m].context.metric || !runs[0].context.metric ||
            strcmp(runs[m].context.metric, runs[0].context.metric) != 0)
            return qsb_error(QSB_EUSAGE, "machines '%s' and '%s' measured different metrics: "
                             "their charts cannot share axes",
                             qsb_quote(qsb_machine_name(&runs[0].context)),
                             qsb_quote(qsb_machine_name(&runs[m].context)));
    bool same_baseline = true;
    for (size_t m = 1; m < n; m++)
        same_baseline &= runs[m].baseline && runs[0].baseline &&
                         strcmp(runs[m].baseline, runs[0].baseline) == 0;
    size_t len = 1;
    for (size_t m = 0; m < n; m++)
        len += strlen(qsb_machine_name(&runs[m].context)) + 2;
    char *words = malloc(len);
    qsb_results deltas, series;
    memset(&deltas, 0, sizeof deltas);
    memset(&series, 0, sizeof series);
    int status = words ? QSB_OK : qsb_out_of_memory("charts");
    for (size_t m = 0, at = 0; words && m < n; m++) { /* one word per machine */
        const char *name = qsb_machine_name(&runs[m].context);
        words[at++] = '='; /* shown as it is, not "n = NAME" (deltas.gp) */
        for (const char *s = name; *s; s++)
            words[at++] = *s == ' ' ? '_' : *s;
        words[at++] = m + 1 < n ? ' ' : '\0';
    }
    if (status == QSB_OK && (deltas_view(runs, n, &deltas) != 0 ||
                             series_view(runs, n, &series) != 0))
        status = qsb_out_of_memory("charts");
    if (status == QSB_OK && same_baseline) {
        qsb_plot_options o = *opt;
        o.charts = QSB_CHART_DELTAS;
        o.series = words;
        status = qsb_plot_results_file(&deltas, results_path, &o);
    } else if (status == QSB_OK) {
        qsb_warning("the machines have different baselines: no deltas chart");
    }
    if (status == QSB_OK) {
        qsb_plot_options o = *opt;
        o.charts = QSB_CHART_SCALING | QSB_CHART_COMPARISONS;
        status = qsb_plot_results_file(&series, results_path, &o);
    }
    qsb_results_free(&deltas);
    qsb_results_free(&series);
    free(words);
    return status;
}

/* ---- compare --machines ---- */

static const qsb_cell *find_cell(const qsb_results *r, const qsb_cell *like)
{
    for (size_t c = 0; c < r->ncells; c++)
        if (strcmp(r->cells[c].pattern, like->pattern) == 0 &&
            r->cells[c].nelem == like->nelem && r->cells[c].size == like->size)
            return &r->cells[c];
    return NULL;
}

static const qsb_row *find_row(const qsb_cell *cell, const char *algorithm)
{
    for (size_t i = 1; cell && i < cell->nrows; i++) /* candidates only */
        if (strcmp(cell->rows[i].algorithm, algorithm) == 0)
            return &cell->rows[i];
    return NULL;
}

static void put_pct(FILE *out, double v)
{
    if (isnan(v))
        fprintf(out, " %9s", "-");
    else
        fprintf(out, " %+8.2f%%", v);
}

int qsb_compare_machines(FILE *out, const qsb_results *a, const qsb_results *b)
{
    char an[QSB_QUOTE_MAX + 1], bn[QSB_QUOTE_MAX + 1];
    qsb_escape(an, sizeof an, qsb_machine_name(&a->context), "\\");
    qsb_escape(bn, sizeof bn, qsb_machine_name(&b->context), "\\");
    fprintf(out, "paired delta of each candidate against its machine's baseline (%s on %s, "
            "%s on %s), metric %s; diff = B - A in percentage points\n",
            a->baseline ? a->baseline : "?", an, b->baseline ? b->baseline : "?", bn,
            a->context.metric ? a->context.metric : "?");
    fprintf(out, "%-12s %10s %5s %-12s %10s %10s %10s  %s\n", "pattern", "nelem", "size",
            "candidate", "A", "B", "diff", "intervals");
    size_t shown = 0;
    for (size_t c = 0; c < a->ncells; c++) {
        const qsb_cell *ca = &a->cells[c], *cb = find_cell(b, ca);
        for (size_t i = 1; cb && i < ca->nrows; i++) {
            const qsb_row *ra = &ca->rows[i], *rb = find_row(cb, ra->algorithm);
            if (!rb)
                continue;
            char pattern[QSB_QUOTE_MAX + 1], algo[QSB_QUOTE_MAX + 1];
            qsb_escape(pattern, 13, ca->pattern, "\\");
            qsb_escape(algo, 13, ra->algorithm, "\\");
            fprintf(out, "%-12s %10llu %5llu %-12s", pattern, (unsigned long long)ca->nelem,
                    (unsigned long long)ca->size, algo);
            double da = ra->verified ? ra->delta_pct : NAN, db = rb->verified ? rb->delta_pct : NAN;
            put_pct(out, da);
            put_pct(out, db);
            put_pct(out, db - da);
            const char *verdict = !ra->verified || !rb->verified ? "FAILED"
                                  : isnan(ra->delta_lo) || isnan(rb->delta_lo) ? "-"
                                  : rb->delta_lo > ra->delta_hi ? "B higher"
                                  : rb->delta_hi < ra->delta_lo ? "B lower"
                                                                : "overlap";
            fprintf(out, "  %s\n", verdict);
            shown++;
        }
    }
    if (shown == 0)
        return qsb_error(QSB_EUSAGE, "machines '%s' and '%s' share no cell with a candidate "
                         "to compare", an, bn);
    return QSB_OK;
}
