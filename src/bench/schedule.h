/*
** How a run spends its time, as pure functions: no clock inside (times are passed in, so tests
** drive them with fake ones), no I/O.
**
** The run visits the cells sweep after sweep; each visit of a cell is one unit of it (a
** placement: placement.h). The schedule decides, before each sweep, which cells it visits:
**   1. every cell with fewer than min_units units, in matrix order: the minimum, without
**      which a cell has no interval (stats.h, units); a cell's first unit always runs, the
**      others of the minimum while the budget's seconds left hold them;
**   2. then, while the budget lasts, the cells whose widest interval is above the precision
**      target, widest first, as many as fit into the seconds left at their cost so far;
**   3. nothing: the run ends (with --reps N, after the minimum: N rounds spread over
**      min(N, min_units) units).
** A visit runs rounds for `slice_s` seconds (at least one round), or the cell's share of --reps.
*/
#ifndef QSB_SCHEDULE_H
#define QSB_SCHEDULE_H

#include <stdbool.h>
#include <stddef.h>

typedef struct {
    size_t min_units;     /* units every cell gets (QSB_MIN_UNITS) */
    size_t max_units;     /* no cell gets more */
    double precision_pct; /* target half-width of every interval, % of its estimate (0: none,
                          ** every cell while the budget lasts: a gate, plan.h) */
    double budget_s;      /* seconds for the whole run; 0 = no budget (--reps) */
} qsb_schedule_policy;

#define QSB_DEFAULT_PRECISION_PCT 1.0
#define QSB_MAX_UNITS 64

/* Where a cell stands. */
typedef struct {
    size_t units;         /* units so far */
    double precision_pct; /* its widest interval (medians and paired ratios), % of the
                          ** estimate; INFINITY while it has none */
    double visit_s;       /* seconds one visit of it costs (measured, or estimated) */
} qsb_cell_state;

/* The cells to visit in the next sweep, into order[] (indices into cells); returns how many.
** remaining_s: seconds left of the budget. */
size_t qsb_schedule_sweep(const qsb_schedule_policy *p, const qsb_cell_state *cells, size_t n,
                          double remaining_s, size_t *order);

/* Can a cell be visited more than once? Not when every cell gets one unit and no budget buys
** more (a worker process, --metric comparisons). */
bool qsb_schedule_revisits(const qsb_schedule_policy *p);

/* Rounds of unit `unit` (from 0) of a cell under --reps N: N spread evenly over
** min(N, min_units) units; 0 past the last unit. */
size_t qsb_reps_rounds_of_unit(size_t reps, size_t min_units, size_t unit);

/* The seconds a run needs at least: every cell min_units visits of max(slice_s, its round)
** plus, once, its first visit's extra work (first_s[i]: counted sorts, probes). */
double qsb_schedule_minimum_s(const double *round_s, const double *first_s, size_t n,
                              size_t min_units, double slice_s);

/* ---- timing details of a sample (docs/measurement.md, the visit) ---- */

#define QSB_BATCH_RESOLUTION_FACTOR 1000.0
#define QSB_BATCH_MAX 1000000u

/* How many sorts to time back to back as one sample, so that a sample lasts at least
** max(1000 * resolution, min_sample): ceil(target / one_sort), at least 1 and at most
** QSB_BATCH_MAX. All three in the same unit (e.g. ns). A one_sort estimate of 0 (the first
** measurement did not tick the clock) counts as one resolution step, which gives a lower
** bound: measure again with that batch and ask again. */
unsigned long qsb_batch_count(double resolution, double one_sort, double min_sample);

/* Slowed samples (docs/measurement.md): is `sample` more than pct % above `fastest`,
** the fastest of the row's n samples so far? Never below QSB_SLOWED_MIN_SAMPLES samples (no
** reference yet), nor when pct is 0. */
#define QSB_SLOWED_MIN_SAMPLES 2
bool qsb_sample_slowed(double fastest, size_t n, double sample, double pct);

#endif
