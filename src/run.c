/*
** The benchmark matrix: counted sorts, interleaved timed rounds, verification, summaries and
** paired deltas into the one result structure (see run.h for the procedure).
*/
#include "run.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "counting.h"
#include "diag.h"
#include "element.h"
#include "progress.h"
#include "stats.h"
#include "verify.h"

#define WORK_ALIGN 4096           /* page-aligned work buffers: no cache-line straddling */
#define DEFAULT_REPS_BUDGET (UINT64_C(1) << 23) /* element-sorts per cell, about */
#define DEFAULT_REPS_MIN 3
#define DEFAULT_REPS_MAX 31
#define STOPPED (-100)            /* internal: a signal asked the run to stop */

uint64_t qsb_default_reps(uint64_t nelem)
{
    uint64_t reps = DEFAULT_REPS_BUDGET / (nelem ? nelem : 1);
    reps |= 1; /* odd: the median is one sample, not the mean of two */
    if (reps < DEFAULT_REPS_MIN)
        return DEFAULT_REPS_MIN;
    return reps > DEFAULT_REPS_MAX ? DEFAULT_REPS_MAX : reps;
}

static size_t fixed_min_rounds(void *state, const qsb_cell *cell)
{
    uint64_t reps = *(const uint64_t *)state;
    return (size_t)(reps ? reps : qsb_default_reps(cell->nelem));
}

qsb_rep_policy qsb_fixed_rep_policy(uint64_t *reps)
{
    return (qsb_rep_policy){fixed_min_rounds, NULL, reps};
}

typedef struct {
    const qsb_run_setup *setup;
    const qsb_run_config *cfg;
    unsigned char *input;        /* the cell's input, generated once */
    unsigned char *work;         /* what each sort sorts */
    size_t n, size, bytes;       /* of the current cell */
    qsb_cmp_fn cmp;
    qsb_multiset_hash input_hash;
    qsb_run_totals *totals;
} run_state;

static bool stop_requested(const run_state *s)
{
    return *s->setup->stop != 0;
}

/* Verifies the work buffer after row's sort; marks the row failed when it is wrong. */
static int check_result(run_state *s, qsb_row *row)
{
    char reason[128];
    if (qsb_verify_sorted_permutation(s->work, s->n, s->size, s->cmp, NULL, &s->input_hash,
                                      reason, sizeof reason))
        return QSB_OK;
    return qsb_row_fail(row, reason) == 0 ? QSB_OK : qsb_out_of_memory("result");
}

static int counted_sorts(run_state *s, qsb_cell *cell)
{
    for (size_t i = 0; i < cell->nrows; i++) {
        memcpy(s->work, s->input, s->bytes);
        cell->rows[i].comparisons = qsb_count_comparisons(s->cfg->algos[i].sort, s->work, s->n,
                                                          s->size, s->cmp, NULL);
        int status = check_result(s, &cell->rows[i]);
        if (status != QSB_OK)
            return status;
        if (stop_requested(s))
            return STOPPED;
    }
    return QSB_OK;
}

/* The comparisons metric: the count of the counted sort is the one exact sample. */
static int comparisons_as_samples(qsb_cell *cell)
{
    for (size_t i = 0; i < cell->nrows; i++)
        if (cell->rows[i].verified &&
            qsb_row_add_sample(&cell->rows[i], (double)cell->rows[i].comparisons) != 0)
            return qsb_out_of_memory("samples");
    return QSB_OK;
}

static int timed_sort(run_state *s, size_t algo, qsb_row *row)
{
    const qsb_timer *timer = s->setup->timer;
    qsb_sort_fn sort = s->cfg->algos[algo].sort;
    memcpy(s->work, s->input, s->bytes); /* outside the interval; writes every page */
    uint64_t start = qsb_timer_start(timer);
    sort(s->work, s->n, s->size, s->cmp, NULL);
    uint64_t stop = qsb_timer_stop(timer);
    int status = check_result(s, row);
    if (status != QSB_OK || !row->verified)
        return status; /* a wrong result's time is not a sample */
    s->totals->timed_ns += qsb_timer_to_ns(timer, stop - start);
    return qsb_row_add_sample(row, (double)(stop - start)) == 0 ? QSB_OK
                                                                : qsb_out_of_memory("samples");
}

/* One round: every verified algorithm once, forward in even rounds, backward in odd ones. */
static int timed_round(run_state *s, qsb_cell *cell, size_t round)
{
    for (size_t k = 0; k < cell->nrows; k++) {
        size_t i = round % 2 == 0 ? k : cell->nrows - 1 - k;
        if (!cell->rows[i].verified)
            continue;
        int status = timed_sort(s, i, &cell->rows[i]);
        if (status != QSB_OK)
            return status;
        if (stop_requested(s))
            return STOPPED;
    }
    return QSB_OK;
}

static bool any_verified(const qsb_cell *cell)
{
    for (size_t i = 0; i < cell->nrows; i++)
        if (cell->rows[i].verified)
            return true;
    return false;
}

static int timed_rounds(run_state *s, qsb_cell *cell)
{
    const qsb_rep_policy *policy = &s->setup->policy;
    size_t min_rounds = policy->min_rounds(policy->state, cell);
    uint64_t cell_start = qsb_clock_ns();
    size_t rounds = 0;
    while (any_verified(cell)) {
        int status = timed_round(s, cell, rounds);
        if (status != QSB_OK)
            return status;
        rounds++;
        if (rounds < min_rounds)
            continue;
        double elapsed_s = (double)(qsb_clock_ns() - cell_start) / 1e9;
        if (!policy->go_on || !policy->go_on(policy->state, cell, rounds, elapsed_s))
            break;
    }
    return QSB_OK;
}

