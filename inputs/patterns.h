/*
** The input patterns: a registry table of (name, summary, generator). Every input is a pure
** function of (pattern, n, size, seed, mode): the generators of patterns.c fix its bytes.
*/
#ifndef QSB_PATTERNS_H
#define QSB_PATTERNS_H

#include <stddef.h>
#include <stdint.h>

#include "rng.h"

typedef struct {
    const char *name;    /* lowercase; looked up case-insensitively */
    const char *summary; /* one line for `list` and --help */
    void (*generate)(void *base, size_t n, size_t size, qsb_rng *rng, qsb_mode mode);
    int seed_pattern;    /* one of the five patterns of the 2021 benchmark (the default set) */
} qsb_pattern;

extern const qsb_pattern qsb_patterns[];
extern const size_t qsb_pattern_count;

const qsb_pattern *qsb_pattern_find(const char *name); /* NULL when unknown */

/* k = (size_t)(n * 0.2) in double precision, truncated: how many positions MOSTLYSORTED
** and REPEATED perturb. */
size_t qsb_pattern_perturbations(size_t n);

/* Fills base (n * size bytes) with the pattern, from a fresh generator state seed. */
void qsb_generate(const qsb_pattern *pattern, void *base, size_t n, size_t size,
                  uint64_t seed, qsb_mode mode);

#endif
