/*
** The run, from its configuration to its result (runner.h): what it records of itself, where
** its time went, and the run itself.
*/
#include "runner.h"

#include <errno.h>
#include <math.h>
#include <sched.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <time.h>
#include <unistd.h>

#include "auto_nelem.h"
#include "child.h"
#include "diag.h"
#include "machine.h"
#include "option_names.h"
#include "placement.h"
#include "plan.h"
#include "plugins.h"
#include "read_results.h"
#include "result.h"
#include "run.h"
#include "run_config.h"
#include "run_context.h"
#include "shared_inputs.h"
#include "snapshot.h"
#include "state_needs.h"
#include "states_text.h"
#include "stats.h"
#include "stop.h"
#include "timing.h"
#include "version.h"
#include "visit_record.h"
#include "workers.h"

/* ---- What a run records of itself beside its results (result.h qsb_context): the tool and its
** build, the machine and its state, the matrix, the repetition rules of its plan and where its
** sorts sit. Filled once, before the first sort; the time split and the drift are the run's
** end's. ---- */

/* Whether this executable is an optimised build (Release or RelWithDebInfo). */
static bool built_for_timing(void)
{
    return strcmp(QSB_BUILD_TYPE, "Release") == 0 ||
           strcmp(QSB_BUILD_TYPE, "RelWithDebInfo") == 0;
}

static int set_strings(const char *const values[], char **const fields[], size_t n)
{
    for (size_t i = 0; i < n; i++)
        if (qsb_set_string(fields[i], values[i]) != 0)
            return qsb_out_of_memory("context");
    return QSB_OK;
}

/* The machine's state and the repetition rules. */
static int fill_noise_context(qsb_context *c, const qsb_run_config *cfg, const qsb_run_plan *plan,
                              const qsb_placement *placement, double load_average)
{
    char governor[64], turbo[16], repetitions[384], warmup[32], where[256], counts[600];
    qsb_cpu_governor(governor, sizeof governor);
    qsb_turbo_state(turbo, sizeof turbo);
    c->load_average = load_average >= 0 ? load_average : NAN;
    c->pinned_cpu = cfg->pin_cpu;
    c->release_build = built_for_timing();
    c->sanitized = QSB_SANITIZED;
    c->precision_pct = cfg->precision_pct;
    c->budget_s = plan->budget_s > 0 ? plan->budget_s : NAN;
    c->drift_ratios = c->drift_medians = NAN; /* known when the run ends (run.c) */
    qsb_placement_describe(placement, where, sizeof where);
    qsb_plan_describe(cfg, plan, repetitions, sizeof repetitions);
    if (cfg->warmup == QSB_WARMUP_AUTO)
        snprintf(warmup, sizeof warmup, "auto");
    else
        snprintf(warmup, sizeof warmup, "%llu", (unsigned long long)cfg->warmup);
    snprintf(counts, sizeof counts, "given (--" QSB_OPT_NELEM ")");
    if (cfg->nelem_source != QSB_NELEM_GIVEN) { /* the run's first line's words */
        char why[512];
        qsb_auto_nelem_describe(cfg, why, sizeof why);
        snprintf(counts, sizeof counts, "--" QSB_OPT_NELEM " auto: %s", why);
    }
    c->memory_bound_bytes = (double)plan->memory.bound;
    c->memory_peak_bytes = (double)plan->memory.peak;
    const char *const values[] = {governor, turbo, repetitions, warmup, counts, where};
    char **const fields[] = {&c->governor, &c->turbo, &c->repetitions, &c->warmup,
                             &c->nelem_source, &c->placement};
    return set_strings(values, fields, sizeof fields / sizeof fields[0]);
}

