/*
** The HTML page of results (see report_html.h). The figures come from the structures as the
** other reporters print them; the conclusions from compare.h (verdicts) and plot.h /
** fleet_view.h (charts); this file only lays them out.
*/
#include "report_html.h"

#include <errno.h>
#include <inttypes.h>
#include <math.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "compare_write.h"
#include "diag.h"
#include "fleet_view.h"
#include "plot.h"
#include "report_charts.h"
#include "states_text.h"

/* ---- text ---- */

static void html_upper(FILE *out, const char *text)
{
    for (const char *p = text; *p; p++) {
        char one[2] = {*p >= 'a' && *p <= 'z' ? (char)(*p - 'a' + 'A') : *p, '\0'};
        qsb_html_text(out, one);
    }
}

/* A median as the text table shows it, whole numbers from 1000 on, their digits in groups of
** three (a narrow no-break space between): eleven-digit cycle counts side by side are
** unreadable without. */
static void html_value(FILE *out, double v)
{
    char digits[400];
    if (!isfinite(v)) {
        fputs("&ndash;", out);
        return;
    }
    if (fabs(v) < 1000) {
        fprintf(out, "%.4g", v);
        return;
    }
    int len = snprintf(digits, sizeof digits, "%.0f", fabs(v));
    if (v < 0)
        fputc('-', out);
    for (int i = 0; i < len; i++) {
        if (i > 0 && (len - i) % 3 == 0)
            fputs("&#8239;", out);
        fputc(digits[i], out);
    }
}

/* An interval of a change, in points; a dash when unknown. */
static void html_interval(FILE *out, double lo, double hi)
{
    if (isfinite(lo) && isfinite(hi))
        fprintf(out, "[%+.2f, %+.2f]", lo, hi);
    else
        fputs("&ndash;", out);
}

/* ---- the page's frame ---- */

static const char style[] =
    "body{font:15px/1.45 system-ui,-apple-system,'Segoe UI',sans-serif;color:#1a1a1a;"
    "max-width:62rem;margin:0 auto;padding:1rem 1.2rem 3rem}"
    "h1{font-size:1.5rem;margin:.4rem 0}h2{font-size:1.2rem;margin:2rem 0 .5rem;"
    "border-bottom:1px solid #ccc;padding-bottom:.2rem}h3{font-size:1rem;margin:1.2rem 0 .3rem}"
    "p{margin:.4rem 0}code,.mono{font-family:ui-monospace,'DejaVu Sans Mono',monospace;"
    "font-size:.86em}"
    "table{border-collapse:collapse;width:100%;margin:.3rem 0 1rem;table-layout:auto}"
    "th,td{padding:.2rem .45rem;border-bottom:1px solid #e3e3e3;text-align:left;"
    "vertical-align:top;overflow-wrap:break-word}td.mono,code{overflow-wrap:anywhere}"
    "th{background:#f4f4f4;font-weight:600;overflow-wrap:normal}td.num,th.num{text-align:right;"
    "font-variant-numeric:tabular-nums;overflow-wrap:normal}"
    "table.facts th{width:11rem;background:none;font-weight:600}"
    "table.cells{table-layout:fixed}table.cells col.n{width:6.5rem}table.cells col.s{width:3rem}"
    "table.cells col.a{width:auto}table.cells col.d{width:10rem}table.cells col.i{width:11rem}"
    "table.cells col.m{width:8.5rem}table.cells col.t{width:10rem}"
    ".noisy{color:#8a5a00}.states{color:#444}.faster{color:#0a6b2b}.slower{color:#a11}"
    ".failed{color:#a11;font-weight:600}.muted{color:#666}"
    "figure{margin:1.2rem 0}figure svg{display:block;width:100%;height:auto}"
    "figure.chart{position:relative;left:50%;transform:translateX(-50%)}"
    "figcaption{font-size:.9em;color:#444}"
    ".verdict-fail{color:#a11;font-weight:600}.verdict-pass{color:#0a6b2b;font-weight:600}";

static void put_head(FILE *out, const char *title)
{
    fputs("<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n"
          "<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\n"
          "<meta http-equiv=\"Content-Security-Policy\" content=\"default-src 'none'; "
          "style-src 'unsafe-inline'\">\n<title>",
          out);
    qsb_html_text(out, title);
    fprintf(out, "</title>\n<style>%s</style>\n</head>\n<body>\n", style);
}

