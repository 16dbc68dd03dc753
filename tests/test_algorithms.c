/*
** Every registry entry x every pattern x awkward lengths x element sizes x base alignments:
** the result is sorted and a permutation of the input (the same bytes, compared as multisets);
** 0 or 1 element never calls the comparator; entries that declare O(n log n) stay under a
** bound that a quadratic regression would break (no timing involved). Entries that declare
** stability keep equal keys in input order, checked on (key, original index) records.
*/
#include <inttypes.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "counting.h"
#include "element.h"
#include "patterns.h"
#include "registry.h"

static const size_t lengths[] = {0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 15, 16, 17,
                                 31, 32, 33, 100, 1000, 4097};
static const size_t sizes[] = {1, 2, 3, 4, 8, 12, 16, 24, 32, 40, 64, 100};
static const size_t offsets[] = {0, 1, 4}; /* base misalignment: none, odd, 4 but not 8 */
#define MISALIGNED_UP_TO 1000 /* longer inputs only at offset 0: every path is already taken */

#define MAX_LENGTH 4097
#define MAX_SIZE 100
#define MAX_OFFSET 8
#define TEST_SEED UINT64_C(0x5eed)
#define COUNT(a) (sizeof(a) / sizeof((a)[0]))

typedef struct {
    char *input;     /* the pattern's bytes */
    char *reference; /* the input sorted bytewise: the multiset the output must equal */
    char *work;      /* sorted by the algorithm under test, at work + offset */
    char *check;     /* the output sorted bytewise */
} buffers;

static int compare_bytes(const void *a, const void *b, void *size)
{
    return memcmp(a, b, *(const size_t *)size);
}

/* The multiset of elements, in a canonical order (libc's qsort_r: a trusted sort). */
static void canonical(char *dst, const char *src, size_t n, size_t size)
{
    memcpy(dst, src, n * size);
    qsort_r(dst, n, size, compare_bytes, &size);
}

static int offset_applies(size_t offset, size_t n)
{
    return offset == 0 || n <= MISALIGNED_UP_TO;
}

static size_t ceil_log2(size_t n)
{
    size_t bits = 0;
    while (((size_t)1 << bits) < n)
        bits++;
    return bits;
}

static int sorted_by_key(const char *base, size_t n, size_t size)
{
    for (size_t i = 1; i < n; i++)
        if (qsb_key(base + (i - 1) * size, size) > qsb_key(base + i * size, size))
            return 0;
    return 1;
}

static void check_one(const qsb_algorithm *algo, const qsb_pattern *pattern, size_t n,
                      size_t size, size_t offset, buffers *b)
{
    char *base = b->work + offset;
    memcpy(base, b->input, n * size);
    uint64_t calls = qsb_count_comparisons(algo->sort, base, n, size, qsb_comparator(size), NULL);
    if (n <= 1)
        CHECK_MSG(calls == 0, "%s n=%zu: %" PRIu64 " comparator calls", algo->name, n, calls);
    if (algo->properties & QSB_PROP_NLOGN_WORST) {
        uint64_t bound = 4 * (uint64_t)n * ceil_log2(n) + 4 * (uint64_t)n;
        CHECK_MSG(calls <= bound, "%s %s n=%zu size=%zu: %" PRIu64 " calls > %" PRIu64,
                  algo->name, pattern->name, n, size, calls, bound);
    }
    CHECK_MSG(sorted_by_key(base, n, size), "%s %s n=%zu size=%zu offset=%zu: not sorted",
              algo->name, pattern->name, n, size, offset);
    canonical(b->check, base, n, size);
    CHECK_MSG(memcmp(b->check, b->reference, n * size) == 0,
              "%s %s n=%zu size=%zu offset=%zu: not a permutation of the input", algo->name,
              pattern->name, n, size, offset);
}

static void check_matrix(buffers *b)
{
    unsigned long cases = 0;
    for (size_t p = 0; p < qsb_pattern_count; p++)
        for (size_t si = 0; si < COUNT(sizes); si++)
            for (size_t li = 0; li < COUNT(lengths); li++) {
                size_t n = lengths[li], size = sizes[si];
                qsb_generate(&qsb_patterns[p], b->input, n, size, TEST_SEED, QSB_MODE_DEFAULT);
                canonical(b->reference, b->input, n, size);
                for (size_t a = 0; a < qsb_algorithm_count; a++)
                    for (size_t o = 0; o < COUNT(offsets); o++) {
                        if (!offset_applies(offsets[o], n) || size < qsb_algorithms[a].min_size)
                            continue;
                        check_one(&qsb_algorithms[a], &qsb_patterns[p], n, size, offsets[o], b);
                        cases++;
                    }
            }
    printf("%lu sorts checked (sorted, permutation)\n", cases);
}

