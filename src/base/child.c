/*
** Child processes (child.h). fork() is called in one place, start(). A program's captured
** output is read until end of file before it is waited for, so that a program that writes
** more than a pipe holds never blocks; whether its exec failed comes back on a pipe closed on
** exec. Process groups: Linux, the members found in /proc, the orphans come back through
** PR_SET_CHILD_SUBREAPER.
*/
#include "child.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/pidfd.h>
#include <sys/prctl.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "diag.h"

#define NAMED_MAX 4          /* processes named in the warning; the rest are counted */
#define COMM_BYTES 20        /* a process's name (the kernel keeps 15 characters) */
#define LEFT_MAX 256         /* processes handled per look */
#define END_WAIT_ROUNDS 5000 /* of END_WAIT_NS: how long killed processes get to be gone */
#define END_WAIT_NS 1000000L

#define LEADERS_MAX 64      /* groups running at once that qsb_group_end spares */
static bool subreaper; /* this process is one: what a group leaves comes back here */
/* The leaders of the groups started and not yet ended: several may run at once (a run's
** worker processes side by side), and the end of one must not take the others. */
static pid_t leaders[LEADERS_MAX];
static size_t nleaders;

static void leader_add(pid_t pid)
{
    if (nleaders < LEADERS_MAX)
        leaders[nleaders++] = pid;
}

static void leader_remove(pid_t pid)
{
    for (size_t i = 0; i < nleaders; i++)
        if (leaders[i] == pid) {
            leaders[i] = leaders[--nleaders];
            return;
        }
}

/* Is pid (or the group pgrp) another group's that is still running? */
static bool of_other_group(pid_t leader, pid_t pid, pid_t pgrp)
{
    for (size_t i = 0; i < nleaders; i++)
        if (leaders[i] != leader && (leaders[i] == pid || leaders[i] == pgrp))
            return true;
    return false;
}

/* The one fork: the child runs fn(arg) and ends with its return, _exit, so that no atexit
** handler or stdio buffer of this process runs twice. group: it leads a group of its own. */
static pid_t start(bool group, int (*fn)(void *arg), void *arg)
{
    if (group && !subreaper) /* without it, orphans go to init: still found in /proc, killed */
        subreaper = prctl(PR_SET_CHILD_SUBREAPER, 1) == 0;
    pid_t parent = getpid();
    fflush(NULL);
    pid_t pid = fork();
    if (pid == 0) {
        if (group)
            setpgid(0, 0);
        if (group && (prctl(PR_SET_PDEATHSIG, SIGKILL) != 0 || getppid() != parent))
            _exit(127); /* the tool is gone already */
        _exit(fn(arg));
    }
    if (pid > 0 && group) {
        setpgid(pid, pid);
        leader_add(pid);
    }
    return pid;
}

pid_t qsb_child_fork(int (*fn)(void *arg), void *arg)
{
    return start(true, fn, arg);
}

/* ---- a program ---- */

typedef struct {
    const char *const *argv, *const *env_add;
    const char *dir;
    qsb_child_output output;
    int capture_fd; /* the write end of the captured stream's pipe; -1: none */
    int exec_fd;    /* exec's errno is written here when it fails */
} program;

/* In the child: the streams set, then exec; returns only when that failed. */
static int exec_program(void *arg)
{
    const program *p = arg;
    bool errors_kept = p->output != QSB_CHILD_QUIET;
    int null_fd = open("/dev/null", O_RDWR | O_CLOEXEC);
    if (null_fd >= 0)
        dup2(null_fd, STDIN_FILENO);
    int out_fd = !errors_kept && p->capture_fd >= 0 ? p->capture_fd : null_fd;
    int err_fd = errors_kept ? p->capture_fd : null_fd;
    if (out_fd >= 0)
        dup2(out_fd, STDOUT_FILENO);
    if (err_fd >= 0 && (p->capture_fd >= 0 || !errors_kept))
        dup2(err_fd, STDERR_FILENO);
    for (const char *const *e = p->env_add; e && *e; e++)
        putenv((char *)*e);
    if (!p->dir || chdir(p->dir) == 0)
        execvp(p->argv[0], (char *const *)p->argv);
    int e = errno;
    ssize_t ignored = write(p->exec_fd, &e, sizeof e); /* the parent reads why */
    (void)ignored;
    return 127;
}

