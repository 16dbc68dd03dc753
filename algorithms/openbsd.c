/*
** openbsd: OpenBSD's qsort since 2017 (lib/libc/stdlib/qsort.c, rev. 1.18 of 2017-05-30), the
** Bentley-McIlroy quicksort of "Engineering a Sort Function" (1993) made an introsort (Musser
** 1997): median of three as pivot (first, middle, last; Tukey's ninther above 40 elements; the
** middle element alone at exactly 7), 3-way partition with the keys equal to the pivot
** gathered at both ends and swapped to the middle, insertion sort below 7 elements, the smaller
** side by recursion and the larger by the loop. Each partition spends one level of a depth of
** 2 * (floor(log2 n) + 1); a range reached with none left goes to heapsort(3), 4.4BSD's
** (bsd_heapsort.h). If that heapsort cannot get its one-element buffer, the range is
** partitioned anyway, and the depth, decremented past zero, never runs out again.
**
** About 1.1 n log2 n comparisons on random input; O(n log n) in the worst case through the
** heapsort. O(log n) stack, not stable; malloc is called only by the heapsort, so only on
** inputs that exhaust the depth (such as McIlroy's adversary). Swaps move one int or one long
** when the element is one, ints or longs when the size and the base are multiples of them,
** else bytes, as OpenBSD's do. OpenBSD's has qsort's signature; here the comparator's argument
** is passed along (one indirect call per comparison, as OpenBSD's). The comparator calls and
** the bytes equal those of OpenBSD's own qsort.c built with libbsd's heapsort (the same 4.4BSD
** code as OpenBSD's), checked outside the test suite since no Debian package ships it
** (docs/results.md).
*/
#include <stdint.h>
#include <string.h>

#include "bsd_heapsort.h"
#include "sorts.h"

enum {
    INSERTION_BELOW = 7, /* n < 7: insertion sort only */
    NINTHER_ABOVE = 40   /* n > 40: median of three medians */
};

/* How elements are swapped, numbered as OpenBSD's so that the switches compile alike. */
typedef enum {
    SWAP_BYTES = 1,
    SWAP_INTS,
    SWAP_LONGS,
    SWAP_ONE_INT,
    SWAP_ONE_LONG
} swap_kind;

static inline void swap_ints(char *a, char *b, size_t bytes)
{
    size_t i = bytes / sizeof(int);
    do {
        int x, y;
        memcpy(&x, a, sizeof x);
        memcpy(&y, b, sizeof y);
        memcpy(a, &y, sizeof y);
        memcpy(b, &x, sizeof x);
        a += sizeof x;
        b += sizeof x;
    } while (--i > 0);
}

static inline void swap_longs(char *a, char *b, size_t bytes)
{
    size_t i = bytes / sizeof(long);
    do {
        long x, y;
        memcpy(&x, a, sizeof x);
        memcpy(&y, b, sizeof y);
        memcpy(a, &y, sizeof y);
        memcpy(b, &x, sizeof x);
        a += sizeof x;
        b += sizeof x;
    } while (--i > 0);
}

static inline void swap_bytes(char *a, char *b, size_t bytes)
{
    do {
        char t = *a;
        *a++ = *b;
        *b++ = t;
    } while (--bytes > 0);
}

/* OpenBSD's swapfunc: blocks of ints, longs or bytes, by the kind. */
static inline void swap_blocks(char *a, char *b, size_t bytes, swap_kind kind)
{
    switch (kind) {
    case SWAP_ONE_INT:
    case SWAP_INTS:
        swap_ints(a, b, bytes);
        break;
    case SWAP_ONE_LONG:
    case SWAP_LONGS:
        swap_longs(a, b, bytes);
        break;
    default:
        swap_bytes(a, b, bytes);
        break;
    }
}

static QSB_ALWAYS_INLINE void swap(char *a, char *b, size_t es, swap_kind kind)
{
    switch (kind) {
    case SWAP_ONE_INT: {
        int x, y;
        memcpy(&x, a, sizeof x);
        memcpy(&y, b, sizeof y);
        memcpy(a, &y, sizeof y);
        memcpy(b, &x, sizeof x);
        break;
    }
    case SWAP_ONE_LONG: {
        long x, y;
        memcpy(&x, a, sizeof x);
        memcpy(&y, b, sizeof y);
        memcpy(a, &y, sizeof y);
        memcpy(b, &x, sizeof x);
        break;
    }
    default:
        swap_blocks(a, b, es, kind);
    }
}

static QSB_ALWAYS_INLINE void vecswap(char *a, char *b, size_t bytes, swap_kind kind)
{
    if (bytes > 0)
        swap_blocks(a, b, bytes, kind);
}

static QSB_ALWAYS_INLINE int aligned_for(const void *base, size_t size, size_t word)
{
    return (uintptr_t)base % word == 0 && size % word == 0;
}

