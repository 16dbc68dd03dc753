/*
** 4.4BSD's heapsort(3) with qsort's signature, as libbsd and OpenBSD's libc ship it
** (bsd_heapsort.c): shared by bsd-heapsort and by openbsd's introsort, which falls back to it.
*/
#ifndef QSB_BSD_HEAPSORT_H
#define QSB_BSD_HEAPSORT_H

#include <stddef.h>

#include "qsort_adapter.h"

/* Returns 0, or -1 without sorting when size is 0 or its one-element buffer cannot be had. */
int qsb_bsd_heapsort_plain(void *base, size_t n, size_t size, qsb_plain_compare cmp);

#endif
