/*
** The element layer (inputs/element.c) and the pattern table (inputs/patterns.c): key widths,
** put() in both modes, the per-width comparators, the table and its lookup, and every pattern
** in both modes checked three ways:
**   1. against a deliberately plain re-derivation of the spec in this file, whose random
**      numbers come from libc's seed48/lrand48 (POSIX fixes their arithmetic), not rng.c;
**   2. against FNV-1a hashes of n = 1000 inputs computed by a separate Python 3 transcription
**      of the patterns specification (tests/tools/patterns_ref.py; little-endian hosts:
**      keys are stored in native order);
**   3. on a glibc <= 2.38 host, against tests/reference/comparisons.csv: the host qsort_r
**      (the real msort) must make exactly the recorded number of comparator calls on our
**      inputs, which it only does when the bytes are the ones the reference was measured on.
*/
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "element.h"
#include "patterns.h"

#define DEFAULT QSB_MODE_DEFAULT
#define COMPAT  QSB_MODE_COMPAT_2021

static const size_t test_sizes[] = {1, 2, 3, 4, 8, 12, 32};
#define TEST_SIZE_COUNT (sizeof test_sizes / sizeof test_sizes[0])

/* ---- element layout ---------------------------------------------------------------- */

static void test_key_width(void)
{
    for (size_t s = 1; s <= 100; s++) {
        size_t expected = s == 1 ? 1 : s == 2 || s == 3 ? 2 : s == 8 ? 8 : 4;
        CHECK_MSG(qsb_key_width(s) == expected, "key width of size %zu", s);
    }
}

/* value mod 2^(8w) in native order at offset 0, as a w-byte integer type would hold it. */
static void native_key_bytes(unsigned char *out, size_t width, uint64_t value)
{
    uint8_t k8 = (uint8_t)value;
    uint16_t k16 = (uint16_t)value;
    uint32_t k32 = (uint32_t)value;
    if (width == 1)
        memcpy(out, &k8, 1);
    else if (width == 2)
        memcpy(out, &k16, 2);
    else if (width == 4)
        memcpy(out, &k32, 4);
    else
        memcpy(out, &value, 8);
}

static void test_put_default(void)
{
    static const size_t sizes[] = {1, 2, 3, 4, 5, 7, 8, 9, 12, 16, 32, 40, 64};
    const uint64_t value = UINT64_C(0x0102030405060708);
    for (size_t i = 0; i < sizeof sizes / sizeof sizes[0]; i++) {
        size_t s = sizes[i], w = qsb_key_width(s);
        unsigned char got[80], expected[80];
        memset(got, 0xaa, sizeof got);
        memset(expected, 0, sizeof expected);
        native_key_bytes(expected, w, value);
        memset(expected + s, 0xaa, sizeof expected - s); /* past the element: untouched */
        qsb_put(got, s, value, DEFAULT);
        CHECK_MSG(memcmp(got, expected, sizeof got) == 0, "default put, size %zu", s);
        CHECK_MSG(qsb_key(got, s) == (w == 8 ? value : value & ((UINT64_C(1) << 8 * w) - 1)),
                  "key after put, size %zu", s);
    }
}

static void test_put_compat(void)
{
    const uint64_t value = UINT64_C(0x1234);
    /* Sizes outside {1, 2, 4, 8}: memset with the low byte (32 and 12 are the benchmark's). */
    static const size_t odd_sizes[] = {3, 5, 12, 32, 40};
    for (size_t i = 0; i < sizeof odd_sizes / sizeof odd_sizes[0]; i++) {
        size_t s = odd_sizes[i];
        unsigned char got[48], expected[48];
        memset(got, 0xaa, sizeof got);
        memset(expected, 0xaa, sizeof expected);
        memset(expected, 0x34, s);
        qsb_put(got, s, value, COMPAT);
        CHECK_MSG(memcmp(got, expected, sizeof got) == 0, "compat put, size %zu", s);
    }
    /* Word sizes: the same as the default mode. */
    static const size_t word_sizes[] = {1, 2, 4, 8};
    for (size_t i = 0; i < 4; i++) {
        size_t s = word_sizes[i];
        unsigned char a[8], b[8];
        qsb_put(a, s, UINT64_C(0x0807060504030201), COMPAT);
        qsb_put(b, s, UINT64_C(0x0807060504030201), DEFAULT);
        CHECK_MSG(memcmp(a, b, s) == 0, "compat put of word size %zu", s);
    }
    unsigned char e32[32];
    qsb_put(e32, 32, 256 + 7, COMPAT);
    CHECK_EQ_U64(qsb_key(e32, 32), 0x07070707);
}

