/*
** The run's plan and the memory it takes (see plan.h). The memory: n * size * buffers must not
** overflow, must be addressable and must stay within MemAvailable, so that a mistyped --nelem
** is one error line instead of an OOM kill or minutes of swapping; and the run's planned peak
** stays within its bound.
*/
#include "plan.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "diag.h"
#include "estimate.h"
#include "option_names.h"

/* ---- The run's memory ---- */

#define DEFAULT_BOUND_SHARE 4                   /* a quarter of physical memory */
#define UNKNOWN_MEMORY_BOUND ((uint64_t)1 << 30) /* where /proc/meminfo says nothing */
#define BUFFERS_OF_PROCESS 4 /* the input, the work copy, the spare result, msort's scratch */
#define FITTING_STEP 1024    /* a count that fits is named in multiples of this */

/* The value of one "Key: N kB" line of /proc/meminfo, in bytes; 0 when absent. */
static uint64_t meminfo_bytes(const char *key)
{
    const char *path = getenv("QSB_MEMINFO");
    FILE *fp = fopen(path && *path ? path : "/proc/meminfo", "r");
    if (!fp)
        return 0;
    char line[256];
    unsigned long long kib = 0;
    size_t key_len = strlen(key);
    int found = 0;
    while (!found && fgets(line, sizeof line, fp))
        found = strncmp(line, key, key_len) == 0 && line[key_len] == ':' &&
                sscanf(line + key_len + 1, "%llu kB", &kib) == 1;
    fclose(fp);
    if (!found || kib > UINT64_MAX / 1024)
        return 0;
    return (uint64_t)kib * 1024;
}

uint64_t qsb_available_memory(void)
{
    return meminfo_bytes("MemAvailable");
}

/* Bytes of physical memory (MemTotal) the same way. */
static uint64_t physical_memory(void)
{
    return meminfo_bytes("MemTotal");
}

/* A quarter of physical memory; 1 GiB when it is unknown. */
static uint64_t default_memory_bound(void)
{
    uint64_t total = physical_memory();
    return total ? total / DEFAULT_BOUND_SHARE : UNKNOWN_MEMORY_BOUND;
}

/* Bytes in the unit that reads best in a message ("1.5 GiB", "512 bytes"). */
static void format_memory(uint64_t bytes, char *buf, size_t len)
{
    static const char *const units[] = {"bytes", "KiB", "MiB", "GiB", "TiB", "PiB", "EiB"};
    double value = (double)bytes;
    size_t unit = 0;
    while (value >= 1024 && unit + 1 < sizeof units / sizeof units[0]) {
        value /= 1024;
        unit++;
    }
    if (unit == 0)
        snprintf(buf, len, "%llu bytes", (unsigned long long)bytes);
    else
        snprintf(buf, len, "%.1f %s", value, units[unit]);
}

int qsb_check_fits(uint64_t nelem, uint64_t size, const char *what)
{
    if (size != 0 && nelem > SIZE_MAX / size)
        return qsb_usage_error("%s: %llu elements of %llu bytes do not fit in the address "
                               "space",
                               what, (unsigned long long)nelem, (unsigned long long)size);
    uint64_t bytes = nelem * size, available = qsb_available_memory();
    if (available != 0 && bytes > available) {
        char need[32], have[32];
        format_memory(bytes, need, sizeof need);
        format_memory(available, have, sizeof have);
        return qsb_usage_error("%s: %llu elements of %llu bytes need %s, more than the %s "
                               "of memory available",
                               what, (unsigned long long)nelem, (unsigned long long)size, need,
                               have);
    }
    return QSB_OK;
}

/* a + b, saturated: a matrix this large is refused, not wrapped around. */
static uint64_t add_sat(uint64_t a, uint64_t b)
{
    return a > UINT64_MAX - b ? UINT64_MAX : a + b;
}

static uint64_t mul_sat(uint64_t a, uint64_t b)
{
    return b && a > UINT64_MAX / b ? UINT64_MAX : a * b;
}

static uint64_t largest_of(const uint64_t *v, size_t n)
{
    uint64_t largest = 0;
    for (size_t i = 0; i < n; i++)
        largest = v[i] > largest ? v[i] : largest;
    return largest;
}

