/*
** What a signal does to a run (stop.h): SIGINT and SIGTERM set the stop request and give the
** run its exit status; the handler is reset by the first signal (a second kills); catching
** clears an old request and unblocks the signals (a worker starts with them blocked);
** releasing puts the previous dispositions back.
*/
#include <signal.h>
#include <stdbool.h>

#include "check.h"
#include "diag.h"
#include "stop.h"

static void (*disposition(int signo))(int)
{
    struct sigaction now;
    sigaction(signo, NULL, &now);
    return now.sa_handler;
}

static bool blocked(int signo)
{
    sigset_t mask;
    sigprocmask(SIG_BLOCK, NULL, &mask);
    return sigismember(&mask, signo) == 1;
}

static void test_signal_stops(int signo, int status)
{
    qsb_stop_handlers saved;
    qsb_stop_catch(&saved);
    CHECK_EQ_U64(*qsb_stop_request(), 0);
    CHECK_EQ_U64(qsb_stop_status(), 0);
    raise(signo); /* delivered before raise returns: the signal is not blocked */
    CHECK_EQ_U64(*qsb_stop_request(), signo);
    CHECK_EQ_U64(qsb_stop_status(), status);
    CHECK(disposition(signo) == SIG_DFL); /* a second one would kill */
    qsb_stop_release(&saved);
}

/* Blocked signals (as a worker starts) are unblocked; the previous dispositions come back. */
static void test_catch_and_release(void)
{
    signal(SIGINT, SIG_IGN);
    signal(SIGTERM, SIG_IGN);
    sigset_t both;
    sigemptyset(&both);
    sigaddset(&both, SIGINT);
    sigaddset(&both, SIGTERM);
    sigprocmask(SIG_BLOCK, &both, NULL);
    qsb_stop_handlers saved;
    qsb_stop_catch(&saved);
    CHECK(!blocked(SIGINT) && !blocked(SIGTERM));
    CHECK(disposition(SIGINT) != SIG_IGN && disposition(SIGINT) != SIG_DFL);
    CHECK(disposition(SIGTERM) != SIG_IGN && disposition(SIGTERM) != SIG_DFL);
    qsb_stop_release(&saved);
    CHECK(disposition(SIGINT) == SIG_IGN && disposition(SIGTERM) == SIG_IGN);
    signal(SIGINT, SIG_DFL);
    signal(SIGTERM, SIG_DFL);
}

int main(void)
{
    CHECK_EQ_U64(qsb_stop_status(), 0);
    test_signal_stops(SIGINT, QSB_SIGINT);
    test_signal_stops(SIGTERM, QSB_SIGTERM); /* catching again cleared SIGINT's request */
    test_catch_and_release();
    return check_done();
}
