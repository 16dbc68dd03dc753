/*
** The legacy glibc merge sort (see merge_core.h). One merge loop is written here, inlined into
** one recursive sorter per copy mode, so the mode costs nothing per element: the switch over
** the mode runs once per sort. Elements are moved with memcpy of a constant size where the
** mode fixes it (a single load and store); the 64-bit word loop keeps glibc's form through a
** may_alias word type, so it breaks no aliasing rule either.
*/
#include "merge_core.h"

#include <stdint.h>
#include <string.h>

typedef struct {
    qsb_compare cmp;
    void *arg;
    char *scratch; /* the merge target, reused by every merge */
    size_t size;   /* bytes per merged item: the element, or a pointer when indirect */
} merge_params;

#define ALWAYS_INLINE inline __attribute__((always_inline))

static ALWAYS_INLINE size_t item_size(const merge_params *p, qsb_copy_mode mode)
{
    switch (mode) {
    case QSB_COPY_WORD32:
        return sizeof(uint32_t);
    case QSB_COPY_WORD64:
        return sizeof(uint64_t);
    case QSB_COPY_INDIRECT:
        return sizeof(void *);
    default:
        return p->size;
    }
}

/* The comparator always gets element addresses: through the pointer when indirect. */
static ALWAYS_INLINE int compare_items(qsb_compare cmp, void *arg, const char *a, const char *b,
                                       qsb_copy_mode mode)
{
    if (mode == QSB_COPY_INDIRECT) {
        const void *ea, *eb;
        memcpy(&ea, a, sizeof ea);
        memcpy(&eb, b, sizeof eb);
        return cmp(ea, eb, arg);
    }
    return cmp(a, b, arg);
}

/* glibc's word type for QSB_COPY_LONGS, allowed to alias the caller's elements. */
typedef unsigned long __attribute__((may_alias)) long_word;

static ALWAYS_INLINE void copy_item(char *to, const char *from, size_t size, qsb_copy_mode mode)
{
    if (mode == QSB_COPY_LONGS) {
        /* glibc's loop, word pointers stepped to the end. Its form decides its speed: gcc 12
        ** -O2 makes it one movsq per word, as in Debian's libc.so, and -O3 vectorizes it.
        ** Written with memcpy it became plain moves at -O2, and msort's 32-byte sorts ran
        ** 30-45% faster than the real code (bench_msort): no longer like for like. */
        long_word *out = (long_word *)(void *)to;
        const long_word *in = (const long_word *)(const void *)from;
        const long_word *end = (const long_word *)(const void *)(to + size);
        while (out < end)
            *out++ = *in++;
    } else {
        memcpy(to, from, size); /* constant size except for QSB_COPY_BYTES */
    }
}

/* Merges the sorted runs [b, b + n1) and [b + n1, b + n1 + n2) (in items) in place. */
static ALWAYS_INLINE void merge_runs(const merge_params *p, char *b, size_t n1, size_t n2,
                                     qsb_copy_mode mode)
{
    const size_t size = item_size(p, mode);
    /* Held in locals, as glibc's msort_with_tmp holds them: read through p, the comparator
    ** would be reloaded from memory before every call (the element stores may alias p), and
    ** that call shape runs slowly when the comparator lies in another 16 MiB region than the
    ** sort, as a libc's caller's comparator does (docs/measurement.md). */
    const qsb_compare cmp = p->cmp;
    void *const arg = p->arg;
    char *left = b;
    char *right = b + n1 * size;
    char *out = p->scratch;

    while (n1 > 0 && n2 > 0) {
        if (compare_items(cmp, arg, left, right, mode) <= 0) { /* ties take the left: stable */
            copy_item(out, left, size, mode);
            left += size;
            n1--;
        } else {
            copy_item(out, right, size, mode);
            right += size;
            n2--;
        }
        out += size;
    }
    /* The rest of the left run follows the merged part; an unconsumed right tail is already
    ** where it belongs, so only the scratch's contents go back. */
    if (n1 > 0) {
        memcpy(out, left, n1 * size);
        out += n1 * size;
    }
    memcpy(b, p->scratch, (size_t)(out - p->scratch));
}

/* One recursive sorter per copy mode: halves of n/2 and n - n/2 items, left first. */
#define DEFINE_SORTER(name, mode)                                       \
    static void name(const merge_params *p, char *b, size_t n)          \
    {                                                                   \
        if (n <= 1)                                                     \
            return;                                                     \
        size_t n1 = n / 2;                                              \
        name(p, b, n1);                                                 \
        name(p, b + n1 * item_size(p, mode), n - n1);                   \
        merge_runs(p, b, n1, n - n1, mode);                             \
    }

DEFINE_SORTER(sort_word32, QSB_COPY_WORD32)
DEFINE_SORTER(sort_word64, QSB_COPY_WORD64)
DEFINE_SORTER(sort_longs, QSB_COPY_LONGS)
DEFINE_SORTER(sort_bytes, QSB_COPY_BYTES)
DEFINE_SORTER(sort_pointers, QSB_COPY_INDIRECT)

/* ptrs[i] holds the address of the element that belongs at position i; moves every element
** there, one cycle of the permutation at a time, through one element of spare storage. */
static void apply_permutation(char *base, size_t n, size_t size, char **ptrs, char *spare)
{
    for (size_t i = 0; i < n; i++) {
        char *home = base + i * size;
        char *src = ptrs[i];
        if (src == home)
            continue;
        memcpy(spare, home, size); /* the cycle ends by placing this element */
        size_t j = i;
        char *dst = home;
        do {
            size_t k = (size_t)(src - base) / size;
            ptrs[j] = dst; /* position j is final: later passes skip it */
            memcpy(dst, src, size);
            j = k;
            dst = src;
            src = ptrs[k];
        } while (src != home);
        ptrs[j] = dst;
        memcpy(dst, spare, size);
    }
}

static void sort_indirect(char *base, size_t n, size_t size, char *scratch, qsb_compare cmp,
                          void *arg)
{
    /* Scratch layout: n pointers of merge space, the n pointers sorted, one spare element. */
    char **ptrs = (char **)(void *)(scratch + n * sizeof(char *));
    char *spare = (char *)(ptrs + n);
    for (size_t i = 0; i < n; i++)
        ptrs[i] = base + i * size;

    const merge_params p = {cmp, arg, scratch, sizeof(char *)};
    sort_pointers(&p, (char *)ptrs, n);
    apply_permutation(base, n, size, ptrs, spare);
}

size_t qsb_merge_scratch_bytes(size_t n, size_t size)
{
    if (size > QSB_MERGE_INDIRECT_ABOVE)
        return 2 * n * sizeof(void *) + size;
    return n * size;
}

void qsb_merge_sort(void *base, size_t n, size_t size, qsb_copy_mode mode, void *scratch,
                    qsb_compare cmp, void *arg)
{
    const merge_params p = {cmp, arg, scratch, size};
    switch (mode) {
    case QSB_COPY_WORD32:
        sort_word32(&p, base, n);
        break;
    case QSB_COPY_WORD64:
        sort_word64(&p, base, n);
        break;
    case QSB_COPY_LONGS:
        sort_longs(&p, base, n);
        break;
    case QSB_COPY_BYTES:
        sort_bytes(&p, base, n);
        break;
    case QSB_COPY_INDIRECT:
        sort_indirect(base, n, size, scratch, cmp, arg);
        break;
    }
}
