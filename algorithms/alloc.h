/*
** Scratch memory of the merge sorts (msort, msort-2.39), behind one indirection so that tests
** can make the allocation fail and count it. In the tool the hook is a single flag test per
** sort call (not per element), and the counters are relaxed atomic increments: nothing
** measurable beside malloc itself.
**
** Also glibc <= 2.38's physical-memory rule: msort never allocates a buffer larger than a
** quarter of the physical memory (sysconf(_SC_PHYS_PAGES) / 4 pages, computed once per
** process; LONG_MAX when unknown).
*/
#ifndef QSB_ALLOC_H
#define QSB_ALLOC_H

#include <stddef.h>
#include <stdint.h>

/* malloc(bytes) with errno preserved (glibc's qsort never changes errno). NULL when malloc
** fails or the test hook forces a failure. */
void *qsb_scratch_malloc(size_t bytes);
void qsb_scratch_free(void *scratch);

/* msort's rule: does a buffer of `bytes` exceed a quarter of the physical memory? */
int qsb_scratch_exceeds_phys_limit(size_t bytes);

/* ---- test hooks (the tool never calls these) ---- */

typedef struct {
    uint64_t allocations; /* successful qsb_scratch_malloc calls */
    uint64_t failures;    /* calls that returned NULL (forced or real) */
    uint64_t frees;       /* qsb_scratch_free calls with a non-NULL buffer */
} qsb_scratch_stats;

/* While `fail` is non-zero every qsb_scratch_malloc returns NULL without allocating. */
void qsb_scratch_force_failure(int fail);

/* Replaces the physical page count of the limit rule (the quarter is still taken);
** 0 goes back to sysconf's. */
void qsb_scratch_override_phys_pages(long pages);

void qsb_scratch_stats_get(qsb_scratch_stats *out);
void qsb_scratch_stats_reset(void);

#endif
