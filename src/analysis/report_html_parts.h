/*
** Between the HTML page's files (report_html.c and its sections); nobody else.
*/
#ifndef QSB_REPORT_HTML_PARTS_H
#define QSB_REPORT_HTML_PARTS_H

#include <stdio.h>

#include "report_html.h"

/* A median as the text table shows it: whole numbers from 1000 on; a dash when unknown. */
void qsb_html_value(FILE *out, double v);
/* An interval of a change, in points; a dash when unknown. */
void qsb_html_interval(FILE *out, double lo, double hi);

/* The section comparing p->run with p->base. QSB_OK, or the comparison's failure. */
int qsb_html_compare(FILE *out, const qsb_html_page *p);

#endif
