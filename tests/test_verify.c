/*
** The after-sort checks of src/bench/verify.c: for every element size of the test matrix, a sorted
** permutation passes; an unsorted array names the first descent; a lost, duplicated or
** altered element (in any byte, key or not) is "not a permutation of the input"; the
** multiset hash does not depend on the order, and sees words moved within or between wide
** elements; a comparator other than the patterns' own is the one that decides the order.
** The canary zones around work buffers (src/base/canary.c) see one byte written just
** before or just after the bytes in use, and a write a zone's length away.
*/
#include <stdlib.h>
#include <string.h>

#include "canary.h"
#include "check.h"
#include "element.h"
#include "patterns.h"
#include "verify.h"

static const size_t sizes[] = {1, 2, 3, 4, 8, 12, 16, 24, 32, 40, 64};

static int compare_keys(const void *a, const void *b, void *size)
{
    uint64_t x = qsb_key(a, *(size_t *)size), y = qsb_key(b, *(size_t *)size);
    return (x > y) - (x < y);
}

static bool verify(const unsigned char *a, size_t n, size_t size, const qsb_multiset_hash *h,
                   char *reason, size_t len)
{
    return qsb_verify_sorted_permutation(a, n, size, qsb_comparator(size), NULL, h, reason,
                                         len);
}

static void test_size(size_t size)
{
    const size_t n = 1000;
    unsigned char *input = malloc(n * size), *a = malloc(n * size), *tmp = malloc(size);
    if (!input || !a || !tmp)
        goto done;
    qsb_generate(qsb_pattern_find("random"), input, n, size, 42, QSB_MODE_DEFAULT);
    qsb_multiset_hash h = qsb_multiset_hash_of(input, n, size);
    char reason[64];

    memcpy(a, input, n * size);
    qsort_r(a, n, size, compare_keys, &size);
    CHECK_MSG(verify(a, n, size, &h, reason, sizeof reason), "size %zu: %s", size, reason);
    qsb_multiset_hash sorted = qsb_multiset_hash_of(a, n, size);
    CHECK(sorted.sum == h.sum && sorted.xor == h.xor);

    /* Swap the neighbours at a descent-free place to make the first descent at 500. */
    size_t at = 500;
    while (at + 1 < n && compare_keys(a + at * size, a + (at + 1) * size, &size) == 0)
        at++;
    memcpy(tmp, a + at * size, size);
    memcpy(a + at * size, a + (at + 1) * size, size);
    memcpy(a + (at + 1) * size, tmp, size);
    char expected[64];
    snprintf(expected, sizeof expected, "not sorted at index %zu", at);
    CHECK(!verify(a, n, size, &h, reason, sizeof reason) && strcmp(reason, expected) == 0);

    /* Sorted, but one element replaced by a copy of its (different) successor. */
    qsort_r(a, n, size, compare_keys, &size);
    size_t k = 10;
    while (k + 2 < n && memcmp(a + k * size, a + (k + 1) * size, size) == 0)
        k++;
    memcpy(a + k * size, a + (k + 1) * size, size);
    CHECK_MSG(!verify(a, n, size, &h, reason, sizeof reason) &&
                  strcmp(reason, "not a permutation of the input") == 0,
              "size %zu: duplicate not found", size);

    /* Sorted, but the last byte of one element changed: outside the key when size > 8. */
    qsort_r(a, n, size, compare_keys, &size);
    a[(n - 1) * size + size - 1] ^= 0x01;
    bool still_sorted = true;
    for (size_t i = 0; i + 1 < n && still_sorted; i++)
        still_sorted = compare_keys(a + i * size, a + (i + 1) * size, &size) <= 0;
    if (still_sorted)
        CHECK_MSG(!verify(a, n, size, &h, reason, sizeof reason) &&
                      strcmp(reason, "not a permutation of the input") == 0,
                  "size %zu: altered byte not found", size);
done:
    free(input);
    free(a);
    free(tmp);
}

static void test_small_cases(void)
{
    uint32_t one = 7;
    qsb_multiset_hash h = qsb_multiset_hash_of(&one, 1, 4);
    char reason[64];
    CHECK(qsb_verify_sorted_permutation(&one, 1, 4, qsb_comparator(4), NULL, &h, reason,
                                        sizeof reason));
    qsb_multiset_hash empty = qsb_multiset_hash_of(NULL, 0, 4);
    CHECK(qsb_verify_sorted_permutation(NULL, 0, 4, qsb_comparator(4), NULL, &empty, reason,
                                        sizeof reason));
    /* Two equal pairs cancel in a xor; the sum still tells {1,1} from {2,2}. */
    uint32_t ones[2] = {1, 1}, twos[2] = {2, 2};
    qsb_multiset_hash h1 = qsb_multiset_hash_of(ones, 2, 4);
    CHECK(!qsb_verify_sorted_permutation(twos, 2, 4, qsb_comparator(4), NULL, &h1, reason,
                                         sizeof reason));
    /* Each byte of an element matters to its hash. */
    unsigned char e[40] = {0};
    uint64_t base = qsb_element_hash(e, sizeof e);
    for (size_t i = 0; i < sizeof e; i++) {
        e[i] = 1;
        CHECK_MSG(qsb_element_hash(e, sizeof e) != base, "byte %zu ignored", i);
        e[i] = 0;
    }
    CHECK(qsb_element_hash(e, 3) != qsb_element_hash(e, 4)); /* the length counts */
}