/* Every cell's input once: the cells of the run (its shard's). */
static uint64_t inputs_bytes(const qsb_run_config *cfg)
{
    uint64_t total = 0;
    for (qsb_cell_cursor at = {0}; qsb_run_config_next_cell(cfg, &at);)
        total = add_sat(total, mul_sat(cfg->nelem[at.nelem], cfg->sizes[at.size]));
    return total;
}

static bool with_workers(const qsb_run_config *cfg)
{
    return cfg->processes != 1;
}

void qsb_memory_plan_run(const qsb_run_config *cfg, unsigned plug_ins, qsb_memory_plan *m)
{
    uint64_t largest = mul_sat(largest_of(cfg->nelem, cfg->n_nelem),
                               largest_of(cfg->sizes, cfg->n_sizes));
    memset(m, 0, sizeof *m);
    m->bound_given = cfg->memory_bytes > 0;
    m->bound = m->bound_given ? cfg->memory_bytes : default_memory_bound();
    m->inputs = inputs_bytes(cfg);
    /* Its buffers (run.c): the input, the work copy, the spare result, msort's
    ** scratch, and one per plug-in; a one-process run keeps inputs between visits (run.c). */
    m->buffers = BUFFERS_OF_PROCESS + plug_ins;
    m->base = QSB_PROCESS_BASE_BYTES;
    if (!with_workers(cfg))
        m->base += m->inputs < QSB_KEPT_INPUTS_BYTES ? m->inputs : QSB_KEPT_INPUTS_BYTES;
    m->per_process = add_sat(mul_sat(largest, m->buffers), m->base);
    m->at_once = with_workers(cfg) && cfg->jobs > 1 ? cfg->jobs : 1;
    uint64_t processes = mul_sat(m->per_process, m->at_once);
    uint64_t left = processes < m->bound ? m->bound - processes : 0;
    m->shared = with_workers(cfg) ? (m->inputs < left ? m->inputs : left) : 0;
    m->peak = add_sat(processes, m->shared);
}

bool qsb_memory_fits_whole(const qsb_memory_plan *m)
{
    uint64_t shared = m->shared ? m->inputs : 0;
    return add_sat(mul_sat(m->per_process, m->at_once), shared) <= m->bound;
}

/* The largest count, in steps of FITTING_STEP, whose processes' buffers fit in the bound at
** the largest element size. */
static uint64_t fitting_count(const qsb_run_config *cfg, const qsb_memory_plan *m)
{
    uint64_t per_process = m->bound / m->at_once;
    uint64_t size = largest_of(cfg->sizes, cfg->n_sizes);
    if (per_process <= m->base || size == 0)
        return 0;
    return (per_process - m->base) / size / m->buffers / FITTING_STEP * FITTING_STEP;
}

int qsb_memory_check(const qsb_run_config *cfg, const qsb_memory_plan *m)
{
    uint64_t processes = mul_sat(m->per_process, m->at_once);
    if (processes <= m->bound)
        return QSB_OK;
    char need[32], bound[32], at_once[48] = "";
    format_memory(processes, need, sizeof need);
    format_memory(m->bound, bound, sizeof bound);
    if (m->at_once > 1)
        snprintf(at_once, sizeof at_once, " (%llu processes at once)",
                 (unsigned long long)m->at_once);
    uint64_t fits = fitting_count(cfg, m);
    return qsb_usage_error("--" QSB_OPT_NELEM ": the run's measuring processes need about "
                           "%s%s, beyond its memory bound of %s (%s); the largest count that "
                           "fits with --" QSB_OPT_SIZES " up to %llu: %llu",
                           need, at_once, bound,
                           m->bound_given ? "--" QSB_OPT_MEMORY
                                          : "a quarter of this machine's; --" QSB_OPT_MEMORY
                                            " to change it",
                           (unsigned long long)largest_of(cfg->sizes, cfg->n_sizes),
                           (unsigned long long)fits);
}

/* ---- The plan ---- */

#define SLICE_SHARE 0.25 /* of the budget, spread over the minimum's visits */
#define SLICE_MIN_S 0.005
#define SLICE_MAX_S 1.0

/* --worker K:SLICE: one visit of every cell, no budget (workers.h). */
static void plan_worker(const qsb_run_config *cfg, qsb_run_plan *plan)
{
    plan->jobs = 1;
    plan->min_units = plan->asked_units = 1;
    plan->processes = 1;
    plan->budget_s = 0;
    plan->slice_s = cfg->worker.slice_s;
}

