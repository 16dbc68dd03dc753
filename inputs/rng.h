/*
** The drand48-family generator of the patterns spec, with its state in the caller's hands
** (libc's lrand48 keeps global state, so two inputs could not be made independently).
**
**   X' = (0x5DEECE66D * X + 0xB) mod 2^48, next31() = X' >> 17
**
** Every input starts from a fresh qsb_rng_seed(), so a cell's bytes never depend on which
** cells were generated before it.
*/
#ifndef QSB_RNG_H
#define QSB_RNG_H

#include <stddef.h>
#include <stdint.h>

#define QSB_DEFAULT_SEED UINT64_C(0x9abc56781234) /* seed48({0x1234, 0x5678, 0x9abc}) */
#define QSB_SEED_LIMIT   (UINT64_C(1) << 48)      /* seeds are 0 <= S < 2^48 */

typedef enum {
    QSB_MODE_DEFAULT,     /* the patterns spec's own definitions */
    QSB_MODE_COMPAT_2021  /* --compat glibc-bench-2021: the 2021 benchmark's quirks */
} qsb_mode;

#define QSB_COMPAT_2021_NAME "glibc-bench-2021" /* the --compat value that selects it */

typedef struct {
    uint64_t x; /* 48-bit state */
} qsb_rng;

void qsb_rng_seed(qsb_rng *rng, uint64_t seed);
uint32_t qsb_rng_next31(qsb_rng *rng);

/* m bytes: a little-endian next31() per whole 4-byte group, the low bytes of one more draw
** for a tail of fewer than 4. */
void qsb_fill_random(qsb_rng *rng, void *p, size_t m);

/* A value in [lo, hi] by rejection sampling, as the mode defines it (patterns spec). */
uint64_t qsb_uniform(qsb_rng *rng, uint64_t lo, uint64_t hi, qsb_mode mode);

#endif
