/*
** glibc's quicksort, written once for its four states as static inline code. Each entry point
** calls qsb_quicksort_run() with a compile-time constant variant, so each compiles to its own
** code with no variant test left in the loops:
**   QSB_QUICKSORT_LEGACY           _quicksort, unchanged from 1992 to glibc 2.38 (`quicksort`,
**                                  msort's fallback, through qsb_quicksort)
**   QSB_QUICKSORT_INTROSORT_2021   the introsort of the 2021 v3 series, the code the cover
**                                  letter measured (`introsort-2021`)
**   QSB_QUICKSORT_INTROSORT        the introsort committed on 2023-10-31 (`introsort`)
**   QSB_QUICKSORT_INTROSORT_FINAL  glibc master of 2023-12-04 (`introsort-final`)
** introsort_core.h gives the three introsorts their own names.
**
** Algorithm: median-of-three quicksort with an explicit stack (the larger side pushed, the
** smaller continued, so at most log2 n nodes); partitions of at most 5 elements (spans of
** 4 * size bytes) are left alone; then one insertion sort over the whole array, after the
** minimum of the first min(n, 5) elements was swapped to the front as a sentinel. Not stable,
** no allocation, O(log n) stack. The call sequence is glibc's, comparator call for call
** (checked against tests/reference/comparisons.csv):
**
**   variant          legacy           introsort (committed, 2021)    introsort-final
**   n <= 1           no calls (the same result as glibc's n == 0 test for the legacy sort)
**   swaps            byte loop        words or bytes, chosen once per sort (below)
**   partition scans  may compare the pivot with itself                never do
**   depth limit      none             2 floor(log2 n); then the partition is heapsorted
**   heapsort         -                leaves the partition's last   a proper heap over the
**                                     element out; committed shape, whole partition
**                                     2021: bottom-up (heapsort_core.h)
**   depth spent      -                only by pushed partitions     also by the non-push steps
**   insertion sort   no lower bound (the sentinel stops it)         stops at the array's start
**
** The 2021 introsort is the committed one but for its heapsort (Linux lib/sort.c's bottom-up
** sift: one comparison per level down to a leaf, then back up to the element's place) and its
** swap rule (below).
**
** The unbounded insertion sort runs below the array under a non-transitive comparator (the
** Qualys 2024 finding), and the committed depth rule lets a pivot adversary drive the
** introsort quadratic without ever reaching its heapsort: both are what glibc had, and kept.
**
** Introsort swaps (glibc's rule): 64-bit words when (base | size) % 8 == 0, else 32-bit words
** when (base | size) % 4 == 0, else bytes (element_swap.h). The 2021 code tests the base only
** where unaligned word access is slow (!_STRING_ARCH_unaligned); x86 is not such a target, so
** there the size alone decides. The kind never changes a comparator call.
*/
#ifndef QSB_QUICKSORT_CORE_H
#define QSB_QUICKSORT_CORE_H

#include <limits.h>
#include <stddef.h>
#include <stdint.h>

#include "element_swap.h"
#include "heapsort_core.h"
#include "sorts.h"

typedef enum {
    QSB_QUICKSORT_LEGACY,
    QSB_QUICKSORT_INTROSORT_2021, /* the 2021 v3 series */
    QSB_QUICKSORT_INTROSORT,      /* glibc commit of 2023-10-31 */
    QSB_QUICKSORT_INTROSORT_FINAL /* glibc master of 2023-12-04 */
} qsb_quicksort_variant;

enum {
    QUICKSORT_MAX_THRESH = 4,                         /* spans of 4 sizes are left alone */
    QUICKSORT_STACK_NODES = CHAR_BIT * sizeof(size_t) /* > log2 of any n: smaller side first */
};

/* Everything a sort step needs besides the partition bounds. */
typedef struct {
    size_t size;
    qsb_swap_kind swap; /* the introsorts' kind (the legacy sort has one swap only) */
    qsb_compare cmp;
    void *arg;
} quicksort_ctx;

typedef struct {
    char *lo, *hi; /* inclusive bounds of a partition still to sort */
    size_t depth;  /* partitioning steps left before it is heapsorted (introsorts only) */
} quicksort_node;

#define QUICKSORT_AT(base, i, ctx) ((base) + (i) * (ctx)->size)

/* The introsorts' rule. */
static inline qsb_swap_kind quicksort_swap_kind(const void *base, size_t size)
{
    uintptr_t bits = (uintptr_t)base | size;
    if (bits % 8 == 0)
        return QSB_SWAP_WORDS_64;
    if (bits % 4 == 0)
        return QSB_SWAP_WORDS_32;
    return QSB_SWAP_BYTES;
}

