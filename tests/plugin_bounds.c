/*
** A hostile plug-in for the bounds and the audit's children, built as a shared module beside
** the tests. Every function has the qsort_r signature, sorts correctly (the registry's
** introsort, its source compiled in), and then misbehaves as its name says:
**
**   past_end_page     writes 4096 bytes just past the array
**   past_end_element  writes one element just past the array
**   before_start      writes one element just before the array
**   past_end_small_n  writes one element past the array, only when n < 500 (the audit's
**                     first sort, of 1000, does not see it; its stability probe does)
**   loop_forever      never returns (a busy loop)
**   crash_segv        dies of SIGSEGV
**   exit_zero         calls exit(0) from inside the sort
**
** The stray writes copy the array's first element (or its bytes), so they look like data.
*/
#include <signal.h>
#include <stdlib.h>
#include <string.h>

#include "sorts.h"

#define EXPORT __attribute__((visibility("default")))

/* Exported: declared here for -Wmissing-prototypes (no header: dlsym finds them). */
EXPORT void past_end_page(void *base, size_t n, size_t size, qsb_compare cmp, void *arg);
EXPORT void past_end_element(void *base, size_t n, size_t size, qsb_compare cmp, void *arg);
EXPORT void before_start(void *base, size_t n, size_t size, qsb_compare cmp, void *arg);
EXPORT void past_end_small_n(void *base, size_t n, size_t size, qsb_compare cmp, void *arg);
EXPORT void loop_forever(void *base, size_t n, size_t size, qsb_compare cmp, void *arg);
EXPORT void crash_segv(void *base, size_t n, size_t size, qsb_compare cmp, void *arg);
EXPORT void exit_zero(void *base, size_t n, size_t size, qsb_compare cmp, void *arg);

void past_end_page(void *base, size_t n, size_t size, qsb_compare cmp, void *arg)
{
    qsb_introsort(base, n, size, cmp, arg);
    unsigned char *end = (unsigned char *)base + n * size;
    for (size_t i = 0; i < 4096; i++)
        end[i] = ((unsigned char *)base)[i % (n * size)];
}

void past_end_element(void *base, size_t n, size_t size, qsb_compare cmp, void *arg)
{
    qsb_introsort(base, n, size, cmp, arg);
    memcpy((unsigned char *)base + n * size, base, size);
}

void before_start(void *base, size_t n, size_t size, qsb_compare cmp, void *arg)
{
    qsb_introsort(base, n, size, cmp, arg);
    memcpy((unsigned char *)base - size, base, size);
}

void past_end_small_n(void *base, size_t n, size_t size, qsb_compare cmp, void *arg)
{
    qsb_introsort(base, n, size, cmp, arg);
    if (n < 500)
        memcpy((unsigned char *)base + n * size, base, size);
}

void loop_forever(void *base, size_t n, size_t size, qsb_compare cmp, void *arg)
{
    qsb_introsort(base, n, size, cmp, arg);
    for (volatile int spin = 1; spin;)
        continue;
}

/* Dies of SIGSEGV, as a wild store would, whatever handler is installed: a real null store
** would be caught first by UBSan in a sanitized build, and reported as an exit instead. */
void crash_segv(void *base, size_t n, size_t size, qsb_compare cmp, void *arg)
{
    qsb_introsort(base, n, size, cmp, arg);
    signal(SIGSEGV, SIG_DFL);
    raise(SIGSEGV);
}

void exit_zero(void *base, size_t n, size_t size, qsb_compare cmp, void *arg)
{
    qsb_introsort(base, n, size, cmp, arg);
    exit(0);
}
