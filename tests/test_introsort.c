/*
** introsort, introsort-2021 and introsort-final beyond the reference counts (test_reference checks those):
** - sorting 0 or 1 element never calls the comparator;
** - the swap type rule, and every element size 1..100 at every base misalignment 0..7: the
**   result is sorted, is a permutation of the input's whole elements (so every swap and
**   rotation moves every byte), and the comparator calls do not depend on the swap type;
** - depth exhaustion: on BITONIC the committed and 2021 states' heapsorts run (seen through the test
**   hook of introsort_core.h), and the entry points make the same calls and leave the same
**   bytes as the hooked instantiation;
** - a pivot adversary (McIlroy's "antiqsort", run live and then replayed as a fixed input):
**   introsort-final falls back to its heapsort and stays within 5 n log2 n calls, while the
**   committed and 2021 states, which spend depth only on pushed partitions, never reach their
**   heapsort and go quadratic (glibc's own behaviour, fixed upstream by 2023-12-04).
*/
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "adversary.h"
#include "check.h"
#include "counting.h"
#include "element.h"
#include "introsort_core.h"
#include "patterns.h"
#include "rng.h"
#include "sorts.h"

#define MAX_SIZE 100
#define MAX_OFFSET 8

typedef struct {
    const char *name;
    qsb_sort_fn sort;
    qsb_introsort_state state;
} variant;

static const variant variants[] = {
    {"introsort", qsb_introsort, QSB_INTROSORT_COMMITTED},
    {"introsort-2021", qsb_introsort_2021, QSB_INTROSORT_2021},
    {"introsort-final", qsb_introsort_final, QSB_INTROSORT_FINAL},
};
enum { VARIANT_COUNT = sizeof variants / sizeof variants[0] };

/* ---- checks on a sort's result ---- */

static int is_sorted(const unsigned char *base, size_t n, size_t size)
{
    for (size_t i = 1; i < n; i++)
        if (qsb_key(base + (i - 1) * size, size) > qsb_key(base + i * size, size))
            return 0;
    return 1;
}

static int compare_bytes(const void *a, const void *b, void *size)
{
    return memcmp(a, b, *(const size_t *)size);
}

/* Is `after` a permutation of the whole elements of `before`? Both are sorted by libc (never by
** an algorithm under test) in scratch copies. */
static int same_elements(const unsigned char *before, const unsigned char *after, size_t n,
                         size_t size)
{
    unsigned char *x = malloc(n * size + 1), *y = malloc(n * size + 1);
    int same = x && y;
    if (same) {
        memcpy(x, before, n * size);
        memcpy(y, after, n * size);
        qsort_r(x, n, size, compare_bytes, &size);
        qsort_r(y, n, size, compare_bytes, &size);
        same = memcmp(x, y, n * size) == 0;
    }
    free(x);
    free(y);
    return same;
}

/* Random bytes everywhere, then the key (native byte order, the element's key width) replaced
** by key % range when range is not 0: small ranges make many equal keys with distinct tails. */
static void fill_elements(unsigned char *base, size_t n, size_t size, uint64_t range,
                          qsb_rng *rng)
{
    qsb_fill_random(rng, base, n * size);
    if (range == 0)
        return;
    for (size_t i = 0; i < n; i++) {
        unsigned char *e = base + i * size;
        uint64_t key = qsb_key(e, size) % range;
        switch (qsb_key_width(size)) {
        case 1: { uint8_t k = (uint8_t)key; memcpy(e, &k, sizeof k); break; }
        case 2: { uint16_t k = (uint16_t)key; memcpy(e, &k, sizeof k); break; }
        case 8: { memcpy(e, &key, sizeof key); break; }
        default: { uint32_t k = (uint32_t)key; memcpy(e, &k, sizeof k); break; }
        }
    }
}

static uint64_t floor_log2(uint64_t n)
{
    uint64_t log = 0;
    while (n >>= 1)
        log++;
    return log;
}

/* ---- 0 and 1 element ---- */

static int must_not_be_called(const void *a, const void *b, void *calls)
{
    (void)a, (void)b;
    ++*(unsigned *)calls;
    return 0;
}

static void test_no_calls_below_two(void)
{
    static const size_t sizes[] = {1, 4, 8, 13, 32, 40};
    for (size_t v = 0; v < VARIANT_COUNT; v++) {
        unsigned calls = 0;
        variants[v].sort(NULL, 0, 4, must_not_be_called, &calls);
        for (size_t s = 0; s < sizeof sizes / sizeof sizes[0]; s++) {
            unsigned char one[40], copy[40];
            memset(one, 0xa5, sizeof one);
            memcpy(copy, one, sizeof one);
            variants[v].sort(one, 0, sizes[s], must_not_be_called, &calls);
            variants[v].sort(one, 1, sizes[s], must_not_be_called, &calls);
            CHECK(memcmp(one, copy, sizeof one) == 0);
        }
        CHECK_MSG(calls == 0, "%s: %u comparator calls for 0 or 1 element", variants[v].name,
                  calls);
    }
}

