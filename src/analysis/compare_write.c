/*
** compare's outputs (compare_write.h): the table on stdout and the Markdown table, both drawn
** row by row by one loop (each_row), the JSON verdicts, and the lines on stderr that a report
** calls for: the warnings before and after the table, and the error line of a finding.
*/
#include "compare_write.h"

#include <cjson/cJSON.h>
#include <math.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include "compare_format.h"
#include "diag.h"
#include "json_write.h"
#include "outfile.h"
#include "random_effects.h"
#include "summary.h"

const char *compare_shown(char *buf, size_t size, const char *text)
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

void compare_format_pct(char *buf, size_t len, double v)
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
    compare_format_pct(lo, sizeof lo, it->change_lo);
    compare_format_pct(hi, sizeof hi, it->change_hi);
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
    compare_format_pct(f->change, sizeof f->change, it->change_pct);
    format_interval(f->interval, sizeof f->interval, it, r->exact);
    format_p(f->p, sizeof f->p, it->p);
    format_p(f->p_adj, sizeof f->p_adj, it->p_adjusted);
}

static int name_width(const qsb_compare_report *r, int algorithm, int minimum)
{
    size_t w = (size_t)minimum;
    for (size_t i = 0; i < r->n; i++) {
        char buf[COMPARE_NAME_MAX + 1];
        const qsb_compare_entry *e = &r->entries[i]; /* the names, without working the row out */
        const char *name = algorithm ? qsb_cell_algorithm(e->cell, e->row) : e->cell->pattern;
        size_t len = strlen(compare_shown(buf, sizeof buf, name));
        w = len > w ? len : w;
    }
    return (int)w;
}

/* Where compare's lines besides its table go, a line at a time (qsb_compare_says). */
typedef struct {
    qsb_compare_say say;
    void *ctx;
} sayer;

static void say(const sayer *s, qsb_says kind, const char *fmt, ...) QSB_PRINTF(3, 4);
static void say(const sayer *s, qsb_says kind, const char *fmt, ...)
{
    char line[4096]; /* above the longest: a warning naming every context field and both values */
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(line, sizeof line, fmt, ap);
    va_end(ap);
    s->say(s->ctx, kind, line);
}

static void summary_sentence(char *buf, size_t len, const qsb_compare_report *r)
{
    const size_t *n = r->count;
    int used = snprintf(buf, len,
                        "%zu regression%s, %zu failed, %zu improved, %zu same, %zu unresolved, "
                        "%zu with too few samples; %zu only in BASE, %zu only in NEW",
                        n[QSB_VERDICT_REGRESSION], n[QSB_VERDICT_REGRESSION] == 1 ? "" : "s",
                        n[QSB_VERDICT_FAILED] + n[QSB_VERDICT_BASE_FAILED],
                        n[QSB_VERDICT_IMPROVED], n[QSB_VERDICT_SAME], n[QSB_VERDICT_UNRESOLVED],
                        n[QSB_VERDICT_FEW_SAMPLES], n[QSB_VERDICT_ONLY_BASE],
                        n[QSB_VERDICT_ONLY_NEW]);
    size_t moved = r->against_baseline_regressions;
    if (moved && used > 0 && (size_t)used < len)
        snprintf(buf + used, len - used,
                 "; %zu row%s a regression against the baseline only (the baseline moved "
                 "between the runs: compare --normalize judges by the ratio)",
                 moved, moved == 1 ? " is" : "s are");
}

/* The smallest change a row's test tells from none with 80% power at the report's level over
** its tests (alpha over the tests: Holm's first step), its spread read off its 95% interval
** as a normal's, with side_runs runs a side (the spread shrinks by their root); NAN for a row
** not tested over units. */
static double detectable_pct(const qsb_compare_report *r, const qsb_comparison *it,
                             double side_runs)
{
    if (it->test != QSB_TEST_UNITS || !isfinite(it->change_lo) || !isfinite(it->change_hi))
        return NAN;
    double sd = (log1p(it->change_hi / 100.0) - log1p(it->change_lo / 100.0)) / (2 * QSB_Z975);
    double alpha = r->opt.alpha / (double)(r->tests ? r->tests : 1);
    return qsb_detectable_pct(r->opt.threshold_pct, sd / sqrt(side_runs), alpha, INFINITY);
}

