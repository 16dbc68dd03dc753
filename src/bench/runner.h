/*
** The run, from its configuration to its result: the one owner of everything a run holds.
** qsb_run_bench catches the stop signals (stop.h), has the caller open its outputs, warns
** about what makes timings noisy (the build, the governor, the load), pins the process
** (--pin), calibrates the timer, places the sorts (placement.h), plans the run (plan.h),
** records its context, measures it in this process, in a watched child
** (runner.c) or by worker processes (workers.h), and hands the result to the caller's
** reporter; then it tells where the time went.
**
** A one-process run (--reps, --processes 1) is measured in a watched child, and the reporter
** runs there: the child reports, commits the outputs and exits with the reporter's status,
** which qsb_run_bench returns. When the child is killed after a stop (a sort that never
** returned), the reporter runs here with the finished cells the child handed over
** (snapshot.h), marked incomplete. A worker process (--worker) and a run of workers report here.
*/
#ifndef QSB_RUNNER_H
#define QSB_RUNNER_H

#include <time.h>

#include "plugins.h"
#include "result.h"
#include "run.h"
#include "run_config.h"

/* What a measured run hands its reporter. */
typedef struct {
    int status;                   /* QSB_OK, or QSB_FINDING: a row failed verification */
    int stopped;                  /* the run was stopped by a signal: its exit status
                                  ** (stop.h); 0: it was not */
    qsb_results *results;         /* the cells, the context with its time split */
    const qsb_run_totals *totals; /* where the time went; the rows that failed */
} qsb_run_outcome;

/* The caller's side of a run: its outputs. */
typedef struct {
    /* Before any work, once the stop signals are caught (an interrupt then still reaches the
    ** commit): opens the outputs; utc is the run's start as its context records it. Returns
    ** QSB_OK or an error (reported), which ends the run. NULL: nothing to open. */
    int (*open)(void *arg, const struct tm *utc);
    /* With the measured result, in the process that holds it: reports and commits; returns
    ** the run's exit status. Not called when the run fails before its result (an error,
    ** reported): the caller then abandons its outputs. */
    int (*report)(void *arg, const qsb_run_outcome *outcome);
    void *arg;
} qsb_run_reporter;

/* What can be checked before any work: that the work buffers of every cell fit in memory
** (plugins: the set cfg's plug-ins were resolved into; NULL: none). QSB_OK or an error
** (reported). */
int qsb_run_check_memory(const qsb_run_config *cfg, const qsb_plugins *plugins);

/* Runs cfg (checked by qsb_run_check_memory) and reports it through reporter. plugins is the
** set cfg's plug-ins were resolved into (plugins.h; NULL: none), the caller's: the run loads
** it in the processes that sort (this one when it measures here, the watched child, each
** worker through its own command) and never in the one that owns the outputs. Returns the
** reporter's status, or an error (reported). */
int qsb_run_bench(const qsb_run_config *cfg, qsb_plugins *plugins,
                  const qsb_run_reporter *reporter);

#endif
