/*
** `qsortbench history VERB ...`: the history database of runs (src/history/). Each verb has
** its option table, from which its help is generated; `history --help` lists the verbs from
** their table. The verbs parse and call the history layer:
**   add RESULTS...  files a run (or several) under a commit (history_report.h);
**   list            the runs;
**   show            one series as a table (and --csv FILE);
**   detect          the steps of every series; exit 1 when one slower than --threshold ends
**                   at the newest commit of its series (--json FILE);
**   bisect          the first revision of a sort's git range that made it slower (bisect.h);
**   gate NEW        a new run against its machine's history (gate.h); exit 1 on a slowdown.
** Files go through qsb_with_outputs (opened before the database is read); when one of them is
** standard output, the table goes to stderr so that stdout holds that document alone. Exit: 0,
** 1 (detect, gate:
** a slower step at the newest commit; bisect: --bad not slower), 2 for a bad command line, a
** bad file or database, 3 for I/O.
*/
#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "bisect.h"
#include "commands.h"
#include "detect.h"
#include "diag.h"
#include "gate.h"
#include "history.h"
#include "history_report.h"
#include "option_names.h"
#include "outfile.h"
#include "read_results.h"
#include "run_options.h"
#include "significance.h"
#include "stamp.h"

#define DB_HELP "the history database (default " QSB_HISTORY_DEFAULT_PATH ")"

/* The options every verb shares the meaning of; each table lists those it takes. */
typedef struct {
    const char *db;
    const char *commit, *date, *branch, *machine;
    const char *cell, *algo, *csv, *json;
    const char *repo, *good, *bad, *build, *symbol;
    double threshold_pct;
    double alpha;
    qsb_correction correction;
    uint64_t last; /* gate: the runs of a row its level is learned from */
    qsb_history_runs_taken runs; /* detect --incomplete: every run */
} history_args;

/* Where each option's argument goes, by its name in the verbs' tables: one meaning per name
** across the verbs, so one handler serves them all. */
static const struct {
    const char *name;
    size_t offset; /* of its const char * in history_args */
} text_options[] = {
    {"db", offsetof(history_args, db)},
    {QSB_OPT_COMMIT, offsetof(history_args, commit)},
    {QSB_OPT_DATE, offsetof(history_args, date)},
    {"branch", offsetof(history_args, branch)},
    {QSB_OPT_MACHINE, offsetof(history_args, machine)},
    {QSB_OPT_CELL, offsetof(history_args, cell)},
    {QSB_OPT_ALGO, offsetof(history_args, algo)},
    {"csv", offsetof(history_args, csv)},
    {"json", offsetof(history_args, json)},
    {QSB_OPT_REPO, offsetof(history_args, repo)},
    {QSB_OPT_GOOD, offsetof(history_args, good)},
    {QSB_OPT_BAD, offsetof(history_args, bad)},
    {"build", offsetof(history_args, build)},
    {"symbol", offsetof(history_args, symbol)},
};

/* The parser's context: the arguments, and the table of the verb being parsed. */
typedef struct {
    history_args *args;
    const qsb_option *options;
} verb_parse;

static int handle_option(void *ctx, int index, const char *arg)
{
    verb_parse *vp = ctx;
    const char *name = vp->options[index].name;
    if (strcmp(name, "threshold") == 0)
        return qsb_parse_double(arg, "--threshold", 0.0, 1e6, &vp->args->threshold_pct);
    if (strcmp(name, "alpha") == 0)
        return qsb_parse_alpha(arg, &vp->args->alpha);
    if (strcmp(name, "correction") == 0)
        return qsb_parse_correction(arg, &vp->args->correction);
    if (strcmp(name, "last") == 0)
        return qsb_parse_u64(arg, "--last", 2, 100000, 0, &vp->args->last);
    if (strcmp(name, "incomplete") == 0) {
        vp->args->runs = QSB_HISTORY_EVERY_RUN;
        return QSB_OK;
    }
    for (size_t i = 0; i < sizeof text_options / sizeof *text_options; i++)
        if (strcmp(name, text_options[i].name) == 0) {
            *(const char **)((char *)vp->args + text_options[i].offset) = arg;
            return QSB_OK;
        }
    /* not reached: every name of the verbs' tables is above */
    return qsb_error(QSB_ESYSTEM, "history: the option --%s has no place", name);
}