static void test_comparators(void)
{
    /* One function per key width, chosen once. */
    CHECK(qsb_comparator(4) == qsb_comparator(32));
    CHECK(qsb_comparator(4) == qsb_comparator(12));
    CHECK(qsb_comparator(2) == qsb_comparator(3));
    CHECK(qsb_comparator(1) != qsb_comparator(2));
    CHECK(qsb_comparator(4) != qsb_comparator(8));
    CHECK(qsb_comparator(2) != qsb_comparator(4));

    for (size_t i = 0; i < TEST_SIZE_COUNT; i++) {
        size_t s = test_sizes[i], w = qsb_key_width(s);
        qsb_compare cmp = qsb_comparator(s);
        uint64_t top = w == 8 ? UINT64_MAX : (UINT64_C(1) << 8 * w) - 1;
        unsigned char lo[32], hi[32], lo2[32];
        qsb_put(lo, s, 0, DEFAULT);
        qsb_put(hi, s, top, DEFAULT);
        /* Extremes: a subtraction comparator would overflow or truncate here. */
        CHECK_MSG(cmp(lo, hi, NULL) == -1, "size %zu: 0 < max", s);
        CHECK_MSG(cmp(hi, lo, NULL) == 1, "size %zu: max > 0", s);
        CHECK_MSG(cmp(hi, hi, NULL) == 0, "size %zu: max == max", s);
        /* Bytes after the key do not take part. */
        memcpy(lo2, lo, s);
        if (s > w) {
            memset(lo2 + w, 0xff, s - w);
            CHECK_MSG(cmp(lo, lo2, NULL) == 0, "size %zu: padding ignored", s);
        }
        unsigned char one[32];
        qsb_put(one, s, 1, DEFAULT);
        CHECK_MSG(cmp(one, lo, NULL) == 1 && cmp(lo, one, NULL) == -1, "size %zu: 1 > 0", s);
    }
    /* Unaligned elements are read with memcpy. */
    unsigned char buf[20] = {0};
    qsb_put(buf + 1, 8, 5, DEFAULT);
    qsb_put(buf + 11, 8, 6, DEFAULT);
    CHECK_EQ_U64(qsb_key(buf + 1, 8), 5);
    CHECK(qsb_comparator(8)(buf + 1, buf + 11, NULL) == -1);
}

/* ---- the table --------------------------------------------------------------------- */

static void test_table(void)
{
    static const char *const expected[] = {"sorted", "mostlysorted", "random", "repeated",
                                           "bitonic", "reversed", "allequal"};
    CHECK_EQ_U64(qsb_pattern_count, 7);
    size_t seed_count = 0;
    for (size_t i = 0; i < qsb_pattern_count && i < 7; i++) {
        const qsb_pattern *p = &qsb_patterns[i];
        CHECK_MSG(strcmp(p->name, expected[i]) == 0, "row %zu is '%s'", i, p->name);
        CHECK(p->summary && *p->summary && p->generate);
        CHECK_MSG(p->seed_pattern == (i < 5), "seed flag of %s", p->name);
        seed_count += p->seed_pattern != 0;
        CHECK(strspn(p->name, "abcdefghijklmnopqrstuvwxyz0123456789-") == strlen(p->name));
    }
    CHECK_EQ_U64(seed_count, 5);
}

static void test_lookup(void)
{
    CHECK(qsb_pattern_find("sorted") == &qsb_patterns[0]);
    CHECK(qsb_pattern_find("SORTED") == &qsb_patterns[0]);
    CHECK(qsb_pattern_find("MostlySorted") == &qsb_patterns[1]);
    CHECK(qsb_pattern_find("BITONIC") == &qsb_patterns[4]);
    CHECK(qsb_pattern_find("allEqual") == &qsb_patterns[6]);
    CHECK(qsb_pattern_find("sort") == NULL);
    CHECK(qsb_pattern_find("sorted ") == NULL);
    CHECK(qsb_pattern_find("") == NULL);
    CHECK(qsb_pattern_find("sortedx") == NULL);
}

