/*
** stackmerge: a stable merge sort that never allocates. The qsort glibc was looking for in
** 2023: stable like msort, no malloc like introsort, O(n log n) comparisons in the worst case,
** O(log n) stack.
**
** The comparator is an opaque call, so the speed of a merge sort is the latency of one merge
** step: load, call, compare, advance a pointer by the answer. A merge that branches on the
** answer mispredicts half the time on random keys; one that selects without a branch still
** waits for each answer before the next call. So every merge here is branchless and runs two
** independent merge chains at once, whose calls overlap in the processor.
**
** 1. Chunks of C elements (C = what a fixed 2 KiB stack buffer holds: 512 4-byte, 256 8-byte
**    elements) are sorted by ping-pong merges between the array and the buffer (each level
**    moves every element once). A chunk already in order costs C - 1 comparisons; a strictly
**    descending one is reversed. Otherwise pairs are ordered, then runs of equal length are
**    merged by parity merges (quadsort's, Hennink 2021): one chain from the front and one
**    from the back, w steps each, so neither needs a bounds check; two merges of a level run
**    side by side, four chains in one loop. With a comparator that is not a strict weak order
**    the two chains of a merge can claim the same element; then they do not meet where they
**    should, and the merge is redone as a plain copy of its source, which is intact: a
**    permutation, in any order, is what such a comparator gets.
** 2. The chunks are merged depth first (a binary counter over them, no recursion). A merge
**    costs one comparison when its runs are already in order. When the smaller run fits the
**    buffer, the output is split at its middle by a binary search of the merge path (the
**    co-rank: how many of the first half come from each run; Siebert and Traff's merge path,
**    2012), the buffered run is copied out, the other run's piece of the first half is moved
**    once into place, and the two halves merge as two interleaved chains into disjoint parts
**    of the array. Long runs both larger than the buffer are swapped when B's last < A's first,
**    and otherwise merged in place by Dudzinski and Dydek's algorithm ("On a stable storage
**    merging algorithm", Inform. Process. Lett. 12 (1981); Kim and Kutzner's SymMerge, 2004,
**    is its symmetric variant): cut the longer run in half, binary-search the cut element's
**    place in the other (lower bound in B, upper bound in A: stable), rotate the two middle
**    pieces, and merge both halves the same way, until the smaller run of each fits the
**    buffer. Rotations swap blocks (Gries and Mills, 1981) and finish through the buffer.
**
** Not used: powersort's merge policy (Munro and Wild, 2018) pays when natural runs are long
** and uneven; here runs are found only as whole chunks in order or in reverse, which is what
** sorted, reversed and bitonic input need, and the merge order stays a binary counter.
** Block merges (Huang and Langston, 1988; Kim and Kutzner, 2008) would make the merges above
** the buffer linear in moves, but need an internal buffer of distinct keys and a tag per block.
**
** Elements of 4, 8, 16 and 32 bytes have their own instances (moves are typed loads and
** stores); other sizes copy with memcpy. Elements larger than half the buffer skip phase 1
** and are merged in place from single elements.
**
** Cost: a merge of m <= n elements in place takes O(m log(n/m + 1)) comparisons, so the sort
** makes O(n log n) in the worst case; parity merges make exactly one comparison per element
** and each merge of phase 2 adds a binary search of about log2 of its length, which costs a few
** percent over msort. Measured: within n log2 n + n for every n <= 3000 (test_stackmerge); on
** random input 0.98-1.04 n log2 n (msort 0.92-0.95, llvm 1.03-1.04); 0.15-0.26 n log2 n on
** McIlroy's adversary; n - 1 on sorted input. Moves: O(n log n) while runs fit the buffer,
** O(n log^2 (n/C)) above it, as block swaps and memmove.
** Memory: the 2 KiB buffer, and the sub-merges of an in-place merge wait on a 16-entry stack
** (at most log2(n / 2C) of them wait at once; past 16, one recursive call per 16 halvings, so
** only beyond 2^26 4-byte elements): 3,320 bytes of stack in all at n = 8,388,608 (audit).
** Every index comes from bounded counters and binary searches, never from a scan that stops
** on a comparator answer, and every merge either consumes each element of its runs once or
** is replaced by a copy, so any comparator leaves a permutation of the input, inside the
** array, in finite time.
*/
#include <stdalign.h>
#include <stdint.h>
#include <string.h>

