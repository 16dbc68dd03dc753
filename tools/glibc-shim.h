/*
** glibc-shim.h: just enough of glibc's internal build environment to compile a glibc tree's
** stdlib/qsort.c (and, up to 2.38, stdlib/msort.c) outside glibc, as an ordinary shared object
** or a test program against the host's public headers. Written for qsortbench, not taken
** from glibc: it is force-included (-include) before the glibc sources by
** tools/glibc-qsort-plugin, whose include directory also provides empty <memcopy.h>,
** <atomic.h> and <memswap.h>, so that every internal name the sources use resolves here.
**
** The tree's sort comes out under names of its own, exported from a library built with
** -fvisibility=hidden, so it never interposes the host's qsort:
**   glibc_qsort_r     the tree's qsort_r (__qsort_r; msort up to 2.38, introsort/msort since)
**   glibc_qsort       its qsort (qsort's signature: `--algos ...:glibc_qsort:qsort`)
**   glibc_quicksort   _quicksort, msort's fallback (2.38 and older only)
** The host's <stdlib.h> is read first, with its own names, so the renames below touch only
** the glibc sources.
*/
#ifndef QSB_GLIBC_SHIM_H
#define QSB_GLIBC_SHIM_H

#include <alloca.h>
#include <errno.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#define QSB_GLIBC_EXPORT __attribute__((visibility("default")))

/* The tree's entry points, renamed and declared visible (the definitions inherit it). */
#define __qsort_r glibc_qsort_r
#define qsort glibc_qsort
#define _quicksort glibc_quicksort
QSB_GLIBC_EXPORT void glibc_qsort_r(void *, size_t, size_t, __compar_d_fn_t, void *);
QSB_GLIBC_EXPORT void glibc_qsort(void *, size_t, size_t, __compar_fn_t);
QSB_GLIBC_EXPORT void glibc_quicksort(void *const, size_t, size_t, __compar_d_fn_t, void *);

/* Symbol plumbing of libc.so: nothing to do outside it. */
#define attribute_hidden
#define libc_hidden_def(name)
#define libc_hidden_proto(name)
#define weak_alias(name, alias)
#ifndef __glibc_unlikely
#define __glibc_unlikely(cond) __builtin_expect((cond), 0)
#define __glibc_likely(cond) __builtin_expect((cond), 1)
#endif

/* Internal aliases of public functions. */
#define __alloca alloca
#define __mempcpy mempcpy
#define __sysconf sysconf
#define __set_errno(value) (errno = (value))

/* <memcopy.h>: the machine word msort copies by. */
typedef unsigned long int op_t;
#define OPSIZ (sizeof(op_t))

/* <atomic.h>: msort's one barrier, after caching the physical page count. */
#define atomic_write_barrier() __atomic_thread_fence(__ATOMIC_RELEASE)

/* <memswap.h> (glibc 2.39 and later): swaps n bytes of two non-overlapping objects. */
static inline void __memswap(void *a, void *b, size_t n)
{
    unsigned char *p = a, *q = b;
    for (size_t i = 0; i < n; i++) {
        unsigned char t = p[i];
        p[i] = q[i];
        q[i] = t;
    }
}

#endif
