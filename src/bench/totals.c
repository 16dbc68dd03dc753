/*
** A run's totals (see totals.h).
*/
#include "totals.h"

#include <stdio.h>
#include <stdlib.h>
#include <sys/resource.h>

#include "diag.h"
#include "option_names.h"
#include "state_needs.h"
#include "states_text.h"
#include "stats.h"
#include "workers.h"

#define DRIFT_WARN_FACTOR 1.5 /* intervals widened this much or more: one warning line */

/* What the workers' files say they spent; without it (a file that does not say), only the
** time inside timed sorts, from the samples. */
static void add_workers_time(qsb_run_totals *totals, const qsb_results *pooled)
{
    const qsb_time_split *w = &pooled->context.time;
    totals->split_known = w->wall_s > 0;
    if (!totals->split_known) {
        totals->timed_ns = qsb_results_timed_s(pooled) * 1e9;
        return;
    }
    totals->timed_ns = w->timed_s * 1e9;
    totals->counted_ns = w->counted_s * 1e9;
    totals->warmup_ns = w->warmup_s * 1e9;
    totals->retake_ns = w->retaken_s * 1e9;
    totals->generate_ns += w->inputs_s * 1e9;
    totals->copy_ns = w->copies_s * 1e9;
    totals->verify_ns = w->checks_s * 1e9;
}

void qsb_totals_take_workers(qsb_results *results, qsb_results *pooled,
                             qsb_run_totals *totals)
{
    qsb_cell *cells = results->cells;
    size_t ncells = results->ncells;
    qsb_store *store = results->store; /* what the cells' texts and arrays may be kept in */
    results->cells = pooled->cells;
    results->ncells = pooled->ncells;
    results->store = pooled->store;
    pooled->cells = cells;
    pooled->ncells = ncells;
    pooled->store = store;
    results->context.incomplete = pooled->context.incomplete;
    results->context.drift_ratios = pooled->context.drift_ratios;
    results->context.drift_medians = pooled->context.drift_medians;
    totals->cells_done = results->ncells;
    add_workers_time(totals, pooled);
    for (size_t c = 0; c < results->ncells; c++) {
        bool noisy = false;
        for (size_t i = 0; i < results->cells[c].nrows; i++) {
            noisy |= results->cells[c].rows[i].noisy;
            totals->failed_rows += !results->cells[c].rows[i].verified;
        }
        totals->noisy_cells += noisy;
    }
}

void qsb_totals_record_split(qsb_context *c, const qsb_run_totals *t, double wall_ns)
{
    c->time = (qsb_time_split){wall_ns / 1e9,       t->timed_ns / 1e9,  t->counted_ns / 1e9,
                               t->warmup_ns / 1e9,  t->retake_ns / 1e9, t->generate_ns / 1e9,
                               t->copy_ns / 1e9,    t->verify_ns / 1e9};
    if (!t->split_known)
        c->time.wall_s = 0;
}

#define NEED_UNITS_CAP 100000 /* "about 100000 units": further is no estimate */

typedef struct {
    size_t need, had; /* units */
} cell_units;

static int by_need(const void *pa, const void *pb)
{
    size_t a = ((const cell_units *)pa)->need, b = ((const cell_units *)pb)->need;
    return (a > b) - (a < b);
}

/* What cell's widest noisy row would need, and had; need 0 when no noisy row has an
** interval. */
static cell_units cell_units_needed(const qsb_cell *cell, double precision_pct)
{
    cell_units u = {0, 0};
    for (size_t i = 0; i < cell->nrows; i++) {
        size_t units = qsb_row_unit_count(&cell->rows[i]);
        if (!cell->rows[i].noisy || units < QSB_MIN_UNITS)
            continue;
        size_t need = qsb_units_for_precision(units, qsb_row_interval_pct(cell, i),
                                              precision_pct, NEED_UNITS_CAP);
        if (need > u.need)
            u = (cell_units){need, units};
    }
    return u;
}

