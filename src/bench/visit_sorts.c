/*
** The sorts of a visit of the matrix (matrix_state.h): the counted sorts of a first visit (or
** the model's products instead), warm-ups, the batch size and its probes, timed samples with
** preempted and slowed ones retaken, and the interleaved rounds. Only the sort is inside the
** timed interval; the copies and the checks are outside. The procedure: docs/measurement.md,
** "Cells, rounds and the visit".
*/
#include "matrix_state.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "counting.h"
#include "diag.h"

int matrix_counted_sorts(matrix_state *s, cell_plan *plan, qsb_cell *cell)
{
    for (size_t i = 0; i < cell->nrows; i++) {
        if (!cell->rows[i].verified)
            continue; /* an excluded algorithm (visit_record.h) */
        qsb_visit_algorithm(s->setup->record, i);
        int status = matrix_check_sealed(s, i);
        if (status != QSB_OK)
            return status;
        if (!cell->rows[i].verified)
            continue;
        matrix_use_buffer(s, i);
        matrix_copy_input(s, 1);
        uint64_t t0 = qsb_clock_ns();
        cell->rows[i].comparisons = qsb_count_comparisons(s->cfg->algos[i].sort, s->work, s->n,
                                                          s->size, s->cmp, NULL);
        plan->algos[i].counted_s = (double)(qsb_clock_ns() - t0) / 1e9;
        matrix_check_process(s, i);
        charge(&s->totals->counted_ns, t0);
        status = matrix_check_slots(s, &cell->rows[i], 1);
        if (status != QSB_OK)
            return status;
        matrix_seal_result(s, i, &cell->rows[i], 1);
        if (stop_requested(s))
            return STOPPED;
    }
    return QSB_OK;
}

/* Scratch at least this large comes from fresh pages on every call, warm or not: glibc's
** malloc maps it (its dynamic mmap threshold stops growing at 32 MiB on 64-bit hosts). */
#define FRESH_SCRATCH_BYTES ((size_t)32 << 20)
#define SCRATCH_MARGIN_BYTES ((size_t)1 << 20) /* below it, for malloc's own headers */

/* The model's cell for this one (the run's first worker's results, run.h): used only when it
** has every row verified (a failure is found, and named, by counting here). */
const qsb_cell *matrix_model_of(const matrix_state *s, const qsb_cell *cell)
{
    if (!s->setup->model || !s->setup->timer)
        return NULL;
    const qsb_cell *m = qsb_results_find_cell(s->setup->model, cell);
    if (!m || m->nrows != cell->nrows)
        return NULL;
    for (size_t i = 0; i < m->nrows; i++)
        if (!m->rows[i].verified || !(m->rows[i].summary.median > 0) || m->rows[i].batch == 0 ||
            strcmp(m->rows[i].algorithm, cell->rows[i].algorithm) != 0)
            return NULL;
    return m;
}

/* A model row's median sort, in seconds (its samples are per sort, in the timer's unit). */
static double model_sort_s(const matrix_state *s, const qsb_row *m)
{
    return m->summary.median * qsb_timer_to_ns(s->setup->timer, 1000000) / 1e15;
}

/* The counted sorts' products, taken from the model instead of sorting: the exact counts
** (deterministic), the batch and a sort's duration (the first estimate). */
void matrix_take_from_model(const matrix_state *s, cell_plan *plan, qsb_cell *cell,
                            const qsb_cell *m)
{
    for (size_t i = 0; i < cell->nrows; i++) {
        cell->rows[i].comparisons = m->rows[i].comparisons;
        plan->algos[i].counted_s = model_sort_s(s, &m->rows[i]);
        plan->algos[i].batch = m->rows[i].batch;
        cell->rows[i].batch = m->rows[i].batch;
    }
    plan->modelled = true;
}

/* A modelled first visit has had no sort before its timed ones, so the allocator may not have
** seen a scratch of the cell's size: an allocating sort's first call would map fresh pages
** (and a second one grow the heap into fresh pages) that every later call of a long-lived
** program finds ready. Two rounds of allocate, touch, free of twice the input's size (just
** under FRESH_SCRATCH_BYTES at most) leave glibc's malloc as a sort's earlier calls would:
** the first raises its dynamic mmap threshold, the second leaves touched pages at the top of
** the heap, which later frees keep (the trim threshold rose too). Done once per size in a
** process: a smaller scratch finds the same pages. Scratch of FRESH_SCRATCH_BYTES and more is
** mapped afresh at every call anyway, warm or not. */
void matrix_warm_scratch(matrix_state *s)
{
    size_t bytes = 2 * s->bytes;
    if (bytes > FRESH_SCRATCH_BYTES - SCRATCH_MARGIN_BYTES)
        bytes = FRESH_SCRATCH_BYTES - SCRATCH_MARGIN_BYTES;
    if (bytes <= s->warmed_bytes)
        return;
    uint64_t t0 = qsb_clock_ns();
    for (int round = 0; round < 2; round++) {
        unsigned char *scratch = malloc(bytes);
        if (!scratch)
            return;
        memset(scratch, 0, bytes);
        free(scratch);
    }
    s->warmed_bytes = bytes;
    charge(&s->totals->warmup_ns, t0);
}