/* (size_t)(n * 0.2) in double precision; expected values from Python's int(float(n) * 0.2).
** Above 2^53 the double rounding shows (n / 5 would differ). */
static void test_perturbations(void)
{
    static const struct {
        uint64_t n, k;
    } cases[] = {
        {0, 0}, {1, 0}, {4, 0}, {5, 1}, {9, 1}, {10, 2}, {14, 2}, {15, 3},
        {49152, 9830}, {786432, 157286}, {8388608, 1677721}, {UINT64_C(12345678901), 2469135780},
        {(UINT64_C(1) << 60) + 3, UINT64_C(230584300921369408)},
        {UINT64_MAX, UINT64_C(3689348814741910528)},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++)
        CHECK_MSG(qsb_pattern_perturbations((size_t)cases[i].n) == cases[i].k,
                  "perturbations(%llu) = %zu", (unsigned long long)cases[i].n,
                  qsb_pattern_perturbations((size_t)cases[i].n));
}

/* ---- a plain re-derivation of the spec, on libc's lrand48 --------------------------- */

static void ref_seed(uint64_t seed)
{
    unsigned short words[3] = {(unsigned short)seed, (unsigned short)(seed >> 16),
                               (unsigned short)(seed >> 32)};
    seed48(words);
}

static uint32_t ref_next31(void)
{
    return (uint32_t)lrand48();
}

static void ref_fill(unsigned char *p, size_t m)
{
    for (size_t i = 0; i < m; i += 4) {
        uint32_t r = ref_next31();
        for (size_t b = 0; b < 4 && i + b < m; b++)
            p[i + b] = (unsigned char)(r >> 8 * b);
    }
}

/* Ranges here are below 2^31, so the default mode's single-draw path is all that applies. */
static size_t ref_uniform(size_t n, qsb_mode mode)
{
    uint64_t scale = mode == COMPAT ? UINT32_MAX / (uint32_t)n : (UINT64_C(1) << 31) / n;
    uint64_t past = n * scale;
    uint64_t r;
    do
        r = ref_next31();
    while (r >= past);
    return (size_t)(r / scale);
}

static void ref_put(unsigned char *e, size_t s, uint64_t v, qsb_mode mode)
{
    if (mode == COMPAT && s != 1 && s != 2 && s != 4 && s != 8) {
        memset(e, (int)(v & 0xff), s);
        return;
    }
    memset(e, 0, s);
    native_key_bytes(e, qsb_key_width(s), v);
}

static void ref_generate(const char *name, unsigned char *a, size_t n, size_t s,
                         uint64_t seed, qsb_mode mode)
{
    ref_seed(seed);
    size_t k = (size_t)((double)n * 0.2);
    if (strcmp(name, "sorted") == 0 || strcmp(name, "mostlysorted") == 0) {
        for (size_t i = 0; i < n; i++)
            ref_put(a + i * s, s, i, mode);
        if (strcmp(name, "mostlysorted") == 0)
            for (size_t j = 0; j < k; j++)
                ref_fill(a + ref_uniform(n, mode) * s, s);
    } else if (strcmp(name, "random") == 0 || strcmp(name, "repeated") == 0) {
        ref_fill(a, n * s);
        if (strcmp(name, "repeated") == 0) {
            unsigned char tmp[64];
            ref_fill(tmp, s);
            for (size_t j = 0; j < k; j++)
                memcpy(a + ref_uniform(n, mode) * s, tmp, s);
        }
    } else if (strcmp(name, "bitonic") == 0) {
        for (size_t i = 0; i < n; i++)
            ref_put(a + i * s, s, i < n / 2 ? i : n - 1 - i, mode);
    } else if (strcmp(name, "reversed") == 0) {
        for (size_t i = 0; i < n; i++)
            ref_put(a + i * s, s, n - 1 - i, mode);
    } else {
        memset(a, 0, n * s); /* allequal */
    }
}

/* Generates into a buffer full of `fill`, so that a byte left unwritten shows. */
static unsigned char *generate_filled(const qsb_pattern *p, size_t n, size_t s, uint64_t seed,
                                      qsb_mode mode, int fill)
{
    unsigned char *a = malloc(n * s + 1);
    if (a) {
        memset(a, fill, n * s + 1);
        qsb_generate(p, a, n, s, seed, mode);
    }
    return a;
}

