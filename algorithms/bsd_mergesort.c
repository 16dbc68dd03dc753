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
#include <errno.h>
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

/* ---- the run list, threaded through the elements ---- */

/* A link as stored in an element: a pointer that may alias the caller's elements, whatever
** their type (a GCC extension; merge_core.c's words are the same kind). */
typedef byte *__attribute__((may_alias)) link;

/* The first pointer-aligned address at or after p, where p's element keeps its link. */
static QSB_ALWAYS_INLINE link *link_slot(byte *p)
{
    return (link *)(((uintptr_t)p + LINK_SIZE - 1) & ~(uintptr_t)(LINK_SIZE - 1));
}

static QSB_ALWAYS_INLINE byte *get_link(byte *p)
{
    return *link_slot(p);
}

/* Links p's element to next, and returns next. */
static QSB_ALWAYS_INLINE byte *set_link(byte *p, byte *next)
{
    return *link_slot(p) = next;
}

/* ---- moving elements ---- */

/* Swaps the elements at *a and b, stepping *a through its element and back, as libbsd's
** macro does (with *a left alone, gcc allocates the whole sort's registers differently). */
static QSB_ALWAYS_INLINE void swap_bytes(byte **a, byte *b, size_t size)
{
    int count = (int)size; /* libbsd's int */
    do {
        byte t = **a;
        *(*a)++ = *b;
        *b++ = t;
    } while (--count);
    *a -= size;
}

/* Reverses the elements from bottom to top (both included; bottom < top); size2 is twice the
** size, as libbsd's int. */
static QSB_ALWAYS_INLINE void reverse(byte *bottom, byte *top, size_t size, int size2)
{
    do {
        int count = (int)size;
        do {
            byte t = *bottom;
            *bottom++ = *top;
            *top++ = t;
        } while (--count);
        top -= size2;
    } while (bottom < top);
}

