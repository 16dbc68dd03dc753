/*
** stackmerge: a stable merge sort that never allocates. The qsort glibc was looking for in
** 2023: stable like msort, no malloc like introsort, O(n log n) comparisons in the worst case,
** O(log n) stack.
**
** Sort: blocks of 16 elements by binary insertion (a sorted prefix is found by one scan, a
** strictly descending one is reversed), then merged depth first (a binary counter over the
** blocks, no recursion), so merges of small runs stay in cache.
**
** Merge of runs A = [lo, mid) and B = [mid, hi): nothing when A's last <= B's first (one
** comparison); when the smaller run fits a fixed 2 KiB buffer on the stack, a plain merge
** through it (A forward or B backward; ties take A, so it is stable). Runs both larger than
** the buffer are rotated when B's last < A's first, and otherwise merged in place by
** Dudzinski and Dydek's algorithm ("On a stable storage merging algorithm", Inform. Process.
** Lett. 12 (1981); Kim and Kutzner's SymMerge, 2004, is its symmetric variant): cut the longer
** run in half, binary-search the cut element's place in the other (lower bound in B, upper
** bound in A: stable), rotate the two middle pieces, and merge both halves the same way, until
** one run fits the buffer. Rotations swap blocks (Gries and Mills, 1981) and finish through
** the buffer.
**
** Cost: the in-place merge of m <= n elements takes O(m log(n/m + 1)) comparisons, so the sort
** makes O(n log n) comparisons in the worst case. Measured: at most n log2 n - 0.5 n for every
** n <= 3000 (test_stackmerge); on random input 1.0% and 1.3% more than msort for 4- and 8-byte
** elements, 3.4-4.0% for 32-byte ones (64 fit the buffer, so more merges are split); 0.56-0.63
** n log2 n on McIlroy's adversary; n - 1 on sorted input. Moves: O(n log n) while runs fit the
** buffer, O(n log^2 (n/B)) above it (B = buffer elements), as block swaps and memmove.
** Memory: the 2 KiB buffer, and the sub-merges of an in-place merge wait on a 16-entry stack
** (at most log2(n / 2B) of them wait at once; past 16, one recursive call per 16 halvings):
** 3 KiB of stack in all at n = 8,388,608. Every index comes from bounded counters and binary
** searches, never from a scan that stops on a comparator answer, so any comparator leaves a
** permutation of the input, inside the array, in finite time.
*/
#include <stdalign.h>
#include <stdint.h>
#include <string.h>

#include "element_swap.h"
#include "sorts.h"

#ifndef QSB_STACKMERGE_BUFFER_BYTES
#define QSB_STACKMERGE_BUFFER_BYTES 2048 /* override with -D to measure the trade-off */
#endif
#ifndef QSB_STACKMERGE_BLOCK
#define QSB_STACKMERGE_BLOCK 16
#endif
#define BLOCK QSB_STACKMERGE_BLOCK /* elements sorted by binary insertion */

_Static_assert(QSB_STACKMERGE_BUFFER_BYTES >= 32, "insertion moves elements up to 32 bytes through it");

#define ALWAYS_INLINE inline __attribute__((always_inline))

typedef struct sorter sorter;
typedef void (*merge_fn)(const sorter *s, char *lo, char *mid, char *hi);

struct sorter {
    size_t size;       /* element bytes */
    qsb_compare cmp;
    void *arg;
    char *buf;         /* QSB_STACKMERGE_BUFFER_BYTES bytes */
    size_t capacity;   /* elements the buffer holds (0 when one does not fit) */
    merge_fn forward;  /* buffered merges specialised for this size */
    merge_fn backward;
};

static ALWAYS_INLINE void copy_element(char *dst, const char *src, size_t size)
{
    memcpy(dst, src, size); /* a constant size in the specialised copies: plain moves */
}

/* Swaps two disjoint byte ranges, 32 bytes at a time through registers (element_swap.h). */
static void swap_ranges(char *a, char *b, size_t bytes)
{
    if (bytes != 0)
        qsb_swap_bytes(a, b, bytes);
}

