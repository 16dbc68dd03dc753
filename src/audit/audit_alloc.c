/*
** The allocation probe (see audit.h): counts malloc-family calls made during one sort, by
** the sort itself or by libc on its behalf (libc's qsort_r calls malloc internally), and by
** plug-ins alike.
**
** Normal builds count through libqsb_alloc_probe.so (alloc_probe.c), which replaces the malloc
** family: it is preloaded into the audit only (cmd_audit.c runs the audit again with it in
** LD_PRELOAD), never into a benchmark. ASan builds count through the sanitizer's malloc/free
** hooks instead, where realloc shows as one allocation and one free.
**
** The audit cases: 4-byte and 40-byte random elements, each small enough for msort's stack
** scratch (below 1024 bytes) and large enough to need malloc.
*/
#include "audit.h"

#include <dlfcn.h>
#include <errno.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "diag.h"
#include "patterns.h"
#include "element.h"
#include "version.h"

#if defined(__SANITIZE_ADDRESS__) || QSB_SANITIZED
#define QSB_ALLOC_VIA_HOOKS 1
#else
#define QSB_ALLOC_VIA_HOOKS 0
#endif

#if QSB_ALLOC_VIA_HOOKS

#include "alloc_counter.h"

/* The sanitizer interface (sanitizer/allocator_interface.h, not shipped with gcc 12). */
int __sanitizer_install_malloc_and_free_hooks(void (*malloc_hook)(const volatile void *, size_t),
                                              void (*free_hook)(const volatile void *));

static void malloc_hook(const volatile void *p, size_t bytes)
{
    (void)p;
    note_allocation(bytes);
}

static atomic_int hooks_installed; /* 1 installed, -1 refused */

bool qsb_alloc_counting_available(const char **method)
{
    if (atomic_load(&hooks_installed) == 0)
        atomic_store(&hooks_installed,
                     __sanitizer_install_malloc_and_free_hooks(malloc_hook, note_free) ? 1 : -1);
    int ok = atomic_load(&hooks_installed) == 1;
    *method = ok ? "ASan allocator hooks (realloc = 1 allocation + 1 free)"
                 : "unavailable: ASan refused the allocator hooks";
    return ok;
}

bool qsb_alloc_probe_path(char *buf, size_t len)
{
    (void)buf, (void)len;
    return false; /* ASan's hooks count in process */
}

void qsb_alloc_counting_begin(void)
{
    counter_begin();
}

void qsb_alloc_counting_end(qsb_alloc_counts *out)
{
    uint64_t counts[3];
    counter_end(counts);
    *out = (qsb_alloc_counts){counts[0], counts[1], counts[2]};
}

#else /* the preloaded probe */

static void (*probe_begin)(void);
static void (*probe_end)(uint64_t counts[3]);

bool qsb_alloc_counting_available(const char **method)
{
    void *begin = dlsym(RTLD_DEFAULT, "qsb_alloc_probe_begin");
    void *end = dlsym(RTLD_DEFAULT, "qsb_alloc_probe_end");
    if (begin && end) {
        memcpy(&probe_begin, &begin, sizeof begin); /* POSIX: object and function pointers */
        memcpy(&probe_end, &end, sizeof end);
    }
    *method = begin && end ? "interposed malloc family (libqsb_alloc_probe.so, preloaded into "
                             "the audit only)"
                           : "unavailable: libqsb_alloc_probe.so is not loaded";
    return begin && end;
}

void qsb_alloc_counting_begin(void)
{
    probe_begin();
}

void qsb_alloc_counting_end(qsb_alloc_counts *out)
{
    uint64_t counts[3];
    probe_end(counts);
    *out = (qsb_alloc_counts){counts[0], counts[1], counts[2]};
}

bool qsb_alloc_probe_path(char *buf, size_t len)
{
    Dl_info info;
    if (!dladdr((const void *)qsb_near_comparator, &info) || !info.dli_fname)
        return false;
    const char *slash = strrchr(info.dli_fname, '/');
    int dir = slash ? (int)(slash - info.dli_fname) : 1;
    int n = snprintf(buf, len, "%.*s/libqsb_alloc_probe.so", dir, slash ? info.dli_fname : ".");
    return n > 0 && (size_t)n < len && access(buf, R_OK) == 0;
}

#endif

/* Sorts one random input with counting on around the sort only (the input is made and freed
** outside). */
static int count_one_case(qsb_sort_fn sort, qsb_alloc_case *c)
{
    size_t n = (size_t)c->nelem, size = (size_t)c->size;
    void *base = malloc(n * size);
    if (!base)
        return qsb_out_of_memory("allocation probe input");
    qsb_generate(qsb_pattern_find("random"), base, n, size, QSB_DEFAULT_SEED, QSB_MODE_DEFAULT);
    qsb_compare cmp = qsb_comparator(size);
    qsb_alloc_counting_begin();
    sort(base, n, size, cmp, NULL);
    qsb_alloc_counting_end(&c->counts);
    free(base);
    return QSB_OK;
}

int qsb_audit_alloc(qsb_sort_fn sort, qsb_alloc_result *out)
{
    /* 100 x 4 and 20 x 40 bytes fit msort's 1024-byte stack scratch; the others do not. */
    static const uint64_t cases[][2] = {{100, 4}, {100000, 4}, {20, 40}, {100000, 40}};
    *out = (qsb_alloc_result){0};
    out->available = qsb_alloc_counting_available(&out->method);
    if (!out->available)
        return QSB_OK;
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        qsb_alloc_case *c = &out->cases[out->ncases++];
        c->nelem = cases[i][0];
        c->size = cases[i][1];
        int status = count_one_case(sort, c);
        if (status != QSB_OK)
            return status;
        out->allocates |= c->counts.allocations > 0;
        if (c->counts.max_bytes > out->max_bytes)
            out->max_bytes = c->counts.max_bytes;
    }
    return QSB_OK;
}
