/*
** glibc's introsort qsort of 2023, written once for its two states: `introsort` (as committed
** on 2023-10-31, reverted in January 2024) and `introsort-final` (glibc master of 2023-12-04,
** with the follow-up fixes). The entry points (introsort.c, introsort_final.c) call
** qsb_introsort_run() with a compile-time constant state, so each compiles to its own code
** with no state test left in the loops.
**
** Algorithm: the legacy median-of-three quicksort (explicit stack; partitions of at most 5
** elements, spans of 4 * size bytes, are left alone), a depth limit of 2 * floor(log2 n) after
** which a partition is heapsorted, then one insertion sort over the whole array. Not stable,
** no allocation, O(log n) stack. The call sequence is glibc's, comparator call for call
** (checked against ../shared/reference/comparisons.csv):
**
**   state            committed (2023-10-31)              final (2023-12-04)
**   partition scans  may compare the pivot with itself   never do
**   heapsort         leaves the partition's last element out; the root's "children" are
**                    itself and E(1)                      a proper heap (children 2k+1, 2k+2)
**   depth            drops only for pushed partitions    also in the three non-push branches
**   insertion sort   no lower bound (sentinel only)      stops at the array's start
**
** The committed state's unbounded insertion sort runs below the array under a non-transitive
** comparator (the Qualys 2024 finding), and its depth rule lets a pivot adversary drive it
** quadratic without ever reaching the heapsort: both are what glibc had, and kept.
**
** Swaps (chosen once per call, as glibc does): 64-bit words when (base | size) % 8 == 0, else
** 32-bit words when (base | size) % 4 == 0, both from the last word to the first; else bytes,
** 32 at a time while more than 32 remain, then the tail byte by byte from the end.
*/
#ifndef QSB_INTROSORT_CORE_H
#define QSB_INTROSORT_CORE_H

#include <limits.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include "sorts.h"

typedef enum {
    QSB_INTROSORT_COMMITTED, /* glibc commit of 2023-10-31 */
    QSB_INTROSORT_FINAL      /* glibc master of 2023-12-04 */
} qsb_introsort_state;

typedef enum {
    INTROSORT_SWAP_WORDS_64,
    INTROSORT_SWAP_WORDS_32,
    INTROSORT_SWAP_BYTES
} introsort_swap;

enum {
    INTROSORT_MAX_THRESH = 4,                         /* spans of 4 sizes are left alone */
    INTROSORT_STACK_SIZE = CHAR_BIT * sizeof(size_t), /* > log2 of any n: smaller side first */
    INTROSORT_SWAP_CHUNK = 32                         /* the byte swap's step */
};

/* ---- swaps ---- */

static inline introsort_swap introsort_swap_type(const void *base, size_t size)
{
    uintptr_t bits = (uintptr_t)base | size;
    if (bits % 8 == 0)
        return INTROSORT_SWAP_WORDS_64;
    if (bits % 4 == 0)
        return INTROSORT_SWAP_WORDS_32;
    return INTROSORT_SWAP_BYTES;
}

/* memcpy through locals: single loads and stores once compiled, with no alignment cast. */
static inline void introsort_swap_words_64(char *a, char *b, size_t size)
{
    do {
        uint64_t x, y;
        size -= sizeof x;
        memcpy(&x, a + size, sizeof x);
        memcpy(&y, b + size, sizeof y);
        memcpy(a + size, &y, sizeof y);
        memcpy(b + size, &x, sizeof x);
    } while (size != 0);
}

static inline void introsort_swap_words_32(char *a, char *b, size_t size)
{
    do {
        uint32_t x, y;
        size -= sizeof x;
        memcpy(&x, a + size, sizeof x);
        memcpy(&y, b + size, sizeof y);
        memcpy(a + size, &y, sizeof y);
        memcpy(b + size, &x, sizeof x);
    } while (size != 0);
}

