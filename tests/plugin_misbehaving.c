/*
** Plug-ins that misbehave, for the tests of a run that survives them (tests/test_isolation.sh):
** each has qsort_r's signature and does what its name says instead of sorting.
**
**   exit_sort      exit(0)            _exit_sort   _exit(0)
**   crash_sort     SIGSEGV            abort_sort   abort()
**   heap_sort      writes over a heap block's neighbour and frees it (glibc aborts)
**   loop_sort      never returns      stop_sort    stops itself (SIGSTOP), then never returns
**   notafunc       a data object, not a function
**   kill_sort      an insertion sort that kills its own process (SIGKILL, as the OOM killer
**                  would) at its first call in the FROM-th to (FROM+TIMES-1)-th process that
**                  calls it: the processes are counted in the file KILL_SORT_FILE, and FROM
**                  and TIMES come from KILL_SORT_FROM and KILL_SORT_TIMES
**   pair_sort      an insertion sort whose first call in a process waits until a second
**                  process has called it too (a file per process in PAIR_SORT_DIR): workers
**                  one after the other never get past the first one's first sort (its stall
**                  deadline ends it), two at once do. With PAIR_SORT_HOLD_N, a call on that
**                  many elements writes PAIR_SORT_DIR/PID.held and waits until
**                  PAIR_SORT_DIR/release exists (workers held in flight, for a stop)
**   slow_sort      an insertion sort that first sleeps 0.4 s: a worker that makes progress,
**                  far slower than any estimate, and never stalls (for the budget's end)
*/
#include <signal.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <dirent.h>
#include <time.h>
#include <unistd.h>

#include "comparator.h"

#define EXPORT __attribute__((visibility("default")))

EXPORT void exit_sort(void *base, size_t n, size_t size, qsb_compare cmp, void *arg);
EXPORT void _exit_sort(void *base, size_t n, size_t size, qsb_compare cmp, void *arg);
EXPORT void crash_sort(void *base, size_t n, size_t size, qsb_compare cmp, void *arg);
EXPORT void abort_sort(void *base, size_t n, size_t size, qsb_compare cmp, void *arg);
EXPORT void heap_sort(void *base, size_t n, size_t size, qsb_compare cmp, void *arg);
EXPORT void loop_sort(void *base, size_t n, size_t size, qsb_compare cmp, void *arg);
EXPORT void stop_sort(void *base, size_t n, size_t size, qsb_compare cmp, void *arg);
EXPORT void kill_sort(void *base, size_t n, size_t size, qsb_compare cmp, void *arg);
EXPORT void pair_sort(void *base, size_t n, size_t size, qsb_compare cmp, void *arg);
EXPORT void slow_sort(void *base, size_t n, size_t size, qsb_compare cmp, void *arg);
EXPORT extern int notafunc[4];

int notafunc[4] = {1, 2, 3, 4};

void exit_sort(void *base, size_t n, size_t size, qsb_compare cmp, void *arg)
{
    (void)base, (void)n, (void)size, (void)cmp, (void)arg;
    exit(0);
}

void _exit_sort(void *base, size_t n, size_t size, qsb_compare cmp, void *arg)
{
    (void)base, (void)n, (void)size, (void)cmp, (void)arg;
    _exit(0);
}

void crash_sort(void *base, size_t n, size_t size, qsb_compare cmp, void *arg)
{
    (void)base, (void)n, (void)size, (void)cmp, (void)arg;
    raise(SIGSEGV);
}

void abort_sort(void *base, size_t n, size_t size, qsb_compare cmp, void *arg)
{
    (void)base, (void)n, (void)size, (void)cmp, (void)arg;
    abort();
}

/* The block's size field and the next chunk's header overwritten: free() detects it. */
void heap_sort(void *base, size_t n, size_t size, qsb_compare cmp, void *arg)
{
    (void)base, (void)n, (void)size, (void)cmp, (void)arg;
    unsigned char *volatile block = malloc(24);
    if (!block)
        abort();
    memset(block - 8, 0xff, 64);
    free(block);
    abort(); /* not reached where free() caught it */
}

