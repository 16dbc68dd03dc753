/*
** `qsortbench [run]` options: the table (from which --help is generated) and their parsing
** into one qsb_run_config (see run_config.h). Options are first collected as text, then
** resolved in one place each, so a default and a given value go through the same checks.
** Here: the table, the measuring and output options, and the order of resolution; the
** matrix's options are run_matrix_options.c, the worker processes' run_worker_options.c.
*/
#include "run_options.h"
#include "run_option_texts.h"

#include <ctype.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "commands.h"
#include "cover_letter.h"
#include "auto_nelem.h"
#include "diag.h"
#include "result.h"
#include "export.h"
#include "placement.h"
#include "run_context.h"
#include "schedule.h"
#include "significance.h"
#include "worker_protocol.h"

#define MAX_REPS UINT64_C(1000000)
#define MAX_PRECISION_PCT 100.0
#define MAX_BUDGET_S (7 * 86400.0)
#define MAX_WARMUP UINT64_C(1000)
#define MAX_BATCH UINT64_C(1000000)
#define MAX_SLOWED_PCT 1000.0

static const qsb_option run_options[] = {
    [OPT_NELEM] = {"nelem", 0, "LIST",
                   "element counts, colon-separated (49152:786432:8388608), or 'auto': "
                   "L1d/L2/L3 capacity / 8 (default auto)"},
    [OPT_SIZES] = {"sizes", 0, "LIST", "element sizes in bytes, comma-separated (default "
                                       QSB_RUN_DEFAULT_SIZES ")"},
    [OPT_PATTERNS] = {"patterns", 0, "LIST",
                      "comma-separated pattern names or 'all' (default: the five seed "
                      "patterns; see 'qsortbench list')"},
    [OPT_ALGOS] = {"algos", 0, "LIST",
                   "comma-separated algorithm names, the first is the baseline (default "
                   QSB_RUN_DEFAULT_ALGOS ", or " QSB_RUN_COVER_LETTER_ALGOS " with --reference "
                   QSB_COVER_LETTER_NAME "); plug-ins: [NAME=]PATH.so:SYMBOL[:qsort]"},
    [OPT_PRECISION] = {"precision", 0, "P",
                       "spend the budget on the cells whose 95% intervals are wider than "
                       "+-P % (default 1); cells left wider are flagged noisy"},
    [OPT_BUDGET] = {"budget", 0, "TIME",
                    "the whole run's time, e.g. 90s, 10m (default auto: three times the "
                    "matrix's minimum of 5 worker processes, or with --processes 1 of 5 units "
                    "per cell; at least 10s and at most 5m); the estimate is printed before "
                    "the first sort, and the run spends it unless every interval meets "
                    "--precision first"},
    [OPT_CSV] = {"csv", 0, "FILE", "CSV results, '-' for stdout (default "
                                   "results/qsortbench-<UTC time>.csv)"},
    [OPT_JSON] = {"json", 0, "FILE", "JSON results, '-' for stdout (default "
                                     "results/qsortbench-<UTC time>.json)"},
    [OPT_QUIET] = {"quiet", 'q', NULL, "no progress line on stderr"},
    [OPT_FAIL_ABOVE] = {"fail-above", 0, "PCT",
                        "exit 1 when a candidate is slower than PCT %: its paired ratio "
                        "above 1 + PCT/100 by a one-sided t test over its units, p corrected "
                        "over all candidate rows below --alpha; a gating run spends its whole "
                        "--budget (no early end at --precision)"},
    /* --help-all: the options of experiments, of other outputs and of several processes */
    [OPT_MORE] = QSB_MORE_OPTIONS,
    [OPT_SEED] = {"seed", 0, "N", "input generator seed below 2^48, decimal or 0x-hex "
                                  "(default 0x9abc56781234)"},
    [OPT_REPS] = {"reps", 0, "N", "exactly N timed rounds per cell, spread over up to 5 units "
                                  "(default: as many as the --budget gives)"},
    [OPT_PLACEMENT] = {"placement", 0, "REGIME",
                       "far: the comparator in its own shared object, never in a sort's 16 MiB "
                       "region, as every libc qsort is called (default); near: a comparator "
                       "compiled beside the sorts (experiments)"},
    [OPT_NO_RELOAD] = {"no-reload", 0, NULL,
                       "keep one placement for the whole run instead of loading the sorts "
                       "afresh at a random offset for each unit (experiments)"},
    [OPT_WARMUP] = {"warmup", 0, "N",
                    "N untimed sorts per algorithm at each visit of a cell, before its rounds "
                    "(default: 1 where a sort takes under 20 ms, else 0)"},
    [OPT_PIN] = {"pin", 0, "CPU", "run on this CPU only (sched_setaffinity; default: not "
                                  "pinned)"},
    [OPT_BATCH] = {"batch", 0, "K",
                   "time K sorts back to back per sample, each on its own fresh copy (default: "
                   "as many as make a sample last 10 us, for very short sorts)"},
    [OPT_SLOWED] = {"slowed", 0, "PCT",
                    "retake a sort under 10 ms that ran more than PCT % slower than the fastest "
                    "sample of its cell and algorithm, as slowed by a busy shared machine (10 "
                    "suits these machines; the retakes cost time within --budget); default "
                    "0: never"},
    [OPT_METRIC] = {"metric", 0, "M", "cycles (invariant TSC), ns or comparisons (default "
                                      "cycles where an invariant TSC exists, else ns)"},
    [OPT_COMPAT] = {"compat", 0, "MODE",
                    QSB_COMPAT_2021_NAME ": the 2021 glibc benchmark's inputs, quirks "
                                         "included (patterns spec)"},
    [OPT_REFERENCE] = {"reference", 0, "FILE",
                       "print published deltas beside ours: glibc-2021 (the 2021 cover "
                       "letter, built in) or a CSV of its columns"},
    [OPT_EXPORT] = {"export", 0, "FORMAT=FILE",
                    "also write the results for CI dashboards: gbench (Google Benchmark "
                    "JSON), bmf (Bencher Metric Format) or github-action-benchmark "
                    "(customSmallerIsBetter JSON); `qsortbench export --help`"},
    [OPT_REPORT] = {"report", 0, "FILE",
                    "also write one self-contained HTML page of the run (`qsortbench report`: "
                    "context, tables, inline charts; needs gnuplot: Debian gnuplot-nox)"},
    [OPT_HISTORY] = {"history", 0, "FILE",
                     "also add the run to that history database, filed under git's HEAD in "
                     "the current directory and its date (`qsortbench history --help`)"},
    [OPT_ALPHA] = QSB_OPTION_ALPHA("--fail-above's level after the correction (default "
                                         "0.01)"),
    [OPT_CORRECTION] = QSB_OPTION_CORRECTION("--fail-above's correction: holm (default: "
                                                   "the chance of any false failure is at most "
                                                   "alpha), bh (Benjamini-Hochberg: the expected "
                                                   "share of false failures among the failed "
                                                   "rows is at most alpha; more rows caught when "
                                                   "many changed) or none"),
    [OPT_PLOT] = {"plot", 0, NULL, "also draw the charts of `qsortbench plot` beside the results "
                                   "file (needs gnuplot: Debian gnuplot-nox)"},
    [OPT_SHARD] = {"shard", 0, "K/N",
                   "run part K (1..N) of N of the matrix's cells, split by estimated cost; "
                   "`qsortbench merge` joins the N results files"},
    [OPT_MACHINE] = {"machine", 0, "NAME",
                     "this machine's name in merged files (default: the host name); give "
                     "every shard of one machine kind the same NAME"},
    [OPT_PROCESSES] = {"processes", 0, "N",
                       "run the matrix in N worker processes, one after the other, each "
                       "visiting every cell once; intervals over the processes (default auto: "
                       "5 of every cell, then processes of the cells wider than --precision "
                       "while --budget lasts); 1: one process, intervals over its units "
                       "(experiments; also with --reps)"},
    [OPT_JOBS] = {"jobs", 0, "N|auto",
                  "worker processes that run at once, each keeping its sorts paired in "
                  "itself: N, or auto (one per CPU this process may use); 1 runs them one "
                  "after the other (default " QSB_JOBS_DEFAULT ")"},
    [OPT_MEMORY] = {"memory", 0, "SIZE",
                    "a bound on the run's memory, its inputs and the buffers of every process "
                    "that sorts, e.g. 4G or 512M (default: a quarter of physical memory); a "
                    "matrix beyond it is refused before the first sort, --nelem auto chooses "
                    "within it"},
    [OPT_COUNT] = {NULL, 0, NULL, NULL},
};

