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
** is passed along (one indirect call per comparison, as OpenBSD's). The
** comparator calls and the bytes equal those of OpenBSD's own qsort.c built with libbsd's
** heapsort (the same 4.4BSD code as OpenBSD's), checked outside the test suite since no Debian
** package ships it (docs/results.md).
*/
#include <stdint.h>
#include <string.h>

#include "bsd_heapsort.h"
#include "sorts.h"

enum {
    INSERTION_BELOW = 7, /* n < 7: insertion sort only */
    NINTHER_ABOVE = 40   /* n > 40: median of three medians */
};

typedef enum {
    SWAP_BYTES,
    SWAP_INTS,
    SWAP_LONGS,
    SWAP_ONE_INT,
    SWAP_ONE_LONG
} swap_kind;

typedef struct {
    size_t size;
    qsb_compare cmp;
    void *arg;
    swap_kind kind;
} openbsd_sort;

static void swap_ints(char *a, char *b, size_t bytes)
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

static void swap_longs(char *a, char *b, size_t bytes)
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

static void swap_bytes(char *a, char *b, size_t bytes)
{
    do {
        char t = *a;
        *a++ = *b;
        *b++ = t;
    } while (--bytes > 0);
}

/* OpenBSD's swapfunc: blocks of ints, longs or bytes, by the kind. Inline, as OpenBSD declares
** it: called, each swap of a larger element is a call. */
static inline void swap_blocks(const openbsd_sort *s, char *a, char *b, size_t bytes)
{
    if (s->kind == SWAP_INTS || s->kind == SWAP_ONE_INT)
        swap_ints(a, b, bytes);
    else if (s->kind == SWAP_LONGS || s->kind == SWAP_ONE_LONG)
        swap_longs(a, b, bytes);
    else
        swap_bytes(a, b, bytes);
}

static void swap(const openbsd_sort *s, char *a, char *b)
{
    if (s->kind == SWAP_ONE_INT) {
        int x, y;
        memcpy(&x, a, sizeof x);
        memcpy(&y, b, sizeof y);
        memcpy(a, &y, sizeof y);
        memcpy(b, &x, sizeof x);
    } else if (s->kind == SWAP_ONE_LONG) {
        long x, y;
        memcpy(&x, a, sizeof x);
        memcpy(&y, b, sizeof y);
        memcpy(a, &y, sizeof y);
        memcpy(b, &x, sizeof x);
    } else {
        swap_blocks(s, a, b, s->size);
    }
}

static void vecswap(const openbsd_sort *s, char *a, char *b, size_t bytes)
{
    if (bytes > 0)
        swap_blocks(s, a, b, bytes);
}

static int aligned_for(const void *base, size_t size, size_t word)
{
    return (uintptr_t)base % word == 0 && size % word == 0;
}

static swap_kind choose_swap(const void *base, size_t size)
{
    if (aligned_for(base, size, sizeof(long)))
        return size == sizeof(long) ? SWAP_ONE_LONG : SWAP_LONGS;
    if (sizeof(int) != sizeof(long) && aligned_for(base, size, sizeof(int)))
        return size == sizeof(int) ? SWAP_ONE_INT : SWAP_INTS;
    return SWAP_BYTES;
}

static void insertion_sort(const openbsd_sort *s, char *a, size_t n)
{
    const size_t es = s->size;
    for (char *m = a + es; m < a + n * es; m += es)
        for (char *l = m; l > a && s->cmp(l - es, l, s->arg) > 0; l -= es)
            swap(s, l, l - es);
}

/* Inline, as OpenBSD declares its med3: no call for each pivot chosen. */
static inline char *median_of_three(const openbsd_sort *s, char *a, char *b, char *c)
{
    if (s->cmp(a, b, s->arg) < 0) {
        if (s->cmp(b, c, s->arg) < 0)
            return b;
        return s->cmp(a, c, s->arg) < 0 ? c : a;
    }
    if (s->cmp(b, c, s->arg) > 0)
        return b;
    return s->cmp(a, c, s->arg) < 0 ? a : c;
}

static char *choose_pivot(const openbsd_sort *s, char *a, size_t n)
{
    const size_t es = s->size;
    char *m = a + (n / 2) * es;
    if (n == INSERTION_BELOW)
        return m;
    char *l = a, *r = a + (n - 1) * es;
    if (n > NINTHER_ABOVE) {
        size_t d = (n / 8) * es;
        l = median_of_three(s, l, l + d, l + 2 * d);
        m = median_of_three(s, m - d, m, m + d);
        r = median_of_three(s, r - 2 * d, r - d, r);
    }
    return median_of_three(s, l, m, r);
}

static size_t min_size(size_t a, size_t b)
{
    return a < b ? a : b;
}

/* Partitions a[0, n) (n >= 7) around the pivot, moved to a[0]; returns the byte lengths of the
** smaller-than and greater-than parts, which end at the two ends. */
static void partition(const openbsd_sort *s, char *a, size_t n, size_t *less, size_t *greater)
{
    const size_t es = s->size;
    int c;
    swap(s, a, choose_pivot(s, a, n));
    char *pa = a + es, *pb = pa, *pc = a + (n - 1) * es, *pd = pc;
    for (;;) {
        while (pb <= pc && (c = s->cmp(pb, a, s->arg)) <= 0) {
            if (c == 0) {
                swap(s, pa, pb);
                pa += es;
            }
            pb += es;
        }
        while (pb <= pc && (c = s->cmp(pc, a, s->arg)) >= 0) {
            if (c == 0) {
                swap(s, pc, pd);
                pd -= es;
            }
            pc -= es;
        }
        if (pb > pc)
            break;
        swap(s, pb, pc);
        pb += es;
        pc -= es;
    }
    char *pn = a + n * es;
    size_t r = min_size((size_t)(pa - a), (size_t)(pb - pa));
    vecswap(s, a, pb - r, r);
    r = min_size((size_t)(pd - pc), (size_t)(pn - pd) - es);
    vecswap(s, pb, pn - r, r);
    *less = (size_t)(pb - pa);
    *greater = (size_t)(pd - pc);
}

static void introsort(const openbsd_sort *s, char *a, size_t n, size_t depth)
{
    const size_t es = s->size;
    for (;;) {
        if (n < INSERTION_BELOW) {
            insertion_sort(s, a, n);
            return;
        }
        if (depth == 0 && qsb_bsd_heapsort_status(a, n, es, s->cmp, s->arg) == 0)
            return;
        depth--; /* past zero when the heapsort failed: it is not tried again */
        size_t less, greater;
        partition(s, a, n, &less, &greater);
        char *right = a + n * es - greater;
        if (less < greater) {
            if (greater <= es)
                return;
            if (less > es)
                introsort(s, a, less / es, depth);
            a = right;
            n = greater / es;
        } else {
            if (less <= es)
                return;
            if (greater > es)
                introsort(s, right, greater / es, depth);
            n = less / es;
        }
    }
}

void qsb_openbsd(void *base, size_t n, size_t size, qsb_compare cmp, void *arg)
{
    size_t depth = 0;
    for (size_t i = n; i > 0; i >>= 1)
        depth++;
    const openbsd_sort s = {size, cmp, arg, choose_swap(base, size)};
    introsort(&s, base, n, 2 * depth);
}