/* The machine's name, the shard and the whole matrix (result.h fleet fields). */
static int fill_matrix(qsb_context *c, const qsb_run_config *cfg)
{
    qsb_matrix m;
    memset(&m, 0, sizeof m);
    m.nelem = cfg->nelem;
    m.n_nelem = cfg->n_nelem;
    m.sizes = cfg->sizes;
    m.n_sizes = cfg->n_sizes;
    char **patterns = calloc(cfg->n_patterns ? cfg->n_patterns : 1, sizeof *patterns);
    char **algos = calloc(cfg->n_algos ? cfg->n_algos : 1, sizeof *algos);
    int status = patterns && algos ? QSB_OK : qsb_out_of_memory("context");
    for (size_t i = 0; status == QSB_OK && i < cfg->n_patterns; i++)
        patterns[i] = (char *)cfg->patterns[i]->name; /* borrowed: copied below */
    for (size_t i = 0; status == QSB_OK && i < cfg->n_algos; i++)
        algos[i] = (char *)cfg->algos[i].name;
    m.patterns = patterns;
    m.n_patterns = cfg->n_patterns;
    m.algos = algos;
    m.n_algos = cfg->n_algos;
    if (status == QSB_OK && qsb_matrix_copy(&c->matrix, &m) != 0)
        status = qsb_out_of_memory("context");
    free(patterns);
    free(algos);
    c->shard_k = cfg->shard_k;
    c->shard_n = cfg->shard_n;
    if (status == QSB_OK && qsb_set_string(&c->machine, cfg->machine ? cfg->machine
                                                                   : c->host) != 0)
        status = qsb_out_of_memory("context");
    return status;
}

/* r's context and baseline for a run of cfg under plan, its sorts placed by placement, timed
** by timer (NULL: counted), started at utc with that 1-minute load average (negative:
** unknown). QSB_OK, or QSB_ESYSTEM (reported) when out of memory. */
static int record_context(qsb_results *r, const qsb_run_config *cfg, const qsb_run_plan *plan,
                          const qsb_placement *placement, const qsb_timer *timer,
                          const struct tm *utc, double load_average)
{
    qsb_context *c = &r->context;
    qsb_run_context where;
    qsb_run_context_gather(&where, utc);
    memcpy(c->cache_bytes, where.cache_bytes, sizeof c->cache_bytes);
    c->seed = cfg->seed;
    c->tsc_hz = timer ? timer->tsc_hz : 0;
    c->timer_resolution_ns = timer ? timer->resolution_ns : 0;
    const char *const values[] = {
        QSB_VERSION, where.date, where.host, where.cpu_model, where.caches, where.libc,
        QSB_COMPILER, QSB_BUILD_FLAGS, QSB_BUILD_TYPE, timer ? timer->name : "none",
        qsb_metric_name(cfg->metric),
        cfg->mode == QSB_MODE_COMPAT_2021 ? QSB_COMPAT_2021_NAME : "default",
        cfg->command_line, where.run_id, cfg->algos[0].name};
    char **const fields[] = {
        &c->tool_version, &c->date,     &c->host,       &c->cpu_model,    &c->caches,
        &c->libc,         &c->compiler, &c->build_flags, &c->build_type,  &c->timer,
        &c->metric,       &c->mode,     &c->command_line, &c->run_id,      &r->baseline};
    int status = set_strings(values, fields, sizeof fields / sizeof fields[0]);
    if (status == QSB_OK)
        status = fill_matrix(c, cfg);
    return status == QSB_OK ? fill_noise_context(c, cfg, plan, placement, load_average) : status;
}

/* ---- Where a run's time went (run.h qsb_run_totals), from its own measurements or from what
** its worker processes' files say (the time split, result.h qsb_time_split), recorded into its
** results and told in its last lines on stderr: the noisy cells, the drift, and the overhead
** and peak memory. ---- */

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

