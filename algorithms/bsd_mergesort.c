/*
** bsd-mergesort: libbsd 0.11's mergesort(3) (src/merge.c, from 4.4BSD; FreeBSD's
** lib/libc/stdlib/merge.c), Peter McIlroy's merge sort ("Optimistic Sorting and Information
** Theoretic Complexity", SODA 1993). A first pass cuts the array into runs: pairs put in order,
** or, where at least 16 elements go the same way two by two, natural runs (descending ones
** reversed); the last 4 or 5 elements are insertion sorted as one run. The runs are kept as a
** linked list threaded through the elements themselves: each run's first element holds, at its
** first pointer-aligned address, a pointer to the next run (hence elements of at least
** sizeof(void *) / 2 bytes). Then runs are merged pairwise, back and forth between the array
** and a buffer of n elements, until one run is left. Each merge step searches where the next
** element of one run goes in the other, linearly, or after 6 steps in a row exponentially then
** by bisection ("galloping"), and copies the elements passed in one go.
**
** O(n log n) comparisons in the worst case, about n - 1 on sorted or reversed input; stable.
** It allocates n * size + sizeof(void *) bytes at each call; without them, or for elements
** smaller than sizeof(void *) / 2 bytes (EINVAL), the real function returns -1 and sorts
** nothing, and so does this entry (the run refuses such sizes: registry.h). Copies move 4-byte
** words when the size and the base allow, else bytes; swaps move bytes, as libbsd's do. The
** comparator calls and the bytes are libbsd's (test_bsd_mergesort_oracle, against Debian's
** libbsd through -lbsd). It has qsort's signature there; here the comparator's argument is
** passed along (one indirect call per comparison, as libbsd's).
*/
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "sorts.h"

typedef unsigned char byte;

enum {
    NATURAL_RUN_MIN = 16, /* pairs of one sense in a row that make a natural run */
    LINEAR_STEPS = 6      /* linear search steps before galloping */
};

#define LINK_SIZE sizeof(byte *)
#define WORD_SIZE sizeof(int) /* libbsd's copy unit when the size and the base allow */

/* The sort's parameters; the functions that call the comparator take it and its argument into
** locals first, as libbsd's code has them: read through the struct, each would be loaded again
** after every byte the copies store, which may alias it. */
typedef struct {
    size_t size;
    qsb_compare cmp;
    void *arg;
    int words; /* copies move WORD_SIZE at a time */
} merge_sort;

/* ---- the run list, threaded through the elements ---- */

/* The first pointer-aligned address at or after p. */
static byte *link_slot(byte *p)
{
    uintptr_t a = (uintptr_t)p;
    return p + ((LINK_SIZE - a % LINK_SIZE) % LINK_SIZE);
}

static byte *get_link(byte *p)
{
    byte *next;
    memcpy(&next, link_slot(p), sizeof next);
    return next;
}

static void set_link(byte *p, byte *next)
{
    memcpy(link_slot(p), &next, sizeof next);
}

/* ---- moving elements ---- */

static void swap_bytes(byte *a, byte *b, size_t size)
{
    do {
        byte t = *a;
        *a++ = *b;
        *b++ = t;
    } while (--size);
}

/* Reverses the elements from bottom to top (both included; bottom < top). */
static void reverse(byte *bottom, byte *top, size_t size)
{
    do {
        swap_bytes(bottom, top, size);
        bottom += size;
        top -= size;
    } while (bottom < top);
}

/* Copies [*from, end) to *to (at least one unit: libbsd's do-while), advancing both. */
/* Inline, as libbsd's copies are macros: called, the merge's cursors, whose addresses they take,
** would live in memory across every copy. */
static inline void copy_run(const merge_sort *m, byte **from, byte **to, const byte *end)
{
    byte *src = *from, *dst = *to;
    if (m->words) {
        do {
            memcpy(dst, src, WORD_SIZE);
            src += WORD_SIZE;
            dst += WORD_SIZE;
        } while (src < end);
    } else {
        do
            *dst++ = *src++;
        while (src < end);
    }
    *from = src;
    *to = dst;
}

static inline void copy_element(const merge_sort *m, byte **from, byte **to)
{
    byte *end = *from + m->size;
    copy_run(m, from, to, end);
}

/* ---- the first pass ---- */

static void insertion_sort(const merge_sort *m, byte *a, size_t n)
{
    const size_t size = m->size;
    const qsb_compare cmp = m->cmp;
    void *const arg = m->arg;
    byte *next = a + size;
    for (; --n >= 1; next += size)
        for (byte *t = next; t > a; t -= size) {
            byte *u = t - size;
            if (cmp(u, t, arg) <= 0)
                break;
            swap_bytes(u, t, size);
        }
}

/* Cuts list1 (n > 5 elements, the last 4 or 5 already sorted from `last` on) into runs,
** linked through list2 at the same offsets. Runs are decided pair by pair: a stretch of
** pairs of one sense shorter than NATURAL_RUN_MIN elements gives pairs, a longer one gives
** natural runs. */
static void cut_runs(const merge_sort *m, byte *list1, byte *list2, size_t n, byte *last)
{
    const size_t size = m->size, size2 = 2 * size;
    const qsb_compare cmp = m->cmp;
    void *const arg = m->arg;
    byte *p2 = list2, *f1 = list1, *f2;
    int sense = cmp(f1, f1 + size, arg) > 0;
    for (; f1 < last; sense = !sense) {
        size_t length = 2;
        for (f2 = f1 + size2; f2 < last; f2 += size2) {
            if ((cmp(f2, f2 + size, arg) > 0) != sense)
                break;
            length += 2;
        }
        if (length < NATURAL_RUN_MIN) {
            do {
                byte *next = f1 + size2 - list1 + list2;
                set_link(p2, next);
                p2 = next;
                if (sense > 0)
                    swap_bytes(f1, f1 + size, size);
            } while ((f1 += size2) < f2);
            continue;
        }
        byte *stretch_end = f2;
        for (f2 = f1 + size2; f2 < stretch_end; f2 += size2)
            if ((cmp(f2 - size, f2, arg) > 0) != sense) {
                byte *next = f2 - list1 + list2;
                set_link(p2, next);
                p2 = next;
                if (sense > 0)
                    reverse(f1, f2 - size, size);
                f1 = f2;
            }
        if (sense > 0)
            reverse(f1, f2 - size, size);
        f1 = f2;
        byte *next = f2 < last || cmp(f2 - size, f2, arg) > 0 ? f2 - list1 + list2
                                                             : list2 + n * size;
        set_link(p2, next);
        p2 = next;
    }
}

