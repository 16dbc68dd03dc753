/*
** The benchmark matrix: sweeps over the cells under the schedule, each in a new placement, and
** the visits of a cell: its input, at the first visit the counted sorts and the batch sizes,
** warm-ups and a slice of interleaved timed rounds, in the work buffers; then the summaries
** and paired deltas over units into the one result structure, with the time of each step
** accounted for. The procedure: docs/measurement.md, "Cells, rounds and the visit".
**
** In this order: the matrix's state from visit to visit; the work buffers and the checks
** after each sort; the cells' summaries; the sorts of a visit; the sweeps and the visits.
*/
#include "run.h"

#include <math.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "canary.h"
#include "counting.h"
#include "diag.h"
#include "plan.h"
#include "progress.h"
#include "verify.h"

#define WORK_ALIGN 4096           /* page-aligned work buffers: no cache-line straddling */
#define SLOT_ALIGN 64             /* batch slots start on cache lines */
#define BATCH_BYTES (1u << 20)    /* the work buffer holds at least this many slot bytes */
#define STOPPED (-100)            /* internal: a signal asked the run to stop */
#define PROBE_BELOW 4.0           /* sorts shorter than 4 minimum samples get batch probes */

/* What a cell's visits carry over for one algorithm. */
typedef struct {
    double counted_s; /* its counted sort's duration */
    size_t batch;     /* sorts per timed sample */
    double fastest;   /* its fastest sample so far (the slowed rule's reference) */
} algo_plan;

/* A plug-in's own work buffer: plug-in code may write into an array after its sort returned
** (a detached thread), and such a write must land where no other algorithm's sort works. The
** last result checked in it is sealed (canary.h) and checked against the seal before the
** buffer is used again and at the end of every visit: a change FAILs the plug-in's row of the
** cell that result came from. The registry's sorts (this project's code) share one buffer. */
typedef struct {
    unsigned char *data;    /* NULL: the algorithm sorts in the shared buffer */
    size_t sealed_span;     /* bytes of the sealed result; 0: nothing sealed */
    size_t sealed_cell;     /* the results' cell the sealed result belongs to */
    unsigned long long seal;
} own_buffer;

#define LATE_WRITE_CAUSE "wrote into the array after returning"

/* A cell of the matrix and how far it got: cells are visited sweep after sweep. */
typedef struct {
    const qsb_pattern *pattern;
    uint64_t nelem, size;
    bool visited;        /* its cell exists in the results (at `index`) */
    bool done;           /* no more visits: none of its rows is left, or counts are exact */
    bool modelled;       /* counts, batches and first estimates from the model (run.h) */
    size_t index;
    size_t rounds;       /* complete timed rounds so far */
    size_t units;        /* visits that timed a round: the unit of the next samples */
    double visits_s;     /* the time of its visits, all steps included */
    qsb_multiset_hash input_hash; /* of its input, which every visit regenerates the same */
    unsigned char *kept_input; /* its input kept between visits (within QSB_KEPT_INPUTS_BYTES),
                               ** else NULL: generated again at each visit */
    algo_plan *algos;    /* per algorithm */
} cell_plan;

/* The matrix's state from its first visit to its summaries. */
typedef struct {
    const qsb_run_setup *setup;
    const qsb_run_config *cfg;
    qsb_results *results;
    cell_plan *plans;            /* every cell, in the cover letter's order */
    size_t nplans;
    unsigned char *input;        /* the cell's input, generated at each visit when not kept */
    const unsigned char *in;     /* the current cell's input: `input`, the one kept or the
                                 ** run's shared one (shared_inputs.h) */
    size_t kept_bytes;           /* inputs kept so far */
    unsigned char *work;         /* what each sort sorts: one input, or a batch's slots (the
                                 ** shared buffer, or the current plug-in's own) */
    unsigned char *shared;       /* the registry's sorts' work buffer */
    own_buffer *own;             /* per algorithm */
    size_t cell_index;           /* the current visit's cell in the results */
    size_t work_bytes;           /* each work buffer's capacity */
    size_t zone;                 /* the canary zone either side of it, and of spare */
    size_t input_bytes;          /* the input buffer's */
    size_t n, size, bytes;       /* of the current cell */
    size_t stride;               /* bytes from one batch slot to the next */
    qsb_compare cmp;
    qsb_multiset_hash input_hash;
    unsigned char *spare;        /* a second work buffer, or NULL: every result is hashed */
    const unsigned char *reference; /* the visit's first verified result, in a work buffer */
    bool reference_valid;
    bool swap_pending;           /* the reference is in `work`: swap it with `spare` */
    size_t warmed_bytes;         /* the largest scratch warm_scratch has prepared */
    qsb_run_totals *totals;
    uint64_t run_start;          /* for the progress line's estimate */
    size_t kept, kept_shared;    /* cells finished (with their minimum of units), and in
                                 ** the last snapshot */
    bool grown;                  /* a finished cell has samples the last snapshot lacks */
} matrix_state;

