/*
** Worker processes (run --processes): the top level of the experiment.
**
** On this project's machines a process keeps a state for its whole life that neither its
** units (fresh placements of the sorts) nor its minutes can see: the same cell's delta sits
** at another value in the next process (docs/measurement.md, "The levels"). So a run
** samples that level: it starts worker processes (a fresh exec each: new addresses for
** everything), each visiting its cells once, and pools them with every process one unit
** (pool.h): the intervals are then taken over independent processes. They run one after the
** other, or with --jobs J up to J at once (one per CPU: each keeps its sorts paired in
** itself, so what another worker does to the machine slows both of its algorithms alike);
** a worker starts when a slot is free and the plan has one.
**
** The first min_processes workers visit every cell, each after the first only while the time
** left holds it at what the workers have taken so far (so the budget holds when the estimate
** was short: the run then has fewer processes than the minimum, its rows no interval). Each
** later one visits every cell that
** still needs processes (a cell needs none once every interval it reports is within
** --precision and it has 2 x QSB_MIN_UNITS processes) while the time left holds them all; the
** last ones visit the cells that fit, where a visit narrows the intervals most for its time
** first (what a visit costs: each worker's wall time, less its start, shared among its cells
** as their timed sorts were; a visit fits at the longest it has taken). So the run ends
** within its budget, and every cell's processes are spread over the run's time (processes
** close in time agree).
**
** A worker is this executable run as `run --worker K:SLICE[:CELLS]` with the run's measuring
** options (and `--inputs-fd FD`: the inputs the run generated once, shared_inputs.h), writing
** its results to a private temporary directory; its stdout is discarded and
** its stderr kept in that directory, whose last line is quoted when a worker fails. A signal
** to the run stops every worker in flight (the first to finish with finished cells keeps
** them, marked incomplete, when no worker had finished before) and starts no other; a worker
** that does not end within QSB_STOP_GRACE_S of it is killed. An error (a worker that failed,
** unreadable results) kills the workers still in flight. The signals are blocked from before
** the fork until the worker has its handlers. Which cells a later worker visits:
** worker_cells.h (the visits of workers in flight counted as coming).
*/
#ifndef QSB_WORKERS_H
#define QSB_WORKERS_H

#include <signal.h>
#include <stdbool.h>
#include <stddef.h>

#include "result.h"

/* The workers in flight are stopped this far past the budget: an estimate that erred a little
** (a busy machine, a slow start) costs no work, and the run still ends within 5% and 5 s of
** its budget (the stopped worker's current sort and its files take the rest). */
#define QSB_OVERRUN_SHARE 0.03
#define QSB_OVERRUN_S 2.0

typedef struct {
    char *const *argv_head; /* "run" and the measuring options (run_config.h worker_argv) */
    double slice_s;         /* seconds of rounds per visit of a cell */
    double budget_s;        /* after the minimum, workers start while the next fits into it */
    double start_s;         /* estimated: a worker's start (exec, calibration, loading) */
    double precision_pct;   /* ... and while an interval is wider than +-this % (0: while
                            ** the budget lasts, whatever the intervals) */
    size_t min_processes;   /* started whatever the budget (at least 1) */
    size_t max_processes;   /* never more */
    bool exact;             /* --processes N: min_processes start whatever the time */
    size_t planned;         /* the estimate of how many (for the progress line) */
    size_t jobs;            /* workers in flight at once (--jobs; 0 counts as 1) */
    double worker_s;        /* the estimate of one later worker, until the first has finished */
    double first_s;         /* the estimate of the first worker (it counts every cell) */
    double tsc_hz;          /* the run's TSC frequency, given to its workers; 0: none */
    int inputs_fd;          /* the run's shared inputs (shared_inputs.h), handed to every
                            ** worker; -1: none, the workers generate them */
    volatile sig_atomic_t *stop; /* set from a signal handler */
    bool progress;          /* draw the progress line */
    const char *const *algo_names; /* the algorithms, for naming one that took a worker down */
} qsb_workers_plan;

/* Runs the workers and pools their results into *out (its context is the first worker's,
** pool.h). *processes: how many finished. Returns QSB_OK, QSB_FINDING when a result failed
** verification in a worker or an algorithm took one down, or an error (reported). A visit
** lost twice ends the run with the results so far, marked incomplete (and reported).
**
** Each worker is watched (visit_record.h): one that crashes, exits or stalls past its
** deadline inside an algorithm's sorts is started again without that algorithm, whose rows
** are FAILED with the cause in every later worker (and so in the pooled rows); one killed
** from outside (SIGKILL) or dead outside any sort is started again once. */
int qsb_run_workers(const qsb_workers_plan *plan, qsb_results *out, size_t *processes);

/* Seconds inside the timed sorts behind a result's samples (each sample is one sort of a
** batch): for the run's last line. */
double qsb_results_timed_s(const qsb_results *r);

#endif