/* [p, p+x) [p+x, p+x+y) -> [p+x, p+x+y) [p, p+x), byte counts. Gries-Mills block swaps shrink
** the problem until the shorter side fits the buffer, which then finishes it in one move. */
static void rotate(const sorter *s, char *p, size_t x, size_t y)
{
    while (x != 0 && y != 0) {
        if (x <= y) {
            if (x <= QSB_STACKMERGE_BUFFER_BYTES) {
                memcpy(s->buf, p, x);
                memmove(p, p + x, y);
                memcpy(p + y, s->buf, x);
                return;
            }
            swap_ranges(p, p + x, x); /* A B1 B2 -> B1 A B2: B1 is final */
            p += x;
            y -= x;
        } else {
            if (y <= QSB_STACKMERGE_BUFFER_BYTES) {
                memcpy(s->buf, p + x, y);
                memmove(p + y, p, x);
                memcpy(p, s->buf, y);
                return;
            }
            swap_ranges(p + x - y, p + x, y); /* A1 A2 B -> A1 B A2: A2 is final */
            x -= y;
        }
    }
}

/* A (at most capacity elements) copied out, then merged with B from the front. The output
** never overtakes B's next element, and B's unconsumed tail is already in place. */
static ALWAYS_INLINE void merge_forward_sized(const sorter *s, char *lo, char *mid, char *hi,
                                              size_t size)
{
    memcpy(s->buf, lo, (size_t)(mid - lo));
    const char *a = s->buf, *a_end = s->buf + (mid - lo);
    const char *b = mid;
    char *out = lo;
    while (a < a_end && b < hi) {
        int take_b = s->cmp(b, a, s->arg) < 0; /* ties take A: stable */
        copy_element(out, take_b ? b : a, size);
        out += size;
        b += take_b ? size : 0;
        a += take_b ? 0 : size;
    }
    memcpy(out, a, (size_t)(a_end - a));
}

/* B (at most capacity elements) copied out, then merged with A from the back. */
static ALWAYS_INLINE void merge_backward_sized(const sorter *s, char *lo, char *mid, char *hi,
                                               size_t size)
{
    memcpy(s->buf, mid, (size_t)(hi - mid));
    const char *b_end = s->buf + (hi - mid);
    const char *a_end = mid;
    char *out = hi;
    while (a_end > lo && b_end > s->buf) {
        int take_a = s->cmp(b_end - size, a_end - size, s->arg) < 0; /* ties take B last */
        out -= size;
        copy_element(out, take_a ? a_end - size : b_end - size, size);
        a_end -= take_a ? size : 0;
        b_end -= take_a ? 0 : size;
    }
    memcpy(lo + (a_end - lo), s->buf, (size_t)(b_end - s->buf));
}

/* One step of Dudzinski-Dydek on runs both longer than the buffer, or the whole merge once
** one run fits it (returns 0). Otherwise cuts the longer run in half, finds the cut element's
** place in the other run, rotates the two middle pieces, and returns 1 with the two
** sub-merges (lo, cut[0], cut[2]) and (cut[2], cut[1], hi). Each has fewer elements than
** (lo, mid, hi). Kept out of line so the recursion's frames stay small. */
static __attribute__((noinline)) int split_step(const sorter *s, char *lo, char *mid, char *hi,
                                                char *cut[3])
{
    const size_t size = s->size;
    size_t n1 = (size_t)(mid - lo) / size, n2 = (size_t)(hi - mid) / size;
    if (n1 == 0 || n2 == 0)
        return 0;
    if (n1 <= s->capacity && (n1 <= n2 || n2 > s->capacity)) {
        s->forward(s, lo, mid, hi);
        return 0;
    }
    if (n2 <= s->capacity) {
        s->backward(s, lo, mid, hi);
        return 0;
    }
    if (n1 + n2 == 2) { /* only without a buffer (elements larger than it) */
        if (s->cmp(mid, lo, s->arg) < 0)
            rotate(s, lo, size, size);
        return 0;
    }
    char *cut1, *cut2;
    if (n1 >= n2) { /* n1 >= 2: the cut leaves both halves smaller */
        cut1 = lo + n1 / 2 * size;
        size_t l = 0, r = n2; /* first element of B not less than *cut1 */
        while (l < r) {
            size_t m = l + (r - l) / 2;
            if (s->cmp(mid + m * size, cut1, s->arg) < 0)
                l = m + 1;
            else
                r = m;
        }
        cut2 = mid + l * size;
    } else { /* n2 >= 2 */
        cut2 = mid + n2 / 2 * size;
        size_t l = 0, r = n1; /* first element of A greater than *cut2 */
        while (l < r) {
            size_t m = l + (r - l) / 2;
            if (s->cmp(cut2, lo + m * size, s->arg) < 0)
                r = m;
            else
                l = m + 1;
        }
        cut1 = lo + l * size;
    }
    rotate(s, cut1, (size_t)(mid - cut1), (size_t)(cut2 - mid));
    cut[0] = cut1;
    cut[1] = cut2;
    cut[2] = cut1 + (cut2 - mid);
    return 1;
}