static double auto_budget_s(double minimum_s)
{
    return fmin(fmax(QSB_AUTO_BUDGET_FACTOR * minimum_s, QSB_AUTO_BUDGET_MIN_S),
                QSB_AUTO_BUDGET_MAX_S);
}

/* A later worker's first (and only) visit of each cell: no counted sorts (it takes the
** first worker's counts, run.h), its input's copies and checks, and for a short sort one
** untimed sort (run.c, warmups_of): a round where the round's sorts are that short. */
static double later_worker_s(const double *round_s, const double *first_s, size_t cells,
                             size_t algos, double slice_s)
{
    double total = QSB_WORKER_START_S;
    for (size_t c = 0; c < cells; c++) {
        bool short_sorts = round_s[c] < QSB_WARMUP_AUTO_LIMIT_S * (double)(algos ? algos : 1);
        total += first_s[c] - round_s[c] + (short_sorts ? round_s[c] : 0.0) +
                 fmax(slice_s, round_s[c]);
    }
    return total;
}

/* The seconds k worker processes take, the first jobs of them at once counting (they all start
** before any has a model), the rest a later worker's time each, jobs at a time. */
static double processes_s(const qsb_run_plan *plan, size_t k)
{
    size_t later = k > plan->jobs ? k - plan->jobs : 0;
    return plan->first_s + (double)((later + plan->jobs - 1) / plan->jobs) * plan->worker_s;
}

/* How many worker processes budget_s holds whole (0: not even the first). */
static size_t processes_within(const qsb_run_plan *plan, double budget_s)
{
    if (plan->first_s > budget_s)
        return 0;
    double rounds = plan->worker_s > 0 ? floor((budget_s - plan->first_s) / plan->worker_s)
                                       : (double)QSB_MAX_PROCESSES;
    return (size_t)fmin((double)plan->jobs * (1.0 + rounds), QSB_MAX_PROCESSES);
}

/* Worker processes: the first counts every cell's comparisons, the later ones take its counts
** (run.h, model), so they cost about a round of every cell each. The slices of a small matrix
** are stretched until a process's rounds last as long as its start: with one cell, processes
** of one round each spent most of the run starting
** (docs/results.md#overhead-one-round-per-process), and a round's noise outweighs what
** varies between processes (docs/results.md#calibration-variance-at-each-level).
** With --jobs J, J processes run at once: the first J all count (none has a model yet), and
** the budget holds J times the processes. Where it holds fewer than the minimum, the plan
** has as many as it holds (--processes N stays exact: it takes as long as it takes). */
static void plan_processes(const qsb_run_config *cfg, qsb_run_plan *plan, const double *round_s,
                           const double *first_s, size_t cells)
{
    size_t least = cfg->processes ? (size_t)cfg->processes : QSB_MIN_UNITS;
    size_t jobs = cfg->jobs > 1 ? (size_t)cfg->jobs : 1;
    plan->jobs = jobs;
    plan->asked_units = plan->min_units = least;
    plan->slice_s = fmax(SLICE_MIN_S, QSB_WORKER_START_S / (double)(cells ? cells : 1));
    plan->first_s = qsb_schedule_minimum_s(round_s, first_s, cells, 1, plan->slice_s) +
                    QSB_WORKER_START_S;
    plan->worker_s = later_worker_s(round_s, first_s, cells, cfg->n_algos, plan->slice_s);
    plan->minimum_s = processes_s(plan, least);
    plan->budget_s = cfg->budget_s > 0 ? cfg->budget_s : auto_budget_s(plan->minimum_s);
    double fit = fmin((double)jobs * (1 + floor((plan->budget_s - plan->first_s) /
                                                plan->worker_s + 0.5)),
                      QSB_MAX_PROCESSES);
    plan->processes = cfg->processes ? least : fit > (double)least ? (size_t)fit : least;
    plan->estimate_s = fmax(plan->budget_s, plan->minimum_s);
    if (cfg->processes) { /* exactly N: as long as they take */
        plan->estimate_s = plan->minimum_s;
        return;
    }
    size_t within = processes_within(plan, plan->budget_s);
    if (within < least) {
        plan->min_units = plan->processes = within;
        plan->estimate_s = fmin(plan->budget_s, processes_s(plan, within));
    }
}