/* The 2021 rule on a target with fast unaligned access: the size alone. */
static inline qsb_swap_kind quicksort_swap_kind_2021(size_t size)
{
    return quicksort_swap_kind(NULL, size);
}

/* Chosen by the constant variant. The legacy sort inlines its byte loop (glibc's SWAP macro);
** the introsorts call one out-of-line swap that tests the kind, as gcc compiles glibc's 2023
** do_swap: objdump of the real introsort (03bf8357e8, built by tools/glibc-qsort-plugin with
** the registry's flags) shows do_swap as its own function and 8 `call do_swap` in qsort_r
** (median of three 3, partition 1, heapsort 3, insertion sort 1). Inlined here, those swaps
** made `introsort` faster than the real code (docs/results.md#parity-2023-before). The 2021 series'
** do_swap differs in its byte swap, which makes it a function with a frame (element_swap.h). */
static inline void quicksort_swap(char *a, char *b, const quicksort_ctx *ctx,
                                  const qsb_quicksort_variant variant)
{
    if (variant == QSB_QUICKSORT_LEGACY)
        qsb_swap_byte_loop(a, b, ctx->size);
    else if (variant == QSB_QUICKSORT_INTROSORT_2021)
        qsb_swap_call_2021(a, b, ctx->size, ctx->swap);
    else
        qsb_swap_call(a, b, ctx->size, ctx->swap);
}

/* ---- partitioning ---- */

/* Orders lo <= mid <= hi (the third call only after a swap of mid and hi), so that both
** partition scans have a stopper. */
static inline void quicksort_median_of_three(char *lo, char *mid, char *hi,
                                             const quicksort_ctx *ctx,
                                             const qsb_quicksort_variant variant)
{
    if (ctx->cmp(mid, lo, ctx->arg) < 0)
        quicksort_swap(mid, lo, ctx, variant);
    if (ctx->cmp(hi, mid, ctx->arg) < 0) {
        quicksort_swap(mid, hi, ctx, variant);
        if (ctx->cmp(mid, lo, ctx->arg) < 0)
            quicksort_swap(mid, lo, ctx, variant);
    }
}