/* The timed sort of algorithm i in the current placement. */
static qsb_sort_fn timed_sort_fn(const matrix_state *s, size_t i)
{
    return qsb_placement_sort(s->setup->placement, i);
}

/* Asked here, or passed on by the parent watching this process (visit_record.h). */
static bool stop_requested(const matrix_state *s)
{
    return *s->setup->stop != 0 || qsb_visit_stop(s->setup->record) != 0;
}

/* Nanoseconds since `since`, added to a bucket of the totals. */
static void charge(double *bucket, uint64_t since)
{
    *bucket += (double)(qsb_clock_ns() - since);
}

/* Timer counts per nanosecond: samples are in the timer's unit. */
static double counts_per_ns(const qsb_timer *timer)
{
    return timer->kind == QSB_TIMER_TSC ? timer->tsc_hz / 1e9 : 1.0;
}

static unsigned char *slot(const matrix_state *s, size_t k)
{
    return s->work + k * s->stride;
}

/* Which visit of its cell a visit is: the first chooses the batch size. */
typedef enum { QSB_FIRST_VISIT, QSB_REVISIT } qsb_visit_kind;

/* ---- The work buffers: the input copied into a batch's slots between canary zones, the
** after-sort checks (inside the array, then sorted and a permutation of the input, the first
** verified result kept as the visit's reference), and the plug-ins' own buffers, whose last
** checked result is sealed against late writes. ---- */

/* The bytes of the work buffer that k slots span: the canary zone after them starts there. */
static size_t slots_span(const matrix_state *s, size_t k)
{
    return (k - 1) * s->stride + s->bytes;
}

/* The input into the first k slots of the work buffer, and the canary zones either side of
** them armed: outside any interval, and writing every page the sorts will touch. */
static void matrix_copy_input(matrix_state *s, size_t k)
{
    uint64_t t0 = qsb_clock_ns();
    for (size_t i = 0; i < k; i++)
        memcpy(slot(s, i), s->in, s->bytes);
    qsb_canary_arm(s->work, slots_span(s, k), s->zone);
    charge(&s->totals->copy_ns, t0);
}

/* Is the result in slot i right? The full check (verify.h) orders by the executable's own
** comparator (the same source as the unit's copy), which verify.c recognises and replaces by
** inline key comparisons. The visit's first result to pass it is kept where it is (the work
** buffers then swap: no copy): a result with the same bytes as a verified one is verified,
** and a memcmp costs much less than the hashing pass. Most right results have those bytes:
** all where elements of equal keys are equal bytes, and every stable sort's; an unstable
** sort's differ where equal keys carry other bytes (the random patterns' 32-byte elements),
** and such a result, like a wrong one, gets the full check, which also names what is wrong. */
static bool slot_right(matrix_state *s, size_t i, char *reason, size_t reason_len)
{
    const unsigned char *result = slot(s, i);
    if (s->reference_valid && memcmp(result, s->reference, s->bytes) == 0)
        return true;
    if (!qsb_verify_sorted_permutation(result, s->n, s->size, qsb_comparator(s->size), NULL,
                                       &s->input_hash, reason, reason_len))
        return false;
    if (s->spare && !s->reference_valid && s->work == s->shared) {
        s->reference = result;
        s->reference_valid = s->swap_pending = true;
    }
    return true;
}

/* The buffer holding the new reference leaves the sorts' use: the next copies go to the
** other one (both page-aligned, like every work buffer: where the data sits made no
** difference here, docs/measurement.md). */
static void keep_reference(matrix_state *s)
{
    unsigned char *kept = s->shared;
    s->shared = s->work = s->spare;
    s->spare = kept;
    s->swap_pending = false;
}

/* Did the sorts stay inside their slots? Checked before the results: a sort that writes past
** its slot every time reaches a zone at the last slot (past the end) or the first (before
** the start), while the slots between only see a neighbour's bytes change. */
static bool inside_the_array(const matrix_state *s, size_t k, char *reason, size_t reason_len)
{
    bool below;
    if (qsb_canary_intact(s->work, slots_span(s, k), s->zone, &below))
        return true;
    snprintf(reason, reason_len, "wrote outside the array: %s",
             below ? "before its start" : "past its end");
    return false;
}