const qsb_command_spec qsb_run_spec = {
    "run", "[OPTIONS]",
    "Benchmark every (pattern, element count, element size) cell with each algorithm and\n"
    "print the paired delta of each candidate against the baseline (the first algorithm).",
    run_options,
    "0 success, 1 a finding (a sort FAILED: wrong result, crash, exit or\n"
    "stall in its sort; --fail-above: a slower candidate), 2 usage error or bad input, 3\n"
    "system error (a measuring process killed from outside twice: the results so far written,\n"
    "marked incomplete), 130/143 interrupted by SIGINT/SIGTERM (the results so far written,\n"
    "marked incomplete)."};
const qsb_command_spec *const qsb_run_specs[] = {&qsb_run_spec, NULL};

void qsb_run_words(char words[QSB_BISECT_WORDS][32])
{
    static const int options[QSB_BISECT_WORDS] = {
        [QSB_BISECT_ALGOS] = OPT_ALGOS, [QSB_BISECT_GATE] = OPT_FAIL_ABOVE,
        [QSB_BISECT_JSON] = OPT_JSON, [QSB_BISECT_CSV] = OPT_CSV, [QSB_BISECT_QUIET] = OPT_QUIET};
    snprintf(words[QSB_BISECT_RUN], sizeof words[0], "%s", qsb_run_spec.name);
    for (int i = QSB_BISECT_ALGOS; i < QSB_BISECT_WORDS; i++) {
        const qsb_option *o = &run_options[options[i]];
        if (o->short_name) /* the short form, as a user types a flag */
            snprintf(words[i], sizeof words[0], "-%c", o->short_name);
        else
            snprintf(words[i], sizeof words[0], "--%s", o->name);
    }
}