/* Seconds of rounds per visit: a share of the budget spread over the minimum's visits. */
static double slice_of_budget(double budget_s, size_t min_units, size_t cells)
{
    if (budget_s <= 0)
        return 0.0;
    return fmin(fmax(SLICE_SHARE * budget_s /
                         ((double)min_units * (double)(cells ? cells : 1)),
                     SLICE_MIN_S),
                SLICE_MAX_S);
}

/* One process: every cell its minimum of units, then the budget on the widest intervals;
** where the budget holds fewer units, as many as it holds. */
static void plan_units(const qsb_run_config *cfg, qsb_run_plan *plan, const double *round_s,
                       const double *first_s, size_t cells)
{
    bool exact = cfg->metric == QSB_METRIC_COMPARISONS;
    plan->processes = 1;
    plan->jobs = 1;
    /* --reps N: N rounds over min(N, QSB_MIN_UNITS) units, one round at least in each. */
    plan->min_units = exact ? 1 : QSB_MIN_UNITS;
    if (cfg->reps && cfg->reps < plan->min_units)
        plan->min_units = (size_t)cfg->reps;
    plan->asked_units = plan->min_units;
    double bare = qsb_schedule_minimum_s(round_s, first_s, cells, plan->min_units, 0.0);
    plan->budget_s = cfg->budget_s;
    if (plan->budget_s == 0 && !cfg->reps && !exact)
        plan->budget_s = auto_budget_s(bare);
    if (cfg->reps || exact)
        plan->budget_s = 0;
    plan->slice_s = slice_of_budget(plan->budget_s, plan->min_units, cells);
    plan->minimum_s = qsb_schedule_minimum_s(round_s, first_s, cells, plan->min_units,
                                             plan->slice_s);
    plan->first_s = qsb_schedule_minimum_s(round_s, first_s, cells, 1, plan->slice_s);
    if (cfg->reps) { /* every cell: N rounds and its first visit */
        plan->minimum_s = 0;
        for (size_t i = 0; i < cells; i++)
            plan->minimum_s += first_s[i] + (double)cfg->reps * round_s[i];
    }
    plan->estimate_s = fmax(plan->budget_s, plan->minimum_s);
    while (plan->budget_s > 0 && plan->min_units > 0 &&
           qsb_schedule_minimum_s(round_s, first_s, cells, plan->min_units, plan->slice_s) >
               plan->budget_s) {
        plan->min_units--;
        plan->estimate_s = plan->budget_s; /* the budget's, whole */
    }
}

void qsb_plan_from_costs(const qsb_run_config *cfg, const double *round_s,
                         const double *first_s, size_t cells, qsb_run_plan *plan)
{
    if (cfg->worker.slice_s > 0)
        plan_worker(cfg, plan);
    else if (cfg->processes == 1)
        plan_units(cfg, plan, round_s, first_s, cells);
    else
        plan_processes(cfg, plan, round_s, first_s, cells);
}

/* "0.5s", "42s", "4:05" (minutes and seconds). */
static void format_duration(double s, char *buf, size_t len)
{
    long total = lround(s);
    if (s < 60)
        snprintf(buf, len, "%.2gs", s);
    else
        snprintf(buf, len, "%ld:%02ld", total / 60, total % 60);
}

int qsb_plan_run(const qsb_run_config *cfg, unsigned plug_ins, qsb_run_plan *plan)
{
    memset(plan, 0, sizeof *plan);
    qsb_memory_plan_run(cfg, plug_ins, &plan->memory);
    if (cfg->worker.slice_s > 0) { /* no estimate: a worker's plan is its run's */
        plan_worker(cfg, plan);
        return QSB_OK;
    }
    size_t cells = qsb_run_config_cells(cfg);
    double *round_s = malloc((cells ? cells : 1) * sizeof *round_s);
    double *first_s = malloc((cells ? cells : 1) * sizeof *first_s);
    qsb_sort_costs costs = {NULL, 0};
    int status = round_s && first_s ? QSB_OK : qsb_out_of_memory("estimate");
    if (status == QSB_OK)
        status = qsb_estimate_probe(cfg, &costs);
    if (status == QSB_OK) {
        qsb_estimate_cells(cfg, &costs, round_s, first_s);
        qsb_plan_from_costs(cfg, round_s, first_s, cells, plan);
        status = qsb_plan_check_budget(cfg, plan);
    }
    qsb_sort_costs_free(&costs);
    free(round_s);
    free(first_s);
    return status;
}

