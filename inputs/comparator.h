/*
** The one comparator type of the tool, in glibc/POSIX.1-2024 qsort_r order: every sort takes
** one, every comparator is one. Declared here, at the bottom of the tree, so that the inputs'
** comparators and the algorithms share it.
*/
#ifndef QSB_COMPARATOR_H
#define QSB_COMPARATOR_H

#include <stddef.h>

typedef int (*qsb_compare)(const void *a, const void *b, void *arg);

/* The comparator for elements of this size: (a > b) - (a < b) on the keys; arg unused. */
qsb_compare qsb_comparator(size_t size);

#endif
