/*
** What a signal does to a run: SIGINT and SIGTERM ask it to stop after the current sort. The
** run then settles its finished cells, marks its results incomplete, still writes and commits
** its files, and exits with the signal's status (130 / 143, diag.h). A second signal of the
** same kind kills at once (the handler is reset when it runs); the final files are never
** partial even then, they are only not written.
**
** The request is one flag per process, set by the handler: the run's loop, its worker
** processes' parent and its watched child read it (run.h, workers.h, isolated.h).
*/
#ifndef QSB_STOP_H
#define QSB_STOP_H

#include <signal.h>

#define QSB_STOP_SIGNALS 2 /* SIGINT, SIGTERM */

/* The dispositions the signals had before the run caught them. */
typedef struct {
    struct sigaction saved[QSB_STOP_SIGNALS];
} qsb_stop_handlers;

/* Clears the request and catches the signals (unblocking them: a worker process starts with
** them blocked, workers.h), saving the previous dispositions into *saved. */
void qsb_stop_catch(qsb_stop_handlers *saved);

/* Puts the previous dispositions back. */
void qsb_stop_release(const qsb_stop_handlers *saved);

/* The request: 0, or the number of the signal that asked the run to stop. */
volatile sig_atomic_t *qsb_stop_request(void);

/* The exit status a stopped run ends with (QSB_SIGINT, QSB_SIGTERM); 0 when not asked. */
int qsb_stop_status(void);

#endif