/* A budget that holds needed_s with room for the run's start and end: rounded up to 5 s. */
static double budget_to_name(double needed_s)
{
    return ceil((needed_s * 1.1 + 5.0) / 5.0) * 5.0;
}

int qsb_plan_check_budget(const qsb_run_config *cfg, const qsb_run_plan *plan)
{
    if (plan->budget_s <= 0 || plan->min_units > 0 || cfg->processes > 1)
        return QSB_OK;
    char budget[32], needed[32], name[32];
    format_duration(plan->budget_s, budget, sizeof budget);
    format_duration(plan->first_s, needed, sizeof needed);
    snprintf(name, sizeof name, "%.0fs", budget_to_name(plan->first_s));
    return qsb_usage_error("%s %s cannot hold one %s of this matrix's %zu cells (about %s): "
                           "give --" QSB_OPT_BUDGET " %s or more, or fewer cells",
                           cfg->budget_s > 0 ? "--" QSB_OPT_BUDGET : "the default budget of",
                           budget,
                           cfg->processes == 1 ? "unit" : "worker process",
                           qsb_run_config_cells(cfg), needed, name);
}

/* The warning of a plan whose budget holds fewer processes or units than the minimum, or of
** an exact count that takes longer than --budget. */
static void warn_short(const qsb_run_config *cfg, const qsb_run_plan *plan)
{
    char budget[32], minimum[32], name[32];
    format_duration(plan->budget_s, budget, sizeof budget);
    format_duration(plan->minimum_s, minimum, sizeof minimum);
    snprintf(name, sizeof name, "%.0fs", budget_to_name(plan->minimum_s));
    const char *level = cfg->processes != 1 ? "worker processes" : "units of every cell";
    if (plan->min_units < plan->asked_units)
        qsb_warning("the budget of %s holds %zu %s, fewer than the %zu a row needs for an "
                    "interval (%zu take about %s): its rows have none (too few, flagged "
                    "~noisy); give --" QSB_OPT_BUDGET " %s or more, or fewer cells",
                    budget, plan->min_units, level, plan->asked_units, plan->asked_units,
                    minimum, name);
    else if (cfg->budget_s > 0 && plan->minimum_s > plan->budget_s)
        qsb_warning("--" QSB_OPT_BUDGET " %s is below the %zu %s asked (about %s): the run "
                    "takes that long",
                    budget, plan->min_units, level, minimum);
}

/* "; memory about 2.1 GiB of a 5.8 GiB bound (a quarter of this machine's)". */
static void memory_words(const qsb_memory_plan *m, char *buf, size_t len)
{
    char peak[32], bound[32];
    buf[0] = '\0';
    if (m->bound == 0) /* not planned (a plan made from costs alone) */
        return;
    format_memory(m->peak, peak, sizeof peak);
    format_memory(m->bound, bound, sizeof bound);
    snprintf(buf, len, "; memory about %s of a %s bound (%s)", peak, bound,
             m->bound_given ? "--" QSB_OPT_MEMORY : "a quarter of this machine's");
}

void qsb_plan_announce(const qsb_run_config *cfg, const qsb_run_plan *plan)
{
    char estimate[32], minimum[32], budget[32], memory[160];
    format_duration(plan->estimate_s, estimate, sizeof estimate);
    format_duration(plan->minimum_s, minimum, sizeof minimum);
    format_duration(plan->budget_s, budget, sizeof budget);
    memory_words(&plan->memory, memory, sizeof memory);
    size_t cells = qsb_run_config_cells(cfg);
    warn_short(cfg, plan);
    if (cfg->quiet || cfg->metric == QSB_METRIC_COMPARISONS || cfg->worker.slice_s > 0)
        return;
    if (plan->processes > 1) {
        char worker[32];
        format_duration(plan->worker_s, worker, sizeof worker);
        qsb_note("%zu cells x %zu algorithms in %s%zu worker processes of about %s each: about "
                 "%s (budget %s%s; the minimum of %zu processes is about %s)%s",
                 cells, cfg->n_algos, cfg->processes ? "" : "about ", plan->processes, worker,
                 estimate, budget, cfg->budget_s > 0 ? "" : ", auto", plan->asked_units,
                 minimum, memory);
    } else if (plan->budget_s > 0)
        qsb_note("%zu cells x %zu algorithms: about %s (budget %s%s; the minimum of %zu units "
                 "per cell is about %s)%s",
                 cells, cfg->n_algos, estimate, budget, cfg->budget_s > 0 ? "" : ", auto",
                 plan->asked_units, minimum, memory);
    else
        qsb_note("%zu cells x %zu algorithms, %llu rounds each: about %s%s", cells,
                 cfg->n_algos, (unsigned long long)cfg->reps, estimate, memory);
}

