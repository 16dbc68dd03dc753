/*
** `qsortbench compare BASE NEW`: reads two results files (CSV or JSON, any combination),
** compares them (compare.h) and reports: a table on stdout, optionally Markdown (--markdown
** FILE, and appended to $GITHUB_STEP_SUMMARY when that is set) and JSON verdicts (--json
** FILE). Exit status: 1 on a regression or a FAILED row, and under --strict also when a row
** is in one file only (the files are fine; the new run lacks results: a finding, not a usage
** error); 2 for bad options, unreadable or malformed files and different metrics; else 0.
** When the runs' contexts differ (compare.h), one warning line names the fields first.
**
** --calibration RUN1 RUN2 is a report instead: how often two runs' paired deltas agree within
** their combined intervals (compare.h). Exit 0, or under --strict 1 when fewer than 90% of
** the rows with intervals agree (95% is what honest intervals give).
*/
#include <cjson/cJSON.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "commands.h"
#include "compare.h"
#include "diag.h"
#include "fleet_view.h"
#include "json_write.h"
#include "outfile.h"
#include "read_results.h"
#include "significance.h"

enum {
    OPT_THRESHOLD,
    OPT_ALPHA,
    OPT_CORRECTION,
    OPT_NORMALIZE,
    OPT_STRICT,
    OPT_MARKDOWN,
    OPT_JSON,
    OPT_CALIBRATION
};

#define CALIBRATION_STRICT_SHARE 0.90 /* --calibration --strict: the share that must agree */

static const qsb_option compare_options[] = {
    [OPT_THRESHOLD] = {"threshold", 0, "PCT",
                       "a regression is a change of the median above PCT % (default 5)"},
    [OPT_ALPHA] = QSB_OPTION_ALPHA("...that is significant: its one-sided p over units "
                                   "(Mann-Whitney's for files without units), corrected over "
                                   "all rows tested, below A (default 0.01)"),
    [OPT_CORRECTION] = QSB_OPTION_CORRECTION("holm (default: the chance of any false regression "
                                             "in the matrix is at most alpha), bh "
                                             "(Benjamini-Hochberg: the expected share of false "
                                             "regressions is at most alpha) or none"),
    [OPT_NORMALIZE] = {"normalize", 0, NULL,
                       "judge candidates by their per-round ratio to the run's baseline, "
                       "which cancels the machine's drift between the two runs"},
    [OPT_STRICT] = {"strict", 0, NULL, "rows found in one file only are a finding (exit 1); "
                                       "with --calibration: under 90% agreeing"},
    [OPT_MARKDOWN] = {"markdown", 0, "FILE", "also write the table as Markdown"},
    [OPT_JSON] = {"json", 0, "FILE", "also write the verdicts as JSON"},
    [OPT_CALIBRATION] = {"calibration", 0, NULL,
                         "a report instead: do two runs of the same thing give paired deltas "
                         "that agree within their intervals? (the share that do, the median "
                         "and worst difference)"},
    {NULL, 0, NULL, NULL},
};

static const qsb_command_spec compare_spec = {
    "compare", "BASE NEW [OPTIONS]",
    "Regression check between two results files (CSV or JSON). When $GITHUB_STEP_SUMMARY is\n"
    "set, the Markdown table is appended to that file. With --calibration, a report on two\n"
    "runs of the same thing. compare --machines A,B FILE: two machines' deltas cell by cell\n"
    "(compare --machines A,B --help).",
    compare_options,
    "1 when a row is slower in NEW beyond the threshold with p < alpha after\n"
    "the correction over all rows tested (comparisons metric: any increase beyond the\n"
    "threshold) or failed verification (--strict: also a row in one file only; --calibration\n"
    "--strict: under 90% agreeing); 2 usage error or bad input (an unreadable or malformed\n"
    "file, different metrics, an output that is BASE or NEW); 3 system error; else 0."};

typedef struct {
    qsb_compare_options opt;
    bool strict;
    bool calibration;
    const char *markdown_path;
    const char *json_path;
} compare_config;

static int on_option(void *ctx, int index, const char *arg)
{
    compare_config *cfg = ctx;
    switch (index) {
    case OPT_THRESHOLD:
        return qsb_parse_double(arg, "--threshold", 0.0, 1e6, &cfg->opt.threshold_pct);
    case OPT_ALPHA: return qsb_parse_alpha(arg, &cfg->opt.alpha);
    case OPT_CORRECTION: return qsb_parse_correction(arg, &cfg->opt.correction);
    case OPT_NORMALIZE: cfg->opt.normalize = true; return QSB_OK;
    case OPT_CALIBRATION: cfg->calibration = true; return QSB_OK;
    case OPT_STRICT: cfg->strict = true; return QSB_OK;
    case OPT_MARKDOWN: cfg->markdown_path = arg; return QSB_OK;
    case OPT_JSON: cfg->json_path = arg; return QSB_OK;
    }
    return QSB_OK;
}

