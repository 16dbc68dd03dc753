/*
** `qsortbench compare BASE NEW`: reads two results files (CSV or JSON, any combination),
** compares them and writes the report (compare.h, compare_write.h): the table, and where asked
** Markdown (--markdown FILE, $GITHUB_STEP_SUMMARY) and JSON (--json FILE). --calibration RUN1
** RUN2 [RUN3 ...] is a report instead, on runs of the same thing (qsb_calibration_command). The
** exit statuses are the spec's below.
*/
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "commands.h"
#include "compare.h"
#include "compare_write.h"
#include "diag.h"
#include "fleet_view.h"
#include "outfile.h"
#include "read_results.h"
#include "run_level.h"
#include "significance.h"

enum { OPT_THRESHOLD, OPT_ALPHA, OPT_CORRECTION, OPT_NORMALIZE, OPT_STRICT, OPT_MARKDOWN,
       OPT_JSON, OPT_CALIBRATION, OPT_RUN_LEVEL, OPT_HISTORY };

static const qsb_option compare_options[] = {
    [OPT_THRESHOLD] = {"threshold", 0, "PCT",
                       "a regression is a change of the median above PCT % (default 5)"},
    [OPT_ALPHA] = QSB_OPTION_ALPHA("...that is significant: its one-sided p over units "
                                   "(Mann-Whitney's for files without units), corrected over "
                                   "all rows tested, below A (default 0.01)"),
    [OPT_CORRECTION] = QSB_OPTION_CORRECTION("holm (default: the chance of any false regression "
                                             "in the matrix is at most alpha), bh "
                                             "(Benjamini-Hochberg: the expected share of false "
                                             "regressions is at most alpha) or none"),
    [OPT_NORMALIZE] = {"normalize", 0, NULL,
                       "judge candidates by their per-round ratio to the run's baseline, "
                       "which cancels the machine's drift between the two runs"},
    [OPT_STRICT] = {"strict", 0, NULL, "rows found in one file only are a finding (exit 1); "
                                       "with --calibration: under 90% agreeing"},
    [OPT_MARKDOWN] = {"markdown", 0, "FILE", "also write the table as Markdown"},
    [OPT_JSON] = {"json", 0, "FILE", "also write the verdicts as JSON"},
    [OPT_CALIBRATION] = {"calibration", 0, NULL,
                         "a report instead, on RUN1 RUN2 [RUN3 ...]: do runs of the same thing "
                         "give paired deltas that agree within their intervals? (each run "
                         "against the next: the share that do, the median and worst "
                         "difference, the run level)"},
    [OPT_RUN_LEVEL] = {"run-level", 0, "PCT",
                       "each run moves as a whole by up to +-PCT % (95%), as compare "
                       "--calibration measured on this machine: added to each run's spread in "
                       "the test (with --calibration: to each run's intervals; default 0)"},
    [OPT_HISTORY] = {"history", 0, "FILE",
                     "the run level learned from that history database (history gate): NEW's "
                     "machine's, of the medians (of the ratios with --normalize; with "
                     "--calibration RUN1's, of the deltas), over its last 30 runs; "
                     "--run-level overrides it"},
    {NULL, 0, NULL, NULL},
};

static const qsb_command_spec compare_spec = {
    "compare", "BASE NEW [OPTIONS]",
    "Regression check between two results files (CSV or JSON). A row not found slower whose\n"
    "95% interval reaches beyond the threshold is \"unresolved\", not \"same\" (it does not\n"
    "fail). When $GITHUB_STEP_SUMMARY is set, the Markdown table is appended to that file.\n"
    "With --calibration, a report on two or more runs of the same thing, each against the\n"
    "next, with the run level they show. compare --machines A,B FILE: two machines' deltas\n"
    "cell by cell (compare --machines A,B --help).",
    compare_options,
    "1 when a row is slower in NEW beyond the threshold with p < alpha after\n"
    "the correction over all rows tested (comparisons metric: any increase beyond the\n"
    "threshold) or failed verification (--strict: also a row in one file only; --calibration\n"
    "--strict: under 90% agreeing); 2 usage error or bad input (an unreadable or malformed\n"
    "file, different metrics, an output that is BASE or NEW); 3 system error; else 0."};