static void test_against_rederivation(void)
{
    static const size_t lengths[] = {0, 1, 2, 3, 4, 5, 7, 10, 31, 100, 1001};
    static const uint64_t seeds[] = {QSB_DEFAULT_SEED, 1, QSB_SEED_LIMIT - 1};
    unsigned cells = 0, mismatches = 0;
    for (size_t pi = 0; pi < qsb_pattern_count; pi++)
        for (int mode = DEFAULT; mode <= COMPAT; mode++)
            for (size_t si = 0; si < TEST_SIZE_COUNT; si++)
                for (size_t li = 0; li < sizeof lengths / sizeof lengths[0]; li++)
                    for (size_t ki = 0; ki < 3; ki++) {
                        const qsb_pattern *p = &qsb_patterns[pi];
                        size_t n = lengths[li], s = test_sizes[si];
                        unsigned char *got = generate_filled(p, n, s, seeds[ki], mode, 0xa5);
                        unsigned char *want = malloc(n * s + 1);
                        CHECK(got && want);
                        if (got && want) {
                            want[n * s] = 0xa5;
                            ref_generate(p->name, want, n, s, seeds[ki], mode);
                            int same = memcmp(got, want, n * s + 1) == 0;
                            mismatches += !same;
                            if (!same)
                                fprintf(stderr, "  differs: %s n=%zu size=%zu mode=%d seed %zu\n",
                                        p->name, n, s, mode, ki);
                        }
                        cells++;
                        free(got);
                        free(want);
                    }
    CHECK_EQ_U64(mismatches, 0);
    CHECK_EQ_U64(cells, 7 * 2 * TEST_SIZE_COUNT * 11 * 3);
}

/* ---- hashes from the Python transcription ------------------------------------------ */

static uint64_t fnv1a(const unsigned char *p, size_t len)
{
    uint64_t h = UINT64_C(0xcbf29ce484222325);
    for (size_t i = 0; i < len; i++) {
        h ^= p[i];
        h *= UINT64_C(0x100000001b3);
    }
    return h;
}

typedef struct {
    const char *pattern;
    size_t size;
    qsb_mode mode;
    uint64_t fnv; /* FNV-1a 64 of the 1000-element input from the default seed */
} hash_case;