/* "introsort vs msort" of a run: its candidates against its baseline. */
static void put_subject(FILE *out, const qsb_results *r)
{
    if (r->ncells == 0) {
        fputs("no cells", out);
        return;
    }
    const qsb_cell *cell = &r->cells[0];
    for (size_t i = 1; i < cell->nrows; i++) {
        fputs(i > 1 ? ", " : "", out);
        qsb_html_text(out, cell->rows[i].algorithm);
    }
    fputs(cell->nrows > 1 ? " against " : "", out);
    qsb_html_text(out, cell->rows[0].algorithm);
}

/* ---- what was run ---- */

static void fact(FILE *out, const char *label, const char *value, bool mono)
{
    if (!value || !value[0])
        return;
    fprintf(out, "<tr><th scope=\"row\">%s</th><td%s>", label, mono ? " class=\"mono\"" : "");
    qsb_html_text(out, value);
    fputs("</td></tr>\n", out);
}

static void put_facts(FILE *out, const qsb_results *r, const char *file)
{
    const qsb_context *c = &r->context;
    char buf[512];
    fputs("<table class=\"facts\">\n", out);
    fact(out, "file", file, true);
    fact(out, "command line", c->command_line, true);
    fact(out, "date", c->date, false);
    if (c->incomplete)
        fact(out, "interrupted", "yes: the cells are those finished", false);
    fact(out, "machine", qsb_machine_name(c), false);
    snprintf(buf, sizeof buf, "%s%s%s", c->cpu_model ? c->cpu_model : "",
             c->caches ? "; caches " : "", c->caches ? c->caches : "");
    fact(out, "CPU", buf, false);
    fact(out, "libc", c->libc, false);
    snprintf(buf, sizeof buf, "qsortbench %s, %s build, %s",
             c->tool_version ? c->tool_version : "?",
             c->build_type ? c->build_type : "?", c->compiler ? c->compiler : "?");
    fact(out, "build", buf, false);
    fact(out, "build flags", c->build_flags, true);
    if (c->tsc_hz > 0)
        snprintf(buf, sizeof buf, "%s (%s, TSC %.3f GHz)", c->metric ? c->metric : "?",
                 c->timer ? c->timer : "?", c->tsc_hz / 1e9);
    else
        snprintf(buf, sizeof buf, "%s (%s)", c->metric ? c->metric : "?",
                 c->timer ? c->timer : "?");
    fact(out, "metric", buf, false);
    snprintf(buf, sizeof buf, "0x%" PRIx64 " (mode %s)", c->seed, c->mode ? c->mode : "?");
    fact(out, "seed", buf, true);
    if (isfinite(c->budget_s)) {
        snprintf(buf, sizeof buf, "%.0f s", c->budget_s);
        fact(out, "budget", buf, false);
    }
    if (isfinite(c->precision_pct)) {
        snprintf(buf, sizeof buf, "\xc2\xb1%g%% (the noisy mark above it)", c->precision_pct);
        fact(out, "precision target", buf, false);
    }
    fact(out, "repetitions", c->repetitions, false);
    fact(out, "placement", c->placement, false);
    snprintf(buf, sizeof buf, "governor %s, turbo %s", c->governor ? c->governor : "?",
             c->turbo ? c->turbo : "?");
    bool known = (c->governor && strcmp(c->governor, "unknown") != 0) ||
                 (c->turbo && strcmp(c->turbo, "unknown") != 0);
    if (known)
        fact(out, "machine state", buf, false);
    fputs("</table>\n", out);
}

/* ---- the cover-letter table ---- */

static bool interval_known(const qsb_row *row)
{
    return isfinite(row->delta_lo) && isfinite(row->delta_hi);
}

static void put_failure(FILE *out, const qsb_row *failed)
{
    fputs("<td colspan=\"5\" class=\"failed\">FAILED (", out);
    qsb_html_text(out, failed->algorithm);
    fputs(": ", out);
    qsb_html_text(out, failed->failure ? failed->failure : "wrong result");
    fputs(")</td>", out);
}

/* The cell's processes ran at separated speeds: say so, as the table does. */
static void put_states(FILE *out, const qsb_row *row)
{
    char words[512];
    if (qsb_states_words(row->states, row->nstates, words, sizeof words) == 0)
        return;
    fputs(" <span class=\"states\">", out);
    if (isnan(row->delta_pct)) {
        qsb_html_text(out, row->algorithm);
        fputc(' ', out);
    }
    qsb_html_text(out, words);
    fputs("</span>", out);
}

