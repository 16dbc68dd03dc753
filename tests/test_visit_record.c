/*
** The visit record and the watch over a process that writes it (src/bench/visit_record.h):
** how a child's end is told apart. A child that exits, is killed by a signal or hangs while
** the record names an algorithm is that algorithm's failure, with the cause; SIGKILL is a
** loss (killed from outside), as is a death outside any sort; an exit after leaving the
** matrix is an ordinary exit; a child ended after a passed-on stop is an interruption. The
** crash is SIGUSR1 (its default action ends the process): the sanitizers catch SIGSEGV
** themselves and exit with their own status.
*/
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "check.h"
#include "diag.h"
#include "visit_record.h"

#define SHORT_DEADLINE_S 0.3 /* the hanging child's: it never makes a step */
#define LONG_DEADLINE_S 60.0 /* the others': they end at once */

typedef enum { EXITS, CRASHES, KILLED, HANGS, LEAVES_THEN_EXITS } behaviour;

static void behave(qsb_visit_record *r, behaviour b, bool in_sort)
{
    qsb_visit_cell(r, "random", 1000, 4);
    if (in_sort)
        qsb_visit_algorithm(r, 2);
    switch (b) {
    case EXITS: _exit(0);
    case CRASHES: raise(SIGUSR1); break;
    case KILLED: raise(SIGKILL); break;
    case HANGS: for (;;) pause();
    case LEAVES_THEN_EXITS: qsb_visit_leave(r); _exit(7);
    }
    _exit(99);
}

static qsb_process_end watch_child(qsb_visit_record *r, behaviour b, bool in_sort,
                                   volatile sig_atomic_t *stop)
{
    qsb_process_end end;
    memset(&end, 0, sizeof end);
    qsb_visit_record_reset(r);
    pid_t pid = fork();
    if (pid == 0)
        behave(r, b, in_sort);
    qsb_watch w = {b == HANGS ? SHORT_DEADLINE_S : LONG_DEADLINE_S, stop, NULL, "the test child"};
    CHECK(pid > 0 && qsb_watch_process(&w, pid, r, &end) == QSB_OK);
    return end;
}

int main(void)
{
    int fd;
    qsb_visit_record *r = qsb_visit_record_create(&fd);
    if (!CHECK(r != NULL))
        return check_done();
    volatile sig_atomic_t no_stop = 0, stop = SIGTERM;

    qsb_process_end e = watch_child(r, EXITS, true, &no_stop);
    CHECK(e.kind == QSB_END_SORT_FAILED && e.algo == 2);
    CHECK(strcmp(e.cause, "exited with status 0") == 0);
    CHECK(strcmp(e.cell, "random 1000 x 4") == 0);

    e = watch_child(r, CRASHES, true, &no_stop);
    char crashed[32];
    snprintf(crashed, sizeof crashed, "crashed: signal %d", SIGUSR1);
    CHECK(e.kind == QSB_END_SORT_FAILED && e.algo == 2);
    CHECK_MSG(strcmp(e.cause, crashed) == 0, "cause '%s'", e.cause);

    e = watch_child(r, HANGS, true, &no_stop);
    CHECK(e.kind == QSB_END_SORT_FAILED && e.algo == 2);
    CHECK_MSG(strncmp(e.cause, "timed out after ", 16) == 0, "cause '%s'", e.cause);

    e = watch_child(r, KILLED, true, &no_stop);
    CHECK(e.kind == QSB_END_LOST);
    CHECK(strcmp(e.cause, "killed: signal 9") == 0);

    e = watch_child(r, CRASHES, false, &no_stop); /* outside any sort: nothing to blame */
    CHECK(e.kind == QSB_END_LOST);

    e = watch_child(r, LEAVES_THEN_EXITS, true, &no_stop);
    CHECK(e.kind == QSB_END_EXITED && e.exit_code == 7);

    e = watch_child(r, HANGS, true, &stop); /* the stop passed on ends it: an interruption */
    CHECK(e.kind == QSB_END_INTERRUPTED);

    CHECK(qsb_visit_excluded(r, 2) == NULL);
    snprintf(r->excluded[2], QSB_VISIT_CAUSE_BYTES, "crashed: signal 11");
    CHECK(strcmp(qsb_visit_excluded(r, 2), "crashed: signal 11") == 0);
    CHECK(qsb_visit_excluded(NULL, 2) == NULL);
    CHECK(qsb_visit_excluded(r, QSB_VISIT_ALGOS_MAX) == NULL);

    CHECK(qsb_visit_deadline_s(0.01) == QSB_VISIT_DEADLINE_FLOOR_S);
    CHECK(qsb_visit_deadline_s(100.0) == QSB_VISIT_DEADLINE_FACTOR * 100.0);
    qsb_visit_record_close(r, fd);
    return check_done();
}
