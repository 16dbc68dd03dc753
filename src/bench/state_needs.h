/*
** How many processes each state of a run got, and how many it would need for --precision:
** for the run's last lines (runner.c) and what a later run should spend. A state's delta
** interval narrows about as 1/sqrt(its processes), so a state of m processes whose interval
** is h% wide (half-width, % of the paired ratio) reaches p% with about m (h/p)^2 of them, and
** never with fewer than QSB_STATE_MIN_UNITS (under that it has no interval: "too few"). The
** figures are the medians over the candidates' rows with the most states, state by state
** (fastest first), so one line speaks for the run.
*/
#ifndef QSB_STATE_NEEDS_H
#define QSB_STATE_NEEDS_H

#include <stddef.h>

#include "result.h"
#include "states.h"

#define QSB_STATE_NEED_CAP 100000 /* "more than" this many: too far to say */

typedef struct {
    size_t states;                /* 0: no row with states */
    size_t rows;                  /* the rows with that many states */
    size_t got[QSB_STATES_MAX];   /* per state: the median of its processes */
    size_t need[QSB_STATES_MAX];  /* ... and of the processes it would need */
} qsb_state_needs;

/* The processes a state of m processes with a half-width of h % would need for p %:
** ceil(m (h / p)^2), at least QSB_STATE_MIN_UNITS, at most QSB_STATE_NEED_CAP;
** QSB_STATE_MIN_UNITS when h is unknown (NAN: too few to have an interval). */
size_t qsb_state_need(size_t m, double half_pct, double precision_pct);

/* The needs of r's verified candidate rows with states for precision_pct (> 0). */
void qsb_state_needs_of(const qsb_results *r, double precision_pct, qsb_state_needs *out);

/* In words for the run's last lines: "the states got 12 / 9 / 4 processes (median over the 7
** rows with 3 states); +-1% would take about 20 / 15 / 40". Returns the length (0 and buf
** empty when no row has states). */
size_t qsb_state_needs_words(const qsb_state_needs *n, double precision_pct, char *buf,
                             size_t len);

#endif
