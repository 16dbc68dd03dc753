/*
** `qsortbench report FILE... -o PAGE.html`: one self-contained HTML page (report_html.h) of
** results files, an audit file and a fleet file. What each operand is comes from its content,
** never its name:
**   - a JSON object with "kind": "audit" (`audit --json`): the audit's table;
**   - any other file is read as results (CSV or JSON, read_results.h): one machine's results
**     are the run the page is about (the first such file) or, the second one, an earlier run
**     it is compared with as `compare SECOND FIRST`; a fleet file (several machines, from
**     merge) gets a section per machine. Without a single-machine run the page is the fleet's.
** --history DB adds the database's trend (history.h); with it no results file is needed.
** The page is written atomically through qsb_outputs. Exit: 0, 2 for a bad command line or
** file, 3 when gnuplot is missing or fails or on I/O errors.
*/
#include <stdio.h>
#include <stdlib.h>

#include "audit_file.h"
#include "commands.h"
#include "diag.h"
#include "history.h"
#include "infile.h"
#include "outfile.h"
#include "plot.h"
#include "read_results.h"
#include "report_html.h"
#include "significance.h"

enum { OPT_OUTPUT, OPT_THRESHOLD, OPT_NORMALIZE, OPT_RUN_LEVEL, OPT_HISTORY };

static const qsb_option report_options[] = {
    [OPT_OUTPUT] = {"output", 'o', "PAGE", "the HTML page to write ('-': stdout)"},
    [OPT_THRESHOLD] = {"threshold", 0, "PCT",
                       "with a second run: the change compare calls a regression (default 5)"},
    [OPT_NORMALIZE] = {"normalize", 0, NULL,
                       "with a second run: judge candidates by their ratio to each run's "
                       "baseline (as compare --normalize)"},
    [OPT_RUN_LEVEL] = {"run-level", 0, "PCT",
                       "with a second run: the level each run moves by as a whole, added to "
                       "each run's spread (as compare --run-level)"},
    [OPT_HISTORY] = {"history", 0, "FILE",
                     "add the trend of a history database: per cell the deltas over commits, "
                     "the steps history detect finds"},
    {NULL, 0, NULL, NULL},
};

static const qsb_command_spec report_spec = {
    "report", "[RESULTS] [FILE...] [--history DB] -o PAGE.html",
    "Write one self-contained HTML page (inline styles, charts as inline SVG drawn by\n"
    "gnuplot, no script, nothing fetched): what was run, the deltas per pattern with their\n"
    "intervals and noisy marks, the charts. The operands are recognised by their content:\n"
    "  - an audit file (`audit --json`: a JSON object whose \"kind\" is \"audit\") adds the\n"
    "    audit's table;\n"
    "  - a fleet file (merged results of several machines) adds a section per machine;\n"
    "  - any other results file (CSV or JSON) is a run: the first is the run the page is\n"
    "    about, a second one an earlier run compared with it (`compare SECOND FIRST`:\n"
    "    Holm-adjusted verdicts, --threshold, --run-level).\n"
    "--history DB adds the history's trend (history add, run --history): per cell the\n"
    "paired delta of each candidate over commits with its interval, the runs with states\n"
    "marked, the steps history detect finds; with it the results file may be left out.\n"
    "Every text taken from the files is HTML-escaped. Needs gnuplot (Debian gnuplot-nox).",
    report_options,
    "0 success, 2 usage error or bad input (an unreadable or malformed file, -o\n"
    "naming an operand), 3 system error (gnuplot missing or failing, I/O)."};
static const qsb_command_spec *const report_specs[] = {&report_spec, NULL};

typedef struct {
    const char *output;
    const char *history;
    qsb_compare_options compare;
    char **operands; /* the files read, besides --history */
    size_t noperands;
} report_config;

static int handle_option(void *ctx, int index, const char *arg)
{
    report_config *cfg = ctx;
    switch (index) {
    case OPT_OUTPUT:
        cfg->output = arg;
        return QSB_OK;
    case OPT_THRESHOLD:
        return qsb_parse_double(arg, "--threshold", 0.0, 1e6, &cfg->compare.threshold_pct);
    case OPT_RUN_LEVEL:
        return qsb_parse_run_level(arg, &cfg->compare.run_level_pct);
    case OPT_HISTORY:
        cfg->history = arg;
        return QSB_OK;
    default:
        cfg->compare.normalize = true;
        return QSB_OK;
    }
}

/* What the page holds, and owns. */
typedef struct {
    qsb_results *runs[2]; /* the run and the earlier run: each one machine */
    const char *run_paths[2];
    size_t nruns;
    qsb_results *fleet;
    size_t fleet_n;
    const char *fleet_path;
    qsb_audit_file audit;
    const char *audit_path;
    qsb_trend trend; /* --history's, when given */
} operands;

/* The file's text, or NULL (reported): through the one input reader (infile.h). */
static char *read_text(const char *path)
{
    char *text = NULL;
    size_t len = 0;
    return qsb_read_input_file(path, "", NULL, &text, &len) == QSB_OK ? text : NULL;
}

