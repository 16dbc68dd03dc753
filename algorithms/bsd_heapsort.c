/*
** bsd-heapsort: libbsd 0.11's heapsort(3) (src/heapsort.c, from 4.4BSD; FreeBSD's
** lib/libc/stdlib/heapsort.c), Knuth's heapsort (TAOCP vol. 3, 5.2.3) on a 1-based max-heap with
** children 2i and 2i+1. The heap is built bottom-up by sift-downs that swap as they go. Each
** later step moves the last element to a one-element buffer, the root to the last place, and
** re-heaps with Knuth's exercise 18 (Floyd's trick): the larger child climbs into each hole all
** the way down (one comparison per level), then the saved element climbs back up from the
** bottom to its place, which is usually near it. That saves 15-20% of the comparisons.
**
** At most about n log2 n + O(n) comparisons, O(n log n) in the worst case; O(1) stack; not
** stable. It allocates its one-element buffer (malloc of `size` bytes) at each call, and the
** comparator is also given that buffer, not only elements of the array. On malloc failure the
** real function returns -1 and sorts nothing; so does this entry. Copies and swaps move one
** byte at a time, as libbsd's do. The comparator calls and the bytes are libbsd's
** (test_bsd_heapsort_oracle, against Debian's libbsd through -lbsd). libbsd's heapsort has
** qsort's signature; here the comparator's argument is passed along, so that each comparison
** is one indirect call, as libbsd's makes to a two-argument comparator.
*/
#include "bsd_heapsort.h"

#include <stdlib.h>

#include "sorts.h"

/* The sort's parameters are passed as values, as libbsd keeps them in locals: read through a
** struct, each would be loaded again after every byte the loops below store. */

static inline void copy_bytes(char *to, const char *from, size_t size)
{
    do
        *to++ = *from++;
    while (--size);
}

static inline void swap_bytes(char *a, char *b, size_t size)
{
    do {
        char t = *a;
        *a++ = *b;
        *b++ = t;
    } while (--size);
}

/* The larger child of parent in the heap at base (elements numbered from 1, as in Knuth and
** libbsd), or 0 when it has none within the first n elements. */
static inline size_t larger_child(char *base, size_t size, size_t parent, size_t n,
                                  qsb_compare cmp, void *arg)
{
    size_t child = parent * 2;
    if (child > n)
        return 0;
    if (child < n && cmp(base + child * size, base + (child + 1) * size, arg) < 0)
        child++;
    return child;
}

/* Heap construction: the element at `parent` sinks, swapped with its larger child while that
** child is greater. */
static void sift_down(char *base, size_t size, size_t parent, size_t n, qsb_compare cmp,
                      void *arg)
{
    for (size_t child; (child = larger_child(base, size, parent, n, cmp, arg)) != 0;
         parent = child) {
        if (cmp(base + child * size, base + parent * size, arg) <= 0)
            break;
        swap_bytes(base + parent * size, base + child * size, size);
    }
}

/* Re-heaps the first n elements after the root was taken, with `saved` (outside the array) to
** be placed: the hole goes down to a leaf, then saved climbs up from there. */
static void select_root(char *base, size_t size, size_t n, const char *saved, qsb_compare cmp,
                        void *arg)
{
    size_t hole = 1;
    for (size_t child; (child = larger_child(base, size, hole, n, cmp, arg)) != 0; hole = child)
        copy_bytes(base + hole * size, base + child * size, size);
    for (;;) {
        size_t parent = hole / 2;
        if (hole == 1 || cmp(saved, base + parent * size, arg) < 0) {
            copy_bytes(base + hole * size, saved, size);
            return;
        }
        copy_bytes(base + hole * size, base + parent * size, size);
        hole = parent;
    }
}

int qsb_bsd_heapsort_status(void *array, size_t n, size_t size, qsb_compare cmp, void *arg)
{
    if (n <= 1)
        return 0;
    if (size == 0)
        return -1; /* EINVAL */
    char *saved = malloc(size);
    if (!saved)
        return -1;
    char *base = (char *)array - size; /* element i at base + i * size, from 1 */
    for (size_t parent = n / 2; parent >= 1; parent--)
        sift_down(base, size, parent, n, cmp, arg);
    while (n > 1) {
        copy_bytes(saved, base + n * size, size);
        copy_bytes(base + n * size, base + size, size);
        n--;
        select_root(base, size, n, saved, cmp, arg);
    }
    free(saved);
    return 0;
}

void qsb_bsd_heapsort(void *base, size_t n, size_t size, qsb_compare cmp, void *arg)
{
    (void)qsb_bsd_heapsort_status(base, n, size, cmp, arg);
}