/* ---- add ---- */

enum { ADD_DB, ADD_COMMIT, ADD_DATE, ADD_BRANCH, ADD_MACHINE };

static const qsb_option add_options[] = {
    [ADD_DB] = {"db", 0, "FILE", DB_HELP},
    [ADD_COMMIT] = {QSB_OPT_COMMIT, 0, "REV", "the commit measured (default: git's HEAD here)"},
    [ADD_DATE] = {QSB_OPT_DATE, 0, "ISO",
                  "its date, ISO 8601 (default: the commit's date in git)"},
    [ADD_BRANCH] = {"branch", 0, "NAME", "its branch (default: git's current branch)"},
    [ADD_MACHINE] = {QSB_OPT_MACHINE, 0, "NAME", "the machine (default: each run's own)"},
    {NULL, 0, NULL, NULL},
};

static const qsb_command_spec add_spec = {
    "history add", "RESULTS... [--db FILE] [--commit REV] [--date ISO] [--branch NAME] "
    "[--machine NAME]",
    "Add results files (CSV or JSON; a fleet file gives a run per machine) to the history,\n"
    "each with its context and rows (cell, algorithm, median, delta and their intervals,\n"
    "states, samples), all in one transaction. Without --commit and --date they come from\n"
    "git in the current directory; with neither there the add is refused (exit 2).",
    add_options,
    "0 the runs added, 2 usage error or bad input (a damaged database or one of a newer\n"
    "schema, no commit or date), 3 system error."};

/* The default database's folder is made when missing; a --db FILE's must exist. Returns
** whether it was made here. */
static bool make_default_folder(const char *db)
{
    return strcmp(db, QSB_HISTORY_DEFAULT_PATH) == 0 && mkdir("results", 0777) == 0;
}

static int verb_add(history_args *a, int argc, char **argv, int first)
{
    if (first >= argc)
        return qsb_usage_error("history add takes one or more results files");
    qsb_stamp_text stamp;
    int status = qsb_stamp_resolve(a->commit, a->date, a->branch, NULL, &stamp);
    if (status != QSB_OK)
        return status;
    bool made_folder = make_default_folder(a->db);
    qsb_history *h = NULL;
    if ((status = qsb_history_open(a->db, QSB_HISTORY_CREATE, &h)) == QSB_OK)
        status = qsb_history_add_files(h, argv + first, (size_t)(argc - first), &stamp,
                                       a->machine);
    if (status == QSB_OK) {
        qsb_history_close(h);
        return status;
    }
    qsb_history_discard(h); /* a failed add leaves nothing it made behind */
    if (made_folder)
        rmdir("results");
    return status;
}

/* ---- list ---- */

enum { LIST_DB, LIST_MACHINE };

static const qsb_option list_options[] = {
    [LIST_DB] = {"db", 0, "FILE", DB_HELP},
    [LIST_MACHINE] = {QSB_OPT_MACHINE, 0, "NAME", "only this machine's runs"},
    {NULL, 0, NULL, NULL},
};

static const qsb_command_spec list_spec = {
    "history list", "[--db FILE] [--machine NAME]",
    "The runs of the history in commit order (the commits' ancestry where git told it when\n"
    "they were filed, then their time): run id, commit, date, machine, cells, command; an\n"
    "interrupted run is marked \"incomplete\", one measured with uncommitted changes \"dirty\".",
    list_options,
    "0 success, 2 usage error or bad input, 3 system error."};

static int verb_list(history_args *a, int argc, char **argv, int first)
{
    (void)argv;
    if (first < argc)
        return qsb_usage_error("history list takes no operands");
    qsb_history *h;
    int status = qsb_history_open(a->db, QSB_HISTORY_READ, &h);
    if (status == QSB_OK)
        status = qsb_history_check_machine(h, a->machine);
    if (status == QSB_OK)
        status = qsb_history_write_runs(stdout, h, a->machine);
    if (status == QSB_OK)
        status = qsb_history_write_levels(stdout, h, a->machine);
    qsb_history_close(h);
    return status;
}

/* ---- show ---- */

enum { SHOW_DB, SHOW_CELL, SHOW_ALGO, SHOW_MACHINE, SHOW_CSV };

