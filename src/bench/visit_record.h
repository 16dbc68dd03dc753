/*
** The visit record: where a process that runs sorts is, so that its parent can say what
** killed it. A plug-in is other people's code: it may crash, call exit(), loop or stop
** itself. The process that runs the sorts (a worker process, or the child that measures a
** one-process run) writes into a small shared mapping the cell it visits and the algorithm
** of its current batch of sorts, and bumps a step count before every batch; its parent
** watches the process with a deadline on the time between two steps. When the process ends
** inside a sort, the parent blames that algorithm: its rows fail with the cause
** ("crashed: signal 11", "exited with status 0", "timed out after 5 s"), and the record's
** exclusion list tells the next process to skip the algorithm (its rows FAILED with the same
** cause) while it measures every other one.
**
** The mapping is a memfd: a forked child shares it, an exec'd worker gets its descriptor
** (run --visit-fd FD) like the shared inputs.
*/
#ifndef QSB_VISIT_RECORD_H
#define QSB_VISIT_RECORD_H

#include <signal.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

#define QSB_VISIT_ALGOS_MAX 64   /* algorithms a record can exclude (the rest: never blamed) */
#define QSB_VISIT_CAUSE_BYTES 96
#define QSB_VISIT_CELL_BYTES 96

/* A stall of a visit (no new batch of sorts) is cut after this many times the estimate of
** the process that makes it, and never before the floor: a legitimate batch is a fraction of
** its process's estimate, and the estimate times the libc's qsort_r for a plug-in, which may
** be several times slower. */
#define QSB_VISIT_DEADLINE_FLOOR_S 5.0
#define QSB_VISIT_DEADLINE_FACTOR 4.0
/* After a stop request is passed on, the process has this long to write its finished cells
** (a sort that never returns is then killed). */
#define QSB_STOP_GRACE_S 5.0

typedef struct {
    volatile uint64_t steps;   /* bumped before every batch of sorts */
    volatile int32_t stop;     /* the run's stop request, passed on by the parent: the signal's
                               ** number, read by the process whatever its plug-ins do with
                               ** the signal itself; 0: none */
    volatile int32_t algo;     /* the algorithm (--algos order) of the last batch; -1: none */
    volatile int32_t finished; /* the process left the matrix: its end is no sort's doing */
    volatile uint64_t cells_kept; /* the cells of its results, once the matrix returned */
    char cell[QSB_VISIT_CELL_BYTES];                       /* "random 1000 x 4" */
    char cause[QSB_VISIT_CAUSE_BYTES]; /* why the process ended inside the sorts of `algo`,
                                       ** in its own words ("closed the worker's
                                       ** descriptors"); "": it did not say */
    char excluded[QSB_VISIT_ALGOS_MAX][QSB_VISIT_CAUSE_BYTES]; /* "": measured */
} qsb_visit_record;

/* A new record (nothing excluded) in a memfd; *fd its descriptor (close-on-exec). NULL on
** failure (reported). */
qsb_visit_record *qsb_visit_record_create(int *fd);

/* A worker's view of its run's record. NULL on failure (reported, QSB_EUSAGE). */
qsb_visit_record *qsb_visit_record_open(int fd);

/* Unmaps (NULL: nothing) and closes fd when >= 0. */
void qsb_visit_record_close(qsb_visit_record *r, int fd);

/* Before a process starts: no step, no algorithm, not finished (the exclusions stay). */
void qsb_visit_record_reset(qsb_visit_record *r);

/* In the process that sorts (r NULL: nothing): the visit of a cell begins; a batch of
** algorithm algo's sorts begins; the process leaves the matrix. */
void qsb_visit_cell(qsb_visit_record *r, const char *pattern, uint64_t nelem, uint64_t size);
void qsb_visit_algorithm(qsb_visit_record *r, size_t algo);
void qsb_visit_leave(qsb_visit_record *r);
/* The matrix returned these cells. */
void qsb_visit_cells_returned(qsb_visit_record *r, size_t cells);

/* The stop request passed on to this process (a signal's number), or 0 (r NULL: 0). */
int qsb_visit_stop(const qsb_visit_record *r);