void loop_sort(void *base, size_t n, size_t size, qsb_compare cmp, void *arg)
{
    (void)base, (void)n, (void)size, (void)cmp, (void)arg;
    for (volatile int spin = 0;; spin++)
        ;
}

void stop_sort(void *base, size_t n, size_t size, qsb_compare cmp, void *arg)
{
    raise(SIGSTOP);
    loop_sort(base, n, size, cmp, arg);
}

/* This process's ordinal among those that called kill_sort (from 1; 0: not counted). The
** file, not a static flag, knows whether this process was counted: a run may load several
** copies of a plug-in (placement.h). */
static long process_ordinal(const char *path)
{
    FILE *f = fopen(path, "a+");
    if (!f)
        return 0;
    long pid = (long)getpid(), seen, lines = 0, mine = 0;
    while (fscanf(f, "%ld", &seen) == 1)
        if (++lines && seen == pid)
            mine = lines;
    if (!mine) {
        fprintf(f, "%ld\n", pid);
        mine = lines + 1;
    }
    fclose(f);
    return mine;
}

/* Killed at the first call of a chosen process only. */
static void kill_if_chosen(void)
{
    const char *path = getenv("KILL_SORT_FILE"), *from = getenv("KILL_SORT_FROM"),
               *times = getenv("KILL_SORT_TIMES");
    if (!path || !from || !times)
        return;
    long ordinal = process_ordinal(path), first = atol(from);
    if (ordinal >= first && ordinal < first + atol(times))
        raise(SIGKILL);
}

static void insertion_sort(void *base, size_t n, size_t size, qsb_compare cmp, void *arg)
{
    unsigned char *a = base, held[256];
    if (size > sizeof held)
        abort();
    for (size_t i = 1; i < n; i++) {
        memcpy(held, a + i * size, size);
        size_t j = i;
        for (; j > 0 && cmp(a + (j - 1) * size, held, arg) > 0; j--)
            memcpy(a + j * size, a + (j - 1) * size, size);
        memcpy(a + j * size, held, size);
    }
}

void kill_sort(void *base, size_t n, size_t size, qsb_compare cmp, void *arg)
{
    kill_if_chosen();
    insertion_sort(base, n, size, cmp, arg);
}

static int file_exists(const char *dir, const char *name)
{
    char path[4096];
    snprintf(path, sizeof path, "%s/%s", dir, name);
    return access(path, F_OK) == 0;
}

static void create_file(const char *dir, const char *name)
{
    char path[4096];
    snprintf(path, sizeof path, "%s/%s", dir, name);
    FILE *f = fopen(path, "w");
    if (f)
        fclose(f);
}

/* The processes that called pair_sort: the files named by a pid alone. */
static int processes_arrived(const char *dir)
{
    int count = 0;
    DIR *d = opendir(dir);
    for (struct dirent *e; d && (e = readdir(d)) != NULL;)
        count += e->d_name[0] >= '0' && e->d_name[0] <= '9' && !strchr(e->d_name, '.');
    if (d)
        closedir(d);
    return count;
}

static void nap(void)
{
    struct timespec pause = {0, 1000000L};
    nanosleep(&pause, NULL);
}

void pair_sort(void *base, size_t n, size_t size, qsb_compare cmp, void *arg)
{
    const char *dir = getenv("PAIR_SORT_DIR"), *hold = getenv("PAIR_SORT_HOLD_N");
    char me[32], held[48];
    snprintf(me, sizeof me, "%ld", (long)getpid());
    snprintf(held, sizeof held, "%ld.held", (long)getpid());
    if (dir && !file_exists(dir, me)) {
        create_file(dir, me);
        while (processes_arrived(dir) < 2)
            nap();
    }
    if (dir && hold && n == (size_t)atol(hold) && !file_exists(dir, held)) {
        create_file(dir, held);
        while (!file_exists(dir, "release"))
            nap();
    }
    insertion_sort(base, n, size, cmp, arg);
}

void slow_sort(void *base, size_t n, size_t size, qsb_compare cmp, void *arg)
{
    struct timespec pause = {0, 400000000L};
    nanosleep(&pause, NULL);
    insertion_sort(base, n, size, cmp, arg);
}