/* ---- stability: records of a 1-byte key and the original index in the other bytes ---- */

static int compare_record_keys(const void *a, const void *b, void *arg)
{
    unsigned char ka = *(const unsigned char *)a, kb = *(const unsigned char *)b;
    (void)arg;
    return (ka > kb) - (ka < kb);
}

static uint64_t record_index(const char *record, size_t size)
{
    uint64_t index = 0;
    size_t bytes = size - 1 < 8 ? size - 1 : 8;
    for (size_t i = bytes; i-- > 0;)
        index = index << 8 | (unsigned char)record[1 + i];
    return index;
}

static void make_records(char *base, const char *keys, size_t n, size_t size)
{
    memset(base, 0, n * size);
    for (size_t i = 0; i < n; i++) {
        char *record = base + i * size;
        record[0] = keys[i * size]; /* the pattern element's first byte: many ties */
        for (size_t byte = 0; byte < size - 1 && byte < 8; byte++)
            record[1 + byte] = (char)(i >> (8 * byte));
    }
}

/* Sorted by key, equal keys in increasing index, and every index exactly once. */
static void check_stable_result(const qsb_algorithm *algo, const qsb_pattern *pattern,
                                const char *base, size_t n, size_t size, unsigned char *seen)
{
    int stable = 1, permutation = 1;
    memset(seen, 0, n);
    for (size_t i = 0; i < n; i++) {
        const char *r = base + i * size;
        uint64_t index = record_index(r, size);
        if (index >= n || seen[index]++)
            permutation = 0;
        if (i > 0) {
            int order = compare_record_keys(r - size, r, NULL);
            if (order > 0 || (order == 0 && record_index(r - size, size) > index))
                stable = 0;
        }
    }
    CHECK_MSG(stable && permutation, "%s %s n=%zu size=%zu: %s", algo->name, pattern->name, n,
              size, stable ? "records lost or duplicated" : "not stable");
}

static void check_stability(buffers *b, unsigned char *seen)
{
    unsigned long cases = 0;
    for (size_t a = 0; a < qsb_algorithm_count; a++) {
        const qsb_algorithm *algo = &qsb_algorithms[a];
        if (!(algo->properties & QSB_PROP_STABLE))
            continue;
        for (size_t p = 0; p < qsb_pattern_count; p++)
            for (size_t si = 0; si < COUNT(sizes); si++)
                for (size_t li = 0; li < COUNT(lengths); li++) {
                    size_t n = lengths[li], size = sizes[si];
                    if (size == 1 || (size == 2 && n > 256))
                        continue; /* no room for the index */
                    if (size < algo->min_size)
                        continue; /* refused, as by the real code */
                    qsb_generate(&qsb_patterns[p], b->input, n, size, TEST_SEED,
                                 QSB_MODE_DEFAULT);
                    for (size_t o = 0; o < COUNT(offsets); o++) {
                        if (!offset_applies(offsets[o], n))
                            continue;
                        cases++;
                        char *base = b->work + offsets[o];
                        make_records(base, b->input, n, size);
                        algo->sort(base, n, size, compare_record_keys, NULL);
                        check_stable_result(algo, &qsb_patterns[p], base, n, size, seen);
                    }
                }
    }
    printf("%lu stable sorts checked\n", cases);
    CHECK(cases > 0);
}

int main(void)
{
    const size_t bytes = (size_t)MAX_LENGTH * MAX_SIZE;
    buffers b = {malloc(bytes), malloc(bytes), malloc(bytes + MAX_OFFSET), malloc(bytes)};
    unsigned char *seen = malloc(MAX_LENGTH);
    if (CHECK(b.input && b.reference && b.work && b.check && seen)) {
        check_matrix(&b);
        check_stability(&b, seen);
    }
    free(b.input);
    free(b.reference);
    free(b.work);
    free(b.check);
    free(seen);
    return check_done();
}
