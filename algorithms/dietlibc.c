/*
** dietlibc: dietlibc 0.34's qsort (lib/qsort.c, Debian 12's dietlibc-dev, CVS of 2016-06-06),
** Sedgewick and Bentley's quicksort with 3-way partitioning ("Quicksort is optimal", 2002): the
** keys equal to the pivot are gathered at both ends during the scan and swapped to the middle
** after it. The pivot is a random element of the range (not the last), drawn with dietlibc's
** rand(), and swapped to the end. The left part is sorted by recursion, the right one by the
** loop. The left scan stops at the pivot's place, the right one at the range's start.
**
** rand() is dietlibc's: rand_r() on one static seed, the "minimal standard" generator of Park
** and Miller with multiplier 48271 (Schrage's method), a seed of 1 in a fresh process. The
** real sort's pivots thus depend on every rand() call the process made before; this entry
** starts the generator at a fresh process's state at each sort, so that its comparator calls
** are reproducible (and equal the real sort's in a process that calls it once).
**
** About 1.39 n log2 n comparisons on average and on any input order (random pivots); O(n^2)
** in the worst case, with a vanishing probability, and against an adversary that answers
** after the pivot is drawn; recursion depth O(n) in that worst case. In place, not stable, no
** allocation. Exchanges move one byte at a time, as dietlibc's do. The comparator calls and
** the bytes are dietlibc's (test_dietlibc_oracle: the objects of Debian's dietlibc-dev, the
** generator reset before each sort). It has qsort's signature there; here the comparator's
** argument is passed along (one indirect call per comparison, as dietlibc's).
*/
#include <stdint.h>
#include <sys/types.h>

#include "sorts.h"

enum { FRESH_SEED = 1 }; /* dietlibc's seed before any rand() or srand() call */

typedef struct {
    char *base;
    size_t size;
    qsb_compare cmp;
    void *arg;
    uint32_t seed; /* dietlibc's rand() state */
} dietlibc_sort;

/* dietlibc's rand(): seed * 48271 mod 2^31 - 1, which Schrage's method computes exactly. */
static ssize_t next_random(dietlibc_sort *s)
{
    s->seed = (uint32_t)((uint64_t)s->seed * 48271u % 2147483647u);
    return (ssize_t)s->seed;
}

static char *element(const dietlibc_sort *s, ssize_t i)
{
    return s->base + (size_t)i * s->size;
}

/* Kept out of line, as gcc left dietlibc's exch (the objdump of Debian's qsort.o). */
static __attribute__((noinline)) void exchange(const dietlibc_sort *s, ssize_t a, ssize_t b)
{
    char *x = element(s, a), *y = element(s, b);
    for (size_t k = s->size; k > 0; k--) {
        char t = *x;
        *x++ = *y;
        *y++ = t;
    }
}

static int compare(const dietlibc_sort *s, ssize_t a, ssize_t b)
{
    return s->cmp(element(s, a), element(s, b), s->arg);
}

/* Sorts [l, r] (inclusive). Invariant of the scan, with v the pivot at r: [l, p] == v,
** (p, i) < v, (j, q) > v, [q, r) == v. */
static void quicksort(dietlibc_sort *s, ssize_t l, ssize_t r)
{
    while (l < r) {
        exchange(s, l + next_random(s) % (r - l), r);
        ssize_t i = l - 1, j = r, p = l - 1, q = r;
        for (;;) {
            while (++i != r && compare(s, i, r) < 0)
                ;
            while (compare(s, r, --j) < 0)
                if (j == l)
                    break;
            if (i >= j)
                break;
            exchange(s, i, j);
            if (compare(s, i, r) == 0)
                exchange(s, ++p, i);
            if (compare(s, r, j) == 0)
                exchange(s, j, --q);
        }
        exchange(s, i, r);
        j = i - 1;
        i++;
        for (ssize_t k = l; k < p; k++, j--)
            exchange(s, k, j);
        for (ssize_t k = r - 1; k > q; k--, i++)
            exchange(s, i, k);
        quicksort(s, l, j);
        l = i;
    }
}

void qsb_dietlibc(void *base, size_t n, size_t size, qsb_compare cmp, void *arg)
{
    if (n >= SIZE_MAX >> 1 || size >= SIZE_MAX >> 1 || n <= 1)
        return; /* dietlibc's overflow guard, then nothing to sort */
    dietlibc_sort s = {base, size, cmp, arg, FRESH_SEED};
    quicksort(&s, 0, (ssize_t)n - 1);
}