/* Swaps 32 bytes. All eight loads come before the stores, so gcc moves the chunk in two
** pairs of 16-byte registers; a 32-byte buffer (glibc's form) stays on the stack once this is
** inlined into the sort, and would also make a == b an overlapping memcpy (the committed
** heapsort swaps an element with itself when the comparator claims x < x). */
static inline void introsort_swap_chunk(char *a, char *b)
{
    uint64_t a0, a1, a2, a3, b0, b1, b2, b3;
    memcpy(&a0, a, 8), memcpy(&a1, a + 8, 8), memcpy(&a2, a + 16, 8), memcpy(&a3, a + 24, 8);
    memcpy(&b0, b, 8), memcpy(&b1, b + 8, 8), memcpy(&b2, b + 16, 8), memcpy(&b3, b + 24, 8);
    memcpy(a, &b0, 8), memcpy(a + 8, &b1, 8), memcpy(a + 16, &b2, 8), memcpy(a + 24, &b3, 8);
    memcpy(b, &a0, 8), memcpy(b + 8, &a1, 8), memcpy(b + 16, &a2, 8), memcpy(b + 24, &a3, 8);
}

static inline void introsort_swap_bytes(char *a, char *b, size_t size)
{
    while (size > INTROSORT_SWAP_CHUNK) {
        introsort_swap_chunk(a, b);
        a += INTROSORT_SWAP_CHUNK;
        b += INTROSORT_SWAP_CHUNK;
        size -= INTROSORT_SWAP_CHUNK;
    }
    while (size > 0) {
        size--;
        char t = a[size];
        a[size] = b[size];
        b[size] = t;
    }
}

/* glibc tests the swap type at every swap (a well-predicted branch), not once per sort. */
static inline void introsort_do_swap(char *a, char *b, size_t size, introsort_swap type)
{
    if (type == INTROSORT_SWAP_WORDS_64)
        introsort_swap_words_64(a, b, size);
    else if (type == INTROSORT_SWAP_WORDS_32)
        introsort_swap_words_32(a, b, size);
    else
        introsort_swap_bytes(a, b, size);
}

/* ---- the heapsorts of the two states ---- */

/* Everything a sort step needs besides the partition bounds. */
typedef struct {
    size_t size;
    introsort_swap swap;
    qsb_compare cmp;
    void *arg;
} introsort_ctx;

#define INTROSORT_AT(base, i, ctx) ((base) + (i) * (ctx)->size)

/* Committed: k's "children" are 2k and 2k + 1, so the root is compared with itself or E(1)
** twice; `last` is an inclusive index. */
static inline void introsort_siftdown_committed(char *base, size_t k, size_t last,
                                                const introsort_ctx *ctx)
{
    while (k <= last / 2) {
        size_t j = 2 * k;
        if (j < last && ctx->cmp(INTROSORT_AT(base, j, ctx), INTROSORT_AT(base, j + 1, ctx),
                                 ctx->arg) < 0)
            j++;
        if (ctx->cmp(INTROSORT_AT(base, k, ctx), INTROSORT_AT(base, j, ctx), ctx->arg) >= 0)
            break;
        introsort_do_swap(INTROSORT_AT(base, j, ctx), INTROSORT_AT(base, k, ctx), ctx->size,
                          ctx->swap);
        k = j;
    }
}

/* Committed: sorts the (hi - lo) / size elements before hi; hi itself is left out (the final
** insertion sort puts it in place). */
static inline void introsort_heapsort_committed(char *lo, char *hi, const introsort_ctx *ctx)
{
    size_t count = (size_t)(hi - lo) / ctx->size;
    if (count < 2)
        return;
    size_t last = count - 1;
    for (size_t k = last / 2;; k--) {
        introsort_siftdown_committed(lo, k, last, ctx);
        if (k == 0)
            break;
    }
    while (last > 0) {
        introsort_do_swap(lo, INTROSORT_AT(lo, last, ctx), ctx->size, ctx->swap);
        last--;
        introsort_siftdown_committed(lo, 0, last, ctx);
    }
}