void qsb_plan_describe(const qsb_run_config *cfg, const qsb_run_plan *plan, char *buf,
                       size_t len)
{
    char slowed[96] = "; no slowed sort retaken", at_once[48] = "one after the other";
    if (plan->jobs > 1)
        snprintf(at_once, sizeof at_once, "%zu at once", plan->jobs);
    if (cfg->slowed_pct > 0)
        snprintf(slowed, sizeof slowed, "; short sorts over %g%% slower than their row's "
                 "fastest retaken", cfg->slowed_pct);
    if (plan->processes > 1 && cfg->processes)
        snprintf(buf, len,
                 "processes: %zu worker processes (%s), each one visit per cell (%.3g s of "
                 "rounds), every process one unit%s",
                 plan->min_units, at_once, plan->slice_s, slowed);
    else if (plan->processes > 1)
        snprintf(buf, len,
                 "processes: %zu worker processes visiting every cell, then processes visiting "
                 "%s while %.0f s last (%s); each one visit per cell (%.3g s of rounds), every "
                 "process one unit%s",
                 plan->min_units, cfg->fail_above ? "every cell (a gate spends its budget)"
                                                  : "the cells wider than the precision",
                 plan->estimate_s, at_once, plan->slice_s, slowed);
    else if (cfg->reps)
        snprintf(buf, len, "fixed: %llu rounds over up to %d units%s",
                 (unsigned long long)cfg->reps, QSB_MIN_UNITS, slowed);
    else if (cfg->fail_above)
        snprintf(buf, len,
                 "budget: %zu units per cell at least (%.3g s of rounds each), then more "
                 "units for every cell until %.0f s are spent (a gate spends its budget)%s",
                 plan->min_units, plan->slice_s, plan->budget_s, slowed);
    else
        snprintf(buf, len,
                 "budget: %zu units per cell at least (%.3g s of rounds each), then more "
                 "units for the cells wider than +-%g%% until %.0f s are spent%s",
                 plan->min_units, plan->slice_s, cfg->precision_pct, plan->budget_s, slowed);
}

double qsb_plan_stop_precision(const qsb_run_config *cfg)
{
    return cfg->fail_above ? 0.0 : cfg->precision_pct;
}

qsb_schedule_policy qsb_plan_schedule(const qsb_run_config *cfg, const qsb_run_plan *plan)
{
    return (qsb_schedule_policy){.min_units = plan->min_units,
                                 .max_units = QSB_MAX_UNITS,
                                 .precision_pct = qsb_plan_stop_precision(cfg),
                                 .budget_s = plan->budget_s};
}

qsb_workers_plan qsb_plan_workers(const qsb_run_config *cfg, const qsb_run_plan *plan,
                                  double tsc_hz, int inputs_fd, volatile sig_atomic_t *stop)
{
    return (qsb_workers_plan){
        .argv_head = cfg->worker.argv_head,
        .slice_s = plan->slice_s,
        .budget_s = plan->estimate_s, /* announced: the minimum when larger */
        .start_s = QSB_WORKER_START_S,
        .precision_pct = qsb_plan_stop_precision(cfg),
        .min_processes = plan->min_units,
        .max_processes = cfg->processes ? plan->min_units : QSB_MAX_PROCESSES,
        .exact = cfg->processes > 0,
        .planned = plan->processes,
        .jobs = plan->jobs,
        .worker_s = plan->worker_s,
        .first_s = plan->first_s,
        .tsc_hz = tsc_hz,
        .inputs_fd = inputs_fd,
        .stop = stop,
        .progress = !cfg->quiet,
        .algo_names = NULL, /* the run's results name them */
    };
}