/* ---- formatting one comparison ---- */

#define NAME_MAX_SHOWN 32 /* longer names (a hostile file) are cut in the table */

/* A name from a file or a path from the command line as the table shows it: escaped (diag.h)
** and cut to size - 1 characters, so that no file can move the cursor or recolour the
** terminal. */
static const char *shown(char *buf, size_t size, const char *text)
{
    return qsb_escape(buf, size, text, "\\");
}

/* A median: a count (exact), a ratio to the baseline (normalized), or a time. */
static void format_value(char *buf, size_t len, double v, const qsb_compare_report *r)
{
    if (isnan(v))
        snprintf(buf, len, "-");
    else
        snprintf(buf, len, r->exact ? "%.0f" : r->normalized ? "%.4f" : "%.1f", v);
}

static void format_pct(char *buf, size_t len, double v)
{
    if (isnan(v))
        snprintf(buf, len, "-");
    else if (isinf(v))
        snprintf(buf, len, "%s", v > 0 ? "+inf" : "-inf");
    else
        snprintf(buf, len, fabs(v) < 1e6 ? "%+.2f%%" : "%+.3g%%", v);
}

static void format_interval(char *buf, size_t len, const qsb_comparison *it, bool exact)
{
    char lo[32], hi[32];
    if (exact || isnan(it->change_lo)) {
        snprintf(buf, len, exact && !isnan(it->change_pct) ? "exact" : "-");
        return;
    }
    format_pct(lo, sizeof lo, it->change_lo);
    format_pct(hi, sizeof hi, it->change_hi);
    snprintf(buf, len, "[%s, %s]", lo, hi);
}

static void format_p(char *buf, size_t len, double p)
{
    if (isnan(p))
        snprintf(buf, len, "-");
    else
        snprintf(buf, len, "%.2g", p);
}

typedef struct {
    char base[32], cand[32], change[32], interval[80], p[16], p_adj[16];
} formatted;

static void format_item(const qsb_comparison *it, const qsb_compare_report *r, formatted *f)
{
    format_value(f->base, sizeof f->base, it->base_value, r);
    format_value(f->cand, sizeof f->cand, it->new_value, r);
    format_pct(f->change, sizeof f->change, it->change_pct);
    format_interval(f->interval, sizeof f->interval, it, r->exact);
    format_p(f->p, sizeof f->p, it->p);
    format_p(f->p_adj, sizeof f->p_adj, it->p_adjusted);
}

static int name_width(const qsb_compare_report *r, int algorithm, int minimum)
{
    size_t w = (size_t)minimum;
    for (size_t i = 0; i < r->n; i++) {
        char buf[NAME_MAX_SHOWN + 1];
        const char *pattern, *name;
        qsb_compare_names(r, i, &pattern, &name);
        size_t len = strlen(shown(buf, sizeof buf, algorithm ? name : pattern));
        w = len > w ? len : w;
    }
    return (int)w;
}

static void summary_sentence(char *buf, size_t len, const qsb_compare_report *r)
{
    const size_t *n = r->count;
    snprintf(buf, len,
             "%zu regression%s, %zu failed, %zu improved, %zu same, %zu with too few samples; "
             "%zu only in BASE, %zu only in NEW",
             n[QSB_VERDICT_REGRESSION], n[QSB_VERDICT_REGRESSION] == 1 ? "" : "s",
             n[QSB_VERDICT_FAILED] + n[QSB_VERDICT_BASE_FAILED], n[QSB_VERDICT_IMPROVED],
             n[QSB_VERDICT_SAME], n[QSB_VERDICT_FEW_SAMPLES], n[QSB_VERDICT_ONLY_BASE],
             n[QSB_VERDICT_ONLY_NEW]);
}

static const char *test_name(const qsb_compare_report *r)
{
    if (r->tests_units && r->tests_mann_whitney)
        return "Welch's t over units, Mann-Whitney over samples for the rows without units";
    if (r->tests_mann_whitney)
        return "Mann-Whitney over samples (no units in the files)";
    return "Welch's t over units";
}

static const char *correction_text(qsb_correction c)
{
    return c == QSB_CORRECTION_HOLM ? "Holm (family-wise)"
           : c == QSB_CORRECTION_BH ? "Benjamini-Hochberg (false discovery rate)"
                                    : "no correction";
}

static void criterion(char *buf, size_t len, const qsb_compare_report *r)
{
    const qsb_compare_options *opt = &r->opt;
    if (r->exact)
        snprintf(buf, len, "exact counts; regression: more than %g%% more", opt->threshold_pct);
    else
        snprintf(buf, len, "%sregression: slower by more than %g%%, one-sided p adjusted by %s "
                 "over %zu tests < %g; test: %s",
                 r->normalized ? "per-round ratios to the baseline; " : "", opt->threshold_pct,
                 correction_text(opt->correction), r->tests, opt->alpha, test_name(r));
}