/* Wide elements hash their words apart, then together: a word swapped within an element, or
** torn between two elements (a partial swap), still changes the multiset. */
static void test_moved_words(void)
{
    uint64_t a[2][4] = {{1, 2, 3, 4}, {5, 6, 7, 8}}, torn[2][4], inside[2][4];
    memcpy(torn, a, sizeof a);
    torn[0][1] = a[1][1];
    torn[1][1] = a[0][1];
    memcpy(inside, a, sizeof a);
    inside[0][2] = a[0][3];
    inside[0][3] = a[0][2];
    qsb_multiset_hash h = qsb_multiset_hash_of(a, 2, 32);
    qsb_multiset_hash ht = qsb_multiset_hash_of(torn, 2, 32);
    qsb_multiset_hash hi = qsb_multiset_hash_of(inside, 2, 32);
    CHECK(ht.sum != h.sum && ht.xor != h.xor);
    CHECK(hi.sum != h.sum && hi.xor != h.xor);
}

/* A comparator other than the patterns' own is called, not bypassed by the inline key check. */
static int descending(const void *a, const void *b, void *arg)
{
    return -qsb_comparator(4)(a, b, arg);
}

static void test_other_comparator(void)
{
    uint32_t down[4] = {9, 7, 7, 1}, up[4] = {1, 7, 7, 9};
    qsb_multiset_hash h = qsb_multiset_hash_of(down, 4, 4);
    char reason[64];
    CHECK(qsb_verify_sorted_permutation(down, 4, 4, descending, NULL, &h, reason,
                                        sizeof reason));
    CHECK(!qsb_verify_sorted_permutation(up, 4, 4, descending, NULL, &h, reason,
                                         sizeof reason) &&
          strcmp(reason, "not sorted at index 0") == 0);
}

static void test_canary(void)
{
    const size_t capacity = 10000, used = 4000, element = 64;
    size_t zone = qsb_canary_zone(element);
    CHECK(zone >= 4096 + element && zone % 4096 == 0);
    unsigned char *data = qsb_canary_alloc(capacity, zone);
    CHECK(data != NULL && (size_t)data % 4096 == 0);
    bool below = true;
    const long offsets[] = {-1, -(long)zone, (long)used, (long)(used + zone - 1)};
    for (size_t i = 0; i < sizeof offsets / sizeof offsets[0]; i++) {
        memset(data, 0x5a, capacity);
        qsb_canary_arm(data, used, zone);
        CHECK(qsb_canary_intact(data, used, zone, &below) && !below);
        data[0] = data[used - 1] = 0; /* inside: allowed */
        CHECK(qsb_canary_intact(data, used, zone, &below));
        data[offsets[i]] ^= 1;
        CHECK_MSG(!qsb_canary_intact(data, used, zone, &below) && below == (offsets[i] < 0),
                  "a write at offset %ld went unseen", offsets[i]);
    }
    /* Past the zone after the bytes in use is the rest of the capacity: not a zone. */
    qsb_canary_arm(data, used, zone);
    data[used + zone] ^= 1;
    CHECK(qsb_canary_intact(data, used, zone, &below));
    qsb_canary_free(data, zone);
}

/* A seal sees any one byte changed in the bytes in use or either zone, and nothing else. */
static void test_seal(void)
{
    const size_t capacity = 9000, used = 5003, element = 8;
    size_t zone = qsb_canary_zone(element);
    unsigned char *data = qsb_canary_alloc(capacity, zone);
    CHECK(data != NULL);
    memset(data, 0x11, capacity);
    qsb_canary_arm(data, used, zone);
    unsigned long long seal = qsb_canary_seal(data, used, zone);
    CHECK(qsb_canary_sealed_intact(data, used, zone, seal));
    const long offsets[] = {-(long)zone, -1, 0, 7, 8, 4999, (long)used - 1, (long)used,
                            (long)(used + zone - 1)};
    for (size_t i = 0; i < sizeof offsets / sizeof offsets[0]; i++) {
        data[offsets[i]] ^= 0x80;
        CHECK_MSG(!qsb_canary_sealed_intact(data, used, zone, seal),
                  "a write at offset %ld went unseen", offsets[i]);
        data[offsets[i]] ^= 0x80;
    }
    data[used + zone] ^= 1; /* past the zone: the rest of the capacity, not sealed */
    CHECK(qsb_canary_sealed_intact(data, used, zone, seal));
    qsb_canary_free(data, zone);
}

int main(void)
{
    for (size_t i = 0; i < sizeof sizes / sizeof sizes[0]; i++)
        test_size(sizes[i]);
    test_small_cases();
    test_moved_words();
    test_other_comparator();
    test_canary();
    test_seal();
    return check_done();
}