static const qsb_option show_options[] = {
    [SHOW_DB] = {"db", 0, "FILE", DB_HELP},
    [SHOW_CELL] = {QSB_OPT_CELL, 0, "PATTERN/NELEM/SIZE",
                   "the cell, e.g. random/1000/4 (required)"},
    [SHOW_ALGO] = {QSB_OPT_ALGO, 0, "NAME", "the algorithm (required)"},
    [SHOW_MACHINE] = {QSB_OPT_MACHINE, 0, "NAME",
                      "only this machine's series (default: every one)"},
    [SHOW_CSV] = {"csv", 0, "FILE", "also the series as CSV, one line per run with its "
                                    "samples ('-': stdout)"},
    {NULL, 0, NULL, NULL},
};

static const qsb_command_spec show_spec = {
    "history show", "--cell PATTERN/NELEM/SIZE --algo NAME [--machine NAME] [--csv FILE] "
    "[--db FILE]",
    "One series of the history in commit order: each run's commit, date, median and paired\n"
    "delta with their 95% intervals, and its speed states. An unknown cell or algorithm is\n"
    "exit 2, naming those there are.",
    show_options,
    "0 success, 2 usage error or bad input (an unknown cell or algorithm), 3 system error."};

/* "random/1000/4" into the filter; the pattern is kept in pattern[]. */
static int parse_cell(const char *text, char *pattern, size_t len, qsb_history_filter *f)
{
    const char *s1 = strchr(text, '/');
    const char *s2 = s1 ? strchr(s1 + 1, '/') : NULL;
    if (!s1 || !s2 || s1 == text || (size_t)(s1 - text) >= len)
        return qsb_usage_error("--cell: '%s' is not PATTERN/NELEM/SIZE", qsb_quote(text));
    memcpy(pattern, text, (size_t)(s1 - text));
    pattern[s1 - text] = '\0';
    char nelem[32];
    if ((size_t)(s2 - s1 - 1) >= sizeof nelem)
        return qsb_usage_error("--cell: '%s' is not PATTERN/NELEM/SIZE", qsb_quote(text));
    memcpy(nelem, s1 + 1, (size_t)(s2 - s1 - 1));
    nelem[s2 - s1 - 1] = '\0';
    f->pattern = pattern;
    int status = qsb_parse_u64(nelem, "--cell's NELEM", 0, UINT64_MAX, 0, &f->nelem);
    if (status == QSB_OK)
        status = qsb_parse_u64(s2 + 1, "--cell's SIZE", 1, UINT64_MAX, 0, &f->size);
    return status;
}

typedef struct { const history_args *a; const qsb_history_filter *f; } show_job;

/* Between --csv's open and its commit: the database opened (--csv is not it), the series. */
static int show_into(const qsb_outputs *out, void *arg)
{
    const show_job *job = arg;
    qsb_history *h;
    int status = qsb_history_open(job->a->db, QSB_HISTORY_READ, &h);
    if (status == QSB_OK)
        status = qsb_history_check_machine(h, job->a->machine);
    if (status == QSB_OK)
        status = qsb_history_show(h, job->f, qsb_outputs_text_stream(out), out->file[0].fp);
    qsb_history_close(h);
    return status;
}

static int verb_show(history_args *a, int argc, char **argv, int first)
{
    (void)argv;
    if (first < argc)
        return qsb_usage_error("history show takes no operands");
    if (!a->cell || !a->algo)
        return qsb_usage_error("history show needs --cell PATTERN/NELEM/SIZE and --algo NAME");
    char pattern[128];
    qsb_history_filter f = {NULL, 0, 0, a->algo, a->machine, QSB_HISTORY_EVERY_RUN};
    int status = parse_cell(a->cell, pattern, sizeof pattern, &f);
    const qsb_output_spec specs[1] = {{"--csv", a->csv}};
    const qsb_file_group db = {"--db", QSB_FILES_READ, &a->db, 1};
    show_job job = {a, &f};
    return status == QSB_OK ? qsb_with_outputs(specs, 1, &db, 1, show_into, &job) : status;
}

/* ---- detect ---- */

enum { DETECT_DB, DETECT_THRESHOLD, DETECT_JSON, DETECT_MACHINE, DETECT_INCOMPLETE };