static const hash_case hash_cases[] = {
    {"sorted", 1, QSB_MODE_DEFAULT, UINT64_C(0x9ebd4ca7a79e5ddd)},
    {"sorted", 2, QSB_MODE_DEFAULT, UINT64_C(0x0ee92cb9c8829415)},
    {"sorted", 3, QSB_MODE_DEFAULT, UINT64_C(0x58d7d941c4bc097d)},
    {"sorted", 4, QSB_MODE_DEFAULT, UINT64_C(0xb626031ca980b5d5)},
    {"sorted", 8, QSB_MODE_DEFAULT, UINT64_C(0x3a840aab2742da95)},
    {"sorted", 12, QSB_MODE_DEFAULT, UINT64_C(0xc2d8b7761128cf55)},
    {"sorted", 32, QSB_MODE_DEFAULT, UINT64_C(0xf52d52022cbd5d15)},
    {"mostlysorted", 1, QSB_MODE_DEFAULT, UINT64_C(0x82a8ac8ca625aaa5)},
    {"mostlysorted", 2, QSB_MODE_DEFAULT, UINT64_C(0xf6e8fb86cc44c659)},
    {"mostlysorted", 3, QSB_MODE_DEFAULT, UINT64_C(0x4845bae147a57393)},
    {"mostlysorted", 4, QSB_MODE_DEFAULT, UINT64_C(0xde0d59c78e998c99)},
    {"mostlysorted", 8, QSB_MODE_DEFAULT, UINT64_C(0x2fdbe929705ba965)},
    {"mostlysorted", 12, QSB_MODE_DEFAULT, UINT64_C(0x497c2d1275a1ba16)},
    {"mostlysorted", 32, QSB_MODE_DEFAULT, UINT64_C(0x4a23da0dbdd25a54)},
    {"random", 1, QSB_MODE_DEFAULT, UINT64_C(0x0ba6966d49f95c0c)},
    {"random", 2, QSB_MODE_DEFAULT, UINT64_C(0xa47b512f523e49cf)},
    {"random", 3, QSB_MODE_DEFAULT, UINT64_C(0xb9ec23706848eb21)},
    {"random", 4, QSB_MODE_DEFAULT, UINT64_C(0xc839248aef93244a)},
    {"random", 8, QSB_MODE_DEFAULT, UINT64_C(0x6d852214bc2ddf5d)},
    {"random", 12, QSB_MODE_DEFAULT, UINT64_C(0x5ba07b93053605b0)},
    {"random", 32, QSB_MODE_DEFAULT, UINT64_C(0x57873fceb0432e50)},
    {"repeated", 1, QSB_MODE_DEFAULT, UINT64_C(0x77bf48fa281573e7)},
    {"repeated", 2, QSB_MODE_DEFAULT, UINT64_C(0x98b83934a8597f7f)},
    {"repeated", 3, QSB_MODE_DEFAULT, UINT64_C(0xf5a371d964985c87)},
    {"repeated", 4, QSB_MODE_DEFAULT, UINT64_C(0xf5694314c46d665e)},
    {"repeated", 8, QSB_MODE_DEFAULT, UINT64_C(0x29046747dc441a52)},
    {"repeated", 12, QSB_MODE_DEFAULT, UINT64_C(0xd84edae51d2cdcd0)},
    {"repeated", 32, QSB_MODE_DEFAULT, UINT64_C(0x99b8bf7443a7b56e)},
    {"bitonic", 1, QSB_MODE_DEFAULT, UINT64_C(0x8650a525f8978fd5)},
    {"bitonic", 2, QSB_MODE_DEFAULT, UINT64_C(0xdff952321002bfcd)},
    {"bitonic", 3, QSB_MODE_DEFAULT, UINT64_C(0xadd9511edefba91d)},
    {"bitonic", 4, QSB_MODE_DEFAULT, UINT64_C(0x25b0ef4efd46744d)},
    {"bitonic", 8, QSB_MODE_DEFAULT, UINT64_C(0x9011988df8d18b8d)},
    {"bitonic", 12, QSB_MODE_DEFAULT, UINT64_C(0x36375567776b78cd)},
    {"bitonic", 32, QSB_MODE_DEFAULT, UINT64_C(0xc8e546f864a0c10d)},
    {"reversed", 1, QSB_MODE_DEFAULT, UINT64_C(0xc075e8978d0702b5)},
    {"reversed", 2, QSB_MODE_DEFAULT, UINT64_C(0x24cad7bfb4e14dc5)},
    {"reversed", 3, QSB_MODE_DEFAULT, UINT64_C(0x55ab4cdc074606ed)},
    {"reversed", 4, QSB_MODE_DEFAULT, UINT64_C(0x685eccaeac57a2c5)},
    {"reversed", 8, QSB_MODE_DEFAULT, UINT64_C(0x93d33db69ebfd305)},
    {"reversed", 12, QSB_MODE_DEFAULT, UINT64_C(0xd103530526848545)},
    {"reversed", 32, QSB_MODE_DEFAULT, UINT64_C(0xddaeb43bf341c685)},
    {"allequal", 1, QSB_MODE_DEFAULT, UINT64_C(0x12633b178b17a745)},
    {"allequal", 2, QSB_MODE_DEFAULT, UINT64_C(0x79b4da79586cdf65)},
    {"allequal", 3, QSB_MODE_DEFAULT, UINT64_C(0x0e9154a5da464b85)},
    {"allequal", 4, QSB_MODE_DEFAULT, UINT64_C(0x94eb5aa73e186ba5)},
    {"allequal", 8, QSB_MODE_DEFAULT, UINT64_C(0x51e78e744621f425)},
    {"allequal", 12, QSB_MODE_DEFAULT, UINT64_C(0x1dfeaf773f5ebca5)},
    {"allequal", 32, QSB_MODE_DEFAULT, UINT64_C(0xca662abe6cef6725)},
    {"sorted", 1, QSB_MODE_COMPAT_2021, UINT64_C(0x9ebd4ca7a79e5ddd)},
    {"sorted", 2, QSB_MODE_COMPAT_2021, UINT64_C(0x0ee92cb9c8829415)},
    {"sorted", 3, QSB_MODE_COMPAT_2021, UINT64_C(0x69eca418cebc1b0d)},
    {"sorted", 4, QSB_MODE_COMPAT_2021, UINT64_C(0xb626031ca980b5d5)},
    {"sorted", 8, QSB_MODE_COMPAT_2021, UINT64_C(0x3a840aab2742da95)},
    {"sorted", 12, QSB_MODE_COMPAT_2021, UINT64_C(0xc01284dd85e62c05)},
    {"sorted", 32, QSB_MODE_COMPAT_2021, UINT64_C(0x84507c436cd6a6a5)},
    {"mostlysorted", 1, QSB_MODE_COMPAT_2021, UINT64_C(0xef28060729b07212)},
    {"mostlysorted", 2, QSB_MODE_COMPAT_2021, UINT64_C(0x31bb9006c2a89012)},
    {"mostlysorted", 3, QSB_MODE_COMPAT_2021, UINT64_C(0x85f19100eb049062)},
    {"mostlysorted", 4, QSB_MODE_COMPAT_2021, UINT64_C(0xac871ace96a53464)},
    {"mostlysorted", 8, QSB_MODE_COMPAT_2021, UINT64_C(0x14c62cdd202e2919)},
    {"mostlysorted", 12, QSB_MODE_COMPAT_2021, UINT64_C(0x22d9a307d7885a61)},
    {"mostlysorted", 32, QSB_MODE_COMPAT_2021, UINT64_C(0x9de845d9d3c9f04e)},
    {"random", 1, QSB_MODE_COMPAT_2021, UINT64_C(0x0ba6966d49f95c0c)},
    {"random", 2, QSB_MODE_COMPAT_2021, UINT64_C(0xa47b512f523e49cf)},
    {"random", 3, QSB_MODE_COMPAT_2021, UINT64_C(0xb9ec23706848eb21)},
    {"random", 4, QSB_MODE_COMPAT_2021, UINT64_C(0xc839248aef93244a)},
    {"random", 8, QSB_MODE_COMPAT_2021, UINT64_C(0x6d852214bc2ddf5d)},
    {"random", 12, QSB_MODE_COMPAT_2021, UINT64_C(0x5ba07b93053605b0)},
    {"random", 32, QSB_MODE_COMPAT_2021, UINT64_C(0x57873fceb0432e50)},
    {"repeated", 1, QSB_MODE_COMPAT_2021, UINT64_C(0x883f4f6309e7abac)},
    {"repeated", 2, QSB_MODE_COMPAT_2021, UINT64_C(0x5db77d791dbadbf4)},
    {"repeated", 3, QSB_MODE_COMPAT_2021, UINT64_C(0xb54a581a1862d12e)},
    {"repeated", 4, QSB_MODE_COMPAT_2021, UINT64_C(0xd5eaab147e3aadea)},
    {"repeated", 8, QSB_MODE_COMPAT_2021, UINT64_C(0xba32b06b026f48f1)},
    {"repeated", 12, QSB_MODE_COMPAT_2021, UINT64_C(0x104c320f5f5bbaae)},
    {"repeated", 32, QSB_MODE_COMPAT_2021, UINT64_C(0x80a9a98d0f053696)},
    {"bitonic", 1, QSB_MODE_COMPAT_2021, UINT64_C(0x8650a525f8978fd5)},
    {"bitonic", 2, QSB_MODE_COMPAT_2021, UINT64_C(0xdff952321002bfcd)},
    {"bitonic", 3, QSB_MODE_COMPAT_2021, UINT64_C(0xb7014d86f6ee3af5)},
    {"bitonic", 4, QSB_MODE_COMPAT_2021, UINT64_C(0x25b0ef4efd46744d)},
    {"bitonic", 8, QSB_MODE_COMPAT_2021, UINT64_C(0x9011988df8d18b8d)},
    {"bitonic", 12, QSB_MODE_COMPAT_2021, UINT64_C(0x15994398245c5495)},
    {"bitonic", 32, QSB_MODE_COMPAT_2021, UINT64_C(0x497992a5ffcae1a5)},
    {"reversed", 1, QSB_MODE_COMPAT_2021, UINT64_C(0xc075e8978d0702b5)},
    {"reversed", 2, QSB_MODE_COMPAT_2021, UINT64_C(0x24cad7bfb4e14dc5)},
    {"reversed", 3, QSB_MODE_COMPAT_2021, UINT64_C(0x4e30204eb4caf1f5)},
    {"reversed", 4, QSB_MODE_COMPAT_2021, UINT64_C(0x685eccaeac57a2c5)},
    {"reversed", 8, QSB_MODE_COMPAT_2021, UINT64_C(0x93d33db69ebfd305)},
    {"reversed", 12, QSB_MODE_COMPAT_2021, UINT64_C(0xaaa4df090eeced65)},
    {"reversed", 32, QSB_MODE_COMPAT_2021, UINT64_C(0x290c16d5d82e60a5)},
    {"allequal", 1, QSB_MODE_COMPAT_2021, UINT64_C(0x12633b178b17a745)},
    {"allequal", 2, QSB_MODE_COMPAT_2021, UINT64_C(0x79b4da79586cdf65)},
    {"allequal", 3, QSB_MODE_COMPAT_2021, UINT64_C(0x0e9154a5da464b85)},
    {"allequal", 4, QSB_MODE_COMPAT_2021, UINT64_C(0x94eb5aa73e186ba5)},
    {"allequal", 8, QSB_MODE_COMPAT_2021, UINT64_C(0x51e78e744621f425)},
    {"allequal", 12, QSB_MODE_COMPAT_2021, UINT64_C(0x1dfeaf773f5ebca5)},
    {"allequal", 32, QSB_MODE_COMPAT_2021, UINT64_C(0xca662abe6cef6725)},
};