static void put_notes(FILE *out, const qsb_row *base, const qsb_row *cand)
{
    bool unchanged = cand && interval_known(cand) && cand->delta_lo <= 0 && cand->delta_hi >= 0;
    fputs("<td>", out);
    if (unchanged)
        fputs("no significant change", out);
    if ((cand && cand->noisy) || base->noisy)
        fprintf(out, "%s<span class=\"noisy\">~noisy</span>", unchanged ? " " : "");
    put_states(out, cand && cand->states ? cand : base);
    fputs("</td>", out);
}

static void put_delta(FILE *out, const qsb_row *cand)
{
    const char *cls = !interval_known(cand) || (cand->delta_lo <= 0 && cand->delta_hi >= 0)
                          ? ""
                          : cand->delta_pct < 0 ? " faster" : " slower";
    fprintf(out, "<td class=\"num%s\">", cls);
    if (!isfinite(cand->delta_pct))
        fputs("n/a", out);
    else if (interval_known(cand))
        fprintf(out, "%+.2f%% &plusmn;&nbsp;%.2f", cand->delta_pct,
                fmax(cand->delta_pct - cand->delta_lo, cand->delta_hi - cand->delta_pct));
    else
        fprintf(out, "%+.2f%%", cand->delta_pct);
    fputs("</td><td class=\"num\">", out);
    html_interval(out, cand->delta_lo, cand->delta_hi);
    fputs("</td>", out);
}

/* One line: the candidate against the baseline (cand NULL: a run without candidates). */
static void put_cell_line(FILE *out, const qsb_cell *cell, const qsb_row *cand)
{
    const qsb_row *base = &cell->rows[0];
    fprintf(out, "<tr><td class=\"num\">%" PRIu64 "</td><td class=\"num\">%" PRIu64 "</td><td>",
            cell->nelem, cell->size);
    qsb_html_text(out, cand ? cand->algorithm : base->algorithm);
    fputs("</td>", out);
    const qsb_row *failed = !base->verified ? base : cand && !cand->verified ? cand : NULL;
    if (failed) {
        put_failure(out, failed);
        fputs("<td></td></tr>\n", out);
        return;
    }
    if (cand)
        put_delta(out, cand);
    else
        fputs("<td class=\"num\">&ndash;</td><td class=\"num\">&ndash;</td>", out);
    fputs("<td class=\"num\">", out);
    html_value(out, base->summary.median);
    fputs("</td><td class=\"num\">", out);
    html_value(out, cand ? cand->summary.median : NAN);
    fputs("</td>", out);
    put_notes(out, base, cand);
    fputs("</tr>\n", out);
}

static void put_table_head(FILE *out, const qsb_results *r)
{
    fputs("<table class=\"cells\">\n<colgroup><col class=\"n\"><col class=\"s\">"
          "<col class=\"a\"><col class=\"d\"><col class=\"i\"><col class=\"m\">"
          "<col class=\"m\"><col class=\"t\"></colgroup>\n<thead><tr>"
          "<th class=\"num\">elements</th>"
          "<th class=\"num\">size</th><th>candidate</th><th class=\"num\">delta</th>"
          "<th class=\"num\">95% interval</th><th class=\"num\">",
          out);
    qsb_html_text(out, r->baseline ? r->baseline : "baseline");
    fputs("</th><th class=\"num\">candidate</th><th>notes</th></tr></thead>\n<tbody>\n", out);
}

/* What the tables' columns and marks mean (once a page). */
static void put_legend(FILE *out, const qsb_results *r)
{
    const char *metric = r->context.metric ? r->context.metric : "?";
    fputs("<p>Per cell and candidate: the paired delta against the baseline with &plusmn; the "
          "larger side of its 95% interval, the interval itself, and both medians in ",
          out);
    qsb_html_text(out, metric);
    fputs(" per sort. <span class=\"faster\">Green</span>: faster, <span class=\"slower\">"
          "red</span>: slower, the interval excluding zero. <span class=\"noisy\">~noisy</span>: "
          "an interval wider than the precision target, or none.</p>\n",
          out);
}

static void put_results_tables(FILE *out, const qsb_results *r)
{
    for (size_t c = 0; c < r->ncells; c++) {
        const qsb_cell *cell = &r->cells[c];
        bool first = c == 0 || strcmp(cell->pattern, r->cells[c - 1].pattern) != 0;
        if (first) {
            fputs(c ? "</tbody></table>\n<h3>" : "<h3>", out);
            html_upper(out, cell->pattern);
            fputs("</h3>\n", out);
            put_table_head(out, r);
        }
        if (cell->nrows == 1)
            put_cell_line(out, cell, NULL);
        for (size_t i = 1; i < cell->nrows; i++)
            put_cell_line(out, cell, &cell->rows[i]);
    }
    if (r->ncells)
        fputs("</tbody></table>\n", out);
    else
        fputs("<p>No cell was measured.</p>\n", out);
}

