/*
** The history's outputs (history_report.h). Numbers never depend on the locale: the tool
** never sets one, so printf's decimal point is '.'.
*/
#include "history_report.h"

#include <cjson/cJSON.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "diag.h"
#include "json_write.h"
#include "option_names.h"
#include "read_results.h"

/* ---- add ---- */

static void free_runs(qsb_results **runs, size_t *counts, size_t n)
{
    for (size_t i = 0; i < n; i++) {
        for (size_t k = 0; runs[i] && k < counts[i]; k++)
            qsb_results_free(&runs[i][k]);
        free(runs[i]);
    }
}

int qsb_history_add_files(qsb_history *h, char *const *paths, size_t n,
                          const qsb_stamp_text *stamp, const char *machine)
{
    qsb_results **files = calloc(n ? n : 1, sizeof *files);
    size_t *counts = calloc(n ? n : 1, sizeof *counts);
    int status = files && counts ? QSB_OK : qsb_out_of_memory("history add");
    size_t total = 0;
    for (size_t i = 0; i < n && status == QSB_OK; i++) {
        status = qsb_read_fleet(paths[i], &files[i], &counts[i]);
        total += counts[i];
    }
    qsb_results *all = status == QSB_OK ? malloc((total ? total : 1) * sizeof *all) : NULL;
    qsb_history_stamp *stamps = all ? malloc((total ? total : 1) * sizeof *stamps) : NULL;
    int64_t *ids = stamps ? malloc((total ? total : 1) * sizeof *ids) : NULL;
    if (status == QSB_OK && !ids)
        status = qsb_out_of_memory("history add");
    size_t k = 0;
    for (size_t i = 0; i < n && status == QSB_OK; i++)
        for (size_t j = 0; j < counts[i]; j++, k++) {
            all[k] = files[i][j]; /* shallow: files[] still owns them */
            stamps[k] = (qsb_history_stamp){stamp->commit, stamp->date, stamp->time,
                                            stamp->branch[0] ? stamp->branch : NULL,
                                            machine, paths[i], stamp->depth, stamp->dirty};
        }
    if (status == QSB_OK)
        status = qsb_history_add(h, all, stamps, total, ids);
    for (size_t i = 0; i < total && status == QSB_OK; i++)
        qsb_note("history: run %lld added: %s at %s, %s, %zu cells", (long long)ids[i],
                 qsb_quote(machine ? machine : qsb_machine_name(&all[i].context)),
                 qsb_quote(stamp->commit), qsb_quote(stamp->date), all[i].ncells);
    free(ids);
    free(stamps);
    free(all);
    if (files)
        free_runs(files, counts, n);
    free(files);
    free(counts);
    return status;
}

int qsb_history_add_results(const char *path, const qsb_results *r, const qsb_stamp_text *stamp,
                            const char *machine)
{
    qsb_history *h;
    int status = qsb_history_open(path, QSB_HISTORY_CREATE, &h);
    if (status != QSB_OK)
        return status;
    qsb_history_stamp st = {stamp->commit, stamp->date, stamp->time,
                            stamp->branch[0] ? stamp->branch : NULL,
                            machine, NULL, stamp->depth, stamp->dirty};
    int64_t id = 0;
    status = qsb_history_add(h, r, &st, 1, &id);
    if (status == QSB_OK)
        qsb_history_close(h);
    else
        qsb_history_discard(h);
    if (status == QSB_OK)
        qsb_note("history: run %lld added to %s: %s at %s, %zu cells", (long long)id,
                 qsb_quote_path(path), qsb_quote(machine ? machine : qsb_machine_name(&r->context)),
                 qsb_quote(stamp->commit), r->ncells);
    return status;
}

/* ---- list ---- */

static const char *short_commit(const char *commit, char buf[13])
{
    snprintf(buf, 13, "%s", commit);
    return buf;
}

int qsb_history_write_runs(FILE *out, qsb_history *h, const char *machine)
{
    qsb_history_run *runs;
    size_t n;
    int status = qsb_history_runs(h, machine, &runs, &n);
    if (status != QSB_OK)
        return status;
    fprintf(out, "%6s  %-12s  %-25s  %-16s  %5s  %-16s  %s\n", "run", "commit", "date",
            "machine", "cells", "marks", "command");
    for (size_t i = 0; i < n; i++) {
        char c[13], marks[32];
        snprintf(marks, sizeof marks, "%s%s%s", runs[i].incomplete ? "incomplete" : "",
                 runs[i].incomplete && runs[i].dirty ? "," : "", runs[i].dirty ? "dirty" : "");
        fprintf(out, "%6lld  %-12s  %-25s  %-16s  %5zu  %-16s  %s\n", (long long)runs[i].id,
                short_commit(runs[i].commit, c), runs[i].date, runs[i].machine, runs[i].cells,
                marks[0] ? marks : "-", runs[i].command_line);
    }
    if (n == 0)
        fprintf(out, "(no runs)\n");
    qsb_history_runs_free(runs, n);
    return QSB_OK;
}

/* ---- show ---- */

