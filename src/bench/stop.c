/*
** The stop request (stop.h).
*/
#include "stop.h"

#include <string.h>

#include "diag.h"

/* The signals that stop a run, with the exit status each gives it. */
static const struct {
    int signo;
    int status;
} stop_signals[QSB_STOP_SIGNALS] = {
    {SIGINT, QSB_SIGINT},
    {SIGTERM, QSB_SIGTERM},
    {SIGHUP, QSB_SIGHUP},
    {SIGQUIT, QSB_SIGQUIT},
};

static volatile sig_atomic_t stop_signal;

static void request_stop(int signo)
{
    stop_signal = signo;
}

void qsb_stop_catch(qsb_stop_handlers *saved)
{
    struct sigaction sa;
    memset(&sa, 0, sizeof sa);
    sa.sa_handler = request_stop;
    sa.sa_flags = SA_RESETHAND;
    sigemptyset(&sa.sa_mask);
    stop_signal = 0;
    sigset_t caught;
    sigemptyset(&caught);
    for (size_t i = 0; i < QSB_STOP_SIGNALS; i++) {
        sigaction(stop_signals[i].signo, &sa, &saved->saved[i]);
        sigaddset(&caught, stop_signals[i].signo);
    }
    struct sigaction ignore;
    memset(&ignore, 0, sizeof ignore);
    ignore.sa_handler = SIG_IGN;
    sigemptyset(&ignore.sa_mask);
    sigaction(SIGPIPE, &ignore, &saved->pipe);
    sigprocmask(SIG_UNBLOCK, &caught, NULL);
}

void qsb_stop_signals_add(sigset_t *set)
{
    for (size_t i = 0; i < QSB_STOP_SIGNALS; i++)
        sigaddset(set, stop_signals[i].signo);
}

void qsb_stop_release(const qsb_stop_handlers *saved)
{
    for (size_t i = 0; i < QSB_STOP_SIGNALS; i++)
        sigaction(stop_signals[i].signo, &saved->saved[i], NULL);
    sigaction(SIGPIPE, &saved->pipe, NULL);
}

volatile sig_atomic_t *qsb_stop_request(void)
{
    return &stop_signal;
}

int qsb_stop_status_of(int signo)
{
    for (size_t i = 0; i < QSB_STOP_SIGNALS; i++)
        if (signo == stop_signals[i].signo)
            return stop_signals[i].status;
    return 0;
}

int qsb_stop_is_exit_status(int code)
{
    for (size_t i = 0; i < QSB_STOP_SIGNALS; i++)
        if (code == stop_signals[i].status)
            return 1;
    return 0;
}

int qsb_stop_status(void)
{
    return qsb_stop_status_of(stop_signal);
}