/* The comparisons metric: the count of the counted sort is the one exact sample. */
int matrix_comparisons_as_samples(qsb_cell *cell)
{
    for (size_t i = 0; i < cell->nrows; i++)
        if (cell->rows[i].verified &&
            qsb_row_add_sample(&cell->rows[i], (double)cell->rows[i].comparisons, 0) != 0)
            return qsb_out_of_memory("samples");
    return QSB_OK;
}

static double thread_cpu_ns(void)
{
    struct timespec ts;
    if (clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts) != 0)
        return NAN;
    return (double)ts.tv_sec * 1e9 + (double)ts.tv_nsec;
}

/* k fresh copies, k sorts back to back between two timer reads, then k checks. *counts is
** the interval in timer counts, *cpu_ns the thread's CPU time over the same span (just
** outside the interval). */
static int sort_batch(matrix_state *s, size_t algo, qsb_row *row, size_t k, uint64_t *counts,
                      double *cpu_ns)
{
    const qsb_timer *timer = s->setup->timer;
    qsb_sort_fn sort = timed_sort_fn(s, algo);
    qsb_visit_algorithm(s->setup->record, algo);
    *counts = 0;
    *cpu_ns = 0;
    int status = matrix_check_sealed(s, algo);
    if (status != QSB_OK || !row->verified)
        return status;
    matrix_use_buffer(s, algo);
    matrix_copy_input(s, k);
    double cpu_start = thread_cpu_ns();
    uint64_t start = qsb_timer_start(timer);
    for (size_t i = 0; i < k; i++)
        sort(slot(s, i), s->n, s->size, s->cmp, NULL);
    uint64_t stop = qsb_timer_stop(timer);
    *cpu_ns = thread_cpu_ns() - cpu_start;
    *counts = stop - start;
    matrix_check_process(s, algo);
    status = matrix_check_slots(s, row, k);
    if (status == QSB_OK)
        matrix_seal_result(s, algo, row, k);
    return status;
}

/* An untimed (for the results) batch: a warm-up or a probe. *per_sort: counts per sort. */
static int warmup_batch(matrix_state *s, size_t algo, qsb_row *row, size_t k, double *per_sort)
{
    uint64_t counts;
    double cpu_ns;
    int status = sort_batch(s, algo, row, k, &counts, &cpu_ns);
    *per_sort = (double)counts / (double)k;
    s->totals->warmup_ns += qsb_timer_to_ns(s->setup->timer, counts);
    return status;
}

/* --warmup N, or auto: one untimed sort at each visit where a sort takes less than
** QSB_WARMUP_AUTO_LIMIT_S (after the other cells, its code and data are cold), none in
** longer ones, where a cold start is a negligible part of the sort and, at the first visit,
** the counted sort has just run. */
static uint64_t warmups_of(const matrix_state *s, const cell_plan *plan, size_t algo,
                           const qsb_row *row)
{
    if (s->cfg->warmup != QSB_WARMUP_AUTO)
        return s->cfg->warmup;
    double sort_s = plan->algos[algo].counted_s;
    if (row->nsamples > 0)
        sort_s = qsb_timer_to_ns(s->setup->timer, 1) * row->samples[row->nsamples - 1] / 1e9;
    return sort_s < QSB_WARMUP_AUTO_LIMIT_S ? 1 : 0;
}

