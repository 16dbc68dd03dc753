/*
** The benchmark matrix: sweeps over the cells under the schedule, each in a new placement, and
** the visits of a cell: its input, at the first visit the counted sorts and the batch sizes
** (visit_sorts.c), warm-ups and a slice of interleaved timed rounds, in the work buffers of
** work_buffers.c; then the summaries and paired deltas over units into the one result
** structure (cell_summary.c), with the time of each step accounted for. The procedure:
** docs/measurement.md, "Cells, rounds and the visit".
*/
#include "run.h"

#include "matrix_state.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "canary.h"
#include "diag.h"
#include "memory.h"
#include "progress.h"

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
    qsb_progress_update_eta(cells_with_minimum(s), label, remaining_s(s));
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