static int collect_option(void *ctx, int index, const char *arg)
{
    qsb_run_option_texts *t = ctx;
    if (index == OPT_QUIET)
        t->quiet = true;
    else if (index == OPT_NO_RELOAD)
        t->no_reload = true;
    else if (index == OPT_PLOT)
        t->plot = true;
    else if (index >= OPT_COUNT) /* a worker's own option (worker_protocol.h) */
        t->protocol[index - OPT_COUNT] = arg;
    else
        t->text[index] = arg;
    return QSB_OK;
}


static int resolve_outputs(qsb_run_options *run, const qsb_run_option_texts *t)
{
    run->csv_path = t->text[OPT_CSV];
    run->json_path = t->text[OPT_JSON];
    if (run->csv_path && run->json_path && strcmp(run->csv_path, "-") == 0 &&
        strcmp(run->json_path, "-") == 0)
        return qsb_usage_error("--csv and --json cannot both be '-' (standard output)");
    if (run->csv_path && run->json_path && strcmp(run->csv_path, run->json_path) == 0)
        return qsb_usage_error("--csv and --json name the same file '%s'",
                               qsb_quote_path(run->csv_path));
    return QSB_OK;
}


/* "0-1,4" style list of the CPUs this process may run on, for the --pin error. */
static void describe_cpus(const cpu_set_t *set, char *buf, size_t len)
{
    size_t used = 0;
    buf[0] = '\0';
    for (int cpu = 0; cpu < CPU_SETSIZE && used < len; cpu++) {
        if (!CPU_ISSET(cpu, set) || (cpu > 0 && CPU_ISSET(cpu - 1, set)))
            continue;
        int last = cpu;
        while (last + 1 < CPU_SETSIZE && CPU_ISSET(last + 1, set))
            last++;
        int n = last > cpu ? snprintf(buf + used, len - used, "%s%d-%d", used ? "," : "", cpu,
                                      last)
                           : snprintf(buf + used, len - used, "%s%d", used ? "," : "", cpu);
        used += n > 0 ? (size_t)n : 0;
    }
}