/* ---- charts ---- */

static int draw_run_charts(FILE *out, const qsb_results *r, unsigned *chart_no)
{
    if (r->ncells == 0) { /* an interrupted run: its files are still written */
        fputs("<p>No chart: no cell was measured.</p>\n", out);
        return QSB_OK;
    }
    qsb_chart_dir d;
    int status = qsb_chart_dir_open(&d);
    if (status != QSB_OK)
        return status;
    qsb_plot_options opt = {d.dir, "chart", QSB_PLOT_SVG, NULL, d.stream, 0, NULL};
    status = qsb_plot(r, &opt);
    int inlined = qsb_chart_dir_inline(out, &d, chart_no);
    return status != QSB_OK ? status : inlined;
}

static int draw_fleet_charts(FILE *out, const qsb_results *runs, size_t n, unsigned *chart_no)
{
    qsb_chart_dir d;
    int status = qsb_chart_dir_open(&d);
    if (status != QSB_OK)
        return status;
    qsb_plot_options opt = {d.dir, NULL, QSB_PLOT_SVG, NULL, d.stream, 0, NULL};
    status = qsb_plot_fleet_file(runs, n, "fleet.json", &opt);
    int inlined = qsb_chart_dir_inline(out, &d, chart_no);
    return status != QSB_OK ? status : inlined;
}

/* ---- a comparison with an earlier run: the verdicts of compare.h, one row a matched row ---- */

static const char *verdict_class(qsb_verdict v)
{
    switch (v) {
    case QSB_VERDICT_REGRESSION:
    case QSB_VERDICT_FAILED:
        return "slower";
    case QSB_VERDICT_IMPROVED:
        return "faster";
    case QSB_VERDICT_UNRESOLVED:
        return "noisy";
    default:
        return "muted";
    }
}

static void put_comparison(FILE *out, const qsb_comparison *c)
{
    fputs("<tr><td>", out);
    qsb_html_cell(out, c->pattern, c->nelem, c->size);
    fputs("</td><td>", out);
    qsb_html_text(out, c->algorithm);
    fputs("</td><td class=\"num\">", out);
    html_value(out, c->base_value);
    fputs("</td><td class=\"num\">", out);
    html_value(out, c->new_value);
    fputs("</td><td class=\"num\">", out);
    if (isfinite(c->change_pct))
        fprintf(out, "%+.2f%%", c->change_pct);
    else
        fputs("&ndash;", out);
    fputs("</td><td class=\"num\">", out);
    html_interval(out, c->change_lo, c->change_hi);
    fputs("</td><td class=\"num\">", out);
    /* the p of the verdict's side: faster for an improvement, slower otherwise */
    double p = c->verdict == QSB_VERDICT_IMPROVED ? c->p_faster_adjusted : c->p_adjusted;
    if (isfinite(p))
        fprintf(out, "%.3g", p);
    else
        fputs("&ndash;", out);
    fprintf(out, "</td><td class=\"%s\">", verdict_class(c->verdict));
    qsb_html_text(out, qsb_verdict_name(c->verdict));
    char note[400];
    qsb_compare_row_note(note, sizeof note, c);
    fputs("</td><td>", out);
    qsb_html_text(out, note + strspn(note, "; ")); /* compare's, less what joins it on */
    fputs("</td></tr>\n", out);
}

static void put_compare_summary(FILE *out, const qsb_html_page *p, const qsb_compare_report *rep,
                                int status)
{
    fputs("<p>BASE <code>", out);
    qsb_html_text(out, p->base_name);
    fputs("</code> (", out);
    qsb_html_text(out, p->base->context.date ? p->base->context.date : "undated");
    fputs("), NEW <code>", out);
    qsb_html_text(out, p->run_name);
    char level[96] = "";
    if (p->compare.run_level_pct > 0.0)
        snprintf(level, sizeof level, ", each run's spread widened by a run level of &plusmn;%g%%",
                 p->compare.run_level_pct);
    fprintf(out, "</code>. Threshold %g%%, alpha %g, %s%s; p corrected by %s over %zu tests "
                 "(%zu over units, %zu Mann&ndash;Whitney).</p>\n",
            p->compare.threshold_pct, p->compare.alpha,
            rep->normalized ? "normalized by each run's baseline" : "medians compared directly",
            level,
            p->compare.correction == QSB_CORRECTION_HOLM
                ? "Holm"
                : qsb_correction_name(p->compare.correction),
            rep->tests, rep->tests_units, rep->tests_mann_whitney);
    fprintf(out, "<p>Verdict: <span class=\"%s\">%s</span>.</p>\n",
            status == QSB_OK ? "verdict-pass" : "verdict-fail", status == QSB_OK ? "pass" : "fail");
}

