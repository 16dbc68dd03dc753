/*
** `qsortbench [run]`: parse; check what can be checked before any work (the reference
** table, that the buffers fit in memory); open both result files (a bad path fails in a
** second, not after the run); run the matrix with SIGINT/SIGTERM turned into "stop after
** this sort"; print the table; write and commit the files. An interrupted run still writes
** the finished cells, marked incomplete, and exits 130 / 143. The last line on stderr says
** how much of the wall time was spent inside timed sorts, where the rest went, and the peak
** memory.
**
** Repetitions: --reps N runs exactly N rounds per cell; otherwise the schedule (schedule.h)
** gives every cell its minimum of units, then spends the rest of --budget on the widest
** intervals. Noisy cells are marked in the table and the files and counted in one warning.
** --pin CPU pins the process before the TSC is calibrated.
*/
#include <errno.h>
#include <math.h>
#include <sched.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <time.h>

#include "commands.h"
#include "compare.h"
#include "cover_letter.h"
#include "diag.h"
#include "estimate.h"
#include "export_gbench.h"
#include "machine.h"
#include "memory.h"
#include "outfile.h"
#include "plot.h"
#include "placement.h"
#include "plugin.h"
#include "report.h"
#include "result.h"
#include "run.h"
#include "run_context.h"
#include "run_options.h"
#include "schedule.h"
#include "stats.h"
#include "version.h"
#include "workers.h"

