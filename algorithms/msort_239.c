/*
** msort-2.39: glibc's qsort from 2.39 on (stdlib/qsort.c after the introsort was reverted).
** The same stable merge sort as msort (merge_core), with 2.39's changes: n <= 1 returns at
** once; a fixed 1024-byte stack buffer when the scratch fits in it, otherwise malloc with no
** physical-memory check; heapsort (in place, not stable, n log n) when malloc fails; 16-, 24-
** and 32-byte elements are moved with memcpy (only 4- and 8-byte elements get word moves).
*/
#include <stdalign.h>
#include <stdint.h>

#include "alloc.h"
#include "merge_core.h"
#include "sorts.h"

#define STACK_SCRATCH_BYTES 1024

/* glibc 2.39's rule: word moves only for 4- and 8-byte elements on a base aligned for them. */
static qsb_copy_mode copy_mode_239(const void *base, size_t size)
{
    uintptr_t address = (uintptr_t)base;
    if (size > QSB_MERGE_INDIRECT_ABOVE)
        return QSB_COPY_INDIRECT;
    if (size == 4 && address % 4 == 0)
        return QSB_COPY_WORD32;
    if (size == 8 && address % 8 == 0)
        return QSB_COPY_WORD64;
    return QSB_COPY_BYTES;
}

void qsb_msort_239(void *base, size_t n, size_t size, qsb_compare cmp, void *arg)
{
    if (n <= 1)
        return;
    alignas(uint64_t) char on_stack[STACK_SCRATCH_BYTES];
    const size_t bytes = qsb_merge_scratch_bytes(n, size);
    void *scratch = on_stack;
    if (bytes > sizeof on_stack) {
        scratch = qsb_scratch_malloc(bytes);
        if (!scratch) {
            qsb_heapsort(base, n, size, cmp, arg);
            return;
        }
    }
    qsb_merge_sort(base, n, size, copy_mode_239(base, size), scratch, cmp, arg);
    if (scratch != on_stack)
        qsb_scratch_free(scratch);
}
