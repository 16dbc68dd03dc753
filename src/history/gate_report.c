/*
** What the history's gate prints and writes (see gate.h): the table, its closing lines (the
** detectable change, the rows without a level), the JSON; and each machine's run level for
** `history list`.
*/
#include "gate.h"

#include <cjson/cJSON.h>
#include <math.h>
#include <stdbool.h>
#include <stdio.h>
#include <string.h>

#include "diag.h"
#include "json_write.h"

/* "+-1.2%", "none seen" where the runs move no more than their own intervals say (a level of
** 0 is an estimate, not a measured zero), or "unknown" */
static void level_text(double pct, char *buf, size_t len)
{
    if (isfinite(pct) && pct >= 0.005)
        snprintf(buf, len, "+-%.2f%%", pct);
    else
        snprintf(buf, len, isfinite(pct) ? "none seen" : "unknown");
}

static void write_row(FILE *out, const qsb_gate_row *g)
{
    const qsb_cell *cell = g->cell;
    char where[96], level[32], change[64] = "-", detectable[32] = "-";
    snprintf(where, sizeof where, "%s/%llu/%llu", cell->pattern,
             (unsigned long long)cell->nelem, (unsigned long long)cell->size);
    level_text(g->level_pct, level, sizeof level);
    if (isfinite(g->change_pct))
        snprintf(change, sizeof change, "%+.2f [%+.2f, %+.2f]", g->change_pct, g->lo_pct,
                 g->hi_pct);
    if (isfinite(g->detectable_pct))
        snprintf(detectable, sizeof detectable, "%.2f%%", g->detectable_pct);
    char state[64] = "";
    if (g->states_tested > 0)
        snprintf(state, sizeof state, " (state at %.0f)", g->state_speed);
    fprintf(out, "%-24s  %-16s  %-6s  %4zu  %-10s  %-30s  %-10s  %s%s\n", where,
            cell->rows[g->row].algorithm, g->by_median ? "median" : "delta", g->history_n,
            level, change, detectable, qsb_gate_verdict_name(g->verdict), state);
}

void qsb_gate_write_table(FILE *out, const qsb_gate_report *r, const qsb_gate_options *opt)
{
    fprintf(out, "%-24s  %-16s  %-6s  %4s  %-10s  %-30s  %-10s  %s\n", "cell", "algorithm",
            "judged", "runs", "run level", "change % [95% prediction]", "detectable",
            "verdict");
    for (size_t i = 0; i < r->n; i++)
        write_row(out, &r->rows[i]);
    if (isfinite(r->detectable_median_pct))
        fprintf(out, "this gate sees slowdowns above %.1f%% (median row); 3 runs a side would "
                     "see %.1f%%\n",
                r->detectable_median_pct, r->detectable3_median_pct);
    if (r->delta_scale < 1.0 || r->median_scale < 1.0)
        fprintf(out, "the runs' own intervals are wider than their scatter in this history: "
                     "their variances scaled by %.2f (deltas) and %.2f (medians)\n",
                r->delta_scale, r->median_scale);
    if (isfinite(r->detectable_median_pct) && r->detectable_median_pct > opt->threshold_pct)
        fprintf(out, "its detectable change is larger than the threshold of %g%%: it cannot "
                     "support \"no regression above %g%%\"\n",
                opt->threshold_pct, opt->threshold_pct);
}

/* The lines on stderr: rows without a level or a history. */
void qsb_gate_warn(const qsb_gate_report *r)
{
    if (r->unknown_level > 0)
        qsb_warning("%zu row%s ha%s fewer than %d runs in the history: run level unknown, "
                    "judged within the run only (file more runs of this machine)",
                    r->unknown_level, r->unknown_level == 1 ? "" : "s",
                    r->unknown_level == 1 ? "s" : "ve", QSB_LEVEL_MIN_RUNS);
    if (r->count[QSB_GATE_NO_HISTORY] > 0)
        qsb_warning("%zu row%s of the new run ha%s no run with an interval in the history: "
                    "not judged",
                    r->count[QSB_GATE_NO_HISTORY], r->count[QSB_GATE_NO_HISTORY] == 1 ? "" : "s",
                    r->count[QSB_GATE_NO_HISTORY] == 1 ? "s" : "ve");
}

