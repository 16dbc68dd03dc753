/*
** The run's estimate before its first sort (see estimate.h).
*/
#include "estimate.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "diag.h"
#include "patterns.h"
#include "registry.h"
#include "shard.h"
#include "timing.h"
#include "verify.h"

#define PROBE_NELEM 32768 /* 4-byte elements: 128 KiB, a sort of about a millisecond */
#define PROBE_SORTS 2     /* the best of these */
#define FALLBACK_PER_WORK 1e-8 /* seconds per unit of work when nothing could be probed */

/* Seconds per unit of work of sort on input (the best of PROBE_SORTS, each checked); NAN when
** a result is wrong (the run's workers will report it) or memory is short. */
static double probe_sort(qsb_sort_fn sort, const unsigned char *input, unsigned char *work,
                         const qsb_multiset_hash *hash)
{
    double best = INFINITY;
    char reason[128];
    for (int i = 0; i < PROBE_SORTS; i++) {
        memcpy(work, input, PROBE_NELEM * 4);
        uint64_t t0 = qsb_clock_ns();
        sort(work, PROBE_NELEM, 4, qsb_comparator(4), NULL);
        best = fmin(best, (double)(qsb_clock_ns() - t0) / 1e9);
        if (!qsb_verify_sorted_permutation(work, PROBE_NELEM, 4, qsb_comparator(4), NULL, hash,
                                           reason, sizeof reason))
            return NAN;
    }
    return best / qsb_shard_cell_cost(PROBE_NELEM, 4, 1);
}

/* A registry entry's own code: probed. A plug-in is not run before the workers (a crash there
** would end the run without a word about which sort failed): libc's qsort_r stands in. */
static bool built_in(const qsb_algorithm *a)
{
    const qsb_algorithm *entry = qsb_algorithm_find(a->name);
    return entry && entry->sort == a->sort;
}

/* per_work[a]: seconds per unit of work of algorithm a on the pattern's input. */
static void probe_pattern(const qsb_run_config *cfg, const qsb_pattern *pattern,
                          unsigned char *input, unsigned char *work, double *per_work)
{
    qsb_generate(pattern, input, PROBE_NELEM, 4, cfg->seed, cfg->mode);
    qsb_multiset_hash hash = qsb_multiset_hash_of(input, PROBE_NELEM, 4);
    double stand_in = NAN;
    for (size_t a = 0; a < cfg->n_algos; a++) {
        per_work[a] = built_in(&cfg->algos[a]) ? probe_sort(cfg->algos[a].sort, input, work,
                                                            &hash)
                                               : NAN;
        if (isnan(per_work[a]) && isnan(stand_in))
            stand_in = probe_sort(qsort_r, input, work, &hash);
        if (isnan(per_work[a]))
            per_work[a] = isnan(stand_in) ? FALLBACK_PER_WORK : stand_in;
    }
}

int qsb_estimate_probe(const qsb_run_config *cfg, qsb_sort_costs *costs)
{
    size_t patterns = cfg->n_patterns ? cfg->n_patterns : 1;
    unsigned char *input = malloc(PROBE_NELEM * 4), *work = malloc(PROBE_NELEM * 4);
    double *per_work = malloc((cfg->n_algos ? cfg->n_algos : 1) * sizeof *per_work);
    costs->round_per_work = calloc(patterns, sizeof *costs->round_per_work);
    costs->n_patterns = cfg->n_patterns;
    int status = input && work && per_work && costs->round_per_work
                     ? QSB_OK
                     : qsb_out_of_memory("estimate");
    for (size_t p = 0; status == QSB_OK && p < cfg->n_patterns; p++) {
        probe_pattern(cfg, cfg->patterns[p], input, work, per_work);
        for (size_t a = 0; a < cfg->n_algos; a++)
            costs->round_per_work[p] += per_work[a];
    }
    free(input);
    free(work);
    free(per_work);
    return status;
}

void qsb_sort_costs_free(qsb_sort_costs *costs)
{
    free(costs->round_per_work);
    costs->round_per_work = NULL;
}

void qsb_estimate_cells(const qsb_run_config *cfg, const qsb_sort_costs *costs,
                        double *round_s, double *first_s)
{
    size_t c = 0;
    for (qsb_cell_cursor at = {0}; qsb_run_config_next_cell(cfg, &at); c++) {
        uint64_t nelem = cfg->nelem[at.nelem], size = cfg->sizes[at.size];
        round_s[c] = costs->round_per_work[at.pattern] * qsb_shard_cell_cost(nelem, size, 1);
        /* The counted sorts are about one round (docs/results.md#overhead-counted-sorts); the
        ** input's copies and checks a fixed cost a byte
        ** (docs/results.md#overhead-copy-check-per-byte). */
        first_s[c] = round_s[c] + (double)nelem * (double)size * 2e-9;
    }
}
