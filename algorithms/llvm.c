/*
** `llvm`: LLVM libc's qsort_r as rewritten in 2024 (libc/src/stdlib/quick_sort.h,
** qsort_pivot.h, heap_sort.h, qsort_data.h, qsort_util.h; as in LLVM 22), comparator call for
** call and byte for byte (test_llvm_oracle runs Debian's libllvmlibc-22-dev object beside it).
**
** Algorithm: quicksort with no small-array sort. The pivot is element 0 below 8 elements, a
** median of three (at 0, 4 n/8 and 7 n/8) below 64, else a pseudo-median of about n^0.53
** elements, each third recursively a median of three of its eighths (Orson Peters' glidesort
** rule). The pivot is moved to the front, the rest partitioned, the pivot put between the
** parts. The left part is sorted by recursion, the right one by the loop, which remembers the
** pivot just placed before it as its "ancestor": when a chosen pivot is not greater than the
** ancestor it is the part's smallest value, and the part is split into the elements not
** greater than it (done) and the rest, so runs of equal keys cost linear time. Every
** partitioning step spends one of 2 floor(log2 n) steps; with none left the part is
** heapsorted (Floyd's, two comparisons per level): O(n log n) comparisons in the worst case.
** Not stable, no allocation; the recursion depth is bounded by the step budget (O(log n)).
** Every scan is bounded by its part's ends, so a comparator that breaks the order contract
** never makes it read or write outside the array.
**
** Like LLVM's templates, the sort is compiled once per element size of 4, 8 and 16 bytes, and
** once for any other size. The fixed sizes swap through registers and partition with a
** branchless Lomuto scan (each element compared once, left to right); the others partition
** with Hoare's two scans, and swap by 4-byte words and then bytes. The partition scheme
** decides the comparator calls, so both are LLVM's; the swap decides only speed.
*/
#include <stdbool.h>
#include <stdint.h>
#include <string.h>

#include "element_swap.h"
#include "sorts.h"

enum {
    LLVM_SMALL_PIVOT = 8,            /* below it, element 0 is the pivot */
    LLVM_PSEUDO_MEDIAN_REC = 64      /* from it on, the pivot is a recursive pseudo-median */
};

typedef struct {
    qsb_compare cmp;
    void *arg;
    size_t size; /* element bytes (the generic instantiation reads it) */
} llvm_ctx;

/* The two orders a partition can use: the sort's own, and "not greater", which puts the
** elements equal to the pivot on its left. */
typedef enum {
    LLVM_LESS,
    LLVM_NOT_GREATER
} llvm_order;

static QSB_ALWAYS_INLINE bool llvm_less(const void *a, const void *b, const llvm_ctx *ctx)
{
    return ctx->cmp(a, b, ctx->arg) < 0;
}

/* a before b in `order`: for the second order, !(b < a), with the comparator's operands in
** LLVM's order (the pivot first). */
static QSB_ALWAYS_INLINE bool llvm_before(const void *a, const void *b, const llvm_ctx *ctx,
                                          const llvm_order order)
{
    return order == LLVM_LESS ? llvm_less(a, b, ctx) : !llvm_less(b, a, ctx);
}

/* ---- element access and swaps ---- */

static QSB_ALWAYS_INLINE char *llvm_at(char *base, size_t i, size_t size)
{
    return base + i * size;
}

/* a == b happens (Lomuto swaps an element with itself while all come first; the pivot goes
** back to index 0 when nothing comes before it), which every swap here allows. Fixed sizes
** (at most 16 bytes) copy through registers. Generic sizes swap as LLVM 22's ArrayGenericSize
** does: 4-byte words, then the 0-3 bytes left one at a time. clang compiles that word loop
** (objdump of the real qsort_r.cpp.o) with a run-time test: from 8 words on, and when the two
** elements do not overlap, it moves 32 bytes per step in 16-byte registers and leaves the last
** size / 4 % 8 words to the word loop; otherwise (a == b among them) the word loop does all.
** gcc -O2 does not vectorise such a loop, so the test and the 32-byte steps are written out. */
static QSB_ALWAYS_INLINE void llvm_swap_words(char *a, char *b, size_t size)
{
    const size_t words = size / 4;
    size_t done = 0;
    if (words >= 8 && (a + words * 4 <= b || b + words * 4 <= a))
        for (; done + 8 <= words; done += 8)
            qsb_swap_chunk(a + done * 4, b + done * 4);
    for (; done < words; done++) {
        uint32_t x, y;
        memcpy(&x, a + done * 4, 4);
        memcpy(&y, b + done * 4, 4);
        memcpy(a + done * 4, &y, 4);
        memcpy(b + done * 4, &x, 4);
    }
    for (size_t i = words * 4; i < size; i++) {
        char t = a[i];
        a[i] = b[i];
        b[i] = t;
    }
}

static QSB_ALWAYS_INLINE void llvm_swap(char *a, char *b, size_t size, const bool fixed)
{
    if (fixed) {
        char tmp[16];
        memcpy(tmp, a, size);
        memmove(a, b, size);
        memcpy(b, tmp, size);
        return;
    }
    llvm_swap_words(a, b, size);
}

