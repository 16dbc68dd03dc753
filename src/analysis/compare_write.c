/*
** compare's outputs (compare_write.h): the table on stdout and the Markdown table, both drawn
** row by row by one loop (each_row), the JSON verdicts, and the calibration report as text and
** JSON.
*/
#include "compare_write.h"

#include <cjson/cJSON.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "diag.h"
#include "json_write.h"
#include "random_effects.h"
#include "summary.h"

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
static void write_detectable(FILE *fp, const qsb_compare_report *r)
{
    double one = detectable_median_pct(r, 1.0);
    if (!isfinite(one))
        return;
    fprintf(fp, "this comparison sees changes above %.1f%% (median row); 3 runs a side would "
                "see %.1f%%\n",
            one, detectable_median_pct(r, 3.0));
    if (one > r->opt.threshold_pct)
        fprintf(fp, "its detectable change is larger than the threshold of %g%%: it cannot "
                    "support \"no regression above %g%%\"\n",
                r->opt.threshold_pct, r->opt.threshold_pct);
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
    format_pct(change, sizeof change, v->change_pct);
    if (!isnan(v->change_lo)) {
        format_pct(lo, sizeof lo, v->change_lo);
        format_pct(hi, sizeof hi, v->change_hi);
        snprintf(interval, sizeof interval, " [%s, %s]", lo, hi);
    }
    format_p(p, sizeof p, v->p_adjusted);
    snprintf(buf, len, "against the baseline %s%s%s%s: a regression by --normalize (the "
             "baseline moved between the runs)", change, interval,
             isnan(v->p_adjusted) ? "" : ", p adj ", isnan(v->p_adjusted) ? "" : p);
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
    char pattern[NAME_MAX_SHOWN + 1], algorithm[NAME_MAX_SHOWN + 1];
    fprintf(fp, "%-*s %9llu %5llu  %-*s %16s %16s %9s %20s %8s %8s  %s%s%s%s%s\n",
            lay->pattern_width, shown(pattern, sizeof pattern, it->pattern),
            (unsigned long long)it->nelem, (unsigned long long)it->size, lay->algorithm_width,
            shown(algorithm, sizeof algorithm, it->algorithm), f->base, f->cand, f->change,
            f->interval, f->p, f->p_adj, qsb_verdict_name(it->verdict),
            it->threshold_only ? " (no samples)" : "", row->note, row->baseline[0] ? "; " : "",
            row->baseline);
}

