/*
** stackmerge's claims, measured: sorted, stable and a permutation for every length up to 600
** and for lengths up to 3000, element sizes with and without
** their own instance (4, 8, 16, 32; 5, 12, 24, 40) and one larger than the buffer; comparisons
** within n log2 n + n (random, sorted, reversed, many equal keys) and on McIlroy's adversary;
** about n on sorted input; no malloc-family call (the audit's counter) at any size; stack
** under 4 KiB at a million elements; every broken comparator of the audit survives, and
** comparators that answer at random or always the same leave a permutation at every size.
** A second copy of the sort, compiled here with a 64-byte buffer and 2 pending merges, takes
** the in-place paths (Dudzinski-Dydek splits, block swaps, sub-merges past the pending stack)
** at small n, and must pass the same checks.
*/
#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "audit.h"
#include "check.h"
#include "counting.h"
#include "diag.h"
#include "element.h"
#include "patterns.h"
#include "registry.h"
#include "rng.h"
#include "sorts.h"

/* The tiny variant: the same source, its entry point renamed. */
#define QSB_STACKMERGE_BUFFER_BYTES 64
#define QSB_STACKMERGE_PENDING 2
#define qsb_stackmerge stackmerge_tiny
void stackmerge_tiny(void *base, size_t n, size_t size, qsb_compare cmp, void *arg);
#include "../algorithms/stackmerge.c"
#undef qsb_stackmerge

#define MAX_N 3000

/* ---- records: an 8-bit key with many ties, then the original index in 3 bytes ---- */

static int compare_keys(const void *a, const void *b, void *calls)
{
    unsigned char x = *(const unsigned char *)a, y = *(const unsigned char *)b;
    if (calls)
        ++*(uint64_t *)calls;
    return (x > y) - (x < y);
}

/* The index takes 3 bytes (MAX_N < 2^24), so a record fits the 4-byte instance. */
static uint32_t index_of(const char *record)
{
    const unsigned char *r = (const unsigned char *)record;
    uint32_t index = r[1] | (uint32_t)r[2] << 8 | (uint32_t)r[3] << 16;
    return index;
}

/* keys: 0 random, 1 ascending, 2 descending, 3 all equal; distinct: keys mod 251 or mod 5 */
static void make_records(char *base, size_t n, size_t size, int shape, qsb_rng *rng)
{
    memset(base, 0, n * size);
    for (size_t i = 0; i < n; i++) {
        char *r = base + i * size;
        uint32_t index = (uint32_t)i;
        unsigned key = shape == 0 ? qsb_rng_next31(rng) % 5
                     : shape == 1 ? (unsigned)(i * 251 / (n ? n : 1))
                     : shape == 2 ? (unsigned)((n - i) * 251 / (n ? n : 1))
                                  : 7;
        r[0] = (char)key;
        r[1] = (char)(index & 0xff);
        r[2] = (char)(index >> 8 & 0xff);
        r[3] = (char)(index >> 16);
    }
}

static int sorted_stable_permutation(const char *base, size_t n, size_t size,
                                     unsigned char *seen)
{
    memset(seen, 0, n);
    for (size_t i = 0; i < n; i++) {
        const char *r = base + i * size;
        uint32_t index = index_of(r);
        if (index >= n || seen[index]++)
            return 0;
        if (i > 0) {
            int order = compare_keys(r - size, r, NULL);
            if (order > 0 || (order == 0 && index_of(r - size) > index))
                return 0;
        }
    }
    return 1;
}

static double nlog2n(size_t n)
{
    return n < 2 ? 0 : (double)n * log2((double)n);
}

static const struct {
    const char *name;
    qsb_sort_fn sort;
} variants[] = {{"stackmerge", qsb_stackmerge}, {"tiny", stackmerge_tiny}};

