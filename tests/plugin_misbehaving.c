/*
** Plug-ins that misbehave, for the tests of a run that survives them (tests/test_isolation.sh):
** each has qsort_r's signature and does what its name says instead of sorting.
**
**   exit_sort      exit(0)            _exit_sort   _exit(0)
**   crash_sort     SIGSEGV            abort_sort   abort()
**   heap_sort      writes over a heap block's neighbour and frees it (glibc aborts)
**   loop_sort      never returns      stop_sort    stops itself (SIGSTOP), then never returns
**   notafunc       a data object, not a function
*/
#include <signal.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>
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
