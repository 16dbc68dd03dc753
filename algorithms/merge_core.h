/*
** The legacy glibc merge sort (msort_with_tmp), written once for msort and msort-2.39: top-down,
** left half n/2 elements, merged into the start of a scratch buffer (ties take the left run:
** stable) and copied back. n log2 n comparisons at most, O(log n) recursion depth, no
** allocation of its own: the caller provides the scratch.
**
** Elements larger than QSB_MERGE_INDIRECT_ABOVE bytes are sorted indirectly: n element
** pointers are merge-sorted (the comparator still receives the element addresses), then the
** permutation is applied in place cycle by cycle (Knuth 5.2 exercise 10), no comparator calls.
**
** The copy mode decides how an element is moved; the callers choose it (glibc's rule changed
** in 2.39). It is chosen once per sort; each mode has its own merge loop, picked at each merge.
*/
#ifndef QSB_MERGE_CORE_H
#define QSB_MERGE_CORE_H

#include <stddef.h>

#include "sorts.h"

#define QSB_MERGE_INDIRECT_ABOVE 32 /* bytes per element */

typedef enum {
    QSB_COPY_WORD32,  /* size 4, base 4-aligned: one 32-bit move */
    QSB_COPY_WORD64,  /* size 8, base 8-aligned: one 64-bit move */
    QSB_COPY_LONGS,   /* size a multiple of 8, base 8-aligned: 64-bit moves (glibc <= 2.38) */
    QSB_COPY_BYTES,   /* anything else: memcpy of the element */
    QSB_COPY_INDIRECT /* size > QSB_MERGE_INDIRECT_ABOVE: sort pointers, then permute */
} qsb_copy_mode;

/* Scratch bytes the sort needs: n * size, or 2 n pointers and one element when indirect. */
size_t qsb_merge_scratch_bytes(size_t n, size_t size);

/* Sorts with `scratch` of qsb_merge_scratch_bytes(n, size) bytes, aligned for a pointer (and
** for the words of the copy mode). mode must be QSB_COPY_INDIRECT exactly when
** size > QSB_MERGE_INDIRECT_ABOVE, and a word mode only for the size and alignment it names. */
void qsb_merge_sort(void *base, size_t n, size_t size, qsb_copy_mode mode, void *scratch,
                    qsb_compare cmp, void *arg);

#endif