/* What a row judged by state adds to its verdict: " (state at 2010345 of 2 matched; state
** only in NEW)"; empty for a row judged as a mixture. */
static void state_note(char *buf, size_t len, const qsb_comparison *it)
{
    size_t used = 0;
    buf[0] = '\0';
    if (it->states_matched > 0 && !isnan(it->state_speed))
        used += (size_t)snprintf(buf, len, " (state at %.0f of %u matched", it->state_speed,
                                 (unsigned)it->states_matched);
    else if (it->states_only_base || it->states_only_new)
        used += (size_t)snprintf(buf, len, " (no state matched, not judged");
    if (used == 0 || used >= len)
        return;
    if (it->states_only_base)
        used += (size_t)snprintf(buf + used, len - used, "; state only in BASE");
    if (it->states_only_new && used < len)
        used += (size_t)snprintf(buf + used, len - used, "; state only in NEW");
    if (used < len)
        snprintf(buf + used, len - used, ")");
}

/* ---- the table on stdout ---- */

static int print_table(FILE *fp, const qsb_compare_report *r, const char *base_path,
                       const char *new_path)
{
    char text[480], base[QSB_QUOTE_PATH_MAX + 1], cand[QSB_QUOTE_PATH_MAX + 1];
    criterion(text, sizeof text, r);
    fprintf(fp, "compare %s -> %s (metric %s; %s)\n", shown(base, sizeof base, base_path),
            shown(cand, sizeof cand, new_path), r->metric, text);
    int pw = name_width(r, 0, 7), aw = name_width(r, 1, 9);
    fprintf(fp, "%-*s %9s %5s  %-*s %16s %16s %9s %20s %8s %8s  %s\n", pw, "pattern", "nelem",
            "size", aw, "algorithm", "base median", "new median", "change", "95% interval",
            "p", "p adj", "verdict");
    for (size_t i = 0; i < r->n; i++) {
        qsb_comparison item, *it = &item;
        if (qsb_compare_item(r, i, it) != QSB_OK)
            return QSB_ESYSTEM;
        formatted f;
        format_item(it, r, &f);
        char pattern[NAME_MAX_SHOWN + 1], algorithm[NAME_MAX_SHOWN + 1], note[160];
        state_note(note, sizeof note, it);
        fprintf(fp, "%-*s %9llu %5llu  %-*s %16s %16s %9s %20s %8s %8s  %s%s%s\n", pw,
                shown(pattern, sizeof pattern, it->pattern), (unsigned long long)it->nelem,
                (unsigned long long)it->size, aw, shown(algorithm, sizeof algorithm, it->algorithm),
                f.base, f.cand, f.change, f.interval, f.p, f.p_adj, qsb_verdict_name(it->verdict),
                it->threshold_only ? " (no samples)" : "", note);
    }
    summary_sentence(text, sizeof text, r);
    fprintf(fp, "%s\n", text);
    return QSB_OK;
}

/* ---- Markdown ---- */

/* Names come from files, paths from the command line: escaped (diag.h), cut to max
** characters, and what Markdown or HTML would interpret backslashed, so that no text can
** break out of its table cell ('|') or become markup. */
static void md_text(FILE *fp, const char *s, size_t max)
{
    char buf[QSB_QUOTE_PATH_MAX + 1];
    fputs(qsb_escape(buf, (max < QSB_QUOTE_PATH_MAX ? max : QSB_QUOTE_PATH_MAX) + 1, s,
                     "\\`*_|<>[]#&"),
          fp);
}

static int write_markdown(FILE *fp, const qsb_compare_report *r, const char *base_path,
                          const char *new_path, int status)
{
    char text[480];
    fprintf(fp, "### qsortbench compare: ");
    md_text(fp, base_path, QSB_QUOTE_PATH_MAX);
    fprintf(fp, " → ");
    md_text(fp, new_path, QSB_QUOTE_PATH_MAX);
    criterion(text, sizeof text, r);
    fprintf(fp, "\n\n%s: metric %s; %s.\n\n", status == QSB_OK ? "**Passed**" : "**Failed**",
            r->metric, text);
    if (r->ndiffers) {
        fprintf(fp, "Warning: the runs differ in");
        for (size_t i = 0; i < r->ndiffers; i++)
            fprintf(fp, "%s `%s`", i ? "," : "", r->differs[i]);
        fprintf(fp, ".\n\n");
    }
    fprintf(fp, "| pattern | nelem | size | algorithm | base median | new median | change | "
                "95%% interval | p | p adj. | verdict |\n"
                "|---|--:|--:|---|--:|--:|--:|---|--:|--:|---|\n");
    for (size_t i = 0; i < r->n; i++) {
        qsb_comparison item, *it = &item;
        if (qsb_compare_item(r, i, it) != QSB_OK)
            return QSB_ESYSTEM;
        formatted f;
        format_item(it, r, &f);
        fprintf(fp, "| ");
        md_text(fp, it->pattern, QSB_QUOTE_MAX);
        fprintf(fp, " | %llu | %llu | ", (unsigned long long)it->nelem,
                (unsigned long long)it->size);
        md_text(fp, it->algorithm, QSB_QUOTE_MAX);
        const char *strong = it->verdict == QSB_VERDICT_REGRESSION ||
                                     it->verdict == QSB_VERDICT_FAILED ? "**" : "";
        char note[160];
        state_note(note, sizeof note, it);
        fprintf(fp, " | %s | %s | %s | %s | %s | %s | %s%s%s%s%s |\n", f.base, f.cand, f.change,
                f.interval, f.p, f.p_adj, strong, qsb_verdict_name(it->verdict), strong,
                it->threshold_only ? " (no samples)" : "", note);
    }
    summary_sentence(text, sizeof text, r);
    fprintf(fp, "\n%s.\n\n", text);
    return QSB_OK;
}