/* Verifies the first k slots after row's sorts; marks the row failed when one is wrong. */
static int matrix_check_slots(matrix_state *s, qsb_row *row, size_t k)
{
    uint64_t t0 = qsb_clock_ns();
    char reason[128];
    bool ok = inside_the_array(s, k, reason, sizeof reason);
    for (size_t i = 0; i < k && ok; i++)
        ok = slot_right(s, i, reason, sizeof reason);
    if (s->swap_pending)
        keep_reference(s);
    charge(&s->totals->verify_ns, t0);
    if (ok)
        return QSB_OK;
    return qsb_row_fail(row, reason) == 0 ? QSB_OK : qsb_out_of_memory("result");
}

/* Algorithm algo's buffer becomes the one the next sorts use. */
static void matrix_use_buffer(matrix_state *s, size_t algo)
{
    s->work = s->own[algo].data ? s->own[algo].data : s->shared;
}

/* After algo's result in the first k slots passed its checks: sealed, when in its own buffer. */
static void matrix_seal_result(matrix_state *s, size_t algo, const qsb_row *row, size_t k)
{
    own_buffer *b = &s->own[algo];
    if (!b->data || !row->verified)
        return;
    uint64_t t0 = qsb_clock_ns();
    b->sealed_span = slots_span(s, k);
    b->sealed_cell = s->cell_index;
    b->seal = qsb_canary_seal(b->data, b->sealed_span, s->zone);
    charge(&s->totals->verify_ns, t0);
}

/* Is algo's sealed result as it was checked? When not, its row of that cell FAILs. */
static int matrix_check_sealed(matrix_state *s, size_t algo)
{
    own_buffer *b = &s->own[algo];
    if (!b->data || b->sealed_span == 0)
        return QSB_OK;
    uint64_t t0 = qsb_clock_ns();
    bool intact = qsb_canary_sealed_intact(b->data, b->sealed_span, s->zone, b->seal);
    charge(&s->totals->verify_ns, t0);
    b->sealed_span = 0;
    qsb_row *row = &s->results->cells[b->sealed_cell].rows[algo];
    if (intact || !row->verified)
        return QSB_OK;
    return qsb_row_fail(row, LATE_WRITE_CAUSE) == 0 ? QSB_OK : qsb_out_of_memory("result");
}

/* After a plug-in's sorts: has its code taken what this process needs to report (its
** descriptors, its limit of open files; visit_record.h)? Then the process cannot go on: it
** ends inside the plug-in's sorts with the cause, and its parent measures the others again. */
static void matrix_check_process(const matrix_state *s, size_t algo)
{
    char cause[QSB_VISIT_CAUSE_BYTES];
    if (s->own[algo].data && s->setup->record && !qsb_visit_process_intact(cause, sizeof cause))
        qsb_visit_abandon(s->setup->record, algo, cause);
}

/* Every sealed result, at the end of a visit. */
static int matrix_check_all_sealed(matrix_state *s)
{
    int status = QSB_OK;
    for (size_t i = 0; i < s->cfg->n_algos && status == QSB_OK; i++)
        status = matrix_check_sealed(s, i);
    return status;
}

/* A second work buffer, for the verified result, beside the buffers that must fit (runner.c
** checks three of the largest input): while four fit in the memory available. */
static bool matrix_spare_fits(size_t bytes)
{
    uint64_t available = qsb_available_memory();
    return available == 0 || bytes <= available / 4;
}

/* Plug-ins' own work buffers (the registry's sorts share s->shared). */
static bool matrix_alloc_own_buffers(matrix_state *s)
{
    s->own = calloc(s->cfg->n_algos ? s->cfg->n_algos : 1, sizeof *s->own);
    for (size_t i = 0; s->own && i < s->cfg->n_algos; i++)
        if (qsb_plugins_has(s->setup->plugins, s->cfg->algos[i].sort) &&
            !(s->own[i].data = qsb_canary_alloc(s->work_bytes, s->zone)))
            return false;
    return s->own != NULL;
}

static void matrix_free_own_buffers(matrix_state *s)
{
    for (size_t i = 0; s->own && i < s->cfg->n_algos; i++)
        qsb_canary_free(s->own[i].data, s->zone);
    free(s->own);
}

