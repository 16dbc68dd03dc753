/*
** The files of a run (run_files.h).
*/
#include "run_files.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "cover_letter.h"
#include "diag.h"
#include "export.h"
#include "infile.h"
#include "plot.h"
#include "plugins.h"
#include "report.h"
#include "report_html.h"

#define RESULTS_DIR "results"

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

/* run --plot: the charts go beside the CSV file, or beside the JSON one when the CSV is written
** in place (standard output, /dev/null, a pipe); one of them must be a file. */
static int choose_plot_results(qsb_run_files *f, const char *csv, const char *json)
{
    f->plot_beside = !qsb_output_in_place(csv) ? csv : !qsb_output_in_place(json) ? json : NULL;
    return f->plot_beside ? QSB_OK
                          : qsb_usage_error("--plot draws the charts beside the results file: "
                                            "--csv or --json must name a file");
}

/* Every chart a file of its own, or a name not taken yet: checked now, not after the run. */
static int check_chart_files(const qsb_chart_paths *charts)
{
    for (size_t i = 0; i < charts->n; i++) {
        char *target = qsb_output_target(charts->paths[i]);
        if (!target && errno == EINVAL)
            return qsb_error(QSB_EUSAGE, "--plot: the chart '%s' is not a regular file",
                             qsb_quote_path(charts->paths[i]));
        free(target);
    }
    return QSB_OK;
}

/* The charts --plot draws: the deltas and the scaling, and the comparisons when a cell can
** count any (two elements or more). */
static unsigned charts_drawn(const qsb_run_config *cfg)
{
    unsigned charts = QSB_CHART_DELTAS | QSB_CHART_SCALING;
    for (size_t i = 0; i < cfg->n_nelem; i++)
        if (cfg->nelem[i] >= 2)
            charts |= QSB_CHART_COMPARISONS;
    return charts;
}

/* The names of the algorithms, baseline first, for the chart names. */
static const char **algorithm_names(const qsb_run_config *cfg)
{
    const char **names = malloc((cfg->n_algos ? cfg->n_algos : 1) * sizeof *names);
    for (size_t i = 0; names && i < cfg->n_algos; i++)
        names[i] = cfg->algos[i].name;
    return names;
}

/* The outputs the options name (NULL: the default, made when the files open). */
static void named_outputs(const qsb_run_options *cfg, qsb_output_spec paths[QSB_RUN_FILES])
{
    paths[QSB_RUN_CSV] = (qsb_output_spec){"--csv", cfg->csv_path};
    paths[QSB_RUN_JSON] = (qsb_output_spec){"--json", cfg->json_path};
    paths[QSB_RUN_EXPORT] = (qsb_output_spec){"--export", cfg->export_path};
    paths[QSB_RUN_REPORT] = (qsb_output_spec){"--report", cfg->report_path};
}

/* The --reference table when it is a file (not the built-in one), else NULL. */
static const char *reference_file(const qsb_run_options *cfg)
{
    return cfg->reference && strcmp(cfg->reference, QSB_COVER_LETTER_NAME) != 0 ? cfg->reference
                                                                                 : NULL;
}

int qsb_run_files_check_inputs(const qsb_run_options *cfg, const qsb_plugins *plugins)
{
    qsb_output_spec paths[QSB_RUN_FILES];
    named_outputs(cfg, paths);
    const char *reference = reference_file(cfg), *libraries[QSB_PLUGIN_MAX];
    size_t nlibraries = qsb_plugins_libraries(plugins, libraries);
    const qsb_file_group others[3] = {
        {"--reference", QSB_FILES_READ, &reference, 1},
        {"the plug-in", QSB_FILES_READ, libraries, nlibraries},
        {"--history", QSB_FILES_WRITTEN, &cfg->history_path, 1}};
    return qsb_outputs_check(paths, QSB_RUN_FILES, others, 3);
}

