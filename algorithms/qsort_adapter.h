/*
** Sorts with qsort's signature (no comparator argument), as most libcs other than glibc ship
** them, run through the registry's qsort_r signature: a thread-local record holds the real
** comparator and its argument while the sort runs, and the sort is given a two-argument
** trampoline that forwards to it, as the plug-ins' qsort adapter does (src/plugins/plugins.h).
** The record is saved and restored, so a comparator that sorts again is safe. The trampoline
** costs one indirect call per comparison, as it does for the real object called the same way.
*/
#ifndef QSB_QSORT_ADAPTER_H
#define QSB_QSORT_ADAPTER_H

#include <stddef.h>

#include "comparator.h"

typedef int (*qsb_plain_compare)(const void *a, const void *b);
typedef void (*qsb_plain_sort_fn)(void *base, size_t n, size_t size, qsb_plain_compare cmp);

/* Runs sort(base, n, size, trampoline) with the trampoline calling cmp(a, b, arg). */
void qsb_call_plain_sort(qsb_plain_sort_fn sort, void *base, size_t n, size_t size,
                         qsb_compare cmp, void *arg);

#endif