/* ---- swap types ---- */

static void test_swap_type_rule(void)
{
    static _Alignas(8) unsigned char buf[16];
    CHECK(introsort_swap_type(buf, 8) == INTROSORT_SWAP_WORDS_64);
    CHECK(introsort_swap_type(buf, 32) == INTROSORT_SWAP_WORDS_64);
    CHECK(introsort_swap_type(buf, 4) == INTROSORT_SWAP_WORDS_32);
    CHECK(introsort_swap_type(buf, 12) == INTROSORT_SWAP_WORDS_32);
    CHECK(introsort_swap_type(buf + 4, 8) == INTROSORT_SWAP_WORDS_32);
    CHECK(introsort_swap_type(buf + 4, 32) == INTROSORT_SWAP_WORDS_32);
    CHECK(introsort_swap_type(buf, 1) == INTROSORT_SWAP_BYTES);
    CHECK(introsort_swap_type(buf, 33) == INTROSORT_SWAP_BYTES);
    CHECK(introsort_swap_type(buf + 2, 8) == INTROSORT_SWAP_BYTES);
    CHECK(introsort_swap_type(buf + 1, 32) == INTROSORT_SWAP_BYTES);
}

/* One sort of `input` at base offset `offset` of `area`; returns the comparator calls. */
static uint64_t sort_at(const variant *v, unsigned char *area, size_t offset,
                        const unsigned char *input, size_t n, size_t size)
{
    unsigned char *base = area + offset;
    memcpy(base, input, n * size);
    uint64_t calls = qsb_count_comparisons(v->sort, base, n, size, qsb_comparator(size), NULL);
    CHECK_MSG(is_sorted(base, n, size) && same_elements(input, base, n, size),
              "%s n=%zu size=%zu offset=%zu: not a sorted permutation", v->name, n, size,
              offset);
    return calls;
}

/* Every size at every misalignment: sizes that are multiples of 8 and 4 take the word swaps
** at some offsets and the byte swap (with its 32-byte chunks above 32 bytes) at others. */
static void test_sizes_and_alignments(void)
{
    static const size_t counts[] = {2, 3, 4, 5, 6, 9, 17, 100};
    static const uint64_t ranges[] = {0, 3};
    enum { MAX_N = 100 };
    unsigned char *input = malloc(MAX_N * MAX_SIZE);
    unsigned char *area = malloc(MAX_N * MAX_SIZE + MAX_OFFSET);
    if (!CHECK(input && area))
        goto done;
    qsb_rng rng;
    qsb_rng_seed(&rng, QSB_DEFAULT_SEED);
    for (size_t size = 1; size <= MAX_SIZE; size++)
        for (size_t c = 0; c < sizeof counts / sizeof counts[0]; c++)
            for (size_t r = 0; r < sizeof ranges / sizeof ranges[0]; r++) {
                size_t n = counts[c];
                fill_elements(input, n, size, ranges[r], &rng);
                for (size_t v = 0; v < VARIANT_COUNT; v++) {
                    uint64_t aligned = sort_at(&variants[v], area, 0, input, n, size);
                    for (size_t offset = 1; offset < MAX_OFFSET; offset++) {
                        uint64_t calls = sort_at(&variants[v], area, offset, input, n, size);
                        CHECK_MSG(calls == aligned,
                                  "%s n=%zu size=%zu offset=%zu: %llu calls, %llu aligned",
                                  variants[v].name, n, size, offset, (unsigned long long)calls,
                                  (unsigned long long)aligned);
                    }
                }
            }
done:
    free(input);
    free(area);
}

/* ---- depth exhaustion ---- */

/* Runs the hooked instantiation (same source as the entry point, plus the heapsort counter)
** and the entry point on copies of `input` at `base_offset`; checks that both make the same
** calls and leave the same bytes, and that the result is right. Returns the heapsort runs. */
static size_t run_hooked(const variant *v, const unsigned char *input, size_t n, size_t size,
                         size_t base_offset, uint64_t *calls_out)
{
    unsigned char *hooked = malloc(n * size + MAX_OFFSET);
    unsigned char *plain = malloc(n * size + MAX_OFFSET);
    size_t heapsorts = 0;
    if (!CHECK(hooked && plain))
        goto done;
    unsigned char *hb = hooked + base_offset, *pb = plain + base_offset;
    memcpy(hb, input, n * size);
    memcpy(pb, input, n * size);

    qsb_counter counter = {qsb_comparator(size), NULL, 0};
    qsb_introsort_run(hb, n, size, qsb_counting_compare, &counter, v->state, &heapsorts);
    uint64_t calls = qsb_count_comparisons(v->sort, pb, n, size, qsb_comparator(size), NULL);

    CHECK_EQ_U64(calls, counter.calls);
    CHECK_MSG(memcmp(hb, pb, n * size) == 0, "%s n=%zu size=%zu: hooked and entry point differ",
              v->name, n, size);
    CHECK_MSG(is_sorted(pb, n, size) && same_elements(input, pb, n, size),
              "%s n=%zu size=%zu offset=%zu: not a sorted permutation", v->name, n, size,
              base_offset);
    if (calls_out)
        *calls_out = calls;
done:
    free(hooked);
    free(plain);
    return heapsorts;
}

