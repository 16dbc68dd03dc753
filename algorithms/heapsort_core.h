/*
** The binary-heap sort of glibc's heapsort_r (2.39, `heapsort`) and of the 2023 introsort,
** written once as static inline code. qsb_heap_sort() sorts the elements 0..last (inclusive,
** last >= 1) in place: heapify bottom-up with siftdown(k, last) for k = last/2 down to 0, then
** repeatedly swap the root to the end, shrink the heap and sift the new root down. At most
** about 2 n log2 n comparisons, no allocation, O(1) stack, not stable.
**
** Two heap shapes, a compile-time constant:
**   QSB_HEAP_PROPER     children 2k+1 and 2k+2 (heapsort, introsort-final);
**   QSB_HEAP_COMMITTED  children 2k and 2k+1, as in the introsort committed on 2023-10-31: the
**                       root compares itself with itself (or E(1) twice). Its ordering bug is
**                       hidden by that sort's final insertion sort, and kept because it decides
**                       the comparator calls.
** Swaps inline or through an out-of-line call (`site`, a constant): the introsorts call, as
** their glibc code compiles (element_swap.h); `heapsort` inlines.
** glibc's proper siftdown also stops when j == k; that cannot happen with j >= 2k + 1, so it is
** not written here (no comparator call depends on it).
**
** qsb_heap_sort_bottom_up() is the other heapsort glibc had: the 2021 introsort's, after Linux
** lib/sort.c (Wegener's bottom-up heapsort). The heap is the proper one, but each sift first
** follows the larger child down to a leaf with one comparison per level, then climbs back to
** the first node not smaller than the sifted element, and rotates that path up by one: fewer
** comparisons than two per level, since elements sift down close to the leaves.
*/
#ifndef QSB_HEAPSORT_CORE_H
#define QSB_HEAPSORT_CORE_H

#include <stddef.h>

#include "element_swap.h"
#include "sorts.h"

typedef enum {
    QSB_HEAP_COMMITTED = 0, /* the value is the first child's offset from 2k */
    QSB_HEAP_PROPER = 1
} qsb_heap_shape;

/* Restores the heap of elements 0..last below k. For the committed shape the loop condition
** 2k <= last is glibc's k <= last / 2. */
static QSB_ALWAYS_INLINE void qsb_heap_siftdown(char *base, size_t k, size_t last, size_t size,
                                                qsb_compare cmp, void *arg, qsb_swap_kind swap,
                                                const qsb_heap_shape shape,
                                                const qsb_swap_site site)
{
    size_t j;
    while ((j = 2 * k + (size_t)shape) <= last) {
        if (j < last && cmp(base + j * size, base + (j + 1) * size, arg) < 0)
            j++; /* the larger child */
        if (cmp(base + k * size, base + j * size, arg) >= 0)
            break;
        qsb_swap_at(base + j * size, base + k * size, size, swap, site);
        k = j;
    }
}

/* The last siftdown runs on a one-element heap: no call for the proper shape, one
** self-comparison for the committed shape (as committed). */
static QSB_ALWAYS_INLINE void qsb_heap_sort(char *base, size_t last, size_t size,
                                            qsb_compare cmp, void *arg, qsb_swap_kind swap,
                                            const qsb_heap_shape shape,
                                            const qsb_swap_site site)
{
    for (size_t k = last / 2 + 1; k-- > 0;)
        qsb_heap_siftdown(base, k, last, size, cmp, arg, swap, shape, site);
    while (last > 0) {
        qsb_swap_at(base, base + last * size, size, swap, site);
        last--;
        qsb_heap_siftdown(base, 0, last, size, cmp, arg, swap, shape, site);
    }
}

/* The parent of the element at byte offset i (> 0), as a byte offset, with no division by the
** size: (i - size) / size is odd exactly when i - size has the size's lowest set bit, and then
** one more size comes off before halving. */
static QSB_ALWAYS_INLINE size_t qsb_heap_parent_offset(size_t i, size_t lowbit, size_t size)
{
    i -= size;
    i -= size & -(i & lowbit);
    return i / 2;
}

/* Bottom-up: sorts the `count` elements from base (nothing below two). It is written, as the
** 2021 code writes it, over byte offsets in one loop that first heapifies (node steps down to
** offset 0) and then moves the root behind the shrinking heap; children are 2 b + size and
** 2 b + 2 size, parents come from qsb_heap_parent_offset(). Compiled, the walks are additions
** and shifts with no multiplication by the size (objdump of the real code); the same walks
** over element indices cost two multiplications per comparison. The comparisons are the 2021
** code's: (child, sibling) on the way down, then (node, b) on the way up. */
static QSB_ALWAYS_INLINE void qsb_heap_sort_bottom_up(char *base, size_t count, size_t size,
                                                      qsb_compare cmp, void *arg,
                                                      qsb_swap_kind swap,
                                                      const qsb_swap_site site)
{
    const size_t lowbit = size & -size;
    size_t end = count * size;        /* the heap is the bytes before it */
    size_t node = count / 2 * size;   /* the next node to sift, once decremented */
    if (node == 0)
        return;
    for (;;) {
        if (node != 0) {
            node -= size;
        } else {
            end -= size;
            if (end == 0)
                break;
            qsb_swap_at(base, base + end, size, swap, site);
        }
        size_t b = node, child, sibling;
        while ((sibling = (child = 2 * b + size) + size) < end)
            b = cmp(base + child, base + sibling, arg) >= 0 ? child : sibling;
        if (sibling == end)
            b = child; /* the last leaf, with no sibling */
        while (b != node && cmp(base + node, base + b, arg) >= 0)
            b = qsb_heap_parent_offset(b, lowbit, size);
        /* b is where the element at node belongs: each swap with the next ancestor moves it
        ** one step down the path and that ancestor's element into its place. */
        const size_t target = b;
        while (b != node) {
            b = qsb_heap_parent_offset(b, lowbit, size);
            qsb_swap_at(base + b, base + target, size, swap, site);
        }
    }
}

#endif
