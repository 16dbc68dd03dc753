/*
** heapsort: glibc 2.39's heapsort_r, the fallback of its qsort when malloc fails. A binary
** max-heap on children 2k+1 and 2k+2, built bottom-up, then the maximum swapped to the end one
** element at a time (the heap itself is heapsort_core.h, shared with introsort-final). At most
** about 2 n log2 n comparisons, in place, no allocation, O(1) stack, not stable.
**
** Swaps as glibc 2.39 chose them, once per sort: one 32-bit word for 4-byte elements on a
** 4-aligned base, one 64-bit word for 8-byte elements on an 8-aligned base, otherwise bytes
** (32-byte chunks, then the tail byte by byte from the end).
*/
#include <stdint.h>

#include "element_swap.h"
#include "heapsort_core.h"
#include "sorts.h"

static qsb_swap_kind choose_swap(const void *base, size_t size)
{
    uintptr_t address = (uintptr_t)base;
    if (size == 4 && address % 4 == 0)
        return QSB_SWAP_WORDS_32;
    if (size == 8 && address % 8 == 0)
        return QSB_SWAP_WORDS_64;
    return QSB_SWAP_BYTES;
}

/* Each case passes its size and swap kind as constants, so each gets its own inlined heap. */
void qsb_heapsort(void *base, size_t n, size_t size, qsb_compare cmp, void *arg)
{
    if (n <= 1)
        return;
    switch (choose_swap(base, size)) {
    case QSB_SWAP_WORDS_32:
        qsb_heap_sort(base, n - 1, 4, cmp, arg, QSB_SWAP_WORDS_32, QSB_HEAP_PROPER,
                      QSB_SWAP_INLINE);
        break;
    case QSB_SWAP_WORDS_64:
        qsb_heap_sort(base, n - 1, 8, cmp, arg, QSB_SWAP_WORDS_64, QSB_HEAP_PROPER,
                      QSB_SWAP_INLINE);
        break;
    default:
        qsb_heap_sort(base, n - 1, size, cmp, arg, QSB_SWAP_BYTES, QSB_HEAP_PROPER,
                      QSB_SWAP_INLINE);
        break;
    }
}