/* Every length up to 600 (chunks, and the first merges of chunks), then every 13th up to
** MAX_N, four shapes, sizes with their own instance (4, 8, 16, 32) and
** without (5, 12, 24: chunks that are not a power of two; 40: fewer buffer elements; 3000:
** none at all), both variants. */
static void check_lengths(char *base, unsigned char *seen)
{
    static const size_t sizes[] = {4, 5, 8, 12, 16, 24, 32, 40, 3000};
    for (size_t v = 0; v < 2; v++) {
        double worst_excess = -1e9;
        for (size_t si = 0; si < sizeof sizes / sizeof sizes[0]; si++)
            for (int shape = 0; shape < 4; shape++) {
                size_t size = sizes[si];
                qsb_rng rng;
                qsb_rng_seed(&rng, 17 + (uint64_t)shape);
                for (size_t n = 0; n <= MAX_N;
                     n += n < 600 ? 1 : size > 100 ? 97 : 13) {
                    uint64_t calls = 0;
                    make_records(base, n, size, shape, &rng);
                    variants[v].sort(base, n, size, compare_keys, &calls);
                    CHECK_MSG(sorted_stable_permutation(base, n, size, seen),
                              "%s n=%zu size=%zu shape %d: not sorted, stable and complete",
                              variants[v].name, n, size, shape);
                    double excess = (double)calls - nlog2n(n);
                    if (n >= 2 && excess / (double)n > worst_excess)
                        worst_excess = excess / (double)n;
                    CHECK_MSG(calls <= nlog2n(n) + n, "%s n=%zu size=%zu shape %d: %llu calls",
                              variants[v].name, n, size, shape, (unsigned long long)calls);
                    if (n <= 1)
                        CHECK(calls == 0);
                    if (shape == 1 || shape == 3) /* in order: about n + n/16 */
                        CHECK_MSG(calls <= n + n / 8 + 1, "%s sorted n=%zu: %llu calls",
                                  variants[v].name, n, (unsigned long long)calls);
                }
            }
        printf("%s: comparisons at most n log2 n %+.3f n\n", variants[v].name, worst_excess);
    }
}

/* Comparators that are not an order: the sort must still leave each record once. */
static int answer_randomly(const void *a, const void *b, void *rng)
{
    (void)a, (void)b;
    return (int)(qsb_rng_next31(rng) % 3) - 1;
}

static int answer_less(const void *a, const void *b, void *unused)
{
    (void)a, (void)b, (void)unused;
    return -1;
}

static int answer_greater(const void *a, const void *b, void *unused)
{
    (void)a, (void)b, (void)unused;
    return 1;
}

static int is_permutation(const char *base, size_t n, size_t size, unsigned char *seen)
{
    memset(seen, 0, n);
    for (size_t i = 0; i < n; i++) {
        uint32_t index = index_of(base + i * size);
        if (index >= n || seen[index]++)
            return 0;
    }
    return 1;
}

static void check_broken_sizes(char *base, unsigned char *seen)
{
    static const size_t sizes[] = {4, 8, 12, 16, 32, 40};
    static const size_t lengths[] = {2, 3, 7, 31, 64, 100, 255, 256, 257, 511, 512, 513, 1000,
                                     1500, 3000};
    static const qsb_compare comparators[] = {answer_randomly, answer_less, answer_greater};
    qsb_rng rng;
    qsb_rng_seed(&rng, 99);
    for (size_t v = 0; v < 2; v++)
        for (size_t si = 0; si < sizeof sizes / sizeof sizes[0]; si++)
            for (size_t li = 0; li < sizeof lengths / sizeof lengths[0]; li++)
                for (size_t c = 0; c < sizeof comparators / sizeof comparators[0]; c++) {
                    size_t n = lengths[li], size = sizes[si];
                    make_records(base, n, size, 0, &rng);
                    variants[v].sort(base, n, size, comparators[c], &rng);
                    CHECK_MSG(is_permutation(base, n, size, seen),
                              "%s n=%zu size=%zu comparator %zu: not a permutation",
                              variants[v].name, n, size, c);
                }
}