/* compare's lines besides its table (compare_write.h), a paragraph each: the same words,
** a warning's without compare's "qsortbench: warning: " on stderr. */
static void say_html(void *out, qsb_says kind, const char *line)
{
    fputs(kind == QSB_SAYS_WARNING ? "<p class=\"noisy\">" : "<p>", out);
    qsb_html_text(out, line);
    fputs("</p>\n", out);
}

/* The section comparing p->run with p->base. QSB_OK, or the comparison's failure. */
static int put_compare(FILE *out, const qsb_html_page *p)
{
    qsb_compare_report rep;
    int status = qsb_compare_results(p->base, p->run, &p->compare, &rep);
    if (status != QSB_OK)
        return status;
    fputs("<section id=\"compare\">\n<h2>Compared with an earlier run</h2>\n", out);
    put_compare_summary(out, p, &rep, qsb_compare_status(&rep, QSB_COMPARE_LENIENT));
    qsb_compare_says(&rep, false, say_html, out);
    fprintf(out, "<table class=\"verdicts\">\n<thead><tr><th>cell</th><th>algorithm</th>"
                 "<th class=\"num\">BASE</th><th class=\"num\">NEW</th><th class=\"num\">"
                 "change</th><th class=\"num\">95%% interval</th><th class=\"num\">p adj.</th>"
                 "<th>verdict</th><th>note</th></tr></thead>\n<tbody>\n");
    for (size_t i = 0; i < rep.n && status == QSB_OK; i++) {
        qsb_comparison it;
        status = qsb_compare_item(&rep, i, &it);
        if (status == QSB_OK)
            put_comparison(out, &it);
    }
    fputs("</tbody></table>\n", out);
    if (status == QSB_OK)
        qsb_compare_says(&rep, true, say_html, out);
    fputs("</section>\n", out);
    qsb_compare_report_free(&rep);
    return status;
}

/* ---- fleet and audit ---- */

static int put_fleet(FILE *out, const qsb_html_page *p, unsigned *chart_no)
{
    fputs("<section id=\"fleet\">\n<h2>Machines</h2>\n<p>The fleet file <code>", out);
    qsb_html_text(out, p->fleet_name);
    fprintf(out, "</code> holds %zu machines; each one's context and table, then the charts "
                 "with a bar or line per machine.</p>\n", p->fleet_n);
    if (!p->run)
        put_legend(out, &p->fleet[0]);
    for (size_t m = 0; m < p->fleet_n; m++) {
        fputs("<section class=\"machine\">\n<h3>", out);
        qsb_html_text(out, qsb_machine_name(&p->fleet[m].context));
        fputs(": ", out);
        put_subject(out, &p->fleet[m]);
        fputs("</h3>\n", out);
        put_facts(out, &p->fleet[m], NULL);
        put_results_tables(out, &p->fleet[m]);
        fputs("</section>\n", out);
    }
    fputs("<h3>Charts of the fleet</h3>\n", out);
    int status = draw_fleet_charts(out, p->fleet, p->fleet_n, chart_no);
    fputs("</section>\n", out);
    return status;
}

static void put_audit_cell(FILE *out, const char *text, bool num)
{
    fputs(num ? "<td class=\"num\">" : "<td>", out);
    qsb_html_text(out, text);
    fputs("</td>", out);
}

