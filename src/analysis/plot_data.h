/*
** What the charts' data files and titles share (plot_data.c): a name from a results file as a
** chart shows it.
*/
#ifndef QSB_PLOT_DATA_H
#define QSB_PLOT_DATA_H

#include "diag.h"
#include "plot.h"

/* A name from the results file in a data file's comment or a chart title: escaped (diag.h)
** and cut like a quoted value, so that no name can end the comment line early (a newline in
** a CSV field would add a data row) or put control bytes and invalid UTF-8 into a chart (an
** SVG with them is not XML). Titles need no gnuplot quoting beyond this: they reach gnuplot
** as ARGn strings, which it never evaluates, and the scripts set noenhanced. */
const char *qsb_plot_shown(char buf[QSB_QUOTE_MAX + 1], const char *text);

#endif