static void check_adversary(void)
{
    static const size_t lengths[] = {100, 1000, 4097, 100000};
    for (size_t i = 0; i < sizeof lengths / sizeof lengths[0]; i++) {
        size_t n = lengths[i];
        uint64_t calls;
        bool aborted = qsb_adversary_run(qsb_stackmerge, n, qsb_adversary_limit(n), &calls, NULL);
        CHECK(!aborted);
        CHECK_MSG(calls <= nlog2n(n), "adversary n=%zu: %llu calls", n, (unsigned long long)calls);
        aborted = qsb_adversary_run(stackmerge_tiny, n, qsb_adversary_limit(n), &calls, NULL);
        CHECK(!aborted);
        CHECK_MSG(calls <= nlog2n(n) + n, "tiny adversary n=%zu: %llu calls", n,
                  (unsigned long long)calls);
    }
}

static void check_no_malloc(void)
{
    const char *method;
    if (!qsb_alloc_counting_available(&method)) {
        printf("allocation counting unavailable (%s): skipped\n", method);
        return;
    }
    static const size_t cases[][2] = {{100, 4}, {200000, 4}, {100000, 8}, {50000, 32},
                                      {20000, 40}, {300, 3000}};
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        size_t n = cases[i][0], size = cases[i][1];
        char *base = malloc(n * size);
        if (!CHECK(base != NULL))
            return;
        qsb_generate(qsb_pattern_find("random"), base, n, size, 1, QSB_MODE_DEFAULT);
        qsb_alloc_counts counts;
        qsb_alloc_counting_begin();
        qsb_stackmerge(base, n, size, qsb_comparator(size), NULL);
        qsb_alloc_counting_end(&counts);
        CHECK_MSG(counts.allocations == 0, "n=%zu size=%zu: %llu allocations", n, size,
                  (unsigned long long)counts.allocations);
        free(base);
    }
}

static void check_stack(void)
{
    uint64_t depth = qsb_stack_depth(qsb_stackmerge, 1u << 20);
    CHECK(depth != UINT64_MAX);
#if defined(__SANITIZE_ADDRESS__)
    (void)depth; /* ASan's redzones grow every frame */
#else
    CHECK_MSG(depth < 4096, "stack %llu bytes at n = 2^20", (unsigned long long)depth);
#endif
}

static void check_broken(void)
{
    qsb_broken_result results[QSB_BROKEN_COUNT];
    CHECK(qsb_audit_broken(qsb_stackmerge, NULL, 10, results) == QSB_OK);
    for (int c = 0; c < QSB_BROKEN_COUNT; c++)
        CHECK_MSG(results[c].verdict == QSB_BROKEN_OK, "%s comparator: %s (%s)",
                  qsb_broken_comparator_names[c], qsb_broken_verdict_name(results[c].verdict),
                  results[c].detail);
    CHECK(qsb_audit_broken(stackmerge_tiny, NULL, 10, results) == QSB_OK);
    for (int c = 0; c < QSB_BROKEN_COUNT; c++)
        CHECK_MSG(results[c].verdict == QSB_BROKEN_OK, "tiny, %s comparator: %s (%s)",
                  qsb_broken_comparator_names[c], qsb_broken_verdict_name(results[c].verdict),
                  results[c].detail);
}

int main(void)
{
    const qsb_algorithm *entry = qsb_algorithm_find("stackmerge");
    CHECK(entry && entry->sort == qsb_stackmerge);
    CHECK(entry && entry->properties == (QSB_PROP_STABLE | QSB_PROP_NLOGN_WORST));
    char *base = malloc((size_t)MAX_N * 3000);
    unsigned char *seen = malloc(MAX_N);
    if (CHECK(base && seen)) {
        check_lengths(base, seen);
        check_broken_sizes(base, seen);
        check_adversary();
        check_no_malloc();
        check_stack();
        check_broken();
    }
    free(base);
    free(seen);
    return check_done();
}
