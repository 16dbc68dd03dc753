/*
** The state of a run's matrix (run.h) from visit to visit, shared by the files that make the
** matrix: the sweeps and the visits (run.c), the work buffers a visit sorts in and the checks
** after its sorts (work_buffers.c), the sorts of a visit: counted, warm-up, batched and timed
** (visit_sorts.c), and the cells' summaries (cell_summary.c). Internal to the matrix: nothing
** outside those files includes it.
*/
#ifndef QSB_MATRIX_STATE_H
#define QSB_MATRIX_STATE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "run.h"
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
static inline qsb_sort_fn timed_sort_fn(const matrix_state *s, size_t i)
{
    return qsb_placement_sort(s->setup->placement, i);
}

/* Asked here, or passed on by the parent watching this process (visit_record.h). */
static inline bool stop_requested(const matrix_state *s)
{
    return *s->setup->stop != 0 || qsb_visit_stop(s->setup->record) != 0;
}

/* Nanoseconds since `since`, added to a bucket of the totals. */
static inline void charge(double *bucket, uint64_t since)
{
    *bucket += (double)(qsb_clock_ns() - since);
}

/* Timer counts per nanosecond: samples are in the timer's unit. */
static inline double counts_per_ns(const qsb_timer *timer)
{
    return timer->kind == QSB_TIMER_TSC ? timer->tsc_hz / 1e9 : 1.0;
}

static inline unsigned char *slot(const matrix_state *s, size_t k)
{
    return s->work + k * s->stride;
}

/* ---- the work buffers (work_buffers.c) ---- */

/* The input into the first k slots of the work buffer, and the canary zones either side of
** them armed: outside any interval, and writing every page the sorts will touch. */
void matrix_copy_input(matrix_state *s, size_t k);

/* Verifies the first k slots after row's sorts; marks the row failed when one is wrong. */
int matrix_check_slots(matrix_state *s, qsb_row *row, size_t k);

/* Algorithm algo's buffer becomes the one the next sorts use. */
void matrix_use_buffer(matrix_state *s, size_t algo);

/* After algo's result in the first k slots passed its checks: sealed, when in its own buffer. */
void matrix_seal_result(matrix_state *s, size_t algo, const qsb_row *row, size_t k);

/* Is algo's sealed result as it was checked? When not, its row of that cell FAILs. */
int matrix_check_sealed(matrix_state *s, size_t algo);

/* After a plug-in's sorts: has its code taken what this process needs to report (its
** descriptors, its limit of open files; visit_record.h)? Then the process cannot go on: it
** ends inside the plug-in's sorts with the cause, and its parent measures the others again. */
void matrix_check_process(const matrix_state *s, size_t algo);

/* Every sealed result, at the end of a visit. */
int matrix_check_all_sealed(matrix_state *s);

/* A second work buffer, for the verified result, beside the buffers that must fit (runner.c
** checks three of the largest input): while four fit in the memory available. */
bool matrix_spare_fits(size_t bytes);

/* Plug-ins' own work buffers (the registry's sorts share s->shared). */
bool matrix_alloc_own_buffers(matrix_state *s);

void matrix_free_own_buffers(matrix_state *s);

/* ---- a visit's sorts (visit_sorts.c) ---- */

int matrix_counted_sorts(matrix_state *s, cell_plan *plan, qsb_cell *cell);

/* The model's cell for this one (the run's first worker's results, run.h): used only when it
** has every row verified (a failure is found, and named, by counting here). */
const qsb_cell *matrix_model_of(const matrix_state *s, const qsb_cell *cell);

/* The counted sorts' products, taken from the model instead of sorting: the exact counts
** (deterministic), the batch and a sort's duration (the first estimate). */
void matrix_take_from_model(const matrix_state *s, cell_plan *plan, qsb_cell *cell,
                            const qsb_cell *m);

/* A modelled first visit has had no sort before its timed ones, so the allocator may not have
** seen a scratch of the cell's size: an allocating sort's first call would map fresh pages
** (and a second one grow the heap into fresh pages) that every later call of a long-lived
** program finds ready. Two rounds of allocate, touch, free of twice the input's size (just
** under FRESH_SCRATCH_BYTES at most) leave glibc's malloc as a sort's earlier calls would:
** the first raises its dynamic mmap threshold, the second leaves touched pages at the top of
** the heap, which later frees keep (the trim threshold rose too). Done once per size in a
** process: a smaller scratch finds the same pages. Scratch of FRESH_SCRATCH_BYTES and more is
** mapped afresh at every call anyway, warm or not. */
void matrix_warm_scratch(matrix_state *s);

/* The comparisons metric: the count of the counted sort is the one exact sample. */
int matrix_comparisons_as_samples(qsb_cell *cell);

/* Which visit of its cell a visit is: the first chooses the batch size. */
typedef enum { QSB_FIRST_VISIT, QSB_REVISIT } qsb_visit_kind;

/* Warm-ups, then (at the first visit) the batch size. Without a warm-up, the counted sort's
** time (an upper bound: the counting comparator is slower) is the first estimate. */
int matrix_prepare_algorithm(matrix_state *s, cell_plan *plan, size_t algo, qsb_row *row,
                             qsb_visit_kind visit);

/* One round: every verified algorithm once, forward in even rounds, backward in odd ones. */
int matrix_timed_round(matrix_state *s, cell_plan *plan, qsb_cell *cell, size_t round);

/* ---- the cells' summaries (cell_summary.c) ---- */

/* The widest interval of the cell's verified rows; 0 when none is left to measure. */
double matrix_cell_precision_pct(const qsb_cell *cell);

/* Every cell with its minimum of units (or exact counts) is summarized, in the cells' order;
** the others (an interrupted run's) are dropped: without an interval they would be numbers
** nobody could judge. */
int matrix_finish_cells(matrix_state *s);

size_t matrix_count_failed(const qsb_results *results);

#endif
