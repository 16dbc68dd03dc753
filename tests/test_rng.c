/*
** The generator of inputs/rng.c against values derived outside it: the LCG against libc's
** lrand48 (POSIX fixes its arithmetic) and against a constant table; fill_random's byte layout
** and tails; uniform() in both modes, its edge cases, and how many draws it consumes.
**
** The constants were computed with a separate Python 3 transcription of the patterns
** specification (tests/tools/patterns_ref.py: X = (0x5DEECE66D * X + 0xB) mod 2^48,
** next31 = X >> 17, the two uniform variants written from the spec's formulas); the first
** table was also checked against glibc's seed48({0x1234, 0x5678, 0x9abc}) + lrand48().
*/
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "rng.h"

#define DEFAULT QSB_MODE_DEFAULT
#define COMPAT  QSB_MODE_COMPAT_2021

/* The first draws from the default seed 0x9abc56781234. */
static const uint32_t first_draws[] = {0x24af48b5, 0x779a0fd1, 0x44833f95, 0x715306b7,
                                       0x10e30fc2, 0x1b661e72, 0x0b705a62, 0x2eff7573};

static void test_default_seed_draws(void)
{
    qsb_rng rng;
    qsb_rng_seed(&rng, QSB_DEFAULT_SEED);
    for (size_t i = 0; i < sizeof first_draws / sizeof first_draws[0]; i++)
        CHECK_EQ_U64(qsb_rng_next31(&rng), first_draws[i]);
}

static void test_extreme_seeds(void)
{
    static const uint32_t from_zero[] = {0x0, 0x204a16, 0x5542a27, 0x169c39e2};
    static const uint32_t from_max[] = {0x7ffd1089, 0x228fefe6, 0x1b07cba1, 0x7d267e4c};
    qsb_rng zero, max;
    qsb_rng_seed(&zero, 0);
    qsb_rng_seed(&max, QSB_SEED_LIMIT - 1);
    for (size_t i = 0; i < 4; i++) {
        CHECK_EQ_U64(qsb_rng_next31(&zero), from_zero[i]);
        CHECK_EQ_U64(qsb_rng_next31(&max), from_max[i]);
    }
}

/* seed48 takes the state as three 16-bit words, low word first. */
static void seed_libc(uint64_t seed)
{
    unsigned short words[3] = {(unsigned short)seed, (unsigned short)(seed >> 16),
                               (unsigned short)(seed >> 32)};
    seed48(words);
}

static void test_against_lrand48(void)
{
    static const uint64_t seeds[] = {QSB_DEFAULT_SEED, 0, 1, 12345, UINT64_C(0xdeadbeefcafe),
                                     QSB_SEED_LIMIT - 1};
    for (size_t s = 0; s < sizeof seeds / sizeof seeds[0]; s++) {
        qsb_rng rng;
        qsb_rng_seed(&rng, seeds[s]);
        seed_libc(seeds[s]);
        unsigned mismatches = 0;
        for (int i = 0; i < 100000; i++)
            mismatches += qsb_rng_next31(&rng) != (uint32_t)lrand48();
        CHECK_EQ_U64(mismatches, 0);
    }
}

/* fill_random(m) for m = 1..9 from the default seed: little-endian draws, tail = low bytes. */
static void test_fill_random_layout(void)
{
    static const unsigned char expected[9] = {0xb5, 0x48, 0xaf, 0x24, 0xd1,
                                              0x0f, 0x9a, 0x77, 0x95};
    for (size_t m = 1; m <= 9; m++) {
        unsigned char buf[16];
        memset(buf, 0xee, sizeof buf);
        qsb_rng rng;
        qsb_rng_seed(&rng, QSB_DEFAULT_SEED);
        qsb_fill_random(&rng, buf, m);
        CHECK_MSG(memcmp(buf, expected, m) == 0, "fill_random(%zu) bytes differ", m);
        CHECK_MSG(buf[m] == 0xee, "fill_random(%zu) wrote past its end", m);
        /* ceil(m / 4) draws consumed: the next draw is first_draws[ceil(m / 4)]. */
        CHECK_EQ_U64(qsb_rng_next31(&rng), first_draws[(m + 3) / 4]);
    }
}