int qsb_compare_write_table(FILE *fp, const qsb_compare_report *r, const char *base_path,
                            const char *new_path)
{
    char text[480], base[QSB_QUOTE_PATH_MAX + 1], cand[QSB_QUOTE_PATH_MAX + 1];
    criterion(text, sizeof text, r);
    fprintf(fp, "compare %s -> %s (metric %s; %s)\n", shown(base, sizeof base, base_path),
            shown(cand, sizeof cand, new_path), r->metric, text);
    text_layout lay = {name_width(r, 0, 7), name_width(r, 1, 9)};
    fprintf(fp, "%-*s %9s %5s  %-*s %16s %16s %9s %20s %8s %8s  %s\n", lay.pattern_width,
            "pattern", "nelem", "size", lay.algorithm_width, "algorithm", "base median",
            "new median", "change", "95% interval", "p", "p adj", "verdict");
    if (each_row(fp, r, print_text_row, &lay) != QSB_OK)
        return QSB_ESYSTEM;
    summary_sentence(text, sizeof text, r);
    fprintf(fp, "%s\n", text);
    write_detectable(fp, r);
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

int qsb_compare_write_markdown(FILE *fp, const qsb_compare_report *r, const char *base_path,
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

static int add_number(cJSON *obj, const char *key, double v)
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
              add_number(o, "change_pct", v->change_pct) ||
              add_number(o, "change_lo", v->change_lo) ||
              add_number(o, "change_hi", v->change_hi) || add_number(o, "p", v->p) ||
              add_number(o, "p_adjusted", v->p_adjusted);
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
              add_number(o, "detectable_pct", detectable_pct(r, it, 1.0)) ||
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
    int bad = !root || add_number(root, "schema_version", 1) ||
              !cJSON_AddStringToObject(root, "base", base_path) ||
              !cJSON_AddStringToObject(root, "new", new_path) ||
              !cJSON_AddStringToObject(root, "metric", r->metric) ||
              add_number(root, "threshold_pct", opt->threshold_pct) ||
              add_number(root, "alpha", opt->alpha) ||
              add_number(root, "run_level_pct", opt->run_level_pct) ||
              !cJSON_AddBoolToObject(root, "strict", strictness == QSB_COMPARE_STRICT) ||
              !cJSON_AddBoolToObject(root, "normalized", r->normalized) ||
              !cJSON_AddStringToObject(root, "interval",
                                       r->exact ? "exact" : interval_key(r)) ||
              !cJSON_AddStringToObject(root, "correction", qsb_correction_name(opt->correction)) ||
              add_number(root, "tests", (double)r->tests) ||
              add_number(root, "tests_units", (double)r->tests_units) ||
              add_number(root, "tests_mann_whitney", (double)r->tests_mann_whitney) ||
              add_number(root, "fdr", opt->correction == QSB_CORRECTION_BH ? opt->alpha : NAN) ||
              add_number(root, "fwer", opt->correction == QSB_CORRECTION_HOLM ? opt->alpha : NAN) ||
              !cJSON_AddStringToObject(root, "verdict", status == QSB_OK ? "pass" : "fail") ||
              !cJSON_AddBoolToObject(root, "against_baseline_judged",
                                     r->judged_against_baseline) ||
              add_number(root, "against_baseline_regressions",
                         (double)r->against_baseline_regressions) ||
              add_number(root, "baseline_moved_rows", (double)r->baseline_moved) ||
              add_number(root, "detectable_pct", detectable_median_pct(r, 1.0)) ||
              add_number(root, "detectable_3_runs_pct", detectable_median_pct(r, 3.0));
    cJSON *differs = bad ? NULL : cJSON_AddArrayToObject(root, "context_differences");
    bad = !differs;
    for (size_t i = 0; i < r->ndiffers && !bad; i++) {
        cJSON *name = cJSON_CreateString(r->differs[i]);
        bad = !name || !cJSON_AddItemToArray(differs, name);
    }
    cJSON *counts = bad ? NULL : cJSON_AddObjectToObject(root, "counts");
    bad = !counts;
    for (size_t v = 0; v < QSB_VERDICT_COUNT && !bad; v++)
        bad = add_number(counts, verdict_keys[v], (double)r->count[v]);
    if (!bad)
        return root;
    cJSON_Delete(root);
    return NULL;
}

int qsb_compare_write_json(FILE *fp, const qsb_compare_report *r, const char *base_path,
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

/* ---- --calibration ---- */

/* One run level's line: found, none found, or nothing when no row could be weighed. */
static void write_run_level(FILE *fp, const char *name, const char *what,
                            const qsb_run_level *l)
{
    if (l->pct > 0.0)
        fprintf(fp, "%s: +-%.2f%% a run (Cochran's Q %.1f over %zu rows, p %.2g): the 95%% "
                "half-width each run's intervals would need added (in quadrature) for %s to "
                "be what their intervals predict; how far the runs moved together beyond "
                "their processes' spread, which no count of processes in one run samples "
                "(compare --run-level adds it)\n", name, l->pct, l->q, l->rows, l->p, what);
    else if (l->pct == 0.0)
        fprintf(fp, "%s: none found (Cochran's Q %.1f over %zu rows, p %.2g: %s are what the "
                "intervals predict)\n", name, l->q, l->rows, l->p, what);
}

void qsb_calibration_write_text(FILE *fp, const qsb_calibration *c, const char *path1,
                                const char *path2, const char *metric)
{
    char p1[QSB_QUOTE_PATH_MAX + 1], p2[QSB_QUOTE_PATH_MAX + 1];
    char level[96] = "";
    if (c->assumed_level_pct > 0.0)
        snprintf(level, sizeof level, " and l that of the run level +-%g%% a run (--run-level)",
                 c->assumed_level_pct);
    fprintf(fp, "calibration %s vs %s (metric %s; paired deltas of the candidate rows; agree: "
            "|d1 - d2| <= sqrt(h1^2 + h2^2%s), h the half-widths of the 95%% intervals%s, on "
            "the log scale)\n", shown(p1, sizeof p1, path1), shown(p2, sizeof p2, path2), metric,
            c->assumed_level_pct > 0.0 ? " + 2 l^2" : "", level);
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
            c->agree, c->with_interval, qsb_calibration_agree_share(c) * 100.0, c->median_diff_pts,
            c->worst_diff_pts, shown(pattern, sizeof pattern, w->pattern),
            (unsigned long long)w->nelem, (unsigned long long)w->size,
            shown(algorithm, sizeof algorithm, w->algorithm), c->n - c->with_interval,
            c->n - c->with_interval == 1 ? "" : "s");
    write_run_level(fp, "run level", "the rows' differences", &c->run_level);
    write_run_level(fp, "run level of the medians", "the medians' differences (every row)",
                    &c->run_level_medians);
    if (c->state_pairs || c->state_only)
        fprintf(fp, "by state: %zu of %zu matched (row, state) pairs with intervals agree "
                "(%.1f%%); %zu state%s in one run only\n",
                c->state_agree, c->state_with_interval,
                c->state_with_interval ? 100.0 * (double)c->state_agree /
                                             (double)c->state_with_interval
                                       : 0.0,
                c->state_only, c->state_only == 1 ? "" : "s");
}

/* A run level's four numbers as PREFIX_pct, PREFIX_rows, PREFIX_q and PREFIX_p; nonzero
** when out of memory. */
static int add_run_level(cJSON *root, const char *prefix, const qsb_run_level *l)
{
    const char *suffix[4] = {"pct", "rows", "q", "p"};
    double value[4] = {l->pct, (double)l->rows, l->q, l->p};
    for (size_t i = 0; i < 4; i++) {
        char name[64];
        snprintf(name, sizeof name, "%s_%s", prefix, suffix[i]);
        if (add_number(root, name, value[i]))
            return 1;
    }
    return 0;
}

static cJSON *calibration_json(const qsb_calibration *c, const char *path1, const char *path2,
                               const char *metric, qsb_compare_strictness strictness,
                               int status)
{
    cJSON *root = cJSON_CreateObject();
    int bad = !root || add_number(root, "schema_version", 1) ||
              !cJSON_AddStringToObject(root, "kind", "calibration") ||
              !cJSON_AddStringToObject(root, "run1", path1) ||
              !cJSON_AddStringToObject(root, "run2", path2) ||
              !cJSON_AddStringToObject(root, "metric", metric) ||
              !cJSON_AddStringToObject(root, "criterion",
                                       c->assumed_level_pct > 0.0
                                           ? "|log(1+d1) - log(1+d2)| <= sqrt(h1^2 + h2^2 + 2 l^2)"
                                           : "|log(1+d1) - log(1+d2)| <= sqrt(h1^2 + h2^2)") ||
              add_number(root, "rows", (double)c->n) ||
              add_number(root, "with_interval", (double)c->with_interval) ||
              add_number(root, "agree", (double)c->agree) ||
              add_number(root, "share", qsb_calibration_agree_share(c)) ||
              add_number(root, "median_diff_pts", c->median_diff_pts) ||
              add_number(root, "worst_diff_pts", c->worst_diff_pts) ||
              add_number(root, "assumed_run_level_pct", c->assumed_level_pct) ||
              add_run_level(root, "run_level", &c->run_level) ||
              add_run_level(root, "run_level_medians", &c->run_level_medians) ||
              add_number(root, "state_pairs", (double)c->state_pairs) ||
              add_number(root, "state_with_interval", (double)c->state_with_interval) ||
              add_number(root, "state_agree", (double)c->state_agree) ||
              add_number(root, "state_only", (double)c->state_only) ||
              !cJSON_AddBoolToObject(root, "strict", strictness == QSB_COMPARE_STRICT) ||
              add_number(root, "strict_share", QSB_CALIBRATION_STRICT_SHARE) ||
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

int qsb_calibration_write_json(FILE *fp, const qsb_calibration *c, const char *path1,
                               const char *path2, const char *metric,
                               qsb_compare_strictness strictness, int verdict)
{
    cJSON *root = calibration_json(c, path1, path2, metric, strictness, verdict);
    return qsb_json_print(fp, root, "calibration JSON");
}

/* How often a level was found over the pairs, and the largest with its pair ("in 2 of 5
** pairs, largest +-6.23% (b.json vs c.json)"), shown as the table's header shows paths. */
static const char *levels_found_text(char *buf, size_t len, size_t found, size_t pairs,
                                     double largest, const char *const *paths, size_t at)
{
    char p1[QSB_QUOTE_PATH_MAX + 1], p2[QSB_QUOTE_PATH_MAX + 1];
    if (found == 0)
        snprintf(buf, len, "in none of %zu pairs", pairs);
    else
        snprintf(buf, len, "in %zu of %zu pairs, largest +-%.2f%% (%s vs %s)", found, pairs,
                 largest, shown(p1, sizeof p1, paths[at]), shown(p2, sizeof p2, paths[at + 1]));
    return buf;
}

void qsb_calibration_write_totals(FILE *fp, const qsb_calibration_totals *t,
                                  const char *const *paths)
{
    char d[2 * QSB_QUOTE_PATH_MAX + 96], m[2 * QSB_QUOTE_PATH_MAX + 96];
    fprintf(fp, "\nover %zu runs (%zu pairs of consecutive runs): %zu of %zu rows with intervals "
            "agree (%.1f%%)\n", t->pairs + 1, t->pairs, t->agree, t->with_interval,
            t->with_interval ? 100.0 * qsb_calibration_totals_share(t) : 0.0);
    if (t->levels_found == 0 && t->medians_levels_found == 0) {
        fprintf(fp, "run level: none found in any pair (the runs moved no more than their "
                "intervals say)\n");
        return;
    }
    fprintf(fp, "run level found %s; of the medians %s: the largest is what compare --run-level "
            "wants between runs of this machine (of the medians for times, of the deltas with "
            "--normalize)\n",
            levels_found_text(d, sizeof d, t->levels_found, t->pairs, t->largest_level_pct, paths,
                              t->largest_level_pair),
            levels_found_text(m, sizeof m, t->medians_levels_found, t->pairs,
                              t->largest_medians_level_pct, paths,
                              t->largest_medians_level_pair));
}

int qsb_calibration_write_series_json(FILE *fp, const qsb_calibration *pairs,
                                      const char *const *paths, const char *metric,
                                      const qsb_calibration_totals *t,
                                      qsb_compare_strictness strictness, int verdict)
{
    cJSON *root = cJSON_CreateObject();
    int bad = !root || add_number(root, "schema_version", 1) ||
              !cJSON_AddStringToObject(root, "kind", "calibration-series");
    cJSON *runs = bad ? NULL : cJSON_AddArrayToObject(root, "runs");
    bad = !runs;
    for (size_t i = 0; i <= t->pairs && !bad; i++)
        bad = !cJSON_AddItemToArray(runs, cJSON_CreateString(paths[i]));
    bad = bad || !cJSON_AddStringToObject(root, "metric", metric) ||
          add_number(root, "with_interval", (double)t->with_interval) ||
          add_number(root, "agree", (double)t->agree) ||
          add_number(root, "share", qsb_calibration_totals_share(t)) ||
          add_number(root, "levels_found", (double)t->levels_found) ||
          add_number(root, "largest_run_level_pct", t->largest_level_pct) ||
          add_number(root, "medians_levels_found", (double)t->medians_levels_found) ||
          add_number(root, "largest_run_level_medians_pct", t->largest_medians_level_pct) ||
          !cJSON_AddBoolToObject(root, "strict", strictness == QSB_COMPARE_STRICT) ||
          !cJSON_AddStringToObject(root, "verdict", verdict == QSB_OK ? "pass" : "fail");
    cJSON *list = bad ? NULL : cJSON_AddArrayToObject(root, "pairs");
    bad = !list;
    for (size_t k = 0; k < t->pairs && !bad; k++) {
        qsb_calibration_totals one;
        qsb_calibration_add_up(&pairs[k], 1, &one);
        cJSON *pair = calibration_json(&pairs[k], paths[k], paths[k + 1], metric, strictness,
                                       qsb_calibration_status(&one, strictness));
        bad = !pair || !cJSON_AddItemToArray(list, pair);
        if (bad)
            cJSON_Delete(pair);
    }
    if (bad) {
        cJSON_Delete(root);
        root = NULL;
    }
    return qsb_json_print(fp, root, "calibration JSON");
}
