/*
** msort: glibc's qsort up to 2.38 (stdlib/msort.c, the 2021 cover letter's "master").
** A stable top-down merge sort (merge_core), indirect above 32-byte elements; n log2 n
** comparisons at most. Scratch of n * size bytes (2 n pointers + one element when indirect):
** on the stack below 1024 bytes, else malloc'd unless it exceeds a quarter of the physical
** memory. When it cannot have the scratch it runs the legacy quicksort instead (in place,
** not stable, quadratic worst case).
*/
#include <alloca.h>
#include <stdint.h>

#include "alloc.h"
#include "merge_core.h"
#include "sorts.h"

#define STACK_SCRATCH_BELOW 1024 /* bytes; glibc <= 2.38 used alloca of exactly the need */

/* glibc <= 2.38's rule: word moves for 4- and 8-byte elements, 64-bit word loops for other
** multiples of 8, memcpy otherwise; each only when the base is aligned for its words. */
static qsb_copy_mode legacy_copy_mode(const void *base, size_t size)
{
    uintptr_t address = (uintptr_t)base;
    if (size > QSB_MERGE_INDIRECT_ABOVE)
        return QSB_COPY_INDIRECT;
    if (size % 4 != 0 || address % 4 != 0)
        return QSB_COPY_BYTES;
    if (size == 4)
        return QSB_COPY_WORD32;
    if (address % 8 != 0)
        return QSB_COPY_BYTES;
    if (size == 8)
        return QSB_COPY_WORD64;
    return size % 8 == 0 ? QSB_COPY_LONGS : QSB_COPY_BYTES;
}

void qsb_msort(void *base, size_t n, size_t size, qsb_compare cmp, void *arg)
{
    const size_t bytes = qsb_merge_scratch_bytes(n, size);
    const qsb_copy_mode mode = legacy_copy_mode(base, size);

    if (bytes < STACK_SCRATCH_BELOW) {
        /* alloca, as glibc: the stack use grows with the input, up to 1 KiB. */
        void *on_stack = alloca(bytes);
        qsb_merge_sort(base, n, size, mode, on_stack, cmp, arg);
        return;
    }
    void *scratch = NULL;
    if (!qsb_scratch_exceeds_phys_limit(bytes))
        scratch = qsb_scratch_malloc(bytes);
    if (!scratch) {
        qsb_quicksort(base, n, size, cmp, arg);
        return;
    }
    qsb_merge_sort(base, n, size, mode, scratch, cmp, arg);
    qsb_scratch_free(scratch);
}