/* The captured stream into out: its start, or its end when keep_end (the buffer's older half
** dropped whenever it fills). */
static void read_all(int fd, char *out, size_t len, bool keep_end)
{
    size_t used = 0;
    char sink[4096];
    for (;;) {
        if (keep_end && used + 1 == len && len > 2) {
            memmove(out, out + len / 2, used - len / 2);
            used -= len / 2;
        }
        char *into = used + 1 < len ? out + used : sink;
        size_t room = used + 1 < len ? len - 1 - used : sizeof sink;
        ssize_t k = read(fd, into, room);
        if (k < 0 && errno == EINTR)
            continue;
        if (k <= 0)
            break;
        if (into != sink)
            used += (size_t)k;
    }
    while (used > 0 && (out[used - 1] == '\n' || out[used - 1] == '\r'))
        used--;
    out[used] = '\0';
}

static void close_pair(int fds[2])
{
    for (int i = 0; i < 2; i++)
        if (fds[i] >= 0)
            close(fds[i]);
    fds[0] = fds[1] = -1;
}

int qsb_child_run(const char *const *argv, const char *dir, const char *const *env_add,
                  char *out, size_t len, qsb_child_output output)
{
    int capture[2] = {-1, -1}, exec_err[2] = {-1, -1};
    if ((out && pipe2(capture, O_CLOEXEC) != 0) || pipe2(exec_err, O_CLOEXEC) != 0) {
        int err = errno;
        close_pair(capture);
        errno = err;
        return -1;
    }
    program p = {argv, env_add, dir, output, capture[1], exec_err[1]};
    pid_t pid = start(false, exec_program, &p);
    int err = errno, e = 0, wstatus = 0;
    if (capture[1] >= 0)
        close(capture[1]);
    close(exec_err[1]);
    if (pid > 0 && out)
        read_all(capture[0], out, len, output == QSB_CHILD_LAST_ERRORS);
    ssize_t n = 0;
    while (pid > 0 && (n = read(exec_err[0], &e, sizeof e)) < 0 && errno == EINTR)
        continue;
    if (capture[0] >= 0)
        close(capture[0]);
    close(exec_err[0]);
    if (pid < 0) {
        errno = err;
        return -1;
    }
    while (waitpid(pid, &wstatus, 0) < 0)
        if (errno != EINTR)
            return -1;
    if (n == (ssize_t)sizeof e) {
        errno = e ? e : ENOEXEC;
        return -1;
    }
    return wstatus;
}

typedef struct {
    pid_t pid;
    pid_t parent;
    char state;
    char comm[COMM_BYTES];
} process;

/* /proc/PID/stat: "pid (comm) state ppid pgrp ...", comm may hold spaces and parentheses. */
static bool read_process(pid_t pid, process *p, pid_t *group)
{
    char path[64], text[512];
    snprintf(path, sizeof path, "/proc/%ld/stat", (long)pid);
    FILE *f = fopen(path, "re");
    if (!f)
        return false;
    size_t got = fread(text, 1, sizeof text - 1, f);
    fclose(f);
    text[got] = '\0';
    char *open = strchr(text, '('), *close = strrchr(text, ')');
    long parent, pgrp;
    if (!open || !close || close < open ||
        sscanf(close + 1, " %c %ld %ld", &p->state, &parent, &pgrp) != 3)
        return false;
    size_t len = (size_t)(close - open - 1);
    len = len < COMM_BYTES - 1 ? len : COMM_BYTES - 1;
    memcpy(p->comm, open + 1, len);
    p->comm[len] = '\0';
    p->pid = pid;
    p->parent = (pid_t)parent;
    *group = (pid_t)pgrp;
    return true;
}