/* ---- JSON verdicts ---- */

static const char *const verdict_keys[QSB_VERDICT_COUNT] = {
    "same", "regression", "improved", "too_few_samples", "failed", "base_failed",
    "only_in_base", "only_in_new", "reference",
};

static const char *const test_keys[] = {"none", "welch-units", "mann-whitney"};

static int add_number(cJSON *obj, const char *key, double v)
{
    cJSON *item = isfinite(v) ? cJSON_CreateNumber(v) : cJSON_CreateNull();
    return item && cJSON_AddItemToObject(obj, key, item) ? 0 : (cJSON_Delete(item), -1);
}

static cJSON *item_json(const qsb_comparison *it)
{
    cJSON *o = cJSON_CreateObject();
    int bad = !o || !cJSON_AddStringToObject(o, "pattern", it->pattern) ||
              add_number(o, "nelem", (double)it->nelem) || add_number(o, "size", (double)it->size) ||
              !cJSON_AddStringToObject(o, "algorithm", it->algorithm) ||
              add_number(o, "base_median", it->base_value) ||
              add_number(o, "new_median", it->new_value) ||
              add_number(o, "change_pct", it->change_pct) ||
              add_number(o, "change_lo", it->change_lo) ||
              add_number(o, "change_hi", it->change_hi) || add_number(o, "p", it->p) ||
              add_number(o, "p_adjusted", it->p_adjusted) ||
              add_number(o, "p_faster", it->p_faster) ||
              add_number(o, "p_faster_adjusted", it->p_faster_adjusted) ||
              !cJSON_AddStringToObject(o, "test", test_keys[it->test]) ||
              add_number(o, "base_units", (double)it->base_units) ||
              add_number(o, "new_units", (double)it->new_units) ||
              add_number(o, "base_samples", (double)it->base_n) ||
              add_number(o, "new_samples", (double)it->new_n) ||
              !cJSON_AddBoolToObject(o, "threshold_only", it->threshold_only) ||
              add_number(o, "states_matched", (double)it->states_matched) ||
              add_number(o, "states_only_in_base", (double)it->states_only_base) ||
              add_number(o, "states_only_in_new", (double)it->states_only_new) ||
              add_number(o, "state_speed", it->state_speed) ||
              !cJSON_AddStringToObject(o, "verdict", verdict_keys[it->verdict]);
    if (bad) {
        cJSON_Delete(o);
        return NULL;
    }
    return o;
}

static const char *interval_key(const qsb_compare_report *r)
{
    if (r->tests_units && r->tests_mann_whitney)
        return "mixed";
    return r->tests_mann_whitney ? "hodges-lehmann-95" : "welch-units-95";
}

