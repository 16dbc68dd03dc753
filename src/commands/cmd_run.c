/*
** `qsortbench [run]`: parse; check what can be checked before any work (the reference
** table, that the buffers fit in memory); open both result files (a bad path fails in a
** second, not after the run); run the matrix with SIGINT/SIGTERM turned into "stop after
** this sort"; print the table; write and commit the files. An interrupted run still writes
** the finished cells, marked incomplete, and exits 130 / 143. The last line on stderr says
** how much of the wall time was spent inside timed sorts, where the rest went, and the peak
** memory.
**
** How the budget buys worker processes or units, the precision stop and the worker's
** command line are the bench layer's (plan.h, worker_args.h), as are what the run records of
** itself and its last lines (run_record.h, totals.h); the files are run_files.h's; a
** one-process run is measured in a watched child (isolated.h). --pin CPU pins the process
** before the TSC is calibrated.
*/
#include <errno.h>
#include <sched.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "commands.h"
#include "compare.h"
#include "diag.h"
#include "isolated.h"
#include "machine.h"
#include "memory.h"
#include "placement.h"
#include "plan.h"
#include "plot.h"
#include "plugin.h"
#include "read_results.h"
#include "report.h"
#include "result.h"
#include "run.h"
#include "run_files.h"
#include "run_options.h"
#include "run_record.h"
#include "totals.h"
#include "version.h"
#include "visit_record.h"
#include "workers.h"

#define WORK_BUFFERS 3 /* the input, the work copy, and msort's scratch of the same size */

static volatile sig_atomic_t stop_signal;

static void request_stop(int signo)
{
    stop_signal = signo;
}

/* SA_RESETHAND: a second Ctrl-C kills at once (the final files are still never partial).
** A worker process starts with both signals blocked (workers.h): they are unblocked once
** caught. */
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
    sigset_t caught;
    sigemptyset(&caught);
    sigaddset(&caught, SIGINT);
    sigaddset(&caught, SIGTERM);
    sigprocmask(SIG_UNBLOCK, &caught, NULL);
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

#define FINISH_RESERVE_S 1.0 /* of --budget, kept for pooling and writing the results */

/* What the run goes through, from its measurement to its files. */
typedef struct {
    const qsb_run_config *cfg;
    const qsb_run_plan *plan;
    qsb_placement *placement;
    const qsb_timer *timer;
    const qsb_reference *ref;
    qsb_run_files *files;
    qsb_results *results;
    uint64_t started_ns; /* when the command began: --budget bounds the whole run */
} run_parts;

