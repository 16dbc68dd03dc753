/*
** Each machine's run level, learned from its history: for every row (cell and algorithm) of
** one machine and metric, the between-run spread of its delta (candidates) and of its median,
** from the last N runs' estimates and their own intervals (random_effects.h), each row's
** shrunk toward the machine's pooled level where it has few runs. Under QSB_LEVEL_MIN_RUNS
** runs a row's level is unknown, never 0. docs/measurement.md, "The run level from history".
*/
#ifndef QSB_RUN_LEVEL_H
#define QSB_RUN_LEVEL_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "history.h"
#include "random_effects.h"
#include "states.h"

#define QSB_HISTORY_LAST_RUNS 30 /* runs of a row a level is learned from, by default */

/* One run's states of a candidate row, as the history holds them (rounded). */
typedef struct {
    size_t n;
    qsb_state_estimate s[QSB_STATES_MAX];
} qsb_run_states;

/* What a row's history says, on the log scale. */
typedef struct {
    char *pattern, *algorithm; /* owned */
    uint64_t nelem, size;
    bool baseline;             /* the runs' baseline: judged by its median */
    int64_t last_run_id;       /* the newest run of the row used */
    qsb_random_effects delta;  /* over the runs' log(1 + delta) (candidates) */
    qsb_random_effects median; /* over the runs' log medians */
    double delta_tau2, median_tau2; /* shrunk toward the machine's pooled levels */
    /* The runs' estimates and within-run variances the fits are of (owned: y and v of a view
    ** in one block, delta.k and median.k of them), the variances as scaled (below). */
    double *delta_y, *delta_v, *median_y, *median_v;
    qsb_run_states *states;    /* a candidate's last runs with states, newest first (owned) */
    size_t nstates;
} qsb_row_level;

typedef struct {
    qsb_row_level *rows;
    size_t n;
    double pooled_delta_tau2, pooled_median_tau2; /* the rows' mean tau^2 (NAN: none) */
    /* Each view's within-run variances are multiplied by its scale: the view's dispersion,
    ** Cochran's Q summed over its rows of 5 runs or more over their summed k - 1 (a Birge
    ** ratio), where it is below 1 over QSB_DISPERSION_MIN_DF or more: the runs' own intervals
    ** are then wider than their scatter around each row's mean. 1 otherwise. A new run's
    ** interval is of the same procedure, so the gate scales its variance alike. */
    double delta_scale, median_scale;
    size_t runs;      /* the machine's runs of that metric in the history */
} qsb_run_levels;

/* The levels of machine's rows measured in metric, from each row's last last_n runs that
** have an interval. QSB_OK or an error (reported). */
int qsb_history_run_levels(qsb_history *h, const char *machine, const char *metric,
                           size_t last_n, qsb_run_levels *out);
void qsb_run_levels_free(qsb_run_levels *levels);

/* The row of that cell and algorithm; NULL when the history has none. */
const qsb_row_level *qsb_run_levels_find(const qsb_run_levels *levels, const char *pattern,
                                         uint64_t nelem, uint64_t size, const char *algorithm);

/* A row's level as a 95% half-width in percent, of the delta (candidates) or the median
** (the baseline); NAN when unknown (under QSB_LEVEL_MIN_RUNS runs). */
double qsb_row_level_pct(const qsb_row_level *row);

/* compare --history: the machine's level in the history at path of one view, the deltas (the
** candidates' rows) or the medians (every row), over each row's last QSB_HISTORY_LAST_RUNS
** runs: the median over its rows with a known level into *pct, NAN when none. QSB_OK or an
** error (reported: the database, or a machine it does not hold). */
int qsb_history_view_level(const char *path, const char *machine, const char *metric,
                           bool deltas, double *pct);

/* The machine's level: the median over its rows with a known level; NAN when none. */
double qsb_run_levels_median_pct(const qsb_run_levels *levels);

#endif
