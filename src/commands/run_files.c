/*
** The files of a run (run_files.h).
*/
#include "run_files.h"

#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>

#include "diag.h"
#include "export.h"
#include "infile.h"
#include "plot.h"
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

int qsb_run_files_open(qsb_run_files *f, const qsb_run_config *cfg, const struct tm *utc)
{
    qsb_output_spec paths[QSB_RUN_FILES] = {{"--csv", cfg->csv_path},
                                            {"--json", cfg->json_path},
                                            {"--export", cfg->export_path},
                                            {"--report", cfg->report_path}};
    int status = QSB_OK;
    if (!paths[QSB_RUN_CSV].path &&
        (status = default_path(f->csv_default, sizeof f->csv_default, utc, "csv")) == QSB_OK)
        paths[QSB_RUN_CSV].path = f->csv_default;
    if (status == QSB_OK && !paths[QSB_RUN_JSON].path &&
        (status = default_path(f->json_default, sizeof f->json_default, utc, "json")) == QSB_OK)
        paths[QSB_RUN_JSON].path = f->json_default;
    return status == QSB_OK ? qsb_outputs_open(&f->out, paths, QSB_RUN_FILES) : status;
}

const char *qsb_run_file_name(const char *given, const char *dflt)
{
    if (!given)
        return dflt;
    return strcmp(given, "-") == 0 ? "standard output" : given;
}

int qsb_run_files_write(qsb_run_files *f, const qsb_run_config *cfg, const qsb_results *r)
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

int qsb_run_files_plot(const qsb_run_config *cfg, const qsb_run_files *files,
                       const qsb_results *results, bool table_on_stdout)
{
    const char *csv = cfg->csv_path ? cfg->csv_path : files->csv_default;
    const char *json = cfg->json_path ? cfg->json_path : files->json_default;
    return qsb_plot_results_file(results, strcmp(csv, "-") != 0 ? csv : json, NULL,
                                 QSB_PLOT_PNG, NULL, table_on_stdout ? stdout : NULL);
}
