/*
** The allocation probe's counter (see audit.h): a shared object that replaces the malloc
** family and counts the calls while counting is on, forwarding every call to glibc's exported
** __libc_* entry points (glibc supports replacing malloc this way, and its internal calls come
** through these definitions too).
**
** It is never part of the benchmark: `qsortbench audit` runs itself again with this object in
** LD_PRELOAD (cmd_audit.c), and the audit's tests link it; `run` and every other command
** allocate through glibc untouched. Built only without sanitizers (ASan's allocator is the
** interposer there, and the audit counts through its hooks instead).
*/
#include <errno.h>
#include <malloc.h>
#include <stdint.h>
#include <stdlib.h>

#include "alloc_counter.h"

/* The probe's interface, looked up with dlsym by audit_alloc.c. */
void qsb_alloc_probe_begin(void);
void qsb_alloc_probe_end(uint64_t counts[3]);

void qsb_alloc_probe_begin(void)
{
    counter_begin();
}

void qsb_alloc_probe_end(uint64_t counts[3])
{
    counter_end(counts);
}

/* glibc's own allocator entry points (exported by libc.so.6 since 2.2.5). */
void *__libc_malloc(size_t bytes);
void *__libc_calloc(size_t count, size_t size);
void *__libc_realloc(void *p, size_t bytes);
void __libc_free(void *p);
void *__libc_memalign(size_t alignment, size_t bytes);
void *__libc_valloc(size_t bytes);
void *__libc_pvalloc(size_t bytes);

void *malloc(size_t bytes)
{
    note_allocation(bytes);
    return __libc_malloc(bytes);
}

void *calloc(size_t count, size_t size)
{
    size_t bytes;
    note_allocation(__builtin_mul_overflow(count, size, &bytes) ? SIZE_MAX : bytes);
    return __libc_calloc(count, size);
}

void *realloc(void *p, size_t bytes)
{
    note_allocation(bytes);
    return __libc_realloc(p, bytes);
}

void free(void *p)
{
    note_free(p);
    __libc_free(p);
}

void *memalign(size_t alignment, size_t bytes)
{
    note_allocation(bytes);
    return __libc_memalign(alignment, bytes);
}

void *aligned_alloc(size_t alignment, size_t bytes)
{
    note_allocation(bytes);
    return __libc_memalign(alignment, bytes);
}

int posix_memalign(void **out, size_t alignment, size_t bytes)
{
    if (alignment % sizeof(void *) != 0 || (alignment & (alignment - 1)) != 0 || alignment == 0)
        return EINVAL;
    note_allocation(bytes);
    int saved = errno; /* posix_memalign reports through its result, not errno */
    void *p = __libc_memalign(alignment, bytes);
    errno = saved;
    if (!p)
        return ENOMEM;
    *out = p;
    return 0;
}

void *valloc(size_t bytes)
{
    note_allocation(bytes);
    return __libc_valloc(bytes);
}

void *pvalloc(size_t bytes)
{
    note_allocation(bytes);
    return __libc_pvalloc(bytes);
}

