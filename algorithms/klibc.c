/*
** klibc: klibc 2.0's qsort (usr/klibc/qsort.c), which is a combsort (Dobosiewicz 1980, Lacey and
** Box 1991): bubble-sort passes that compare elements `gap` apart, the gap shrunk by 10/13 each
** pass (Lacey and Box's "rule of 11": a gap of 9 or 10 becomes 11) down to 1, then passes of
** gap 1 until one makes no swap. Each out-of-order pair is exchanged by klibc's memswap, one
** byte at a time.
**
** About n log n comparisons on typical input (each pass makes n - gap of them, and about
** log_{1.3} n + a few passes run), but no proven bound: the final gap-1 passes are bubble sort,
** O(n^2) in the worst case. In place, O(1) stack, not stable, no allocation. klibc's sort has
** qsort's signature; here the comparator's argument is passed along, one indirect call per
** comparison as klibc's makes. The comparator calls and the bytes are klibc's
** (test_klibc_oracle: the object of Debian's libklibc-dev). A comparator that is no consistent
** order (one that always answers "greater", or at random) keeps the gap-1 passes swapping:
** this sort, like klibc's, then never ends (the audit's HANG).
*/
#include "sorts.h"

/* The next gap: 10/13 of the last, 11 in place of 9 or 10, never below 1. */
static size_t next_gap(size_t gap)
{
    gap = gap * 10 / 13;
    if (gap == 9 || gap == 10)
        gap = 11;
    return gap < 1 ? 1 : gap;
}

/* klibc's memswap: the two blocks exchanged byte by byte, first to last, both pointers moved
** and the count run down as klibc's loop does (an indexed loop compiles to other, faster code).
** Kept out of line, as in klibc, where it is a function of its own object (memswap.o) that
** qsort calls. */
static __attribute__((noinline)) void memswap(char *p, char *q, size_t n)
{
    while (n--) {
        char t = *p;
        *p++ = *q;
        *q++ = t;
    }
}

void qsb_klibc(void *base, size_t n, size_t size, qsb_compare cmp, void *arg)
{
    if (n == 0)
        return;
    size_t gap = n;
    int swapped;
    do {
        gap = next_gap(gap);
        swapped = 0;
        char *left = base, *right = left + gap * size;
        for (size_t i = 0; i < n - gap; i++, left += size, right += size)
            if (cmp(left, right, arg) > 0) {
                memswap(left, right, size);
                swapped = 1;
            }
    } while (gap > 1 || swapped);
}
