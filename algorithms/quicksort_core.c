/*
** The legacy glibc quicksort core (see quicksort_core.h). The comparator-call sequence is the
** contract: median of three (the third call only after a swap of mid and hi), partition scans
** that may compare the pivot with itself, small partitions (<= 4 elements) left for the final
** insertion sort, the larger remaining part pushed and the smaller one continued.
*/
#include "quicksort_core.h"

#include <limits.h>
#include <stdint.h>

#define SMALL_PARTITION 4 /* glibc's MAX_THRESH: partitions this small are left unsorted */

typedef struct {
    char *lo;
    char *hi;
} partition;

/* Depth is bounded: the larger part is always the one pushed, so log2(n) < 64 nodes. */
#define STACK_NODES (CHAR_BIT * sizeof(size_t))

static inline void swap_bytes(char *a, char *b, size_t size)
{
    do {
        char t = *a;
        *a++ = *b;
        *b++ = t;
    } while (--size > 0);
}

/* Orders lo <= mid <= hi; the pivot stays at mid. */
static inline void median_of_three(char *lo, char *mid, char *hi, size_t size, qsb_compare cmp,
                                   void *arg)
{
    if (cmp(mid, lo, arg) < 0)
        swap_bytes(mid, lo, size);
    if (cmp(hi, mid, arg) < 0) {
        swap_bytes(mid, hi, size);
        if (cmp(mid, lo, arg) < 0)
            swap_bytes(mid, lo, size);
    }
}

/* Partitions [lo, hi] around *mid; on return everything left of *left is <= the pivot and
** everything right of *right is >= it, with *right < *left. The pivot moves with its swaps. */
static inline void partition_around(char *lo, char *hi, char *mid, size_t size, qsb_compare cmp,
                                    void *arg, char **left_out, char **right_out)
{
    char *left = lo + size;
    char *right = hi - size;
    do {
        while (cmp(left, mid, arg) < 0)
            left += size;
        while (cmp(mid, right, arg) < 0)
            right -= size;
        if (left < right) {
            swap_bytes(left, right, size);
            if (mid == left)
                mid = right;
            else if (mid == right)
                mid = left;
            left += size;
            right -= size;
        } else if (left == right) {
            left += size;
            right -= size;
            break;
        }
    } while (left <= right);
    *left_out = left;
    *right_out = right;
}

static void partition_until_small(char *base, size_t n, size_t size, qsb_compare cmp, void *arg)
{
    const size_t small_bytes = SMALL_PARTITION * size;
    partition stack[STACK_NODES];
    partition *top = stack;
    char *lo = base;
    char *hi = base + size * (n - 1);

    top->lo = top->hi = NULL; /* the sentinel: popping it ends the loop */
    top++;
    while (top > stack) {
        char *mid = lo + size * (((size_t)(hi - lo) / size) >> 1);
        char *left, *right;
        median_of_three(lo, mid, hi, size, cmp, arg);
        partition_around(lo, hi, mid, size, cmp, arg, &left, &right);

        /* Byte spans as unsigned: a scan that ran past lo makes right - lo huge, not small. */
        size_t left_span = (size_t)(right - lo);
        size_t right_span = (size_t)(hi - left);
        if (left_span <= small_bytes) {
            if (right_span <= small_bytes) {
                top--;
                lo = top->lo;
                hi = top->hi;
            } else {
                lo = left;
            }
        } else if (right_span <= small_bytes) {
            hi = right;
        } else if ((right - lo) > (hi - left)) {
            top->lo = lo;
            top->hi = right;
            top++;
            lo = left;
        } else {
            top->lo = left;
            top->hi = hi;
            top++;
            hi = right;
        }
    }
}

/* Moves the element at run down to dest (dest < run), shifting [dest, run) up by one element,
** one byte column at a time: no buffer of `size` bytes is needed. */
static inline void rotate_down(char *dest, char *run, size_t size)
{
    const size_t shifted = (size_t)(run - dest) / size;
    for (char *column = run + size - 1; column >= run; column--) {
        char saved = *column;
        char *to = column;
        for (size_t k = 0; k < shifted; k++) {
            *to = *(to - size);
            to -= size;
        }
        *to = saved;
    }
}

void qsb_legacy_insertion_sort(char *base, size_t n, size_t size, qsb_compare cmp, void *arg)
{
    char *const last = base + size * (n - 1);
    char *const scan_end = n > SMALL_PARTITION ? base + SMALL_PARTITION * size : last;

    /* The minimum of the first min(n, 5) elements is the global minimum after partitioning:
    ** put it first, so that the inner loop below needs no lower bound. */
    char *min = base;
    for (char *run = base + size; run <= scan_end; run += size)
        if (cmp(run, min, arg) < 0)
            min = run;
    if (min != base)
        swap_bytes(min, base, size);

    for (char *run = base + 2 * size; run <= last; run += size) {
        char *dest = run - size;
        while (cmp(run, dest, arg) < 0)
            dest -= size; /* no bound: the sentinel stops it */
        dest += size;
        if (dest != run)
            rotate_down(dest, run, size);
    }
}

void qsb_legacy_quicksort(void *base, size_t n, size_t size, qsb_compare cmp, void *arg)
{
    if (n == 0)
        return;
    if (n > SMALL_PARTITION)
        partition_until_small(base, n, size, cmp, arg);
    qsb_legacy_insertion_sort(base, n, size, cmp, arg);
}
