/*
** The report's trend section (#history, report_html.h): a history of runs (`report --history
** FILE`) as one chart per machine and cell, the paired delta of each candidate run by run in
** commit order with its 95% interval, the runs whose processes ran at separated speeds marked
** and named, the steps `history detect` finds drawn as dashed lines and listed in a table.
** The history layer fills the trend (trend.h, of the results layer below both); this file
** only lays it out, and draws through plots/trend.gp.
*/
#ifndef QSB_REPORT_TREND_H
#define QSB_REPORT_TREND_H

#include <stdio.h>

#include "trend.h"

/* Writes the section, drawing each cell's chart through gnuplot (the report's temporary
** directory, report_charts.h). QSB_OK or QSB_ESYSTEM (reported). */
int qsb_report_trend(FILE *out, const qsb_trend *trend, unsigned *chart_no);

#endif
