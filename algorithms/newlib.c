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

/* How elements are swapped, numbered as newlib's swaptype so that its tests compile alike. */
enum {
    SWAP_ONE_LONG = 0, /* the element is one aligned long */
    SWAP_LONGS = 1,    /* size and base are multiples of a long */
    SWAP_BYTES = 2
};

/* Both swaps count down a signed long, as newlib's swapcode does: with the longs tested first
** (below), gcc then lays out the loop of longs apart and the byte loop in line, as in newlib's
** object; counted in size_t, the indexed loop it made ran SORTED at 32 bytes up to 10% faster
** than newlib's. */
static inline void swap_longs(char *a, char *b, int bytes)
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

static inline void swap_bytes(char *a, char *b, int bytes)
{
    long i = bytes;
    do {
        char t = *a;
        *a++ = *b;
        *b++ = t;
    } while (--i > 0);
}

/* newlib's swapfunc, inline as newlib declares it, with its int byte count: longs when the
** kind is one of them, else bytes. */
static inline void swap_blocks(char *a, char *b, int bytes, int kind)
{
    if (kind <= SWAP_LONGS)
        swap_longs(a, b, bytes);
    else
        swap_bytes(a, b, bytes);
}

/* newlib's swap and vecswap macros. */
static QSB_ALWAYS_INLINE void swap(char *a, char *b, size_t es, int kind)
{
    if (kind == SWAP_ONE_LONG) {
        long x, y;
        memcpy(&x, a, sizeof x);
        memcpy(&y, b, sizeof y);
        memcpy(a, &y, sizeof y);
        memcpy(b, &x, sizeof x);
    } else {
        swap_blocks(a, b, (int)es, kind);
    }
}

static QSB_ALWAYS_INLINE void vecswap(char *a, char *b, size_t bytes, int kind)
{
    if (bytes > 0)
        swap_blocks(a, b, (int)bytes, kind);
}

static inline char *median_of_three(char *a, char *b, char *c, qsb_compare cmp, void *arg)
{
    return cmp(a, b, arg) < 0 ? (cmp(b, c, arg) < 0 ? b : cmp(a, c, arg) < 0 ? c : a)
                            : (cmp(b, c, arg) > 0 ? b : cmp(a, c, arg) < 0 ? a : c);
}

static QSB_ALWAYS_INLINE void insertion_sort(char *a, size_t n, size_t es, int kind,
                                             qsb_compare cmp, void *arg)
{
    for (char *m = a + es; m < a + n * es; m += es)
        for (char *l = m; l > a && cmp(l - es, l, arg) > 0; l -= es)
            swap(l, l - es, es, kind);
}

/* The code keeps newlib's shape where gcc's output depends on it, so that both compile to
** nearly the same instructions with most loops at the same offsets: one function, its own
** recursion past the stack's 8 levels; newlib's macros (swap, vecswap) always inlined and its
** inline functions (swapfunc, med3) inline; the swap kind chosen in the function's body, with
** newlib's numbers; swapfunc's byte count an int, as newlib's (in size_t, 185 lines differed).
** So a block of 2 GiB or more, only possible in larger arrays, overflows that count here as in
** newlib, and the swap goes wrong as newlib's would (no run here has reached that size). */
void qsb_newlib(void *base, size_t n, size_t es, qsb_compare cmp, void *arg)
{
    char *a = base;
    struct {
        char *a;
        size_t n;
    } stack[STACK_LEVELS];
    size_t depth = 0;
    int kind = (uintptr_t)a % sizeof(long) || es % sizeof(long) ? SWAP_BYTES
               : es == sizeof(long)                             ? SWAP_ONE_LONG
                                                                : SWAP_LONGS;
loop:
    if (n < INSERTION_BELOW) {
        insertion_sort(a, n, es, kind, cmp, arg);
        goto pop;
    }
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
    ** middle. A partition that moves nothing ends in an insertion sort (swapped stays 0). */
    swap(a, pm, es, kind);
    int swapped = 0, c;
    char *pa = a + es, *pb = pa, *pc = a + (n - 1) * es, *pd = pc;
    for (;;) {
        while (pb <= pc && (c = cmp(pb, a, arg)) <= 0) {
            if (c == 0) {
                swapped = 1;
                swap(pa, pb, es, kind);
                pa += es;
            }
            pb += es;
        }
        while (pb <= pc && (c = cmp(pc, a, arg)) >= 0) {
            if (c == 0) {
                swapped = 1;
                swap(pc, pd, es, kind);
                pd -= es;
            }
            pc -= es;
        }
        if (pb > pc)
            break;
        swap(pb, pc, es, kind);
        swapped = 1;
        pb += es;
        pc -= es;
    }
    if (!swapped) {
        insertion_sort(a, n, es, kind, cmp, arg);
        goto pop;
    }
    char *pn = a + n * es;
    size_t r = pa - a < pb - pa ? (size_t)(pa - a) : (size_t)(pb - pa);
    vecswap(a, pb - r, r, kind);
    r = (size_t)(pd - pc) < (size_t)(pn - pd) - es ? (size_t)(pd - pc) : (size_t)(pn - pd) - es;
    vecswap(pb, pn - r, r, kind);
    /* The larger part to (a, n), the smaller one to (pa, r); bytes. */
    size_t d = (size_t)(pb - pa);
    r = (size_t)(pd - pc);
    pn -= r;
    if (r > d) {
        pa = a;
        a = pn;
        n = r;
        r = d;
    } else {
        pa = pn;
        n = d;
    }
    if (r > es) { /* both parts need sorting: the smaller first */
        if (depth < STACK_LEVELS) {
            stack[depth].a = a;
            stack[depth].n = n / es;
            depth++;
            a = pa;
            n = r / es;
            goto loop;
        }
        qsb_newlib(pa, r / es, es, cmp, arg);
    }
    if (n > es) {
        n = n / es;
        goto loop;
    }
pop:
    if (depth != 0) {
        depth--;
        a = stack[depth].a;
        n = stack[depth].n;
        goto loop;
    }
}