/* --pin CPU: a CPU this process may run on now (the affinity it inherited). */
static int resolve_pin(qsb_run_config *cfg, const char *text)
{
    cfg->pin_cpu = -1;
    if (!text)
        return QSB_OK;
    uint64_t cpu;
    int status = qsb_parse_u64(text, "--pin", 0, CPU_SETSIZE - 1, 0, &cpu);
    if (status != QSB_OK)
        return status;
    cpu_set_t allowed;
    CPU_ZERO(&allowed);
    if (sched_getaffinity(0, sizeof allowed, &allowed) != 0)
        return qsb_error(QSB_ESYSTEM, "--pin: cannot read this process's CPU affinity");
    if (!CPU_ISSET((int)cpu, &allowed)) {
        char cpus[256];
        describe_cpus(&allowed, cpus, sizeof cpus);
        return qsb_usage_error("--pin %s: CPU %s is not available to this process (available: "
                               "%s)",
                               qsb_quote(text), qsb_quote(text), cpus);
    }
    cfg->pin_cpu = (int)cpu;
    return QSB_OK;
}

/* "90", "90s", "10m", "1h": seconds. */
static int parse_duration(const char *text, const char *what, double *out)
{
    size_t len = strlen(text);
    double unit = 1.0;
    char number[64];
    if (len > 0 && len < sizeof number && strchr("smh", text[len - 1])) {
        unit = text[len - 1] == 'h' ? 3600.0 : text[len - 1] == 'm' ? 60.0 : 1.0;
        len--;
    }
    if (len == 0 || len >= sizeof number || isalpha((unsigned char)text[len - 1]))
        return qsb_usage_error("%s: '%s' is not a duration (90s, 10m, 1h)", what, text);
    memcpy(number, text, len);
    number[len] = '\0';
    double value;
    int status = qsb_parse_double(number, what, 0.0, MAX_BUDGET_S / unit, &value);
    if (status == QSB_OK && !(value > 0.0))
        status = qsb_usage_error("%s: '%s' must be above 0", what, text);
    *out = value * unit;
    return status;
}

static int resolve_placement(qsb_run_config *cfg, const qsb_run_option_texts *t)
{
    const char *text = t->text[OPT_PLACEMENT];
    cfg->reload = !t->no_reload;
    if (!text || strcmp(text, "far") == 0)
        cfg->placement = QSB_PLACEMENT_FAR;
    else if (strcmp(text, "near") == 0)
        cfg->placement = QSB_PLACEMENT_NEAR;
    else
        return qsb_usage_error("--placement: unknown regime '%s' (valid: far, near)", text);
    return QSB_OK;
}

