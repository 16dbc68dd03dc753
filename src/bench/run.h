/*
** The benchmark matrix (run.c) and the whole `run` command after parsing (cmd_run.c).
**
** The run visits the cells sweep after sweep under a schedule (schedule.h). Each sweep enters
** a new placement (placement.h: fresh copies of the sorts' objects at random offsets), so
** each visit of a cell is one unit of it: the level at which its intervals are
** taken (stats.h, units; docs/measurement.md has the model and the variances measured here).
**
** A visit of a cell:
** 1. The input is generated (again at each visit: all inputs would not fit in memory).
** 2. At the first visit every algorithm sorts a copy once through the counting comparator
**    (the comparisons column); untimed, it is also the first warm-up.
** 3. Warm-up: `warmup` untimed sorts per algorithm (QSB_WARMUP_AUTO: one where a sort takes
**    under QSB_WARMUP_AUTO_LIMIT_S, none where it takes longer); every unit is a new copy
**    of the code, cold.
** 4. Batching: a sort shorter than QSB_MIN_SAMPLE_NS or 1000 timer ticks is timed in
**    batches of k sorts back to back, each on its own fresh copy made before the interval.
** 5. Rounds: in each round every algorithm sorts once, forward in even rounds and backward
**    in odd ones, for slice_s seconds (at least one round), or the unit's share of --reps.
**    Only the sort is timed; each result is verified afterwards (verify.h), and a failed
**    verification marks the row FAILED; it sorts no more.
** 6. Preemption: a sort whose interval exceeds the thread's CPU time by more than
**    QSB_DISTURBED_PCT % (+ QSB_DISTURBED_SLACK_NS) lost the CPU: if shorter than
**    QSB_RETAKE_LIMIT_S it is taken again, up to QSB_RETAKE_MAX attempts in all.
** 7. Slowed samples: with --slowed PCT a short sort over PCT % slower than its row's fastest
**    is retaken likewise. A row of short sorts whose median ends QSB_SLOWED_FLAG_PCT % above
**    its fastest sample is flagged noisy whatever the options.
** When the schedule has no more visits, every cell is summarized: medians and paired deltas
** with their intervals over units; a row without an interval (under QSB_MIN_UNITS units) or
** wider than --precision is flagged noisy. When a signal stops the run, the cells with their
** minimum of units are kept (results marked incomplete) and the others dropped.
*/
#ifndef QSB_RUN_H
#define QSB_RUN_H

#include <signal.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "placement.h"
#include "schedule.h"
#include "result.h"
#include "run_config.h"
#include "timing.h"

/* Batches make a sample last at least this long (and 1000 timer ticks): the timer's own
** cost (some 20-40 ns a read pair) is then below 0.5% of a sample. */
#define QSB_MIN_SAMPLE_NS 10000.0

#define QSB_DISTURBED_PCT 1.0         /* interval - CPU time above this % of the interval */
#define QSB_DISTURBED_SLACK_NS 20000.0 /* ... plus this: the clock reads' own cost */
#define QSB_RETAKE_LIMIT_S 0.01 /* longer sorts are rarely spared by a busy machine */
#define QSB_RETAKE_MAX 4              /* attempts per sample, the first included */
#define QSB_SLOWED_FLAG_PCT 10.0 /* well above a steady machine's scatter, below a slowdown's */

typedef struct {
    const qsb_run_config *config;
    const qsb_timer *timer;          /* NULL for the comparisons metric */
    qsb_schedule_policy schedule;    /* units, precision, budget (0 with --reps) */
    volatile sig_atomic_t *stop;     /* set from a signal handler: stop after this sort */
    bool progress;                   /* draw the progress line (progress.h) */
    double slice_s;                  /* seconds of rounds per visit of a cell (at least one) */
    qsb_placement *placement;        /* where the timed sorts and the comparator sit */
} qsb_run_setup;

/* Where the run's time went (nanoseconds of CLOCK_MONOTONIC_RAW, the timed sorts in the
** timer's own count converted). What is not in a bucket is the rest of the harness:
** statistics, the policy, the progress line, allocation. */
typedef struct {
    double timed_ns;    /* time inside timed sorts (batches included) */
    size_t failed;      /* rows that failed verification */
    double counted_ns;  /* the sorts through the counting comparator */
    double warmup_ns;   /* warm-up sorts and batch probes */
    double generate_ns; /* generating the inputs and their multiset hashes */
    double copy_ns;     /* copying the input into the work buffer before each sort */
    double verify_ns;   /* checking each result */
    double retake_ns;   /* timed sorts thrown away: preempted or slowed (steps 6 and 7) */
    size_t retakes;     /* how many were preempted */
    size_t slowed;      /* how many were slowed */
    size_t disturbed;   /* samples kept although preempted (long sorts, last attempts) */
    size_t kept_slowed; /* samples kept although slowed (last attempts) */
    size_t noisy_cells; /* cells with a row flagged noisy */
    size_t units;       /* placements entered (sweeps) */
    size_t cells;       /* cells finished */
} qsb_run_totals;

/* Runs the matrix into results (cells appended; the context is the caller's). Returns QSB_OK,
** QSB_FINDING when a row failed verification, or QSB_ESYSTEM (reported) when out of memory.
** When *stop is set, the cells are settled as above, results->context.incomplete is set and
** the status is that of the cells kept. */
int qsb_run_matrix(const qsb_run_setup *setup, qsb_results *results, qsb_run_totals *totals);

#endif
