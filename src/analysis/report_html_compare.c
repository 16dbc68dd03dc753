/*
** The page's section of a comparison with an earlier run (report_html_parts.h): the verdicts
** of compare.h, one row a matched row, and the summary above them.
*/
#include <inttypes.h>
#include <math.h>

#include "compare.h"
#include "diag.h"
#include "report_html_parts.h"

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
    qsb_html_text(out, c->pattern);
    fprintf(out, " %" PRIu64 " &times; %" PRIu64 "</td><td>", c->nelem, c->size);
    qsb_html_text(out, c->algorithm);
    fputs("</td><td class=\"num\">", out);
    qsb_html_value(out, c->base_value);
    fputs("</td><td class=\"num\">", out);
    qsb_html_value(out, c->new_value);
    fputs("</td><td class=\"num\">", out);
    if (isfinite(c->change_pct))
        fprintf(out, "%+.2f%%", c->change_pct);
    else
        fputs("&ndash;", out);
    fputs("</td><td class=\"num\">", out);
    qsb_html_interval(out, c->change_lo, c->change_hi);
    fputs("</td><td class=\"num\">", out);
    /* the p of the verdict's side: faster for an improvement, slower otherwise */
    double p = c->verdict == QSB_VERDICT_IMPROVED ? c->p_faster_adjusted : c->p_adjusted;
    if (isfinite(p))
        fprintf(out, "%.3g", p);
    else
        fputs("&ndash;", out);
    fprintf(out, "</td><td class=\"%s\">", verdict_class(c->verdict));
    qsb_html_text(out, qsb_verdict_name(c->verdict));
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
    fprintf(out, "<p>Verdict: <span class=\"%s\">%s</span> &mdash; %zu regression, %zu "
                 "improved, %zu same, %zu unresolved, %zu failed, %zu in one file only.",
            status == QSB_OK ? "verdict-pass" : "verdict-fail", status == QSB_OK ? "pass" : "fail",
            rep->count[QSB_VERDICT_REGRESSION], rep->count[QSB_VERDICT_IMPROVED],
            rep->count[QSB_VERDICT_SAME], rep->count[QSB_VERDICT_UNRESOLVED],
            rep->count[QSB_VERDICT_FAILED],
            rep->count[QSB_VERDICT_ONLY_BASE] + rep->count[QSB_VERDICT_ONLY_NEW]);
    if (rep->ndiffers) {
        fputs(" The contexts differ in:", out);
        for (size_t i = 0; i < rep->ndiffers; i++)
            fprintf(out, "%s %s", i ? "," : "", rep->differs[i]);
        fputc('.', out);
    }
    fputs("</p>\n", out);
}

int qsb_html_compare(FILE *out, const qsb_html_page *p)
{
    qsb_compare_report rep;
    int status = qsb_compare_results(p->base, p->run, &p->compare, &rep);
    if (status != QSB_OK)
        return status;
    fputs("<section id=\"compare\">\n<h2>Compared with an earlier run</h2>\n", out);
    put_compare_summary(out, p, &rep, qsb_compare_status(&rep, QSB_COMPARE_LENIENT));
    fprintf(out, "<table class=\"verdicts\">\n<thead><tr><th>cell</th><th>algorithm</th>"
                 "<th class=\"num\">BASE</th><th class=\"num\">NEW</th><th class=\"num\">"
                 "change</th><th class=\"num\">95%% interval</th><th class=\"num\">p adj.</th>"
                 "<th>verdict</th></tr></thead>\n<tbody>\n");
    for (size_t i = 0; i < rep.n && status == QSB_OK; i++) {
        qsb_comparison it;
        status = qsb_compare_item(&rep, i, &it);
        if (status == QSB_OK)
            put_comparison(out, &it);
    }
    fputs("</tbody></table>\n</section>\n", out);
    qsb_compare_report_free(&rep);
    return status;
}