static const qsb_command_spec *const compare_specs[] = {&compare_spec, &qsb_compare_machines_spec,
                                                     NULL};

typedef struct {
    qsb_compare_options opt;
    qsb_compare_strictness strictness;
    bool calibration;
    const char *markdown_path;
    const char *json_path;
    const char *history_path; /* --history: the run level from there */
} compare_config;

static int on_option(void *ctx, int index, const char *arg)
{
    compare_config *cfg = ctx;
    switch (index) {
    case OPT_THRESHOLD:
        return qsb_parse_double(arg, "--threshold", 0.0, 1e6, &cfg->opt.threshold_pct);
    case OPT_ALPHA: return qsb_parse_alpha(arg, &cfg->opt.alpha);
    case OPT_CORRECTION: return qsb_parse_correction(arg, &cfg->opt.correction);
    case OPT_NORMALIZE: cfg->opt.normalize = true; return QSB_OK;
    case OPT_CALIBRATION: cfg->calibration = true; return QSB_OK;
    case OPT_STRICT: cfg->strictness = QSB_COMPARE_STRICT; return QSB_OK;
    case OPT_MARKDOWN: cfg->markdown_path = arg; return QSB_OK;
    case OPT_JSON: cfg->json_path = arg; return QSB_OK;
    case OPT_RUN_LEVEL:
        return qsb_parse_run_level(arg, &cfg->opt.run_level_pct);
    case OPT_HISTORY: cfg->history_path = arg; return QSB_OK;
    }
    return QSB_OK;
}

/* What compare reads and works out, from its outputs' open to its finding. */
typedef struct {
    const compare_config *cfg;
    qsb_results base, cand;
    qsb_compare_report report;
    const char *const *run_paths; /* --calibration: RUN1 RUN2 ... */
    size_t nruns;
    qsb_compare_outputs shown; /* BASE and NEW's paths, where the report goes, its verdict */
} compare_job;

/* --history: the run level of run's machine learned from the history, of its deltas (the
** candidates' rows, called view in the line) or of its medians, into *level_pct unless
** --run-level gave one (above 0), said in a line; unknown under 5 runs a row, said too. */
static int level_from_history(const char *path, const qsb_results *run, bool deltas,
                              const char *view, double *level_pct)
{
    const char *machine = qsb_machine_name(&run->context);
    double pct;
    int status = qsb_history_view_level(path, machine, run->context.metric, deltas, &pct);
    if (status == QSB_OK && isfinite(pct) && *level_pct <= 0.0) {
        *level_pct = pct;
        qsb_note("run level +-%.2f%% from the history of '%s' (the median row's, of the %s, "
                 "over its last %d runs)",
                 pct, machine, view, QSB_HISTORY_LAST_RUNS);
    } else if (status == QSB_OK && !isfinite(pct))
        qsb_note("the history of '%s' has fewer than %d runs of a row: "
                 "its run level is unknown",
                 machine, QSB_LEVEL_MIN_RUNS);
    return status;
}

/* compare --calibration --history: the run level of the deltas of RUN1's machine. */
static int level_of_first(const qsb_results *first, void *ctx, double *level_pct)
{
    const compare_config *cfg = ctx;
    return level_from_history(cfg->history_path, first, true, "deltas", level_pct);
}

static int calibration_command(const compare_job *job)
{
    const compare_config *cfg = job->cfg;
    if (cfg->markdown_path || cfg->opt.normalize)
        return qsb_usage_error("--calibration reports on the runs' own paired deltas: "
                               "--markdown and --normalize do not apply");
    const qsb_file_group history = {"--history", QSB_FILES_READ, &cfg->history_path, 1};
    const qsb_calibration_level level = {cfg->opt.run_level_pct,
                                         cfg->history_path ? level_of_first : NULL, (void *)cfg};
    return qsb_calibration_command(job->run_paths, job->nruns, cfg->json_path,
                                   cfg->history_path ? &history : NULL, level, cfg->strictness);
}

enum { OUT_MARKDOWN, OUT_JSON, OUT_COUNT };