/* ---- The cells' summaries: the precision of a cell's intervals over units (stats.h), which
** decides when a cell has enough; the summaries and paired deltas of every cell with its
** minimum of units; the noisy and mostly-slowed rows; the time level's widening of every
** interval (stats.h qsb_drift). ---- */

/* The half-width of row i's interval in % of its estimate: its median's, and for a
** candidate beside a verified baseline the wider of that and its paired ratio's. INFINITY
** while there is none. */
static double row_precision_pct(const qsb_cell *cell, size_t i)
{
    const qsb_row *row = &cell->rows[i], *base = &cell->rows[0];
    qsb_unit_spread spread;
    if (qsb_unit_spread_of(row->samples, row->units, row->nsamples, &spread) != 0)
        return INFINITY;
    double pct = qsb_unit_precision_pct(&spread);
    if (i == 0 || !base->verified)
        return pct;
    size_t pairs = row->nsamples < base->nsamples ? row->nsamples : base->nsamples;
    if (qsb_paired_ratio_spread(base->samples, row->samples, row->units, pairs, &spread) != 0)
        return INFINITY;
    return fmax(pct, qsb_unit_precision_pct(&spread));
}

/* The widest interval of the cell's verified rows; 0 when none is left to measure. */
static double matrix_cell_precision_pct(const qsb_cell *cell)
{
    double widest = 0;
    for (size_t i = 0; i < cell->nrows; i++)
        if (cell->rows[i].verified)
            widest = fmax(widest, row_precision_pct(cell, i));
    return widest;
}

static int summarize_cell(qsb_cell *cell)
{
    for (size_t i = 0; i < cell->nrows; i++)
        if (qsb_summarize_units(cell->rows[i].samples, cell->rows[i].units,
                                cell->rows[i].nsamples, &cell->rows[i].summary) != 0)
            return qsb_out_of_memory("statistics");
    const qsb_row *base = &cell->rows[0];
    for (size_t i = 1; i < cell->nrows && base->verified; i++) {
        qsb_row *row = &cell->rows[i];
        size_t pairs = row->nsamples < base->nsamples ? row->nsamples : base->nsamples;
        if (row->verified &&
            qsb_paired_delta_units(base->samples, row->samples, row->units, pairs,
                                   &row->delta_pct, &row->delta_lo, &row->delta_hi) != 0)
            row->delta_pct = row->delta_lo = row->delta_hi = NAN;
    }
    return QSB_OK;
}

/* A row of short sorts whose median is more than QSB_SLOWED_FLAG_PCT % above its fastest
** sample (docs/measurement.md, "Slowed samples"): the machine was slowed for most of its
** samples, so its median (and delta) is the busy machine's. *factor: median / fastest. */
static bool mostly_slowed(const matrix_state *s, const qsb_row *row, double *factor)
{
    const qsb_summary *sum = &row->summary;
    if (s->cfg->metric == QSB_METRIC_COMPARISONS) /* exact counts, and no timer */
        return false;
    if (!row->verified || !(sum->min > 0))
        return false;
    double sample_ns = qsb_timer_to_ns(s->setup->timer, 1) * sum->median *
                       (double)(row->batch ? row->batch : 1);
    if (!(sample_ns <= QSB_RETAKE_LIMIT_S * 1e9))
        return false;
    *factor = sum->median / sum->min;
    return *factor > 1 + QSB_SLOWED_FLAG_PCT / 100;
}

/* Noisy rows: a reported interval (the median's, and a candidate's delta) missing or wider
** than the precision, or mostly slowed. */
static void flag_noisy_rows(const matrix_state *s, qsb_cell *cell)
{
    bool exact = s->cfg->metric == QSB_METRIC_COMPARISONS;
    for (size_t i = 0; i < cell->nrows; i++) {
        double factor;
        qsb_row *row = &cell->rows[i];
        double pct = qsb_row_interval_pct(cell, i);
        if (row->verified && !exact)
            row->noisy = !(pct <= s->cfg->precision_pct) || /* the schedule's: 0 for a gate */
                         mostly_slowed(s, row, &factor);
    }
}

/* The time level (stats.h qsb_drift): the run's factors, pooled over its rows, for the deltas
** (paired ratios) and for the medians, recorded in the context and applied to every interval.
** Exact counts have no intervals. */
static int widen_for_drift(matrix_state *s)
{
    qsb_results *r = s->results;
    r->context.drift_ratios = r->context.drift_medians = NAN;
    if (s->cfg->metric == QSB_METRIC_COMPARISONS)
        return QSB_OK;
    return qsb_widen_for_time(r) == 0 ? QSB_OK : qsb_out_of_memory("statistics");
}