static cJSON *report_json(const qsb_compare_report *r, const char *base_path,
                          const char *new_path, bool strict, int status)
{
    const qsb_compare_options *opt = &r->opt;
    cJSON *root = cJSON_CreateObject();
    int bad = !root || add_number(root, "schema_version", 1) ||
              !cJSON_AddStringToObject(root, "base", base_path) ||
              !cJSON_AddStringToObject(root, "new", new_path) ||
              !cJSON_AddStringToObject(root, "metric", r->metric) ||
              add_number(root, "threshold_pct", opt->threshold_pct) ||
              add_number(root, "alpha", opt->alpha) ||
              !cJSON_AddBoolToObject(root, "strict", strict) ||
              !cJSON_AddBoolToObject(root, "normalized", r->normalized) ||
              !cJSON_AddStringToObject(root, "interval",
                                       r->exact ? "exact" : interval_key(r)) ||
              !cJSON_AddStringToObject(root, "correction", qsb_correction_name(opt->correction)) ||
              add_number(root, "tests", (double)r->tests) ||
              add_number(root, "tests_units", (double)r->tests_units) ||
              add_number(root, "tests_mann_whitney", (double)r->tests_mann_whitney) ||
              add_number(root, "fdr", opt->correction == QSB_CORRECTION_BH ? opt->alpha : NAN) ||
              add_number(root, "fwer", opt->correction == QSB_CORRECTION_HOLM ? opt->alpha : NAN) ||
              !cJSON_AddStringToObject(root, "verdict", status == QSB_OK ? "pass" : "fail");
    cJSON *differs = bad ? NULL : cJSON_AddArrayToObject(root, "context_differences");
    bad = !differs;
    for (size_t i = 0; i < r->ndiffers && !bad; i++) {
        cJSON *name = cJSON_CreateString(r->differs[i]);
        bad = !name || !cJSON_AddItemToArray(differs, name);
    }
    cJSON *counts = bad ? NULL : cJSON_AddObjectToObject(root, "counts");
    cJSON *cells = counts ? cJSON_AddArrayToObject(root, "cells") : NULL;
    bad = !cells;
    for (size_t v = 0; v < QSB_VERDICT_COUNT && !bad; v++)
        bad = add_number(counts, verdict_keys[v], (double)r->count[v]);
    for (size_t i = 0; i < r->n && !bad; i++) {
        qsb_comparison it;
        cJSON *item = qsb_compare_item(r, i, &it) == QSB_OK ? item_json(&it) : NULL;
        bad = !item || !cJSON_AddItemToArray(cells, item);
    }
    if (!bad)
        return root;
    cJSON_Delete(root);
    return NULL;
}

static int write_json(FILE *fp, const qsb_compare_report *r, const char *base_path,
                      const char *new_path, bool strict, int status)
{
    cJSON *root = report_json(r, base_path, new_path, strict, status);
    return qsb_json_write(fp, root, true, "compare JSON");
}

/* ---- --calibration ---- */

static double agree_share(const qsb_calibration *c)
{
    return c->with_interval ? (double)c->agree / (double)c->with_interval : NAN;
}

static void print_calibration(FILE *fp, const qsb_calibration *c, const char *path1,
                              const char *path2, const char *metric)
{
    char p1[QSB_QUOTE_PATH_MAX + 1], p2[QSB_QUOTE_PATH_MAX + 1];
    fprintf(fp, "calibration %s vs %s (metric %s; paired deltas of the candidate rows; agree: "
            "|d1 - d2| <= sqrt(h1^2 + h2^2), h the half-widths of the 95%% intervals, on the "
            "log scale)\n", shown(p1, sizeof p1, path1), shown(p2, sizeof p2, path2), metric);
    fprintf(fp, "%-12s %9s %5s  %-16s %9s %20s %9s %20s %9s  %s\n", "pattern", "nelem", "size",
            "algorithm", "delta 1", "95% interval 1", "delta 2", "95% interval 2", "diff",
            "agree");
    for (size_t i = 0; i < c->n; i++) {
        const qsb_calibration_row *cr = &c->rows[i];
        char pattern[NAME_MAX_SHOWN + 1], algorithm[NAME_MAX_SHOWN + 1];
        char d1[32], d2[32], i1[80], i2[80], lo[32], hi[32];
        format_pct(d1, sizeof d1, cr->d1);
        format_pct(d2, sizeof d2, cr->d2);
        format_pct(lo, sizeof lo, cr->lo1);
        format_pct(hi, sizeof hi, cr->hi1);
        snprintf(i1, sizeof i1, isnan(cr->lo1) ? "-" : "[%s, %s]", lo, hi);
        format_pct(lo, sizeof lo, cr->lo2);
        format_pct(hi, sizeof hi, cr->hi2);
        snprintf(i2, sizeof i2, isnan(cr->lo2) ? "-" : "[%s, %s]", lo, hi);
        fprintf(fp, "%-12s %9llu %5llu  %-16s %9s %20s %9s %20s %9.2f  %s\n",
                shown(pattern, sizeof pattern, cr->pattern), (unsigned long long)cr->nelem,
                (unsigned long long)cr->size, shown(algorithm, sizeof algorithm, cr->algorithm),
                d1, i1, d2, i2, cr->diff_pts,
                isnan(cr->excess) ? "-" : cr->excess <= 1.0 ? "yes" : "NO");
    }
    if (c->n == 0) {
        fprintf(fp, "no candidate row has a delta in both runs\n");
        return;
    }
    const qsb_calibration_row *w = &c->rows[c->worst];
    char pattern[NAME_MAX_SHOWN + 1], algorithm[NAME_MAX_SHOWN + 1];
    fprintf(fp, "%zu of %zu rows with intervals agree (%.1f%%; honest 95%% intervals agree in "
            "about 95%%); difference of the deltas: median %.2f points, worst %.2f points "
            "(%s/%llu/%llu %s); %zu row%s without an interval in a run\n",
            c->agree, c->with_interval, agree_share(c) * 100.0, c->median_diff_pts,
            c->worst_diff_pts, shown(pattern, sizeof pattern, w->pattern),
            (unsigned long long)w->nelem, (unsigned long long)w->size,
            shown(algorithm, sizeof algorithm, w->algorithm), c->n - c->with_interval,
            c->n - c->with_interval == 1 ? "" : "s");
    if (c->state_pairs || c->state_only)
        fprintf(fp, "by state: %zu of %zu matched (row, state) pairs with intervals agree "
                "(%.1f%%); %zu state%s in one run only\n",
                c->state_agree, c->state_with_interval,
                c->state_with_interval ? 100.0 * (double)c->state_agree /
                                             (double)c->state_with_interval
                                       : 0.0,
                c->state_only, c->state_only == 1 ? "" : "s");
}

