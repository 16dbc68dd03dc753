/*
** `qsortbench [run]`: parse; check what can be checked before any work (no output on a file
** the run reads, before it is read; the reference table, that the buffers fit in memory,
** gnuplot when charts are asked, the commit --history files the run under); hand the run to
** the bench layer (runner.h), which has the result files opened (then the --history database
** created) before its first sort and gives back its result; print the table; write
** and commit the files; gate the candidates (--fail-above); draw the charts (--plot). A
** stopped run writes its finished cells, marked incomplete (stop.h: 129, 130, 131, 143).
*/
#include <stdio.h>
#include <string.h>

#include "auto_nelem.h"
#include "commands.h"
#include "compare.h"
#include "diag.h"
#include "history.h"
#include "history_report.h"
#include "plot.h"
#include "plugins.h"
#include "report.h"
#include "result.h"
#include "run_files.h"
#include "run_options.h"
#include "runner.h"
#include "stamp.h"

/* The command's side of a run: its files and the table's reference. */
typedef struct {
    const qsb_run_options *cfg;
    const qsb_plugins *plugins; /* cfg's, whose libraries no output may replace */
    const qsb_reference *ref;
    qsb_run_files files;
    qsb_stamp_text stamp; /* what --history files the run under */
} run_output;

/* The run's files, then the --history database: created (or found to be one) only once no
** output, chart or default name is it; closed again, as the run may add from a child
** process. */
static int open_files(void *arg, const struct tm *utc)
{
    run_output *o = arg;
    qsb_history *h = NULL;
    int status = qsb_run_files_open(&o->files, o->cfg, o->plugins, utc);
    if (status == QSB_OK && o->cfg->history_path)
        status = qsb_history_open(o->cfg->history_path, QSB_HISTORY_CREATE, &h);
    qsb_history_close(h);
    return status;
}

/* The exit status of a run whose files are written: why it ended early, what failed
** verification, or the gate's verdict. */
static int verdict(const run_output *o, const qsb_run_outcome *outcome)
{
    const qsb_run_options *cfg = o->cfg;
    const qsb_results *results = outcome->results;
    const char *csv = qsb_quote_path(qsb_run_file_name(cfg->csv_path, o->files.csv_default));
    const char *json = qsb_quote_path(qsb_run_file_name(cfg->json_path, o->files.json_default));
    if (outcome->stopped)
        return qsb_error(outcome->stopped, "interrupted: the %zu finished cells are in %s and "
                                           "%s, marked incomplete",
                         results->ncells, csv, json);
    if (results->context.incomplete) /* a worker's visit lost twice (workers.h) */
        return qsb_error(QSB_ESYSTEM, "the run ended early: the %zu finished cells are in %s "
                                      "and %s, marked incomplete",
                         results->ncells, csv, json);
    if (outcome->status == QSB_FINDING)
        return qsb_error(QSB_FINDING, "%zu result(s) failed verification (FAILED above; "
                                      "results in %s and %s)",
                         outcome->totals->failed_rows, csv, json);
    if (cfg->bench.fail_above)
        return qsb_gate_fail_above(results, cfg->fail_above_pct, cfg->fail_above_alpha,
                                   cfg->fail_above_correction, NULL);
    return QSB_OK;
}