/* Every cell with its minimum of units (or exact counts) is summarized, in the cells' order;
** the others (an interrupted run's) are dropped: without an interval they would be numbers
** nobody could judge. */
static int matrix_finish_cells(matrix_state *s)
{
    qsb_results *r = s->results;
    size_t kept = 0;
    int status = QSB_OK;
    for (size_t i = 0; i < s->nplans && status == QSB_OK; i++) {
        cell_plan *p = &s->plans[i];
        if (!p->visited)
            continue;
        qsb_cell *cell = &r->cells[p->index];
        if (!p->done && p->units < s->setup->schedule.min_units)
            continue;
        status = summarize_cell(cell);
        s->totals->cells_done++;
        qsb_cell moved = r->cells[kept]; /* earlier moves only touched positions below */
        r->cells[kept] = *cell;
        *cell = moved;
        kept++;
    }
    while (r->ncells > kept)
        qsb_results_drop_last_cell(r);
    if (status == QSB_OK)
        status = widen_for_drift(s);
    for (size_t c = 0; c < r->ncells && status == QSB_OK; c++) {
        flag_noisy_rows(s, &r->cells[c]);
        for (size_t k = 0; k < r->cells[c].nrows; k++)
            if (r->cells[c].rows[k].noisy) {
                s->totals->noisy_cells++;
                break;
            }
    }
    return status;
}

static size_t matrix_count_failed(const qsb_results *results)
{
    size_t failed = 0;
    for (size_t c = 0; c < results->ncells; c++)
        for (size_t i = 0; i < results->cells[c].nrows; i++)
            failed += !results->cells[c].rows[i].verified;
    return failed;
}

/* ---- The sorts of a visit: the counted sorts of a first visit (or the model's products
** instead), warm-ups, the batch size and its probes, timed samples with preempted and slowed
** ones retaken, and the interleaved rounds. Only the sort is inside the timed interval; the
** copies and the checks are outside. ---- */

