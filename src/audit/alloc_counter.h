/*
** The allocation counter itself, one copy per object that counts: the preloaded probe
** (alloc_probe.c) and, in sanitized builds, the audit's ASan hooks (audit_alloc.c). Counting
** is one relaxed flag test while it is off.
*/
#ifndef QSB_ALLOC_COUNTER_H
#define QSB_ALLOC_COUNTER_H

#include <stdatomic.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

static atomic_bool counting;
static atomic_uint_least64_t allocations, frees, max_bytes;

static inline void note_allocation(size_t bytes)
{
    if (!atomic_load_explicit(&counting, memory_order_relaxed))
        return;
    atomic_fetch_add_explicit(&allocations, 1, memory_order_relaxed);
    uint_least64_t seen = atomic_load_explicit(&max_bytes, memory_order_relaxed);
    while (bytes > seen && !atomic_compare_exchange_weak_explicit(
                               &max_bytes, &seen, bytes, memory_order_relaxed,
                               memory_order_relaxed))
        continue;
}

static inline void note_free(const volatile void *p)
{
    if (p && atomic_load_explicit(&counting, memory_order_relaxed))
        atomic_fetch_add_explicit(&frees, 1, memory_order_relaxed);
}

static inline void counter_begin(void)
{
    atomic_store(&allocations, 0);
    atomic_store(&frees, 0);
    atomic_store(&max_bytes, 0);
    atomic_store(&counting, true);
}

/* allocations, frees, the largest request */
static inline void counter_end(uint64_t counts[3])
{
    atomic_store(&counting, false);
    counts[0] = atomic_load(&allocations);
    counts[1] = atomic_load(&frees);
    counts[2] = atomic_load(&max_bytes);
}

#endif