/* Final: a proper max-heap over indices 0..last (inclusive), children 2k + 1 and 2k + 2. */
static inline void introsort_siftdown_final(char *base, size_t k, size_t last,
                                            const introsort_ctx *ctx)
{
    while (2 * k + 1 <= last) {
        size_t j = 2 * k + 1;
        if (j < last && ctx->cmp(INTROSORT_AT(base, j, ctx), INTROSORT_AT(base, j + 1, ctx),
                                 ctx->arg) < 0)
            j++;
        if (j == k ||
            ctx->cmp(INTROSORT_AT(base, k, ctx), INTROSORT_AT(base, j, ctx), ctx->arg) >= 0)
            break;
        introsort_do_swap(INTROSORT_AT(base, j, ctx), INTROSORT_AT(base, k, ctx), ctx->size,
                          ctx->swap);
        k = j;
    }
}

/* Final: the whole partition lo..hi; two elements or fewer are left to the insertion sort. */
static inline void introsort_heapsort_final(char *lo, char *hi, const introsort_ctx *ctx)
{
    size_t last = (size_t)(hi - lo) / ctx->size;
    if (last <= 1)
        return;
    for (size_t k = last / 2;; k--) {
        introsort_siftdown_final(lo, k, last, ctx);
        if (k == 0)
            break;
    }
    for (;;) {
        introsort_do_swap(lo, INTROSORT_AT(lo, last, ctx), ctx->size, ctx->swap);
        last--;
        if (last == 0)
            break;
        introsort_siftdown_final(lo, 0, last, ctx);
    }
}

/* ---- quicksort ---- */

typedef struct {
    char *lo, *hi; /* inclusive bounds of a partition still to sort */
    size_t depth;  /* partitioning steps left before it is heapsorted */
} introsort_node;