/* The processes left of the leader's group, and those reparented here but the leader. */
static size_t find_left(pid_t leader, process *left, size_t max)
{
    DIR *d = opendir("/proc");
    size_t n = 0;
    pid_t self = getpid();
    for (struct dirent *e; d && n < max && (e = readdir(d)) != NULL;) {
        char *end;
        long pid = strtol(e->d_name, &end, 10);
        pid_t group;
        process p;
        if (*end || pid <= 0 || pid == leader || pid == self ||
            !read_process((pid_t)pid, &p, &group))
            continue;
        if (group == leader || (p.parent == self && !of_other_group(leader, p.pid, group)))
            left[n++] = p;
    }
    if (d)
        closedir(d);
    return n;
}

static void remember(process *named, size_t *count, const process *p)
{
    for (size_t i = 0; i < *count && i < NAMED_MAX; i++)
        if (named[i].pid == p->pid)
            return;
    if (*count < NAMED_MAX)
        named[*count] = *p;
    (*count)++;
}

static void say_left(const char *who, const process *named, size_t count)
{
    char list[NAMED_MAX * (COMM_BYTES + 48)] = "";
    size_t used = 0;
    for (size_t i = 0; i < count && i < NAMED_MAX && used < sizeof list; i++) {
        int n = snprintf(list + used, sizeof list - used, "%spid %ld '%s'", i ? ", " : "",
                         (long)named[i].pid, qsb_quote(named[i].comm));
        used += n > 0 ? (size_t)n : 0;
    }
    qsb_warning("%s left %zu process%s running (%s%s); %s killed", who, count,
                count == 1 ? "" : "es", list, count > NAMED_MAX ? ", ..." : "",
                count == 1 ? "it was" : "they were");
}

/* The quick answer for the usual case, nothing left: when the leader ended, its children
** were reparented here (a subreaper), and their children stay theirs; so with no child here
** but the leader, nothing of its group is left. Without /proc/self/task/TID/children (or a
** subreaper), the full look in /proc decides. */
static bool only_leader_here(pid_t leader)
{
    char path[64], text[256];
    snprintf(path, sizeof path, "/proc/self/task/%ld/children", (long)gettid());
    FILE *f = subreaper ? fopen(path, "re") : NULL;
    if (!f)
        return false;
    size_t got = fread(text, 1, sizeof text - 1, f);
    bool whole = feof(f);
    fclose(f);
    text[got] = '\0';
    long pid;
    int used;
    for (const char *p = text; whole && sscanf(p, "%ld%n", &pid, &used) == 1; p += used)
        if (pid != leader && !of_other_group(leader, (pid_t)pid, 0))
            return false;
    return whole;
}

size_t qsb_group_end(pid_t leader, const char *who)
{
    leader_remove(leader);
    if (only_leader_here(leader))
        return 0;
    process left[LEFT_MAX], named[NAMED_MAX];
    size_t count = 0;
    pid_t self = getpid();
    for (int round = 0; round < END_WAIT_ROUNDS; round++) {
        size_t n = find_left(leader, left, LEFT_MAX); /* named before any is killed */
        if (n == 0)
            break;
        kill(-leader, SIGKILL);
        bool reaped = false;
        for (size_t i = 0; i < n; i++) {
            if (left[i].state != 'Z')
                remember(named, &count, &left[i]);
            kill(left[i].pid, SIGKILL);
            if (left[i].parent == self)
                reaped |= waitpid(left[i].pid, NULL, 0) == left[i].pid;
        }
        if (!reaped) { /* the rest are a killed parent's: they come here once it is gone */
            struct timespec pause = {0, END_WAIT_NS};
            nanosleep(&pause, NULL);
        }
    }
    if (count > 0)
        say_left(who, named, count);
    return count;
}

/* ---- standard output ---- */

#define SAVED_FD_MIN 100 /* the saved standard output: above the descriptors in common use */
#define COPY_BYTES 4096

static double seconds_now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

