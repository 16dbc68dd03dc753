/*
** The report's trend section (#history, report_html.h): a history of runs (`report --history
** FILE`) as one chart per machine and cell, the paired delta of each candidate run by run in
** commit order with its 95% interval, the runs whose processes ran at separated speeds marked
** and named, the steps `history detect` finds drawn as dashed lines and listed in a table.
** The history layer fills these structures (the command joins the two layers); this file
** only lays them out, and draws through plots/trend.gp.
*/
#ifndef QSB_REPORT_TREND_H
#define QSB_REPORT_TREND_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

typedef struct {
    size_t x;                 /* the run's place on its cell's axis (commits) */
    double delta_pct, lo, hi; /* NAN when unknown */
    char *states;             /* the states in words (states_text.h), or NULL */
} qsb_trend_point;

typedef struct {
    char *algorithm;
    qsb_trend_point *points;  /* in commit order */
    size_t n;
} qsb_trend_line;

typedef struct {
    char *algorithm;
    const char *view;         /* "delta" or "median": which series the step is in */
    char *before, *after;     /* the last commit before it, the first after */
    size_t after_x;           /* the first run after it, on the cell's axis */
    double change_pct, lo, hi;
} qsb_trend_step;

typedef struct {
    char *machine, *pattern, *metric;
    uint64_t nelem, size;
    char **commits;           /* the axis: the cell's runs in commit order */
    size_t ncommits;
    qsb_trend_line *lines;    /* the candidates (baselines have no delta) */
    size_t nlines;
    qsb_trend_step *steps;
    size_t nsteps;
} qsb_trend_cell;

typedef struct {
    const char *source;       /* the database as the page names it */
    size_t nruns;
    const char *method;       /* how the steps were found, for the legend */
    qsb_trend_cell *cells;    /* (pattern, nelem, size, machine) order */
    size_t ncells;
} qsb_trend;

/* Writes the section, drawing each cell's chart through gnuplot (the report's temporary
** directory, report_charts.h). QSB_OK or QSB_ESYSTEM (reported). */
int qsb_report_trend(FILE *out, const qsb_trend *trend, unsigned *chart_no);

#endif