/* The process cannot go on because algorithm algo's code damaged it (cause: what it did): the
** cause is recorded and the process ends at once, inside that algorithm's sorts, so that its
** parent FAILs the algorithm's rows with the cause and measures the others again. */
_Noreturn void qsb_visit_abandon(qsb_visit_record *r, size_t algo, const char *cause);

/* What the process needs of itself that plug-in code can take away: every descriptor open now
** (its outputs, standard output and error, the record, the shared inputs, the sorts' objects)
** and its limit of open files. Marked once, before any plug-in code runs; `process` names it
** in the causes ("worker", "measuring process"). */
void qsb_visit_mark_process(const char *process);

/* Is every marked descriptor still the file it was, and the limit not lowered? When not, the
** cause ("closed the worker's descriptors (fd 3)") into cause. True when nothing was marked. */
bool qsb_visit_process_intact(char *cause, size_t len);

/* Algorithm algo's exclusion cause, or NULL when it is measured (r NULL: measured). */
const char *qsb_visit_excluded(const qsb_visit_record *r, size_t algo);

/* How a watched process ended. */
typedef enum {
    QSB_END_EXITED,      /* it exited outside any sort: exit_code says how */
    QSB_END_SORT_FAILED, /* it died, exited or hung inside algorithm `algo`'s sorts */
    QSB_END_LOST,        /* it was killed from outside (SIGKILL: the OOM killer, a user) or
                         ** died outside any sort: nothing to blame, its visit is lost */
    QSB_END_INTERRUPTED, /* it ended after the run's stop request was passed on to it */
} qsb_end_kind;

typedef struct {
    qsb_end_kind kind;
    int exit_code;                     /* the exit status when it exited, else -1 */
    size_t algo;                       /* QSB_END_SORT_FAILED: the algorithm */
    char cause[QSB_VISIT_CAUSE_BYTES]; /* "crashed: signal 11", ... */
    char cell[QSB_VISIT_CELL_BYTES];   /* the cell it was in ("" when none) */
} qsb_process_end;

typedef struct {
    double deadline_s;               /* a stall longer than this kills the process */
    volatile sig_atomic_t *stop;     /* the run's stop request (a signal number), passed on */
    void (*tick)(void);              /* called while waiting (the progress line), or NULL */
    const char *who;                 /* "worker process 3": names what it left running */
} qsb_watch;

/* The stall deadline of a process estimated to take estimate_s. */
double qsb_visit_deadline_s(double estimate_s);

/* Waits for pid (a child of this process writing r, started by qsb_child_fork), passing on a
** stop request once and killing the process past the deadline or the grace after a stop;
** once it ended, kills and names what it left running (child.h); says how it ended.
** Returns QSB_OK, or QSB_ESYSTEM (reported) when it cannot wait. */
int qsb_watch_process(const qsb_watch *w, pid_t pid, qsb_visit_record *r,
                      qsb_process_end *end);

/* The same watch, one look at a time, for several processes at once (a run's worker processes
** side by side): begin once, then look until it says the process ended, waiting between looks
** on all of them. */
typedef struct {
    const qsb_watch *watch;
    pid_t pid;
    qsb_visit_record *record;
    int pidfd;                 /* wakes the wait when the process exits; -1: none */
    uint64_t last_step_at, last_steps, stop_at;
    bool timed_out, forwarded; /* killed past its deadline; the stop request passed on */
    double stalled_s;          /* at the kill */
} qsb_watching;

#define QSB_WATCH_WAIT_MAX 64 /* processes one wait wakes for */

void qsb_watch_begin(qsb_watching *g, const qsb_watch *w, pid_t pid, qsb_visit_record *r);

/* One look: 0 while the process runs (a stop passed on, a kill past a deadline); 1 once it
** ended and was reaped, with *end saying how (*status QSB_OK) or, when it cannot be waited
** for, *status QSB_ESYSTEM (reported). */
int qsb_watch_look(qsb_watching *g, qsb_process_end *end, int *status);

/* Waits until one of the n processes exits or a short while has passed (a signal ends it
** too). */
void qsb_watch_wait(qsb_watching *const *g, size_t n);

/* The stop signals (stop.h) blocked across a fork (restored by qsb_signals_restore): a child
** installs its handlers before it can receive them, and the run cannot miss one. */
void qsb_signals_block(sigset_t *old);
void qsb_signals_restore(const sigset_t *old);

#endif