/* The workers' pooled cells into the run's results (the context stays the run's, but for the
** drift and whether it is incomplete: pooled's), and what they spent (their sum, pool.c)
** into totals beside the run's own generation of the inputs. pooled gets the run's previous
** cells, to be freed with it. */
static void take_workers_totals(qsb_results *results, qsb_results *pooled,
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

/* The time split of totals over wall_ns into the context (wall 0: the split is unknown). */
static void record_split(qsb_context *c, const qsb_run_totals *t, double wall_ns)
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

/* One warning for all the noisy cells (with the units the precision would take), one when
** the drift widened r's intervals markedly. */
static void warn_totals(const qsb_run_config *cfg, const qsb_run_totals *t, const qsb_results *r)
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
static void print_totals(const qsb_run_totals *t, double wall_ns, qsb_metric metric,
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

/* ---- The run ---- */

/* Of --budget, kept for pooling the worker processes and writing the results. */
#define FINISH_RESERVE_S 1.0

int qsb_run_check_memory(const qsb_run_config *cfg, const qsb_plugins *plugins)
{
    int status = QSB_OK;
    for (size_t i = 0; i < cfg->n_nelem && status == QSB_OK; i++)
        for (size_t j = 0; j < cfg->n_sizes && status == QSB_OK; j++)
            status = qsb_check_fits(cfg->nelem[i], cfg->sizes[j], "--" QSB_OPT_NELEM);
    qsb_memory_plan memory;
    qsb_memory_plan_run(cfg, qsb_plugins_among(plugins, cfg->algos, cfg->n_algos), &memory);
    return status == QSB_OK ? qsb_memory_check(cfg, &memory) : status;
}

/* Other processes share the CPUs, caches and memory bandwidth: the paired, spread-out
** rounds absorb much of it, not all. */
static void warn_about_load(double load_average)
{
    long cpus = sysconf(_SC_NPROCESSORS_ONLN);
    if (cpus > 0 && load_average >= 1.0 && load_average >= 0.5 * (double)cpus)
        qsb_warning("the 1-minute load average is %.2f on %ld CPUs: other processes compete "
                    "with the benchmark and its timings will be noisier; run it on an idle "
                    "machine",
                    load_average, cpus);
}

static void warn_about_build(const qsb_run_config *cfg)
{
    if (cfg->metric == QSB_METRIC_COMPARISONS)
        return; /* counts do not depend on the build */
    if (!built_for_timing())
        qsb_warning("this is a %s build: its timings do not represent the algorithms; "
                    "rebuild with -DCMAKE_BUILD_TYPE=Release",
                    QSB_BUILD_TYPE[0] ? QSB_BUILD_TYPE : "unoptimised");
    if (QSB_SANITIZED)
        qsb_warning("this build is sanitized (ASan/UBSan): its timings are meaningless; "
                    "rebuild without -DQSB_SANITIZE=ON");
    char governor[64];
    qsb_cpu_governor(governor, sizeof governor);
    if (strcmp(governor, "powersave") == 0)
        qsb_warning("the CPU governor is powersave; for steadier timings set it to "
                    "performance (cpupower frequency-set -g performance)");
}

/* What the run is about to measure with, said once its outputs are open. */
static void warn_before_measuring(const qsb_run_config *cfg, double load_average)
{
    warn_about_build(cfg);
    if (cfg->metric != QSB_METRIC_COMPARISONS)
        warn_about_load(load_average);
}

/* --pin: this process (its one thread) on that CPU from now on, before the TSC is
** calibrated. The CPU was checked available when the options were parsed. */
static int pin_process(int cpu)
{
    cpu_set_t set;
    CPU_ZERO(&set);
    CPU_SET(cpu, &set);
    if (sched_setaffinity(0, sizeof set, &set) != 0)
        return qsb_error(QSB_ESYSTEM, "--" QSB_OPT_PIN " %d: cannot pin this process to CPU %d: "
                         "%s", cpu, cpu, strerror(errno));
    return QSB_OK;
}

static int start_timer(const qsb_run_config *cfg, qsb_timer *timer)
{
    bool cycles = cfg->metric == QSB_METRIC_CYCLES;
    if ((cycles && cfg->worker.tsc_hz > 0 ? qsb_timer_init_tsc_hz(timer, cfg->worker.tsc_hz)
                                   : qsb_timer_init(timer, cycles)) != 0)
        return qsb_error(QSB_ESYSTEM, "the invariant TSC could not be calibrated; use "
                                      "--" QSB_OPT_METRIC " ns");
    return QSB_OK;
}

/* What the run holds from its start to its report. */
typedef struct {
    const qsb_run_config *cfg;
    qsb_plugins *plugins; /* the command's set of cfg's plug-ins (plugins.h); NULL: none */
    const qsb_run_reporter *reporter;
    qsb_run_plan plan;
    qsb_placement *placement;
    const qsb_timer *timer; /* NULL: counted */
    qsb_results results;
    uint64_t started_ns; /* when the run began: --budget bounds the whole run */
    int parent_stop;     /* the stop request its parent passed on in the visit record */
    qsb_snapshot *snapshot; /* a one-process run's finished cells, for its owner (snapshot.h) */
} run_state;

/* The plug-ins loaded here, where the sorts run (never in the files' owner), one at a time:
** a library whose constructor takes what the process needs to report (visit_record.h) is
** blamed as its sorts would be. Everything the process needs is open and marked before. */
static int load_plugins(const run_state *s, qsb_visit_record *record)
{
    const qsb_run_config *cfg = s->cfg;
    qsb_visit_mark_process(cfg->worker.slice_s > 0 ? "worker" : "measuring process");
    int status = QSB_OK;
    for (size_t i = 0; i < cfg->n_algos && status == QSB_OK; i++) {
        char cause[QSB_VISIT_CAUSE_BYTES];
        if (qsb_visit_excluded(record, i)) {
            qsb_placement_skip(s->placement, i);
            continue;
        }
        status = qsb_plugins_load_one(s->plugins, cfg->algos[i].sort);
        if (status == QSB_OK && record && !qsb_visit_process_intact(cause, sizeof cause))
            qsb_visit_abandon(record, i, cause);
    }
    return status;
}

/* The cells in this process (its units; a worker's, one visit of each), with the inputs its
** run shared, the visits it records for its run and its model (run.h) when it is a worker.
** Plug-in code writes nothing into its standard output (child.h). */
static int measure_here(run_state *s, qsb_run_totals *totals, qsb_visit_record *record)
{
    const qsb_run_config *cfg = s->cfg;
    qsb_shared_inputs *inputs = NULL;
    qsb_visit_record *worker_record = NULL;
    qsb_results model;
    memset(&model, 0, sizeof model);
    if (cfg->worker.inputs_fd > 0 && !(inputs = qsb_shared_inputs_open(cfg->worker.inputs_fd)))
        return QSB_EUSAGE;
    int status = QSB_OK;
    if (cfg->worker.visit_fd > 0 &&
        !(record = worker_record = qsb_visit_record_open(cfg->worker.visit_fd)))
        status = QSB_EUSAGE;
    if (status == QSB_OK && cfg->worker.model_path)
        status = qsb_read_results(cfg->worker.model_path, &model);
    qsb_stdout_divert divert = {-1, -1};
    if (status == QSB_OK)
        status = qsb_stdout_divert_begin(&divert);
    if (status == QSB_OK)
        status = load_plugins(s, record);
    qsb_run_setup setup = {
        .config = cfg,
        .plugins = s->plugins,
        .timer = s->timer,
        .schedule = qsb_plan_schedule(cfg, &s->plan),
        .stop = qsb_stop_request(),
        .progress = !cfg->quiet,
        .slice_s = s->plan.slice_s,
        .placement = s->placement,
        .round_offset = cfg->worker.index ? (size_t)cfg->worker.index - 1 : 0,
        .inputs = inputs,
        .model = cfg->worker.model_path ? &model : NULL,
        .record = record,
        .snapshot = s->snapshot,
    };
    if (status == QSB_OK)
        status = qsb_run_matrix(&setup, &s->results, totals);
    qsb_stdout_divert_end(&divert, cfg->worker.slice_s > 0 ? "plug-in code in a worker process"
                                                          : "plug-in code");
    s->parent_stop = qsb_visit_stop(record);
    qsb_results_free(&model);
    qsb_shared_inputs_close(inputs);
    qsb_visit_record_close(worker_record, -1);
    return status;
}

/* The cells, measured in this process (its units) or by worker processes (workers.h), which
** share the inputs the run generates once (shared_inputs.h). */
static int measure(run_state *s, qsb_run_totals *totals, size_t *processes,
                   qsb_visit_record *record)
{
    const qsb_run_config *cfg = s->cfg;
    if (s->plan.processes <= 1)
        return measure_here(s, totals, record);
    double generate_s = 0;
    qsb_shared_inputs *inputs = qsb_shared_inputs_create(cfg, s->plan.memory.shared, &generate_s);
    totals->generate_ns = generate_s * 1e9;
    totals->shared_bytes = inputs ? qsb_shared_inputs_bytes(inputs) : 0;
    qsb_workers_plan workers = qsb_plan_workers(cfg, &s->plan, s->timer->tsc_hz,
                                                inputs ? qsb_shared_inputs_fd(inputs) : -1,
                                                qsb_stop_request());
    workers.algo_names = (const char *const *)s->results.context.matrix.algos;
    /* The estimate, the calibration and the inputs came out of the budget too, and pooling
    ** the processes and writing the files will (docs/results.md#overhead-finish). */
    workers.budget_s -= (double)(qsb_clock_ns() - s->started_ns) / 1e9 + FINISH_RESERVE_S;
    qsb_results pooled;
    int status = qsb_run_workers(&workers, &pooled, processes);
    qsb_shared_inputs_close(inputs);
    if (status == QSB_OK || status == QSB_FINDING) {
        take_workers_totals(&s->results, &pooled, totals);
        if (qsb_stop_status()) /* the workers not started are missing */
            s->results.context.incomplete = true;
    }
    qsb_results_free(&pooled);
    return status;
}

/* The run from its measurement to its report and its last lines. */
static int measure_and_report(run_state *s, qsb_visit_record *record)
{
    qsb_run_totals totals;
    memset(&totals, 0, sizeof totals);
    totals.split_known = true; /* until workers' files do not say */
    size_t processes = 1;
    uint64_t start = qsb_clock_ns();
    int status = measure(s, &totals, &processes, record);
    double wall_ns = (double)(qsb_clock_ns() - start);
    record_split(&s->results.context, &totals, wall_ns);
    warn_totals(s->cfg, &totals, &s->results);
    if (status != QSB_OK && status != QSB_FINDING)
        return status;
    int stopped = qsb_stop_status();
    qsb_run_outcome outcome = {.status = status,
                               .stopped = stopped ? stopped : qsb_stop_status_of(s->parent_stop),
                               .results = &s->results,
                               .totals = &totals};
    status = s->reporter->report(s->reporter->arg, &outcome);
    print_totals(&totals, wall_ns, s->cfg->metric, s->plan.processes > 1 ? processes : 1,
                     (size_t)s->cfg->jobs);
    return status;
}

/* ---- A one-process run measured in a watched child ----
** A one-process run (--reps N, --processes 1) is measured in a child process, so that a plug-in
** that crashes, calls exit() or hangs cannot take the run with it (the worker processes of a run
** are watched the same way, workers.h). The child is a fork of the run: it measures, prints the
** table, writes and commits the files and exits with the run's status, which the parent returns.
** When the child ends inside an algorithm's sorts (visit_record.h), the parent names the algorithm
** and the cause, excludes it and measures again: the files then hold its rows FAILED with the
** cause and every other row. A child killed from outside (SIGKILL) or dead outside any sort is
** measured again once. A stop request (stop.h) is passed on, in the visit record too; the child
** writes its finished cells, marked incomplete, and exits with the stop's status. A child whose
** sort does not return within the grace after the stop (a plug-in that ignores the signal and
** blocks) is killed, and the parent writes the finished cells the child handed it as they finished
** (snapshot.h), marked incomplete, with the same status: what was measured is kept whatever a
** plug-in does with signals. */

/* The watched child was killed inside the matrix after a stop (run_isolated): the finished
** cells it handed over, or none, reported here with the run's context, marked incomplete. */
static int report_kept(run_state *s, int stopped)
{
    const qsb_snapshot *snapshot = s->snapshot;
    qsb_results kept;
    memset(&kept, 0, sizeof kept);
    int status = qsb_snapshot_taken(snapshot) ? qsb_snapshot_read(snapshot, &kept) : QSB_OK;
    if (status != QSB_OK)
        return status;
    qsb_results *results = qsb_snapshot_taken(snapshot) ? &kept : &s->results;
    results->context.incomplete = true;
    qsb_run_totals totals;
    memset(&totals, 0, sizeof totals);
    for (size_t c = 0; c < results->ncells; c++)
        for (size_t i = 0; i < results->cells[c].nrows; i++)
            totals.failed_rows += !results->cells[c].rows[i].verified;
    totals.cells_done = results->ncells;
    qsb_run_outcome outcome = {.status = totals.failed_rows ? QSB_FINDING : QSB_OK,
                               .stopped = stopped,
                               .results = results,
                               .totals = &totals};
    status = s->reporter->report(s->reporter->arg, &outcome);
    qsb_results_free(&kept);
    return status;
}

/* What the forked child is handed: the run, its visit record and the signal mask to restore. */
typedef struct {
    run_state *s;
    qsb_visit_record *record;
    sigset_t *mask;
} child_args;

/* In the child. */
static int measure_forked(void *arg)
{
    const child_args *c = arg;
    qsb_signals_restore(c->mask); /* the run's handlers are the child's already */
    int status = measure_and_report(c->s, c->record);
    fflush(NULL);
    return status; /* then _exit: the parent's cleanup is the parent's */
}

/* Forks the child that measures and watches it to its end. */
static int fork_and_watch(run_state *s, qsb_visit_record *record, qsb_process_end *end)
{
    qsb_visit_record_reset(record);
    qsb_snapshot_clear(s->snapshot);
    sigset_t mask;
    qsb_signals_block(&mask);
    child_args c = {s, record, &mask};
    /* Its own group: a Ctrl-C reaches the run, which passes it on once, and what it leaves
    ** running is ended. */
    pid_t pid = qsb_child_fork(measure_forked, &c);
    qsb_signals_restore(&mask);
    if (pid < 0)
        return qsb_error(QSB_ESYSTEM, "cannot start the measuring process: %s",
                         strerror(errno));
    qsb_watch watch = {qsb_visit_deadline_s(s->plan.estimate_s), qsb_stop_request(), NULL,
                       "the measuring process"};
    return qsb_watch_process(&watch, pid, record, end);
}

static void blame(const run_state *s, qsb_visit_record *record, const qsb_process_end *end)
{
    qsb_warning("%s %s in cell %s; its rows are FAILED (%s) and the others measured again",
                s->results.context.matrix.algos[end->algo], end->cause, end->cell[0] ? end->cell : "(none)",
                end->cause);
    snprintf(record->excluded[end->algo], QSB_VISIT_CAUSE_BYTES, "%s", end->cause);
}

/* Killed by the watch after the grace (its cause, visit_record.c), not ended by itself. */
static bool killed_after_grace(const qsb_process_end *end)
{
    return strcmp(end->cause, "killed after the grace") == 0;
}

/* The child was passed the stop request (visit_record.h: in its record too, so whatever its
** plug-ins do with the signal, it stops after the current sort). One killed after the grace
** inside the matrix (a sort that never returned) wrote nothing: what it handed over is
** written here. */
static int interrupted(run_state *s, const qsb_visit_record *record,
                       const qsb_process_end *end)
{
    if (qsb_stop_is_exit_status(end->exit_code))
        return end->exit_code; /* the child wrote its finished cells and said so */
    if (end->exit_code == QSB_OK || end->exit_code == QSB_FINDING) { /* it had finished */
        qsb_note("the run had finished its measurements when the stop request came: its "
                 "results are complete");
        return end->exit_code;
    }
    if (end->exit_code >= 0)
        return end->exit_code; /* it failed and said why */
    int status = qsb_stop_status_of((int)*qsb_stop_request());
    status = status ? status : QSB_SIGTERM;
    const char *cell = end->cell[0] ? end->cell : "(none)";
    bool killed = killed_after_grace(end);
    if (!record->finished) {
        if (killed)
            qsb_warning("a sort did not return within %.0f s of the stop request (in cell %s): "
                        "the measuring process was killed; writing the cells it had finished",
                        QSB_STOP_GRACE_S, cell);
        else
            qsb_warning("the measuring process ended after the stop request (%s, in cell %s); "
                        "writing the cells it had finished", end->cause, cell);
        return report_kept(s, status);
    }
    if (killed)
        return qsb_error(status, "interrupted: the measuring process did not write its files "
                                 "within %.0f s of the stop request and was killed; no results "
                                 "written", QSB_STOP_GRACE_S);
    return qsb_error(status, "interrupted: the measuring process ended while it wrote its files "
                             "(%s); no results written", end->cause);
}

/* The run measured in a watched child; returns the child's exit status, that of report_kept,
** or an error (reported): the child lost twice, or killed after the grace when it had left the
** matrix (the stop's status then). The caller aborts its output files afterwards: those
** committed are no longer temporary. */
static int run_isolated(run_state *s)
{
    int fd = -1;
    qsb_visit_record *record = qsb_visit_record_create(&fd);
    if (!record)
        return QSB_ESYSTEM;
    bool retried = false;
    int status = QSB_OK;
    for (;;) {
        qsb_process_end end;
        status = fork_and_watch(s, record, &end);
        if (status != QSB_OK)
            break;
        if (end.kind == QSB_END_SORT_FAILED) {
            blame(s, record, &end);
            continue;
        }
        if (end.kind == QSB_END_LOST && !retried) {
            qsb_warning("the measuring process was lost (%s) in cell %s; measuring again",
                        end.cause, end.cell[0] ? end.cell : "(none)");
            retried = true;
            continue;
        }
        if (end.kind == QSB_END_LOST)
            status = qsb_error(QSB_ESYSTEM, "the measuring process was lost again (%s) in cell "
                                            "%s; no results written",
                               end.cause, end.cell[0] ? end.cell : "(none)");
        else if (end.kind == QSB_END_INTERRUPTED)
            status = interrupted(s, record, &end);
        else
            status = end.exit_code;
        break;
    }
    qsb_visit_record_close(record, fd);
    return status;
}

/* One process (--reps, --processes 1): measured in a watched child, where a plug-in's crash,
** exit() or hang is reported against it (run_isolated); worker processes are watched by their
** run (workers.h), and a worker measures in itself. */
static int measure_isolated(run_state *s)
{
    if (s->plan.processes > 1 || s->cfg->worker.slice_s > 0)
        return measure_and_report(s, NULL);
    if (!(s->snapshot = qsb_snapshot_create()))
        return QSB_ESYSTEM;
    int status = run_isolated(s);
    qsb_snapshot_free(s->snapshot);
    s->snapshot = NULL;
    return status;
}

/* From the opened outputs to the report: the timer, the placement, the plan, the context. */
static int prepare_and_measure(run_state *s, qsb_timer *timer, const struct tm *utc,
                               double load_average)
{
    const qsb_run_config *cfg = s->cfg;
    bool timed = cfg->metric != QSB_METRIC_COMPARISONS;
    warn_before_measuring(cfg, load_average);
    int status = cfg->pin_cpu >= 0 ? pin_process(cfg->pin_cpu) : QSB_OK;
    if (status == QSB_OK && timed && (status = start_timer(cfg, timer)) == QSB_OK)
        s->timer = timer;
    /* A sanitized build keeps one placement: ASan reports a second copy of an object's
    ** globals as an ODR violation, and its timings mean nothing anyway. */
    qsb_placement_copies copies = cfg->reload && timed && !QSB_SANITIZED
                                      ? QSB_PLACEMENT_RELOADED
                                      : QSB_PLACEMENT_AS_GIVEN;
    if (status == QSB_OK &&
        !(s->placement = qsb_placement_new(cfg->algos, cfg->n_algos, s->plugins,
                                           (qsb_placement_regime)cfg->placement, copies)))
        status = QSB_ESYSTEM;
    if (status == QSB_OK)
        qsb_plan_announce(cfg, &s->plan);
    if (status == QSB_OK)
        status = record_context(&s->results, cfg, &s->plan, s->placement, s->timer, utc,
                                        load_average);
    return status == QSB_OK ? measure_isolated(s) : status;
}

int qsb_run_bench(const qsb_run_config *cfg, qsb_plugins *plugins,
                  const qsb_run_reporter *reporter)
{
    run_state s;
    memset(&s, 0, sizeof s);
    s.cfg = cfg;
    s.plugins = plugins;
    s.reporter = reporter;
    s.started_ns = qsb_clock_ns();
    double load_average = qsb_load_average(); /* before this run adds to it */
    time_t now = time(NULL);
    struct tm utc;
    gmtime_r(&now, &utc);
    qsb_timer timer;
    /* The plan before the outputs: a budget that cannot hold one unit of every cell is a usage
    ** error, one line and no file. */
    int status = qsb_plan_run(cfg, qsb_plugins_among(plugins, cfg->algos, cfg->n_algos),
                              &s.plan);
    if (status != QSB_OK)
        return status;
    /* Caught before the outputs exist: from then on an interrupt must reach the commit. */
    qsb_stop_handlers saved;
    qsb_stop_catch(&saved);
    status = reporter->open ? reporter->open(reporter->arg, &utc) : QSB_OK;
    if (status == QSB_OK)
        status = prepare_and_measure(&s, &timer, &utc, load_average);
    qsb_placement_free(s.placement);
    qsb_stop_release(&saved);
    qsb_results_free(&s.results);
    return status;
}