static void put_audit(FILE *out, const qsb_html_page *p)
{
    const qsb_audit_file *a = p->audit;
    fputs("<section id=\"audit\">\n<h2>Audit</h2>\n<p>From <code>", out);
    qsb_html_text(out, p->audit_name);
    fputs("</code>: ", out);
    qsb_html_text(out, a->host);
    fputs(", ", out);
    qsb_html_text(out, a->date);
    fputs(", <code>", out);
    qsb_html_text(out, a->command_line);
    fputs("</code>. Stack in bytes below the caller's frame; worst case: comparisons on "
          "McIlroy's adversary / (n log2 n); broken comparators: the verdict with each.</p>\n",
          out);
    fputs("<table class=\"audit\">\n<thead><tr><th>algorithm</th><th>stable</th>"
          "<th>allocates</th><th class=\"num\">max bytes</th><th class=\"num\">stack</th>"
          "<th>worst case</th><th>broken comparators</th><th>contradictions</th></tr></thead>"
          "\n<tbody>\n",
          out);
    for (size_t i = 0; i < a->n; i++) {
        const qsb_audit_line *l = &a->lines[i];
        fputs("<tr>", out);
        put_audit_cell(out, l->label, false);
        put_audit_cell(out, l->stable, false);
        put_audit_cell(out, l->allocates, false);
        put_audit_cell(out, l->max_bytes, true);
        put_audit_cell(out, l->stack, true);
        put_audit_cell(out, l->worst_case, false);
        put_audit_cell(out, l->broken, false);
        put_audit_cell(out, l->contradictions, false);
        fputs("</tr>\n", out);
    }
    fputs("</tbody></table>\n</section>\n", out);
}

/* ---- a history's trend ----
** The trend section (#history): a history of runs (`report --history FILE`) as one chart per
** machine and cell, the paired delta of each candidate run by run in commit order with its 95%
** interval, the runs whose processes ran at separated speeds marked and named, the steps `history
** detect` finds drawn as dashed lines and listed in a table. The history layer fills the trend
** (trend.h, of the results layer below both); this file only lays it out, and draws through
** plots/trend.gp. */

#define COMMIT_SHOWN 12 /* a commit's first characters on the axis and in the table */

/* A text as one word of a gnuplot word list: printable ASCII but quotes and '#', the rest '_'
** (no blank splits it, no control byte or invalid UTF-8 reaches the SVG), at most max bytes. */
static void put_word(FILE *fp, const char *text, size_t max)
{
    size_t k = 0;
    for (const char *p = text ? text : "?"; *p && k < max; p++, k++)
        fputc(*p > ' ' && *p < 127 && *p != '"' && *p != '\'' && *p != '#' ? *p : '_', fp);
    if (k == 0)
        fputc('?', fp);
}

static void put_number(FILE *fp, double v)
{
    if (isfinite(v))
        fprintf(fp, " %.6g", v);
    else
        fputs(" NaN", fp);
}

/* The chart's data: a block per line, "x delta lo hi states". */
static void write_data(FILE *fp, const qsb_trend_cell *c)
{
    for (size_t l = 0; l < c->nlines; l++) {
        const qsb_trend_line *line = &c->lines[l];
        for (size_t i = 0; i < line->n; i++) {
            const qsb_trend_point *p = &line->points[i];
            fprintf(fp, "%zu", p->x);
            put_number(fp, p->delta_pct);
            put_number(fp, p->lo);
            put_number(fp, p->hi);
            fprintf(fp, " %d\n", p->states ? 1 : 0);
        }
        fputs("\n\n", fp);
    }
}

/* The word lists of the script's arguments, each in a memory stream's buffer. */
typedef struct {
    char *algorithms, *commits, *step_x, *step_text;
} trend_words;

static char *word_list(const qsb_trend_cell *c, int which)
{
    char *text = NULL;
    size_t len = 0;
    FILE *fp = open_memstream(&text, &len);
    if (!fp)
        return NULL;
    size_t n = which == 0 ? c->nlines : which == 1 ? c->ncommits : c->nsteps;
    size_t shown = 0;
    for (size_t i = 0; i < n; i++) {
        const qsb_trend_step *s = which >= 2 ? &c->steps[i] : NULL;
        if (s && strcmp(s->view, "delta") != 0)
            continue; /* the chart shows deltas: steps of the medians are in the table only */
        fputs(shown++ ? " " : "", fp);
        if (which == 0)
            put_word(fp, c->lines[i].algorithm, 64);
        else if (which == 1)
            put_word(fp, c->commits[i], COMMIT_SHOWN);
        else if (which == 2)
            fprintf(fp, "%.1f", (double)s->after_x - 0.5);
        else {
            put_word(fp, s->algorithm, 32);
            fprintf(fp, ":%+.1f%%", s->change_pct);
        }
    }
    return fclose(fp) == 0 ? text : (free(text), NULL);
}

static void words_free(trend_words *w)
{
    free(w->algorithms);
    free(w->commits);
    free(w->step_x);
    free(w->step_text);
}

