/*
** A one-process run measured in a watched child (isolated.h).
*/
#include "isolated.h"

#include <errno.h>
#include <stdbool.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "child.h"
#include "diag.h"
#include "stop.h"

typedef struct {
    const qsb_isolated_run *run;
    qsb_visit_record *record;
    sigset_t *mask;
} child_args;

/* In the child. */
static int measure_here(void *arg)
{
    const child_args *c = arg;
    qsb_signals_restore(c->mask); /* the run's handlers are the child's already */
    int status = c->run->measure(c->run->arg, c->record);
    fflush(NULL);
    return status; /* then _exit: the parent's cleanup is the parent's */
}

/* Forks the child that measures and watches it to its end. */
static int measure_in_child(const qsb_isolated_run *run, qsb_visit_record *record,
                            qsb_process_end *end)
{
    qsb_visit_record_reset(record);
    qsb_snapshot_clear(run->snapshot);
    sigset_t mask;
    qsb_signals_block(&mask);
    child_args c = {run, record, &mask};
    pid_t pid = qsb_child_fork(measure_here, &c); /* its own group: a Ctrl-C reaches the run,
                                                  ** which passes it on once, and what it
                                                  ** leaves running is ended */
    qsb_signals_restore(&mask);
    if (pid < 0)
        return qsb_error(QSB_ESYSTEM, "cannot start the measuring process: %s",
                         strerror(errno));
    qsb_watch watch = {qsb_visit_deadline_s(run->estimate_s), run->stop, NULL,
                       "the measuring process"};
    return qsb_watch_process(&watch, pid, record, end);
}

static void blame(const qsb_isolated_run *run, qsb_visit_record *record,
                  const qsb_process_end *end)
{
    qsb_warning("%s %s in cell %s; its rows are FAILED (%s) and the others measured again",
                run->algo_names[end->algo], end->cause, end->cell[0] ? end->cell : "(none)",
                end->cause);
    snprintf(record->excluded[end->algo], QSB_VISIT_CAUSE_BYTES, "%s", end->cause);
}

/* Killed by the watch after the grace (its cause, visit_record.c), not ended by itself. */
static bool killed_after_grace(const qsb_process_end *end)
{
    return strcmp(end->cause, "killed after the grace") == 0;
}

/* The child was passed the stop request (visit_record.h: in its record too, so whatever its
** plug-ins do with the signal, it stops after the current sort). One killed after the grace
** inside the matrix (a sort that never returned) wrote nothing: what it handed over is
** written here. */
static int interrupted(const qsb_isolated_run *run, const qsb_visit_record *record,
                       const qsb_process_end *end)
{
    if (qsb_stop_is_exit_status(end->exit_code))
        return end->exit_code; /* the child wrote its finished cells and said so */
    if (end->exit_code == QSB_OK || end->exit_code == QSB_FINDING) { /* it had finished */
        qsb_note("the run had finished its measurements when the stop request came: its "
                 "results are complete");
        return end->exit_code;
    }
    if (end->exit_code >= 0)
        return end->exit_code; /* it failed and said why */
    int status = qsb_stop_status_of((int)*run->stop);
    status = status ? status : QSB_SIGTERM;
    const char *cell = end->cell[0] ? end->cell : "(none)";
    bool killed = killed_after_grace(end);
    if (!record->finished) {
        if (killed)
            qsb_warning("a sort did not return within %.0f s of the stop request (in cell %s): "
                        "the measuring process was killed; writing the cells it had finished",
                        QSB_STOP_GRACE_S, cell);
        else
            qsb_warning("the measuring process ended after the stop request (%s, in cell %s); "
                        "writing the cells it had finished", end->cause, cell);
        return run->report_kept(run->arg, run->snapshot, status);
    }
    if (killed)
        return qsb_error(status, "interrupted: the measuring process did not write its files "
                                 "within %.0f s of the stop request and was killed; no results "
                                 "written", QSB_STOP_GRACE_S);
    return qsb_error(status, "interrupted: the measuring process ended while it wrote its files "
                             "(%s); no results written", end->cause);
}

int qsb_run_isolated(const qsb_isolated_run *run)
{
    int fd = -1;
    qsb_visit_record *record = qsb_visit_record_create(&fd);
    if (!record)
        return QSB_ESYSTEM;
    bool retried = false;
    int status = QSB_OK;
    for (;;) {
        qsb_process_end end;
        status = measure_in_child(run, record, &end);
        if (status != QSB_OK)
            break;
        if (end.kind == QSB_END_SORT_FAILED) {
            blame(run, record, &end);
            continue;
        }
        if (end.kind == QSB_END_LOST && !retried) {
            qsb_warning("the measuring process was lost (%s) in cell %s; measuring again",
                        end.cause, end.cell[0] ? end.cell : "(none)");
            retried = true;
            continue;
        }
        if (end.kind == QSB_END_LOST)
            status = qsb_error(QSB_ESYSTEM, "the measuring process was lost again (%s) in cell "
                                            "%s; no results written",
                               end.cause, end.cell[0] ? end.cell : "(none)");
        else if (end.kind == QSB_END_INTERRUPTED)
            status = interrupted(run, record, &end);
        else
            status = end.exit_code;
        break;
    }
    qsb_visit_record_close(record, fd);
    return status;
}
