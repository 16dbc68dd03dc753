/*
** The legacy glibc quicksort (_quicksort, unchanged from 1992 to glibc 2.38), written once: the
** `quicksort` entry and msort's fallback both run it. Median-of-three quicksort with an explicit
** stack of 64 (lo, hi) pairs that leaves partitions of at most 4 elements unsorted, then one
** insertion sort over the whole array. Byte-by-byte swaps, no allocation, O(log n) stack,
** O(n^2) comparisons in the worst case, not stable.
**
** The insertion sort has no lower bound: it relies on a sentinel (the minimum of the first
** min(n, 5) elements moved to the front). A non-transitive comparator can therefore make it run
** below the array (the Qualys 2024 finding); this is what glibc shipped and is kept.
*/
#ifndef QSB_QUICKSORT_CORE_H
#define QSB_QUICKSORT_CORE_H

#include <stddef.h>

#include "sorts.h"

/* The whole legacy sort: partitioning, then the final insertion sort. */
void qsb_legacy_quicksort(void *base, size_t n, size_t size, qsb_compare cmp, void *arg);

/* The final insertion sort alone (requires n >= 1): correct on any input, fastest when every
** element is within 4 places of its final position. */
void qsb_legacy_insertion_sort(char *base, size_t n, size_t size, qsb_compare cmp, void *arg);

#endif
