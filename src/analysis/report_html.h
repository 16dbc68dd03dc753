/*
** One self-contained HTML page of results (`qsortbench report`, `run --report FILE`): styles
** inline, charts as inline SVG drawn by gnuplot's svg terminal (plot.h, fleet_view.h), no
** script, no external resource of any kind (a Content-Security-Policy of default-src 'none'
** says so to the browser too). Sections, in this order, each present when its input is:
**
**   #run      what was run: command line, machine, build, metric and timer, seed, budget,
**             repetitions, date (the results' context)
**   #results  per pattern a table in the cover letter's layout: per cell and candidate the
**             paired delta, its 95% interval, both medians, "no significant change" and
**             "~noisy" markers, failed sorts
**   #charts   the deltas chart of each candidate, the scaling chart, the comparisons chart
**   #compare  a second run compared with this one as `compare BASE NEW` (compare.h): the
**             threshold, the Holm-adjusted (or chosen) correction, every row's verdict
**   #fleet    a fleet file: a section per machine (its context and its table), then the
**             fleet's charts (a bar or line per machine)
**   #history  a history database's trend: per cell the deltas over commits, the steps found
**             (the trend: trend.h)
**   #audit    an audit file's table (audit_file.h)
**
** Every text taken from a file is HTML-escaped (the files are untrusted input). Tables are
** narrow enough for a laptop screen, and long words (command lines, flags) wrap.
*/
#ifndef QSB_REPORT_HTML_H
#define QSB_REPORT_HTML_H

#include <stddef.h>
#include <stdio.h>

#include "audit_file.h"
#include "compare.h"
#include "result.h"
#include "trend.h"

typedef struct {
    const qsb_results *run;       /* the run the page is about; NULL: a fleet or history page */
    const char *run_name;         /* its file as the page names it */
    const qsb_results *base;      /* a second run, compared: BASE of compare; NULL: none */
    const char *base_name;
    qsb_compare_options compare;  /* threshold, alpha, correction, normalize */
    const qsb_results *fleet;     /* a fleet's machines; NULL: none */
    size_t fleet_n;
    const char *fleet_name;
    const qsb_audit_file *audit;  /* NULL: none */
    const char *audit_name;
    const qsb_trend *trend;       /* a history's trend; NULL: none */
} qsb_html_page;

/* Writes the page. Draws the charts through gnuplot in a private temporary directory (removed
** afterwards). Returns QSB_OK, or the status of what failed (reported): QSB_ESYSTEM for
** gnuplot or memory, QSB_EUSAGE for results compare refuses (different metrics). */
int qsb_report_html(FILE *out, const qsb_html_page *page);

#endif
