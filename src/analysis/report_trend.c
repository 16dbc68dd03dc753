/*
** The trend section of the report (report_trend.h). Numbers never depend on the locale: the
** tool never sets one, so printf's decimal point is '.'.
*/
#include "report_trend.h"

#include <errno.h>
#include <inttypes.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "diag.h"
#include "plot.h"
#include "report_charts.h"

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

int qsb_report_trend(FILE *out, const qsb_trend *t, unsigned *chart_no)
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