static void test_against_python_hashes(void)
{
#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
    const size_t n = 1000;
    CHECK_EQ_U64(sizeof hash_cases / sizeof hash_cases[0], 7 * 2 * TEST_SIZE_COUNT);
    for (size_t i = 0; i < sizeof hash_cases / sizeof hash_cases[0]; i++) {
        const hash_case *c = &hash_cases[i];
        const qsb_pattern *p = qsb_pattern_find(c->pattern);
        CHECK(p != NULL);
        unsigned char *a = p ? generate_filled(p, n, c->size, QSB_DEFAULT_SEED, c->mode, 0) : NULL;
        CHECK(a != NULL);
        if (a)
            CHECK_MSG(fnv1a(a, n * c->size) == c->fnv, "%s size %zu mode %d: hash %016llx",
                      c->pattern, c->size, (int)c->mode,
                      (unsigned long long)fnv1a(a, n * c->size));
        free(a);
    }
#else
    printf("big-endian host: the Python hashes assume little-endian keys; skipped\n");
#endif
}

/* ---- determinism ------------------------------------------------------------------- */

/* Same arguments, same bytes: whatever was generated before, and whatever the buffer held. */
static void test_determinism(void)
{
    for (size_t pi = 0; pi < qsb_pattern_count; pi++) {
        const qsb_pattern *p = &qsb_patterns[pi];
        unsigned char *first = generate_filled(p, 777, 12, 4242, COMPAT, 0x00);
        /* Other cells in between, from other seeds and modes. */
        for (size_t other = 0; other < qsb_pattern_count; other++)
            free(generate_filled(&qsb_patterns[other], 500, 8, 7, DEFAULT, 0x11));
        unsigned char *again = generate_filled(p, 777, 12, 4242, COMPAT, 0xff);
        CHECK(first && again);
        if (first && again)
            CHECK_MSG(memcmp(first, again, 777 * 12) == 0, "%s not reproducible", p->name);
        free(first);
        free(again);
    }
}