static int draw_cell(const qsb_trend_cell *c, size_t index, qsb_chart_dir *d)
{
    char data[4200], chart[4200], title[512], pattern[QSB_QUOTE_MAX + 1],
        machine[QSB_QUOTE_MAX + 1], metric[QSB_QUOTE_MAX + 1];
    snprintf(data, sizeof data, "%s/trend-%zu.dat", d->dir, index);
    snprintf(chart, sizeof chart, "%s/trend-%zu.svg", d->dir, index);
    /* names escaped as the charts' titles are (plot.c): no control byte reaches the SVG */
    snprintf(title, sizeof title, "%s, %" PRIu64 " x %" PRIu64 " bytes, on %s",
             qsb_escape(pattern, sizeof pattern, c->pattern, "\\"), c->nelem, c->size,
             qsb_escape(machine, sizeof machine, c->machine, "\\"));
    FILE *fp = fopen(data, "w");
    if (!fp)
        return qsb_error(QSB_ESYSTEM, "cannot create '%s': %s", qsb_quote_path(data),
                         strerror(errno));
    write_data(fp, c);
    if (fclose(fp) != 0)
        return qsb_error(QSB_ESYSTEM, "cannot write '%s': %s", qsb_quote_path(data),
                         strerror(errno));
    trend_words w = {word_list(c, 0), word_list(c, 1), word_list(c, 2), word_list(c, 3)};
    int status = w.algorithms && w.commits && w.step_x && w.step_text
                     ? QSB_OK : qsb_out_of_memory("trend chart");
    if (status == QSB_OK) {
        const char *args[] = {data, chart, "svg", title,
                              qsb_escape(metric, sizeof metric, c->metric, "\\"), w.algorithms,
                              w.commits, w.step_x, w.step_text};
        status = qsb_plot_run_script("trend.gp", args, sizeof args / sizeof *args, chart,
                                     "the trend chart");
    }
    words_free(&w);
    unlink(data);
    if (status == QSB_OK)
        fprintf(d->stream, "%s\n", chart);
    return status;
}

static void put_steps_table(FILE *out, const qsb_trend *t)
{
    size_t nsteps = 0;
    for (size_t i = 0; i < t->ncells; i++)
        nsteps += t->cells[i].nsteps;
    if (nsteps == 0) {
        fputs("<p>No step in any series.</p>\n", out);
        return;
    }
    fputs("<table class=\"steps\">\n<thead><tr><th>cell</th><th>machine</th><th>algorithm</th>"
          "<th>series</th><th>before</th><th>after</th><th class=\"num\">change</th>"
          "<th class=\"num\">95% interval</th></tr></thead>\n<tbody>\n",
          out);
    for (size_t i = 0; i < t->ncells; i++) {
        const qsb_trend_cell *c = &t->cells[i];
        for (size_t k = 0; k < c->nsteps; k++) {
            const qsb_trend_step *s = &c->steps[k];
            fputs("<tr><td>", out);
            qsb_html_cell(out, c->pattern, c->nelem, c->size);
            fputs("</td><td>", out);
            qsb_html_text(out, c->machine);
            fputs("</td><td>", out);
            qsb_html_text(out, s->algorithm);
            fprintf(out, "</td><td>%s</td><td class=\"mono\">", s->view);
            qsb_html_text(out, s->before);
            fputs("</td><td class=\"mono\">", out);
            qsb_html_text(out, s->after);
            fprintf(out, "</td><td class=\"num %s\">%+.2f%%</td><td class=\"num\">[%+.2f, "
                         "%+.2f]</td></tr>\n",
                    s->lo > 0 ? "slower" : s->hi < 0 ? "faster" : "", s->change_pct, s->lo,
                    s->hi);
        }
    }
    fputs("</tbody></table>\n", out);
}

/* The runs of the cell whose processes ran at separated speeds, named. */
static void put_cell_states(FILE *out, const qsb_trend_cell *c)
{
    for (size_t l = 0; l < c->nlines; l++)
        for (size_t i = 0; i < c->lines[l].n; i++) {
            const qsb_trend_point *p = &c->lines[l].points[i];
            if (!p->states)
                continue;
            fputs("<p class=\"states\"><code>", out);
            qsb_html_text(out, c->commits[p->x]);
            fputs("</code> ", out);
            qsb_html_text(out, c->lines[l].algorithm);
            fputs(": ", out);
            qsb_html_text(out, p->states);
            fputs("</p>\n", out);
        }
}

