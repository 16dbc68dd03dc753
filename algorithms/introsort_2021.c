/*
** `introsort-2021`: the introsort qsort of the 2021 glibc patch series ("Use introsort for
** qsort", v3), the code whose timings the cover letter published. Median-of-three quicksort,
** a bottom-up heapsort (Linux lib/sort.c style) after 2 * floor(log2 n) levels of pushed
** partitions, final insertion sort. It is the 2023 commit (`introsort`) but for the heapsort:
** the same quirks (only pushed partitions spend depth, so a pivot adversary keeps it
** quadratic; an unbounded insertion sort). Not stable, no allocation, O(log n) stack.
** The algorithm itself is the 2021 variant of quicksort_core.h (via introsort_core.h).
*/
#include "introsort_core.h"

void qsb_introsort_2021(void *base, size_t n, size_t size, qsb_compare cmp, void *arg)
{
    qsb_introsort_run(base, n, size, cmp, arg, QSB_INTROSORT_2021, NULL);
}