/* Opens the outputs; none may be a file the run reads (the --reference table, a plug-in's
** library), nor a chart of --plot or the --history database. */
static int open_outputs(qsb_run_files *f, const qsb_run_options *cfg,
                        const qsb_plugins *plugins, const qsb_output_spec paths[QSB_RUN_FILES])
{
    const char *reference = reference_file(cfg);
    qsb_chart_paths charts = {NULL, 0};
    const char **names = NULL, *libraries[QSB_PLUGIN_MAX];
    size_t nlibraries = qsb_plugins_libraries(plugins, libraries);
    int status = QSB_OK;
    if (cfg->plot) {
        status = choose_plot_results(f, paths[QSB_RUN_CSV].path, paths[QSB_RUN_JSON].path);
        if (status == QSB_OK && !(names = algorithm_names(&cfg->bench)))
            status = qsb_out_of_memory("chart names");
        f->plot_charts = charts_drawn(&cfg->bench);
        if (status == QSB_OK)
            status = qsb_plot_chart_paths(f->plot_beside, NULL, QSB_PLOT_PNG, f->plot_charts,
                                          names, cfg->bench.n_algos, &charts);
        if (status == QSB_OK)
            status = check_chart_files(&charts);
    }
    const qsb_file_group others[4] = {
        {"--reference", QSB_FILES_READ, &reference, 1},
        {"the plug-in", QSB_FILES_READ, libraries, nlibraries},
        {"--history", QSB_FILES_WRITTEN, &cfg->history_path, 1},
        {"--plot", QSB_FILES_WRITTEN, (const char *const *)charts.paths, charts.n}};
    if (status == QSB_OK)
        status = qsb_outputs_open(&f->out, paths, QSB_RUN_FILES, others, 4);
    qsb_plot_chart_paths_free(&charts);
    free(names);
    return status;
}

int qsb_run_files_open(qsb_run_files *f, const qsb_run_options *cfg,
                       const qsb_plugins *plugins, const struct tm *utc)
{
    qsb_output_spec paths[QSB_RUN_FILES];
    named_outputs(cfg, paths);
    int status = QSB_OK;
    if (!paths[QSB_RUN_CSV].path &&
        (status = default_path(f->csv_default, sizeof f->csv_default, utc, "csv")) == QSB_OK)
        paths[QSB_RUN_CSV].path = f->csv_default;
    if (status == QSB_OK && !paths[QSB_RUN_JSON].path &&
        (status = default_path(f->json_default, sizeof f->json_default, utc, "json")) == QSB_OK)
        paths[QSB_RUN_JSON].path = f->json_default;
    return status == QSB_OK ? open_outputs(f, cfg, plugins, paths) : status;
}

const char *qsb_run_file_name(const char *given, const char *dflt)
{
    if (!given)
        return dflt;
    return strcmp(given, "-") == 0 ? "standard output" : given;
}

int qsb_run_files_write(qsb_run_files *f, const qsb_run_options *cfg, const qsb_results *r)
{
    FILE *exported = f->out.file[QSB_RUN_EXPORT].fp;
    int status = qsb_report_csv(f->out.file[QSB_RUN_CSV].fp, r);
    if (status == QSB_OK)
        status = qsb_report_json(f->out.file[QSB_RUN_JSON].fp, r);
    if (status == QSB_OK && exported)
        status = cfg->export_format->write(exported, r, 1);
    if (status == QSB_OK && f->out.file[QSB_RUN_REPORT].fp) {
        qsb_html_page page = {.run = r,
                              .run_name = qsb_run_file_name(cfg->json_path, f->json_default)};
        status = qsb_report_html(f->out.file[QSB_RUN_REPORT].fp, &page);
    }
    status = qsb_outputs_close(&f->out, status);
    if (status == QSB_OK) {
        qsb_warn_if_unreadable(cfg->csv_path ? cfg->csv_path : f->csv_default);
        qsb_warn_if_unreadable(cfg->json_path ? cfg->json_path : f->json_default);
    }
    return status;
}

int qsb_run_files_plot(const qsb_run_files *files, const qsb_results *results, FILE *listing)
{
    qsb_plot_options opt = {.format = QSB_PLOT_PNG,
                            .report = listing,
                            .charts = files->plot_charts};
    return qsb_plot_results_file(results, files->plot_beside, &opt);
}
