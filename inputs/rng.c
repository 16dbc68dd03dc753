/*
** The drand48-family generator, random bytes and rejection-sampled integers of the patterns
** spec (see rng.h). Everything here is exact integer arithmetic: the same seed gives the same
** bytes on every machine, whatever its byte order.
*/
#include "rng.h"

#include <assert.h>

#define LCG_MULTIPLIER UINT64_C(0x5DEECE66D)
#define LCG_INCREMENT  UINT64_C(0xB)
#define LCG_MASK       (QSB_SEED_LIMIT - 1)

#define TWO_POW_31 (UINT64_C(1) << 31)
#define TWO_POW_62 (UINT64_C(1) << 62)

void qsb_rng_seed(qsb_rng *rng, uint64_t seed)
{
    assert(seed < QSB_SEED_LIMIT);
    rng->x = seed & LCG_MASK;
}

static inline uint64_t lcg_step(uint64_t x)
{
    return (LCG_MULTIPLIER * x + LCG_INCREMENT) & LCG_MASK;
}

uint32_t qsb_rng_next31(qsb_rng *rng)
{
    rng->x = lcg_step(rng->x);
    return (uint32_t)(rng->x >> 17);
}

/* Byte by byte, so the layout is little-endian on any host; gcc merges the four stores into
** one on little-endian machines, which keeps generation at memory speed. */
static void store_le32(unsigned char *p, uint32_t v)
{
    p[0] = (unsigned char)v;
    p[1] = (unsigned char)(v >> 8);
    p[2] = (unsigned char)(v >> 16);
    p[3] = (unsigned char)(v >> 24);
}

void qsb_fill_random(qsb_rng *rng, void *p, size_t m)
{
    unsigned char *out = p;
    /* A local copy of the state lets the compiler keep it in a register across the stores. */
    uint64_t x = rng->x;
    size_t groups = m / 4;
    for (size_t g = 0; g < groups; g++) {
        x = lcg_step(x);
        store_le32(out + 4 * g, (uint32_t)(x >> 17));
    }
    rng->x = x;
    size_t tail = m % 4;
    if (tail) {
        uint32_t r = qsb_rng_next31(rng);
        for (size_t i = 0; i < tail; i++)
            out[4 * groups + i] = (unsigned char)(r >> (8 * i));
    }
}

/* Default mode: one 31-bit draw while the range fits in 2^31 values, else a 62-bit value
** made of two draws. Rejecting r >= u * scale makes every value equally likely. */
static uint64_t uniform_default(qsb_rng *rng, uint64_t lo, uint64_t u)
{
    assert(u >= 1 && u <= TWO_POW_62);
    int wide = u > TWO_POW_31;
    uint64_t scale = (wide ? TWO_POW_62 : TWO_POW_31) / u;
    uint64_t past = u * scale;
    uint64_t r;
    do {
        r = qsb_rng_next31(rng);
        if (wide)
            r = r * TWO_POW_31 + qsb_rng_next31(rng);
    } while (r >= past);
    return lo + r / scale;
}

/* The 2021 benchmark's version, kept for --compat: the range is taken mod 2^32 and scaled
** against UINT32_MAX although a draw has only 31 bits, so results fall in the lower half of
** the range. A range that wraps to 0 (2^32 values or more) is beyond that benchmark; it is
** treated as scale 1 rather than dividing by zero. */
static uint64_t uniform_compat_2021(qsb_rng *rng, uint64_t lo, uint64_t hi)
{
    uint32_t u = (uint32_t)(hi - lo + 1);
    uint32_t scale = u ? UINT32_MAX / u : 1;
    uint32_t past = u ? u * scale : UINT32_MAX;
    uint32_t r;
    do {
        r = qsb_rng_next31(rng);
    } while (r >= past);
    return lo + r / scale;
}

uint64_t qsb_uniform(qsb_rng *rng, uint64_t lo, uint64_t hi, qsb_mode mode)
{
    assert(lo <= hi);
    if (mode == QSB_MODE_COMPAT_2021)
        return uniform_compat_2021(rng, lo, hi);
    return uniform_default(rng, lo, hi - lo + 1);
}
