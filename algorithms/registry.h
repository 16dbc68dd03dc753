/*
** The algorithm registry: one static table of every qsort implementation the tool can run.
** `list`, --help, the run, the audit and the tests all read this table; nothing else names
** an algorithm. Every entry has glibc's qsort_r signature; sorting 0 or 1 element never
** calls the comparator.
*/
#ifndef QSB_REGISTRY_H
#define QSB_REGISTRY_H

#include <stddef.h>

#include "comparator.h"

typedef void (*qsb_sort_fn)(void *base, size_t n, size_t size, qsb_compare cmp, void *arg);

/* Declared properties (what the implementation claims; `audit` measures them). */
enum {
    QSB_PROP_STABLE      = 1u << 0, /* equal elements keep their order */
    QSB_PROP_ALLOCATES   = 1u << 1, /* may call malloc: not async-signal-safe */
    QSB_PROP_NLOGN_WORST = 1u << 2, /* O(n log n) comparisons in the worst case */
    QSB_PROP_FALLBACK    = 1u << 3, /* may switch to another algorithm at run time */
    QSB_PROP_UNKNOWN     = 1u << 4  /* declares nothing (the host's libc, plug-ins): the other
                                       bits are meaningless and only `audit` can tell */
};

typedef struct {
    const char *name;    /* lowercase [a-z0-9.-] ("msort-2.39") */
    const char *summary; /* one line */
    qsb_sort_fn sort;
    unsigned properties; /* QSB_PROP_* bits */
    const char *origin;  /* the glibc release or commit it follows */
    size_t min_size;     /* the smallest element size it sorts (0: any); a run refuses smaller
                            ones, as the real code does (libbsd's mergesort: EINVAL) */
} qsb_algorithm;

extern const qsb_algorithm qsb_algorithms[];
extern const size_t qsb_algorithm_count;

const qsb_algorithm *qsb_algorithm_find(const char *name); /* NULL when unknown */

/* The patterns spec's comparator for elements of `size` bytes, compiled into this object (the
** same source as inputs/comparator.c): run --placement near calls it beside the sorts. */
qsb_compare qsb_near_comparator(size_t size);

#endif
