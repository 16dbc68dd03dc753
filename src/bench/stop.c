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
    sigprocmask(SIG_UNBLOCK, &caught, NULL);
}

void qsb_stop_release(const qsb_stop_handlers *saved)
{
    for (size_t i = 0; i < QSB_STOP_SIGNALS; i++)
        sigaction(stop_signals[i].signo, &saved->saved[i], NULL);
}

volatile sig_atomic_t *qsb_stop_request(void)
{
    return &stop_signal;
}

int qsb_stop_status(void)
{
    for (size_t i = 0; i < QSB_STOP_SIGNALS; i++)
        if (stop_signal == stop_signals[i].signo)
            return stop_signals[i].status;
    return 0;
}
