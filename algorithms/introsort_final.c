/*
** `introsort-final`: the last introsort qsort on glibc master (2023-12-04), i.e. `introsort`
** with the fixes made before the revert: no pivot self-comparisons, a proper heapsort over the
** whole partition, depth spent on every partitioning step, and an insertion sort bounded by
** the array's start. Not stable, no allocation, O(log n) stack, O(n log n) comparisons in the
** worst case. The algorithm itself is the final variant of quicksort_core.h (via
** introsort_core.h).
*/
#include "introsort_core.h"

void qsb_introsort_final(void *base, size_t n, size_t size, qsb_compare cmp, void *arg)
{
    qsb_introsort_run(base, n, size, cmp, arg, QSB_INTROSORT_FINAL, NULL);
}
