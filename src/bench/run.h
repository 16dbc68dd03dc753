/*
** The benchmark matrix (run.c): sweeps over the cells under
** the schedule (schedule.h), each sweep in a new placement (placement.h), so each visit of a
** cell is one unit of it (stats.h, units). A visit generates the input, counts comparisons
** (first visit), warms up, times interleaved rounds (only the sort inside the interval),
** retakes preempted or slowed samples and verifies every result. The steps and the reasons
** for them: docs/measurement.md, "Cells, rounds and the visit".
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
#include "shared_inputs.h"
#include "snapshot.h"
#include "timing.h"
#include "visit_record.h"

/* Batches make a sample last at least this long (and 1000 timer ticks), so that the timer's
** own cost (docs/results.md#timer-read-cost) is a small share of a sample. */
#define QSB_MIN_SAMPLE_NS 10000.0

#define QSB_DISTURBED_PCT 1.0         /* interval - CPU time above this % of the interval */
#define QSB_DISTURBED_SLACK_NS 20000.0 /* ... plus this: the clock reads' own cost */
#define QSB_RETAKE_LIMIT_S 0.01 /* longer sorts are rarely spared by a busy machine */
#define QSB_RETAKE_MAX 4              /* attempts per sample, the first included */
#define QSB_SLOWED_FLAG_PCT 10.0 /* well above a steady machine's scatter, below a slowdown's */

typedef struct {
    const qsb_run_config *config;
    const qsb_plugins *plugins;      /* the set of the config's plug-ins, loaded in this
                                     ** process (plugins.h); NULL: none */
    const qsb_timer *timer;          /* NULL for the comparisons metric */
    qsb_schedule_policy schedule;    /* units, precision, budget (0 with --reps) */
    volatile sig_atomic_t *stop;     /* set from a signal handler: stop after this sort */
    bool progress;                   /* draw the progress line (progress.h) */
    double slice_s;                  /* seconds of rounds per visit of a cell (at least one) */
    qsb_placement *placement;        /* where the timed sorts and the comparator sit */
    size_t round_offset;             /* added to a cell's round number for the order of its
                                     ** sorts: a worker process's index, so that the order
                                     ** alternates across processes as across rounds */
    qsb_shared_inputs *inputs;       /* a worker's inputs from its run (shared_inputs.h),
                                     ** mapped as it visits their cells; NULL: generated */
    const qsb_results *model;        /* a later worker's model: the results of its run's first
                                     ** worker, whose exact counts, batches and sort durations
                                     ** replace the counted sorts and batch probes of a first
                                     ** visit; NULL: counted here */
    qsb_visit_record *record;        /* where this process is, for the parent watching it,
                                     ** and the algorithms it skips (visit_record.h); NULL:
                                     ** unwatched */
    qsb_snapshot *snapshot;          /* where the finished cells are handed to the run's
                                     ** owner as they finish (snapshot.h); NULL: nowhere */
} qsb_run_setup;

/* Where the run's time went (nanoseconds of CLOCK_MONOTONIC_RAW, the timed sorts in the
** timer's own count converted). What is not in a bucket is the rest of the harness:
** statistics, the policy, the progress line, allocation. */
typedef struct {
    double timed_ns;    /* time inside timed sorts (batches included) */
    size_t failed_rows; /* rows that failed verification */
    double counted_ns;  /* the sorts through the counting comparator */
    double warmup_ns;   /* warm-up sorts and batch probes */
    double generate_ns; /* generating the inputs and their multiset hashes */
    double copy_ns;     /* copying the input into the work buffer before each sort */
    double verify_ns;   /* checking each result */
    double retake_ns;   /* timed sorts thrown away: preempted or slowed (docs/measurement.md,
                        ** "Preemption", "Slowed samples") */
    size_t retaken_preempted; /* sorts thrown away and retaken: preempted */
    size_t retaken_slowed;    /* ... slowed */
    size_t kept_preempted;    /* samples kept although preempted (long sorts, last attempts) */
    size_t kept_slowed;       /* samples kept although slowed (last attempts) */
    size_t noisy_cells; /* cells with a row flagged noisy */
    bool split_known;   /* the buckets above are whole (a run of workers: their files said) */
    uint64_t shared_bytes; /* the inputs a run shares with its workers (shared_inputs.h) */
    size_t cells_done;  /* cells finished */
} qsb_run_totals;

/* Runs the matrix into results (cells appended; the context is the caller's). Returns QSB_OK,
** QSB_FINDING when a row failed verification, or QSB_ESYSTEM (reported) when out of memory.
** When *stop is set, the cells are settled as above, results->context.incomplete is set and
** the status is that of the cells kept. With a snapshot, what would be kept were the run
** stopped is handed over whenever the finished cells grow (snapshot.h qsb_snapshot_due) and
** after each sweep that added to them. */
int qsb_run_matrix(const qsb_run_setup *setup, qsb_results *results, qsb_run_totals *totals);

#endif