static const qsb_option detect_options[] = {
    [DETECT_DB] = {"db", 0, "FILE", DB_HELP},
    [DETECT_THRESHOLD] = {"threshold", 0, "PCT", "a step slower than this at the newest "
                                                 "commit of its series fails (default 5)"},
    [DETECT_JSON] = {"json", 0, "FILE", "also the steps as JSON ('-': stdout)"},
    [DETECT_MACHINE] = {QSB_OPT_MACHINE, 0, "NAME", "only this machine's series"},
    [DETECT_INCOMPLETE] = {"incomplete", 0, NULL, "also the runs that were interrupted (left "
                                                  "out by default: only their finished cells, "
                                                  "measured under other conditions)"},
    {NULL, 0, NULL, NULL},
};

static const qsb_command_spec detect_spec = {
    "history detect", "[--db FILE] [--threshold PCT] [--json FILE] [--machine NAME] "
    "[--incomplete]",
    "Steps (change points) in every (machine, cell, algorithm) series: of the paired deltas,\n"
    "and of the medians as a second view. A penalised step fit weighted by each run's\n"
    "interval and the spread between runs (docs/measurement.md, \"History\"). Each step:\n"
    "the last commit before it, the first after, the change and its 95% interval. Exit 1\n"
    "when a step of the deltas (of the medians for a baseline) slower than --threshold ends\n"
    "at the newest commit of its series, else 0.",
    detect_options,
    "0 no slower step at the newest commit, 1 a step slower than --threshold ends at the\n"
    "newest commit of its series, 2 usage error or bad input, 3 system error."};

/* QSB_FINDING, said in one line, when a step slower than threshold_pct ends at the newest
** commit of its series; else QSB_OK. */
static int detect_status(const qsb_step_list *steps, double threshold_pct)
{
    size_t slower = 0;
    for (size_t i = 0; i < steps->n; i++)
        slower += qsb_step_fails(&steps->steps[i], threshold_pct);
    if (slower == 0)
        return QSB_OK;
    return qsb_error(QSB_FINDING, "history detect: %zu step%s slower than %g%% at the newest "
                     "commit of %s series (SLOWER in the table)", slower, slower == 1 ? "" : "s",
                     threshold_pct, slower == 1 ? "its" : "their");
}

/* Between --json's open and its commit: the database opened (--json is not it), the steps;
** QSB_FINDING when one slower than --threshold ends at the newest commit of its series. */
static int detect_into(const qsb_outputs *out, void *arg)
{
    const history_args *a = arg;
    qsb_history *h;
    qsb_step_list steps = {0};
    int status = qsb_history_open(a->db, QSB_HISTORY_READ, &h);
    if (status == QSB_OK)
        status = qsb_history_check_machine(h, a->machine);
    if (status == QSB_OK)
        status = qsb_detect_all(h, a->machine, a->runs, &steps);
    if (status == QSB_OK)
        status = qsb_steps_write(qsb_outputs_text_stream(out), out->file[0].fp, &steps,
                                 a->threshold_pct);
    if (status == QSB_OK)
        status = detect_status(&steps, a->threshold_pct);
    qsb_step_list_free(&steps);
    qsb_history_close(h);
    return status;
}

static int verb_detect(history_args *a, int argc, char **argv, int first)
{
    (void)argv;
    if (first < argc)
        return qsb_usage_error("history detect takes no operands");
    const qsb_output_spec specs[1] = {{"--json", a->json}};
    const qsb_file_group db = {"--db", QSB_FILES_READ, &a->db, 1};
    return qsb_with_outputs(specs, 1, &db, 1, detect_into, a);
}

/* ---- bisect ---- */

enum { BISECT_REPO, BISECT_GOOD, BISECT_BAD, BISECT_BUILD, BISECT_SYMBOL, BISECT_THRESHOLD,
       BISECT_DB };