static void setup(const merge_sort *m, byte *list1, byte *list2, size_t n)
{
    if (n <= 5) {
        insertion_sort(m, list1, n);
        set_link(list2, list2 + n * m->size);
        return;
    }
    /* The last 4 or 5 elements (an even count before them) are one run. */
    size_t tail = 4 + (n & 1);
    insertion_sort(m, list1 + (n - tail) * m->size, tail);
    byte *last = list1 + m->size * (n - tail);
    set_link(list2 + (last - list1), list2 + n * m->size);
    cut_runs(m, list1, list2, n, last);
}

/* ---- merging ---- */

/* Where q goes in (b, t): b before it, t after it (by `sense`: -1, q from the right run,
** goes after equal elements; 0, from the left run, before them). Exponential steps from b, then
** bisection. *big is cleared when the first step already overshoots. Returns the first element
** that goes after q. */
static byte *gallop(const merge_sort *m, const byte *q, byte *b, byte *t, int sense, int *big)
{
    const size_t size = m->size;
    const qsb_compare cmp = m->cmp;
    void *const arg = m->arg;
    size_t i;
    byte *p;
    for (i = size;; i <<= 1) {
        if (i >= (size_t)(t - b)) {
            if ((p = t - size) > b && cmp(q, p, arg) <= sense)
                t = p;
            else
                b = p;
            break;
        }
        p = b + i;
        if (cmp(q, p, arg) <= sense) {
            t = p;
            if (i == size)
                *big = 0;
            while (i > size) {
                i >>= 1;
                p = b + i;
                if (cmp(q, p, arg) <= sense)
                    t = p;
                else
                    b = p;
            }
            return t;
        }
        b = p;
    }
    while (t > b + size) {
        i = (((size_t)(t - b) / size) >> 1) * size;
        p = b + i;
        if (cmp(q, p, arg) <= sense)
            t = p;
        else
            b = p;
    }
    return t;
}

/* Merges the runs [f1, l1) and [f2, l2) of list1 into *out. */
static void merge_runs(const merge_sort *m, byte *f1, byte *l1, byte *f2, byte *l2, byte **out,
                       int *big)
{
    const size_t size = m->size;
    const qsb_compare cmp = m->cmp;
    void *const arg = m->arg;
    while (f1 < l1 && f2 < l2) {
        byte *q, *b, *t;
        int sense;
        if (cmp(f1, f2, arg) <= 0) {
            q = f2, b = f1, t = l1, sense = -1;
        } else {
            q = f1, b = f2, t = l2, sense = 0;
        }
        int galloping = *big;
        if (!galloping) {
            unsigned steps = 0;
            while ((b += size) < t && cmp(q, b, arg) > sense)
                if (++steps == LINEAR_STEPS) {
                    *big = galloping = 1;
                    break;
                }
        }
        if (galloping)
            b = gallop(m, q, b, t, sense, big);
        /* The elements passed, then q. */
        if (q == f1) {
            copy_run(m, &f2, out, b);
            copy_element(m, &f1, out);
        } else {
            copy_run(m, &f1, out, b);
            copy_element(m, &f2, out);
        }
    }
    if (f2 < l2)
        copy_run(m, &f2, out, l2);
    else if (f1 < l1)
        copy_run(m, &f1, out, l1);
}

static int bsd_mergesort(void *base, size_t n, size_t size, qsb_compare cmp, void *arg)
{
    if (size < LINK_SIZE / 2)
        return -1; /* libbsd: EINVAL */
    if (n == 0)
        return 0;
    const merge_sort m = {size, cmp, arg,
                          size % WORD_SIZE == 0 && (uintptr_t)base % WORD_SIZE == 0};
    byte *list1 = base, *list2 = malloc(n * size + LINK_SIZE);
    if (!list2)
        return -1;
    setup(&m, list1, list2, n);
    byte *last = list2 + n * size;
    int big = 0;
    while (get_link(list2) != last) {
        /* One pass: runs of list1, listed in list2, merged pairwise into list2. */
        byte *l2 = list1, *link = list1, *out = list2;
        for (byte *p2 = list2; p2 != last; link = l2) {
            p2 = get_link(p2);
            byte *f1 = l2, *l1 = list1 + (p2 - list2), *f2 = l1;
            if (p2 != last)
                p2 = get_link(p2);
            l2 = list1 + (p2 - list2);
            merge_runs(&m, f1, l1, f2, l2, &out, &big);
            set_link(link, l2);
        }
        byte *t = list1;
        list1 = list2;
        list2 = t;
        last = list2 + n * size;
    }
    if ((byte *)base == list2) {
        memmove(list2, list1, n * size);
        list2 = list1;
    }
    free(list2);
    return 0;
}

void qsb_bsd_mergesort(void *base, size_t n, size_t size, qsb_compare cmp, void *arg)
{
    (void)bsd_mergesort(base, n, size, cmp, arg);
}