static void test_fill_random_zero_bytes(void)
{
    qsb_rng rng;
    unsigned char byte = 0xee;
    qsb_rng_seed(&rng, QSB_DEFAULT_SEED);
    qsb_fill_random(&rng, &byte, 0);
    CHECK_EQ_U64(byte, 0xee);
    CHECK_EQ_U64(qsb_rng_next31(&rng), first_draws[0]);
}

/* A long fill equals the draws one by one, whatever the alignment of the buffer. */
static void test_fill_random_long_and_unaligned(void)
{
    enum { WORDS = 1000 };
    unsigned char *buf = malloc(4 * WORDS + 3);
    CHECK(buf != NULL);
    if (!buf)
        return;
    for (size_t offset = 0; offset < 3; offset++) {
        qsb_rng fill, single;
        qsb_rng_seed(&fill, 777);
        qsb_rng_seed(&single, 777);
        qsb_fill_random(&fill, buf + offset, 4 * WORDS);
        unsigned mismatches = 0;
        for (size_t w = 0; w < WORDS; w++) {
            uint32_t r = qsb_rng_next31(&single);
            const unsigned char *p = buf + offset + 4 * w;
            uint32_t stored = (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 |
                              (uint32_t)p[3] << 24;
            mismatches += stored != r;
        }
        CHECK_EQ_U64(mismatches, 0);
        CHECK_EQ_U64(fill.x, single.x);
    }
    free(buf);
}

typedef struct {
    uint64_t seed, lo, hi;
    qsb_mode mode;
    uint64_t value;   /* uniform(lo, hi) */
    unsigned draws;   /* next31() calls it made */
} uniform_case;

static const uniform_case uniform_cases[] = {
    /* lo == hi: u = 1, scale = 2^31; one draw is still consumed. */
    {QSB_DEFAULT_SEED, 0, 0, DEFAULT, 0, 1},
    {QSB_DEFAULT_SEED, 7, 7, DEFAULT, 7, 1},
    /* u = 2^31: scale 1, every draw accepted, lo + r. */
    {QSB_DEFAULT_SEED, 0, (UINT64_C(1) << 31) - 1, DEFAULT, 615467189, 1},
    {QSB_DEFAULT_SEED, 5, (UINT64_C(1) << 31) + 4, DEFAULT, 615467194, 1},
    /* u = 2^31 + 1: the two-draw 62-bit path. */
    {QSB_DEFAULT_SEED, 0, UINT64_C(1) << 31, DEFAULT, 615467190, 2},
    /* u = 2^62: scale 1, r = d1 * 2^31 + d2 itself. */
    {QSB_DEFAULT_SEED, 0, (UINT64_C(1) << 62) - 1, DEFAULT,
     UINT64_C(615467189) * (UINT64_C(1) << 31) + 2006585297, 2},
    {QSB_DEFAULT_SEED, 0, 4095, DEFAULT, 1173, 1},
    {QSB_DEFAULT_SEED, 0, 999, DEFAULT, 286, 1},
    /* u = 2^30 + 1: scale 1, past = u; the first draw (0x7ffd1089) is rejected. */
    {QSB_SEED_LIMIT - 1, 0, UINT64_C(1) << 30, DEFAULT, 579858406, 2},
    /* compat: scale = UINT32_MAX / u, about twice the default one. */
    {QSB_DEFAULT_SEED, 0, 0, COMPAT, 0, 1},
    {QSB_DEFAULT_SEED, 0, 4095, COMPAT, 586, 1},
    {QSB_DEFAULT_SEED, 0, 999, COMPAT, 143, 1},
    /* compat: hi - lo + 1 = 2^32 + 10 is taken mod 2^32 (u = 10). */
    {QSB_DEFAULT_SEED, 10, (UINT64_C(1) << 32) + 19, COMPAT, 11, 1},
    {QSB_SEED_LIMIT - 1, 0, UINT64_C(1) << 30, COMPAT, 715763757, 1},
    /* compat: u = 2^31 + 3 > any draw, scale 1: the draw itself. */
    {QSB_SEED_LIMIT - 1, 0, (UINT64_C(1) << 31) + 2, COMPAT, 2147291273, 1},
};

static void test_uniform_cases(void)
{
    for (size_t i = 0; i < sizeof uniform_cases / sizeof uniform_cases[0]; i++) {
        const uniform_case *c = &uniform_cases[i];
        qsb_rng rng, counted;
        qsb_rng_seed(&rng, c->seed);
        qsb_rng_seed(&counted, c->seed);
        uint64_t v = qsb_uniform(&rng, c->lo, c->hi, c->mode);
        CHECK_MSG(v == c->value, "case %zu: uniform = %llu, expected %llu", i,
                  (unsigned long long)v, (unsigned long long)c->value);
        for (unsigned d = 0; d < c->draws; d++)
            qsb_rng_next31(&counted);
        CHECK_MSG(rng.x == counted.x, "case %zu: not exactly %u draws", i, c->draws);
    }
}

/* The default mode spans the whole range; compat reaches only about its first half: with
** scale = floor(UINT32_MAX / n) and r < 2^31, r / scale <= floor((2^31 - 1) / scale). */
static void test_uniform_ranges(void)
{
    const uint64_t n = 4096;
    const uint64_t compat_scale = UINT32_MAX / n;
    const uint64_t compat_bound = ((UINT64_C(1) << 31) - 1) / compat_scale;
    CHECK_EQ_U64(compat_bound, 2048);
    qsb_rng def, compat;
    qsb_rng_seed(&def, QSB_DEFAULT_SEED);
    qsb_rng_seed(&compat, QSB_DEFAULT_SEED);
    uint64_t def_max = 0, compat_max = 0, def_min = n, out_of_range = 0;
    for (int i = 0; i < 200000; i++) {
        uint64_t a = qsb_uniform(&def, 0, n - 1, DEFAULT);
        uint64_t b = qsb_uniform(&compat, 0, n - 1, COMPAT);
        out_of_range += a >= n || b >= n;
        def_max = a > def_max ? a : def_max;
        def_min = a < def_min ? a : def_min;
        compat_max = b > compat_max ? b : compat_max;
    }
    CHECK_EQ_U64(out_of_range, 0);
    CHECK_EQ_U64(def_min, 0);
    CHECK_EQ_U64(def_max, n - 1);
    CHECK(compat_max <= compat_bound);
    CHECK(compat_max >= compat_bound - 1);
}

/* A range that is not a power of two exercises rejection: every result still in range, and
** lo is added. */
static void test_uniform_offset_range(void)
{
    qsb_rng rng;
    qsb_rng_seed(&rng, 99);
    unsigned bad = 0, seen_lo = 0, seen_hi = 0;
    for (int i = 0; i < 100000; i++) {
        uint64_t v = qsb_uniform(&rng, 1000, 1006, DEFAULT);
        bad += v < 1000 || v > 1006;
        seen_lo |= v == 1000;
        seen_hi |= v == 1006;
    }
    CHECK_EQ_U64(bad, 0);
    CHECK(seen_lo && seen_hi);
}

int main(void)
{
    test_default_seed_draws();
    test_extreme_seeds();
    test_against_lrand48();
    test_fill_random_layout();
    test_fill_random_zero_bytes();
    test_fill_random_long_and_unaligned();
    test_uniform_cases();
    test_uniform_ranges();
    test_uniform_offset_range();
    return check_done();
}
