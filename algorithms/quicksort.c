/*
** quicksort: glibc's legacy _quicksort alone (msort's fallback up to 2.38), the legacy variant
** of quicksort_core.h: median-of-three quicksort down to partitions of at most 5 elements, then
** one insertion sort with a sentinel. O(n log n) typical, O(n^2) worst case comparisons; in place,
** O(log n) stack (64 nodes), not stable, no allocation.
*/
#include "quicksort_core.h"
#include "sorts.h"

void qsb_quicksort(void *base, size_t n, size_t size, qsb_compare cmp, void *arg)
{
    qsb_quicksort_run(base, n, size, cmp, arg, QSB_QUICKSORT_LEGACY, NULL);
}