/* --batch K, or the batch that makes a sample last QSB_MIN_SAMPLE_NS and 1000 ticks (the
** slots of the work buffer permitting). A short sort's first estimate (a cold warm-up, or
** the slower counted sort) is checked by timing batches of the size it suggests, twice:
** sorts run faster back to back, with code and data in cache. */
static int choose_batch(matrix_state *s, cell_plan *plan, size_t algo, qsb_row *row,
                        double one_sort)
{
    const qsb_timer *timer = s->setup->timer;
    double resolution = timer->kind == QSB_TIMER_TSC ? 1.0 : timer->resolution_ns;
    double min_sample = QSB_MIN_SAMPLE_NS * counts_per_ns(timer);
    size_t most = s->work_bytes / s->stride;
    size_t k = s->cfg->batch ? (size_t)s->cfg->batch
                             : qsb_batch_count(resolution, one_sort, min_sample);
    int status = QSB_OK;
    bool short_sort = !s->cfg->batch &&
                      one_sort < PROBE_BELOW * fmax(min_sample, 1000.0 * resolution);
    for (int probe = 0; probe < 2 && short_sort && status == QSB_OK && row->verified; probe++) {
        k = k < most ? k : most;
        status = warmup_batch(s, algo, row, k, &one_sort);
        k = qsb_batch_count(resolution, one_sort, min_sample);
    }
    plan->algos[algo].batch = k < most ? k : most;
    row->batch = plan->algos[algo].batch;
    return status;
}

/* Warm-ups, then (at the first visit) the batch size. Without a warm-up, the counted sort's
** time (an upper bound: the counting comparator is slower) is the first estimate. */
int matrix_prepare_algorithm(matrix_state *s, cell_plan *plan, size_t algo, qsb_row *row,
                             qsb_visit_kind visit)
{
    bool first_visit = visit == QSB_FIRST_VISIT;
    double one_sort = plan->algos[algo].counted_s * 1e9 * counts_per_ns(s->setup->timer);
    bool batch_known = !first_visit || plan->modelled;
    size_t k = first_visit ? 1 : plan->algos[algo].batch;
    int status = QSB_OK;
    for (uint64_t w = warmups_of(s, plan, algo, row); w > 0 && status == QSB_OK && row->verified;
         w--) {
        status = warmup_batch(s, algo, row, k, &one_sort);
        if (status == QSB_OK && stop_requested(s))
            status = STOPPED;
    }
    if (status == QSB_OK && row->verified && !batch_known)
        status = choose_batch(s, plan, algo, row, one_sort);
    return status;
}

/* Did the process lose the CPU during an interval of wall_ns (docs/measurement.md,
** "Preemption")? Unknown CPU time (NAN) says no. */
static bool disturbed(double wall_ns, double cpu_ns)
{
    return wall_ns - cpu_ns > wall_ns * QSB_DISTURBED_PCT / 100 + QSB_DISTURBED_SLACK_NS;
}

/* One sample: the batch, taken again while it is short and preemption or a slowed machine
** spoiled it. */
static int timed_sort(matrix_state *s, cell_plan *plan, size_t algo, qsb_row *row, uint32_t unit)
{
    algo_plan *a = &plan->algos[algo];
    size_t k = a->batch;
    for (int attempt = 1;; attempt++) {
        uint64_t counts;
        double cpu_ns;
        int status = sort_batch(s, algo, row, k, &counts, &cpu_ns);
        if (status != QSB_OK || !row->verified)
            return status; /* a wrong result's time is not a sample */
        double wall_ns = qsb_timer_to_ns(s->setup->timer, counts);
        double per_sort = (double)counts / (double)k;
        bool preempted = disturbed(wall_ns, cpu_ns);
        bool slow = !preempted &&
                    qsb_sample_slowed(a->fastest, row->nsamples, per_sort, s->cfg->slowed_pct);
        if ((!preempted && !slow) || attempt >= QSB_RETAKE_MAX ||
            wall_ns > QSB_RETAKE_LIMIT_S * 1e9 || stop_requested(s)) {
            s->totals->timed_ns += wall_ns;
            s->totals->kept_preempted += preempted;
            s->totals->kept_slowed += slow;
            a->fastest = fmin(a->fastest, per_sort);
            return qsb_row_add_sample(row, per_sort, unit) == 0 ? QSB_OK
                                                          : qsb_out_of_memory("samples");
        }
        s->totals->retake_ns += wall_ns;
        s->totals->retaken_preempted += preempted;
        s->totals->retaken_slowed += slow;
        row->retaken++;
    }
}

/* One round: every verified algorithm once, forward in even rounds, backward in odd ones. */
int matrix_timed_round(matrix_state *s, cell_plan *plan, qsb_cell *cell, size_t round)
{
    for (size_t k = 0; k < cell->nrows; k++) {
        size_t i = round % 2 == 0 ? k : cell->nrows - 1 - k;
        if (!cell->rows[i].verified)
            continue;
        int status = timed_sort(s, plan, i, &cell->rows[i], (uint32_t)plan->units);
        if (status != QSB_OK)
            return status;
        if (stop_requested(s))
            return STOPPED;
    }
    return QSB_OK;
}