/* The units the median noisy cell would need for every row's interval to reach the precision,
** the units' spread staying as this run measured it, and the units it had; need 0 when no
** noisy row has an interval. */
static cell_units median_units_needed(const qsb_results *r, double precision_pct)
{
    cell_units median = {0, 0};
    cell_units *cells = r->ncells ? malloc(r->ncells * sizeof *cells) : NULL;
    size_t n = 0;
    for (size_t c = 0; cells && c < r->ncells; c++) {
        cells[n] = cell_units_needed(&r->cells[c], precision_pct);
        n += cells[n].need > 0;
    }
    if (n > 0) {
        qsort(cells, n, sizeof *cells, by_need); /* libc's: never a sort under test */
        median = cells[n / 2];
    }
    free(cells);
    return median;
}

/* The noisy cells are marked in the table and the files; one line counts them and says how
** many units the precision would take at this run's spread. */
static void warn_noisy_total(const qsb_run_config *cfg, const qsb_run_totals *t,
                             const qsb_results *r)
{
    if (t->noisy_cells == 0 || cfg->metric == QSB_METRIC_COMPARISONS)
        return;
    char need_text[160] = "";
    cell_units u = {0, 0};
    if (cfg->precision_pct > 0)
        u = median_units_needed(r, cfg->precision_pct);
    if (u.need > 0)
        snprintf(need_text, sizeof need_text,
                 "; at this run's spread the median noisy cell would reach it with %s %zu "
                 "units (it had %zu)",
                 u.need >= NEED_UNITS_CAP ? "more than" : "about", u.need, u.had);
    qsb_warning("%zu of %zu cells are noisy (an interval wider than +-%g%%, none under %d "
                "units, or slowed by a busy machine): marked '~noisy' in the table and 'noisy' in "
                "the files%s; a longer --" QSB_OPT_BUDGET " or a quieter machine helps",
                t->noisy_cells, t->cells_done, cfg->precision_pct, QSB_MIN_UNITS, need_text);
}

/* The time level widened the intervals markedly (stats.h qsb_drift). */
static void warn_drift(const qsb_context *c)
{
    if (!(c->drift_ratios >= DRIFT_WARN_FACTOR || c->drift_medians >= DRIFT_WARN_FACTOR))
        return;
    qsb_warning("the machine's state moved during the run: the later half of the units differs "
                "from the earlier half %.1fx (deltas) and %.1fx (medians) more than the units' "
                "scatter explains; intervals widened by these factors (docs/measurement.md)",
                c->drift_ratios, c->drift_medians);
}

/* The processes a busy machine slowed beyond their row's spread, too few for a speed of their
** own (states.h): counted, so that the user sees the machine's part, and kept in the rows'
** figures, where the medians hardly move for them. */
static void say_slowed(const qsb_results *r)
{
    size_t processes = 0, rows = 0;
    for (size_t c = 0; c < r->ncells; c++) {
        processes += r->cells[c].rows[0].slowed;
        rows += r->cells[c].rows[0].slowed > 0;
    }
    if (processes > 0)
        qsb_note("the machine slowed %zu process%s in %zu row%s (%g robust sds or more beyond "
                 "the row's speed): too few for a speed of their own, kept in the rows' figures",
                 processes, processes == 1 ? "" : "es", rows, rows == 1 ? "" : "s",
                 QSB_SLOWED_SPREADS);
}

