/*
** The counting comparator wrapper (see counting.h).
*/
#include "counting.h"

int qsb_counting_compare(const void *a, const void *b, void *counter)
{
    qsb_counter *c = counter;
    c->calls++;
    return c->cmp(a, b, c->arg);
}

uint64_t qsb_count_comparisons(qsb_sort_fn sort, void *base, size_t n, size_t size,
                               qsb_compare cmp, void *arg)
{
    qsb_counter counter = {cmp, arg, 0};
    sort(base, n, size, qsb_counting_compare, &counter);
    return counter.calls;
}
