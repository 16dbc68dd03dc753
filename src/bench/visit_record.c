/*
** The visit record and the watch over a process that writes it (visit_record.h).
*/
#include "visit_record.h"

#include <dirent.h>
#include <errno.h>
#include <stdlib.h>
#include <sys/resource.h>
#include <fcntl.h>
#include <poll.h>
#include <stdio.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/pidfd.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "diag.h"
#include "child.h"
#include "stop.h"
#include "timing.h"
#include "worker_protocol.h"

#define POLL_MS 20 /* how often the watch looks at the record (and redraws progress) */

static qsb_visit_record *map_record(int fd)
{
    void *m = mmap(NULL, sizeof(qsb_visit_record), PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
    return m == MAP_FAILED ? NULL : m;
}

qsb_visit_record *qsb_visit_record_create(int *fd)
{
    *fd = memfd_create("qsortbench-visits", MFD_CLOEXEC);
    qsb_visit_record *r = NULL;
    if (*fd >= 0 && ftruncate(*fd, sizeof *r) == 0)
        r = map_record(*fd);
    if (r) {
        memset(r, 0, sizeof *r);
        qsb_visit_record_reset(r);
        return r;
    }
    qsb_error(QSB_ESYSTEM, "cannot create the record of the processes' visits: %s",
              strerror(errno));
    if (*fd >= 0)
        close(*fd);
    *fd = -1;
    return NULL;
}

qsb_visit_record *qsb_visit_record_open(int fd)
{
    struct stat st;
    qsb_visit_record *r = NULL;
    if (fstat(fd, &st) == 0 && (size_t)st.st_size >= sizeof *r)
        r = map_record(fd);
    if (!r)
        qsb_usage_error("--%s %d: not the record of a run's visits",
                        qsb_worker_option_name(offsetof(qsb_worker_protocol, visit_fd)), fd);
    return r;
}

void qsb_visit_record_close(qsb_visit_record *r, int fd)
{
    if (r)
        munmap(r, sizeof *r);
    if (fd >= 0)
        close(fd);
}

void qsb_visit_record_reset(qsb_visit_record *r)
{
    r->steps = 0;
    r->algo = -1;
    r->finished = 0;
    r->cells_kept = 0;
    r->stop = 0;
    r->cell[0] = '\0';
    r->cause[0] = '\0';
}

int qsb_visit_stop(const qsb_visit_record *r)
{
    return r ? r->stop : 0;
}

void qsb_visit_abandon(qsb_visit_record *r, size_t algo, const char *cause)
{
    if (r) {
        snprintf(r->cause, sizeof r->cause, "%s", cause);
        r->algo = algo < QSB_VISIT_ALGOS_MAX ? (int32_t)algo : -1;
        r->finished = 0;
    }
    _exit(QSB_ESYSTEM);
}

void qsb_visit_cell(qsb_visit_record *r, const char *pattern, uint64_t nelem, uint64_t size)
{
    if (!r)
        return;
    r->algo = -1;
    snprintf(r->cell, sizeof r->cell, "%s %llu x %llu", pattern, (unsigned long long)nelem,
             (unsigned long long)size);
    r->steps++;
}

void qsb_visit_algorithm(qsb_visit_record *r, size_t algo)
{
    if (!r)
        return;
    r->algo = algo < QSB_VISIT_ALGOS_MAX ? (int32_t)algo : -1;
    r->steps++;
}

void qsb_visit_leave(qsb_visit_record *r)
{
    if (r)
        r->finished = 1;
}

void qsb_visit_cells_returned(qsb_visit_record *r, size_t cells)
{
    if (r)
        r->cells_kept = cells;
}

const char *qsb_visit_excluded(const qsb_visit_record *r, size_t algo)
{
    if (!r || algo >= QSB_VISIT_ALGOS_MAX || !r->excluded[algo][0])
        return NULL;
    return r->excluded[algo];
}

/* ---- what the process needs of itself ---- */

#define MARKED_MAX 64

static struct {
    size_t n;
    struct {
        int fd;
        dev_t dev;
        ino_t ino;
    } fds[MARKED_MAX];
    rlim_t open_files;
    const char *process;
} marked;

void qsb_visit_mark_process(const char *process)
{
    marked.n = 0;
    marked.process = process;
    struct rlimit limit;
    marked.open_files = getrlimit(RLIMIT_NOFILE, &limit) == 0 ? limit.rlim_cur : 0;
    DIR *d = opendir("/proc/self/fd");
    for (struct dirent *e; d && marked.n < MARKED_MAX && (e = readdir(d)) != NULL;) {
        char *end;
        long fd = strtol(e->d_name, &end, 10);
        struct stat st;
        if (*end || e->d_name[0] == '.' || fd == dirfd(d) || fstat((int)fd, &st) != 0)
            continue;
        marked.fds[marked.n].fd = (int)fd;
        marked.fds[marked.n].dev = st.st_dev;
        marked.fds[marked.n].ino = st.st_ino;
        marked.n++;
    }
    if (d)
        closedir(d);
}

bool qsb_visit_process_intact(char *cause, size_t len)
{
    for (size_t i = 0; i < marked.n; i++) {
        struct stat st;
        if (fstat(marked.fds[i].fd, &st) != 0 || st.st_dev != marked.fds[i].dev ||
            st.st_ino != marked.fds[i].ino) {
            snprintf(cause, len, "closed the %s's descriptors (fd %d)", marked.process,
                     marked.fds[i].fd);
            return false;
        }
    }
    struct rlimit limit;
    if (marked.open_files && getrlimit(RLIMIT_NOFILE, &limit) == 0 &&
        limit.rlim_cur < marked.open_files) {
        snprintf(cause, len, "lowered the %s's limit of open files (RLIMIT_NOFILE) to %llu",
                 marked.process, (unsigned long long)limit.rlim_cur);
        return false;
    }
    return true;
}

double qsb_visit_deadline_s(double estimate_s)
{
    double scaled = QSB_VISIT_DEADLINE_FACTOR * estimate_s;
    return scaled > QSB_VISIT_DEADLINE_FLOOR_S ? scaled : QSB_VISIT_DEADLINE_FLOOR_S;
}

/* ---- the watch ---- */

static double seconds_since(uint64_t since)
{
    return (double)(qsb_clock_ns() - since) / 1e9;
}

/* The process ended in a sort when the record names an algorithm and the matrix was not left. */
static bool in_sort(const qsb_visit_record *r)
{
    return r && !r->finished && r->algo >= 0;
}

static void classify(const qsb_watching *g, int wstatus, qsb_process_end *end)
{
    const qsb_visit_record *r = g->record;
    end->exit_code = WIFEXITED(wstatus) ? WEXITSTATUS(wstatus) : -1;
    end->algo = r && r->algo >= 0 ? (size_t)r->algo : 0;
    snprintf(end->cell, sizeof end->cell, "%s", r ? r->cell : "");
    if (in_sort(r) && r->cause[0]) { /* it said why it ended */
        end->kind = QSB_END_SORT_FAILED;
        snprintf(end->cause, sizeof end->cause, "%s", r->cause);
    } else if (g->forwarded) {
        end->kind = QSB_END_INTERRUPTED;
        snprintf(end->cause, sizeof end->cause, "%s",
                 WIFSIGNALED(wstatus) && WTERMSIG(wstatus) == SIGKILL
                     ? "killed after the grace" : "interrupted");
    } else if (g->timed_out) {
        end->kind = in_sort(r) ? QSB_END_SORT_FAILED : QSB_END_LOST;
        snprintf(end->cause, sizeof end->cause, "timed out after %.0f s", g->stalled_s);
    } else if (WIFSIGNALED(wstatus)) {
        int sig = WTERMSIG(wstatus);
        end->kind = sig != SIGKILL && in_sort(r) ? QSB_END_SORT_FAILED : QSB_END_LOST;
        snprintf(end->cause, sizeof end->cause, "%s: signal %d",
                 sig == SIGKILL ? "killed" : "crashed", sig);
    } else {
        end->kind = in_sort(r) ? QSB_END_SORT_FAILED : QSB_END_EXITED;
        snprintf(end->cause, sizeof end->cause, "exited with status %d", end->exit_code);
    }
}

/* One look at the process: a stop request passed on once, a kill past the deadline (the
** steps did not move) or past the grace after the stop. */
static void look(qsb_watching *g)
{
    const qsb_watch *w = g->watch;
    uint64_t steps = g->record ? g->record->steps : 0;
    if (steps != g->last_steps) {
        g->last_steps = steps;
        g->last_step_at = qsb_clock_ns();
    }
    if (w->stop && *w->stop && !g->forwarded) {
        if (g->record)
            g->record->stop = (int32_t)*w->stop;
        kill(g->pid, (int)*w->stop);
        kill(g->pid, SIGCONT); /* a stopped process must run to end */
        g->forwarded = true;
        g->stop_at = qsb_clock_ns();
    }
    double stalled = seconds_since(g->last_step_at);
    if (g->forwarded ? seconds_since(g->stop_at) > QSB_STOP_GRACE_S
                     : (!g->timed_out && stalled > w->deadline_s)) {
        g->timed_out = !g->forwarded;
        g->stalled_s = stalled;
        kill(g->pid, SIGKILL);
    }
}

void qsb_watch_begin(qsb_watching *g, const qsb_watch *w, pid_t pid, qsb_visit_record *r)
{
    memset(g, 0, sizeof *g);
    g->watch = w;
    g->pid = pid;
    g->record = r;
    g->last_step_at = qsb_clock_ns();
    g->last_steps = r ? r->steps : 0;
    g->pidfd = pidfd_open(pid, 0);
}

int qsb_watch_look(qsb_watching *g, qsb_process_end *end, int *status)
{
    siginfo_t info;
    info.si_pid = 0;
    *status = QSB_OK;
    int got = waitid(P_PID, (id_t)g->pid, &info, WEXITED | WNOHANG | WNOWAIT);
    if (got == 0 && info.si_pid == g->pid) { /* ended, its pid still ours: end its group */
        int wstatus = 0;
        qsb_group_end(g->pid, g->watch->who ? g->watch->who : "a measuring process");
        while (waitpid(g->pid, &wstatus, 0) < 0 && errno == EINTR)
            continue;
        memset(end, 0, sizeof *end);
        classify(g, wstatus, end);
    } else if (got < 0 && errno != EINTR) {
        *status = qsb_error(QSB_ESYSTEM, "cannot wait for a measuring process: %s",
                            strerror(errno));
    } else {
        look(g);
        return 0;
    }
    if (g->pidfd >= 0)
        close(g->pidfd);
    g->pidfd = -1;
    return 1;
}

/* The wait wakes when a process exits (poll on a pidfd), not at the next look: a run of a
** small matrix starts hundreds of short workers, and a sleep of half a look after each was a
** tenth of their time. Without pidfds (Linux before 5.3) it looks every POLL_MS. */
void qsb_watch_wait(qsb_watching *const *g, size_t n)
{
    struct pollfd exited[QSB_WATCH_WAIT_MAX];
    size_t m = 0;
    bool all = n > 0;
    for (size_t i = 0; i < n && m < QSB_WATCH_WAIT_MAX; i++) {
        all &= g[i]->pidfd >= 0;
        if (g[i]->pidfd >= 0)
            exited[m++] = (struct pollfd){g[i]->pidfd, POLLIN, 0};
    }
    struct timespec pause = {0, POLL_MS * 1000000L};
    if (all && m == n)
        poll(exited, m, POLL_MS); /* a signal (EINTR) just looks again */
    else
        nanosleep(&pause, NULL);
}

int qsb_watch_process(const qsb_watch *w, pid_t pid, qsb_visit_record *r,
                      qsb_process_end *end)
{
    qsb_watching g;
    qsb_watching *const one[1] = {&g};
    int status = QSB_OK;
    qsb_watch_begin(&g, w, pid, r);
    while (!qsb_watch_look(&g, end, &status)) {
        if (w->tick)
            w->tick();
        qsb_watch_wait(one, 1);
    }
    return status;
}

void qsb_signals_block(sigset_t *old)
{
    sigset_t set;
    sigemptyset(&set);
    qsb_stop_signals_add(&set);
    sigprocmask(SIG_BLOCK, &set, old);
}

void qsb_signals_restore(const sigset_t *old)
{
    sigprocmask(SIG_SETMASK, old, NULL);
}
