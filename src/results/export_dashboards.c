/*
** Bencher Metric Format and github-action-benchmark's custom JSON (see export_dashboards.h),
** built with cJSON.
*/
#include "export_dashboards.h"

#include <cjson/cJSON.h>
#include <math.h>
#include <stdbool.h>
#include <stdio.h>
#include <string.h>

#include "diag.h"
#include "export.h"
#include "json_write.h"
#include "states_text.h"

#define NAME_MAX_BYTES 1024 /* Bencher's limit on a benchmark name */

/* A row a dashboard can plot: verified, with a median. */
static bool exportable(const qsb_cell *cell, size_t i)
{
    return cell->rows[i].verified && isfinite(cell->rows[i].summary.median);
}

/* A delta to export: a candidate's, against a verified baseline. */
static bool has_delta(const qsb_cell *cell, size_t i)
{
    return i > 0 && cell->rows[0].verified && isfinite(cell->rows[i].delta_pct);
}

static bool known(double lo, double hi)
{
    return isfinite(lo) && isfinite(hi);
}

/* The machine's name in benchmark names: only in a fleet. */
static const char *machine_of(const qsb_results *runs, size_t n, size_t m)
{
    return n > 1 ? qsb_machine_name(&runs[m].context) : NULL;
}

/* ---- bmf ---- */

static bool add_metric(cJSON *bench, const char *measure, double value, double lo, double hi)
{
    cJSON *m = cJSON_AddObjectToObject(bench, measure);
    if (!m || !cJSON_AddNumberToObject(m, "value", value))
        return false;
    if (!known(lo, hi))
        return true;
    return cJSON_AddNumberToObject(m, "lower_value", lo) &&
           cJSON_AddNumberToObject(m, "upper_value", hi);
}

/* The row's states as extra measures, fastest first from 1: state-K-share,
** state-K-median-METRIC and, for a candidate, state-K-delta-pct with its interval. */
static bool add_state_metrics(cJSON *bench, const qsb_row *row, const char *metric)
{
    const qsb_state_estimate *s = row->states;
    bool ok = true;
    for (size_t k = 0; k < row->nstates && ok; k++) {
        char measure[80];
        snprintf(measure, sizeof measure, "state-%zu-share", k + 1);
        ok = add_metric(bench, measure, s[k].share, NAN, NAN);
        snprintf(measure, sizeof measure, "state-%zu-median-%s", k + 1, metric ? metric : "value");
        ok = ok && add_metric(bench, measure, s[k].median, NAN, NAN);
        snprintf(measure, sizeof measure, "state-%zu-delta-pct", k + 1);
        if (ok && isfinite(s[k].delta_pct))
            ok = add_metric(bench, measure, s[k].delta_pct, s[k].delta_lo, s[k].delta_hi);
    }
    return ok;
}

static bool add_bmf_benchmark(cJSON *root, const qsb_results *r, const qsb_cell *cell, size_t i,
                              const char *machine)
{
    const qsb_row *row = &cell->rows[i];
    char name[NAME_MAX_BYTES + 1], measure[64];
    qsb_export_name(name, sizeof name, cell, row, machine);
    snprintf(measure, sizeof measure, "median-%s", r->context.metric ? r->context.metric : "value");
    cJSON *bench = cJSON_AddObjectToObject(root, name);
    if (!bench || !add_metric(bench, measure, row->summary.median, row->summary.median_lo,
                              row->summary.median_hi))
        return false;
    if (has_delta(cell, i) &&
        !add_metric(bench, "delta-pct", row->delta_pct, row->delta_lo, row->delta_hi))
        return false;
    return add_state_metrics(bench, row, r->context.metric);
}

