/*
** The options of `qsortbench [run]` (the table is qsb_run_spec, commands.h), parsed into the
** run's configuration (bench/run_config.h) and what the command keeps for itself: the
** outputs, the gate's level and the history.
*/
#ifndef QSB_RUN_OPTIONS_H
#define QSB_RUN_OPTIONS_H

#include <stdbool.h>

#include "bisect.h"
#include "export.h"
#include "plugins.h"
#include "run_config.h"

/* What a run's command line asks. Only bench is allocated (qsb_run_config_free frees it);
** the rest points into argv and the tables. */
typedef struct {
    qsb_run_config bench;   /* the matrix and the measurement: what the bench reads */
    const char *csv_path;   /* NULL: results/qsortbench-<stamp>.csv; "-": stdout */
    const char *json_path;  /* likewise .json */
    const char *reference;  /* NULL, "glibc-2021" (compiled in) or a CSV file */
    bool plot;              /* --plot: the charts beside the results file (plot.h) */
    const qsb_export_format *export_format; /* --export FORMAT=FILE (export.h): NULL when */
    const char *export_path;                /* not asked */
    const char *report_path; /* --report FILE: the HTML page (report_html.h); NULL: none */
    const char *history_path; /* --history FILE: the run added to that history database
                              ** (history.h), filed under git's HEAD; NULL: none */
    double fail_above_pct;  /* --fail-above PCT, given when bench.fail_above (compare.h) */
    double fail_above_alpha; /* --alpha: its level after the correction (default 0.01) */
    qsb_correction fail_above_correction; /* --correction (default holm) */
} qsb_run_options;

/* Parses argv[1..] (argv[0] is the command word or the program) into run, the plug-ins of
** --algos resolved into plugins (plugins.h; NULL: registry names only), which must outlive
** it. Returns QSB_OK, QSB_HELP_SHOWN (help printed), or an error status already reported
** (QSB_EUSAGE for every bad option or value, QSB_ESYSTEM when out of memory). run->bench is
** always safe to free. */
int qsb_run_options_parse(qsb_run_options *run, qsb_plugins *plugins, int argc, char **argv);

/* The words of run's command line that `history bisect` gives each of its runs (bisect.h), as
** run's table spells them: "run", "--algos", "--fail-above", "--json", "--csv", "-q". */
void qsb_run_words(char words[QSB_BISECT_WORDS][32]);

#endif