static int matrix_counted_sorts(matrix_state *s, cell_plan *plan, qsb_cell *cell)
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
static const qsb_cell *matrix_model_of(const matrix_state *s, const qsb_cell *cell)
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
static void matrix_take_from_model(const matrix_state *s, cell_plan *plan, qsb_cell *cell,
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
static void matrix_warm_scratch(matrix_state *s)
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
static int matrix_comparisons_as_samples(qsb_cell *cell)
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
static int matrix_prepare_algorithm(matrix_state *s, cell_plan *plan, size_t algo, qsb_row *row,
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
static int matrix_timed_round(matrix_state *s, cell_plan *plan, qsb_cell *cell, size_t round)
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

/* ---- The sweeps and the visits. ---- */

static size_t round_up(size_t bytes, size_t align)
{
    return (bytes + align - 1) / align * align;
}

static bool any_verified(const qsb_cell *cell)
{
    for (size_t i = 0; i < cell->nrows; i++)
        if (cell->rows[i].verified)
            return true;
    return false;
}

static size_t cells_with_minimum(const matrix_state *s)
{
    size_t done = 0;
    for (size_t i = 0; i < s->nplans; i++)
        done += s->plans[i].done || s->plans[i].units >= s->setup->schedule.min_units;
    return done;
}

static double elapsed_s(const matrix_state *s)
{
    return (double)(qsb_clock_ns() - s->run_start) / 1e9;
}

/* Seconds left: the budget's rest, or with --reps (no budget) the minimum's rest at the
** cost per visit so far. */
static double remaining_s(const matrix_state *s)
{
    const qsb_schedule_policy *p = &s->setup->schedule;
    if (p->budget_s > 0)
        return fmax(p->budget_s - elapsed_s(s), 0.0);
    double spent = 0, visits = 0, left = 0;
    for (size_t i = 0; i < s->nplans; i++) {
        spent += s->plans[i].visits_s;
        visits += (double)s->plans[i].units;
        left += s->plans[i].done || s->plans[i].units >= p->min_units
                    ? 0.0
                    : (double)(p->min_units - s->plans[i].units);
    }
    return visits > 0 ? left * spent / visits : -1.0;
}

static void show_progress(const matrix_state *s, const cell_plan *plan, size_t sweep)
{
    char label[96];
    snprintf(label, sizeof label, "unit %zu: %s n=%llu size=%llu", sweep, plan->pattern->name,
             (unsigned long long)plan->nelem, (unsigned long long)plan->size);
    qsb_progress_update(cells_with_minimum(s), label, remaining_s(s));
}

/* Rounds of one unit: for slice_s seconds (at least one round), or with --reps the unit's
** share of them. */
static int timed_slice(matrix_state *s, cell_plan *plan, qsb_cell *cell)
{
    size_t reps = (size_t)s->cfg->reps;
    size_t share = reps ? qsb_reps_rounds_of_unit(reps, s->setup->schedule.min_units,
                                                  plan->units)
                        : SIZE_MAX;
    uint64_t slice_start = qsb_clock_ns();
    for (size_t r = 0; r < share && any_verified(cell); r++) {
        int status = matrix_timed_round(s, plan, cell, plan->rounds + s->setup->round_offset);
        if (status != QSB_OK)
            return status;
        uint64_t now = qsb_clock_ns();
        plan->rounds++;
        qsb_progress_tick();
        if (!reps && (double)(now - slice_start) / 1e9 >= s->setup->slice_s)
            break;
    }
    plan->done = !any_verified(cell);
    return QSB_OK;
}

static void count_near_units(matrix_state *s, qsb_cell *cell)
{
    for (size_t i = 0; i < cell->nrows; i++)
        cell->rows[i].near_units += qsb_placement_near(s->setup->placement, i, s->size);
}

/* The rows of the algorithms the record excludes fail with its cause, unmeasured. */
static bool fail_excluded(const matrix_state *s, qsb_cell *cell)
{
    for (size_t i = 0; i < cell->nrows; i++) {
        const char *cause = qsb_visit_excluded(s->setup->record, i);
        if (cause && qsb_row_fail(&cell->rows[i], cause) != 0)
            return false;
    }
    return true;
}

/* The cell of the results a plan fills, created (in the plans' order) at its first visit. */
static qsb_cell *cell_of(matrix_state *s, cell_plan *plan, const char *const *names)
{
    if (!plan->visited) {
        if (!qsb_results_add_cell(s->results, plan->pattern->name, plan->nelem, plan->size,
                                  names, s->cfg->n_algos) ||
            !fail_excluded(s, &s->results->cells[s->results->ncells - 1]))
            return NULL;
        plan->index = s->results->ncells - 1;
        plan->visited = true;
    }
    return &s->results->cells[plan->index];
}

static void generate_input(matrix_state *s, cell_plan *plan, bool first_visit)
{
    s->n = (size_t)plan->nelem;
    s->size = (size_t)plan->size;
    s->bytes = s->n * s->size;
    s->stride = round_up(s->bytes ? s->bytes : 1, SLOT_ALIGN);
    uint64_t t0 = qsb_clock_ns();
    s->reference_valid = false;
    s->cmp = qsb_placement_comparator(s->setup->placement, s->size);
    if (s->setup->inputs &&
        qsb_shared_inputs_map(s->setup->inputs, plan->pattern->name, plan->nelem, plan->size,
                              s->cfg->seed, s->cfg->mode, &s->in, &s->input_hash)) {
        charge(&s->totals->generate_ns, t0);
        return;
    }
    /* Kept only for a later visit: a kept input lands in fresh pages, and with one visit per
    ** cell (a worker process) faulting them in was 4% of the process's time. */
    if (first_visit && qsb_schedule_revisits(&s->setup->schedule) &&
        s->kept_bytes + s->bytes <= QSB_KEPT_INPUTS_BYTES &&
        (plan->kept_input = malloc(s->bytes ? s->bytes : 1)) != NULL)
        s->kept_bytes += s->bytes;
    s->in = plan->kept_input ? plan->kept_input : s->input;
    if (first_visit || !plan->kept_input)
        qsb_generate(plan->pattern, plan->kept_input ? plan->kept_input : s->input, s->n,
                     s->size, s->cfg->seed, s->cfg->mode);
    if (first_visit)
        plan->input_hash = qsb_multiset_hash_of(s->in, s->n, s->size);
    s->input_hash = plan->input_hash;
    charge(&s->totals->generate_ns, t0);
}

/* One visit: the input (the run's shared one, else generated again unless kept: all of them
** might not fit),
** at the first visit the counted sorts and the batch sizes, the warm-ups, a unit of rounds. */
static int visit(matrix_state *s, cell_plan *plan, const char *const *names)
{
    uint64_t start = qsb_clock_ns();
    bool first = !plan->visited;
    qsb_visit_cell(s->setup->record, plan->pattern->name, plan->nelem, plan->size);
    qsb_cell *cell = cell_of(s, plan, names);
    if (!cell)
        return qsb_out_of_memory("results");
    s->cell_index = plan->index;
    generate_input(s, plan, first);
    const qsb_cell *model = first ? matrix_model_of(s, cell) : NULL;
    if (model) {
        matrix_take_from_model(s, plan, cell, model);
        matrix_warm_scratch(s);
    }
    int status = first && !model ? matrix_counted_sorts(s, plan, cell) : QSB_OK;
    if (status == QSB_OK && s->cfg->metric == QSB_METRIC_COMPARISONS) {
        plan->done = true;
        status = matrix_comparisons_as_samples(cell);
    } else {
        for (size_t i = 0; i < cell->nrows && status == QSB_OK; i++)
            if (cell->rows[i].verified)
                status = matrix_prepare_algorithm(s, plan, i, &cell->rows[i],
                                                  first ? QSB_FIRST_VISIT : QSB_REVISIT);
        size_t rounds = plan->rounds;
        if (status == QSB_OK)
            status = timed_slice(s, plan, cell);
        if (plan->rounds > rounds) {
            count_near_units(s, cell);
            plan->units++;
        }
    }
    if (status == QSB_OK || status == STOPPED) {
        int sealed = matrix_check_all_sealed(s);
        status = sealed != QSB_OK ? sealed : status;
    }
    plan->visits_s += (double)(qsb_clock_ns() - start) / 1e9;
    return status;
}

static void *alloc_input(size_t bytes)
{
    size_t rounded = round_up(bytes, WORK_ALIGN);
    return aligned_alloc(WORK_ALIGN, rounded ? rounded : WORK_ALIGN);
}

/* A new unit for every cell of the sweep: fresh copies of the sorts. The buffers stay: where
** the data sits (offsets, fresh physical pages) made no difference here (docs/measurement.md),
** and fresh pages would fault inside every unit's copies. */
static int enter_unit(matrix_state *s)
{
    return qsb_placement_enter(s->setup->placement) == 0 ? QSB_OK : QSB_ESYSTEM;
}

static void cell_states(const matrix_state *s, qsb_cell_state *states)
{
    for (size_t i = 0; i < s->nplans; i++) {
        const cell_plan *p = &s->plans[i];
        states[i].units = p->done ? SIZE_MAX : p->units;
        states[i].precision_pct =
            p->visited && !p->done ? matrix_cell_precision_pct(&s->results->cells[p->index])
                                   : 0.0;
        states[i].visit_s = p->units ? p->visits_s / (double)p->units : 0.0;
    }
}

static bool finished(const matrix_state *s, const cell_plan *plan)
{
    return plan->visited && (plan->done || plan->units >= s->setup->schedule.min_units);
}

/* The results as a stop now would leave them (a copy, finished), handed to the snapshot.
** Its failure (out of memory) is not the run's: the owner keeps the previous one. */
static void share_finished(matrix_state *s)
{
    qsb_results copy;
    qsb_run_totals totals = *s->totals;
    matrix_state finishing = *s;
    finishing.results = &copy;
    finishing.totals = &totals;
    if (qsb_results_copy(&copy, s->results) == 0) {
        copy.context.incomplete = true;
        if (matrix_finish_cells(&finishing) == QSB_OK)
            qsb_snapshot_take(s->setup->snapshot, &copy);
        qsb_results_free(&copy);
    }
    s->kept_shared = s->kept;
    s->grown = false;
}

/* A visit of plan, then the snapshot when it is due. */
static int visit_and_share(matrix_state *s, cell_plan *plan, const char *const *names)
{
    bool was_finished = finished(s, plan);
    int status = visit(s, plan, names);
    if (!s->setup->snapshot || status != QSB_OK)
        return status;
    s->kept += !was_finished && finished(s, plan);
    s->grown |= was_finished;
    if (qsb_snapshot_due(s->kept_shared, s->kept))
        share_finished(s);
    return QSB_OK;
}

/* Sweeps while the schedule has visits (schedule.h). */
static int run_schedule(matrix_state *s, const char *const *names)
{
    size_t *order = malloc((s->nplans ? s->nplans : 1) * sizeof *order);
    qsb_cell_state *states = malloc((s->nplans ? s->nplans : 1) * sizeof *states);
    int status = order && states ? QSB_OK : qsb_out_of_memory("schedule");
    for (size_t sweep = 1; status == QSB_OK; sweep++) {
        cell_states(s, states);
        size_t k = qsb_schedule_sweep(&s->setup->schedule, states, s->nplans, remaining_s(s),
                                      order);
        if (k == 0)
            break;
        status = enter_unit(s);
        for (size_t j = 0; j < k && status == QSB_OK; j++) {
            show_progress(s, &s->plans[order[j]], sweep);
            status = visit_and_share(s, &s->plans[order[j]], names);
            if (status == QSB_OK && stop_requested(s))
                status = STOPPED;
        }
        if (status == QSB_OK && s->setup->snapshot && (s->grown || s->kept > s->kept_shared))
            share_finished(s);
    }
    free(order);
    free(states);
    return status;
}

static size_t largest_size(const qsb_run_config *cfg)
{
    size_t largest = 0;
    for (size_t j = 0; j < cfg->n_sizes; j++)
        if (cfg->sizes[j] > largest)
            largest = (size_t)cfg->sizes[j];
    return largest;
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

/* The cells in the cover letter's order: pattern, then element size, then count; each with
** its slices of the shared per-algorithm arrays. */
static void plan_cells(matrix_state *s, algo_plan *algos)
{
    const qsb_run_config *cfg = s->cfg;
    size_t c = 0;
    for (qsb_cell_cursor at = {0}; qsb_run_config_next_cell(cfg, &at); c++) {
        cell_plan *plan = &s->plans[c];
        memset(plan, 0, sizeof *plan);
        plan->pattern = cfg->patterns[at.pattern];
        plan->nelem = cfg->nelem[at.nelem];
        plan->size = cfg->sizes[at.size];
        plan->algos = algos + c * cfg->n_algos;
        for (size_t i = 0; i < cfg->n_algos; i++)
            plan->algos[i] = (algo_plan){0.0, 0, INFINITY};
    }
    s->nplans = c;
}

int qsb_run_matrix(const qsb_run_setup *setup, qsb_results *results, qsb_run_totals *totals)
{
    const qsb_run_config *cfg = setup->config;
    size_t cells = qsb_run_config_cells(cfg), slots = cells * cfg->n_algos;
    matrix_state s;
    memset(&s, 0, sizeof s);
    s.setup = setup;
    s.cfg = cfg;
    s.results = results;
    s.totals = totals;
    s.run_start = qsb_clock_ns();
    s.input_bytes = largest_input(cfg);
    s.work_bytes = round_up(s.input_bytes, WORK_ALIGN);
    if (s.work_bytes < BATCH_BYTES)
        s.work_bytes = BATCH_BYTES;
    const char **names = malloc(cfg->n_algos * sizeof *names);
    s.plans = calloc(cells ? cells : 1, sizeof *s.plans);
    algo_plan *algos = malloc((slots ? slots : 1) * sizeof *algos);
    s.zone = qsb_canary_zone(largest_size(cfg));
    s.input = alloc_input(s.input_bytes);
    s.work = s.shared = qsb_canary_alloc(s.work_bytes, s.zone);
    if (matrix_spare_fits(s.work_bytes))
        s.spare = qsb_canary_alloc(s.work_bytes, s.zone); /* without it, every result is
                                                            ** hashed */
    int status = QSB_OK;
    if (!names || !s.plans || !algos || !s.input || !s.work || !matrix_alloc_own_buffers(&s)) {
        status = qsb_out_of_memory("input buffers");
        goto done;
    }
    for (size_t i = 0; i < cfg->n_algos; i++)
        names[i] = cfg->algos[i].name;
    plan_cells(&s, algos);
    qsb_progress_begin(cells, setup->progress ? QSB_PROGRESS_SHOWN : QSB_PROGRESS_QUIET);
    status = run_schedule(&s, names);
    qsb_visit_leave(setup->record);
    qsb_progress_end();
    if (status == STOPPED) {
        results->context.incomplete = true;
        status = QSB_OK;
    }
    if (status == QSB_OK)
        status = matrix_finish_cells(&s);
    totals->failed_rows = matrix_count_failed(results);
    qsb_visit_cells_returned(setup->record, results->ncells);
    if (status == QSB_OK && totals->failed_rows > 0)
        status = QSB_FINDING;
done:
    for (size_t i = 0; s.plans && i < cells; i++)
        free(s.plans[i].kept_input);
    free(names);
    free(s.plans);
    free(algos);
    free(s.input);
    qsb_canary_free(s.shared, s.zone);
    qsb_canary_free(s.spare, s.zone);
    matrix_free_own_buffers(&s);
    return status;
}
