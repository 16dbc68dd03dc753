/*
** `report --history FILE`: the history database read into the report's trend section
** (report_trend.h): every series of candidate deltas per machine and cell, each cell's runs
** in commit order as its axis, the states of each run in words, and the steps `history
** detect` finds in each series (detect.h). It joins the history layer and the report's.
*/
#ifndef QSB_REPORT_HISTORY_H
#define QSB_REPORT_HISTORY_H

#include "report_trend.h"

/* Reads the database at path (which must exist). QSB_OK, QSB_EUSAGE (a bad database) or
** QSB_ESYSTEM, reported. The trend is freed with qsb_trend_free (also after a failure). */
int qsb_trend_load(const char *path, qsb_trend *out);
void qsb_trend_free(qsb_trend *t);

#endif
