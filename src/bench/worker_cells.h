/*
** The cells of a run's later worker processes (workers.h): what the finished workers measured
** and what their visits cost, and from that which cells the next worker visits after the
** run's minimum. No processes and no clock here: the tally is filled by the workers' parent
** as their results come in, and the choice is a function of it, the precision target and the
** seconds left.
*/
#ifndef QSB_WORKER_CELLS_H
#define QSB_WORKER_CELLS_H

#include <stddef.h>
#include <stdint.h>

#include "pool.h"
#include "result.h"

#define QSB_NO_CELL SIZE_MAX

typedef struct {
    qsb_merge_input *runs; /* the finished workers' results; runs[0] visited every cell */
    size_t n;
    size_t **where;        /* per finished worker, per cell of the first: the cell's index in
                           ** that worker's results, or QSB_NO_CELL */
    double *cost_s;        /* per cell of the first worker: seconds of its visits */
    size_t *costed;        /* ... over this many visits */
    double *cost_max_s;    /* ... the longest of them: whether a visit still fits */
    size_t *visits;        /* per cell of the first worker: the processes that visited it */
    size_t *pending;       /* ... and the workers in flight that visit it (several workers
                           ** at once: their visits are counted before their results come) */
    size_t pending_all;    /* workers in flight that visit every cell */
} qsb_worker_tally;

/* Worker r's (runs[r], just added) wall time, less start_s, shared among its cells as their
** timed sorts were: what a visit of a cell costs. */
void qsb_tally_add_costs(qsb_worker_tally *t, size_t r, double wall_s, double start_s);

/* How far the first worker's cell c is from the precision target (its widest interval over
** the target: > 1 wider); 0 when it needs no more processes. Without a target (0), its widest
** interval. */
double qsb_tally_cell_need(const qsb_worker_tally *t, size_t c, double precision_pct);

/* The cells of the next process after the minimum into cells[] (the first worker's indexes):
** every cell that still needs processes while left_s holds them all and a process's start
** (start_s); else those that fit, where a visit narrows the intervals most for its time first.
** Returns how many (0: no process). */
size_t qsb_tally_choose_cells(const qsb_worker_tally *t, double precision_pct, double start_s,
                              double left_s, size_t *cells);

/* Where the finished workers show states (states.h) at the cell furthest from the precision
** target among those with states: each state's processes so far into got[] and the processes
** it would need (state_needs.h) into need[] (QSB_STATES_MAX each). Returns how many states
** (0: no cell shows states, or no target). For the progress line. */
size_t qsb_tally_state_needs(const qsb_worker_tally *t, double precision_pct, size_t *got,
                             size_t *need);

/* A worker in flight visits ncells cells (cells NULL: every one), counted in `pending` while
** it runs (by: +1 at its start, -1 at its end). */
void qsb_tally_pending(qsb_worker_tally *t, const size_t *cells, size_t ncells, int by);

/* Frees what the tally holds (its results too). */
void qsb_tally_free(qsb_worker_tally *t);

#endif