static int summarize_cell(qsb_cell *cell)
{
    for (size_t i = 0; i < cell->nrows; i++)
        if (qsb_summarize(cell->rows[i].samples, cell->rows[i].nsamples,
                          &cell->rows[i].summary) != 0)
            return qsb_out_of_memory("statistics");
    const qsb_row *base = &cell->rows[0];
    for (size_t i = 1; i < cell->nrows && base->verified; i++) {
        qsb_row *row = &cell->rows[i];
        size_t pairs = row->nsamples < base->nsamples ? row->nsamples : base->nsamples;
        if (row->verified && qsb_paired_delta(base->samples, row->samples, pairs,
                                              &row->delta_pct, &row->delta_lo,
                                              &row->delta_hi) != 0)
            row->delta_pct = row->delta_lo = row->delta_hi = NAN;
    }
    return QSB_OK;
}

static int run_cell(run_state *s, qsb_cell *cell, const qsb_pattern *pattern)
{
    qsb_generate(pattern, s->input, s->n, s->size, s->cfg->seed, s->cfg->mode);
    s->input_hash = qsb_multiset_hash_of(s->input, s->n, s->size);
    s->cmp = qsb_comparator(s->size);
    int status = counted_sorts(s, cell);
    if (status == QSB_OK)
        status = s->cfg->metric == QSB_METRIC_COMPARISONS ? comparisons_as_samples(cell)
                                                          : timed_rounds(s, cell);
    return status == QSB_OK ? summarize_cell(cell) : status;
}

static size_t largest_input(const qsb_run_config *cfg)
{
    size_t largest = 0;
    for (size_t i = 0; i < cfg->n_nelem; i++)
        for (size_t j = 0; j < cfg->n_sizes; j++)
            if (cfg->nelem[i] * cfg->sizes[j] > largest)
                largest = (size_t)(cfg->nelem[i] * cfg->sizes[j]);
    return largest;
}

static void *alloc_work(size_t bytes)
{
    size_t rounded = (bytes + WORK_ALIGN - 1) / WORK_ALIGN * WORK_ALIGN;
    return aligned_alloc(WORK_ALIGN, rounded ? rounded : WORK_ALIGN);
}

/* Runs the cell and appends it; a stopped cell is dropped. */
static int add_cell(run_state *s, qsb_results *results, const qsb_pattern *pattern,
                    uint64_t size, uint64_t nelem, const char *const *names)
{
    qsb_cell *cell = qsb_results_add_cell(results, pattern->name, nelem, size, names,
                                          s->cfg->n_algos);
    if (!cell)
        return qsb_out_of_memory("results");
    s->n = (size_t)nelem;
    s->size = (size_t)size;
    s->bytes = s->n * s->size;
    int status = run_cell(s, cell, pattern);
    if (status == STOPPED) {
        qsb_results_drop_last_cell(results);
        results->context.incomplete = true;
    }
    return status;
}

static void progress_label(char *buf, size_t len, const char *pattern, uint64_t nelem,
                           uint64_t size)
{
    snprintf(buf, len, "%s n=%llu size=%llu", pattern, (unsigned long long)nelem,
             (unsigned long long)size);
}

/* The cells in the cover letter's order: pattern, then element size, then count. */
static int run_all_cells(run_state *s, qsb_results *results, const char *const *names)
{
    const qsb_run_config *cfg = s->cfg;
    size_t done = 0;
    int status = QSB_OK;
    if (stop_requested(s)) { /* before the first cell */
        results->context.incomplete = true;
        return STOPPED;
    }
    for (size_t p = 0; p < cfg->n_patterns && status == QSB_OK; p++)
        for (size_t z = 0; z < cfg->n_sizes && status == QSB_OK; z++)
            for (size_t e = 0; e < cfg->n_nelem && status == QSB_OK; e++, done++) {
                char label[96];
                progress_label(label, sizeof label, cfg->patterns[p]->name, cfg->nelem[e],
                               cfg->sizes[z]);
                qsb_progress_update(done, label);
                status = add_cell(s, results, cfg->patterns[p], cfg->sizes[z], cfg->nelem[e],
                                  names);
            }
    return status;
}

static size_t count_failed(const qsb_results *results)
{
    size_t failed = 0;
    for (size_t c = 0; c < results->ncells; c++)
        for (size_t i = 0; i < results->cells[c].nrows; i++)
            failed += !results->cells[c].rows[i].verified;
    return failed;
}

int qsb_run_matrix(const qsb_run_setup *setup, qsb_results *results, qsb_run_totals *totals)
{
    const qsb_run_config *cfg = setup->config;
    run_state s = {setup, cfg, NULL, NULL, 0, 0, 0, NULL, {0, 0}, totals};
    size_t largest = largest_input(cfg);
    const char **names = malloc(cfg->n_algos * sizeof *names);
    s.input = alloc_work(largest);
    s.work = alloc_work(largest);
    int status = QSB_OK;
    if (!names || !s.input || !s.work) {
        status = qsb_out_of_memory("input buffers");
        goto done;
    }
    for (size_t i = 0; i < cfg->n_algos; i++)
        names[i] = cfg->algos[i].name;
    qsb_progress_begin(cfg->n_patterns * cfg->n_sizes * cfg->n_nelem, setup->progress);
    status = run_all_cells(&s, results, names);
    qsb_progress_end();
    if (status == STOPPED)
        status = QSB_OK;
    totals->failed = count_failed(results);
    if (status == QSB_OK && totals->failed > 0)
        status = QSB_FINDING;
done:
    free(names);
    free(s.input);
    free(s.work);
    return status;
}
