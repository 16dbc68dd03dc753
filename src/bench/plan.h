/*
** The run's plan, decided before its first sort: how its budget buys worker processes or
** units per cell and how long a visit of a cell lasts (its slice), from what each cell is
** estimated to cost (estimate.h). The plan is a pure function of the configuration and the
** costs (qsb_plan_from_costs), so it is tested with made-up costs; qsb_plan_run supplies the
** estimate. It also says what the run announces and records of it, when a run may stop before
** its budget (the precision stop), and how the schedule and the worker processes are set up.
**
** Worker processes (workers.h): the budget buys processes, each one visit of its cells; at
** least QSB_MIN_UNITS of every cell (exactly N with --processes N), then as many as the
** budget holds. One process (--processes 1): every cell its minimum of units, then the budget
** on the widest intervals (schedule.h). --reps N and exact counts spend no budget.
**
** The budget holds (docs/measurement.md, "The budget"): where it cannot buy the minimum, the
** plan has fewer processes or units (their rows then have no interval: too few), says so, and
** the run starts no process and visits no cell that its time left cannot hold; where it cannot
** buy one unit of every cell, the run is refused before its first sort, naming the budget
** that would hold one.
*/
#ifndef QSB_PLAN_H
#define QSB_PLAN_H

#include <signal.h>
#include <stddef.h>

#include "memory.h"
#include "run_config.h"
#include "schedule.h"
#include "workers.h"

/* --budget auto: this many times the matrix's minimum, within these bounds. */
#define QSB_AUTO_BUDGET_FACTOR 3.0
#define QSB_AUTO_BUDGET_MIN_S 10.0
#define QSB_AUTO_BUDGET_MAX_S 300.0 /* the seed matrix in 5 minutes */
/* A worker process's start: exec, loading and placing the sorts
** (docs/results.md#overhead-worker-parts; the run's TSC frequency is given to it, not
** calibrated again). */
#define QSB_WORKER_START_S 0.02

typedef struct {
    double budget_s;   /* seconds for the whole run; 0 with --reps or exact counts */
    double slice_s;    /* seconds of rounds per visit */
    double minimum_s;  /* estimated: every cell's minimum of units, as asked */
    double estimate_s; /* estimated duration of the run */
    size_t asked_units; /* the minimum asked: QSB_MIN_UNITS, or --processes N */
    size_t min_units;  /* units per cell at least: the minimum asked, or fewer when the budget
                       ** holds fewer; with worker processes, processes */
    size_t processes;  /* worker processes planned (workers.h); 1: this process runs */
    double first_s;    /* estimated: the first unit of every cell (the first worker process,
                       ** which counts every cell's comparisons): what a budget must hold */
    double worker_s;   /* estimated: one later worker process */
    size_t jobs;       /* worker processes at once (--jobs); 1: one after the other */
    qsb_memory_plan memory; /* the run's memory (memory.h) */
} qsb_run_plan;

/* The plan for cells whose rounds are estimated to take round_s[c] seconds each and whose
** first visit takes first_s[c] more (estimate.h). A worker (--worker K:SLICE) plans one visit
** of every cell with its run's slice, whatever the costs. */
void qsb_plan_from_costs(const qsb_run_config *cfg, const double *round_s,
                         const double *first_s, size_t cells, qsb_run_plan *plan);

/* The plan from this machine's estimate of the run's cells, `plug_ins` of its algorithms
** being plug-ins (memory.h). QSB_OK, a usage error (reported) when the budget cannot hold
** one unit of every cell, or another error (reported). */
int qsb_plan_run(const qsb_run_config *cfg, unsigned plug_ins, qsb_run_plan *plan);

/* The same refusal for a plan made from costs: QSB_OK when its budget holds one unit of
** every cell, else a usage error (reported) naming the budget that would. */
int qsb_plan_check_budget(const qsb_run_config *cfg, const qsb_run_plan *plan);

/* Before the first sort, on stderr: what the run will take and the memory it may use (a note,
** unless quiet, counted or a worker), and a warning when the budget holds fewer processes or
** units than the minimum. */
void qsb_plan_announce(const qsb_run_config *cfg, const qsb_run_plan *plan);

/* The repetition rules in words, for the results' context ("repetitions"). */
void qsb_plan_describe(const qsb_run_config *cfg, const qsb_run_plan *plan, char *buf,
                       size_t len);

/* The precision at which a run stops before its budget: none (0) for a gating run
** (--fail-above), whose power to catch a small slowdown grows with its processes: runs that
** stop at the default precision catch it less often than runs that spend their budget
** (docs/results.md#gates-run-gate-one-cell). */
double qsb_plan_stop_precision(const qsb_run_config *cfg);

/* The schedule of a run in this process (run.h): its units, precision stop and budget. */
qsb_schedule_policy qsb_plan_schedule(const qsb_run_config *cfg, const qsb_run_plan *plan);

/* The worker processes of the plan (workers.h), with the run's TSC frequency (0: none), its
** shared inputs (-1: none) and its stop flag. */
qsb_workers_plan qsb_plan_workers(const qsb_run_config *cfg, const qsb_run_plan *plan,
                                  double tsc_hz, int inputs_fd, volatile sig_atomic_t *stop);

#endif