/* One median-of-three partition of lo..hi (at least 5 elements). On return *left_out is the
** first element of the right part and *right_out the last of the left part. */
static inline void quicksort_partition(char *lo, char *hi, const quicksort_ctx *ctx,
                                       const qsb_quicksort_variant variant, char **left_out,
                                       char **right_out)
{
    const size_t size = ctx->size;
    const int skip_pivot = variant == QSB_QUICKSORT_INTROSORT_FINAL;
    char *mid = lo + size * (((size_t)(hi - lo) / size) >> 1);
    quicksort_median_of_three(lo, mid, hi, ctx, variant);

    char *left = lo + size;
    char *right = hi - size;
    do {
        while ((!skip_pivot || left != mid) && ctx->cmp(left, mid, ctx->arg) < 0)
            left += size;
        while ((!skip_pivot || right != mid) && ctx->cmp(mid, right, ctx->arg) < 0)
            right -= size;
        if (left < right) {
            quicksort_swap(left, right, ctx, variant);
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

/* ---- the introsorts' heapsort ---- */

/* Committed and 2021: sort the (hi - lo) / size elements before hi; hi itself is left out
** (the final insertion sort puts it in place). Final: the whole partition lo..hi, but two
** elements or fewer are left to the insertion sort. */
static inline void quicksort_heapsort(char *lo, char *hi, const quicksort_ctx *ctx,
                                      const qsb_quicksort_variant variant)
{
    size_t span = (size_t)(hi - lo) / ctx->size;
    if (variant == QSB_QUICKSORT_INTROSORT_2021) {
        qsb_heap_sort_bottom_up(lo, span, ctx->size, ctx->cmp, ctx->arg, ctx->swap,
                                QSB_SWAP_CALL_2021);
    } else if (variant == QSB_QUICKSORT_INTROSORT_FINAL) {
        if (span > 1)
            qsb_heap_sort(lo, span, ctx->size, ctx->cmp, ctx->arg, ctx->swap, QSB_HEAP_PROPER,
                          QSB_SWAP_CALL);
    } else if (span >= 2) {
        qsb_heap_sort(lo, span - 1, ctx->size, ctx->cmp, ctx->arg, ctx->swap,
                      QSB_HEAP_COMMITTED, QSB_SWAP_CALL);
    }
}

/* ---- final insertion sort ---- */

/* Moves the element at `from` down to `to`, shifting to..from-1 up by one. glibc does it one
** byte column at a time, from the element's last byte to its first, with no element buffer;
** so does this. */
static inline void quicksort_rotate_down(char *to, char *from, size_t size)
{
    for (size_t b = size; b-- > 0;) {
        char saved = from[b];
        for (char *p = from; p != to; p -= size)
            p[b] = (p - size)[b];
        to[b] = saved;
    }
}

/* The same moves in glibc's own loop shape, as the 2021 series' insertion sort compiles (objdump
** of the real code): two pointers a column apart, hi and lo = hi - size, both stepped, and the
** column ends when lo passes below `to`. That is 7 instructions per byte where
** quicksort_rotate_down() compiles to 5, and the 32-byte sorts spend much of their insertion
** sort there. lo can pass below the array's start, so it is kept as an integer. */
static inline void quicksort_rotate_down_glibc(char *to, char *from, size_t size)
{
    for (char *trav = from + size; --trav >= from;) {
        char saved = *trav;
        char *hi = trav;
        for (uintptr_t lo = (uintptr_t)trav; (lo -= size) >= (uintptr_t)to; hi = (char *)lo)
            *hi = *(char *)lo;
        *hi = saved;
    }
}

/* Insertion sort of the whole array (n >= 1). The minimum of the first min(n, 5) elements is
** the global minimum after partitioning: it goes first, as the sentinel that stops the inner
** scan; only the final introsort also bounds that scan by the array's start. */
static inline void quicksort_insertion_sort(char *base, size_t n, const quicksort_ctx *ctx,
                                            const qsb_quicksort_variant variant)
{
    const size_t size = ctx->size;
    const int bounded = variant == QSB_QUICKSORT_INTROSORT_FINAL;
    size_t thresh = n - 1 < QUICKSORT_MAX_THRESH ? n - 1 : QUICKSORT_MAX_THRESH;
    char *smallest = base;
    for (size_t i = 1; i <= thresh; i++)
        if (ctx->cmp(QUICKSORT_AT(base, i, ctx), smallest, ctx->arg) < 0)
            smallest = QUICKSORT_AT(base, i, ctx);
    if (smallest != base)
        quicksort_swap(smallest, base, ctx, variant);

    for (size_t i = 2; i < n; i++) {
        char *run = QUICKSORT_AT(base, i, ctx);
        char *tmp = run - size;
        while ((!bounded || tmp != base) && ctx->cmp(run, tmp, ctx->arg) < 0)
            tmp -= size;
        tmp += size;
        if (tmp != run) {
            if (variant == QSB_QUICKSORT_INTROSORT_2021)
                quicksort_rotate_down_glibc(tmp, run, size);
            else
                quicksort_rotate_down(tmp, run, size);
        }
    }
}

/* ---- the sort ---- */

static inline size_t quicksort_depth_limit(size_t n)
{
    size_t log2n = 0;
    while (n >>= 1)
        log2n++;
    return 2 * log2n;
}

/* The whole sort. `variant` must be a constant. `heapsorts`, when not NULL, counts the
** partitions handed to the heapsort (a test hook; the entry points pass NULL). */
static inline void qsb_quicksort_run(void *base_, size_t n, size_t size, qsb_compare cmp,
                                     void *arg, const qsb_quicksort_variant variant,
                                     size_t *heapsorts)
{
    if (n <= 1)
        return;

    char *base = base_;
    const qsb_swap_kind swap = variant == QSB_QUICKSORT_INTROSORT_2021
                                   ? quicksort_swap_kind_2021(size)
                                   : quicksort_swap_kind(base, size);
    const quicksort_ctx ctx = {size, swap, cmp, arg};
    const size_t max_thresh = QUICKSORT_MAX_THRESH * size;
    const int depth_limited = variant != QSB_QUICKSORT_LEGACY;
    const int final = variant == QSB_QUICKSORT_INTROSORT_FINAL;

    if (n > QUICKSORT_MAX_THRESH) {
        quicksort_node stack[QUICKSORT_STACK_NODES];
        quicksort_node *top = stack;
        char *lo = base;
        char *hi = base + size * (n - 1);
        size_t depth = depth_limited ? quicksort_depth_limit(n) : 0; /* legacy: never read */
        *top++ = (quicksort_node){NULL, NULL, depth}; /* popping it ends the loop */

        while (top > stack) {
            if (depth_limited && depth == 0) {
                if (heapsorts)
                    ++*heapsorts;
                quicksort_heapsort(lo, hi, &ctx, variant);
                --top;
                lo = top->lo, hi = top->hi, depth = top->depth;
                continue;
            }

            char *left, *right;
            quicksort_partition(lo, hi, &ctx, variant, &left, &right);

            /* Byte spans as unsigned: a scan that ran past lo makes right - lo huge, not
            ** small. Sides of at most 5 elements are left to the insertion sort. */
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
                *top++ = (quicksort_node){lo, right, depth - 1};
                lo = left;
            } else {
                *top++ = (quicksort_node){left, hi, depth - 1};
                hi = right;
            }
        }
    }

    quicksort_insertion_sort(base, n, &ctx, variant);
}

#endif