static int put_cell(FILE *out, const qsb_trend_cell *c, size_t index, unsigned *chart_no)
{
    fputs("<h3>", out);
    qsb_html_cell(out, c->pattern, c->nelem, c->size);
    fputs(" on ", out);
    qsb_html_text(out, c->machine);
    fprintf(out, "</h3>\n");
    if (c->nlines == 0) {
        fputs("<p>Only the baseline: no delta to follow.</p>\n", out);
        return QSB_OK;
    }
    qsb_chart_dir d;
    int status = qsb_chart_dir_open(&d);
    if (status != QSB_OK)
        return status;
    status = draw_cell(c, index, &d);
    int inlined = qsb_chart_dir_inline(out, &d, chart_no);
    put_cell_states(out, c);
    return status != QSB_OK ? status : inlined;
}

/* Writes the section, drawing each cell's chart through gnuplot (the report's temporary
** directory, report_charts.h). QSB_OK or QSB_ESYSTEM (reported). Numbers never depend on the
** locale: the tool never sets one, so printf's decimal point is '.'. */
static int put_trend(FILE *out, const qsb_trend *t, unsigned *chart_no)
{
    fputs("<section id=\"history\">\n<h2>History</h2>\n<p>From <code>", out);
    qsb_html_text(out, t->source);
    fprintf(out, "</code>: %zu runs, %zu cells. Per cell the paired delta of each candidate "
                 "against the baseline, run by run in commit order, with its 95%% interval; "
                 "steps found by ",
            t->nruns, t->ncells);
    qsb_html_text(out, t->method);
    fputs(".</p>\n", out);
    put_steps_table(out, t);
    int status = QSB_OK;
    for (size_t i = 0; i < t->ncells && status == QSB_OK; i++)
        status = put_cell(out, &t->cells[i], i, chart_no);
    if (t->ncells == 0)
        fputs("<p>The history holds no run.</p>\n", out);
    fputs("</section>\n", out);
    return status;
}

/* ---- the page ---- */

static void put_title(FILE *out, const qsb_html_page *p)
{
    fputs("<header>\n<h1>qsortbench: ", out);
    if (p->run) {
        put_subject(out, p->run);
        fputs(" on ", out);
        qsb_html_text(out, qsb_machine_name(&p->run->context));
    } else if (!p->fleet) {
        fputs("history of ", out);
        qsb_html_text(out, p->trend ? p->trend->source : "?");
    } else {
        put_subject(out, &p->fleet[0]);
        fprintf(out, " on %zu machines", p->fleet_n);
    }
    fputs("</h1>\n</header>\n", out);
}

/* The run's states in its summary: each algorithm that ran at separated speeds, with the share
** of the processes in each state, as the run's last lines say it. */
static void put_states_summary(FILE *out, const qsb_results *r)
{
    size_t algorithms = r->ncells ? r->cells[0].nrows : 0;
    for (size_t i = 0; i < algorithms; i++) {
        char words[512];
        if (qsb_states_summary(r, i, words, sizeof words) == 0)
            continue;
        fputs("<p class=\"states\">", out);
        qsb_html_text(out, words);
        fputs(".</p>\n", out);
    }
}

static int put_run(FILE *out, const qsb_html_page *p, unsigned *chart_no)
{
    fputs("<section id=\"run\">\n<h2>What was run</h2>\n", out);
    put_facts(out, p->run, p->run_name);
    fputs("</section>\n<section id=\"results\">\n<h2>Paired deltas against the baseline</h2>\n",
          out);
    put_legend(out, p->run);
    put_states_summary(out, p->run);
    put_results_tables(out, p->run);
    fputs("</section>\n<section id=\"charts\">\n<h2>Charts</h2>\n", out);
    int status = draw_run_charts(out, p->run, chart_no);
    fputs("</section>\n", out);
    return status;
}

int qsb_report_html(FILE *out, const qsb_html_page *p)
{
    unsigned chart_no = 0;
    const char *title = p->run ? qsb_machine_name(&p->run->context) : p->fleet ? "fleet"
                                                                                : "history";
    char head[256];
    snprintf(head, sizeof head, "qsortbench report: %s", title);
    put_head(out, head);
    put_title(out, p);
    int status = p->run ? put_run(out, p, &chart_no) : QSB_OK;
    if (status == QSB_OK && p->run && p->base)
        status = put_compare(out, p);
    if (status == QSB_OK && p->fleet)
        status = put_fleet(out, p, &chart_no);
    if (status == QSB_OK && p->trend)
        status = put_trend(out, p->trend, &chart_no);
    if (status == QSB_OK && p->audit)
        put_audit(out, p);
    fputs("<footer><p class=\"muted\">Written by qsortbench report. One file: no script, no "
          "external resource.</p></footer>\n</body>\n</html>\n",
          out);
    return status;
}