/* The median row's detectable change with side_runs runs a side; NAN when no row has one. */
static double detectable_median_pct(const qsb_compare_report *r, double side_runs)
{
    double *v = malloc((r->n ? r->n : 1) * sizeof *v);
    for (size_t i = 0; v && i < r->n; i++) {
        qsb_comparison it;
        v[i] = qsb_compare_item(r, i, &it) == QSB_OK ? detectable_pct(r, &it, side_runs) : NAN;
    }
    double median = v ? qsb_median_of_finite(v, r->n) : NAN;
    free(v);
    return median;
}

/* "this comparison sees changes above 7.4% (median row); ...", and where that is above the
** threshold, what the comparison cannot claim. Nothing where no row was tested over units. */
static void say_detectable(const sayer *s, const qsb_compare_report *r)
{
    double one = detectable_median_pct(r, 1.0);
    if (!isfinite(one))
        return;
    say(s, QSB_SAYS_TEXT, "this comparison sees changes above %.1f%% (median row); 3 runs a "
        "side would see %.1f%%", one, detectable_median_pct(r, 3.0));
    if (one > r->opt.threshold_pct)
        say(s, QSB_SAYS_TEXT, "its detectable change is larger than the threshold of %g%%: it "
            "cannot support \"no regression above %g%%\"", r->opt.threshold_pct,
            r->opt.threshold_pct);
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

/* The run level added to the test, as the criterion says it; empty without one. */
static const char *level_text(char *buf, size_t len, const qsb_compare_options *opt)
{
    buf[0] = '\0';
    if (opt->run_level_pct > 0.0)
        snprintf(buf, len, ", each run's spread widened by a run level of +-%g%%",
                 opt->run_level_pct);
    return buf;
}

static void criterion(char *buf, size_t len, const qsb_compare_report *r)
{
    const qsb_compare_options *opt = &r->opt;
    char level[80];
    if (r->exact)
        snprintf(buf, len, "exact counts; regression: more than %g%% more", opt->threshold_pct);
    else
        snprintf(buf, len, "%sregression: slower by more than %g%%, one-sided p adjusted by %s "
                 "over %zu tests < %g; test: %s%s",
                 r->normalized ? "per-round ratios to the baseline; " : "", opt->threshold_pct,
                 correction_text(opt->correction), r->tests, opt->alpha, test_name(r),
                 level_text(level, sizeof level, opt));
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

/* What a row that is a regression against the baseline only adds to its verdict: "against
** the baseline +9.71% [+8.85%, +10.99%], p adj 3.3e-12: a regression by --normalize (the
** baseline moved between the runs)"; empty for any other row. */
static void baseline_note(char *buf, size_t len, const qsb_comparison *it)
{
    const qsb_baseline_view *v = &it->against_baseline;
    buf[0] = '\0';
    if (!v->regression)
        return;
    char change[32], lo[32], hi[32], p[16], interval[80] = "";
    compare_format_pct(change, sizeof change, v->change_pct);
    if (!isnan(v->change_lo)) {
        compare_format_pct(lo, sizeof lo, v->change_lo);
        compare_format_pct(hi, sizeof hi, v->change_hi);
        snprintf(interval, sizeof interval, " [%s, %s]", lo, hi);
    }
    format_p(p, sizeof p, v->p_adjusted);
    snprintf(buf, len, "against the baseline %s%s%s%s: a regression by --normalize (the "
             "baseline moved between the runs)", change, interval,
             isnan(v->p_adjusted) ? "" : ", p adj ", isnan(v->p_adjusted) ? "" : p);
}

void qsb_compare_row_note(char *buf, size_t len, const qsb_comparison *it)
{
    char note[160], baseline[200];
    state_note(note, sizeof note, it);
    baseline_note(baseline, sizeof baseline, it);
    snprintf(buf, len, "%s%s%s%s", it->threshold_only ? " (no samples)" : "", note,
             baseline[0] ? "; " : "", baseline);
}

/* ---- the rows of both tables ---- */

/* One row as the text and Markdown tables show it: worked out, formatted, its state note and
** its note against the baseline. */
typedef struct {
    qsb_comparison item;
    formatted shown;
    char note[160];
    char baseline[200];
} table_row;

typedef void (*row_printer)(FILE *fp, const table_row *row, const void *layout);

/* Works every row of r out, in the report's order, and hands it to print: the one loop of
** the text and Markdown tables. QSB_ESYSTEM when a row cannot be worked out (reported). */
static int each_row(FILE *fp, const qsb_compare_report *r, row_printer print,
                    const void *layout)
{
    for (size_t i = 0; i < r->n; i++) {
        table_row row;
        if (qsb_compare_item(r, i, &row.item) != QSB_OK)
            return QSB_ESYSTEM;
        format_item(&row.item, r, &row.shown);
        state_note(row.note, sizeof row.note, &row.item);
        baseline_note(row.baseline, sizeof row.baseline, &row.item);
        print(fp, &row, layout);
    }
    return QSB_OK;
}

/* ---- the table on stdout ---- */

/* The layout of the table on stdout: its name columns' widths. */
typedef struct {
    int pattern_width, algorithm_width;
} text_layout;

static void print_text_row(FILE *fp, const table_row *row, const void *layout)
{
    const text_layout *lay = layout;
    const qsb_comparison *it = &row->item;
    const formatted *f = &row->shown;
    char pattern[COMPARE_NAME_MAX + 1], algorithm[COMPARE_NAME_MAX + 1], note[400];
    qsb_compare_row_note(note, sizeof note, it);
    fprintf(fp, "%-*s %9llu %5llu  %-*s %16s %16s %9s %20s %8s %8s  %s%s\n",
            lay->pattern_width, compare_shown(pattern, sizeof pattern, it->pattern),
            (unsigned long long)it->nelem, (unsigned long long)it->size, lay->algorithm_width,
            compare_shown(algorithm, sizeof algorithm, it->algorithm), f->base, f->cand, f->change,
            f->interval, f->p, f->p_adj, qsb_verdict_name(it->verdict), note);
}

static int write_table(FILE *fp, const qsb_compare_report *r, const char *base_path,
                       const char *new_path)
{
    char text[480], base[QSB_QUOTE_PATH_MAX + 1], cand[QSB_QUOTE_PATH_MAX + 1];
    criterion(text, sizeof text, r);
    fprintf(fp, "compare %s -> %s (metric %s; %s)\n", compare_shown(base, sizeof base, base_path),
            compare_shown(cand, sizeof cand, new_path), r->metric, text);
    text_layout lay = {name_width(r, 0, 7), name_width(r, 1, 9)};
    fprintf(fp, "%-*s %9s %5s  %-*s %16s %16s %9s %20s %8s %8s  %s\n", lay.pattern_width,
            "pattern", "nelem", "size", lay.algorithm_width, "algorithm", "base median",
            "new median", "change", "95% interval", "p", "p adj", "verdict");
    return each_row(fp, r, print_text_row, &lay);
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

static void print_markdown_row(FILE *fp, const table_row *row, const void *layout)
{
    (void)layout;
    const qsb_comparison *it = &row->item;
    const formatted *f = &row->shown;
    fprintf(fp, "| ");
    md_text(fp, it->pattern, QSB_QUOTE_MAX);
    fprintf(fp, " | %llu | %llu | ", (unsigned long long)it->nelem, (unsigned long long)it->size);
    md_text(fp, it->algorithm, QSB_QUOTE_MAX);
    const char *strong =
        it->verdict == QSB_VERDICT_REGRESSION || it->verdict == QSB_VERDICT_FAILED ? "**" : "";
    const char *moved = row->baseline[0] ? "; **" : "", *end = row->baseline[0] ? "**" : "";
    fprintf(fp, " | %s | %s | %s | %s | %s | %s | %s%s%s%s%s%s%s%s |\n", f->base, f->cand,
            f->change, f->interval, f->p, f->p_adj, strong, qsb_verdict_name(it->verdict), strong,
            it->threshold_only ? " (no samples)" : "", row->note, moved, row->baseline, end);
}

static int write_markdown(FILE *fp, const qsb_compare_report *r, const char *base_path,
                          const char *new_path, int verdict)
{
    char text[480];
    fprintf(fp, "### qsortbench compare: ");
    md_text(fp, base_path, QSB_QUOTE_PATH_MAX);
    fprintf(fp, " → ");
    md_text(fp, new_path, QSB_QUOTE_PATH_MAX);
    criterion(text, sizeof text, r);
    fprintf(fp, "\n\n%s", verdict == QSB_OK ? "**Passed**" : "**Failed**");
    size_t moved = r->against_baseline_regressions, open_rows = r->count[QSB_VERDICT_UNRESOLVED];
    if (moved)
        fprintf(fp, " (%zu row%s a regression against the baseline only: see the table)",
                moved, moved == 1 ? " is" : "s are");
    if (open_rows)
        fprintf(fp, " (%zu row%s unresolved: %s interval%s reach%s beyond %g%%)", open_rows,
                open_rows == 1 ? " is" : "s are", open_rows == 1 ? "its" : "their",
                open_rows == 1 ? "" : "s", open_rows == 1 ? "es" : "", r->opt.threshold_pct);
    fprintf(fp, ": metric %s; %s.\n\n", r->metric, text);
    if (r->ndiffers) {
        fprintf(fp, "Warning: the runs differ in");
        for (size_t i = 0; i < r->ndiffers; i++)
            fprintf(fp, "%s `%s`", i ? "," : "", r->differs[i]);
        fprintf(fp, ".\n\n");
    }
    fprintf(fp, "| pattern | nelem | size | algorithm | base median | new median | change | "
                "95%% interval | p | p adj. | verdict |\n"
                "|---|--:|--:|---|--:|--:|--:|---|--:|--:|---|\n");
    if (each_row(fp, r, print_markdown_row, NULL) != QSB_OK)
        return QSB_ESYSTEM;
    summary_sentence(text, sizeof text, r);
    fprintf(fp, "\n%s.\n\n", text);
    return QSB_OK;
}

/* ---- JSON verdicts ---- */

static const char *const verdict_keys[QSB_VERDICT_COUNT] = {
    "same", "regression", "improved", "too_few_samples", "failed", "base_failed",
    "only_in_base", "only_in_new", "reference", "unresolved",
};

static const char *const test_keys[] = {"none", "welch-units", "mann-whitney"};

int compare_json_number(cJSON *obj, const char *key, double v)
{
    cJSON *item = isfinite(v) ? cJSON_CreateNumber(v) : cJSON_CreateNull();
    return item && cJSON_AddItemToObject(obj, key, item) ? 0 : (cJSON_Delete(item), -1);
}

/* The row as --normalize judges it, for a row that is a regression against the baseline only;
** JSON null for any other row. */
static cJSON *baseline_json(const qsb_baseline_view *v)
{
    if (!v->regression)
        return cJSON_CreateNull();
    cJSON *o = cJSON_CreateObject();
    int bad = !o || !cJSON_AddStringToObject(o, "verdict", "regression") ||
              compare_json_number(o, "change_pct", v->change_pct) ||
              compare_json_number(o, "change_lo", v->change_lo) ||
              compare_json_number(o, "change_hi", v->change_hi) ||
              compare_json_number(o, "p", v->p) ||
              compare_json_number(o, "p_adjusted", v->p_adjusted);
    if (bad) {
        cJSON_Delete(o);
        return NULL;
    }
    return o;
}

static cJSON *item_json(const qsb_compare_report *r, const qsb_comparison *it)
{
    cJSON *o = cJSON_CreateObject();
    int bad = !o || !cJSON_AddStringToObject(o, "pattern", it->pattern) ||
              compare_json_number(o, "nelem", (double)it->nelem) ||
              compare_json_number(o, "size", (double)it->size) ||
              !cJSON_AddStringToObject(o, "algorithm", it->algorithm) ||
              compare_json_number(o, "base_median", it->base_value) ||
              compare_json_number(o, "new_median", it->new_value) ||
              compare_json_number(o, "change_pct", it->change_pct) ||
              compare_json_number(o, "change_lo", it->change_lo) ||
              compare_json_number(o, "change_hi", it->change_hi) ||
              compare_json_number(o, "p", it->p) ||
              compare_json_number(o, "p_adjusted", it->p_adjusted) ||
              compare_json_number(o, "p_faster", it->p_faster) ||
              compare_json_number(o, "p_faster_adjusted", it->p_faster_adjusted) ||
              !cJSON_AddStringToObject(o, "test", test_keys[it->test]) ||
              compare_json_number(o, "base_units", (double)it->base_units) ||
              compare_json_number(o, "new_units", (double)it->new_units) ||
              compare_json_number(o, "base_samples", (double)it->base_n) ||
              compare_json_number(o, "new_samples", (double)it->new_n) ||
              !cJSON_AddBoolToObject(o, "threshold_only", it->threshold_only) ||
              compare_json_number(o, "states_matched", (double)it->states_matched) ||
              compare_json_number(o, "states_only_in_base", (double)it->states_only_base) ||
              compare_json_number(o, "states_only_in_new", (double)it->states_only_new) ||
              compare_json_number(o, "state_speed", it->state_speed) ||
              compare_json_number(o, "detectable_pct", detectable_pct(r, it, 1.0)) ||
              !cJSON_AddStringToObject(o, "verdict", verdict_keys[it->verdict]);
    cJSON *against = bad ? NULL : baseline_json(&it->against_baseline);
    if (!against || !cJSON_AddItemToObject(o, "against_baseline", against)) {
        cJSON_Delete(against);
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
                          const char *new_path, qsb_compare_strictness strictness, int status)
{
    const qsb_compare_options *opt = &r->opt;
    cJSON *root = cJSON_CreateObject();
    int bad = !root || compare_json_number(root, "schema_version", 1) ||
              !cJSON_AddStringToObject(root, "base", base_path) ||
              !cJSON_AddStringToObject(root, "new", new_path) ||
              !cJSON_AddStringToObject(root, "metric", r->metric) ||
              compare_json_number(root, "threshold_pct", opt->threshold_pct) ||
              compare_json_number(root, "alpha", opt->alpha) ||
              compare_json_number(root, "run_level_pct", opt->run_level_pct) ||
              !cJSON_AddBoolToObject(root, "strict", strictness == QSB_COMPARE_STRICT) ||
              !cJSON_AddBoolToObject(root, "normalized", r->normalized) ||
              !cJSON_AddStringToObject(root, "interval",
                                       r->exact ? "exact" : interval_key(r)) ||
              !cJSON_AddStringToObject(root, "correction", qsb_correction_name(opt->correction)) ||
              compare_json_number(root, "tests", (double)r->tests) ||
              compare_json_number(root, "tests_units", (double)r->tests_units) ||
              compare_json_number(root, "tests_mann_whitney", (double)r->tests_mann_whitney) ||
              compare_json_number(root, "fdr",
                                  opt->correction == QSB_CORRECTION_BH ? opt->alpha : NAN) ||
              compare_json_number(root, "fwer",
                                  opt->correction == QSB_CORRECTION_HOLM ? opt->alpha : NAN) ||
              !cJSON_AddStringToObject(root, "verdict", status == QSB_OK ? "pass" : "fail") ||
              !cJSON_AddBoolToObject(root, "against_baseline_judged",
                                     r->judged_against_baseline) ||
              compare_json_number(root, "against_baseline_regressions",
                         (double)r->against_baseline_regressions) ||
              compare_json_number(root, "baseline_moved_rows", (double)r->baseline_moved) ||
              compare_json_number(root, "detectable_pct", detectable_median_pct(r, 1.0)) ||
              compare_json_number(root, "detectable_3_runs_pct", detectable_median_pct(r, 3.0));
    cJSON *differs = bad ? NULL : cJSON_AddArrayToObject(root, "context_differences");
    bad = !differs;
    for (size_t i = 0; i < r->ndiffers && !bad; i++) {
        cJSON *name = cJSON_CreateString(r->differs[i]);
        bad = !name || !cJSON_AddItemToArray(differs, name);
    }
    cJSON *counts = bad ? NULL : cJSON_AddObjectToObject(root, "counts");
    bad = !counts;
    for (size_t v = 0; v < QSB_VERDICT_COUNT && !bad; v++)
        bad = compare_json_number(counts, verdict_keys[v], (double)r->count[v]);
    if (!bad)
        return root;
    cJSON_Delete(root);
    return NULL;
}

static int write_json(FILE *fp, const qsb_compare_report *r, const char *base_path,
                      const char *new_path, qsb_compare_strictness strictness, int verdict)
{
    cJSON *root = report_json(r, base_path, new_path, strictness, verdict);
    qsb_json_stream cells; /* a row at a time: a report of millions is never one tree */
    int status = qsb_json_stream_open(&cells, fp, root, "cells", "compare JSON");
    for (size_t i = 0; i < r->n && status == QSB_OK; i++) {
        qsb_comparison it;
        if ((status = qsb_compare_item(r, i, &it)) == QSB_OK)
            status = qsb_json_stream_add(&cells, item_json(r, &it));
    }
    qsb_json_stream_close(&cells);
    return status;
}

/* ---- the lines on stderr ---- */

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
static void warn_differences(const sayer *s, const qsb_compare_report *r,
                             const qsb_results *base, const qsb_results *cand)
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
    say(s, QSB_SAYS_WARNING, "the runs differ in %s: %s; the comparison may not be fair", names,
        details);
}

/* Only JSON from a run records its build; a CSV says nothing either way. */
static void warn_build(const sayer *s, const char *which, const qsb_context *c)
{
    bool timed = c->metric && strcmp(c->metric, "comparisons") != 0;
    if (timed && c->repetitions && (c->sanitized || !c->release_build))
        say(s, QSB_SAYS_WARNING,
            "%s was measured by a %s build: its timings do not represent the "
            "algorithms",
            which, c->sanitized ? "sanitized" : "non-release");
}

static void warn_runs(const sayer *s, const qsb_results *base, const qsb_results *cand)
{
    warn_build(s, "BASE", &base->context);
    warn_build(s, "NEW", &cand->context);
    if (base->context.incomplete || cand->context.incomplete)
        say(s, QSB_SAYS_WARNING,
            "%s was interrupted: its missing rows are listed as in one file only",
            base->context.incomplete ? "BASE" : "NEW");
}

/* Warnings after the table: rows with too few samples, unresolved rows, rows tested by
** Mann-Whitney, rows without samples, the run level, a baseline that moved, rows that are a
** regression against the baseline only. */
static void warn_rows(const sayer *s, const qsb_compare_report *r)
{
    const qsb_compare_options *opt = &r->opt;
    size_t few = r->count[QSB_VERDICT_FEW_SAMPLES], bare = r->no_samples;
    if (few)
        say(s, QSB_SAYS_WARNING,
            "%zu row%s slower beyond %g%% with too few samples for p < %g: run with "
            "more repetitions (--reps 10 or more)",
            few, few == 1 ? " is" : "s are", opt->threshold_pct, opt->alpha);
    size_t open_rows = r->count[QSB_VERDICT_UNRESOLVED];
    if (open_rows) /* between runs the times move with the run level, which more processes
                   ** do not narrow; the ratios to the baseline move less */
        say(s, QSB_SAYS_WARNING,
            "%zu row%s unresolved: not shown slower beyond %g%%, but %s 95%% "
            "interval%s reach%s beyond it, so a regression of that size is not ruled "
            "out; %s",
            open_rows, open_rows == 1 ? " is" : "s are", opt->threshold_pct,
            open_rows == 1 ? "its" : "their", open_rows == 1 ? "" : "s", open_rows == 1 ? "es" : "",
            r->normalized ? "a longer --budget in both runs narrows the intervals down "
                            "to what the runs move by (compare --calibration)"
                          : "--normalize (the ratios to the baseline move less between "
                            "runs than the times) and a longer --budget in both runs "
                            "narrow the intervals");
    if (r->tests_mann_whitney)
        say(s, QSB_SAYS_WARNING,
            "%zu row%s no units (files from before units were recorded): tested by "
            "Mann-Whitney over the samples, which takes correlated samples as "
            "independent; rerun both with this version for tests over units",
            r->tests_mann_whitney, r->tests_mann_whitney == 1 ? " has" : "s have");
    if (bare)
        say(s, QSB_SAYS_WARNING,
            "%zu row%s no samples: judged on the threshold alone (use JSON results, "
            "or CSV with the samples column)",
            bare, bare == 1 ? " has" : "s have");
    size_t without_units = r->tests_mann_whitney + bare;
    if (opt->run_level_pct > 0.0 && without_units)
        say(s, QSB_SAYS_WARNING,
            "--run-level %g applies to tests over units: %zu row%s judged without it",
            opt->run_level_pct, without_units, without_units == 1 ? " is" : "s are");
    if (opt->run_level_pct <= 0.0 && !r->exact) /* runs move as a whole: no run sees it */
        say(s, QSB_SAYS_NOTE,
            "without a run level, these verdicts hold within each run's own spread only: "
            "where whole runs move (compare --calibration measures it), give "
            "--run-level, or gate against the machine's history (history gate)");
    if (r->baseline_moved) /* an A/A whose host moved fails on the baseline itself */
        say(s, QSB_SAYS_WARNING,
            "%s, the baseline, is itself slower or faster beyond %g%% in %zu row%s: where "
            "its code is the same in both runs, the host moved between them and every "
            "time in %s moved with it (compare --calibration measures how far runs "
            "move; compare --normalize judges the ratios to the baseline)",
            qsb_quote(r->base->baseline), opt->threshold_pct, r->baseline_moved,
            r->baseline_moved == 1 ? "" : "s", r->baseline_moved == 1 ? "its cell" : "their cells");
    size_t moved = r->against_baseline_regressions;
    if (moved)
        say(s, QSB_SAYS_WARNING,
            "%zu row%s not a regression by %s own times but %s one against the "
            "baseline: the baseline moved between the runs (a state of the machine, "
            "or a change of the baseline itself); compare --normalize judges by the "
            "ratio and fails on %s",
            moved, moved == 1 ? " is" : "s are", moved == 1 ? "its" : "their",
            moved == 1 ? "is" : "are", moved == 1 ? "it" : "them");
}

/* The error line of a finding (regressions and failed sorts; when strict, rows in one file
** only), with QSB_FINDING; QSB_OK when the report has none. */
static int report_finding(const qsb_compare_report *r, qsb_compare_strictness strictness)
{
    const size_t *n = r->count;
    if (n[QSB_VERDICT_REGRESSION] || n[QSB_VERDICT_FAILED])
        return qsb_error(QSB_FINDING, "%zu regression%s and %zu failed sort%s in NEW (see the "
                         "table)", n[QSB_VERDICT_REGRESSION],
                         n[QSB_VERDICT_REGRESSION] == 1 ? "" : "s", n[QSB_VERDICT_FAILED],
                         n[QSB_VERDICT_FAILED] == 1 ? "" : "s");
    if (strictness == QSB_COMPARE_STRICT && (n[QSB_VERDICT_ONLY_BASE] || n[QSB_VERDICT_ONLY_NEW]))
        return qsb_error(QSB_FINDING, "--strict: %zu rows only in BASE, %zu only in NEW",
                         n[QSB_VERDICT_ONLY_BASE], n[QSB_VERDICT_ONLY_NEW]);
    return QSB_OK;
}

void qsb_compare_says(const qsb_compare_report *r, bool after_table, qsb_compare_say to,
                      void *ctx)
{
    const sayer s = {to, ctx};
    if (!after_table) {
        warn_differences(&s, r, r->base, r->cand);
        warn_runs(&s, r->base, r->cand);
        return;
    }
    char text[480];
    summary_sentence(text, sizeof text, r);
    say(&s, QSB_SAYS_TEXT, "%s", text);
    say_detectable(&s, r);
    warn_rows(&s, r);
}

/* compare's own lines: the text under the table, the rest on stderr. */
static void say_to_streams(void *ctx, qsb_says kind, const char *line)
{
    if (kind == QSB_SAYS_TEXT)
        fprintf(ctx, "%s\n", line);
    else if (kind == QSB_SAYS_WARNING)
        qsb_warning("%s", line);
    else
        qsb_note("%s", line);
}

int qsb_compare_write(const qsb_compare_report *r, qsb_compare_outputs *o)
{
    qsb_compare_says(r, false, say_to_streams, o->text);
    int verdict = qsb_compare_status(r, o->strictness);
    if (write_table(o->text, r, o->base_path, o->new_path) != QSB_OK)
        return QSB_ESYSTEM;
    qsb_compare_says(r, true, say_to_streams, o->text);
    o->verdict = verdict;
    int status = QSB_OK;
    if (o->markdown)
        status = write_markdown(o->markdown, r, o->base_path, o->new_path, verdict);
    if (o->json && status == QSB_OK)
        status = write_json(o->json, r, o->base_path, o->new_path, o->strictness, verdict);
    return status;
}

int qsb_compare_summary_open(qsb_compare_outputs *o)
{
    return o->summary_path ? qsb_append_open("$GITHUB_STEP_SUMMARY", o->summary_path,
                                             &o->summary)
                           : QSB_OK;
}

/* Once the table is out, whatever the outputs did: the Markdown table appended and the file
** closed (left NULL); QSB_OK when there is none. */
static int append_summary(const qsb_compare_report *r, qsb_compare_outputs *o)
{
    if (!o->summary || o->verdict < 0)
        return QSB_OK;
    int written = write_markdown(o->summary, r, o->base_path, o->new_path, o->verdict);
    int closed = fclose(o->summary);
    o->summary = NULL;
    if (closed != 0 && written == QSB_OK)
        return qsb_error(QSB_ESYSTEM, "cannot write $GITHUB_STEP_SUMMARY '%s'",
                         qsb_quote_path(o->summary_path));
    return written;
}

int qsb_compare_finish(const qsb_compare_report *r, qsb_compare_outputs *o, int status)
{
    int appended = append_summary(r, o);
    status = status != QSB_OK ? status : appended;
    if (status == QSB_OK && o->verdict == QSB_FINDING)
        status = report_finding(r, o->strictness);
    return status;
}