/* Copies from *from up to end (at least one unit: libbsd's do-while), advancing both. */
static QSB_ALWAYS_INLINE void copy_run(byte **from, byte **to, const byte *end, int words)
{
    byte *src = *from, *dst = *to;
    if (words) {
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

/* The elements of one run passed by the search, up to end, then one element of the other run:
** the second copy counts *count (its size) down to 0, as libbsd's does. It repeats copy_run's
** loop under one test of words, as libbsd's two macros sit under one test of its flag: as a
** call of copy_run then a counted copy, words is tested twice and the sort compiles otherwise
** (78 instruction lines). */
static QSB_ALWAYS_INLINE void copy_run_then_element(byte **run, const byte *end, byte **element,
                                                    byte **to, size_t *count, int words)
{
    byte *src = *run, *dst = *to, *e = *element;
    if (words) {
        do {
            memcpy(dst, src, WORD_SIZE);
            src += WORD_SIZE;
            dst += WORD_SIZE;
        } while (src < end);
        do {
            memcpy(dst, e, WORD_SIZE);
            e += WORD_SIZE;
            dst += WORD_SIZE;
        } while (*count -= WORD_SIZE);
    } else {
        do
            *dst++ = *src++;
        while (src < end);
        do
            *dst++ = *e++;
        while (*count -= 1);
    }
    *run = src;
    *element = e;
    *to = dst;
}

/* ---- the first pass ---- */

/* Never cloned: with the comparator's argument unused (a plug-in with qsort's comparator), gcc
** would specialize a copy without it, laid out otherwise than libbsd's, which moves everything
** after it. */
static __attribute__((noclone)) void insertion_sort(byte *a, size_t n, size_t size,
                                                    qsb_compare cmp, void *arg)
{
    for (byte *next = a + size; --n >= 1; next += size)
        for (byte *t = next; t > a; t -= size) {
            byte *u = t - size;
            if (cmp(u, t, arg) <= 0)
                break;
            swap_bytes(&u, t, size);
        }
}

/* Insertion sorts the last 4 or 5 elements as one run and cuts the rest into runs, linked
** through list2 at the same offsets. Runs are decided pair by pair: a stretch of pairs of one
** sense shorter than NATURAL_RUN_MIN elements gives pairs, a longer one gives natural runs. */
static void setup(byte *list1, byte *list2, size_t n, size_t size, qsb_compare cmp, void *arg)
{
    int size2 = (int)(size * 2); /* libbsd's int */
    if (n <= 5) {
        insertion_sort(list1, n, size, cmp, arg);
        set_link(list2, list2 + n * size);
        return;
    }
    /* The last 4 or 5 elements (an even count before them) are one run. */
    int tail = 4 + (int)(n & 1);
    insertion_sort(list1 + (n - tail) * size, tail, size, cmp, arg);
    byte *last = list1 + size * (n - tail);
    set_link(list2 + (last - list1), list2 + n * size);
    byte *p2 = list2, *f1 = list1, *f2;
    int sense = cmp(f1, f1 + size, arg) > 0;
    for (; f1 < last; sense = !sense) {
        int length = 2;
        for (f2 = f1 + size2; f2 < last; f2 += size2) {
            if ((cmp(f2, f2 + size, arg) > 0) != sense)
                break;
            length += 2;
        }
        if (length < NATURAL_RUN_MIN) { /* pairs */
            do {
                p2 = set_link(p2, f1 + size2 - list1 + list2);
                if (sense > 0)
                    swap_bytes(&f1, f1 + size, size);
            } while ((f1 += size2) < f2);
        } else { /* natural runs */
            byte *stretch_end = f2;
            for (f2 = f1 + size2; f2 < stretch_end; f2 += size2)
                if ((cmp(f2 - size, f2, arg) > 0) != sense) {
                    p2 = set_link(p2, f2 - list1 + list2);
                    if (sense > 0)
                        reverse(f1, f2 - size, size, size2);
                    f1 = f2;
                }
            if (sense > 0)
                reverse(f1, f2 - size, size, size2);
            f1 = f2;
            if (f2 < last || cmp(f2 - size, f2, arg) > 0)
                p2 = set_link(p2, f2 - list1 + list2);
            else
                p2 = set_link(p2, list2 + n * size);
        }
    }
}

/* ---- merging ---- */

/* Merges the runs of list1, listed in list2, pairwise into list2, and again from there, until
** one run is left. Each step of a merge takes the smaller head q of the two runs and finds
** where it goes in the other run, from b up to t (`sense`: -1, q from the right run, goes after
** equal elements; 0, from the left run, before them): by linear steps, or, after LINEAR_STEPS
** of them in a row (big set), by exponential steps then bisection, until an exponential search
** stops at its first step (big cleared). i is 0 between steps: the copy of q counts it down.
**
** The code keeps libbsd's shape where gcc's output depends on it, so that the two compile to
** nearly the same instructions (about 60 of 750 lines differ, in register moves) and most loops
** land at the same offsets: the merge inline in the passes with libbsd's jumps, and i shared
** by the search and the copy (with the merge in a function of its own, or i local to it, gcc
** allocated the whole sort's registers otherwise); the links read and written as pointers
** (through memcpy, the sort compiled otherwise); the exponential step's end tested as libbsd
** does, with a pointer that may pass the run's end; the status returned, from a function of its
** own, and errno set, as libbsd's (inlined into a void function, it compiled otherwise too). */
int qsb_bsd_mergesort_status(void *base, size_t n, size_t size, qsb_compare cmp, void *arg)
{
    if (size < LINK_SIZE / 2) {
        errno = EINVAL;
        return -1;
    }
    if (n == 0)
        return 0;
    int words = size % WORD_SIZE == 0 && (uintptr_t)base % WORD_SIZE == 0;
    byte *list1 = base, *list2 = malloc(n * size + LINK_SIZE);
    if (!list2)
        return -1;
    setup(list1, list2, n, size, cmp, arg);
    byte *last = list2 + n * size;
    size_t i = 0;
    int big = 0;
    while (get_link(list2) != last) {
        /* One pass: the runs of list1, listed in list2, merged pairwise into list2; each
        ** merged run's first element is linked to the next where slot points. */
        byte *l2 = list1;
        link *slot = link_slot(list1);
        for (byte *out = list2, *p2 = list2; p2 != last; slot = link_slot(l2)) {
            p2 = get_link(p2);
            byte *f1 = l2, *l1 = list1 + (p2 - list2), *f2 = l1;
            if (p2 != last)
                p2 = get_link(p2);
            l2 = list1 + (p2 - list2);
            while (f1 < l1 && f2 < l2) {
                byte *q, *b, *t, *p;
                int sense;
                if (cmp(f1, f2, arg) <= 0) {
                    q = f2, b = f1, t = l1, sense = -1;
                } else {
                    q = f1, b = f2, t = l2, sense = 0;
                }
                if (!big) {
                    while ((b += size) < t && cmp(q, b, arg) > sense)
                        if (++i == LINEAR_STEPS) {
                            big = 1;
                            goto gallop;
                        }
                } else {
                gallop:
                    for (i = size;; i <<= 1) {
                        if ((p = b + i) >= t) { /* libbsd's test: p may pass t */
                            if ((p = t - size) > b && cmp(q, p, arg) <= sense)
                                t = p;
                            else
                                b = p;
                            break;
                        }
                        if (cmp(q, p, arg) <= sense) {
                            t = p;
                            if (i == size)
                                big = 0;
                            goto halve;
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
                    goto found;
                halve:
                    while (i > size) {
                        p = b + (i >>= 1);
                        if (cmp(q, p, arg) <= sense)
                            t = p;
                        else
                            b = p;
                    }
                found:
                    b = t;
                }
                /* The elements passed, then q. */
                i = size;
                if (q == f1)
                    copy_run_then_element(&f2, b, &f1, &out, &i, words);
                else
                    copy_run_then_element(&f1, b, &f2, &out, &i, words);
            }
            if (f2 < l2)
                copy_run(&f2, &out, l2, words);
            else if (f1 < l1)
                copy_run(&f1, &out, l1, words);
            *slot = l2;
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
    (void)qsb_bsd_mergesort_status(base, n, size, cmp, arg);
}
