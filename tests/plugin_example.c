/*
** An example plug-in for `--algos PATH.so:SYMBOL` (src/plugins/plugins.h), built as a shared
** module beside the tests. It wraps the registry's `introsort` (its source compiled in):
**
**   plain_introsort       introsort as is: the A/A partner of the registry entry
**   slow_introsort_3pct   introsort, then busy work for 3% of the time the sort took
**   slow_introsort_5pct   the same with 5% (the matrix gate's measurement)
**   slow_introsort_10pct  the same with 10%
**   broken_sort           sorts, then swaps the first and last elements: fails verification
**   introsort_qsort       introsort behind qsort's signature (load it with ":qsort")
**
** The extra work is calibrated on the sort it follows, not on a constant: after the sort the
** wrapper spins on CLOCK_MONOTONIC_RAW, touching no memory and calling no comparator, until
** the given fraction of the sort's own elapsed time has passed again. The slowdown is so the
** stated percentage of every pattern, size and machine (plus two clock reads), which is what
** the detection-power measurement needs.
*/
#include <stddef.h>
#include <time.h>

#include "sorts.h"

#define EXPORT __attribute__((visibility("default")))


/* Exported: declared here for -Wmissing-prototypes (no header: dlsym finds them). */
EXPORT void plain_introsort(void *base, size_t n, size_t size, qsb_compare cmp, void *arg);
EXPORT void slow_introsort_3pct(void *base, size_t n, size_t size, qsb_compare cmp, void *arg);
EXPORT void slow_introsort_5pct(void *base, size_t n, size_t size, qsb_compare cmp, void *arg);
EXPORT void slow_introsort_10pct(void *base, size_t n, size_t size, qsb_compare cmp, void *arg);
EXPORT void broken_sort(void *base, size_t n, size_t size, qsb_compare cmp, void *arg);
EXPORT void introsort_qsort(void *base, size_t n, size_t size,
                            int (*cmp)(const void *, const void *));

static double now_ns(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC_RAW, &ts);
    return (double)ts.tv_sec * 1e9 + (double)ts.tv_nsec;
}

static void introsort_with_extra(double fraction, void *base, size_t n, size_t size,
                                 qsb_compare cmp, void *arg)
{
    double start = now_ns();
    qsb_introsort(base, n, size, cmp, arg);
    double sorted = now_ns();
    double until = sorted + (sorted - start) * fraction;
    while (now_ns() < until)
        ; /* the extra work: comparator-free, memory-free */
}

void plain_introsort(void *base, size_t n, size_t size, qsb_compare cmp, void *arg)
{
    qsb_introsort(base, n, size, cmp, arg);
}

void slow_introsort_3pct(void *base, size_t n, size_t size, qsb_compare cmp, void *arg)
{
    introsort_with_extra(0.03, base, n, size, cmp, arg);
}

void slow_introsort_5pct(void *base, size_t n, size_t size, qsb_compare cmp, void *arg)
{
    introsort_with_extra(0.05, base, n, size, cmp, arg);
}

void slow_introsort_10pct(void *base, size_t n, size_t size, qsb_compare cmp, void *arg)
{
    introsort_with_extra(0.10, base, n, size, cmp, arg);
}

void broken_sort(void *base, size_t n, size_t size, qsb_compare cmp, void *arg)
{
    qsb_introsort(base, n, size, cmp, arg);
    if (n < 2)
        return;
    unsigned char *first = base, *last = first + (n - 1) * size;
    for (size_t i = 0; i < size; i++) {
        unsigned char t = first[i];
        first[i] = last[i];
        last[i] = t;
    }
}

/* qsort's comparator carried through introsort's argument. */
typedef struct {
    int (*cmp)(const void *, const void *);
} two_argument_cmp;

static int call_two_argument(const void *a, const void *b, void *holder)
{
    return ((const two_argument_cmp *)holder)->cmp(a, b);
}

void introsort_qsort(void *base, size_t n, size_t size, int (*cmp)(const void *, const void *))
{
    two_argument_cmp holder = {cmp};
    qsb_introsort(base, n, size, call_two_argument, &holder);
}