/* Between the outputs' open and their commit: the step summary opened, BASE and NEW read and
** compared, the table on stdout (on stderr when an output is there), every requested output
** written. */
static int compare_into(const qsb_outputs *out, void *arg)
{
    compare_job *job = arg;
    int status = qsb_compare_summary_open(&job->shown);
    if (status == QSB_OK) /* slim rows: two files of millions of rows held at once */
        status = qsb_read_compare_results(job->shown.base_path, &job->base);
    if (status == QSB_OK)
        status = qsb_read_compare_results(job->shown.new_path, &job->cand);
    qsb_compare_options opt = job->cfg->opt;
    if (status == QSB_OK && job->cfg->history_path)
        status = level_from_history(job->cfg->history_path, &job->cand, opt.normalize,
                                    opt.normalize ? "ratios" : "medians", &opt.run_level_pct);
    if (status == QSB_OK)
        status = qsb_compare_results(&job->base, &job->cand, &opt, &job->report);
    if (status != QSB_OK)
        return status;
    job->shown.text = qsb_outputs_text_stream(out);
    job->shown.markdown = out->file[OUT_MARKDOWN].fp;
    job->shown.json = out->file[OUT_JSON].fp;
    return qsb_compare_write(&job->report, &job->shown);
}

/* BASE against NEW: the outputs opened before the reading (a bad path fails now, and no
** output may be what is read), all committed or none; the step summary; the finding. */
static int compare_command(compare_job *job)
{
    const qsb_output_spec paths[OUT_COUNT] = {{"--markdown", job->cfg->markdown_path},
                                              {"--json", job->cfg->json_path}};
    const qsb_compare_outputs *o = &job->shown;
    const qsb_file_group others[4] = {
        {"BASE", QSB_FILES_READ, &o->base_path, 1},
        {"NEW", QSB_FILES_READ, &o->new_path, 1},
        {"$GITHUB_STEP_SUMMARY", QSB_FILES_WRITTEN, &o->summary_path, 1},
        {"--history", QSB_FILES_READ, &job->cfg->history_path, 1}};
    int status = qsb_with_outputs(paths, OUT_COUNT, others, 4, compare_into, job);
    return qsb_compare_finish(&job->report, &job->shown, status);
}

static int compare_main(int argc, char **argv)
{
    for (int i = 1; i < argc; i++) /* two machines of a fleet: fleet_view.h */
        if (strncmp(argv[i], "--machines", 10) == 0 && (!argv[i][10] || argv[i][10] == '='))
            return qsb_cmd_compare_machines(argc, argv);
    compare_config cfg = {.opt = {.threshold_pct = QSB_DEFAULT_THRESHOLD_PCT,
                                  .alpha = QSB_DEFAULT_ALPHA,
                                  .correction = QSB_DEFAULT_CORRECTION},
                          .strictness = QSB_COMPARE_LENIENT};
    int first, status = qsb_parse_options(&compare_spec, argc, argv, on_option, &cfg, &first);
    if (status != QSB_OK)
        return status == QSB_HELP_SHOWN ? QSB_OK : status;
    int given = argc - first;
    if (cfg.calibration && given < 2)
        return qsb_usage_error("compare --calibration needs two results files or more, runs of "
                               "the same command (%d given)", given);
    if (!cfg.calibration && given != 2)
        return qsb_usage_error("compare needs two results files, BASE and NEW (%d given)", given);
    compare_job job = {.cfg = &cfg, .run_paths = (const char *const *)&argv[first],
                       .nruns = (size_t)given,
                       .shown = {argv[first], argv[first + 1], cfg.strictness, .verdict = -1}};
    const char *summary = getenv("GITHUB_STEP_SUMMARY");
    job.shown.summary_path = summary && *summary ? summary : NULL;
    status = cfg.calibration ? calibration_command(&job) : compare_command(&job);
    if (job.shown.summary)
        fclose(job.shown.summary); /* nothing appended after an error */
    qsb_compare_report_free(&job.report);
    qsb_results_free(&job.base);
    qsb_results_free(&job.cand);
    return status;
}

/* The command's row of the tool's table (main.c). */
const qsb_command qsb_compare_command = {
    .name = "compare",
    .run = compare_main,
    .summary = "regression check between two results files",
    .specs = compare_specs,
};
