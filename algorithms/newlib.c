/*
** newlib: newlib 3.3's qsort (newlib/libc/search/qsort.c, Debian 12's newlib-source), the
** Bentley-McIlroy quicksort of "Engineering a Sort Function" (1993) as 4.4BSD and FreeBSD had it
** before 2025: median of three as pivot (first, middle, last; Tukey's ninther above 40
** elements; the middle element alone at exactly 7), 3-way partition with the keys equal to the
** pivot gathered at both ends and swapped to the middle, insertion sort below 7 elements, and
** the old "swap_cnt" shortcut: a partition that moved nothing ends in an insertion sort of the
** whole range. newlib's own change: recursion is emulated with a stack of 8 (base, count)
** entries, the smaller part sorted first and the larger one pushed; past 8 levels the smaller
** part is sorted by a real recursive call.
**
** About 1.1 n log2 n comparisons on random input; O(n^2) in the worst case (McIlroy's adversary,
** and the swap_cnt insertion sort on inputs that partition without a swap). In place, O(log n)
** stack, not stable, no allocation. Swaps move one long when the element is one long and the
** base is aligned, longs when both are multiples of a long, else bytes, as newlib's do. The
** comparator calls and the bytes are newlib's (test_newlib_oracle: its qsort.c built from
** newlib-source). It has qsort's signature there; here the comparator's argument is passed
** along (one indirect call per comparison, as newlib's).
*/
#include <stdint.h>
#include <string.h>

#include "sorts.h"

enum {
    INSERTION_BELOW = 7, /* n < 7: insertion sort only */
    NINTHER_ABOVE = 40,  /* n > 40: median of three medians */
    STACK_LEVELS = 8     /* newlib's PARAMETER_STACK_LEVELS */
};

typedef enum {
    SWAP_ONE_LONG, /* the element is one aligned long */
    SWAP_LONGS,    /* size and base are multiples of a long */
    SWAP_BYTES
} swap_kind;

/* The sort's parameters. The loops that call the comparator take it and its argument into
** locals first, as newlib's one function has them: read through the struct, each would be
** loaded again after every call (SORTED was 3-5% slower than newlib's own). */
typedef struct {
    size_t size;
    qsb_compare cmp;
    void *arg;
    swap_kind kind;
} newlib_sort;

/* Both swaps count down a signed long, as newlib's swapcode does: with the longs tested first
** (below), gcc then lays out the loop of longs apart and the byte loop in line, as in newlib's
** object; counted in size_t, the indexed loop it made ran SORTED at 32 bytes up to 10% faster
** than newlib's. */
static void swap_longs(char *a, char *b, size_t bytes)
{
    long i = (long)(bytes / sizeof(long));
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
    long i = (long)bytes;
    do {
        char t = *a;
        *a++ = *b;
        *b++ = t;
    } while (--i > 0);
}

/* newlib's swapfunc: longs when the kind is one of them, else bytes. Inline, as newlib declares
** swapfunc and med3 (and its swap and vecswap are macros): called instead, the swap of each pair
** of 4-byte elements made SORTED 22% slower than newlib's own. */
static inline void swap_blocks(const newlib_sort *s, char *a, char *b, size_t bytes)
{
    if (s->kind <= SWAP_LONGS)
        swap_longs(a, b, bytes);
    else
        swap_bytes(a, b, bytes);
}

static inline void swap(const newlib_sort *s, char *a, char *b)
{
    if (s->kind == SWAP_ONE_LONG) {
        long x, y;
        memcpy(&x, a, sizeof x);
        memcpy(&y, b, sizeof y);
        memcpy(a, &y, sizeof y);
        memcpy(b, &x, sizeof x);
    } else {
        swap_blocks(s, a, b, s->size);
    }
}

static inline void vecswap(const newlib_sort *s, char *a, char *b, size_t bytes)
{
    if (bytes > 0)
        swap_blocks(s, a, b, bytes);
}