/* --reps, --precision, --budget, --warmup, --batch, --slowed, --pin, --placement: how cells
** are repeated and measured. */
static int resolve_repetitions(qsb_run_config *cfg, const qsb_run_option_texts *t)
{
    int status = QSB_OK;
    cfg->precision_pct = QSB_DEFAULT_PRECISION_PCT;
    cfg->budget_s = 0; /* auto */
    cfg->warmup = QSB_WARMUP_AUTO;
    if (t->text[OPT_REPS])
        status = qsb_parse_u64(t->text[OPT_REPS], "--reps", 1, MAX_REPS, 0, &cfg->reps);
    if (status == QSB_OK && t->text[OPT_PRECISION])
        status = qsb_parse_positive(t->text[OPT_PRECISION], "--precision", MAX_PRECISION_PCT,
                                &cfg->precision_pct);
    if (status == QSB_OK && t->text[OPT_BUDGET] && strcmp(t->text[OPT_BUDGET], "auto") != 0)
        status = parse_duration(t->text[OPT_BUDGET], "--budget", &cfg->budget_s);
    if (status == QSB_OK && t->text[OPT_BUDGET] && t->text[OPT_REPS])
        status = qsb_usage_error("--budget sets the run's time, --reps fixes its rounds: give "
                                 "one of them");
    if (status == QSB_OK && t->text[OPT_WARMUP])
        status = qsb_parse_u64(t->text[OPT_WARMUP], "--warmup", 0, MAX_WARMUP, 0, &cfg->warmup);
    if (status == QSB_OK && t->text[OPT_BATCH])
        status = qsb_parse_u64(t->text[OPT_BATCH], "--batch", 1, MAX_BATCH, 0, &cfg->batch);
    if (status == QSB_OK && t->text[OPT_SLOWED])
        status = qsb_parse_double(t->text[OPT_SLOWED], "--slowed", 0.0, MAX_SLOWED_PCT,
                                  &cfg->slowed_pct);
    if (status == QSB_OK)
        status = resolve_placement(cfg, t);
    if (status == QSB_OK)
        status = resolve_pin(cfg, t->text[OPT_PIN]);
    return status;
}

/* --export FORMAT=FILE (or FORMAT FILE), --report FILE and --fail-above PCT (export.h,
** compare.h). */
static int resolve_export_and_gate(qsb_run_options *run, const qsb_run_option_texts *t)
{
    int status = QSB_OK;
    const char *exp = t->text[OPT_EXPORT];
    run->report_path = t->text[OPT_REPORT];
    run->history_path = t->text[OPT_HISTORY];
    if (exp && t->export_operand) {
        run->export_format = qsb_export_find(exp);
        run->export_path = t->export_operand;
    } else if (exp) {
        status = qsb_export_parse(exp, &run->export_format, &run->export_path);
    }
    if (status == QSB_OK && exp && run->export_format->check)
        status = run->export_format->check(qsb_metric_name(run->bench.metric));
    if (status == QSB_OK && t->text[OPT_FAIL_ABOVE]) {
        status = qsb_parse_double(t->text[OPT_FAIL_ABOVE], "--fail-above", 0.0, 1e6,
                                  &run->fail_above_pct);
        run->bench.fail_above = status == QSB_OK;
        if (run->bench.fail_above && run->bench.n_algos < 2)
            status = qsb_usage_error("--fail-above needs a candidate: --algos BASELINE,"
                                     "CANDIDATE");
    }
    run->fail_above_alpha = QSB_DEFAULT_ALPHA;
    if (status == QSB_OK && t->text[OPT_ALPHA]) {
        status = qsb_parse_alpha(t->text[OPT_ALPHA], &run->fail_above_alpha);
        if (status == QSB_OK && !t->text[OPT_FAIL_ABOVE])
            status = qsb_usage_error("--alpha is the level of --fail-above: give both");
    }
    run->fail_above_correction = QSB_DEFAULT_CORRECTION;
    if (status == QSB_OK && t->text[OPT_CORRECTION]) {
        status = qsb_parse_correction(t->text[OPT_CORRECTION], &run->fail_above_correction);
        if (status == QSB_OK && !t->text[OPT_FAIL_ABOVE])
            status = qsb_usage_error("--correction is the correction of --fail-above: give "
                                     "both");
    }
    return status;
}

/* The head of a worker's command line (worker_protocol.h), from the options as given. */
static int build_worker_argv(qsb_run_config *cfg, const qsb_run_option_texts *t)
{
    const char *texts[QSB_WORKER_OPTIONS_MAX] = {0};
    for (size_t i = 0; qsb_worker_options[i].part == QSB_WORKER_HEAD; i++)
        for (int o = 0; o < OPT_COUNT; o++)
            if (strcmp(run_options[o].name, qsb_worker_options[i].name) == 0)
                texts[i] = t->text[o];
    return qsb_worker_argv_build(cfg, texts);
}

