/*
** dietlibc: dietlibc 0.34's qsort (lib/qsort.c, Debian 12's dietlibc-dev, CVS of 2016-06-06),
** Sedgewick and Bentley's quicksort with 3-way partitioning ("Quicksort is optimal", 2002): the
** keys equal to the pivot are gathered at both ends during the scan and swapped to the middle
** after it. The pivot is a random element of the range (not the last), drawn with dietlibc's
** rand(), and swapped to the end. The left scan stops at the pivot's place, the right one at the
** range's start.
**
** rand() is dietlibc's: rand_r() on one static seed, the "minimal standard" generator of Park and
** Miller with multiplier 48271 (Schrage's method), a seed of 1 in a fresh process. The real sort's
** pivots thus depend on every rand() call the process made before; this entry starts the generator
** at a fresh process's state at each sort, so that its comparator calls are reproducible (and
** equal the real sort's in a process that calls it once).
**
** About 1.39 n log2 n comparisons on average and on any input order (random pivots); O(n^2) in the
** worst case, with a vanishing probability, and against an adversary that answers after the pivot
** is drawn; recursion depth O(n) in that worst case (the right part's call is a tail call, as
** dietlibc's). In place, not stable, no allocation. Exchanges move one byte at a time, as
** dietlibc's do. The comparator calls and the bytes are dietlibc's (test_dietlibc_oracle: the
** objects of Debian's dietlibc-dev, the generator reset before each sort). It has qsort's
** signature there; here the comparator's argument is passed along (one indirect call per
** comparison, as dietlibc's).
*/
#include <stdint.h>
#include <sys/types.h>

#include "sorts.h"

enum { FRESH_SEED = 1 }; /* dietlibc's seed before any rand() or srand() call */

/* dietlibc's rand(): seed * 48271 mod 2^31 - 1, which Schrage's method computes exactly. */
static ssize_t next_random(uint32_t *seed)
{
    *seed = (uint32_t)((uint64_t)*seed * 48271u % 2147483647u);
    return (ssize_t)*seed;
}

/* dietlibc's exch: elements a and b exchanged byte by byte. Its shape and its callers' are
** dietlibc's (the array, the size and the comparator passed as values), so that the compiler
** makes the same choices for both: built alike, gcc inlines it into quicksort in each. */
static void exchange(char *base, size_t size, size_t a, size_t b)
{
    char *x = base + a * size, *y = base + b * size;
    for (; size > 0; size--) {
        char t = *x;
        *x++ = *y;
        *y++ = t;
    }
}

/* Sorts [l, r] (inclusive). Invariant of the scan, with v the pivot at r: [l, p] == v,
** (p, i) < v, (j, q) > v, [q, r) == v. The right part is sorted by the tail call, as
** dietlibc's second recursive call is. */
static void quicksort(char *base, size_t size, ssize_t l, ssize_t r, qsb_compare cmp,
                      void *arg, uint32_t *seed)
{
    if (r <= l)
        return; /* r may be l - 1 here, even -1: no pointer is formed from it */
    ssize_t i = l - 1, j = r, p = l - 1, q = r;
    char *v = base + (size_t)r * size;
    exchange(base, size, (size_t)(l + next_random(seed) % (r - l)), (size_t)r);
    for (;;) {
        while (++i != r && cmp(base + (size_t)i * size, v, arg) < 0)
            ;
        while (cmp(v, base + (size_t)(--j) * size, arg) < 0)
            if (j == l)
                break;
        if (i >= j)
            break;
        exchange(base, size, (size_t)i, (size_t)j);
        if (cmp(base + (size_t)i * size, v, arg) == 0)
            exchange(base, size, (size_t)++p, (size_t)i);
        if (cmp(v, base + (size_t)j * size, arg) == 0)
            exchange(base, size, (size_t)j, (size_t)--q);
    }
    exchange(base, size, (size_t)i, (size_t)r);
    j = i - 1;
    i++;
    for (ssize_t k = l; k < p; k++, j--)
        exchange(base, size, (size_t)k, (size_t)j);
    for (ssize_t k = r - 1; k > q; k--, i++)
        exchange(base, size, (size_t)i, (size_t)k);
    quicksort(base, size, l, j, cmp, arg, seed);
    quicksort(base, size, i, r, cmp, arg, seed);
}

void qsb_dietlibc(void *base, size_t n, size_t size, qsb_compare cmp, void *arg)
{
    if (n >= SIZE_MAX >> 1 || size >= SIZE_MAX >> 1 || n <= 1)
        return; /* dietlibc's overflow guard, then nothing to sort */
    uint32_t seed = FRESH_SEED;
    quicksort(base, size, 0, (ssize_t)n - 1, cmp, arg, &seed);
}