/* The cells in this process (its units; a worker's, one visit of each), with the inputs its
** run shared, the visits it records for its run and its model (run.h) when it is a worker. */
static int measure_here(const run_parts *p, qsb_run_totals *totals, qsb_visit_record *record)
{
    const qsb_run_config *cfg = p->cfg;
    qsb_shared_inputs *inputs = NULL;
    qsb_visit_record *worker_record = NULL;
    qsb_results model;
    memset(&model, 0, sizeof model);
    if (cfg->inputs_fd > 0 && !(inputs = qsb_shared_inputs_open(cfg->inputs_fd)))
        return QSB_EUSAGE;
    int status = qsb_plugins_load(); /* here, where the sorts run: never in the files' owner */
    if (status == QSB_OK && cfg->visit_fd > 0 &&
        !(record = worker_record = qsb_visit_record_open(cfg->visit_fd)))
        status = QSB_EUSAGE;
    if (status == QSB_OK && cfg->model_path)
        status = qsb_read_results(cfg->model_path, &model);
    qsb_run_setup setup = {cfg,
                           p->timer,
                           qsb_plan_schedule(cfg, p->plan),
                           &stop_signal,
                           !cfg->quiet,
                           p->plan->slice_s,
                           p->placement,
                           cfg->worker_index ? (size_t)cfg->worker_index - 1 : 0,
                           inputs,
                           cfg->model_path ? &model : NULL,
                           record};
    if (status == QSB_OK)
        status = qsb_run_matrix(&setup, p->results, totals);
    qsb_results_free(&model);
    qsb_shared_inputs_close(inputs);
    qsb_visit_record_close(worker_record, -1);
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
static int measure(const run_parts *p, qsb_run_totals *totals, size_t *processes,
                   qsb_visit_record *record)
{
    const qsb_run_config *cfg = p->cfg;
    if (p->plan->processes <= 1)
        return measure_here(p, totals, record);
    double generate_s = 0;
    qsb_shared_inputs *inputs = qsb_shared_inputs_create(cfg, shared_inputs_cap(), &generate_s);
    totals->generate_ns = generate_s * 1e9;
    totals->shared_bytes = inputs ? qsb_shared_inputs_bytes(inputs) : 0;
    qsb_workers_plan workers = qsb_plan_workers(cfg, p->plan, p->timer->tsc_hz,
                                                inputs ? qsb_shared_inputs_fd(inputs) : -1,
                                                &stop_signal);
    workers.algo_names = (const char *const *)p->results->context.matrix.algos;
    /* The estimate, the calibration and the inputs came out of the budget too, and pooling
    ** the processes and writing the files will (0.1-0.5 s for the seed matrix). */
    workers.budget_s -= (double)(qsb_clock_ns() - p->started_ns) / 1e9 + FINISH_RESERVE_S;
    qsb_results pooled;
    int status = qsb_run_workers(&workers, &pooled, processes);
    qsb_shared_inputs_close(inputs);
    if (status == QSB_OK || status == QSB_FINDING)
        qsb_totals_adopt_workers(p->results, &pooled, totals, stop_signal != 0);
    qsb_results_free(&pooled);
    return status;
}

/* The run itself, between the opened files and the reports. */
static int run_and_report(const run_parts *p, qsb_visit_record *record)
{
    const qsb_run_config *cfg = p->cfg;
    qsb_run_files *files = p->files;
    qsb_results *results = p->results;
    qsb_run_totals totals;
    memset(&totals, 0, sizeof totals);
    totals.split_known = true; /* until workers' files do not say */
    size_t processes = 1;
    uint64_t start = qsb_clock_ns();
    int status = measure(p, &totals, &processes, record);
    double wall_ns = (double)(qsb_clock_ns() - start);
    qsb_totals_record_split(&results->context, &totals, wall_ns);
    qsb_totals_warn(cfg, &totals, results);
    if (status != QSB_OK && status != QSB_FINDING)
        return qsb_outputs_close(&files->out, status);
    bool table_on_stdout = files->out.file[QSB_RUN_CSV].final_path &&
                           files->out.file[QSB_RUN_JSON].final_path;
    if (table_on_stdout)
        qsb_report_table(stdout, results, p->ref);
    int write_status = qsb_run_files_write(files, cfg, results);
    if (table_on_stdout && (fflush(stdout) != 0 || ferror(stdout)))
        write_status = qsb_error(QSB_ESYSTEM, "cannot write to standard output");
    const char *csv = qsb_run_file_name(cfg->csv_path, files->csv_default);
    const char *json = qsb_run_file_name(cfg->json_path, files->json_default);
    if (write_status != QSB_OK)
        status = write_status;
    else if (stop_signal)
        status = qsb_error(stop_signal == SIGTERM ? QSB_SIGTERM : QSB_SIGINT,
                           "interrupted: the %zu finished cells are in %s and %s, marked "
                           "incomplete",
                           results->ncells, qsb_quote_path(csv), qsb_quote_path(json));
    else if (results->context.incomplete) /* a worker's visit lost twice (workers.h) */
        status = qsb_error(QSB_ESYSTEM, "the run ended early: the %zu finished cells are in "
                                        "%s and %s, marked incomplete",
                           results->ncells, qsb_quote_path(csv), qsb_quote_path(json));
    else if (status == QSB_FINDING)
        status = qsb_error(QSB_FINDING, "%zu result(s) failed verification (FAILED above; "
                                        "results in %s and %s)",
                           totals.failed_rows, qsb_quote_path(csv), qsb_quote_path(json));
    else if (cfg->fail_above)
        status = qsb_gate_fail_above(results, cfg->fail_above_pct, cfg->fail_above_alpha,
                                     cfg->fail_above_correction);
    if (cfg->plot && write_status == QSB_OK && !stop_signal) { /* failed cells are marked */
        int plot_status = qsb_run_files_plot(files, results, table_on_stdout);
        if (status == QSB_OK)
            status = plot_status;
    }
    qsb_totals_print(&totals, wall_ns, p->timer != NULL, p->plan->processes > 1 ? processes : 1);
    return status;
}

static int run_parts_in_child(void *arg, qsb_visit_record *record)
{
    return run_and_report(arg, record);
}

/* One process (--reps, --processes 1): measured in a watched child, where a plug-in's crash,
** exit() or hang is reported against it (isolated.h); worker processes are watched by their
** run (workers.h), and a worker measures in itself. */
static int run_isolated(const run_parts *p)
{
    if (p->plan->processes > 1 || p->cfg->worker_slice_s > 0)
        return run_and_report(p, NULL);
    qsb_isolated_run run = {run_parts_in_child, (void *)p, p->plan->estimate_s, &stop_signal,
                            (const char *const *)p->results->context.matrix.algos};
    int status = qsb_run_isolated(&run);
    qsb_outputs_abort(&p->files->out); /* the child committed them, or they are removed */
    return status;
}

int qsb_run_execute(const qsb_run_config *cfg)
{
    uint64_t started_ns = qsb_clock_ns();
    qsb_reference ref;
    memset(&ref, 0, sizeof ref);
    qsb_results results;
    memset(&results, 0, sizeof results);
    qsb_run_files files;
    memset(&files, 0, sizeof files);
    qsb_timer timer;
    qsb_run_plan plan;
    memset(&plan, 0, sizeof plan);
    qsb_placement *placement = NULL;
    int status = cfg->reference ? qsb_reference_load(cfg->reference, &ref) : QSB_OK;
    if (status == QSB_OK)
        status = check_buffers_fit(cfg);
    if (status == QSB_OK && (cfg->plot || cfg->report_path))
        status = qsb_plot_check(); /* no gnuplot: say so now, not after the run */
    double load_average = qsb_load_average(); /* before this run adds to it */
    time_t now = time(NULL);
    struct tm utc;
    gmtime_r(&now, &utc);
    /* Caught before the files exist: from then on an interrupt must reach the commit. */
    struct sigaction old[2];
    catch_signals(old);
    if (status == QSB_OK)
        status = qsb_run_files_open(&files, cfg, &utc);
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
        !(placement = qsb_placement_new(cfg->algos, cfg->n_algos,
                                             (qsb_placement_regime)cfg->placement,
                                             cfg->reload && timed && !QSB_SANITIZED)))
        status = QSB_ESYSTEM;
    if (status == QSB_OK)
        status = qsb_plan_run(cfg, &plan);
    if (status == QSB_OK)
        qsb_plan_announce(cfg, &plan);
    if (status == QSB_OK)
        status = qsb_run_record_context(&results, cfg, &plan, placement, timed ? &timer : NULL,
                                        &utc, load_average);
    run_parts parts = {cfg, &plan, placement, timed ? &timer : NULL,
                       cfg->reference ? &ref : NULL, &files, &results, started_ns};
    if (status == QSB_OK)
        status = run_isolated(&parts);
    else
        qsb_outputs_close(&files.out, status);
done:
    qsb_placement_free(placement);
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
