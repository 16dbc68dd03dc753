/*
** quicksort: glibc's legacy _quicksort alone (msort's fallback up to 2.38), the core of
** quicksort_core.c: median-of-three quicksort down to partitions of 4, then one insertion
** sort with a sentinel. O(n log n) typical, O(n^2) worst case comparisons; in place,
** O(log n) stack (64 nodes), not stable, no allocation.
*/
#include "quicksort_core.h"
#include "sorts.h"

void qsb_quicksort(void *base, size_t n, size_t size, qsb_compare cmp, void *arg)
{
    qsb_legacy_quicksort(base, n, size, cmp, arg);
}