/* One median-of-three partition of lo..hi (at least 5 elements). On return *left_out is the
** first element of the right part and *right_out the last of the left part. */
static inline void introsort_partition(char *lo, char *hi, const introsort_ctx *ctx,
                                       const qsb_introsort_state state, char **left_out,
                                       char **right_out)
{
    const size_t size = ctx->size;
    const int skip_pivot = state == QSB_INTROSORT_FINAL;
    char *mid = lo + size * (((size_t)(hi - lo) / size) >> 1);

    /* lo <= mid <= hi afterwards: both scans below have a stopper. */
    if (ctx->cmp(mid, lo, ctx->arg) < 0)
        introsort_do_swap(mid, lo, size, ctx->swap);
    if (ctx->cmp(hi, mid, ctx->arg) < 0) {
        introsort_do_swap(mid, hi, size, ctx->swap);
        if (ctx->cmp(mid, lo, ctx->arg) < 0)
            introsort_do_swap(mid, lo, size, ctx->swap);
    }

    char *left = lo + size;
    char *right = hi - size;
    do {
        while ((!skip_pivot || left != mid) && ctx->cmp(left, mid, ctx->arg) < 0)
            left += size;
        while ((!skip_pivot || right != mid) && ctx->cmp(mid, right, ctx->arg) < 0)
            right -= size;
        if (left < right) {
            introsort_do_swap(left, right, size, ctx->swap);
            /* The pivot moves with the swap; keep pointing at it. */
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

/* ---- final insertion sort ---- */

/* Moves the element at `from` down to `to`, shifting to..from-1 up by one. glibc does it one
** byte column at a time, from the element's last byte to its first; so does this. */
static inline void introsort_rotate_down(char *to, char *from, size_t size)
{
    for (size_t b = size; b-- > 0;) {
        char saved = from[b];
        for (char *p = from; p != to; p -= size)
            p[b] = (p - size)[b];
        to[b] = saved;
    }
}

/* Insertion sort of the whole array (n >= 2), after the minimum of the first min(n, 5)
** elements was swapped to the front as a sentinel. Only the final state also bounds the scan
** by the array's start. */
static inline void introsort_insertion_sort(char *base, size_t n, const introsort_ctx *ctx,
                                            const qsb_introsort_state state)
{
    const size_t size = ctx->size;
    const int bounded = state == QSB_INTROSORT_FINAL;
    size_t thresh = n - 1 < INTROSORT_MAX_THRESH ? n - 1 : INTROSORT_MAX_THRESH;
    char *smallest = base;
    for (size_t i = 1; i <= thresh; i++)
        if (ctx->cmp(INTROSORT_AT(base, i, ctx), smallest, ctx->arg) < 0)
            smallest = INTROSORT_AT(base, i, ctx);
    if (smallest != base)
        introsort_do_swap(smallest, base, size, ctx->swap);

    for (size_t i = 2; i < n; i++) {
        char *run = INTROSORT_AT(base, i, ctx);
        char *tmp = run - size;
        while ((!bounded || tmp != base) && ctx->cmp(run, tmp, ctx->arg) < 0)
            tmp -= size;
        tmp += size;
        if (tmp != run)
            introsort_rotate_down(tmp, run, size);
    }
}

/* ---- the sort ---- */

static inline size_t introsort_depth_limit(size_t n)
{
    size_t log2n = 0;
    while (n >>= 1)
        log2n++;
    return 2 * log2n;
}

/* The whole sort. `state` must be a constant. `heapsorts`, when not NULL, counts the
** partitions handed to the heapsort (a test hook; the entry points pass NULL). */
static inline void qsb_introsort_run(void *base_, size_t n, size_t size, qsb_compare cmp,
                                     void *arg, const qsb_introsort_state state,
                                     size_t *heapsorts)
{
    if (n <= 1)
        return;

    char *base = base_;
    const introsort_ctx ctx = {size, introsort_swap_type(base, size), cmp, arg};
    const size_t max_thresh = INTROSORT_MAX_THRESH * size;
    const int final = state == QSB_INTROSORT_FINAL;

    if (n > INTROSORT_MAX_THRESH) {
        introsort_node stack[INTROSORT_STACK_SIZE];
        introsort_node *top = stack;
        char *lo = base;
        char *hi = base + size * (n - 1);
        size_t depth = introsort_depth_limit(n);
        *top++ = (introsort_node){NULL, NULL, depth}; /* popping it ends the loop */

        while (top > stack) {
            if (depth == 0) {
                if (heapsorts)
                    ++*heapsorts;
                if (final)
                    introsort_heapsort_final(lo, hi, &ctx);
                else
                    introsort_heapsort_committed(lo, hi, &ctx);
                --top;
                lo = top->lo, hi = top->hi, depth = top->depth;
                continue;
            }

            char *left, *right;
            introsort_partition(lo, hi, &ctx, state, &left, &right);

            /* Continue with the smaller side, push the larger (so the stack stays below
            ** log2 n); sides of at most 5 elements are left to the insertion sort. */
            if ((size_t)(right - lo) <= max_thresh) {
                if ((size_t)(hi - left) <= max_thresh) {
                    --top;
                    lo = top->lo, hi = top->hi, depth = top->depth;
                    if (final)
                        depth--; /* a popped 0 wraps around, as in glibc */
                } else {
                    lo = left;
                    if (final)
                        depth--;
                }
            } else if ((size_t)(hi - left) <= max_thresh) {
                hi = right;
                if (final)
                    depth--;
            } else if (right - lo > hi - left) {
                *top++ = (introsort_node){lo, right, depth - 1};
                lo = left;
            } else {
                *top++ = (introsort_node){left, hi, depth - 1};
                hi = right;
            }
        }
    }

    introsort_insertion_sort(base, n, &ctx, state);
}

#endif