static const qsb_option bisect_options[] = {
    [BISECT_REPO] = {QSB_OPT_REPO, 0, "DIR",
                     "the git repository of the sort's source (required)"},
    [BISECT_GOOD] = {QSB_OPT_GOOD, 0, "REV", "a revision that is not slower (required)"},
    [BISECT_BAD] = {QSB_OPT_BAD, 0, "REV", "a later revision that is slower (required)"},
    [BISECT_BUILD] = {"build", 0, "CMD", "a shell command that builds the plug-in $OUT in "
                                         "the checked-out tree (required)"},
    [BISECT_SYMBOL] = {"symbol", 0, "SYM", "the sort in the plug-in, qsort_r's signature "
                                           "(required)"},
    [BISECT_THRESHOLD] = {"threshold", 0, "PCT", "slower: the run's gate (--fail-above) fails "
                                                 "at this % (default 5)"},
    [BISECT_DB] = {"db", 0, "FILE", "the history the runs are added to (default "
                                    QSB_HISTORY_DEFAULT_PATH ")"},
    {NULL, 0, NULL, NULL},
};

static const qsb_command_spec bisect_spec = {
    "history bisect", "--repo DIR --good REV --bad REV --build CMD --symbol SYM "
    "[--threshold PCT] [--db FILE] [-- RUN OPTIONS]",
    "The first revision of a git range of a sort's source that made it slower. Each revision\n"
    "looked at is checked out in a temporary git worktree, built there by CMD with OUT set\n"
    "to the plug-in's path, and measured in one run against the good revision's plug-in\n"
    "(the in-run gate's paired test, --fail-above PCT; the run's options after --); binary\n"
    "search: ceil(log2(range)) + 1 runs at most. A revision that does not build, or whose\n"
    "sort fails verification, is skipped (as git bisect skip). Prints each step and the\n"
    "revision; the runs are added to the history. Exit 0 with the revision named, 1 when\n"
    "--bad is not slower than --good, 2 for bad input (unknown revisions, --good that does\n"
    "not build), 3 for system errors.",
    bisect_options,
    "0 the revision named, 1 --bad is not slower than --good, 2 usage error or bad input,\n"
    "3 system error."};

/* Removes a history this bisection created where it failed before filing a run into it (and
** the default folder it made), as a failed add leaves nothing behind. */
static void remove_if_empty(const char *db, bool made_folder)
{
    qsb_history *h;
    qsb_history_run *runs = NULL;
    size_t n = 1;
    if (qsb_history_open(db, QSB_HISTORY_READ, &h) != QSB_OK)
        return;
    if (qsb_history_runs(h, NULL, &runs, &n) == QSB_OK)
        qsb_history_runs_free(runs, n);
    else
        n = 1;
    qsb_history_close(h);
    if (n == 0 && unlink(db) == 0 && made_folder)
        rmdir("results");
}

static int verb_bisect(history_args *a, int argc, char **argv, int first)
{
    if (!a->repo || !a->good || !a->bad || !a->build || !a->symbol)
        return qsb_usage_error("history bisect needs --repo, --good, --bad, --build and "
                               "--symbol");
    bool existed = access(a->db, F_OK) == 0;
    bool made_folder = make_default_folder(a->db);
    qsb_history *h; /* a bad database fails now, not after the first build */
    int status = qsb_history_open(a->db, QSB_HISTORY_CREATE, &h);
    qsb_history_close(h);
    if (status != QSB_OK) {
        if (made_folder)
            rmdir("results");
        return status;
    }
    qsb_bisect_config cfg = {a->repo, a->good, a->bad, a->build, a->symbol, a->threshold_pct,
                             argv + first, (size_t)(argc - first), a->db, "/proc/self/exe",
                             {{0}}};
    qsb_run_words(cfg.run_words);
    status = qsb_bisect(&cfg);
    if (status != QSB_OK && !existed)
        remove_if_empty(a->db, made_folder);
    return status;
}

/* ---- gate ---- */

enum { GATE_DB, GATE_MACHINE, GATE_LAST, GATE_THRESHOLD, GATE_ALPHA, GATE_CORRECTION,
       GATE_JSON };

static const qsb_option gate_options[] = {
    [GATE_DB] = {"db", 0, "FILE", DB_HELP},
    [GATE_MACHINE] = {QSB_OPT_MACHINE, 0, "NAME",
                      "the machine whose history NEW is judged against (default: NEW's own)"},
    [GATE_LAST] = {"last", 0, "N", "learn each row's run level from its last N runs (default "
                                   "30)"},
    [GATE_THRESHOLD] = {"threshold", 0, "PCT", "a regression is slower than PCT % beyond the "
                                               "history's mean (default 5)"},
    [GATE_ALPHA] = QSB_OPTION_ALPHA("...at a one-sided p, corrected over the rows, below A "
                                    "(default 0.01)"),
    [GATE_CORRECTION] = QSB_OPTION_CORRECTION("holm (default), bh or none"),
    [GATE_JSON] = {"json", 0, "FILE", "also the verdicts as JSON ('-': only the JSON on stdout)"},
    {NULL, 0, NULL, NULL},
};

