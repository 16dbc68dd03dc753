/*
** What every section of the report's page (report_html.h) uses: its text HTML-escaped, and its
** charts as inline SVG: a private temporary directory that the chart writers (plot.h,
** fleet_view.h, the trend section) draw into, naming each chart they write on the directory's
** stream, then every chart listed inlined in the page in a figure with its caption, its ids
** made unique in the page, and the files and directory removed. Below the page and its
** sections, so that none of them calls back into another.
*/
#ifndef QSB_REPORT_CHARTS_H
#define QSB_REPORT_CHARTS_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

typedef struct {
    char dir[4096];
    char *list;     /* the charts written, one path a line (plot.h's report stream) */
    size_t list_len;
    FILE *stream;   /* where the writers name their charts */
} qsb_chart_dir;

/* Makes the directory under $TMPDIR (or /tmp). QSB_OK or QSB_ESYSTEM (reported). */
int qsb_chart_dir_open(qsb_chart_dir *d);

/* Inlines every chart named on d->stream, in order, each in a figure captioned by what its
** name says it is; removes the files and the directory. *chart_no numbers the charts of the
** page (their ids' prefix). QSB_OK or QSB_ESYSTEM (a chart unreadable, reported). */
int qsb_chart_dir_inline(FILE *out, qsb_chart_dir *d, unsigned *chart_no);

/* Writes text HTML-escaped: & < > " ' as entities, control bytes as U+FFFD. */
void qsb_html_text(FILE *out, const char *text);

/* Writes a cell's name as every table and heading of the page gives it: "PATTERN N &times; S",
** the pattern escaped. */
void qsb_html_cell(FILE *out, const char *pattern, uint64_t nelem, uint64_t size);

#endif
