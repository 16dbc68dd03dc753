/*
** system: this machine's libc qsort_r, called as is (glibc's argument order, which POSIX.1-2024
** adopted). On glibc <= 2.38 this is msort; on 2.39 and later msort-2.39. Whatever the libc
** does (allocation, fallback, stability) is what the audit measures.
*/
#include <stdlib.h>

#include "sorts.h"

void qsb_system_qsort(void *base, size_t n, size_t size, qsb_compare cmp, void *arg)
{
    qsort_r(base, n, size, cmp, arg);
}