static const qsb_command_spec gate_spec = {
    "history gate", "NEW [--db FILE] [--last N] [--threshold PCT] [--json FILE]",
    "A new run (a results file not yet filed) against the last runs of its machine in the\n"
    "history: each row's value (a candidate's delta, the baseline's median) against the 95%\n"
    "prediction interval of one new run, from the history's mean, the row's run level (its\n"
    "spread between runs, shrunk toward the machine's where it has few runs) and NEW's own\n"
    "interval. Under 5 runs a row's level is unknown and it is judged within the run only.\n"
    "Each row says the smallest change its gate sees (80% power), and the table's last lines\n"
    "the median row's (docs/measurement.md, \"The run level from history\").",
    gate_options,
    "0 no regression, 1 a row slower than --threshold beyond the history at the corrected\n"
    "p, 2 usage error or bad input (NEW already filed, no run of its machine), 3 system\n"
    "error."};

typedef struct {
    const history_args *args;
    const char *new_path;
} gate_job;

/* NEW read, the history's levels of its machine, the verdicts written; QSB_FINDING on a
** regression. */
static int gate_run(qsb_history *h, const qsb_results *run, const qsb_outputs *out,
                    const history_args *a, const char *new_path)
{
    const char *machine = a->machine ? a->machine : qsb_machine_name(&run->context);
    bool held;
    int status = qsb_history_check_machine(h, machine);
    if (status == QSB_OK)
        status = qsb_history_holds_run(h, &run->context, &held);
    if (status == QSB_OK && held)
        return qsb_usage_error("%s is filed in the history already: a run is never judged "
                               "against itself", qsb_quote_path(new_path));
    qsb_run_levels levels;
    if (status == QSB_OK)
        status = qsb_history_run_levels(h, machine, run->context.metric,
                                        (size_t)a->last, &levels);
    if (status != QSB_OK)
        return status;
    qsb_gate_options opt = {a->threshold_pct, a->alpha, a->correction};
    qsb_gate_report report;
    if (levels.n == 0) {
        status = qsb_usage_error("the history has no run of machine '%s' in %s (qsortbench "
                                 "history gate --help)",
                                 machine, run->context.metric);
    } else if ((status = qsb_gate_judge(run, &levels, &opt, &report)) == QSB_OK) {
        FILE *text = qsb_outputs_text_stream(out);
        qsb_run_levels_write(text, &levels, machine);
        qsb_gate_write_table(text, &report, &opt);
        qsb_gate_warn(&report);
        if (out->file[0].fp)
            status = qsb_gate_write_json(out->file[0].fp, &report, &opt);
        if (status == QSB_OK && report.count[QSB_GATE_REGRESSION] > 0)
            status = qsb_error(QSB_FINDING, "%zu row%s slower than %g%% beyond the history of "
                               "'%s' (REGRESSION above)",
                               report.count[QSB_GATE_REGRESSION],
                               report.count[QSB_GATE_REGRESSION] == 1 ? "" : "s",
                               a->threshold_pct, machine);
        qsb_gate_report_free(&report);
    }
    qsb_run_levels_free(&levels);
    return status;
}

static int gate_into(const qsb_outputs *out, void *arg)
{
    const gate_job *job = arg;
    qsb_results run;
    qsb_history *h = NULL;
    int status = qsb_read_results(job->new_path, &run);
    if (status != QSB_OK)
        return status;
    status = qsb_history_open(job->args->db, QSB_HISTORY_READ, &h);
    if (status == QSB_OK)
        status = gate_run(h, &run, out, job->args, job->new_path);
    qsb_history_close(h);
    qsb_results_free(&run);
    return status;
}

