/*
** 4.4BSD's heapsort(3), as libbsd and OpenBSD's libc ship it (bsd_heapsort.c), with its return
** status: shared by bsd-heapsort and by openbsd's introsort, which falls back to it.
*/
#ifndef QSB_BSD_HEAPSORT_H
#define QSB_BSD_HEAPSORT_H

#include <stddef.h>

#include "comparator.h"

/* Returns 0, or -1 without sorting when size is 0 or its one-element buffer cannot be had. */
int qsb_bsd_heapsort_status(void *base, size_t n, size_t size, qsb_compare cmp, void *arg);

#endif
