/*
** What a signal does to a run: SIGINT, SIGTERM, SIGHUP (the terminal closed, an ssh connection
** lost) and SIGQUIT (Ctrl-\) ask it to stop after the current sort. The run then settles its
** finished cells, marks its results incomplete, still writes and commits its files, and exits
** with 128 + the signal's number (130, 143, 129, 131: diag.h). A second signal of the same
** kind has its default effect at once (the handler is reset when it runs: SIGQUIT's core
** dump for one who debugs a hang); the final files are never partial even then, they are
** only not written. SIGPIPE is ignored while the run holds its outputs: a reader of stdout
** that went away (`| head`) makes the write fail, which is reported (exit 3) and leaves no
** temporary file, instead of killing the run silently between its files.
**
** The request is one flag per process, set by the handler: the run's loop, its worker
** processes' parent and its watched child read it (run.h, workers.h, runner.c). The parent
** also passes it on in the visit record (visit_record.h), so that a sorting process whose
** plug-in ignores or blocks the signals stops all the same.
*/
#ifndef QSB_STOP_H
#define QSB_STOP_H

#include <signal.h>

#define QSB_STOP_SIGNALS 4 /* SIGINT, SIGTERM, SIGHUP, SIGQUIT */

/* The dispositions the signals (and SIGPIPE) had before the run caught them. */
typedef struct {
    struct sigaction saved[QSB_STOP_SIGNALS];
    struct sigaction pipe;
} qsb_stop_handlers;

/* Clears the request and catches the signals (unblocking them: a worker process starts with
** them blocked, workers.h), saving the previous dispositions into *saved. */
void qsb_stop_catch(qsb_stop_handlers *saved);

/* Puts the previous dispositions back. */
void qsb_stop_release(const qsb_stop_handlers *saved);

/* The request: 0, or the number of the signal that asked the run to stop. */
volatile sig_atomic_t *qsb_stop_request(void);

/* The exit status a stopped run ends with (QSB_SIGINT, ...); 0 when not asked. */
int qsb_stop_status(void);

/* The exit status of a run stopped by signo (one of the stop signals); 0 for anything else. */
int qsb_stop_status_of(int signo);

/* Is code the exit status of a stopped run (129, 130, 131, 143)? */
int qsb_stop_is_exit_status(int code);

/* Adds the stop signals to set (blocked across a fork: visit_record.h). */
void qsb_stop_signals_add(sigset_t *set);

#endif
