/*
** The files of a run: the CSV and JSON results (by default results/qsortbench-<UTC time>.csv
** and .json), an export (--export) and the HTML report (--report), all opened before the
** first sort (a bad path fails at once; two outputs on one file, an output on the --reference
** table, on a chart of --plot or on the --history database are refused) and written together
** at the end, never partially; the charts beside them (--plot).
*/
#ifndef QSB_RUN_FILES_H
#define QSB_RUN_FILES_H

#include <stdbool.h>
#include <stdio.h>
#include <time.h>

#include "outfile.h"
#include "plugins.h"
#include "result.h"
#include "run_options.h"

enum { QSB_RUN_CSV, QSB_RUN_JSON, QSB_RUN_EXPORT, QSB_RUN_REPORT, QSB_RUN_FILES };

typedef struct {
    qsb_outputs out; /* QSB_RUN_*; the export and the report only when asked */
    char csv_default[96], json_default[96];
    const char *plot_beside; /* --plot: the results file the charts go beside */
    unsigned plot_charts;    /* --plot: the charts it draws (QSB_CHART_*), reserved at open */
} qsb_run_files;

/* Opens the run's files (utc: the run's start, for the default names); none may be the
** library of a plug-in of the set (NULL: none), and none the --history database, nor a chart
** of --plot. QSB_OK or an error (reported). */
int qsb_run_files_open(qsb_run_files *f, const qsb_run_options *run,
                       const qsb_plugins *plugins, const struct tm *utc);

/* Before anything is read or created: no output the options name is a file the run reads
** (the --reference table, a plug-in's library) or the --history database it writes, and that
** database is none of those files, however spelled. QSB_OK or a usage error (reported).
** qsb_run_files_open checks it again with the charts and the default names. */
int qsb_run_files_check_inputs(const qsb_run_options *run, const qsb_plugins *plugins);

/* "standard output" for "-", the default when not given, else the path: for messages. */
const char *qsb_run_file_name(const char *given, const char *dflt);

/* Writes every report and commits every file; on any failure no final file is touched by a
** partial write. Returns status, or the first error. */
int qsb_run_files_write(qsb_run_files *f, const qsb_run_options *run, const qsb_results *r);

/* run --plot: the charts beside the CSV file (beside the JSON one when the CSV is not a file
** of its own: standard output, /dev/null), their names listed on `listing` (stdout after
** the table when stdout carries it; NULL: nowhere). Only the charts whose names were checked against the outputs when the
** files opened: the comparisons chart only when a cell has two elements or more (a sort of
** fewer compares nothing). */
int qsb_run_files_plot(const qsb_run_files *files, const qsb_results *results, FILE *listing);

#endif
