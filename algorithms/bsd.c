/*
** bsd: FreeBSD's qsort as of 2025 (lib/libc/stdlib/qsort.c, commit 0dcfecbf47), the
** Bentley-McIlroy quicksort of "Engineering a Sort Function" (1993). Each step takes the
** median of three elements as pivot (first, middle, last; above 40 elements Tukey's ninther,
** the median of three such medians spaced n/8 apart), partitions three ways with the keys
** equal to the pivot gathered at both ends and swapped to the middle afterwards, recurses on
** the smaller side and loops on the larger. Below 7 elements: a plain insertion sort.
**
** About 1.1 n log2 n comparisons on random input, O(n^2) in the worst case (McIlroy's
** adversary); in place, O(log n) stack, not stable, no allocation. This revision no longer has
** the old "swap_cnt" escape to insertion sort after a partition without swaps (still found in
** derived libcs); the comparator calls are FreeBSD's, call for call
** (tests/reference/comparisons-libc.csv). Swaps move one byte at a time, as FreeBSD's do.
*/
#include "element_swap.h"
#include "sorts.h"

enum {
    BSD_INSERTION_BELOW = 7, /* n < 7: insertion sort only */
    BSD_NINTHER_ABOVE = 40   /* n > 40: median of three medians */
};

typedef struct {
    size_t size;
    qsb_compare cmp;
    void *arg;
} bsd_sort;

static inline int compare(const bsd_sort *s, const char *a, const char *b)
{
    return s->cmp(a, b, s->arg);
}

static void insertion_sort(const bsd_sort *s, char *base, size_t n)
{
    char *end = base + n * s->size;
    for (char *next = base + s->size; next < end; next += s->size)
        for (char *p = next; p > base && compare(s, p - s->size, p) > 0; p -= s->size)
            qsb_swap_byte_loop(p, p - s->size, s->size);
}

/* The median of a, b and c in the order of comparisons FreeBSD makes (two or three calls). */
static char *median_of_three(const bsd_sort *s, char *a, char *b, char *c)
{
    if (compare(s, a, b) < 0) {
        if (compare(s, b, c) < 0)
            return b;
        return compare(s, a, c) < 0 ? c : a;
    }
    if (compare(s, b, c) > 0)
        return b;
    return compare(s, a, c) < 0 ? a : c;
}

static char *choose_pivot(const bsd_sort *s, char *base, size_t n)
{
    char *middle = base + (n / 2) * s->size;
    if (n == BSD_INSERTION_BELOW) /* exactly 7: the middle element, no comparison */
        return middle;
    char *first = base, *last = base + (n - 1) * s->size;
    if (n > BSD_NINTHER_ABOVE) {
        size_t step = (n / 8) * s->size;
        first = median_of_three(s, first, first + step, first + 2 * step);
        middle = median_of_three(s, middle - step, middle, middle + step);
        last = median_of_three(s, last - 2 * step, last - step, last);
    }
    return median_of_three(s, first, middle, last);
}

/* Swaps the blocks [a, a + bytes) and [b, b + bytes). */
static void swap_blocks(char *a, char *b, size_t bytes)
{
    if (bytes > 0)
        qsb_swap_byte_loop(a, b, bytes);
}

static size_t min_size(size_t a, size_t b)
{
    return a < b ? a : b;
}

/*
** Partitions base[0, n) around the pivot, which is first swapped to base[0]. Invariant of the
** scan, left to right: [base, eq_low) == pivot, [eq_low, lo) < pivot, (hi, eq_high] > pivot,
** (eq_high, end) == pivot. The equal blocks are then swapped into the middle. Returns the byte
** lengths of the strictly-smaller and strictly-greater parts, which sit at the two ends.
*/
static void partition(const bsd_sort *s, char *base, size_t n, size_t *less, size_t *greater)
{
    const size_t es = s->size;
    qsb_swap_byte_loop(base, choose_pivot(s, base, n), es);
    char *eq_low = base + es, *lo = eq_low;
    char *hi = base + (n - 1) * es, *eq_high = hi;
    for (;;) {
        int c;
        while (lo <= hi && (c = compare(s, lo, base)) <= 0) {
            if (c == 0) {
                qsb_swap_byte_loop(eq_low, lo, es);
                eq_low += es;
            }
            lo += es;
        }
        while (lo <= hi && (c = compare(s, hi, base)) >= 0) {
            if (c == 0) {
                qsb_swap_byte_loop(hi, eq_high, es);
                eq_high -= es;
            }
            hi -= es;
        }
        if (lo > hi)
            break;
        qsb_swap_byte_loop(lo, hi, es);
        lo += es;
        hi -= es;
    }
    char *end = base + n * es;
    size_t r = min_size((size_t)(eq_low - base), (size_t)(lo - eq_low));
    swap_blocks(base, lo - r, r);
    r = min_size((size_t)(eq_high - hi), (size_t)(end - eq_high) - es);
    swap_blocks(lo, end - r, r);
    *less = (size_t)(lo - eq_low);
    *greater = (size_t)(eq_high - hi);
}

static void sort(const bsd_sort *s, char *base, size_t n)
{
    const size_t es = s->size;
    while (n >= BSD_INSERTION_BELOW) {
        size_t less, greater;
        partition(s, base, n, &less, &greater);
        char *greater_start = base + n * es - greater;
        /* The smaller side by recursion (depth at most log2 n), the larger by the loop. */
        if (less <= greater) {
            if (less > es)
                sort(s, base, less / es);
            if (greater <= es)
                return;
            base = greater_start;
            n = greater / es;
        } else {
            if (greater > es)
                sort(s, greater_start, greater / es);
            if (less <= es)
                return;
            n = less / es;
        }
    }
    insertion_sort(s, base, n);
}

void qsb_bsd(void *base, size_t n, size_t size, qsb_compare cmp, void *arg)
{
    if (n < 2)
        return;
    const bsd_sort s = {size, cmp, arg};
    sort(&s, base, n);
}