static cJSON *calibration_json(const qsb_calibration *c, const char *path1, const char *path2,
                               const char *metric, bool strict, int status)
{
    cJSON *root = cJSON_CreateObject();
    int bad = !root || add_number(root, "schema_version", 1) ||
              !cJSON_AddStringToObject(root, "kind", "calibration") ||
              !cJSON_AddStringToObject(root, "run1", path1) ||
              !cJSON_AddStringToObject(root, "run2", path2) ||
              !cJSON_AddStringToObject(root, "metric", metric) ||
              !cJSON_AddStringToObject(root, "criterion",
                                       "|log(1+d1) - log(1+d2)| <= sqrt(h1^2 + h2^2)") ||
              add_number(root, "rows", (double)c->n) ||
              add_number(root, "with_interval", (double)c->with_interval) ||
              add_number(root, "agree", (double)c->agree) ||
              add_number(root, "share", agree_share(c)) ||
              add_number(root, "median_diff_pts", c->median_diff_pts) ||
              add_number(root, "worst_diff_pts", c->worst_diff_pts) ||
              add_number(root, "state_pairs", (double)c->state_pairs) ||
              add_number(root, "state_with_interval", (double)c->state_with_interval) ||
              add_number(root, "state_agree", (double)c->state_agree) ||
              add_number(root, "state_only", (double)c->state_only) ||
              !cJSON_AddBoolToObject(root, "strict", strict) ||
              add_number(root, "strict_share", CALIBRATION_STRICT_SHARE) ||
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
              add_number(o, "nelem", (double)cr->nelem) || add_number(o, "size", (double)cr->size) ||
              !cJSON_AddStringToObject(o, "algorithm", cr->algorithm) ||
              add_number(o, "delta1", cr->d1) || add_number(o, "lo1", cr->lo1) ||
              add_number(o, "hi1", cr->hi1) || add_number(o, "delta2", cr->d2) ||
              add_number(o, "lo2", cr->lo2) || add_number(o, "hi2", cr->hi2) ||
              add_number(o, "diff_pts", cr->diff_pts) || add_number(o, "excess", cr->excess) ||
              !(isnan(cr->excess) ? cJSON_AddNullToObject(o, "agree")
                                  : cJSON_AddBoolToObject(o, "agree", cr->excess <= 1.0));
    }
    if (!bad)
        return root;
    cJSON_Delete(root);
    return NULL;
}

static int calibration_command(const compare_config *cfg, const char *path1, const char *path2)
{
    if (cfg->markdown_path || cfg->opt.normalize)
        return qsb_usage_error("--calibration reports on the runs' own paired deltas: "
                               "--markdown and --normalize do not apply");
    qsb_results a = {0}, b = {0};
    qsb_calibration cal = {0};
    qsb_outputs json;
    const qsb_output_spec spec = {"--json", cfg->json_path};
    const qsb_file_group read[2] = {{"RUN1", QSB_FILES_READ, &path1, 1},
                                    {"RUN2", QSB_FILES_READ, &path2, 1}};
    int status = qsb_outputs_open(&json, &spec, 1, read, 2);
    if (status == QSB_OK)
        status = qsb_read_results(path1, &a);
    if (status == QSB_OK)
        status = qsb_read_results(path2, &b);
    if (status == QSB_OK)
        status = qsb_calibrate(&a, &b, &cal);
    if (status != QSB_OK)
        goto done;
    double share = agree_share(&cal);
    int verdict = cfg->strict && !(share >= CALIBRATION_STRICT_SHARE) ? QSB_FINDING : QSB_OK;
    print_calibration(stdout, &cal, path1, path2, a.context.metric);
    if (json.file[0].fp)
        status = qsb_json_write(json.file[0].fp,
                                calibration_json(&cal, path1, path2, a.context.metric,
                                                 cfg->strict, verdict),
                                true, "calibration JSON");
    status = qsb_outputs_close(&json, status);
    if (status == QSB_OK && verdict != QSB_OK)
        status = qsb_error(QSB_FINDING, "--calibration --strict: %zu of %zu rows agree, under "
                           "%.0f%%: the intervals are too narrow on this machine (or the runs "
                           "differ)", cal.agree, cal.with_interval,
                           CALIBRATION_STRICT_SHARE * 100.0);
done:
    qsb_outputs_abort(&json); /* what an error left open */
    qsb_calibration_free(&cal);
    qsb_results_free(&a);
    qsb_results_free(&b);
    return status;
}