static int verb_gate(history_args *a, int argc, char **argv, int first)
{
    if (argc - first != 1)
        return qsb_usage_error("history gate takes one results file, NEW (qsortbench history "
                               "gate --help)");
    gate_job job = {a, argv[first]};
    const qsb_output_spec specs[1] = {{"--json", a->json}};
    const qsb_file_group inputs[2] = {{"--db", QSB_FILES_READ, &a->db, 1},
                                      {"NEW", QSB_FILES_READ, &job.new_path, 1}};
    return qsb_with_outputs(specs, 1, inputs, 2, gate_into, &job);
}

/* ---- the verbs ---- */

typedef struct {
    const qsb_command_spec *spec;
    const char *summary; /* one line, for `history --help` */
    int (*run)(history_args *a, int argc, char **argv, int first);
} history_verb;

static const history_verb verbs[] = {
    {&add_spec, "file results under a commit", verb_add},
    {&list_spec, "the runs: commit, date, machine, cells, command", verb_list},
    {&show_spec, "one series (cell, algorithm) over commits", verb_show},
    {&detect_spec, "steps in every series; exit 1 on a slower one at the newest commit",
     verb_detect},
    {&bisect_spec, "the first revision of a sort's git range that made it slower", verb_bisect},
    {&gate_spec, "a new run against its machine's history; exit 1 on a slowdown", verb_gate},
    {NULL, NULL, NULL},
};

/* The verbs' tables, in the table's order, for the man page and the completion; a verb added
** above without its table here does not compile. */
static const qsb_command_spec *const history_specs[] = {&add_spec, &list_spec, &show_spec,
                                                     &detect_spec, &bisect_spec, &gate_spec, NULL};
_Static_assert(sizeof history_specs / sizeof *history_specs ==
                   sizeof verbs / sizeof *verbs,
               "every history verb's table is in history_specs");

static const char *verb_word(const history_verb *v)
{
    return v->spec->name + strlen("history ");
}

static void print_help(void)
{
    printf("Usage: qsortbench history VERB [OPTIONS]   (qsortbench history VERB --help)\n"
           "Every run kept in a SQLite database with the commit it measured; the series of\n"
           "runs of a cell looked at as a whole for steps.\n\nVerbs:\n");
    for (const history_verb *v = verbs; v->spec; v++)
        printf("  %-8s %s\n", verb_word(v), v->summary);
    printf("\nExit status: 0 success, 1 detect found a slower step at the newest commit,\n"
           "bisect's --bad is not slower than --good, or gate found a row slower than the\n"
           "history (one error line says which), 2 usage error or bad input (a damaged\n"
           "database, one of a newer schema), 3 system error.\n");
}

/* "add, list, show, detect" from the table. */
static const char *verb_names(char *buf, size_t len)
{
    size_t used = 0;
    buf[0] = '\0';
    for (const history_verb *v = verbs; v->spec && used < len; v++)
        used += (size_t)snprintf(buf + used, len - used, "%s%s", v == verbs ? "" : ", ",
                                 verb_word(v));
    return buf;
}

static int history_main(int argc, char **argv)
{
    char names[128];
    qsb_usage_help_of("history");
    if (argc < 2)
        return qsb_usage_error("history needs a verb (%s)", verb_names(names, sizeof names));
    if (strcmp(argv[1], "--help") == 0 || strcmp(argv[1], "-h") == 0) {
        print_help();
        return QSB_OK;
    }
    for (const history_verb *v = verbs; v->spec; v++) {
        if (strcmp(argv[1], verb_word(v)) != 0)
            continue;
        history_args a = {.db = QSB_HISTORY_DEFAULT_PATH, .threshold_pct = 5.0,
                          .alpha = 0.01, .last = QSB_HISTORY_LAST_RUNS};
        verb_parse vp = {&a, v->spec->options};
        int first;
        int status = qsb_parse_options(v->spec, argc - 1, argv + 1, handle_option, &vp, &first);
        if (status != QSB_OK)
            return status == QSB_HELP_SHOWN ? QSB_OK : status;
        return v->run(&a, argc - 1, argv + 1, first);
    }
    return qsb_usage_error("history: unknown verb '%s' (%s)", qsb_quote(argv[1]),
                           verb_names(names, sizeof names));
}

/* The command's row of the tool's table (main.c). */
const qsb_command qsb_history_command = {
    .name = "history",
    .run = history_main,
    .summary = "every run kept with its commit; steps across commits",
    .specs = history_specs,
};
