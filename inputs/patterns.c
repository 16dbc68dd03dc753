/*
** The input patterns: one generator per pattern and the one
** table that names them (see patterns.h). A new pattern is one function and one row.
** Generators cannot fail: they allocate nothing and write exactly n * size bytes.
*/
#include "patterns.h"

#include <string.h>
#include <strings.h>

#include "element.h"

#define ELEMENT(base, i, size) ((unsigned char *)(base) + (i) * (size))

size_t qsb_pattern_perturbations(size_t n)
{
    /* The 2021 benchmark's n * 0.2 in double precision, truncated; kept to the bit. */
    return (size_t)((double)n * 0.2);
}

static void generate_sorted(void *base, size_t n, size_t size, qsb_rng *rng, qsb_mode mode)
{
    (void)rng;
    for (size_t i = 0; i < n; i++)
        qsb_put(ELEMENT(base, i, size), size, i, mode);
}

static void generate_reversed(void *base, size_t n, size_t size, qsb_rng *rng, qsb_mode mode)
{
    (void)rng;
    for (size_t i = 0; i < n; i++)
        qsb_put(ELEMENT(base, i, size), size, n - 1 - i, mode);
}

static void generate_bitonic(void *base, size_t n, size_t size, qsb_rng *rng, qsb_mode mode)
{
    (void)rng;
    for (size_t i = 0; i < n; i++)
        qsb_put(ELEMENT(base, i, size), size, i < n / 2 ? i : n - 1 - i, mode);
}

static void generate_random(void *base, size_t n, size_t size, qsb_rng *rng, qsb_mode mode)
{
    (void)mode;
    qsb_fill_random(rng, base, n * size);
}

static void generate_allequal(void *base, size_t n, size_t size, qsb_rng *rng, qsb_mode mode)
{
    (void)rng, (void)mode;
    memset(base, 0, n * size);
}

static void generate_mostlysorted(void *base, size_t n, size_t size, qsb_rng *rng,
                                  qsb_mode mode)
{
    generate_sorted(base, n, size, rng, mode);
    size_t k = qsb_pattern_perturbations(n);
    for (size_t j = 0; j < k; j++) {
        size_t p = (size_t)qsb_uniform(rng, 0, n - 1, mode);
        qsb_fill_random(rng, ELEMENT(base, p, size), size);
    }
}

static void generate_repeated(void *base, size_t n, size_t size, qsb_rng *rng, qsb_mode mode)
{
    generate_random(base, n, size, rng, mode);
    /* The spec draws one element tmp next and copies it k times. Instead of allocating tmp
    ** (a generator cannot fail), remember the state, skip tmp's draws, and regenerate tmp
    ** straight into the first position chosen: only copies of tmp are written after it, so
    ** later positions can copy from there. */
    qsb_rng tmp_rng = *rng;
    for (size_t draws = (size + 3) / 4; draws > 0; draws--)
        qsb_rng_next31(rng);
    size_t k = qsb_pattern_perturbations(n);
    unsigned char *tmp = NULL;
    for (size_t j = 0; j < k; j++) {
        unsigned char *e = ELEMENT(base, (size_t)qsb_uniform(rng, 0, n - 1, mode), size);
        if (!tmp) {
            qsb_fill_random(&tmp_rng, e, size);
            tmp = e;
        } else if (e != tmp) {
            memcpy(e, tmp, size);
        }
    }
}

/* The five seed patterns first, in the 2021 cover letter's order (the default set). */
const qsb_pattern qsb_patterns[] = {
    {"sorted", "ascending keys 0, 1, ..., n-1", generate_sorted, 1},
    {"mostlysorted", "sorted, then n*0.2 random positions refilled with random bytes",
     generate_mostlysorted, 1},
    {"random", "random bytes from the drand48 generator", generate_random, 1},
    {"repeated", "random, then n*0.2 random positions overwritten by one random element",
     generate_repeated, 1},
    {"bitonic", "keys rising 0, 1, ... to the middle, then falling to 0", generate_bitonic, 1},
    {"reversed", "descending keys n-1, ..., 1, 0", generate_reversed, 0},
    {"allequal", "every element all zero bytes", generate_allequal, 0},
};
const size_t qsb_pattern_count = sizeof qsb_patterns / sizeof qsb_patterns[0];

const qsb_pattern *qsb_pattern_find(const char *name)
{
    for (size_t i = 0; i < qsb_pattern_count; i++)
        if (strcasecmp(name, qsb_patterns[i].name) == 0)
            return &qsb_patterns[i];
    return NULL;
}

void qsb_generate(const qsb_pattern *pattern, void *base, size_t n, size_t size,
                  uint64_t seed, qsb_mode mode)
{
    qsb_rng rng;
    qsb_rng_seed(&rng, seed);
    pattern->generate(base, n, size, &rng, mode);
}