static QSB_ALWAYS_INLINE swap_kind choose_swap(const void *base, size_t size)
{
    if (aligned_for(base, size, sizeof(long)))
        return size == sizeof(long) ? SWAP_ONE_LONG : SWAP_LONGS;
    if (sizeof(int) != sizeof(long) && aligned_for(base, size, sizeof(int)))
        return size == sizeof(int) ? SWAP_ONE_INT : SWAP_INTS;
    return SWAP_BYTES;
}

static inline char *median_of_three(char *a, char *b, char *c, qsb_compare cmp, void *arg)
{
    return cmp(a, b, arg) < 0 ? (cmp(b, c, arg) < 0 ? b : cmp(a, c, arg) < 0 ? c : a)
                            : (cmp(b, c, arg) > 0 ? b : cmp(a, c, arg) < 0 ? a : c);
}

static QSB_ALWAYS_INLINE void insertion_sort(char *a, size_t n, size_t es, swap_kind kind,
                                             qsb_compare cmp, void *arg)
{
    for (char *m = a + es; m < a + n * es; m += es)
        for (char *l = m; l > a && cmp(l - es, l, arg) > 0; l -= es)
            swap(l, l - es, es, kind);
}

/* The code keeps OpenBSD's shape where gcc's output depends on it, so that both compile to the
** same instructions with the loops at nearly the same offsets, whatever the alignment flags
** (written otherwise, the two sides' partition loops landed differently and SORTED differed by
** seven points): the parameters travel as values and every step is in one recursive function;
** what OpenBSD writes as a macro (swap, vecswap) is always inlined, what it declares inline is
** inline; the swap kind is chosen in the caller's own body (always inlined: from a function
** inlined later, gcc knows less of the kind in introsort and lays all of it out otherwise). */
static void introsort(char *a, size_t n, size_t es, size_t depth, swap_kind kind,
                      qsb_compare cmp, void *arg)
{
    for (;;) {
        if (n < INSERTION_BELOW) {
            insertion_sort(a, n, es, kind, cmp, arg);
            return;
        }
        if (depth == 0 && qsb_bsd_heapsort_status(a, n, es, cmp, arg) == 0)
            return;
        depth--; /* past zero when the heapsort failed: it is not tried again */
        char *pm = a + (n / 2) * es;
        if (n > INSERTION_BELOW) {
            char *pl = a, *pn = a + (n - 1) * es;
            if (n > NINTHER_ABOVE) {
                size_t d = (n / 8) * es;
                pl = median_of_three(pl, pl + d, pl + 2 * d, cmp, arg);
                pm = median_of_three(pm - d, pm, pm + d, cmp, arg);
                pn = median_of_three(pn - 2 * d, pn - d, pn, cmp, arg);
            }
            pm = median_of_three(pl, pm, pn, cmp, arg);
        }
        /* The pivot at a[0]; the keys equal to it gathered at both ends, then swapped to the
        ** middle. */
        swap(a, pm, es, kind);
        char *pa = a + es, *pb = pa, *pc = a + (n - 1) * es, *pd = pc;
        int c;
        for (;;) {
            while (pb <= pc && (c = cmp(pb, a, arg)) <= 0) {
                if (c == 0) {
                    swap(pa, pb, es, kind);
                    pa += es;
                }
                pb += es;
            }
            while (pb <= pc && (c = cmp(pc, a, arg)) >= 0) {
                if (c == 0) {
                    swap(pc, pd, es, kind);
                    pd -= es;
                }
                pc -= es;
            }
            if (pb > pc)
                break;
            swap(pb, pc, es, kind);
            pb += es;
            pc -= es;
        }
        char *pn = a + n * es;
        size_t r = pa - a < pb - pa ? (size_t)(pa - a) : (size_t)(pb - pa);
        vecswap(a, pb - r, r, kind);
        r = (size_t)(pd - pc) < (size_t)(pn - pd) - es ? (size_t)(pd - pc) : (size_t)(pn - pd) - es;
        vecswap(pb, pn - r, r, kind);
        size_t less = (size_t)(pb - pa), greater = (size_t)(pd - pc);
        /* The smaller side by recursion, the larger by the loop. */
        if (less < greater) {
            if (greater <= es)
                return;
            if (less > es)
                introsort(a, less / es, es, depth, kind, cmp, arg);
            a = pn - greater;
            n = greater / es;
        } else {
            if (less <= es)
                return;
            if (greater > es)
                introsort(pn - greater, greater / es, es, depth, kind, cmp, arg);
            n = less / es;
        }
    }
}

void qsb_openbsd(void *base, size_t n, size_t size, qsb_compare cmp, void *arg)
{
    size_t depth = 0;
    for (size_t i = n; i > 0; i >>= 1)
        depth++;
    introsort(base, n, size, 2 * depth, choose_swap(base, size), cmp, arg);
}