static int add_audit(operands *o, const char *path, const char *text)
{
    if (o->audit_path)
        return qsb_usage_error("report takes one audit file ('%s' is a second one)",
                               qsb_quote_path(path));
    o->audit_path = path;
    return qsb_audit_file_parse(qsb_quote_path(path), text, &o->audit);
}

static int add_results(operands *o, const char *path)
{
    qsb_results *runs = NULL;
    size_t n = 0;
    int status = qsb_read_fleet(path, &runs, &n);
    if (status != QSB_OK)
        return status;
    if (n > 1 && !o->fleet_path) {
        o->fleet = runs;
        o->fleet_n = n;
        o->fleet_path = path;
        return QSB_OK;
    }
    if (n == 1 && o->nruns < 2) {
        o->runs[o->nruns] = runs;
        o->run_paths[o->nruns++] = path;
        return QSB_OK;
    }
    for (size_t i = 0; i < n; i++)
        qsb_results_free(&runs[i]);
    free(runs);
    return qsb_usage_error("report takes at most two runs and one fleet file ('%s' is one "
                           "too many)", qsb_quote_path(path));
}

static int add_operand(operands *o, const char *path)
{
    char *text = read_text(path);
    if (!text)
        return QSB_EUSAGE;
    int status = qsb_audit_file_is(text) ? add_audit(o, path, text) : add_results(o, path);
    free(text);
    return status;
}

static void operands_free(operands *o)
{
    for (size_t i = 0; i < o->nruns; i++) {
        qsb_results_free(o->runs[i]);
        free(o->runs[i]);
    }
    for (size_t i = 0; i < o->fleet_n; i++)
        qsb_results_free(&o->fleet[i]);
    free(o->fleet);
    qsb_audit_file_free(&o->audit);
    qsb_trend_free(&o->trend);
}

static int write_page(const report_config *cfg, const operands *o, FILE *fp)
{
    qsb_html_page page = {
        .run = o->nruns ? o->runs[0] : NULL,
        .run_name = o->run_paths[0],
        .base = o->nruns > 1 ? o->runs[1] : NULL,
        .base_name = o->run_paths[1],
        .compare = cfg->compare,
        .fleet = o->fleet,
        .fleet_n = o->fleet_n,
        .fleet_name = o->fleet_path,
        .audit = o->audit_path ? &o->audit : NULL,
        .audit_name = o->audit_path,
        .trend = cfg->history ? &o->trend : NULL,
    };
    return qsb_report_html(fp, &page);
}

/* Between the page's open and its commit: the operands and --history read, the page written. */
static int report_into(const qsb_outputs *out, void *arg)
{
    const report_config *cfg = arg;
    operands o = {0};
    int status = QSB_OK;
    for (size_t i = 0; i < cfg->noperands && status == QSB_OK; i++)
        status = add_operand(&o, cfg->operands[i]);
    if (status == QSB_OK && o.nruns == 0 && !o.fleet_path && !cfg->history)
        status = qsb_usage_error("report needs a results file, a fleet file or --history DB "
                                 "besides the audit file");
    if (status == QSB_OK && cfg->history)
        status = qsb_trend_load(cfg->history, &o.trend);
    if (status == QSB_OK)
        status = qsb_plot_check();
    if (status == QSB_OK)
        status = write_page(cfg, &o, out->file[0].fp);
    operands_free(&o);
    return status;
}

static int report_main(int argc, char **argv)
{
    report_config cfg = {NULL, NULL,
                         {.threshold_pct = QSB_DEFAULT_THRESHOLD_PCT, .alpha = QSB_DEFAULT_ALPHA,
                          .correction = QSB_DEFAULT_CORRECTION},
                         NULL, 0};
    int first;
    int status = qsb_parse_options(&report_spec, argc, argv, handle_option, &cfg, &first);
    if (status != QSB_OK)
        return status == QSB_HELP_SHOWN ? QSB_OK : status;
    if (first >= argc && !cfg.history)
        return qsb_usage_error("report needs a results file (CSV or JSON) or --history DB");
    if (!cfg.output)
        return qsb_usage_error("report needs -o PAGE.html");
    cfg.operands = argv + first;
    cfg.noperands = (size_t)(argc - first);
    const qsb_output_spec paths[1] = {{"-o", cfg.output}};
    const qsb_file_group read[2] = {
        {"the operand", QSB_FILES_READ, (const char *const *)cfg.operands, cfg.noperands},
        {"--history", QSB_FILES_READ, &cfg.history, 1},
    };
    /* the page may not be one of the files read */
    return qsb_with_outputs(paths, 1, read, cfg.history ? 2 : 1, report_into, &cfg);
}

/* The command's row of the tool's table (main.c). */
const qsb_command qsb_report_command = {
    .name = "report",
    .run = report_main,
    .summary = "one self-contained HTML page of results files",
    .specs = report_specs,
};