/* The sub-merges: the smaller one goes on, the larger waits on a small stack of pending
** merges, so at most log2(n / 2B) wait at once (a sub-merge splits again only while both its
** runs exceed B). Past PENDING of them the larger is merged by a recursive call: a frame per
** PENDING halvings, far smaller than a recursion per halving. */
#ifndef QSB_STACKMERGE_PENDING
#define QSB_STACKMERGE_PENDING 16
#endif
#define PENDING QSB_STACKMERGE_PENDING

static void merge_in_place(const sorter *s, char *lo, char *mid, char *hi)
{
    struct {
        char *lo, *mid, *hi;
    } pending[PENDING];
    size_t waiting = 0;
    for (;;) {
        char *cut[3];
        if (!split_step(s, lo, mid, hi, cut)) {
            if (waiting == 0)
                return;
            waiting--;
            lo = pending[waiting].lo;
            mid = pending[waiting].mid;
            hi = pending[waiting].hi;
            continue;
        }
        char *large_lo = lo, *large_mid = cut[0], *large_hi = cut[2];
        if (cut[2] - lo <= hi - cut[2]) { /* the left one is smaller: it goes on */
            large_lo = cut[2], large_mid = cut[1], large_hi = hi;
            mid = cut[0], hi = cut[2];
        } else {
            lo = cut[2], mid = cut[1];
        }
        if (waiting < PENDING) {
            pending[waiting].lo = large_lo;
            pending[waiting].mid = large_mid;
            pending[waiting].hi = large_hi;
            waiting++;
        } else {
            merge_in_place(s, large_lo, large_mid, large_hi);
        }
    }
}

static ALWAYS_INLINE void merge_sized(const sorter *s, char *lo, char *mid, char *hi,
                                      size_t size)
{
    size_t n1 = (size_t)(mid - lo) / size, n2 = (size_t)(hi - mid) / size;
    if (s->cmp(mid - size, mid, s->arg) <= 0)
        return;
    if (n1 <= s->capacity && n1 <= n2)
        merge_forward_sized(s, lo, mid, hi, size);
    else if (n2 <= s->capacity)
        merge_backward_sized(s, lo, mid, hi, size);
    else if (s->cmp(hi - size, lo, s->arg) < 0)
        rotate(s, lo, (size_t)(mid - lo), (size_t)(hi - mid));
    else
        merge_in_place(s, lo, mid, hi);
}