static void csv_text(FILE *out, const char *text)
{
    if (!text)
        return;
    if (!strpbrk(text, ",\"\r\n")) {
        fputs(text, out);
        return;
    }
    fputc('"', out);
    for (const char *p = text; *p; p++) {
        if (*p == '"')
            fputc('"', out);
        fputc(*p, out);
    }
    fputc('"', out);
}

static void csv_number(FILE *out, double v)
{
    if (isfinite(v))
        fprintf(out, "%.17g", v);
}

static void write_point_csv(FILE *out, const qsb_history_series *s, const qsb_history_point *p)
{
    csv_text(out, p->commit);
    fputc(',', out);
    csv_text(out, p->date);
    fprintf(out, ",%lld,", (long long)p->run_id);
    csv_text(out, s->machine);
    fputc(',', out);
    csv_text(out, s->metric);
    fputc(',', out);
    fprintf(out, "%s,", p->verified ? "true" : "false");
    const double v[] = {p->median, p->median_lo, p->median_hi, p->delta_pct, p->delta_lo,
                        p->delta_hi};
    for (size_t i = 0; i < 6; i++) {
        csv_number(out, v[i]);
        fputc(',', out);
    }
    csv_text(out, p->states);
    fputc(',', out);
    for (size_t i = 0; i < p->nsamples; i++) {
        if (i)
            fputc(';', out);
        fprintf(out, "%.17g", p->samples[i]);
    }
    fputc('\n', out);
}

typedef enum { AS_MEDIAN, AS_DELTA } number_style;

static void format_number(char *buf, size_t len, number_style style, double v)
{
    if (style == AS_DELTA)
        snprintf(buf, len, "%+.2f", v);
    else
        snprintf(buf, len, "%.1f", v);
}

static void write_interval(FILE *out, number_style style, double v, double lo, double hi,
                           int width)
{
    char text[128], a[32], b[32], c[32];
    format_number(a, sizeof a, style, v);
    format_number(b, sizeof b, style, lo);
    format_number(c, sizeof c, style, hi);
    if (!isfinite(v))
        snprintf(text, sizeof text, "-");
    else if (isfinite(lo) && isfinite(hi))
        snprintf(text, sizeof text, "%s [%s, %s]", a, b, c);
    else
        snprintf(text, sizeof text, "%s", a);
    fprintf(out, "  %-*s", width, text);
}

static void write_series_table(FILE *out, const qsb_history_series *s)
{
    fprintf(out, "%s/%llu/%llu %s on %s (%s), %zu runs\n", s->pattern,
            (unsigned long long)s->nelem, (unsigned long long)s->size, s->algorithm,
            s->machine, s->metric, s->n);
    fprintf(out, "%-12s  %-25s  %-34s  %-30s  %s\n", "commit", "date",
            "median [95% interval]", "delta % [95% interval]", "states");
    for (size_t i = 0; i < s->n; i++) {
        const qsb_history_point *p = &s->points[i];
        char c[13];
        fprintf(out, "%-12s  %-25s", short_commit(p->commit, c), p->date);
        write_interval(out, AS_MEDIAN, p->median, p->median_lo, p->median_hi, 34);
        write_interval(out, AS_DELTA, p->delta_pct, p->delta_lo, p->delta_hi, 30);
        fprintf(out, "  %s%s%s\n", p->states ? p->states : "", p->verified ? "" : " FAILED",
                p->incomplete ? " (incomplete run)" : "");
    }
}

typedef struct {
    FILE *table, *csv;
    size_t series;
} show_ctx;

static int visit_show(void *ctx, const qsb_history_series *s)
{
    show_ctx *sc = ctx;
    if (sc->series++)
        fputc('\n', sc->table);
    write_series_table(sc->table, s);
    for (size_t i = 0; sc->csv && i < s->n; i++)
        write_point_csv(sc->csv, s, &s->points[i]);
    return QSB_OK;
}

int qsb_history_show(qsb_history *h, const qsb_history_filter *filter, FILE *table_out,
                     FILE *csv_out)
{
    if (csv_out)
        fprintf(csv_out, "commit,date,run,machine,metric,verified,median,median_lo,median_hi,"
                         "delta_pct,delta_lo,delta_hi,states,samples\n");
    show_ctx sc = {table_out, csv_out, 0};
    int status = qsb_history_walk(h, filter, csv_out ? QSB_HISTORY_SAMPLES
                                                     : QSB_HISTORY_NO_SAMPLES,
                                  visit_show, &sc);
    if (status != QSB_OK || sc.series)
        return status;
    char names[400];
    qsb_history_filter cell = *filter;
    cell.algorithm = NULL;
    size_t known = qsb_history_algorithms_text(h, &cell, names, sizeof names);
    if (known)
        return qsb_error(QSB_EUSAGE, "--" QSB_OPT_ALGO " '%s': not in the history of "
                         "%s/%llu/%llu%s%s (there: %s)", qsb_quote(filter->algorithm),
                         qsb_quote(filter->pattern),
                         (unsigned long long)filter->nelem, (unsigned long long)filter->size,
                         filter->machine ? " on " : "",
                         filter->machine ? qsb_quote(filter->machine) : "", names);
    qsb_history_cells_text(h, filter->machine, names, sizeof names);
    return qsb_error(QSB_EUSAGE, "--" QSB_OPT_CELL " %s/%llu/%llu: not in the history%s%s "
                     "(there: %s)",
                     qsb_quote(filter->pattern), (unsigned long long)filter->nelem,
                     (unsigned long long)filter->size, filter->machine ? " of " : "",
                     filter->machine ? qsb_quote(filter->machine) : "",
                     names[0] ? names : "no cells");
}

