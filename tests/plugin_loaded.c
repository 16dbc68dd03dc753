/*
** A plug-in that says which processes ran its code, for the test that none of it runs in the
** process that owns a run's or an audit's files (tests/test_plugin_owner.sh): its library's
** constructor appends "PID\n" of the process loading it to the file named by
** QSB_TEST_LOADED_LOG (nothing when that is unset), and marked_sort, qsort_r's signature, is
** the registry's introsort (its source compiled in) that appends "sort PID\n" there at its
** first call in a process.
*/
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "sorts.h"

#define EXPORT __attribute__((visibility("default")))

EXPORT void marked_sort(void *base, size_t n, size_t size, qsb_compare cmp, void *arg);

/* One line appended with O_APPEND: processes that load it at once do not interleave. */
static void mark(const char *what)
{
    const char *log = getenv("QSB_TEST_LOADED_LOG");
    if (!log || !*log)
        return;
    int fd = open(log, O_WRONLY | O_APPEND | O_CREAT | O_CLOEXEC, 0600);
    if (fd < 0)
        return;
    char line[64];
    int len = snprintf(line, sizeof line, "%s%ld\n", what, (long)getpid());
    if (len > 0 && write(fd, line, (size_t)len) != len)
        len = -1; /* nothing more to do: the test sees a missing line */
    close(fd);
}

__attribute__((constructor)) static void loaded(void)
{
    mark("");
}

void marked_sort(void *base, size_t n, size_t size, qsb_compare cmp, void *arg)
{
    static pid_t marked; /* a fork inherits it: compare with the caller's pid */
    if (marked != getpid()) {
        marked = getpid();
        mark("sort ");
    }
    qsb_introsort(base, n, size, cmp, arg);
}