static swap_kind choose_swap(const void *base, size_t size)
{
    if ((uintptr_t)base % sizeof(long) || size % sizeof(long))
        return SWAP_BYTES;
    return size == sizeof(long) ? SWAP_ONE_LONG : SWAP_LONGS;
}

static void insertion_sort(const newlib_sort *s, char *a, size_t n)
{
    const size_t es = s->size;
    const qsb_compare cmp = s->cmp;
    void *const arg = s->arg;
    for (char *m = a + es; m < a + n * es; m += es)
        for (char *l = m; l > a && cmp(l - es, l, arg) > 0; l -= es)
            swap(s, l, l - es);
}

static inline char *median_of_three(const newlib_sort *s, char *a, char *b, char *c)
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

static char *choose_pivot(const newlib_sort *s, char *a, size_t n)
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

/* Partitions a[0, n) (n >= 7) around the pivot, moved to a[0]. Returns 0 when the scan swapped
** nothing (the caller then insertion sorts the range), else 1 with the byte lengths of the
** smaller-than and greater-than parts, which end at the two ends. */
static int partition(const newlib_sort *s, char *a, size_t n, size_t *less, size_t *greater)
{
    const size_t es = s->size;
    const qsb_compare cmp = s->cmp;
    void *const arg = s->arg;
    int swapped = 0, c;
    swap(s, a, choose_pivot(s, a, n));
    char *pa = a + es, *pb = pa, *pc = a + (n - 1) * es, *pd = pc;
    for (;;) {
        while (pb <= pc && (c = cmp(pb, a, arg)) <= 0) {
            if (c == 0) {
                swapped = 1;
                swap(s, pa, pb);
                pa += es;
            }
            pb += es;
        }
        while (pb <= pc && (c = cmp(pc, a, arg)) >= 0) {
            if (c == 0) {
                swapped = 1;
                swap(s, pc, pd);
                pd -= es;
            }
            pc -= es;
        }
        if (pb > pc)
            break;
        swap(s, pb, pc);
        swapped = 1;
        pb += es;
        pc -= es;
    }
    if (!swapped)
        return 0;
    char *pn = a + n * es;
    size_t r = min_size((size_t)(pa - a), (size_t)(pb - pa));
    vecswap(s, a, pb - r, r);
    r = min_size((size_t)(pd - pc), (size_t)(pn - pd) - es);
    vecswap(s, pb, pn - r, r);
    *less = (size_t)(pb - pa);
    *greater = (size_t)(pd - pc);
    return 1;
}

static void sort(const newlib_sort *s, char *a, size_t n)
{
    const size_t es = s->size;
    struct {
        char *a;
        size_t n;
    } stack[STACK_LEVELS];
    size_t depth = 0;
    for (;;) {
        size_t less, greater;
        if (n < INSERTION_BELOW || !partition(s, a, n, &less, &greater)) {
            insertion_sort(s, a, n);
        } else {
            /* The larger part to (a, larger), the smaller one to (small, smaller); bytes. */
            char *right = a + n * es - greater, *small;
            size_t larger, smaller;
            if (greater > less) {
                small = a, smaller = less;
                a = right, larger = greater;
            } else {
                small = right, smaller = greater;
                larger = less;
            }
            if (smaller > es) {
                if (depth < STACK_LEVELS) {
                    stack[depth].a = a;
                    stack[depth].n = larger / es;
                    depth++;
                    a = small;
                    n = smaller / es;
                    continue;
                }
                sort(s, small, smaller / es);
            }
            if (larger > es) {
                n = larger / es;
                continue;
            }
        }
        if (depth == 0)
            return;
        depth--;
        a = stack[depth].a;
        n = stack[depth].n;
    }
}

void qsb_newlib(void *base, size_t n, size_t size, qsb_compare cmp, void *arg)
{
    const newlib_sort s = {size, cmp, arg, choose_swap(base, size)};
    sort(&s, base, n);
}
