/*
** A new run gated against its machine's history (see gate.h), and what the gate prints and
** writes.
*/
#include "gate.h"

#include <cjson/cJSON.h>
#include <math.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "diag.h"
#include "grow.h"
#include "json_write.h"
#include "student_t.h"
#include "summary.h"

/* ---- The gate ---- */

#define SIDE_RUNS 3.0 /* "3 runs a side would see ..." */

/* The verdict as the table and the JSON spell it. */
static const char *verdict_name(qsb_gate_verdict v)
{
    static const char *const names[] = {"same", "REGRESSION", "improved", "no history",
                                        "no interval", "FAILED"};
    return v < QSB_GATE_COUNT ? names[v] : "?";
}

/* A delta in % with its 95% interval, on the log scale with its variance; false where it has
** no interval. */
static bool delta_value(double pct, double lo, double hi, double *y, double *v)
{
    *y = log1p(pct / 100.0);
    *v = qsb_interval_variance(log1p(lo / 100.0), log1p(hi / 100.0));
    return isfinite(*y) && isfinite(*v);
}

/* NEW's value of the row on the log scale and its variance (from its 95% interval); false
** where it has none. */
static bool new_value(const qsb_row *r, bool by_median, double *y, double *v)
{
    if (!by_median)
        return delta_value(r->delta_pct, r->delta_lo, r->delta_hi, y, v);
    const qsb_summary *m = &r->summary;
    *y = m->median > 0 ? log(m->median) : NAN;
    *v = m->median_lo > 0 && m->median_hi > 0
             ? qsb_interval_variance(log(m->median_lo), log(m->median_hi))
             : NAN;
    return isfinite(*y) && isfinite(*v);
}

/* The row's prediction from the history's estimate re and its level tau2, its test and
** detectable change; the p-values are corrected later. */
static void judge_row(qsb_gate_row *g, const qsb_random_effects *re, double tau2, double y,
                      double v, const qsb_gate_options *opt)
{
    g->history_n = re->k;
    if (re->k == 0) {
        g->verdict = QSB_GATE_NO_HISTORY;
        return;
    }
    bool known = re->k >= QSB_LEVEL_MIN_RUNS;
    tau2 = known ? tau2 : 0.0;
    g->level_pct = known ? qsb_level_pct(tau2) : NAN;
    double sd = qsb_prediction_sd(re, tau2, v);
    double df = qsb_prediction_df(re, tau2, v);
    double change = y - re->mean, t = qsb_t_quantile(0.975, df);
    double bound = log1p(opt->threshold_pct / 100.0);
    g->change_pct = expm1(change) * 100.0;
    g->lo_pct = expm1(change - t * sd) * 100.0;
    g->hi_pct = expm1(change + t * sd) * 100.0;
    g->p = qsb_t_sf((change - bound) / sd, df);
    g->p_faster_adjusted = qsb_t_cdf((change + bound) / sd, df);
    g->df = df;
    g->detectable_pct = sd; /* the sds, until the number of tests is known */
    g->detectable3_pct = sqrt(tau2 / SIDE_RUNS + re->mean_var + v / SIDE_RUNS);
}

/* A state's log delta and its variance from its 95% interval; false where it has none. */
static bool state_value(const qsb_state_estimate *e, double *y, double *v)
{
    return delta_value(e->delta_pct, e->delta_lo, e->delta_hi, y, v);
}