#include "element_swap.h"
#include "sorts.h"

#ifndef QSB_STACKMERGE_BUFFER_BYTES
#define QSB_STACKMERGE_BUFFER_BYTES 2048 /* override with -D to measure the trade-off */
#endif
#define BUFFER_BYTES QSB_STACKMERGE_BUFFER_BYTES

_Static_assert(BUFFER_BYTES >= 64, "a chunk holds at least two 32-byte elements");

enum {
    DUAL_MIN = 8 /* a buffered run this short is merged by one chain: no search, no move */
};

typedef struct sorter sorter;
typedef void (*merge_fn)(const sorter *s, char *lo, char *mid, char *hi);

struct sorter {
    size_t size;       /* element bytes */
    qsb_compare cmp;
    void *arg;
    char *buf;         /* BUFFER_BYTES bytes */
    size_t capacity;   /* elements the buffer holds */
    merge_fn buffered; /* merge_buffered specialised for this size */
};

static QSB_ALWAYS_INLINE void copy_element(char *dst, const char *src, size_t size)
{
    memcpy(dst, src, size); /* a constant size in the specialised copies: plain moves */
}

static QSB_ALWAYS_INLINE int less(const sorter *s, const char *a, const char *b)
{
    return s->cmp(a, b, s->arg) < 0;
}

/* `second` when pick is 1, `first` when 0, by masks: gcc turns a ?: on a comparator's answer
** into a branch, which mispredicts half the time on random keys. */
static QSB_ALWAYS_INLINE const char *pick(int pick_second, const char *first, const char *second)
{
    uintptr_t mask = -(uintptr_t)pick_second;
    return (const char *)(((uintptr_t)first & ~mask) | ((uintptr_t)second & mask));
}