/* The seed matters where randomness is used, and only there. */
static void test_seed_dependence(void)
{
    for (size_t pi = 0; pi < qsb_pattern_count; pi++) {
        const qsb_pattern *p = &qsb_patterns[pi];
        unsigned char *a = generate_filled(p, 1000, 4, 1, DEFAULT, 0);
        unsigned char *b = generate_filled(p, 1000, 4, 2, DEFAULT, 0);
        CHECK(a && b);
        if (a && b) {
            int random_based = strcmp(p->name, "random") == 0 ||
                               strcmp(p->name, "mostlysorted") == 0 ||
                               strcmp(p->name, "repeated") == 0;
            CHECK_MSG((memcmp(a, b, 4000) != 0) == random_based, "%s and the seed", p->name);
        }
        free(a);
        free(b);
    }
}

/* Shapes the spec promises, checked on keys rather than bytes. */
static void test_shapes(void)
{
    const size_t n = 1000;
    unsigned char *sorted = generate_filled(qsb_pattern_find("sorted"), n, 4, 1, DEFAULT, 0);
    unsigned char *bitonic = generate_filled(qsb_pattern_find("bitonic"), n, 4, 1, DEFAULT, 0);
    unsigned char *repeated = generate_filled(qsb_pattern_find("repeated"), n, 8, 1, DEFAULT, 0);
    unsigned char *compat32 = generate_filled(qsb_pattern_find("sorted"), n, 32, 1, COMPAT, 0);
    CHECK(sorted && bitonic && repeated && compat32);
    if (sorted && bitonic && repeated && compat32) {
        unsigned bad_sorted = 0, bad_bitonic = 0, bad_saw = 0;
        for (size_t i = 0; i < n; i++) {
            bad_sorted += qsb_key(sorted + 4 * i, 4) != i;
            bad_bitonic += qsb_key(bitonic + 4 * i, 4) != (i < n / 2 ? i : n - 1 - i);
            bad_saw += qsb_key(compat32 + 32 * i, 32) != (i & 0xff) * UINT32_C(0x01010101);
        }
        CHECK_EQ_U64(bad_sorted, 0);
        CHECK_EQ_U64(bad_bitonic, 0);
        CHECK_EQ_U64(bad_saw, 0);
        /* REPEATED: k = 200 draws of positions; the most common key covers most of them. */
        size_t best = 0;
        for (size_t i = 0; i < n; i++) {
            size_t same = 0;
            for (size_t j = 0; j < n; j++)
                same += qsb_key(repeated + 8 * i, 8) == qsb_key(repeated + 8 * j, 8);
            best = same > best ? same : best;
        }
        CHECK(best > 150 && best <= 200);
    }
    free(sorted);
    free(bitonic);
    free(repeated);
    free(compat32);
}