/* The candidate row judged state by state: each of NEW's states with an interval against
** the states matched to it by speed in the history's runs, whose own level is learned from
** them alone (the mixture's moves with the states' shares); the row's p is the smallest
** state's times the states tested (Bonferroni within the row). A state matched in fewer than
** QSB_LEVEL_MIN_RUNS runs is not tested: its level would be unknown, and a state's delta moves
** between runs more than its own interval says (its processes' share of the host's speeds
** moves too), where the row's level is learned. 1, or 0 (the row untouched) where no state
** of NEW is tested; -1 out of memory. */
static int judge_states(qsb_gate_row *g, const qsb_row *r, const qsb_row_level *level,
                        const qsb_gate_options *opt)
{
    double *y = malloc(2 * level->nstates * sizeof *y), *v = y + level->nstates;
    if (!y)
        return -1;
    double speed[QSB_STATES_MAX], faster = INFINITY;
    for (size_t k = 0; k < r->nstates; k++)
        speed[k] = r->states[k].median;
    qsb_gate_row best = *g;
    size_t tested = 0;
    for (size_t k = 0; k < r->nstates; k++) {
        double yk, vk;
        if (!state_value(&r->states[k], &yk, &vk))
            continue;
        size_t n = 0;
        for (size_t j = 0; j < level->nstates; j++) {
            const qsb_run_states *run = &level->states[j];
            double run_speed[QSB_STATES_MAX];
            for (size_t m = 0; m < run->n; m++)
                run_speed[m] = run->s[m].median;
            qsb_state_pairs pairs;
            qsb_match_states(speed, r->nstates, run_speed, run->n, &pairs);
            for (size_t m = 0; m < pairs.n; m++)
                n += pairs.base[m] == k && state_value(&run->s[pairs.cand[m]], &y[n], &v[n]);
        }
        if (n < QSB_LEVEL_MIN_RUNS) /* too few to learn the state's level: the row decides */
            continue;
        qsb_random_effects re;
        qsb_random_effects_dl(y, v, n, &re);
        re.k = n;
        qsb_gate_row state = *g;
        judge_row(&state, &re, re.tau2, yk, vk, opt);
        state.state_speed = speed[k];
        if (tested++ == 0 || state.p < best.p)
            best = state;
        faster = fmin(faster, state.p_faster_adjusted);
    }
    free(y);
    if (tested == 0)
        return 0;
    *g = best;
    g->states_tested = tested;
    g->p = fmin(1.0, best.p * (double)tested);
    g->p_faster_adjusted = fmin(1.0, faster * (double)tested);
    return 1;
}

/* A median over the finite values of one field of the rows. */
static double median_over(const qsb_gate_report *r, size_t offset)
{
    double *v = malloc((r->n ? r->n : 1) * sizeof *v);
    for (size_t i = 0; v && i < r->n; i++)
        v[i] = *(const double *)((const char *)&r->rows[i] + offset);
    double m = v ? qsb_median_of_finite(v, r->n) : NAN;
    free(v);
    return m;
}

/* The corrections over the rows tested, then each row's verdict and detectable change at the
** level of the first of Holm's steps (alpha over the tests). */
static int decide(qsb_gate_report *out, const qsb_gate_options *opt)
{
    double *p = malloc((out->n ? out->n : 1) * 2 * sizeof *p);
    if (!p)
        return qsb_out_of_memory("the gate's p-values");
    double *faster = p + out->n;
    for (size_t i = 0; i < out->n; i++) {
        bool tested = out->rows[i].verdict == QSB_GATE_SAME;
        p[i] = tested ? out->rows[i].p : NAN;
        faster[i] = tested ? out->rows[i].p_faster_adjusted : NAN;
    }
    long tests = qsb_adjust_p(p, out->n, opt->correction, p);
    qsb_adjust_p(faster, out->n, opt->correction, faster);
    for (size_t i = 0; i < out->n; i++) {
        qsb_gate_row *g = &out->rows[i];
        if (g->verdict != QSB_GATE_SAME)
            continue;
        double alpha = opt->alpha / (double)(tests > 0 ? tests : 1) /
                       (double)(g->states_tested ? g->states_tested : 1);
        g->p_adjusted = p[i];
        g->p_faster_adjusted = faster[i];
        g->verdict = p[i] < opt->alpha        ? QSB_GATE_REGRESSION
                     : faster[i] < opt->alpha ? QSB_GATE_IMPROVED
                                              : QSB_GATE_SAME;
        g->detectable_pct = qsb_detectable_pct(opt->threshold_pct, g->detectable_pct, alpha,
                                               g->df);
        g->detectable3_pct = qsb_detectable_pct(opt->threshold_pct, g->detectable3_pct, alpha,
                                                g->df);
    }
    free(p);
    return QSB_OK;
}

