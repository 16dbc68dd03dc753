/*
** The sort functions of the registry, each in its own file of algorithms/. All have glibc's
** qsort_r signature (registry.h). registry.c, the tests and the algorithms' files include it.
*/
#ifndef QSB_SORTS_H
#define QSB_SORTS_H

#include <stddef.h>

#include "comparator.h"

/* For a helper that stands for a macro of the real code: inlined before its caller is
** optimized, as a macro's text is, so that gcc compiles the entry as it compiles the real code
** (a plain inline function is optimized on its own first, and the caller's code can differ). */
#define QSB_ALWAYS_INLINE inline __attribute__((always_inline))

void qsb_msort(void *base, size_t n, size_t size, qsb_compare cmp, void *arg);
void qsb_msort_239(void *base, size_t n, size_t size, qsb_compare cmp, void *arg);
void qsb_heapsort(void *base, size_t n, size_t size, qsb_compare cmp, void *arg);
void qsb_quicksort(void *base, size_t n, size_t size, qsb_compare cmp, void *arg);
void qsb_introsort(void *base, size_t n, size_t size, qsb_compare cmp, void *arg);
void qsb_introsort_2021(void *base, size_t n, size_t size, qsb_compare cmp, void *arg);
void qsb_introsort_final(void *base, size_t n, size_t size, qsb_compare cmp, void *arg);
void qsb_bsd(void *base, size_t n, size_t size, qsb_compare cmp, void *arg);
void qsb_musl(void *base, size_t n, size_t size, qsb_compare cmp, void *arg);
void qsb_bsd_heapsort(void *base, size_t n, size_t size, qsb_compare cmp, void *arg);
void qsb_bsd_mergesort(void *base, size_t n, size_t size, qsb_compare cmp, void *arg);
/* libbsd's mergesort(3) with its status: 0, or -1 without sorting (errno EINVAL for elements
** smaller than half a pointer, malloc's when the buffer cannot be had). */
int qsb_bsd_mergesort_status(void *base, size_t n, size_t size, qsb_compare cmp, void *arg);
void qsb_dietlibc(void *base, size_t n, size_t size, qsb_compare cmp, void *arg);
void qsb_klibc(void *base, size_t n, size_t size, qsb_compare cmp, void *arg);
void qsb_newlib(void *base, size_t n, size_t size, qsb_compare cmp, void *arg);
void qsb_openbsd(void *base, size_t n, size_t size, qsb_compare cmp, void *arg);
void qsb_llvm(void *base, size_t n, size_t size, qsb_compare cmp, void *arg);
void qsb_stackmerge(void *base, size_t n, size_t size, qsb_compare cmp, void *arg);
void qsb_system_qsort(void *base, size_t n, size_t size, qsb_compare cmp, void *arg);

#endif
