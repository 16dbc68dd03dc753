/*
** The run, from its configuration to its result (runner.h).
*/
#include "runner.h"

#include <errno.h>
#include <sched.h>
#include <string.h>
#include <unistd.h>

#include "diag.h"
#include "isolated.h"
#include "machine.h"
#include "memory.h"
#include "option_names.h"
#include "placement.h"
#include "child.h"
#include "plan.h"
#include "plugins.h"
#include "read_results.h"
#include "run_record.h"
#include "shared_inputs.h"
#include "snapshot.h"
#include "stop.h"
#include "timing.h"
#include "totals.h"
#include "version.h"
#include "visit_record.h"
#include "workers.h"

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
    if (!qsb_release_build())
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
        qsb_totals_take_workers(&s->results, &pooled, totals);
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
    qsb_totals_record_split(&s->results.context, &totals, wall_ns);
    qsb_totals_warn(s->cfg, &totals, &s->results);
    if (status != QSB_OK && status != QSB_FINDING)
        return status;
    int stopped = qsb_stop_status();
    qsb_run_outcome outcome = {.status = status,
                               .stopped = stopped ? stopped : qsb_stop_status_of(s->parent_stop),
                               .results = &s->results,
                               .totals = &totals};
    status = s->reporter->report(s->reporter->arg, &outcome);
    qsb_totals_print(&totals, wall_ns, s->cfg->metric, s->plan.processes > 1 ? processes : 1,
                     (size_t)s->cfg->jobs);
    return status;
}

static int measure_in_child(void *arg, qsb_visit_record *record)
{
    return measure_and_report(arg, record);
}

/* The watched child was killed inside the matrix after a stop (isolated.h): the finished
** cells it handed over, or none, reported here with the run's context, marked incomplete. */
static int report_kept(void *arg, const qsb_snapshot *snapshot, int stopped)
{
    run_state *s = arg;
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

/* One process (--reps, --processes 1): measured in a watched child, where a plug-in's crash,
** exit() or hang is reported against it (isolated.h); worker processes are watched by their
** run (workers.h), and a worker measures in itself. */
static int measure_isolated(run_state *s)
{
    if (s->plan.processes > 1 || s->cfg->worker.slice_s > 0)
        return measure_and_report(s, NULL);
    qsb_isolated_run run = {
        .measure = measure_in_child,
        .arg = s,
        .estimate_s = s->plan.estimate_s,
        .stop = qsb_stop_request(),
        .algo_names = (const char *const *)s->results.context.matrix.algos,
        .report_kept = report_kept,
    };
    if (!(run.snapshot = s->snapshot = qsb_snapshot_create()))
        return QSB_ESYSTEM;
    int status = qsb_run_isolated(&run);
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
        status = qsb_run_record_context(&s->results, cfg, &s->plan, s->placement, s->timer, utc,
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
