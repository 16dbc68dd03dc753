/*
** The trend a history of runs gives (`report --history FILE`): per machine and cell, the
** paired delta of each candidate run by run in commit order, the states of each run in words
** and the steps found in each series. The history layer makes it (history.h,
** qsb_trend_load), the report lays it out (report_html.c); it is declared here, below both.
*/
#ifndef QSB_TREND_H
#define QSB_TREND_H

#include <stddef.h>
#include <stdint.h>

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

#endif
