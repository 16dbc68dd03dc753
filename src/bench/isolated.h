/*
** A one-process run (--reps N, --processes 1) measured in a child process, so that a plug-in
** that crashes, calls exit() or hangs cannot take the run with it (the worker processes of a
** run are watched the same way, workers.h). The child is a fork of the run: it measures,
** prints the table, writes and commits the files and exits with the run's status, which the
** parent returns. When the child ends inside an algorithm's sorts (visit_record.h), the parent
** names the algorithm and the cause, excludes it and measures again: the files then hold its
** rows FAILED with the cause and every other row. A child killed from outside (SIGKILL) or
** dead outside any sort is measured again once. A stop request (stop.h) is passed on, in the
** visit record too; the child writes its finished cells, marked incomplete, and exits with
** the stop's status. A child whose sort does not return within the grace after the stop (a
** plug-in that ignores the signal and blocks) is killed, and the parent writes the finished
** cells the child handed it as they finished (snapshot.h), marked incomplete, with the same
** status: what was measured is kept whatever a plug-in does with signals.
*/
#ifndef QSB_ISOLATED_H
#define QSB_ISOLATED_H

#include <signal.h>

#include "snapshot.h"
#include "visit_record.h"

/* What the child runs: the run from its measurement to its committed files; returns its
** exit status. */
typedef int (*qsb_measure_fn)(void *arg, qsb_visit_record *record);

typedef struct {
    qsb_measure_fn measure;
    void *arg;
    double estimate_s;              /* of the whole run: its visits' deadline (visit_record.h) */
    volatile sig_atomic_t *stop;    /* the run's stop request, passed on */
    const char *const *algo_names;  /* for naming an algorithm that took the child down */
    qsb_snapshot *snapshot;         /* where the child hands over its finished cells */
    /* The child was killed inside the matrix after the stop request: reports the finished
    ** cells of the snapshot (none when none was taken), marked incomplete, and returns the
    ** run's exit status, `stopped` (stop.h) when the files are written. */
    int (*report_kept)(void *arg, const qsb_snapshot *snapshot, int stopped);
} qsb_isolated_run;

/* Runs it; returns the child's exit status, that of report_kept, or an error (reported): the
** child lost twice, or killed after the grace when it had left the matrix (the stop's status
** then). The caller aborts its output files afterwards: those committed are no longer
** temporary. */
int qsb_run_isolated(const qsb_isolated_run *run);

#endif