/* ---- the real glibc msort on our inputs --------------------------------------------- */

#if defined(__SANITIZE_ADDRESS__)
#define QSB_HOST_QSORT_WRAPPED 1 /* the sanitizer's qsort_r interceptor adds n - 1 calls */
#else
#define QSB_HOST_QSORT_WRAPPED 0
#endif

#if defined(__GLIBC__) && (__GLIBC__ == 2 && __GLIBC_MINOR__ <= 38) && !QSB_HOST_QSORT_WRAPPED
typedef struct {
    qsb_compare cmp;
    uint64_t calls;
} call_counter;

static int counting_compare(const void *a, const void *b, void *arg)
{
    call_counter *c = arg;
    c->calls++;
    return c->cmp(a, b, NULL);
}

/* The index of `name` in a CSV header line, or -1. */
static int column_of(char *header, const char *name)
{
    int index = 0;
    for (char *field = strtok(header, ",\n"); field; field = strtok(NULL, ",\n"), index++)
        if (strcmp(field, name) == 0)
            return index;
    return -1;
}

static int check_reference_row(char *line, int system_column)
{
    char *fields[32];
    int count = 0;
    for (char *f = strtok(line, ",\n"); f && count < 32; f = strtok(NULL, ",\n"))
        fields[count++] = f;
    if (count <= system_column)
        return 0;
    const qsb_pattern *p = qsb_pattern_find(fields[2]);
    qsb_mode mode = strcmp(fields[0], "compat") == 0 ? COMPAT : DEFAULT;
    uint64_t seed = strtoull(fields[1], NULL, 0);
    size_t n = strtoull(fields[3], NULL, 10), s = strtoull(fields[4], NULL, 10);
    uint64_t expected = strtoull(fields[system_column], NULL, 10);
    CHECK_MSG(p != NULL, "unknown pattern '%s' in the reference", fields[2]);
    unsigned char *a = p ? generate_filled(p, n, s, seed, mode, 0) : NULL;
    if (!a)
        return 0;
    call_counter counter = {qsb_comparator(s), 0};
    qsort_r(a, n, s, counting_compare, &counter);
    CHECK_MSG(counter.calls == expected, "%s %s n=%zu size=%zu: qsort_r made %llu calls, "
              "reference %llu", fields[0], fields[2], n, s,
              (unsigned long long)counter.calls, (unsigned long long)expected);
    free(a);
    return 1;
}

static void test_against_reference_counts(void)
{
    FILE *fp = fopen(QSB_REFERENCE_DIR "/comparisons.csv", "r");
    CHECK_MSG(fp != NULL, "cannot open %s", QSB_REFERENCE_DIR "/comparisons.csv");
    if (!fp)
        return;
    char line[512];
    int system_column = fgets(line, sizeof line, fp) ? column_of(line, "system") : -1;
    CHECK(system_column > 4);
    unsigned rows = 0;
    while (system_column > 4 && fgets(line, sizeof line, fp))
        rows += (unsigned)check_reference_row(line, system_column);
    fclose(fp);
    CHECK(rows >= 500);
}
#else
static void test_against_reference_counts(void)
{
    printf("host qsort_r is not glibc <= 2.38's msort, or a sanitizer wraps it: reference "
           "counts skipped\n");
}
#endif

int main(void)
{
    test_key_width();
    test_put_default();
    test_put_compat();
    test_comparators();
    test_table();
    test_lookup();
    test_perturbations();
    test_against_rederivation();
    test_against_python_hashes();
    test_determinism();
    test_seed_dependence();
    test_shapes();
    test_against_reference_counts();
    return check_done();
}