static cJSON *row_json(const qsb_gate_row *g)
{
    const qsb_cell *cell = g->cell;
    cJSON *o = cJSON_CreateObject();
    int ok = o && cJSON_AddStringToObject(o, "pattern", cell->pattern) &&
             cJSON_AddNumberToObject(o, "nelem", (double)cell->nelem) &&
             cJSON_AddNumberToObject(o, "size", (double)cell->size) &&
             cJSON_AddStringToObject(o, "algorithm", cell->rows[g->row].algorithm) &&
             cJSON_AddStringToObject(o, "judged", g->by_median ? "median" : "delta") &&
             cJSON_AddNumberToObject(o, "history_n", (double)g->history_n) &&
             cJSON_AddNumberToObject(o, "run_level_pct", g->level_pct) &&
             cJSON_AddNumberToObject(o, "change_pct", g->change_pct) &&
             cJSON_AddNumberToObject(o, "lo_pct", g->lo_pct) &&
             cJSON_AddNumberToObject(o, "hi_pct", g->hi_pct) &&
             cJSON_AddNumberToObject(o, "p", g->p) &&
             cJSON_AddNumberToObject(o, "p_adjusted", g->p_adjusted) &&
             cJSON_AddNumberToObject(o, "detectable_pct", g->detectable_pct) &&
             cJSON_AddNumberToObject(o, "detectable_3_runs_pct", g->detectable3_pct) &&
             cJSON_AddStringToObject(o, "verdict", qsb_gate_verdict_name(g->verdict));
    if (ok && g->states_tested > 0)
        ok = cJSON_AddNumberToObject(o, "states_tested", (double)g->states_tested) &&
             cJSON_AddNumberToObject(o, "state_speed", g->state_speed);
    if (!ok) {
        cJSON_Delete(o);
        return NULL;
    }
    return o;
}

int qsb_gate_write_json(FILE *out, const qsb_gate_report *r, const qsb_gate_options *opt)
{
    cJSON *root = cJSON_CreateObject();
    int built = root && cJSON_AddNumberToObject(root, "threshold_pct", opt->threshold_pct) &&
                cJSON_AddNumberToObject(root, "alpha", opt->alpha) &&
                cJSON_AddNumberToObject(root, "run_level_pct", r->level_median_pct) &&
                cJSON_AddNumberToObject(root, "detectable_pct", r->detectable_median_pct) &&
                cJSON_AddNumberToObject(root, "detectable_3_runs_pct",
                                        r->detectable3_median_pct) &&
                cJSON_AddNumberToObject(root, "delta_variance_scale", r->delta_scale) &&
                cJSON_AddNumberToObject(root, "median_variance_scale", r->median_scale) &&
                cJSON_AddNumberToObject(root, "regressions",
                                        (double)r->count[QSB_GATE_REGRESSION]);
    cJSON *rows = built ? cJSON_AddArrayToObject(root, "rows") : NULL;
    built = rows != NULL;
    for (size_t i = 0; built && i < r->n; i++) {
        cJSON *o = row_json(&r->rows[i]);
        built = o && cJSON_AddItemToArray(rows, o);
    }
    return built ? qsb_json_print(out, root, "the gate's JSON")
                 : qsb_json_abandon(root, "the gate's JSON");
}

/* Has (machine, metric) of runs[i] come before i? */
static bool seen_before(const qsb_history_run *runs, size_t i)
{
    for (size_t j = 0; j < i; j++)
        if (strcmp(runs[j].machine, runs[i].machine) == 0 &&
            strcmp(runs[j].metric, runs[i].metric) == 0)
            return true;
    return false;
}

int qsb_history_write_levels(FILE *out, qsb_history *h, const char *machine)
{
    qsb_history_run *runs;
    size_t n;
    int status = qsb_history_runs(h, machine, &runs, &n);
    if (status != QSB_OK)
        return status; /* freed by qsb_history_runs */
    for (size_t i = 0; status == QSB_OK && i < n; i++) {
        if (seen_before(runs, i))
            continue;
        qsb_run_levels levels;
        status = qsb_history_run_levels(h, runs[i].machine, runs[i].metric,
                                        QSB_HISTORY_LAST_RUNS, &levels);
        if (status == QSB_OK) {
            char who[256];
            snprintf(who, sizeof who, "%s (%s)", runs[i].machine, runs[i].metric);
            qsb_run_levels_write(out, &levels, who);
            qsb_run_levels_free(&levels);
        }
    }
    qsb_history_runs_free(runs, n);
    return status;
}

void qsb_run_levels_write(FILE *out, const qsb_run_levels *levels, const char *machine)
{
    double pct = qsb_run_levels_median_pct(levels);
    if (isfinite(pct) && pct >= 0.005)
        fprintf(out, "%s: run level +-%.2f%% (the median of its rows' 95%% spread between "
                     "runs, of the deltas and the baseline's medians)\n",
                machine, pct);
    else if (isfinite(pct))
        fprintf(out, "%s: run level none seen: its runs move no more than their own intervals "
                     "say (the median row's)\n", machine);
    else
        fprintf(out, "%s: run level unknown (%zu run%s; %d needed)\n", machine, levels->runs,
                levels->runs == 1 ? "" : "s", QSB_LEVEL_MIN_RUNS);
}