/* BITONIC makes the committed and 2021 states exhaust their depth (the reference counts differ from the
** legacy quicksort's there). With random bytes after the key, every element size and swap type
** goes through the heapsort's swaps too. */
static void test_depth_exhaustion(void)
{
    static const size_t offsets[] = {0, 1, 4};
    enum { N = 1000 };
    const qsb_pattern *bitonic = qsb_pattern_find("bitonic");
    unsigned char *input = malloc(N * MAX_SIZE);
    if (!CHECK(bitonic && input))
        goto done;
    qsb_rng rng;
    qsb_rng_seed(&rng, QSB_DEFAULT_SEED);
    for (size_t size = 1; size <= MAX_SIZE; size++) {
        qsb_fill_random(&rng, input, N * size);
        unsigned char element[MAX_SIZE];
        for (size_t i = 0; i < N; i++) {
            qsb_put(element, size, i < N / 2 ? i : N - 1 - i, QSB_MODE_DEFAULT);
            memcpy(input + i * size, element, qsb_key_width(size));
        }
        for (size_t o = 0; o < sizeof offsets / sizeof offsets[0]; o++)
            for (size_t v = 0; v < VARIANT_COUNT; v++) {
                size_t heapsorts = run_hooked(&variants[v], input, N, size, offsets[o], NULL);
                /* One-byte keys wrap at 256: no longer the bitonic shape that exhausts the
                ** depth. The final state spends depth on every step, so it may not. */
                if (size >= 2 && variants[v].state != QSB_INTROSORT_FINAL)
                    CHECK_MSG(heapsorts > 0, "%s bitonic size=%zu: the heapsort never ran",
                              variants[v].name, size);
            }
    }
done:
    free(input);
}

/* ---- pivot adversary ---- */

/* Plays the adversary against the variant, then freezes what is left: the values form a fixed
** input (a permutation of 0..n-1) that makes the same calls. Returns the live run's calls. */
static uint64_t build_killer_input(const variant *v, uint32_t *values, size_t n)
{
    uint32_t *indices = malloc(n * sizeof *indices);
    if (!CHECK(indices != NULL))
        return 0;
    for (size_t i = 0; i < n; i++) {
        indices[i] = (uint32_t)i;
        values[i] = (uint32_t)n;
    }
    adversary adv = {values, (uint32_t)n, 0, 0};
    uint64_t calls = qsb_count_comparisons(v->sort, indices, n, sizeof *indices,
                                           adversary_compare, &adv);
    /* Gas elements never met each other, so any order among them agrees with every answer. */
    for (size_t i = 0; i < n; i++)
        if (values[i] == n)
            values[i] = adv.next_solid++;
    free(indices);
    return calls;
}

static void test_pivot_adversary(void)
{
    enum { N = 2048 };
    const uint64_t nlogn = (uint64_t)N * floor_log2(N);
    uint32_t *values = malloc(N * sizeof *values);
    if (!CHECK(values != NULL))
        return;
    for (size_t v = 0; v < VARIANT_COUNT; v++) {
        uint64_t live = build_killer_input(&variants[v], values, N);
        uint64_t replayed = 0;
        size_t heapsorts = run_hooked(&variants[v], (const unsigned char *)values, N,
                                      sizeof *values, 0, &replayed);
        CHECK_EQ_U64(replayed, live);
        printf("%s: pivot adversary, n=%d: %llu calls, %zu heapsort runs\n", variants[v].name,
               N, (unsigned long long)live, heapsorts);
        if (variants[v].state == QSB_INTROSORT_FINAL) {
            /* At most 2 log2 n partitioning levels of about n calls, a heapsort of at most
            ** 2 n log2 n, and an insertion sort: 5 n log2 n leaves room, n^2/4 does not fit. */
            CHECK(heapsorts >= 1);
            CHECK_MSG(live <= 5 * nlogn, "introsort-final: %llu calls > 5 n log2 n = %llu",
                      (unsigned long long)live, (unsigned long long)(5 * nlogn));
        } else {
            /* As committed, ignoring a small side spends no depth: the adversary's lopsided
            ** splits never exhaust it. */
            CHECK(heapsorts == 0);
            CHECK_MSG(live >= (uint64_t)N * N / 4, "%s: %llu calls < n^2/4", variants[v].name,
                      (unsigned long long)live);
        }
    }
    free(values);
}

int main(void)
{
    test_no_calls_below_two();
    test_swap_type_rule();
    test_sizes_and_alignments();
    test_depth_exhaustion();
    test_pivot_adversary();
    return check_done();
}
