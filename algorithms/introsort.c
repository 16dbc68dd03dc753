/*
** `introsort`: glibc's qsort as committed on 2023-10-31 (the introsort of the 2021 patch
** series, reverted in January 2024; the cover letter's "patches"). Median-of-three quicksort,
** heapsort after 2 * floor(log2 n) levels of pushed partitions, final insertion sort.
** Not stable, no allocation, O(log n) stack. glibc promised an O(n log n) worst case, but as
** committed only pushed partitions spend depth, so a pivot adversary that peels off small partitions
** keeps it quadratic; its heapsort and its unbounded insertion sort are kept as shipped.
** The algorithm itself is the introsort variant of quicksort_core.h (via introsort_core.h).
*/
#include "introsort_core.h"

void qsb_introsort(void *base, size_t n, size_t size, qsb_compare cmp, void *arg)
{
    qsb_introsort_run(base, n, size, cmp, arg, QSB_INTROSORT_COMMITTED, NULL);
}