/* ---- the command ---- */

/* The value of a compared context field, escaped and cut to fit a warning. */
static const char *context_value(char *buf, size_t size, const qsb_context *c, const char *name)
{
    const char *v = strcmp(name, "host") == 0           ? c->host
                    : strcmp(name, "cpu_model") == 0    ? c->cpu_model
                    : strcmp(name, "build_flags") == 0  ? c->build_flags
                    : strcmp(name, "build_type") == 0   ? c->build_type
                    : strcmp(name, "mode") == 0         ? c->mode
                    : strcmp(name, "metric") == 0       ? c->metric
                    : strcmp(name, "placement") == 0    ? c->placement
                    : strcmp(name, "tool_version") == 0 ? c->tool_version
                                                        : NULL;
    if (strcmp(name, "seed") == 0) {
        snprintf(buf, size, "0x%llx", (unsigned long long)c->seed);
        return buf;
    }
    return qsb_escape(buf, size, v, "\\'\"");
}

/* One line, before anything else: which context fields differ, and how. */
static void warn_differences(const qsb_compare_report *r, const qsb_results *base,
                             const qsb_results *cand)
{
    if (r->ndiffers == 0)
        return;
    char names[160] = "", details[1024] = "";
    size_t nl = 0, dl = 0;
    for (size_t i = 0; i < r->ndiffers; i++) {
        char a[40], b[40];
        const char *name = r->differs[i];
        nl += (size_t)snprintf(names + nl, sizeof names - nl, "%s%s", i ? ", " : "", name);
        if (dl < sizeof details)
            dl += (size_t)snprintf(details + dl, sizeof details - dl, "%s%s '%s' vs '%s'",
                                   i ? "; " : "", name,
                                   context_value(a, sizeof a, &base->context, name),
                                   context_value(b, sizeof b, &cand->context, name));
        nl = nl < sizeof names ? nl : sizeof names - 1;
    }
    qsb_warning("the runs differ in %s: %s; the comparison may not be fair", names, details);
}

/* Only JSON from a run records its build; a CSV says nothing either way. */
static void warn_build(const char *which, const qsb_context *c)
{
    bool timed = c->metric && strcmp(c->metric, "comparisons") != 0;
    if (timed && c->repetitions && (c->sanitized || !c->release_build))
        qsb_warning("%s was measured by a %s build: its timings do not represent the "
                    "algorithms", which, c->sanitized ? "sanitized" : "non-release");
}

static void warn_context(const qsb_results *base, const qsb_results *cand)
{
    warn_build("BASE", &base->context);
    warn_build("NEW", &cand->context);
    if (base->context.incomplete || cand->context.incomplete)
        qsb_warning("%s was interrupted: its missing rows are listed as in one file only",
                    base->context.incomplete ? "BASE" : "NEW");
}

static void warn_report(const qsb_compare_report *r)
{
    const qsb_compare_options *opt = &r->opt;
    size_t few = r->count[QSB_VERDICT_FEW_SAMPLES], bare = r->no_samples;
    if (few)
        qsb_warning("%zu row%s slower beyond %g%% with too few samples for p < %g: run with "
                    "more repetitions (--reps 10 or more)", few, few == 1 ? " is" : "s are",
                    opt->threshold_pct, opt->alpha);
    if (r->tests_mann_whitney)
        qsb_warning("%zu row%s no units (files from before units were recorded): tested by "
                    "Mann-Whitney over the samples, which takes correlated samples as "
                    "independent; rerun both with this version for tests over units",
                    r->tests_mann_whitney, r->tests_mann_whitney == 1 ? " has" : "s have");
    if (bare)
        qsb_warning("%zu row%s no samples: judged on the threshold alone (use JSON results, "
                    "or CSV with the samples column)", bare, bare == 1 ? " has" : "s have");
}

/* $GITHUB_STEP_SUMMARY: the file the Markdown table is appended to, or NULL. */
static const char *step_summary_path(void)
{
    const char *path = getenv("GITHUB_STEP_SUMMARY");
    return path && *path ? path : NULL;
}

static int append_step_summary(const qsb_compare_report *r, const char *base_path,
                               const char *new_path, int status)
{
    const char *path = step_summary_path();
    if (!path)
        return QSB_OK;
    FILE *fp = fopen(path, "a");
    if (!fp)
        return qsb_error(QSB_ESYSTEM, "cannot append to $GITHUB_STEP_SUMMARY '%s'",
                         qsb_quote_path(path));
    int written = write_markdown(fp, r, base_path, new_path, status);
    if (fclose(fp) != 0 && written == QSB_OK)
        return qsb_error(QSB_ESYSTEM, "cannot write $GITHUB_STEP_SUMMARY '%s'",
                         qsb_quote_path(path));
    return written;
}