/* size when pick is 1, 0 when 0 */
static QSB_ALWAYS_INLINE size_t step_if(int pick_second, size_t size)
{
    return size & -(size_t)pick_second;
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
            if (x <= BUFFER_BYTES) {
                memcpy(s->buf, p, x);
                memmove(p, p + x, y);
                memcpy(p + y, s->buf, x);
                return;
            }
            swap_ranges(p, p + x, x); /* A B1 B2 -> B1 A B2: B1 is final */
            p += x;
            y -= x;
        } else {
            if (y <= BUFFER_BYTES) {
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

/* ---- merge chains: one step each, no branch on the comparator's answer ---- */

/* A forward chain merges [a, a_end) and [b, b_end) into out, which never overtakes b. */
typedef struct {
    const char *a, *a_end, *b, *b_end;
    char *out;
} forward_chain;

static QSB_ALWAYS_INLINE int forward_open(const forward_chain *c)
{
    return c->a < c->a_end && c->b < c->b_end;
}

static QSB_ALWAYS_INLINE void forward_step(const sorter *s, forward_chain *c, size_t size)
{
    int take_b = less(s, c->b, c->a); /* ties take A: stable */
    copy_element(c->out, pick(take_b, c->a, c->b), size);
    c->out += size;
    c->b += step_if(take_b, size);
    c->a += step_if(!take_b, size);
}

/* Runs the chain out; what is left of A follows, what is left of B is already in place (or,
** into a separate destination, is copied too). */
static QSB_ALWAYS_INLINE void forward_finish(const sorter *s, forward_chain *c, size_t size)
{
    while (forward_open(c))
        forward_step(s, c, size);
    size_t rest = (size_t)(c->a_end - c->a);
    memmove(c->out, c->a, rest);
    if (c->out + rest != c->b)
        memmove(c->out + rest, c->b, (size_t)(c->b_end - c->b));
}

/* A backward chain merges [a_lo, a_end) and [b_lo, b_end) from their ends into the bytes
** below out_end; the output never undercuts a_end (A in place below it, B in the buffer). */
typedef struct {
    const char *a_lo, *a_end, *b_lo, *b_end;
    char *out_end;
} backward_chain;

static QSB_ALWAYS_INLINE int backward_open(const backward_chain *c)
{
    return c->a_end > c->a_lo && c->b_end > c->b_lo;
}

static QSB_ALWAYS_INLINE void backward_step(const sorter *s, backward_chain *c, size_t size)
{
    int take_a = less(s, c->b_end - size, c->a_end - size); /* ties put B last: stable */
    c->out_end -= size;
    copy_element(c->out_end, pick(take_a, c->b_end - size, c->a_end - size), size);
    c->a_end -= step_if(take_a, size);
    c->b_end -= step_if(!take_a, size);
}

static QSB_ALWAYS_INLINE void backward_finish(const sorter *s, backward_chain *c, size_t size)
{
    while (backward_open(c))
        backward_step(s, c, size);
    size_t rest = (size_t)(c->b_end - c->b_lo);
    memcpy(c->out_end - rest, c->b_lo, rest);
}

/* ---- phase 1: a chunk, ping-pong between the array and the buffer ---- */

/* Parity merges (quadsort's, Hennink 2021): two runs of w elements at src into 2w at dst (not
** overlapping src), w steps from the front and w from the back. Each chain reads only inside
** the runs (after k < w steps it has taken k elements), and with a strict weak order the front
** chain stops exactly where the back chain stopped; if it does not, the comparator is
** inconsistent and src is copied as is. */
typedef struct {
    const char *l, *r;         /* front: the next element of each run */
    const char *l_end, *r_end; /* back: one past the last element of each run */
    char *out, *out_end;
} parity_merge;

static QSB_ALWAYS_INLINE parity_merge parity_begin(const char *src, char *dst, size_t w,
                                                   size_t size)
{
    parity_merge m = {src, src + w * size, src + w * size, src + 2 * w * size,
                      dst, dst + 2 * w * size};
    return m;
}

static QSB_ALWAYS_INLINE void parity_step(const sorter *s, parity_merge *m, size_t size)
{
    int take_r = less(s, m->r, m->l); /* ties take the left run first */
    copy_element(m->out, pick(take_r, m->l, m->r), size);
    m->out += size;
    m->r += step_if(take_r, size);
    m->l += step_if(!take_r, size);
    int take_l = less(s, m->r_end - size, m->l_end - size); /* ties put the right run last */
    m->out_end -= size;
    copy_element(m->out_end, pick(take_l, m->r_end - size, m->l_end - size), size);
    m->l_end -= step_if(take_l, size);
    m->r_end -= step_if(!take_l, size);
}

static QSB_ALWAYS_INLINE void parity_end(const parity_merge *m, const char *src, char *dst,
                                         size_t w, size_t size)
{
    if (m->l != m->l_end)
        memcpy(dst, src, 2 * w * size);
}

/* Two parity merges side by side (four chains): groups g and g + 2w of one level. */
static QSB_ALWAYS_INLINE void parity_merge_two(const sorter *s, const char *src, char *dst,
                                               size_t w, size_t size)
{
    const size_t group = 2 * w * size;
    parity_merge x = parity_begin(src, dst, w, size);
    parity_merge y = parity_begin(src + group, dst + group, w, size);
    for (size_t k = 0; k < w; k++) {
        parity_step(s, &x, size);
        parity_step(s, &y, size);
    }
    parity_end(&x, src, dst, w, size);
    parity_end(&y, src + group, dst + group, w, size);
}

static QSB_ALWAYS_INLINE void parity_merge_one(const sorter *s, const char *src, char *dst,
                                               size_t w, size_t size)
{
    parity_merge x = parity_begin(src, dst, w, size);
    for (size_t k = 0; k < w; k++)
        parity_step(s, &x, size);
    parity_end(&x, src, dst, w, size);
}

/* Runs of n1 and n2 elements at src into dst (not overlapping): one bounded chain. */
static QSB_ALWAYS_INLINE void merge_into(const sorter *s, const char *src, size_t n1, size_t n2,
                                         char *dst, size_t size)
{
    forward_chain c = {src, src + n1 * size, src + n1 * size, src + (n1 + n2) * size, dst};
    forward_finish(s, &c, size);
}

static QSB_ALWAYS_INLINE void reverse(char *lo, size_t k, char *tmp, size_t size)
{
    for (char *a = lo, *b = lo + (k - 1) * size; a < b; a += size, b -= size) {
        memcpy(tmp, a, size);
        copy_element(a, b, size);
        copy_element(b, tmp, size);
    }
}

/* 1 when the k elements at lo are in order, or were strictly descending and are reversed
** (never with equal neighbours: stable). Stops at the first element out of that order. */
static QSB_ALWAYS_INLINE int presorted(const sorter *s, char *lo, size_t k, size_t size)
{
    size_t i = 1;
    if (less(s, lo + size, lo)) {
        while (i + 1 < k && less(s, lo + (i + 1) * size, lo + i * size))
            i++;
        if (i + 1 < k)
            return 0;
        reverse(lo, k, s->buf, size);
        return 1;
    }
    while (i + 1 < k && !less(s, lo + (i + 1) * size, lo + i * size))
        i++;
    return i + 1 == k;
}

/* Orders each pair (a stable exchange: only when the second is less). */
static QSB_ALWAYS_INLINE void sort_pairs(const sorter *s, char *lo, size_t k, size_t size)
{
    for (char *p = lo; p + size < lo + k * size; p += 2 * size) {
        int swap = less(s, p + size, p);
        if (size <= 32) {
            char x[32], y[32];
            memcpy(x, p, size);
            memcpy(y, p + size, size);
            copy_element(p, pick(swap, x, y), size);
            copy_element(p + size, pick(swap, y, x), size);
        } else if (swap) {
            swap_ranges(p, p + size, size);
        }
    }
}

/* Sorts k <= capacity elements at lo: pairs in place, then each level of merges from the
** array into the buffer or back, equal runs by parity merges, the last uneven pair by one
** chain. */
static QSB_ALWAYS_INLINE void sort_chunk_sized(const sorter *s, char *lo, size_t k, size_t size)
{
    if (k < 2 || presorted(s, lo, k, size))
        return;
    sort_pairs(s, lo, k, size);
    char *src = lo, *dst = s->buf;
    for (size_t w = 2; w < k; w *= 2) {
        size_t g = 0;
        for (; g + 4 * w <= k; g += 4 * w)
            parity_merge_two(s, src + g * size, dst + g * size, w, size);
        if (g + 2 * w <= k) {
            parity_merge_one(s, src + g * size, dst + g * size, w, size);
            g += 2 * w;
        }
        if (g + w < k)
            merge_into(s, src + g * size, w, k - g - w, dst + g * size, size);
        else
            memcpy(dst + g * size, src + g * size, (k - g) * size);
        char *t = src;
        src = dst;
        dst = t;
    }
    if (src != lo)
        memcpy(lo, src, k * size);
}

/* ---- phase 2: merges of runs in the array ---- */

/* How many of the first h elements of the stable merge of A (n1 at a) and B (n2 at b) come
** from A: the least i whose A[i] follows B[h-1-i] (B strictly less), found by binary search.
** Every probe is inside both runs, whatever the comparator answers. */
static QSB_ALWAYS_INLINE size_t co_rank(const sorter *s, const char *a, size_t n1, const char *b,
                                        size_t n2, size_t h, size_t size)
{
    size_t l = h > n2 ? h - n2 : 0, r = h < n1 ? h : n1;
    while (l < r) {
        size_t m = l + (r - l) / 2;
        if (less(s, b + (h - 1 - m) * size, a + m * size))
            r = m;
        else
            l = m + 1;
    }
    return l;
}

/* A = [lo, mid) into the buffer; the first half of the output takes A[0, i) and B[0, j),
** the second A[i, n1) and B[j, n2). B[0, j) moves down next to the output's first half, and
** the two halves merge forward side by side: each writes below its own next B element. */
static QSB_ALWAYS_INLINE void merge_dual_forward(const sorter *s, char *lo, char *mid, char *hi,
                                                 size_t size)
{
    const size_t n1 = (size_t)(mid - lo) / size, n2 = (size_t)(hi - mid) / size;
    const size_t h = (n1 + n2) / 2, i = co_rank(s, lo, n1, mid, n2, h, size), j = h - i;
    memcpy(s->buf, lo, n1 * size);
    memmove(lo + i * size, mid, j * size);
    forward_chain x = {s->buf, s->buf + i * size, lo + i * size, lo + h * size, lo};
    forward_chain y = {s->buf + i * size, s->buf + n1 * size, mid + j * size, hi, lo + h * size};
    while (forward_open(&x) && forward_open(&y)) {
        forward_step(s, &x, size);
        forward_step(s, &y, size);
    }
    forward_finish(s, &x, size);
    forward_finish(s, &y, size);
}

/* The mirror image: B = [mid, hi) into the buffer, A[i, n1) moves up to start the output's
** second half, and both halves merge backward. */
static QSB_ALWAYS_INLINE void merge_dual_backward(const sorter *s, char *lo, char *mid, char *hi,
                                                  size_t size)
{
    const size_t n1 = (size_t)(mid - lo) / size, n2 = (size_t)(hi - mid) / size;
    const size_t h = (n1 + n2) / 2, i = co_rank(s, lo, n1, mid, n2, h, size), j = h - i;
    memcpy(s->buf, mid, n2 * size);
    memmove(lo + h * size, lo + i * size, (n1 - i) * size);
    backward_chain x = {lo, lo + i * size, s->buf, s->buf + j * size, lo + h * size};
    backward_chain y = {lo + h * size, mid + j * size, s->buf + j * size, s->buf + n2 * size, hi};
    while (backward_open(&x) && backward_open(&y)) {
        backward_step(s, &x, size);
        backward_step(s, &y, size);
    }
    backward_finish(s, &x, size);
    backward_finish(s, &y, size);
}

/* A merge whose smaller run fits the buffer: the smaller run is copied out (A forward, B
** backward); two chains when it is long enough to pay for the search and the move. */
static QSB_ALWAYS_INLINE void merge_buffered_sized(const sorter *s, char *lo, char *mid, char *hi,
                                                   size_t size)
{
    const size_t n1 = (size_t)(mid - lo) / size, n2 = (size_t)(hi - mid) / size;
    if (n1 <= s->capacity && (n1 <= n2 || n2 > s->capacity)) {
        if (n1 >= DUAL_MIN) {
            merge_dual_forward(s, lo, mid, hi, size);
        } else {
            memcpy(s->buf, lo, n1 * size);
            forward_chain c = {s->buf, s->buf + n1 * size, mid, hi, lo};
            forward_finish(s, &c, size);
        }
    } else if (n2 >= DUAL_MIN) {
        merge_dual_backward(s, lo, mid, hi, size);
    } else {
        memcpy(s->buf, mid, n2 * size);
        backward_chain c = {lo, mid, s->buf, s->buf + n2 * size, hi};
        backward_finish(s, &c, size);
    }
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
    if (n1 <= s->capacity || n2 <= s->capacity) {
        s->buffered(s, lo, mid, hi);
        return 0;
    }
    if (n1 + n2 == 2) { /* only without a buffer (elements larger than it) */
        if (less(s, mid, lo))
            rotate(s, lo, size, size);
        return 0;
    }
    char *cut1, *cut2;
    if (n1 >= n2) { /* n1 >= 2: the cut leaves both halves smaller */
        cut1 = lo + n1 / 2 * size;
        size_t l = 0, r = n2; /* first element of B not less than *cut1 */
        while (l < r) {
            size_t m = l + (r - l) / 2;
            if (less(s, mid + m * size, cut1))
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
            if (less(s, cut2, lo + m * size))
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
** merges, so at most log2(n / 2C) wait at once (a sub-merge splits again only while both its
** runs exceed C). Past PENDING of them the larger is merged by a recursive call: a frame per
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

static QSB_ALWAYS_INLINE void merge_sized(const sorter *s, char *lo, char *mid, char *hi,
                                          size_t size)
{
    size_t n1 = (size_t)(mid - lo) / size, n2 = (size_t)(hi - mid) / size;
    if (!less(s, mid, mid - size))
        return;
    if (n1 <= s->capacity || n2 <= s->capacity)
        merge_buffered_sized(s, lo, mid, hi, size);
    else if (n1 >= DUAL_MIN && n2 >= DUAL_MIN && less(s, hi - size, lo))
        rotate(s, lo, (size_t)(mid - lo), (size_t)(hi - mid)); /* B all before A: a swap */
    else
        merge_in_place(s, lo, mid, hi);
}

/* Chunks of `chunk` elements sorted in turn; after chunk j, merge as long as the count of
** chunks done is even at that width (a binary counter), then merge what is left from the
** right. */
static QSB_ALWAYS_INLINE void sort_sized(const sorter *s, char *base, size_t n, size_t chunk,
                                         size_t size)
{
    const size_t chunks = (n + chunk - 1) / chunk;
    for (size_t j = 0; j < chunks; j++) {
        char *start = base + j * chunk * size;
        size_t k = j + 1 < chunks ? chunk : n - j * chunk;
        sort_chunk_sized(s, start, k, size);
        char *end = start + k * size;
        for (size_t done = j + 1, width = 1; done % 2 == 0; done /= 2, width *= 2)
            merge_sized(s, base + (j + 1 - 2 * width) * chunk * size,
                        base + (j + 1 - width) * chunk * size, end, size);
    }
    size_t left = chunks;                     /* one run per set bit, longest first */
    char *run = base + (left - (left & -left)) * chunk * size;
    left -= left & -left;
    while (left != 0) {
        char *previous = base + (left - (left & -left)) * chunk * size;
        merge_sized(s, previous, run, base + n * size, size);
        run = previous;
        left -= left & -left;
    }
}

#define SPECIALISE(suffix, size_expr)                                                        \
    static void buffered_##suffix(const sorter *s, char *lo, char *mid, char *hi)            \
    {                                                                                        \
        merge_buffered_sized(s, lo, mid, hi, size_expr);                                     \
    }                                                                                        \
    static void sort_##suffix(sorter *s, char *base, size_t n, size_t chunk)                 \
    {                                                                                        \
        s->buffered = buffered_##suffix;                                                     \
        sort_sized(s, base, n, chunk, size_expr);                                            \
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
    alignas(16) char buffer[BUFFER_BYTES];
    sorter s = {size, cmp, arg, buffer, BUFFER_BYTES / size, NULL};
    size_t chunk = s.capacity >= 2 ? s.capacity : 1; /* 1: no ping-pong, merges from singles */
    switch (size) {
    case 4: sort_4(&s, base, n, chunk); break;
    case 8: sort_8(&s, base, n, chunk); break;
    case 16: sort_16(&s, base, n, chunk); break;
    case 32: sort_32(&s, base, n, chunk); break;
    default: sort_any(&s, base, n, chunk); break;
    }
}