/* ---- detect ---- */

static const char *view_name(qsb_series_view v)
{
    return v == QSB_VIEW_DELTA ? "delta" : "median";
}

/* "detect sees ... above 7.4% (median series)", and where that is above the threshold what
** it cannot claim. Nothing where no series has two commits. */
static void write_seen(FILE *out, double seen, double threshold_pct)
{
    if (!isfinite(seen))
        return;
    fprintf(out, "this detect sees a slower step at the newest commit above %.1f%% (median "
                 "series)\n", seen);
    if (seen > threshold_pct)
        fprintf(out, "its detectable change is larger than the threshold of %g%%: it cannot "
                     "support \"no regression above %g%%\"\n", threshold_pct, threshold_pct);
}

static void write_steps_table(FILE *out, const qsb_step_list *steps, double threshold_pct)
{
    if (steps->n == 0) {
        fprintf(out, "no steps\n");
        write_seen(out, qsb_steps_detectable_pct(steps, threshold_pct), threshold_pct);
        return;
    }
    fprintf(out, "%-16s  %-24s  %-14s  %-6s  %-12s  %-12s  %-28s\n", "machine", "cell",
            "algorithm", "series", "before", "after", "change % [95% interval]");
    for (size_t i = 0; i < steps->n; i++) {
        const qsb_step *s = &steps->steps[i];
        char cell[96], b[13], a[13], change[64];
        snprintf(cell, sizeof cell, "%s/%llu/%llu", s->pattern, (unsigned long long)s->nelem,
                 (unsigned long long)s->size);
        snprintf(change, sizeof change, "%+.2f [%+.2f, %+.2f]", s->change_pct, s->lo, s->hi);
        fprintf(out, "%-16s  %-24s  %-14s  %-6s  %-12s  %-12s  %-28s%s\n", s->machine, cell,
                s->algorithm, view_name(s->view), short_commit(s->before, b),
                short_commit(s->after, a), change,
                qsb_step_fails(s, threshold_pct) ? "  SLOWER at the newest commit" : "");
    }
    write_seen(out, qsb_steps_detectable_pct(steps, threshold_pct), threshold_pct);
}

static cJSON *step_json(const qsb_step *s, double threshold_pct)
{
    cJSON *o = cJSON_CreateObject();
    if (!o)
        return NULL;
    int ok = cJSON_AddStringToObject(o, "machine", s->machine) &&
             cJSON_AddStringToObject(o, "pattern", s->pattern) &&
             cJSON_AddNumberToObject(o, "nelem", (double)s->nelem) &&
             cJSON_AddNumberToObject(o, "size", (double)s->size) &&
             cJSON_AddStringToObject(o, "algorithm", s->algorithm) &&
             cJSON_AddStringToObject(o, "metric", view_name(s->view)) &&
             cJSON_AddStringToObject(o, "unit", s->metric_unit) &&
             cJSON_AddStringToObject(o, "before", s->before) &&
             cJSON_AddStringToObject(o, "after", s->after) &&
             cJSON_AddNumberToObject(o, "change_pct", s->change_pct) &&
             cJSON_AddNumberToObject(o, "lo", s->lo) &&
             cJSON_AddNumberToObject(o, "hi", s->hi) &&
             cJSON_AddBoolToObject(o, "newest", s->at_newest) &&
             cJSON_AddBoolToObject(o, "fails", qsb_step_fails(s, threshold_pct));
    if (!ok) {
        cJSON_Delete(o);
        return NULL;
    }
    return o;
}

static int write_steps_json(FILE *out, const qsb_step_list *steps, double threshold_pct)
{
    cJSON *root = cJSON_CreateObject();
    int built = root && cJSON_AddNumberToObject(root, "threshold_pct", threshold_pct) &&
                cJSON_AddNumberToObject(root, "detectable_pct",
                                        qsb_steps_detectable_pct(steps, threshold_pct));
    cJSON *arr = built ? cJSON_AddArrayToObject(root, "steps") : NULL;
    built = arr != NULL;
    for (size_t i = 0; built && i < steps->n; i++) {
        cJSON *o = step_json(&steps->steps[i], threshold_pct);
        built = o && cJSON_AddItemToArray(arr, o);
    }
    return built ? qsb_json_print(out, root, "the steps' JSON")
                 : qsb_json_abandon(root, "the steps' JSON");
}

int qsb_steps_write(FILE *table_out, FILE *json_out, const qsb_step_list *steps,
                    double threshold_pct)
{
    write_steps_table(table_out, steps, threshold_pct);
    return json_out ? write_steps_json(json_out, steps, threshold_pct) : QSB_OK;
}