int qsb_export_bmf(FILE *fp, const qsb_results *runs, size_t n)
{
    cJSON *root = cJSON_CreateObject();
    bool built = root != NULL;
    for (size_t m = 0; m < n && built; m++)
        for (qsb_row_cursor at = {0}; built && qsb_results_next_row(&runs[m], &at);)
            if (exportable(at.cell, at.i))
                built = add_bmf_benchmark(root, &runs[m], at.cell, at.i, machine_of(runs, n, m));
    return built ? qsb_json_print(fp, root, "bmf export")
                 : qsb_json_abandon(root, "bmf export");
}

/* ---- github-action-benchmark ---- */

/* "delta vs msort +1.20% [-0.40, +2.90]; 60 samples, 5 units; noisy" */
static void extra_text(char *buf, size_t len, const qsb_results *r, const qsb_cell *cell,
                       size_t i)
{
    const qsb_row *row = &cell->rows[i];
    int used = 0;
    if (has_delta(cell, i)) {
        used = snprintf(buf, len, "delta vs %s %+.2f%%", r->baseline ? r->baseline : "baseline",
                        row->delta_pct);
        if (used >= 0 && (size_t)used < len && known(row->delta_lo, row->delta_hi))
            used += snprintf(buf + used, len - (size_t)used, " [%+.2f, %+.2f]", row->delta_lo,
                             row->delta_hi);
        if (used >= 0 && (size_t)used < len)
            used += snprintf(buf + used, len - (size_t)used, "; ");
    } else if (i == 0) {
        used = snprintf(buf, len, "baseline; ");
    }
    if (used < 0 || (size_t)used >= len)
        return;
    size_t units = qsb_row_unit_count(row);
    if (units > 0)
        used += snprintf(buf + used, len - (size_t)used, "%zu samples, %zu units", row->nsamples,
                         units);
    else
        used += snprintf(buf + used, len - (size_t)used, "%zu samples", row->nsamples);
    if (row->noisy && used >= 0 && (size_t)used < len)
        used += snprintf(buf + used, len - (size_t)used, "; noisy");
    char states[384];
    if (qsb_states_words(row->states, row->nstates, states, sizeof states) > 0 && used >= 0 &&
        (size_t)used < len)
        snprintf(buf + used, len - (size_t)used, "; %s", states);
}

static bool add_github_entry(cJSON *list, const qsb_results *r, const qsb_cell *cell, size_t i,
                             const char *machine)
{
    const qsb_row *row = &cell->rows[i];
    char name[NAME_MAX_BYTES + 1], extra[1024];
    qsb_export_name(name, sizeof name, cell, row, machine);
    extra_text(extra, sizeof extra, r, cell, i);
    cJSON *e = cJSON_CreateObject();
    if (!e || !cJSON_AddItemToArray(list, e))
        return cJSON_Delete(e), false;
    bool ok = cJSON_AddStringToObject(e, "name", name) &&
              cJSON_AddStringToObject(e, "unit", r->context.metric ? r->context.metric : "") &&
              cJSON_AddNumberToObject(e, "value", row->summary.median);
    if (ok && known(row->summary.median_lo, row->summary.median_hi)) {
        char range[64];
        snprintf(range, sizeof range, "\xc2\xb1%.6g",
                 fmax(row->summary.median - row->summary.median_lo,
                      row->summary.median_hi - row->summary.median));
        ok = cJSON_AddStringToObject(e, "range", range) != NULL;
    }
    return ok && cJSON_AddStringToObject(e, "extra", extra);
}

int qsb_export_github_action(FILE *fp, const qsb_results *runs, size_t n)
{
    cJSON *root = cJSON_CreateArray();
    bool built = root != NULL;
    for (size_t m = 0; m < n && built; m++)
        for (qsb_row_cursor at = {0}; built && qsb_results_next_row(&runs[m], &at);)
            if (exportable(at.cell, at.i))
                built = add_github_entry(root, &runs[m], at.cell, at.i, machine_of(runs, n, m));
    return built ? qsb_json_print(fp, root, "github-action-benchmark export")
                 : qsb_json_abandon(root, "github-action-benchmark export");
}