/* Each algorithm that ran at separated speeds (states) says so, in words: the host's states
** decide much of a row's spread, and its rows are reported per state. Each candidate says
** whether its delta differed between its baseline's states: where it does, the mixture moves
** with the states' shares and the deltas per state are the figures to read. Then how many
** processes the states got and would need for the precision (state_needs.h): a state with
** few processes is where more of them narrow the rows most. */
static void say_states(const qsb_run_config *cfg, const qsb_results *r)
{
    size_t algorithms = r->ncells ? r->cells[0].nrows : 0;
    char words[512];
    say_slowed(r);
    for (size_t i = 0; i < algorithms; i++)
        if (qsb_states_summary(r, i, words, sizeof words) > 0)
            qsb_note("%s", words);
    for (size_t i = 1; i < algorithms; i++)
        if (qsb_states_delta_summary(r, i, words, sizeof words) > 0)
            qsb_note("%s", words);
    if (!(cfg->precision_pct > 0))
        return;
    qsb_state_needs needs;
    qsb_state_needs_of(r, cfg->precision_pct, &needs);
    if (qsb_state_needs_words(&needs, cfg->precision_pct, words, sizeof words) > 0)
        qsb_note("%s", words);
}

void qsb_totals_warn(const qsb_run_config *cfg, const qsb_run_totals *t, const qsb_results *r)
{
    warn_noisy_total(cfg, t, r);
    warn_drift(&r->context);
    say_states(cfg, r);
}

/* The last line: where the wall time went. Overhead is everything outside the timed sorts:
** the counted sorts (the comparisons column), warm-ups and batch probes, timed sorts thrown
** away because the process was preempted or slowed during them, and outside any sort: input
** generation, copies into the work buffer, result checks, and the rest (statistics, policy,
** progress line, allocation; with worker processes, starting them and reading their files).
** A run of worker processes sums its workers' parts (their own last lines are not shown);
** with several at once their parts are shares of the time the run's worker slots had. */
void qsb_totals_print(const qsb_run_totals *t, double wall_ns, qsb_metric metric,
                      size_t processes, size_t jobs)
{
    struct rusage usage;
    bool workers = processes > 1;
    double peak_mib = getrusage(workers ? RUSAGE_CHILDREN : RUSAGE_SELF, &usage) == 0
                          ? (double)usage.ru_maxrss / 1024 : 0;
    char shared[64] = ""; /* the largest worker's peak does not hold all of them */
    if (t->shared_bytes)
        snprintf(shared, sizeof shared, " and %.1f MiB of shared inputs",
                 (double)t->shared_bytes / (1024 * 1024));
    double slots_ns = wall_ns * (double)(workers && jobs > 1 ? jobs : 1);
    double pct = slots_ns > 0 ? 100 / slots_ns : 0;
    double in_sorts = t->timed_ns + t->counted_ns + t->warmup_ns + t->retake_ns;
    double rest = slots_ns - in_sorts - t->generate_ns - t->copy_ns - t->verify_ns;
    char who[80] = "";
    if (workers && jobs > 1)
        snprintf(who, sizeof who, "%zu worker processes, %zu at once, ", processes, jobs);
    else if (workers)
        snprintf(who, sizeof who, "%zu worker processes, ", processes);
    if (metric == QSB_METRIC_COMPARISONS) {
        qsb_note("%sno timed sorts (comparisons are counted), %.2f s wall time; peak memory "
                 "%.1f MiB",
                 who, wall_ns / 1e9, peak_mib);
        return;
    }
    qsb_note("%s%.2f s inside timed sorts, %.2f s wall time: overhead %.1f%% (counted sorts "
             "%.1f%%, warm-ups %.1f%%, %zu preempted and %zu slowed sorts retaken %.1f%%; "
             "outside any sort %.1f%%: inputs %.1f%%, copies %.1f%%, checks %.1f%%, %s "
             "%.1f%%); samples kept preempted %zu, slowed %zu; peak memory %.1f MiB%s",
             who, t->timed_ns / 1e9, wall_ns / 1e9, (slots_ns - t->timed_ns) * pct,
             t->counted_ns * pct, t->warmup_ns * pct, t->retaken_preempted, t->retaken_slowed,
             t->retake_ns * pct, (slots_ns - in_sorts) * pct, t->generate_ns * pct,
             t->copy_ns * pct, t->verify_ns * pct,
             workers ? "starting the processes and other" : "other",
             (rest > 0 ? rest : 0) * pct, t->kept_preempted, t->kept_slowed, peak_mib,
             shared);
}