#define RESULTS_DIR "results"
#define WORK_BUFFERS 3 /* the input, the work copy, and msort's scratch of the same size */
#define AUTO_BUDGET_FACTOR 3.0  /* --budget auto: this many times the matrix's minimum, */
#define AUTO_BUDGET_MIN_S 10.0  /* at least this */
#define AUTO_BUDGET_MAX_S 480.0 /* and at most this (the seed matrix in 10 minutes here) */
#define SLICE_SHARE 0.25        /* of the budget, spread over the minimum's visits */
#define SLICE_MIN_S 0.005
#define SLICE_MAX_S 1.0
#define DRIFT_WARN_FACTOR 1.5   /* intervals widened this much or more: one warning line */
#define WORKER_START_S 0.02     /* a worker process's start: exec, loading and placing the
                                ** sorts (9 ms for one cell, 28 ms for 15, measured here; the
                                ** run's TSC frequency is given to it, not calibrated again) */

static volatile sig_atomic_t stop_signal;

static void request_stop(int signo)
{
    stop_signal = signo;
}

/* SA_RESETHAND: a second Ctrl-C kills at once (the final files are still never partial). */
static void catch_signals(struct sigaction old[2])
{
    struct sigaction sa;
    memset(&sa, 0, sizeof sa);
    sa.sa_handler = request_stop;
    sa.sa_flags = SA_RESETHAND;
    sigemptyset(&sa.sa_mask);
    stop_signal = 0;
    sigaction(SIGINT, &sa, &old[0]);
    sigaction(SIGTERM, &sa, &old[1]);
}

static void restore_signals(const struct sigaction old[2])
{
    sigaction(SIGINT, &old[0], NULL);
    sigaction(SIGTERM, &old[1], NULL);
}

static int check_buffers_fit(const qsb_run_config *cfg)
{
    int status = QSB_OK;
    for (size_t i = 0; i < cfg->n_nelem && status == QSB_OK; i++)
        for (size_t j = 0; j < cfg->n_sizes && status == QSB_OK; j++)
            status = qsb_check_fits(cfg->nelem[i], cfg->sizes[j], WORK_BUFFERS, "--nelem");
    return status;
}

static bool release_build(void)
{
    return strcmp(QSB_BUILD_TYPE, "Release") == 0 ||
           strcmp(QSB_BUILD_TYPE, "RelWithDebInfo") == 0;
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
    if (!release_build())
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

static int set_strings(const char *const values[], char **const fields[], size_t n)
{
    for (size_t i = 0; i < n; i++)
        if (qsb_set_string(fields[i], values[i]) != 0)
            return qsb_out_of_memory("context");
    return QSB_OK;
}

/* How the run spends its time (schedule.h), decided before the first sort. */
typedef struct {
    double budget_s;       /* seconds for the whole run; 0 with --reps or exact counts */
    double slice_s;        /* seconds of rounds per visit */
    double minimum_s;      /* estimated: every cell's minimum of units */
    double estimate_s;     /* estimated duration of the run */
    size_t min_units;      /* units per cell at least; with worker processes, processes */
    size_t processes;      /* worker processes planned (workers.h); 1: this process runs */
    double worker_s;       /* estimated: one worker process */
    qsb_placement *placement;
} run_plan;

/* --worker K:SLICE: one visit of every cell, no budget (workers.h). */
static void plan_worker(const qsb_run_config *cfg, run_plan *plan)
{
    plan->min_units = 1;
    plan->processes = 1;
    plan->budget_s = 0;
    plan->slice_s = cfg->worker_slice_s;
}

/* Worker processes: the budget buys processes, each one visit of its cells with a short
** slice of rounds (the process level is the wide one: one round more in a process narrows
** little); at least QSB_MIN_UNITS of every cell (or exactly --processes N), then processes of
** the widest cells until the estimate is spent (workers.h). The slices of a small
** matrix are stretched until a process's rounds last as long as its start: with one cell, 64
** processes of one round each spent 90% of the run starting processes, and a process's round
** noise (about 5% a round) then outweighed what varies between processes (about 1%). */
static void plan_processes(const qsb_run_config *cfg, run_plan *plan, const double *round_s,
                           const double *first_s, size_t cells)
{
    size_t least = cfg->processes ? (size_t)cfg->processes : QSB_MIN_UNITS;
    plan->min_units = least;
    plan->slice_s = fmax(SLICE_MIN_S, WORKER_START_S / (double)(cells ? cells : 1));
    plan->worker_s = qsb_schedule_minimum_s(round_s, first_s, cells, 1, plan->slice_s) +
                     WORKER_START_S;
    plan->minimum_s = (double)least * plan->worker_s;
    plan->budget_s = cfg->budget_s > 0 ? cfg->budget_s
                                       : fmin(fmax(AUTO_BUDGET_FACTOR * plan->minimum_s,
                                                   AUTO_BUDGET_MIN_S),
                                              AUTO_BUDGET_MAX_S);
    double fit = fmin(floor(plan->budget_s / plan->worker_s + 0.5), QSB_MAX_PROCESSES);
    plan->processes = cfg->processes ? least : fit > (double)least ? (size_t)fit : least;
    plan->estimate_s = fmax(plan->budget_s, plan->minimum_s);
    if (cfg->processes) /* exactly N: as long as they take */
        plan->estimate_s = plan->minimum_s;
}

/* One process: every cell its minimum of units, then the budget on the widest intervals. */
static void plan_units(const qsb_run_config *cfg, run_plan *plan, const double *round_s,
                       const double *first_s, size_t cells)
{
    bool exact = cfg->metric == QSB_METRIC_COMPARISONS;
    plan->processes = 1;
    /* --reps N: N rounds over min(N, QSB_MIN_UNITS) units, one round at least in each. */
    plan->min_units = exact ? 1 : QSB_MIN_UNITS;
    if (cfg->reps && cfg->reps < plan->min_units)
        plan->min_units = (size_t)cfg->reps;
    double bare = qsb_schedule_minimum_s(round_s, first_s, cells, plan->min_units, 0.0);
    plan->budget_s = cfg->budget_s;
    if (plan->budget_s == 0 && !cfg->reps && !exact)
        plan->budget_s = fmin(fmax(AUTO_BUDGET_FACTOR * bare, AUTO_BUDGET_MIN_S),
                              AUTO_BUDGET_MAX_S);
    if (cfg->reps || exact)
        plan->budget_s = 0;
    plan->slice_s = plan->budget_s > 0
                        ? fmin(fmax(SLICE_SHARE * plan->budget_s /
                                        ((double)plan->min_units * (double)(cells ? cells : 1)),
                                    SLICE_MIN_S),
                               SLICE_MAX_S)
                        : 0.0;
    plan->minimum_s = qsb_schedule_minimum_s(round_s, first_s, cells, plan->min_units,
                                             plan->slice_s);
    if (cfg->reps) { /* every cell: N rounds and its first visit */
        plan->minimum_s = 0;
        for (size_t i = 0; i < cells; i++)
            plan->minimum_s += first_s[i] + (double)cfg->reps * round_s[i];
    }
    plan->estimate_s = fmax(plan->budget_s, plan->minimum_s);
}

static int plan_run(const qsb_run_config *cfg, run_plan *plan)
{
    if (cfg->worker_slice_s > 0) {
        plan_worker(cfg, plan);
        return QSB_OK;
    }
    size_t cells = qsb_run_config_cells(cfg);
    double *round_s = malloc((cells ? cells : 1) * sizeof *round_s);
    double *first_s = malloc((cells ? cells : 1) * sizeof *first_s);
    int status = round_s && first_s ? QSB_OK : qsb_out_of_memory("estimate");
    if (status == QSB_OK)
        status = qsb_estimate_cells(cfg, round_s, first_s);
    if (status == QSB_OK && cfg->processes == 1)
        plan_units(cfg, plan, round_s, first_s, cells);
    else if (status == QSB_OK)
        plan_processes(cfg, plan, round_s, first_s, cells);
    free(round_s);
    free(first_s);
    return status;
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

/* Before the first sort: what the run will take, and a warning when the budget cannot hold
** the matrix's minimum (the counts are never shrunk to fit). */
static void announce_plan(const qsb_run_config *cfg, const run_plan *plan)
{
    char estimate[32], minimum[32], budget[32];
    format_duration(plan->estimate_s, estimate, sizeof estimate);
    format_duration(plan->minimum_s, minimum, sizeof minimum);
    format_duration(plan->budget_s, budget, sizeof budget);
    size_t cells = qsb_run_config_cells(cfg);
    const char *level = plan->processes > 1 ? "processes" : "units per cell";
    if (cfg->budget_s > 0 && plan->minimum_s > plan->budget_s)
        qsb_warning("--budget %s is below this matrix's minimum (about %s for %zu %s): the run "
                    "takes that long; give a longer --budget or fewer cells",
                    budget, minimum, plan->min_units, level);
    if (cfg->quiet || cfg->metric == QSB_METRIC_COMPARISONS || cfg->worker_slice_s > 0)
        return;
    if (plan->processes > 1) {
        char worker[32];
        format_duration(plan->worker_s, worker, sizeof worker);
        qsb_note("%zu cells x %zu algorithms in %s%zu worker processes of about %s each: about "
                 "%s (budget %s%s; the minimum of %zu processes is about %s)",
                 cells, cfg->n_algos, cfg->processes ? "" : "about ", plan->processes, worker,
                 estimate, budget, cfg->budget_s > 0 ? "" : ", auto", plan->min_units,
                 minimum);
    } else if (plan->budget_s > 0)
        qsb_note("%zu cells x %zu algorithms: about %s (budget %s%s; the minimum of %zu units "
                 "per cell is about %s)",
                 cells, cfg->n_algos, estimate, budget, cfg->budget_s > 0 ? "" : ", auto",
                 plan->min_units, minimum);
    else
        qsb_note("%zu cells x %zu algorithms, %llu rounds each: about %s", cells, cfg->n_algos,
                 (unsigned long long)cfg->reps, estimate);
}

/* The machine's state and the repetition rules, recorded beside the results. */
static int fill_noise_context(qsb_context *c, const qsb_run_config *cfg, const run_plan *plan,
                              double load_average)
{
    char governor[64], turbo[16], repetitions[384], warmup[32];
    qsb_cpu_governor(governor, sizeof governor);
    qsb_turbo_state(turbo, sizeof turbo);
    c->load_average = load_average >= 0 ? load_average : NAN;
    c->pinned_cpu = cfg->pin_cpu;
    c->release_build = release_build();
    c->sanitized = QSB_SANITIZED;
    c->precision_pct = cfg->precision_pct;
    c->budget_s = plan->budget_s > 0 ? plan->budget_s : NAN;
    c->drift_ratios = c->drift_medians = NAN; /* known when the run ends (run.c) */
    char slowed[96] = "; no slowed sort retaken", placement[256];
    qsb_placement_describe(plan->placement, placement, sizeof placement);
    if (cfg->slowed_pct > 0)
        snprintf(slowed, sizeof slowed, "; short sorts over %g%% slower than their row's "
                 "fastest retaken", cfg->slowed_pct);
    if (plan->processes > 1 && cfg->processes)
        snprintf(repetitions, sizeof repetitions,
                 "processes: %zu worker processes, each one visit per cell (%.3g s of rounds), "
                 "every process one unit%s", plan->min_units, plan->slice_s, slowed);
    else if (plan->processes > 1)
        snprintf(repetitions, sizeof repetitions,
                 "processes: %zu worker processes visiting every cell, then processes visiting "
                 "%s while %.0f s last; each one visit per cell (%.3g s of rounds), every "
                 "process one unit%s",
                 plan->min_units, cfg->fail_above ? "every cell (a gate spends its budget)"
                                                  : "the cells wider than the precision",
                 plan->estimate_s, plan->slice_s, slowed);
    else if (cfg->reps)
        snprintf(repetitions, sizeof repetitions, "fixed: %llu rounds over up to %d units%s",
                 (unsigned long long)cfg->reps, QSB_MIN_UNITS, slowed);
    else if (cfg->fail_above)
        snprintf(repetitions, sizeof repetitions,
                 "budget: %d units per cell at least (%.3g s of rounds each), then more "
                 "units for every cell until %.0f s are spent (a gate spends its budget)%s",
                 QSB_MIN_UNITS, plan->slice_s, plan->budget_s, slowed);
    else
        snprintf(repetitions, sizeof repetitions,
                 "budget: %d units per cell at least (%.3g s of rounds each), then more "
                 "units for the cells wider than +-%g%% until %.0f s are spent%s",
                 QSB_MIN_UNITS, plan->slice_s, cfg->precision_pct, plan->budget_s, slowed);
    if (cfg->warmup == QSB_WARMUP_AUTO)
        snprintf(warmup, sizeof warmup, "auto");
    else
        snprintf(warmup, sizeof warmup, "%llu", (unsigned long long)cfg->warmup);
    const char *const values[] = {governor, turbo, repetitions, warmup,
                                  qsb_nelem_source_text(cfg->nelem_source), placement};
    char **const fields[] = {&c->governor, &c->turbo, &c->repetitions, &c->warmup,
                             &c->nelem_source, &c->placement};
    return set_strings(values, fields, sizeof fields / sizeof fields[0]);
}

/* Issue 18: the machine's name, the shard and the whole matrix (result.h). */
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

static int fill_context(qsb_results *r, const qsb_run_config *cfg, const run_plan *plan,
                        const qsb_timer *timer, const struct tm *utc, double load_average)
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
        cfg->command_line, cfg->algos[0].name};
    char **const fields[] = {
        &c->tool_version, &c->date,     &c->host,       &c->cpu_model,    &c->caches,
        &c->libc,         &c->compiler, &c->build_flags, &c->build_type,  &c->timer,
        &c->metric,       &c->mode,     &c->command_line, &r->baseline};
    int status = set_strings(values, fields, sizeof fields / sizeof fields[0]);
    if (status == QSB_OK)
        status = fill_matrix(c, cfg);
    return status == QSB_OK ? fill_noise_context(c, cfg, plan, load_average) : status;
}

/* --pin: this process (its one thread) on that CPU from now on, before the TSC is
** calibrated. The CPU was checked available when the options were parsed. */
static int pin_process(int cpu)
{
    cpu_set_t set;
    CPU_ZERO(&set);
    CPU_SET(cpu, &set);
    if (sched_setaffinity(0, sizeof set, &set) != 0)
        return qsb_error(QSB_ESYSTEM, "--pin %d: cannot pin this process to CPU %d: %s", cpu,
                         cpu, strerror(errno));
    return QSB_OK;
}

/* results/qsortbench-YYYYmmddTHHMMSSZ.<ext>, creating results/ when absent. */
static int default_path(char *buf, size_t len, const struct tm *utc, const char *ext)
{
    char stamp[32];
    strftime(stamp, sizeof stamp, "%Y%m%dT%H%M%SZ", utc);
    if (mkdir(RESULTS_DIR, 0777) != 0 && errno != EEXIST)
        return qsb_error(QSB_ESYSTEM, "cannot create the directory '" RESULTS_DIR "': %s "
                                      "(or give --csv and --json)",
                         strerror(errno));
    snprintf(buf, len, RESULTS_DIR "/qsortbench-%s.%s", stamp, ext);
    return QSB_OK;
}

enum { OUT_CSV, OUT_JSON, OUT_GBENCH, OUT_COUNT };

typedef struct {
    qsb_outputs out; /* OUT_*; OUT_GBENCH only with --export gbench=FILE */
    char csv_default[96], json_default[96];
} result_files;

static int open_files(result_files *f, const qsb_run_config *cfg, const struct tm *utc)
{
    qsb_output_spec paths[OUT_COUNT] = {
        {"--csv", cfg->csv_path}, {"--json", cfg->json_path}, {"--export", cfg->gbench_path}};
    int status = QSB_OK;
    if (!paths[OUT_CSV].path &&
        (status = default_path(f->csv_default, sizeof f->csv_default, utc, "csv")) == QSB_OK)
        paths[OUT_CSV].path = f->csv_default;
    if (status == QSB_OK && !paths[OUT_JSON].path &&
        (status = default_path(f->json_default, sizeof f->json_default, utc, "json")) == QSB_OK)
        paths[OUT_JSON].path = f->json_default;
    return status == QSB_OK ? qsb_outputs_open(&f->out, paths, OUT_COUNT) : status;
}

/* Writes every report and commits every file; on any failure no final file is touched by a
** partial write. */
static int write_files(result_files *f, const qsb_results *r)
{
    FILE *gbench = f->out.file[OUT_GBENCH].fp;
    int status = qsb_report_csv(f->out.file[OUT_CSV].fp, r);
    if (status == QSB_OK)
        status = qsb_report_json(f->out.file[OUT_JSON].fp, r);
    if (status == QSB_OK && gbench)
        status = qsb_export_gbench(gbench, r);
    return qsb_outputs_close(&f->out, status);
}

static const char *file_name(const char *given, const char *dflt)
{
    if (!given)
        return dflt;
    return strcmp(given, "-") == 0 ? "standard output" : given;
}

/* The last line: where the wall time went. Overhead is everything outside the timed sorts:
** the counted sorts (the comparisons column), warm-ups and batch probes, timed sorts thrown
** away because the process was preempted or slowed during them, and outside any sort: input
** generation, copies into the work buffer, result checks, and the rest (statistics, policy,
** progress line, allocation; with worker processes, starting them and reading their files).
** A run of worker processes sums its workers' parts (their own last lines are not shown). */
static void print_totals(const qsb_run_totals *t, double wall_ns, bool timed, size_t processes)
{
    struct rusage usage;
    bool workers = processes > 1;
    double peak_mib = getrusage(workers ? RUSAGE_CHILDREN : RUSAGE_SELF, &usage) == 0
                          ? (double)usage.ru_maxrss / 1024 : 0;
    char shared[64] = ""; /* the largest worker's peak does not hold all of them */
    if (t->shared_bytes)
        snprintf(shared, sizeof shared, " and %.1f MiB of shared inputs",
                 (double)t->shared_bytes / (1024 * 1024));
    double pct = wall_ns > 0 ? 100 / wall_ns : 0;
    double in_sorts = t->timed_ns + t->counted_ns + t->warmup_ns + t->retake_ns;
    double rest = wall_ns - in_sorts - t->generate_ns - t->copy_ns - t->verify_ns;
    char who[64] = "";
    if (workers)
        snprintf(who, sizeof who, "%zu worker processes, ", processes);
    if (!timed) {
        qsb_note("%sno timed sorts (comparisons are counted), %.2f s wall time; peak memory "
                 "%.1f MiB",
                 who, wall_ns / 1e9, peak_mib);
        return;
    }
    qsb_note("%s%.2f s inside timed sorts, %.2f s wall time: overhead %.1f%% (counted sorts "
             "%.1f%%, warm-ups %.1f%%, %zu preempted and %zu slowed sorts retaken %.1f%%; "
             "outside any sort %.1f%%: inputs %.1f%%, copies %.1f%%, checks %.1f%%, %s "
             "%.1f%%); samples kept preempted %zu, slowed %zu; peak memory %.1f MiB%s",
             who, t->timed_ns / 1e9, wall_ns / 1e9, (wall_ns - t->timed_ns) * pct,
             t->counted_ns * pct, t->warmup_ns * pct, t->retaken_preempted, t->retaken_slowed,
             t->retake_ns * pct, (wall_ns - in_sorts) * pct, t->generate_ns * pct,
             t->copy_ns * pct, t->verify_ns * pct,
             workers ? "starting the processes and other" : "other",
             (rest > 0 ? rest : 0) * pct, t->kept_preempted, t->kept_slowed, peak_mib,
             shared);
}

/* Where the wall time went, into the results' context (result.h qsb_time_split). */
static void record_time_split(qsb_context *c, const qsb_run_totals *t, double wall_ns)
{
    c->time = (qsb_time_split){wall_ns / 1e9,       t->timed_ns / 1e9,  t->counted_ns / 1e9,
                               t->warmup_ns / 1e9,  t->retake_ns / 1e9, t->generate_ns / 1e9,
                               t->copy_ns / 1e9,    t->verify_ns / 1e9};
    if (!t->split_known)
        c->time.wall_s = 0;
}

/* One line for all the noisy cells (they are marked in the table and the files). */
static void warn_noisy_total(const qsb_run_config *cfg, const qsb_run_totals *t)
{
    if (t->noisy_cells == 0 || cfg->metric == QSB_METRIC_COMPARISONS)
        return;
    qsb_warning("%zu of %zu cells are noisy (an interval wider than +-%g%%, none under %d "
                "units, or slowed by a busy machine): marked '~noisy' in the table and 'noisy' in "
                "the files; a longer --budget or a quieter machine helps",
                t->noisy_cells, t->cells_done, cfg->precision_pct, QSB_MIN_UNITS);
}

/* One line when the time level widened the intervals markedly (stats.h qsb_drift). */
static void warn_drift(const qsb_context *c)
{
    if (!(c->drift_ratios >= DRIFT_WARN_FACTOR || c->drift_medians >= DRIFT_WARN_FACTOR))
        return;
    qsb_warning("the machine's state moved during the run: the later half of the units differs "
                "from the earlier half %.1fx (deltas) and %.1fx (medians) more than the units' "
                "scatter explains; intervals widened by these factors (docs/measurement.md)",
                c->drift_ratios, c->drift_medians);
}

/* What the workers' files say they spent (their sum, pool.c), into the run's totals beside
** its own generation of the inputs; without it (a file that does not say), only the time
** inside timed sorts, from the samples. */
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

/* The workers' pooled cells into the run's results (the context stays the run's) and what
** the run's last lines count. */
static void adopt_cells(qsb_results *results, qsb_results *pooled, qsb_run_totals *totals)
{
    qsb_cell *cells = results->cells;
    size_t ncells = results->ncells;
    results->cells = pooled->cells;
    results->ncells = pooled->ncells;
    pooled->cells = cells;
    pooled->ncells = ncells;
    results->context.incomplete = pooled->context.incomplete || stop_signal;
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

/* The precision that ends a run before its budget: none for a gating run (--fail-above), whose
** power to catch a small slowdown grows with its processes. On one cell (random 49,152 x 4, a
** 3% slower candidate, tenth session) runs that stopped at the default precision after 10
** processes (about 1 s) caught it in 18 of 20; runs that spent their 10 s, in 20 of 20. */
static double stop_precision(const qsb_run_config *cfg)
{
    return cfg->fail_above ? 0.0 : cfg->precision_pct;
}

/* The cells in this process (its units; a worker's, one visit of each), with the inputs its
** run shared when it is a worker. */
static int measure_here(const qsb_run_config *cfg, const run_plan *plan, const qsb_timer *timer,
                        qsb_results *results, qsb_run_totals *totals)
{
    qsb_shared_inputs *inputs = NULL;
    if (cfg->inputs_fd > 0 && !(inputs = qsb_shared_inputs_open(cfg->inputs_fd)))
        return QSB_EUSAGE;
    qsb_schedule_policy schedule = {plan->min_units, QSB_MAX_UNITS, stop_precision(cfg),
                                    plan->budget_s};
    qsb_run_setup setup = {cfg,
                           timer,
                           schedule,
                           &stop_signal,
                           !cfg->quiet,
                           plan->slice_s,
                           plan->placement,
                           cfg->worker_index ? (size_t)cfg->worker_index - 1 : 0,
                           inputs};
    int status = qsb_run_matrix(&setup, results, totals);
    qsb_shared_inputs_close(inputs);
    return status;
}

/* What the run's shared inputs may take: a quarter of the memory available (each worker
** needs its buffers beside them), or 1 GiB where that is unknown. */
static uint64_t shared_inputs_cap(void)
{
    uint64_t available = qsb_available_memory();
    return available ? available / 4 : (uint64_t)1 << 30;
}

/* The cells, measured in this process (its units) or by worker processes (workers.h), which
** share the inputs the run generates once (shared_inputs.h). */
static int measure(const qsb_run_config *cfg, const run_plan *plan, const qsb_timer *timer,
                   qsb_results *results, qsb_run_totals *totals, size_t *processes)
{
    if (plan->processes <= 1)
        return measure_here(cfg, plan, timer, results, totals);
    double generate_s = 0;
    qsb_shared_inputs *inputs = qsb_shared_inputs_create(cfg, shared_inputs_cap(), &generate_s);
    totals->generate_ns = generate_s * 1e9;
    totals->shared_bytes = inputs ? qsb_shared_inputs_bytes(inputs) : 0;
    qsb_workers_plan workers = {cfg->worker_argv,
                                plan->slice_s,
                                plan->estimate_s, /* announced: the minimum when larger */
                                WORKER_START_S,
                                stop_precision(cfg),
                                plan->min_units,
                                cfg->processes ? plan->min_units : QSB_MAX_PROCESSES,
                                plan->processes,
                                plan->worker_s,
                                timer->tsc_hz,
                                inputs ? qsb_shared_inputs_fd(inputs) : -1,
                                &stop_signal,
                                !cfg->quiet};
    qsb_results pooled;
    int status = qsb_run_workers(&workers, &pooled, processes);
    qsb_shared_inputs_close(inputs);
    if (status == QSB_OK || status == QSB_FINDING)
        adopt_cells(results, &pooled, totals);
    qsb_results_free(&pooled);
    return status;
}

/* run --plot: the charts beside the CSV file (beside the JSON one when the CSV went to
** stdout), listed on stdout after the table when stdout carries the table. */
static int plot_beside(const qsb_run_config *cfg, const result_files *files,
                       const qsb_results *results, bool table_on_stdout)
{
    const char *csv = cfg->csv_path ? cfg->csv_path : files->csv_default;
    const char *json = cfg->json_path ? cfg->json_path : files->json_default;
    return qsb_plot_results_file(results, strcmp(csv, "-") != 0 ? csv : json, NULL,
                                 QSB_PLOT_PNG, NULL, table_on_stdout ? stdout : NULL);
}

/* The run itself, between the opened files and the reports. */
static int run_and_report(const qsb_run_config *cfg, const run_plan *plan,
                          const qsb_timer *timer, const qsb_reference *ref, result_files *files,
                          qsb_results *results)
{
    qsb_run_totals totals;
    memset(&totals, 0, sizeof totals);
    totals.split_known = true; /* until workers' files do not say */
    size_t processes = 1;
    uint64_t start = qsb_clock_ns();
    int status = measure(cfg, plan, timer, results, &totals, &processes);
    double wall_ns = (double)(qsb_clock_ns() - start);
    record_time_split(&results->context, &totals, wall_ns);
    warn_noisy_total(cfg, &totals);
    warn_drift(&results->context);
    if (status != QSB_OK && status != QSB_FINDING)
        return qsb_outputs_close(&files->out, status);
    bool table_on_stdout = files->out.file[OUT_CSV].final_path &&
                           files->out.file[OUT_JSON].final_path;
    if (table_on_stdout)
        qsb_report_table(stdout, results, ref);
    int write_status = write_files(files, results);
    if (table_on_stdout && (fflush(stdout) != 0 || ferror(stdout)))
        write_status = qsb_error(QSB_ESYSTEM, "cannot write to standard output");
    const char *csv = file_name(cfg->csv_path, files->csv_default);
    const char *json = file_name(cfg->json_path, files->json_default);
    if (write_status != QSB_OK)
        status = write_status;
    else if (stop_signal)
        status = qsb_error(stop_signal == SIGTERM ? QSB_SIGTERM : QSB_SIGINT,
                           "interrupted: the %zu finished cells are in %s and %s, marked "
                           "incomplete",
                           results->ncells, qsb_quote_path(csv), qsb_quote_path(json));
    else if (status == QSB_FINDING)
        status = qsb_error(QSB_FINDING, "%zu result(s) failed verification (FAILED above; "
                                        "results in %s and %s)",
                           totals.failed_rows, qsb_quote_path(csv), qsb_quote_path(json));
    else if (cfg->fail_above)
        status = qsb_gate_fail_above(results, cfg->fail_above_pct, cfg->fail_above_alpha,
                                     cfg->fail_above_correction);
    if (cfg->plot && write_status == QSB_OK && !stop_signal) { /* failed cells are marked */
        int plot_status = plot_beside(cfg, files, results, table_on_stdout);
        if (status == QSB_OK)
            status = plot_status;
    }
    print_totals(&totals, wall_ns, timer != NULL, plan->processes > 1 ? processes : 1);
    return status;
}

int qsb_run_execute(const qsb_run_config *cfg)
{
    qsb_reference ref;
    memset(&ref, 0, sizeof ref);
    qsb_results results;
    memset(&results, 0, sizeof results);
    result_files files;
    memset(&files, 0, sizeof files);
    qsb_timer timer;
    run_plan plan;
    memset(&plan, 0, sizeof plan);
    int status = cfg->reference ? qsb_reference_load(cfg->reference, &ref) : QSB_OK;
    if (status == QSB_OK)
        status = check_buffers_fit(cfg);
    if (status == QSB_OK && cfg->plot)
        status = qsb_plot_check(); /* no gnuplot: say so now, not after the run */
    double load_average = qsb_load_average(); /* before this run adds to it */
    time_t now = time(NULL);
    struct tm utc;
    gmtime_r(&now, &utc);
    /* Caught before the files exist: from then on an interrupt must reach the commit. */
    struct sigaction old[2];
    catch_signals(old);
    if (status == QSB_OK)
        status = open_files(&files, cfg, &utc);
    if (status != QSB_OK)
        goto done;
    if (cfg->nelem_source == QSB_NELEM_FALLBACK)
        qsb_warning("--nelem auto: no cache sizes under %s; using the seed's "
                    QSB_FALLBACK_NELEM, qsb_sysfs_cpu_root());
    warn_about_build(cfg);
    bool timed = cfg->metric != QSB_METRIC_COMPARISONS;
    if (timed)
        warn_about_load(load_average);
    if (cfg->pin_cpu >= 0)
        status = pin_process(cfg->pin_cpu);
    bool cycles = cfg->metric == QSB_METRIC_CYCLES;
    if (status == QSB_OK && timed &&
        (cycles && cfg->tsc_hz > 0 ? qsb_timer_init_tsc_hz(&timer, cfg->tsc_hz)
                                   : qsb_timer_init(&timer, cycles)) != 0)
        status = qsb_error(QSB_ESYSTEM, "the invariant TSC could not be calibrated; use "
                                        "--metric ns");
    /* A sanitized build keeps one placement: ASan reports a second copy of an object's
    ** globals as an ODR violation, and its timings mean nothing anyway. */
    if (status == QSB_OK &&
        !(plan.placement = qsb_placement_new(cfg->algos, cfg->n_algos,
                                             (qsb_placement_regime)cfg->placement,
                                             cfg->reload && timed && !QSB_SANITIZED)))
        status = QSB_ESYSTEM;
    if (status == QSB_OK)
        status = plan_run(cfg, &plan);
    if (status == QSB_OK)
        announce_plan(cfg, &plan);
    if (status == QSB_OK)
        status = fill_context(&results, cfg, &plan, timed ? &timer : NULL, &utc, load_average);
    if (status == QSB_OK)
        status = run_and_report(cfg, &plan, timed ? &timer : NULL, cfg->reference ? &ref : NULL,
                                &files, &results);
    else
        qsb_outputs_close(&files.out, status);
done:
    qsb_placement_free(plan.placement);
    restore_signals(old);
    qsb_results_free(&results);
    qsb_reference_free(&ref);
    return status;
}

int qsb_cmd_run(int argc, char **argv)
{
    qsb_run_config cfg;
    int status = qsb_run_config_parse(&cfg, argc, argv);
    if (status == QSB_OK)
        status = qsb_run_execute(&cfg);
    else if (status == QSB_HELP_SHOWN)
        status = QSB_OK;
    qsb_run_config_free(&cfg);
    qsb_plugins_unload(); /* after the configuration, which points into the plug-ins */
    return status;
}
