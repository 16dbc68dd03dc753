/*
** The legacy glibc merge sort (see merge_core.h). One merge loop is written here and inlined
** once per copy mode into one recursive sorter that switches over the mode at each merge, as
** glibc's msort_with_tmp does (the shape decides the compiled code: merge_sort_items() below).
** Elements are moved with memcpy of a constant size where the
** mode fixes it (a single load and store); the 64-bit word loop keeps glibc's form through a
** may_alias word type, so it breaks no aliasing rule either.
*/
#include "merge_core.h"

#include <stdint.h>
#include <string.h>

typedef struct {
    qsb_compare cmp;
    void *arg;
    char *scratch;      /* the merge target, reused by every merge */
    size_t size;        /* bytes per merged item: the element, or a pointer when indirect */
    qsb_copy_mode mode; /* how an item moves */
} merge_params;

/* The comparator always gets element addresses: through the pointer when indirect. */
static QSB_ALWAYS_INLINE int compare_items(qsb_compare cmp, void *arg, const char *a, const char *b,
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

static QSB_ALWAYS_INLINE void copy_item(char *to, const char *from, size_t size)
{
    memcpy(to, from, size); /* constant size except for QSB_COPY_BYTES */
}

/* Where a merge stands: the heads of the two runs, the items left in each, the next scratch
** slot. */
typedef struct {
    char *left, *right, *out;
    size_t n1, n2;
} merge_cursor;

/* The merge loop of one copy mode: takes the smaller head of the two runs into the scratch
** until one run is used up. The cursor is the caller's, so that the tail after the loop is
** written once for every mode, as in glibc. */
static QSB_ALWAYS_INLINE void merge_loop(qsb_compare cmp, void *arg, merge_cursor *c, size_t size,
                                         qsb_copy_mode mode)
{
    char *left = c->left, *right = c->right, *out = c->out;
    size_t n1 = c->n1, n2 = c->n2;
    while (n1 > 0 && n2 > 0) {
        if (mode == QSB_COPY_LONGS) {
            /* glibc's form of this mode, which gcc compiles to one copy loop after the branch
            ** (objdump): the target advanced first, the source picked, then the words. The
            ** loop's form decides its speed: gcc 12 -O2 makes it one movsq per word, as in
            ** Debian's libc.so, and -O3 vectorizes it. Written with memcpy it became plain
            ** moves at -O2, and msort against the real code was no longer like for like
            ** (docs/results.md#shape-msort-memcpy-copy). */
            long_word *to = (long_word *)(void *)out;
            out += size;
            const long_word *from;
            if (compare_items(cmp, arg, left, right, mode) <= 0) {
                from = (const long_word *)(const void *)left;
                left += size;
                n1--;
            } else {
                from = (const long_word *)(const void *)right;
                right += size;
                n2--;
            }
            while (to < (long_word *)(void *)out)
                *to++ = *from++;
            continue;
        }
        if (compare_items(cmp, arg, left, right, mode) <= 0) { /* ties take the left: stable */
            copy_item(out, left, size);
            left += size;
            n1--;
        } else {
            copy_item(out, right, size);
            right += size;
            n2--;
        }
        out += size;
    }
    *c = (merge_cursor){left, right, out, n1, n2};
}

/* The sorter: halves of n/2 and n - n/2 items, left first, then one merge into the start of the
** scratch and back. Its shape is glibc's msort_with_tmp, because the compiled shape decides the
** speed (docs/speed-parity.md; objdump of the real 2.36 code built by tools/glibc-qsort-plugin
** with the registry's flags):
**  - one recursive function for every copy mode, the mode switched at each merge: gcc 12 -O2
**    then keeps the comparator and its argument in stack slots and reloads them before each
**    call (`mov 0x8(%rsp),%rax; call *%rax`), as it does in glibc's function. One sorter per
**    mode (an earlier version of this file) held the comparator in a register instead and ran
**    slower than the real code (docs/results.md#shape-msort-sorter-per-mode);
**  - the `n <= 1` test first, which gcc splits out into the callers (merge_sort_items.part.0,
**    glibc's msort_with_tmp.part.0): a one-item half costs no call. */
static void merge_sort_items(const merge_params *p, char *b, size_t n)
{
    if (n <= 1)
        return;
    size_t n1 = n / 2;
    size_t n2 = n - n1;
    merge_sort_items(p, b, n1);
    merge_sort_items(p, b + n1 * p->size, n2);

    /* Held in locals, as glibc's msort_with_tmp holds them: read through p, the comparator
    ** would be reloaded through p before every call (the element stores may alias p), and
    ** that call shape runs slowly when the comparator lies in another 16 MiB region than the
    ** sort, as a libc's caller's comparator does (docs/measurement.md). */
    const qsb_compare cmp = p->cmp;
    void *const arg = p->arg;
    const size_t size = p->size;
    merge_cursor c = {b, b + n1 * size, p->scratch, n1, n2};
    switch (p->mode) {
    case QSB_COPY_WORD32:
        merge_loop(cmp, arg, &c, sizeof(uint32_t), QSB_COPY_WORD32);
        break;
    case QSB_COPY_WORD64:
        merge_loop(cmp, arg, &c, sizeof(uint64_t), QSB_COPY_WORD64);
        break;
    case QSB_COPY_LONGS:
        merge_loop(cmp, arg, &c, size, QSB_COPY_LONGS);
        break;
    case QSB_COPY_INDIRECT:
        merge_loop(cmp, arg, &c, sizeof(void *), QSB_COPY_INDIRECT);
        break;
    default: /* QSB_COPY_BYTES, glibc's default case too */
        merge_loop(cmp, arg, &c, size, QSB_COPY_BYTES);
        break;
    }
    /* The rest of the left run follows the merged part; an unconsumed right tail is already
    ** where it belongs, so only the scratch's first n - n2 items go back. */
    if (c.n1 > 0)
        memcpy(c.out, c.left, c.n1 * size);
    memcpy(b, p->scratch, (n - c.n2) * size);
}

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

    const merge_params p = {cmp, arg, scratch, sizeof(char *), QSB_COPY_INDIRECT};
    merge_sort_items(&p, (char *)ptrs, n);
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
    if (mode == QSB_COPY_INDIRECT) {
        sort_indirect(base, n, size, scratch, cmp, arg);
        return;
    }
    const size_t item = mode == QSB_COPY_WORD32   ? sizeof(uint32_t)
                        : mode == QSB_COPY_WORD64 ? sizeof(uint64_t)
                                                  : size;
    const merge_params p = {cmp, arg, scratch, item, mode};
    merge_sort_items(&p, base, n);
}
