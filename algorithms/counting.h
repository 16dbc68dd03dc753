/*
** Counting comparator calls without touching the algorithms: the sort is given
** qsb_counting_compare with a qsb_counter as its argument, which forwards to the real
** comparator and counts. This is the `comparisons` metric.
*/
#ifndef QSB_COUNTING_H
#define QSB_COUNTING_H

#include <stddef.h>
#include <stdint.h>

#include "registry.h"

typedef struct {
    qsb_compare cmp; /* the real comparator */
    void *arg;       /* its argument */
    uint64_t calls;  /* comparator calls so far */
} qsb_counter;

int qsb_counting_compare(const void *a, const void *b, void *counter);

/* Sorts with the counting wrapper and returns the number of comparator calls. */
uint64_t qsb_count_comparisons(qsb_sort_fn sort, void *base, size_t n, size_t size,
                               qsb_compare cmp, void *arg);

#endif
