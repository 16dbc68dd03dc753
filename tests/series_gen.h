/*
** Simulated history series for the tests and the scale measurement (test_history_detect,
** history_scale): one seeded generator (splitmix64, Box-Muller normals), so a seed gives the
** same series on every machine, and the one model of a candidate's run-to-run delta: its true
** level times the host's state between runs, a normal factor of sd host_sd %.
*/
#ifndef QSB_SERIES_GEN_H
#define QSB_SERIES_GEN_H

#include <stdint.h>

typedef struct {
    uint64_t state;
} series_rng;

/* Uniform in (0, 1), never 0 or 1. */
double series_uniform(series_rng *r);
/* Standard normal. */
double series_normal(series_rng *r);

/* A run's paired delta, %: true_pct (the candidate's true delta) moved by the host's state
** between runs, sd host_sd %. */
double series_run_delta(series_rng *r, double true_pct, double host_sd);

#endif
