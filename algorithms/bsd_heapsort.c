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

/* The code keeps libbsd's shape where gcc's output depends on it, so that both compile to the
** same loops at the same offsets, whatever the alignment flags (speed parity is then not a
** matter of where each side's loops happen to land): the sort's parameters are passed as
** values, as libbsd keeps them in locals (read through a struct, each would be loaded again
** after every byte the loops store); a child is kept as a pointer and moved to its sibling; the
** climb computes the parent's address before its test. Written otherwise, gcc allocates
** registers differently, the code before the loops changes length, and one such shape ran 28%
** faster than libbsd's under one of the alignments tools/speed-parity tries, at par under
** another. */

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

/* The larger of the children at child_i and, when child_i < n, child_i + 1: its address, with
** child_i moved to it. */
static inline char *larger_child(char *base, size_t size, size_t *child_i, size_t n,
                                 qsb_compare cmp, void *arg)
{
    char *child = base + *child_i * size;
    if (*child_i < n && cmp(child, child + size, arg) < 0) {
        child += size;
        ++*child_i;
    }
    return child;
}

/* Heap construction: the element at `parent` sinks, swapped with its larger child while that
** child is greater. */
static void sift_down(char *base, size_t size, size_t parent, size_t n, qsb_compare cmp,
                      void *arg)
{
    for (size_t child_i; (child_i = parent * 2) <= n; parent = child_i) {
        char *child = larger_child(base, size, &child_i, n, cmp, arg);
        char *at = base + parent * size;
        if (cmp(child, at, arg) <= 0)
            break;
        swap_bytes(at, child, size);
    }
}

/* Re-heaps the first n elements after the root was taken, with `saved` (outside the array) to
** be placed: the hole goes down to a leaf, then saved climbs up from there. */
static void select_root(char *base, size_t size, size_t n, const char *saved, qsb_compare cmp,
                        void *arg)
{
    size_t hole = 1;
    for (size_t child_i; (child_i = hole * 2) <= n; hole = child_i)
        copy_bytes(base + hole * size, larger_child(base, size, &child_i, n, cmp, arg), size);
    for (;;) {
        size_t parent = hole / 2;
        char *at = base + hole * size, *above = base + parent * size;
        if (hole == 1 || cmp(saved, above, arg) < 0) {
            copy_bytes(at, saved, size);
            return;
        }
        copy_bytes(at, above, size);
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
    for (size_t parent = n / 2 + 1; --parent;)
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