static int resolve_all(qsb_run_options *run, const qsb_run_option_texts *t)
{
    qsb_run_config *cfg = &run->bench;
    int status = qsb_run_resolve_sizes(cfg, t->text[OPT_SIZES]);
    if (status == QSB_OK)
        status = qsb_run_resolve_patterns(cfg, t->text[OPT_PATTERNS]);
    if (status == QSB_OK)
        status = qsb_run_resolve_algos(cfg, t->plugins, t->text[OPT_ALGOS],
                                       t->text[OPT_REFERENCE]);
    if (status == QSB_OK && t->text[OPT_SEED])
        status = qsb_parse_u64(t->text[OPT_SEED], "--seed", 0, QSB_SEED_LIMIT - 1, 1,
                               &cfg->seed);
    if (status == QSB_OK)
        status = resolve_repetitions(cfg, t);
    if (status == QSB_OK)
        status = qsb_run_resolve_metric(cfg, t->text[OPT_METRIC]);
    if (status == QSB_OK)
        status = qsb_parse_compat(t->text[OPT_COMPAT], &cfg->mode);
    if (status == QSB_OK)
        status = resolve_outputs(run, t);
    if (status == QSB_OK)
        status = resolve_export_and_gate(run, t);
    /* Last: every option is checked before the machine is looked at (--nelem auto). */
    if (status == QSB_OK)
        status = qsb_run_resolve_nelem(cfg, t->text[OPT_NELEM]);
    if (status == QSB_OK)
        status = qsb_run_resolve_shard(cfg, t->text[OPT_SHARD]);
    if (status == QSB_OK)
        status = qsb_run_resolve_processes(cfg, t);
    if (status == QSB_OK)
        status = qsb_run_resolve_jobs(cfg, t->text[OPT_JOBS]);
    if (status == QSB_OK && t->text[OPT_MEMORY])
        status = qsb_parse_size(t->text[OPT_MEMORY], "--memory", &cfg->memory_bytes);
    if (status == QSB_OK) /* last: it fits the counts to everything above */
        status = qsb_auto_nelem_fit(cfg, qsb_plugins_among(t->plugins, cfg->algos, cfg->n_algos));
    if (status == QSB_OK)
        status = build_worker_argv(cfg, t);
    if (status == QSB_OK && t->text[OPT_MACHINE] && !*t->text[OPT_MACHINE])
        status = qsb_usage_error("--machine: the name is empty");
    cfg->machine = t->text[OPT_MACHINE];
    return status;
}

int qsb_run_options_parse(qsb_run_options *run, qsb_plugins *plugins, int argc, char **argv)
{
    memset(run, 0, sizeof *run);
    qsb_run_config *cfg = &run->bench;
    cfg->seed = QSB_DEFAULT_SEED;
    cfg->pin_cpu = -1;
    qsb_run_option_texts texts;
    memset(&texts, 0, sizeof texts);
    texts.plugins = plugins;
    int first;
    int status = qsb_parse_options_with(&qsb_run_spec, qsb_worker_options, argc, argv,
                                        collect_option, &texts, &first);
    if (status != QSB_OK)
        return status;
    /* The one operand run accepts: FILE of "--export FORMAT FILE". */
    bool export_file = texts.text[OPT_EXPORT] && qsb_export_find(texts.text[OPT_EXPORT]);
    if (export_file && argc - first == 1)
        texts.export_operand = argv[first++];
    if (first < argc)
        return qsb_usage_error("run takes no operands ('%s'); options start with '--'",
                               qsb_quote(argv[first]));
    status = resolve_all(run, &texts);
    run->reference = texts.text[OPT_REFERENCE];
    cfg->quiet = texts.quiet;
    run->plot = texts.plot;
    if (status == QSB_OK)
        status = (cfg->command_line = qsb_command_line("run", argc, argv))
                     ? QSB_OK
                     : qsb_out_of_memory("command line");
    return status;
}