/* ---- pivot choice ---- */

static QSB_ALWAYS_INLINE size_t llvm_median3(char *base, size_t a, size_t b, size_t c, size_t size,
                                             const llvm_ctx *ctx)
{
    const char *pa = llvm_at(base, a, size), *pb = llvm_at(base, b, size);
    const char *pc = llvm_at(base, c, size);
    bool x = llvm_less(pa, pb, ctx);
    bool y = llvm_less(pa, pc, ctx);
    if (x != y)
        return a; /* b <= a < c or c <= a < b */
    /* a is the largest (x = y = 0: take max(b, c)) or the smallest (x = y = 1: min(b, c)). */
    return llvm_less(pb, pc, ctx) != x ? c : b;
}

typedef size_t (*llvm_median_fn)(char *base, size_t a, size_t b, size_t c, size_t n,
                                 const llvm_ctx *ctx);

/* The median of three of a, b, c, each first replaced by the pseudo-median of its eighths
** while the sections (n elements each) are large enough. `recurse`: the instantiation. */
static QSB_ALWAYS_INLINE size_t llvm_median3_rec(char *base, size_t a, size_t b, size_t c, size_t n,
                                                 size_t size, const llvm_ctx *ctx,
                                                 llvm_median_fn recurse)
{
    if (n * 8 >= LLVM_PSEUDO_MEDIAN_REC) {
        size_t n8 = n / 8;
        a = recurse(base, a, a + n8 * 4, a + n8 * 7, n8, ctx);
        b = recurse(base, b, b + n8 * 4, b + n8 * 7, n8, ctx);
        c = recurse(base, c, c + n8 * 4, c + n8 * 7, n8, ctx);
    }
    return llvm_median3(base, a, b, c, size, ctx);
}

static QSB_ALWAYS_INLINE size_t llvm_choose_pivot(char *base, size_t len, size_t size,
                                                  const llvm_ctx *ctx, llvm_median_fn median_rec)
{
    if (len < LLVM_SMALL_PIVOT)
        return 0;
    size_t n8 = len / 8;
    if (len < LLVM_PSEUDO_MEDIAN_REC)
        return llvm_median3(base, 0, n8 * 4, n8 * 7, size, ctx);
    return median_rec(base, 0, n8 * 4, n8 * 7, n8, ctx);
}

/* ---- partition ---- */

/* Hoare's scheme over the len elements of `part` against `pivot` (outside them): returns how
** many come first in `order`; those are then at the front. Both scans stop at the other's
** position, so no comparator answer can move them outside the part. For sizes without a
** fixed instantiation, whose swaps are dear. */
static QSB_ALWAYS_INLINE size_t llvm_hoare(char *part, size_t len, const char *pivot, size_t size,
                                           const llvm_ctx *ctx, const bool fixed,
                                           const llvm_order order)
{
    size_t left = 0, right = len;
    for (;;) {
        /* Both scans read the element size from the context at each step, as LLVM's array
        ** object reads its own at each access. Compiled (objdump of the real object), the
        ** left scan starts from left * size and steps its pointer by the size loaded from
        ** memory; the right scan recomputes right * size at each step (an imul with the size
        ** from memory). gcc, given the size in a register, stepped pointers in both, and then
        ** ran the scans (sorted, random and repeated 32-byte input) clearly faster than the
        ** real code. Read from the context, the size must be reloaded after each comparator
        ** call, and gcc emits the real code's loads and multiplications. */
        const char *at_left = llvm_at(part, left, ctx->size);
        while (left < right && llvm_before(at_left, pivot, ctx, order)) {
            left++;
            at_left += ctx->size;
        }
        do
            right--;
        while (left < right &&
               !llvm_before(llvm_at(part, right, ctx->size), pivot, ctx, order));
        if (left >= right)
            return left;
        llvm_swap(llvm_at(part, left, size), llvm_at(part, right, size), size, fixed);
        left++;
    }
}

/* Lomuto's scheme without a branch on the comparison (Bergdoll and Peters' branchless Lomuto,
** without its cyclic permutation): every element is compared once, left to right, and swapped
** to the end of the leading run of those that come first. Cheap swaps only: fixed sizes. */
static QSB_ALWAYS_INLINE size_t llvm_lomuto(char *part, size_t len, const char *pivot, size_t size,
                                            const llvm_ctx *ctx, const llvm_order order)
{
    size_t left = 0;
    for (size_t right = 0; right < len; right++) {
        bool first = llvm_before(llvm_at(part, right, size), pivot, ctx, order);
        llvm_swap(llvm_at(part, left, size), llvm_at(part, right, size), size, true);
        left += first;
    }
    return left;
}

/* Partitions base[0..len) (len >= 2) around element pivot_index; returns the pivot's final
** index: the elements before it come first in `order`, the others follow it. */
static QSB_ALWAYS_INLINE size_t llvm_partition(char *base, size_t len, size_t pivot_index,
                                               size_t size, const llvm_ctx *ctx, const bool fixed,
                                               const llvm_order order)
{
    if (pivot_index != 0)
        llvm_swap(base, llvm_at(base, pivot_index, size), size, fixed);
    size_t before = fixed ? llvm_lomuto(base + size, len - 1, base, size, ctx, order)
                          : llvm_hoare(base + size, len - 1, base, size, ctx, fixed, order);
    llvm_swap(base, llvm_at(base, before, size), size, fixed);
    return before;
}

