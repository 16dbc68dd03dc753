/*
** Plug-ins that reach outside their sort, for the tests of a run that contains them
** (tests/test_intrusive.sh). Each has qsort_r's signature and sorts right (the registry's
** introsort, its source compiled in) besides what its name says:
**
**   print_sort        writes a line on standard output at every call (stdio and write(2))
**   fork_sort         forks, at its first call in a process, a child that waits forever
**   close_sort        closes every descriptor of its process at its first call
**   nofile_sort       lowers RLIMIT_NOFILE to 3 at its first call
**   late_write_sort   remembers the array it sorted ...
**   late_trigger_sort ... and this one, called after it, writes into that array before
**                     sorting its own: plug-in code writing into an array after its sort
**                     returned, at a moment the test can rely on (a detached thread's write
**                     lands whenever it lands)
**   deaf_sort         ignores SIGTERM, SIGINT and SIGHUP from its first call on
**   deaf_hang_sort    as deaf_sort, and never returns from the first call of its
**                     QSB_TEST_HANG_VISIT-th visit of a cell of QSB_TEST_HANG_NELEM elements
**                     (a visit: calls with one element count after calls with another),
**                     where it creates the file QSB_TEST_HANG_MARK; run it with --no-reload,
**                     so that one copy of the library counts every visit
**
** The library's constructor does one of the first three at load when QSB_TEST_CONSTRUCTOR is
** "print", "fork" or "close". A forked child appends its pid to the file QSB_TEST_PID_LOG
** (when set) and holds a shared lock on that file while it lives, so that a test can see
** that every such child ended (an exclusive lock can be taken); deaf_sort creates the file QSB_TEST_DEAF_MARK
** at its first call, so that a test knows it runs.
*/
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <sys/resource.h>
#include <unistd.h>

#include "sorts.h"

#define EXPORT __attribute__((visibility("default")))

EXPORT void print_sort(void *base, size_t n, size_t size, qsb_compare cmp, void *arg);
EXPORT void fork_sort(void *base, size_t n, size_t size, qsb_compare cmp, void *arg);
EXPORT void close_sort(void *base, size_t n, size_t size, qsb_compare cmp, void *arg);
EXPORT void nofile_sort(void *base, size_t n, size_t size, qsb_compare cmp, void *arg);
EXPORT void late_write_sort(void *base, size_t n, size_t size, qsb_compare cmp, void *arg);
EXPORT void late_trigger_sort(void *base, size_t n, size_t size, qsb_compare cmp, void *arg);
EXPORT void deaf_sort(void *base, size_t n, size_t size, qsb_compare cmp, void *arg);
EXPORT void deaf_hang_sort(void *base, size_t n, size_t size, qsb_compare cmp, void *arg);

/* True once per process (a fork inherits the static: the pid tells). */
static int first_call_here(pid_t *seen)
{
    if (*seen == getpid())
        return 0;
    *seen = getpid();
    return 1;
}

static void say_on_stdout(const char *who)
{
    char line[96];
    int len = snprintf(line, sizeof line, "%s: a line on standard output\n", who);
    printf("%s: through stdio\n", who);
    fflush(stdout);
    if (len > 0 && write(STDOUT_FILENO, line, (size_t)len) != len)
        return;
}

/* A child that outlives its parent, holding its descriptors (a pipe's write end among them). */
static void leave_child(void)
{
    pid_t pid = fork();
    if (pid != 0)
        return;
    const char *log = getenv("QSB_TEST_PID_LOG");
    int fd = log ? open(log, O_WRONLY | O_APPEND | O_CREAT, 0600) : -1;
    char line[32];
    int len = snprintf(line, sizeof line, "%ld\n", (long)getpid());
    if (fd >= 0 && flock(fd, LOCK_SH) == 0 && len > 0 && write(fd, line, (size_t)len) == len)
        fd = -1; /* kept open: its lock is held for as long as this process lives */
    for (;;)
        pause();
}

static void close_everything(void)
{
    for (int fd = 0; fd < 4096; fd++)
        close(fd);
}

__attribute__((constructor)) static void loaded(void)
{
    const char *what = getenv("QSB_TEST_CONSTRUCTOR");
    if (!what)
        return;
    if (strcmp(what, "print") == 0)
        say_on_stdout("constructor");
    else if (strcmp(what, "fork") == 0)
        leave_child();
    else if (strcmp(what, "close") == 0)
        close_everything();
}

void print_sort(void *base, size_t n, size_t size, qsb_compare cmp, void *arg)
{
    say_on_stdout("print_sort");
    qsb_introsort(base, n, size, cmp, arg);
}

void fork_sort(void *base, size_t n, size_t size, qsb_compare cmp, void *arg)
{
    static pid_t seen;
    if (first_call_here(&seen))
        leave_child();
    qsb_introsort(base, n, size, cmp, arg);
}

void close_sort(void *base, size_t n, size_t size, qsb_compare cmp, void *arg)
{
    static pid_t seen;
    if (first_call_here(&seen))
        close_everything();
    qsb_introsort(base, n, size, cmp, arg);
}

void nofile_sort(void *base, size_t n, size_t size, qsb_compare cmp, void *arg)
{
    static pid_t seen;
    if (first_call_here(&seen)) {
        struct rlimit three = {3, 3};
        setrlimit(RLIMIT_NOFILE, &three);
    }
    qsb_introsort(base, n, size, cmp, arg);
}

static unsigned char *late_array; /* the last array late_write_sort sorted */

void late_write_sort(void *base, size_t n, size_t size, qsb_compare cmp, void *arg)
{
    qsb_introsort(base, n, size, cmp, arg);
    late_array = n > 0 ? base : NULL;
}

void late_trigger_sort(void *base, size_t n, size_t size, qsb_compare cmp, void *arg)
{
    if (late_array)
        late_array[0] ^= 0xff;
    late_array = NULL;
    qsb_introsort(base, n, size, cmp, arg);
}

void deaf_sort(void *base, size_t n, size_t size, qsb_compare cmp, void *arg)
{
    static pid_t seen;
    if (first_call_here(&seen)) {
        signal(SIGTERM, SIG_IGN);
        signal(SIGINT, SIG_IGN);
        signal(SIGHUP, SIG_IGN);
        const char *mark = getenv("QSB_TEST_DEAF_MARK");
        int fd = mark ? open(mark, O_WRONLY | O_CREAT, 0600) : -1;
        if (fd >= 0)
            close(fd);
    }
    qsb_introsort(base, n, size, cmp, arg);
}

static void create_mark(const char *variable)
{
    const char *mark = getenv(variable);
    int fd = mark ? open(mark, O_WRONLY | O_CREAT, 0600) : -1;
    if (fd >= 0)
        close(fd);
}

void deaf_hang_sort(void *base, size_t n, size_t size, qsb_compare cmp, void *arg)
{
    static size_t last_n, visits;
    const char *nelem = getenv("QSB_TEST_HANG_NELEM"), *visit = getenv("QSB_TEST_HANG_VISIT");
    size_t hang_n = nelem ? (size_t)atol(nelem) : 0;
    if (n == hang_n && last_n != hang_n)
        visits++;
    last_n = n;
    deaf_sort(base, n, size, cmp, arg);
    if (visit && n == hang_n && visits == (size_t)atol(visit)) {
        create_mark("QSB_TEST_HANG_MARK");
        for (;;)
            pause(); /* the stop signals are ignored: only SIGKILL ends it */
    }
}