static int report_finding(const qsb_compare_report *r, bool strict)
{
    const size_t *n = r->count;
    if (n[QSB_VERDICT_REGRESSION] || n[QSB_VERDICT_FAILED])
        return qsb_error(QSB_FINDING, "%zu regression%s and %zu failed sort%s in NEW (see the "
                         "table)", n[QSB_VERDICT_REGRESSION],
                         n[QSB_VERDICT_REGRESSION] == 1 ? "" : "s", n[QSB_VERDICT_FAILED],
                         n[QSB_VERDICT_FAILED] == 1 ? "" : "s");
    if (strict && (n[QSB_VERDICT_ONLY_BASE] || n[QSB_VERDICT_ONLY_NEW]))
        return qsb_error(QSB_FINDING, "--strict: %zu rows only in BASE, %zu only in NEW",
                         n[QSB_VERDICT_ONLY_BASE], n[QSB_VERDICT_ONLY_NEW]);
    return QSB_OK;
}

enum { OUT_MARKDOWN, OUT_JSON, OUT_COUNT };

/* Writes every requested output and commits them all, or none; then the CI step summary.
** Returns the first failure, else QSB_OK. */
static int write_outputs(const compare_config *cfg, qsb_outputs *out, const qsb_compare_report *r,
                         const char *base_path, const char *new_path, int verdict)
{
    FILE *markdown = out->file[OUT_MARKDOWN].fp, *json = out->file[OUT_JSON].fp;
    int status = markdown ? write_markdown(markdown, r, base_path, new_path, verdict) : QSB_OK;
    if (json && status == QSB_OK)
        status = write_json(json, r, base_path, new_path, cfg->strict, verdict);
    status = qsb_outputs_close(out, status);
    int s = append_step_summary(r, base_path, new_path, verdict);
    return status != QSB_OK ? status : s;
}

int qsb_cmd_compare(int argc, char **argv)
{
    for (int i = 1; i < argc; i++) /* two machines of a fleet: fleet_view.h */
        if (strncmp(argv[i], "--machines", 10) == 0 && (!argv[i][10] || argv[i][10] == '='))
            return qsb_cmd_compare_machines(argc, argv);
    compare_config cfg = {.opt = {.threshold_pct = 5.0,
                                  .alpha = QSB_DEFAULT_ALPHA,
                                  .normalize = false,
                                  .correction = QSB_DEFAULT_CORRECTION}};
    int first;
    int status = qsb_parse_options(&compare_spec, argc, argv, on_option, &cfg, &first);
    if (status != QSB_OK)
        return status == QSB_HELP_SHOWN ? QSB_OK : status;
    if (argc - first != 2)
        return qsb_usage_error("compare needs two results files, BASE and NEW (%d given)",
                               argc - first);
    const char *base_path = argv[first], *new_path = argv[first + 1];
    if (cfg.calibration)
        return calibration_command(&cfg, base_path, new_path);

    qsb_results base = {0}, cand = {0};
    qsb_compare_report report = {0};
    const qsb_output_spec paths[OUT_COUNT] = {{"--markdown", cfg.markdown_path},
                                              {"--json", cfg.json_path}};
    const char *summary = step_summary_path();
    const qsb_file_group others[3] = {{"BASE", QSB_FILES_READ, &base_path, 1},
                                      {"NEW", QSB_FILES_READ, &new_path, 1},
                                      {"$GITHUB_STEP_SUMMARY", QSB_FILES_WRITTEN, &summary, 1}};
    qsb_outputs out;
    /* before the reading: a bad path fails now, and no output may be what is read */
    status = qsb_outputs_open(&out, paths, OUT_COUNT, others, 3);
    if (status == QSB_OK)
        status = qsb_read_results(base_path, &base);
    if (status == QSB_OK)
        status = qsb_read_results(new_path, &cand);
    if (status == QSB_OK)
        status = qsb_compare_results(&base, &cand, &cfg.opt, &report);
    if (status != QSB_OK)
        goto done;
    warn_differences(&report, &base, &cand);
    warn_context(&base, &cand);
    int verdict = qsb_compare_status(&report, cfg.strict);
    status = print_table(stdout, &report, base_path, new_path);
    if (status != QSB_OK)
        goto done;
    warn_report(&report);
    status = write_outputs(&cfg, &out, &report, base_path, new_path, verdict);
    if (status == QSB_OK && verdict != QSB_OK)
        status = report_finding(&report, cfg.strict);
done:
    qsb_outputs_abort(&out); /* what an error left open */
    qsb_compare_report_free(&report);
    qsb_results_free(&base);
    qsb_results_free(&cand);
    return status;
}