/* Has pid ended (its zombie kept for qsb_group_end)? -1 when it cannot be waited for. */
static int leader_ended(pid_t pid)
{
    siginfo_t info;
    info.si_pid = 0;
    if (waitid(P_PID, (id_t)pid, &info, WEXITED | WNOHANG | WNOWAIT) < 0)
        return errno == EINTR ? 0 : -1;
    return info.si_pid == pid;
}

static void describe_end(int wstatus, bool timed_out, double deadline_s, char *cause,
                         size_t len)
{
    if (timed_out)
        snprintf(cause, len, "timed out after %.0f s", deadline_s);
    else if (WIFSIGNALED(wstatus))
        snprintf(cause, len, "%s: signal %d",
                 WTERMSIG(wstatus) == SIGKILL ? "killed" : "crashed", WTERMSIG(wstatus));
    else
        snprintf(cause, len, "exited with status %d", WEXITSTATUS(wstatus));
}

/* The wait wakes when the process exits (poll on a pidfd); without pidfds (Linux before 5.3)
** it looks every millisecond. */
int qsb_child_wait(pid_t pid, double deadline_s, const char *who, bool *timed_out, char *cause,
                   size_t len)
{
    int pidfd = pidfd_open(pid, 0), ended, wstatus = 0;
    double deadline = seconds_now() + deadline_s;
    *timed_out = false;
    while ((ended = leader_ended(pid)) == 0) {
        double left_s = deadline - seconds_now();
        if (left_s <= 0 && !*timed_out) {
            kill(pid, SIGKILL);
            *timed_out = true;
        }
        struct pollfd exited = {pidfd, POLLIN, 0};
        struct timespec pause = {0, END_WAIT_NS};
        if (pidfd >= 0)
            poll(&exited, 1, *timed_out ? 10 : (int)(left_s * 1000) + 1);
        else
            nanosleep(&pause, NULL);
    }
    if (pidfd >= 0)
        close(pidfd);
    if (ended < 0)
        return -1;
    qsb_group_end(pid, who);
    while (waitpid(pid, &wstatus, 0) < 0 && errno == EINTR)
        continue;
    if (cause)
        describe_end(wstatus, *timed_out, deadline_s, cause, len);
    return wstatus;
}

int qsb_stdout_divert_begin(qsb_stdout_divert *d)
{
    fflush(stdout);
    d->capture = memfd_create("qsortbench-plugin-stdout", MFD_CLOEXEC);
    d->saved = d->capture >= 0 ? fcntl(STDOUT_FILENO, F_DUPFD_CLOEXEC, SAVED_FD_MIN) : -1;
    if (d->saved >= 0 && dup2(d->capture, STDOUT_FILENO) == STDOUT_FILENO)
        return QSB_OK;
    int err = errno;
    if (d->saved >= 0)
        close(d->saved);
    if (d->capture >= 0)
        close(d->capture);
    d->saved = d->capture = -1;
    return qsb_error(QSB_ESYSTEM, "cannot set plug-in code's standard output aside: %s",
                     strerror(err));
}

static void copy_to_stderr(int fd)
{
    char buf[COPY_BYTES];
    ssize_t got;
    lseek(fd, 0, SEEK_SET);
    while ((got = read(fd, buf, sizeof buf)) > 0)
        if (write(STDERR_FILENO, buf, (size_t)got) != got)
            return;
}

void qsb_stdout_divert_end(qsb_stdout_divert *d, const char *who)
{
    if (d->saved < 0)
        return;
    fflush(stdout);
    struct stat st;
    bool wrote = fstat(d->capture, &st) == 0 && st.st_size > 0;
    dup2(d->saved, STDOUT_FILENO);
    close(d->saved);
    if (wrote) {
        qsb_warning("%s wrote %lld bytes on standard output, which carries only the tool's "
                    "own; they follow on standard error",
                    who, (long long)st.st_size);
        fflush(stderr);
        copy_to_stderr(d->capture);
    }
    close(d->capture);
    d->saved = d->capture = -1;
}