/* ---- heapsort (the step budget's fallback) ---- */

static QSB_ALWAYS_INLINE void llvm_heap_sort(char *base, size_t len, size_t size,
                                             const llvm_ctx *ctx, const bool fixed)
{
    size_t end = len, start = len / 2;
    while (end > 1) {
        if (start > 0) {
            start--; /* heapify: the next node from the bottom */
        } else {
            end--; /* the largest goes behind the heap, a leaf to the root */
            llvm_swap(base, llvm_at(base, end, size), size, fixed);
        }
        size_t root = start, child;
        while ((child = 2 * root + 1) < end) {
            if (child + 1 < end &&
                llvm_less(llvm_at(base, child, size), llvm_at(base, child + 1, size), ctx))
                child++;
            if (!llvm_less(llvm_at(base, root, size), llvm_at(base, child, size), ctx))
                break;
            llvm_swap(llvm_at(base, root, size), llvm_at(base, child, size), size, fixed);
            root = child;
        }
    }
}

/* ---- the sort ---- */

typedef void (*llvm_part_sort)(char *base, size_t len, const char *ancestor, size_t steps,
                               const llvm_ctx *ctx);

/* Sorts base[0..len); `ancestor`, when not NULL, is the pivot placed just before the part (no
** element of the part is smaller); `steps` partitioning steps are left before the heapsort.
** `recurse` is the instantiation itself, for the left parts; `median_rec` its pivot sampler. */
static QSB_ALWAYS_INLINE void llvm_sort_part(char *base, size_t len, const char *ancestor,
                                             size_t steps, const llvm_ctx *ctx, size_t size,
                                             const bool fixed, llvm_part_sort recurse,
                                             llvm_median_fn median_rec)
{
    while (len > 1) {
        if (steps == 0) {
            llvm_heap_sort(base, len, size, ctx, fixed);
            return;
        }
        steps--;
        size_t pivot = llvm_choose_pivot(base, len, size, ctx, median_rec);
        if (ancestor && !llvm_less(ancestor, llvm_at(base, pivot, size), ctx)) {
            /* The pivot equals the ancestor, the part's minimum: its equals are done. */
            size_t equal = llvm_partition(base, len, pivot, size, ctx, fixed, LLVM_NOT_GREATER);
            base = llvm_at(base, equal + 1, size);
            len -= equal + 1;
            ancestor = NULL;
            continue;
        }
        size_t split = llvm_partition(base, len, pivot, size, ctx, fixed, LLVM_LESS);
        if (len == 2)
            return; /* the partition sorted both */
        recurse(base, split, ancestor, steps, ctx);
        ancestor = llvm_at(base, split, size);
        base = llvm_at(base, split + 1, size);
        len -= split + 1;
    }
}

/* One instantiation per fixed element size, and the generic one: the sort and its sampler. */
#define LLVM_INSTANCE(suffix, SIZE, FIXED)                                                      \
    static size_t llvm_median3_rec_##suffix(char *base, size_t a, size_t b, size_t c, size_t n, \
                                            const llvm_ctx *ctx)                                \
    {                                                                                           \
        return llvm_median3_rec(base, a, b, c, n, SIZE, ctx, llvm_median3_rec_##suffix);        \
    }                                                                                           \
    static void llvm_sort_##suffix(char *base, size_t len, const char *ancestor, size_t steps,  \
                                   const llvm_ctx *ctx)                                         \
    {                                                                                           \
        llvm_sort_part(base, len, ancestor, steps, ctx, SIZE, FIXED, llvm_sort_##suffix,        \
                       llvm_median3_rec_##suffix);                                              \
    }
LLVM_INSTANCE(4, 4, true)
LLVM_INSTANCE(8, 8, true)
LLVM_INSTANCE(16, 16, true)
LLVM_INSTANCE(generic, ctx->size, false)

static const struct {
    size_t size;
    llvm_part_sort sort;
} llvm_fixed_sizes[] = {{4, llvm_sort_4}, {8, llvm_sort_8}, {16, llvm_sort_16}};

static llvm_part_sort llvm_sort_for(size_t size)
{
    for (size_t i = 0; i < sizeof llvm_fixed_sizes / sizeof llvm_fixed_sizes[0]; i++)
        if (llvm_fixed_sizes[i].size == size)
            return llvm_fixed_sizes[i].sort;
    return llvm_sort_generic;
}

void qsb_llvm(void *base, size_t n, size_t size, qsb_compare cmp, void *arg)
{
    if (base == NULL || n == 0 || size == 0)
        return;
    size_t log2n = 0;
    for (size_t m = n | 1; m >>= 1;)
        log2n++;
    const llvm_ctx ctx = {cmp, arg, size};
    llvm_sort_for(size)(base, n, NULL, 2 * log2n, &ctx);
}
