/*
** Scratch memory of the merge sorts, with the test hooks and msort's physical-memory rule
** (see alloc.h).
*/
#include "alloc.h"

#include <errno.h>
#include <limits.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <unistd.h>

static atomic_int force_failure;
static atomic_long phys_pages_override;
static atomic_uint_least64_t allocations, failures, frees;

/* Computed once per process, as glibc does; page_size != 0 publishes quarter_pages. */
static atomic_long quarter_pages;
static atomic_long page_size;

void *qsb_scratch_malloc(size_t bytes)
{
    void *scratch = NULL;
    if (!atomic_load_explicit(&force_failure, memory_order_relaxed)) {
        int saved = errno;
        scratch = malloc(bytes);
        errno = saved;
    }
    atomic_fetch_add_explicit(scratch ? &allocations : &failures, 1, memory_order_relaxed);
    return scratch;
}

void qsb_scratch_free(void *scratch)
{
    if (scratch)
        atomic_fetch_add_explicit(&frees, 1, memory_order_relaxed);
    free(scratch);
}

static void compute_phys_limit(void)
{
    long pages = sysconf(_SC_PHYS_PAGES);
    if (pages == -1)
        pages = LONG_MAX; /* unknown: assume there is enough */
    atomic_store_explicit(&quarter_pages, pages / 4, memory_order_relaxed);
    atomic_store_explicit(&page_size, sysconf(_SC_PAGESIZE), memory_order_release);
}

int qsb_scratch_exceeds_phys_limit(size_t bytes)
{
    if (atomic_load_explicit(&page_size, memory_order_acquire) == 0)
        compute_phys_limit();
    long quarter = atomic_load_explicit(&quarter_pages, memory_order_relaxed);
    long override = atomic_load_explicit(&phys_pages_override, memory_order_relaxed);
    if (override > 0)
        quarter = override / 4;
    /* Pages, not bytes: phys_pages * page_size may not fit in a size_t. */
    return bytes / (size_t)atomic_load_explicit(&page_size, memory_order_relaxed) >
           (size_t)quarter;
}

void qsb_scratch_force_failure(int fail)
{
    atomic_store(&force_failure, fail != 0);
}

void qsb_scratch_override_phys_pages(long pages)
{
    atomic_store(&phys_pages_override, pages);
}

void qsb_scratch_stats_get(qsb_scratch_stats *out)
{
    out->allocations = atomic_load(&allocations);
    out->failures = atomic_load(&failures);
    out->frees = atomic_load(&frees);
}

void qsb_scratch_stats_reset(void)
{
    atomic_store(&allocations, 0);
    atomic_store(&failures, 0);
    atomic_store(&frees, 0);
}
