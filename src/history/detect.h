/*
** Steps in the history: each (machine, metric, cell, algorithm) series looked at as a
** whole, its paired deltas and, as a second view, its medians, by the penalised step fit of
** changepoint.h. A point's variance is its run's own (from its 95% interval) plus the
** variance between runs that the series itself shows (qsb_between_variance): runs on a shared
** machine move more between them than their own intervals say. Steps are cut only between
** commits, and inside a series a step needs two points on each side, but the newest commit
** alone may be a step (the CI question: did the last commit make it slower?). How large that
** step must be for the fit to find it with 80% power is said per series: a lone step of d
** standard errors lowers the fit's cost by d squared, so it is found when d passes the root of
** the penalty, as a one-sided test at that point would.
*/
#ifndef QSB_DETECT_H
#define QSB_DETECT_H

#include <stddef.h>
#include <stdint.h>

#include "history.h"

typedef enum { QSB_VIEW_DELTA, QSB_VIEW_MEDIAN } qsb_series_view;

typedef struct {
    char *machine, *pattern, *algorithm, *metric_unit;
    uint64_t nelem, size;
    qsb_series_view view;
    char *before, *after; /* the last commit before the step, the first after it */
    size_t after_index;   /* the first point after it, in the series' points */
    double change_pct;    /* the later level against the earlier one, % */
    double lo, hi;        /* its 95% interval, % */
    int at_newest;        /* the step's first commit after is the series' newest */
    int gates;            /* a step of the view that decides detect's exit: the deltas, or
                          ** the medians of a series without deltas (a baseline's) */
} qsb_step;

/* A gating series' newest commit as a step would be tested: the standard error of its points'
** mean against the mean of all before them and a point's standard deviation (log scale), the
** share of a point's variance that its own interval holds, the series' points and those of its
** newest commit. */
typedef struct {
    double se, point_sd, own_share;
    size_t n, newest;
} qsb_series_reach;

typedef struct {
    qsb_step *steps;
    size_t n, cap;
    qsb_series_reach *seen; /* each gating series with two commits or more */
    size_t nseen, seen_cap;
} qsb_step_list;

void qsb_step_list_free(qsb_step_list *list);

/* The steps of one series (both views), appended to list. QSB_OK or QSB_ESYSTEM. */
int qsb_detect_series(const qsb_history_series *series, qsb_step_list *list);

/* The steps of every series of the database (of one machine when machine is not NULL), of
** its complete runs or of every run. */
int qsb_detect_all(qsb_history *h, const char *machine, qsb_history_runs_taken runs,
                   qsb_step_list *list);

/* The smallest slower step at the newest commit that detect fails on in 4 series of 5 (found,
** and slower than threshold_pct), for the series of the median standard error, in %: found by
** simulating that series' own estimates (its length, its newest points, its share of own
** variance) on flat series with a step planted, because the between-runs variance is
** estimated from the series itself and its uncertainty costs power that a normal's quantiles
** do not show. NAN when no series has two commits. */
double qsb_steps_detectable_pct(const qsb_step_list *steps, double threshold_pct);

/* A step that fails detect: gating, at the series' newest commit, slower than
** threshold_pct. */
int qsb_step_fails(const qsb_step *step, double threshold_pct);

#define QSB_STEP_Z 1.959963984540054 /* the normal's 97.5% point: the steps' 95% intervals */

#endif