/* The table on stdout (unless a results file is written in place, or any output, the export
** and the report included, is on stdout), the files, the verdict, the charts. */
static int report(void *arg, const qsb_run_outcome *outcome)
{
    run_output *o = arg;
    qsb_run_files *files = &o->files;
    bool table_on_stdout = files->out.file[QSB_RUN_CSV].final_path &&
                           files->out.file[QSB_RUN_JSON].final_path &&
                           qsb_outputs_text_stream(&files->out) == stdout;
    if (table_on_stdout)
        qsb_report_table(stdout, outcome->results, o->ref);
    int write_status = qsb_run_files_write(files, o->cfg, outcome->results);
    if (table_on_stdout && (fflush(stdout) != 0 || ferror(stdout)))
        write_status = qsb_error(QSB_ESYSTEM, "cannot write to standard output");
    int status = write_status == QSB_OK ? verdict(o, outcome) : write_status;
    /* --history: a whole run, once its files are written */
    if (o->cfg->history_path && write_status == QSB_OK && !outcome->stopped &&
        !outcome->results->context.incomplete) {
        int history_status = qsb_history_add_results(o->cfg->history_path, outcome->results,
                                                     &o->stamp, o->cfg->bench.machine);
        if (status == QSB_OK)
            status = history_status;
    }
    /* Charts of a stopped run would be partial; failed cells are marked in them. */
    if (o->cfg->plot && write_status == QSB_OK && !outcome->stopped) {
        int plot_status = qsb_run_files_plot(files, outcome->results,
                                             table_on_stdout ? stdout : NULL);
        if (status == QSB_OK)
            status = plot_status;
    }
    return status;
}

/* The checks before any work, the run, and its files abandoned unless committed (by this
** process or by the run's watched child). */
static int execute(const qsb_run_options *cfg, qsb_plugins *plugins)
{
    qsb_reference ref;
    memset(&ref, 0, sizeof ref);
    run_output output = {.cfg = cfg, .plugins = plugins, .ref = cfg->reference ? &ref : NULL};
    /* an output on the --reference table or the --history database is refused before the
    ** table is read or the database created */
    int status = qsb_run_files_check_inputs(cfg, plugins);
    if (status == QSB_OK && cfg->reference)
        status = qsb_reference_load(cfg->reference, &ref);
    if (status == QSB_OK)
        status = qsb_run_check_memory(&cfg->bench, plugins);
    if (status == QSB_OK && (cfg->plot || cfg->report_path))
        status = qsb_plot_check(); /* no gnuplot: say so now, not after the run */
    if (status == QSB_OK && cfg->history_path) /* the commit to file the run under */
        status = qsb_stamp_resolve(NULL, NULL, NULL, NULL, &output.stamp);
    qsb_run_reporter reporter = {.open = open_files, .report = report, .arg = &output};
    if (status == QSB_OK)
        status = qsb_run_bench(&cfg->bench, plugins, &reporter);
    qsb_outputs_abort(&output.files.out);
    qsb_reference_free(&ref);
    return status;
}

/* The run's first line: the counts --nelem auto chose, and why (a warning where sysfs
** describes no cache). */
static void say_auto_nelem(const qsb_run_config *cfg)
{
    char why[512];
    if (cfg->nelem_source == QSB_NELEM_GIVEN || cfg->worker.slice_s > 0)
        return;
    qsb_auto_nelem_describe(cfg, why, sizeof why);
    if (cfg->nelem_source == QSB_NELEM_FALLBACK)
        qsb_warning("--nelem auto: %s; --nelem to choose", why);
    else if (!cfg->quiet)
        qsb_note("--nelem auto: %s; --nelem to choose", why);
}

/* The plug-ins of --algos are the command's (plugins.h): freed after the config naming them. */
static int run_main(int argc, char **argv)
{
    qsb_plugins *plugins = qsb_plugins_new();
    qsb_run_options run = {0};
    int status = plugins ? qsb_run_options_parse(&run, plugins, argc, argv) : QSB_ESYSTEM;
    if (status == QSB_OK) {
        say_auto_nelem(&run.bench);
        status = execute(&run, plugins);
    } else if (status == QSB_HELP_SHOWN)
        status = QSB_OK;
    qsb_run_config_free(&run.bench);
    qsb_plugins_free(plugins);
    return status;
}

/* The command's row of the tool's table (main.c). */
const qsb_command qsb_run_command = {
    .name = "run",
    .run = run_main,
    .summary = "the benchmark matrix (the default command)",
    .specs = qsb_run_specs,
};