/* Binary insertion sort of k elements at lo. A sorted prefix costs one comparison per
** element; a strictly descending one (never with equal neighbours: stable) is reversed. */
static ALWAYS_INLINE void insertion_sort_sized(const sorter *s, char *lo, size_t k,
                                               size_t size)
{
    if (k < 2)
        return;
    size_t i = 2, first = 0, last_known = 0; /* next insertion searches [first, i - last_known) */
    if (s->cmp(lo + size, lo, s->arg) < 0) {
        while (i < k && s->cmp(lo + i * size, lo + (i - 1) * size, s->arg) < 0)
            i++;
        for (char *a = lo, *b = lo + (i - 1) * size; a < b; a += size, b -= size) {
            if (size <= QSB_STACKMERGE_BUFFER_BYTES) {
                memcpy(s->buf, a, size);
                copy_element(a, b, size);
                copy_element(b, s->buf, size);
            } else {
                swap_ranges(a, b, size);
            }
        }
        first = 1; /* *lo, the old last, is not greater than the element that stopped the scan */
    } else {
        while (i < k && s->cmp(lo + (i - 1) * size, lo + i * size, s->arg) <= 0)
            i++;
        last_known = 1; /* the element that stopped the scan is less than its neighbour */
    }
    for (; i < k; i++, first = 0, last_known = 0) {
        char *x = lo + i * size;
        size_t l = first, r = i - last_known; /* first element greater than *x */
        while (l < r) {
            size_t m = l + (r - l) / 2;
            if (s->cmp(x, lo + m * size, s->arg) < 0)
                r = m;
            else
                l = m + 1;
        }
        if (l == i)
            continue;
        char *to = lo + l * size;
        if (size <= 32) {
            memcpy(s->buf, x, size);
            for (char *p = x; p > to; p -= size)
                copy_element(p, p - size, size);
            copy_element(to, s->buf, size);
        } else {
            rotate(s, to, (size_t)(x - to), size);
        }
    }
}

/* Depth first: after block j, merge as long as the count of blocks done is even at that
** width (a binary counter), then merge what is left from the right. */
static ALWAYS_INLINE void sort_sized(const sorter *s, char *base, size_t n, size_t size)
{
    const size_t blocks = (n + BLOCK - 1) / BLOCK;
    for (size_t j = 0; j < blocks; j++) {
        char *start = base + j * BLOCK * size;
        size_t k = j + 1 < blocks ? BLOCK : n - j * BLOCK;
        insertion_sort_sized(s, start, k, size);
        char *end = start + k * size;
        for (size_t done = j + 1, width = 1; done % 2 == 0; done /= 2, width *= 2)
            merge_sized(s, base + (j + 1 - 2 * width) * BLOCK * size,
                        base + (j + 1 - width) * BLOCK * size, end, size);
    }
    size_t left = blocks;                     /* one run per set bit, longest first */
    char *run = base + (left - (left & -left)) * BLOCK * size;
    left -= left & -left;
    while (left != 0) {
        char *previous = base + (left - (left & -left)) * BLOCK * size;
        merge_sized(s, previous, run, base + n * size, size);
        run = previous;
        left -= left & -left;
    }
}

#define SPECIALISE(suffix, size_expr)                                                        \
    static void forward_##suffix(const sorter *s, char *lo, char *mid, char *hi)             \
    {                                                                                        \
        merge_forward_sized(s, lo, mid, hi, size_expr);                                      \
    }                                                                                        \
    static void backward_##suffix(const sorter *s, char *lo, char *mid, char *hi)            \
    {                                                                                        \
        merge_backward_sized(s, lo, mid, hi, size_expr);                                     \
    }                                                                                        \
    static void sort_##suffix(sorter *s, char *base, size_t n)                               \
    {                                                                                        \
        s->forward = forward_##suffix;                                                       \
        s->backward = backward_##suffix;                                                     \
        sort_sized(s, base, n, size_expr);                                                   \
    }

SPECIALISE(4, 4)
SPECIALISE(8, 8)
SPECIALISE(16, 16)
SPECIALISE(32, 32)
SPECIALISE(any, s->size)

void qsb_stackmerge(void *base, size_t n, size_t size, qsb_compare cmp, void *arg)
{
    if (n <= 1 || size == 0)
        return;
    alignas(16) char buffer[QSB_STACKMERGE_BUFFER_BYTES];
    sorter s = {size, cmp, arg, buffer, QSB_STACKMERGE_BUFFER_BYTES / size, NULL, NULL};
    switch (size) {
    case 4: sort_4(&s, base, n); break;
    case 8: sort_8(&s, base, n); break;
    case 16: sort_16(&s, base, n); break;
    case 32: sort_32(&s, base, n); break;
    default: sort_any(&s, base, n); break;
    }
}