static void init_row(qsb_gate_row *g, const qsb_cell *cell, size_t row)
{
    *g = (qsb_gate_row){cell, row, row == 0, 0, NAN, NAN, NAN, NAN, NAN, NAN, NAN, NAN, NAN,
                        NAN, 0, NAN, QSB_GATE_SAME};
}

/* The scale of the view's within-run variances (run_level.h); 1 where none was learned. */
static double variance_scale(const qsb_run_levels *levels, bool by_median)
{
    double scale = by_median ? levels->median_scale : levels->delta_scale;
    return scale > 0 && scale < 1 ? scale : 1.0;
}

int qsb_gate_judge(const qsb_results *new_run, const qsb_run_levels *levels,
                   const qsb_gate_options *opt, qsb_gate_report *out)
{
    memset(out, 0, sizeof *out);
    size_t cap = 0;
    int status = QSB_OK;
    for (qsb_row_cursor at = {0}; status == QSB_OK && qsb_results_next_row(new_run, &at);) {
        if (QSB_GROW(out->rows, cap, out->n + 1) != 0) {
            status = qsb_out_of_memory("the gate's rows");
            break;
        }
        qsb_gate_row *g = &out->rows[out->n++];
        init_row(g, at.cell, at.i);
        const qsb_row *r = at.row;
        const qsb_row_level *level = qsb_run_levels_find(levels, at.cell->pattern,
                                                         at.cell->nelem, at.cell->size,
                                                         r->algorithm);
        double y, v;
        int judged = 0;
        if (!r->verified)
            g->verdict = QSB_GATE_FAILED;
        else if (!new_value(r, g->by_median, &y, &v))
            g->verdict = QSB_GATE_NO_INTERVAL;
        else if (!level)
            g->verdict = QSB_GATE_NO_HISTORY;
        else if (g->by_median || r->nstates < 2 || !level->nstates ||
                 (judged = judge_states(g, r, level, opt)) == 0)
            judge_row(g, g->by_median ? &level->median : &level->delta,
                      g->by_median ? level->median_tau2 : level->delta_tau2,
                      y, v * variance_scale(levels, g->by_median), opt);
        if (judged < 0)
            status = qsb_out_of_memory("the gate's states");
    }
    if (status == QSB_OK)
        status = decide(out, opt);
    if (status != QSB_OK) {
        qsb_gate_report_free(out);
        return status;
    }
    for (size_t i = 0; i < out->n; i++) {
        out->count[out->rows[i].verdict]++;
        out->unknown_level += out->rows[i].history_n > 0 && isnan(out->rows[i].level_pct);
    }
    out->detectable_median_pct = median_over(out, offsetof(qsb_gate_row, detectable_pct));
    out->detectable3_median_pct = median_over(out, offsetof(qsb_gate_row, detectable3_pct));
    out->level_median_pct = median_over(out, offsetof(qsb_gate_row, level_pct));
    out->delta_scale = variance_scale(levels, false);
    out->median_scale = variance_scale(levels, true);
    return QSB_OK;
}

void qsb_gate_report_free(qsb_gate_report *report)
{
    free(report->rows);
    memset(report, 0, sizeof *report);
}

/* ---- What the gate prints and writes: the table, its closing lines (the detectable change,
** the rows without a level), the JSON; and each machine's run level for history list. ---- */

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
            level, change, detectable, verdict_name(g->verdict), state);
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
             cJSON_AddStringToObject(o, "verdict", verdict_name(g->verdict));
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
