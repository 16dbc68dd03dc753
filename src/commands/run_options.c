/*
** `qsortbench [run]` options: the table (from which --help is generated) and their parsing
** into one qsb_run_config (see run_config.h). Options are first collected as text, then
** resolved in one place each, so a default and a given value go through the same checks.
*/
#include "run_options.h"
#include "shard.h"

#include <ctype.h>
#include <limits.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cli.h"
#include "commands.h"
#include "cover_letter.h"
#include "diag.h"
#include "result.h"
#include "export.h"
#include "machine.h"
#include "placement.h"
#include "plugin.h"
#include "run_context.h"
#include "schedule.h"
#include "significance.h"
#include "timing.h"
#include "worker_args.h"

#define DEFAULT_SIZES "4,8,32"
#define DEFAULT_ALGOS "msort,introsort"
/* With --reference glibc-2021: the cover letter's own pair, msort and the 2021 introsort. */
#define COVER_LETTER_ALGOS "msort,introsort-2021"
#define MAX_NELEM (UINT64_C(1) << 40) /* a typo guard; memory.h decides what fits */
#define MAX_SIZE (UINT64_C(1) << 20)
#define MAX_REPS UINT64_C(1000000)
#define MAX_PRECISION_PCT 100.0
#define MAX_BUDGET_S (7 * 86400.0)
#define MAX_WARMUP UINT64_C(1000)
#define MAX_BATCH UINT64_C(1000000)
#define MAX_SLOWED_PCT 1000.0
#define MAX_WORKER_SLICE_S 60.0
#define MAX_TSC_HZ 1e11 /* 100 GHz */

enum {
    OPT_NELEM,
    OPT_SIZES,
    OPT_PATTERNS,
    OPT_ALGOS,
    OPT_SEED,
    OPT_REPS,
    OPT_PRECISION,
    OPT_BUDGET,
    OPT_PLACEMENT,
    OPT_NO_RELOAD,
    OPT_WARMUP,
    OPT_PIN,
    OPT_BATCH,
    OPT_SLOWED,
    OPT_CSV,
    OPT_JSON,
    OPT_METRIC,
    OPT_COMPAT,
    OPT_REFERENCE,
    OPT_QUIET,
    OPT_EXPORT,
    OPT_REPORT,
    OPT_HISTORY,
    OPT_FAIL_ABOVE,
    OPT_ALPHA,
    OPT_CORRECTION,
    OPT_PLOT,
    OPT_SHARD,
    OPT_MACHINE,
    OPT_PROCESSES,
    OPT_JOBS,
    OPT_WORKER,
    OPT_TSC_HZ,
    OPT_INPUTS_FD,
    OPT_MODEL,
    OPT_VISIT_FD,
    OPT_COUNT
};

static const qsb_option run_options[] = {
    [OPT_NELEM] = {"nelem", 0, "LIST",
                   "element counts, colon-separated (49152:786432:8388608), or 'auto': "
                   "L1d/L2/L3 capacity / 8 (default auto)"},
    [OPT_SIZES] = {"sizes", 0, "LIST", "element sizes in bytes, comma-separated (default "
                                       DEFAULT_SIZES ")"},
    [OPT_PATTERNS] = {"patterns", 0, "LIST",
                      "comma-separated pattern names or 'all' (default: the five seed "
                      "patterns; see 'qsortbench list')"},
    [OPT_ALGOS] = {"algos", 0, "LIST",
                   "comma-separated algorithm names, the first is the baseline (default "
                   DEFAULT_ALGOS ", or " COVER_LETTER_ALGOS " with --reference "
                   QSB_COVER_LETTER_NAME "); plug-ins: [NAME=]PATH.so:SYMBOL[:qsort]"},
    [OPT_SEED] = {"seed", 0, "N", "input generator seed below 2^48, decimal or 0x-hex "
                                  "(default 0x9abc56781234)"},
    [OPT_REPS] = {"reps", 0, "N", "exactly N timed rounds per cell, spread over up to 5 units "
                                  "(default: as many as the --budget gives)"},
    [OPT_PRECISION] = {"precision", 0, "P",
                       "spend the budget on the cells whose 95% intervals are wider than "
                       "+-P % (default 1); cells left wider are flagged noisy"},
    [OPT_BUDGET] = {"budget", 0, "TIME",
                    "the whole run's time, e.g. 90s, 10m (default auto: three times the "
                    "matrix's minimum of 5 worker processes, or with --processes 1 of 5 units "
                    "per cell; at least 10s and at most 5m); the estimate is printed before "
                    "the first sort, and the run spends it unless every interval meets "
                    "--precision first"},
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
    [OPT_CSV] = {"csv", 0, "FILE", "CSV results, '-' for stdout (default "
                                   "results/qsortbench-<UTC time>.csv)"},
    [OPT_JSON] = {"json", 0, "FILE", "JSON results, '-' for stdout (default "
                                     "results/qsortbench-<UTC time>.json)"},
    [OPT_METRIC] = {"metric", 0, "M", "cycles (invariant TSC), ns or comparisons (default "
                                      "cycles where an invariant TSC exists, else ns)"},
    [OPT_COMPAT] = {"compat", 0, "MODE",
                    QSB_COMPAT_2021_NAME ": the 2021 glibc benchmark's inputs, quirks "
                                         "included (patterns spec)"},
    [OPT_REFERENCE] = {"reference", 0, "FILE",
                       "print published deltas beside ours: glibc-2021 (the 2021 cover "
                       "letter, built in) or a CSV of its columns"},
    [OPT_QUIET] = {"quiet", 'q', NULL, "no progress line on stderr"},
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
    [OPT_FAIL_ABOVE] = {"fail-above", 0, "PCT",
                        "exit 1 when a candidate is slower than PCT %: its paired ratio "
                        "above 1 + PCT/100 by a one-sided t test over its units, p corrected "
                        "over all candidate rows below --alpha; a gating run spends its whole "
                        "--budget (no early end at --precision)"},
    [OPT_ALPHA] = QSB_OPTION_ALPHA("--fail-above's level after the correction (default 0.01)"),
    [OPT_CORRECTION] = QSB_OPTION_CORRECTION("--fail-above's correction: holm (default: the "
                                             "chance of any false failure is at most alpha), "
                                             "bh (Benjamini-Hochberg: the expected share of "
                                             "false failures among the failed rows is at most "
                                             "alpha; more rows caught when many changed) or "
                                             "none"),
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
    [OPT_WORKER] = {"worker", 0, "K:SLICE[:CELLS]",
                    "(internal) be worker process K of a run: visit every cell (or the "
                    "CELLS, e.g. 0,4,7: ordinals among the run's cells) once with SLICE "
                    "seconds of rounds"},
    [OPT_TSC_HZ] = {"tsc-hz", 0, "HZ",
                    "(internal) a worker process's TSC frequency, calibrated by its run"},
    [OPT_INPUTS_FD] = {"inputs-fd", 0, "FD",
                       "(internal) a worker process's inputs, generated once by its run"},
    [OPT_MODEL] = {"model", 0, "FILE",
                   "(internal) a later worker process's model: its run's first worker's "
                   "results, whose exact counts and batches it takes instead of counting"},
    [OPT_VISIT_FD] = {"visit-fd", 0, "FD",
                      "(internal) where a worker process records its visits for its run"},
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

typedef struct {
    const char *text[OPT_COUNT]; /* the last value given for each option, NULL if none */
    bool plot;
    bool quiet;
    bool no_reload;
    const char *export_operand;  /* FILE of "--export FORMAT FILE" (the one operand) */
} option_texts;

static int collect_option(void *ctx, int index, const char *arg)
{
    option_texts *t = ctx;
    if (index == OPT_QUIET)
        t->quiet = true;
    else if (index == OPT_NO_RELOAD)
        t->no_reload = true;
    else if (index == OPT_PLOT)
        t->plot = true;
    else
        t->text[index] = arg;
    return QSB_OK;
}

static int reject_repeated_numbers(const uint64_t *v, size_t n, const char *what)
{
    for (size_t i = 0; i < n; i++)
        for (size_t j = 0; j < i; j++)
            if (v[i] == v[j])
                return qsb_usage_error("%s: %llu is listed twice", what,
                                       (unsigned long long)v[i]);
    return QSB_OK;
}

static int resolve_auto_nelem(qsb_run_config *cfg)
{
    qsb_caches caches;
    uint64_t counts[3];
    size_t n = qsb_read_caches(qsb_sysfs_cpu_root(), &caches) == 0
                   ? qsb_auto_nelem(&caches, counts)
                   : 0;
    if (n == 0) { /* the run warns when it starts: a usage error stays one line */
        cfg->nelem_source = QSB_NELEM_FALLBACK;
        return qsb_parse_u64_list(QSB_FALLBACK_NELEM, ':', "--nelem", 1, MAX_NELEM,
                                  &cfg->nelem, &cfg->n_nelem);
    }
    cfg->nelem_source = QSB_NELEM_SYSFS;
    /* Two levels of one size (rare) would make two identical cells. */
    size_t kept = 0;
    for (size_t i = 0; i < n; i++)
        if (kept == 0 || counts[i] != counts[kept - 1])
            counts[kept++] = counts[i];
    cfg->nelem = malloc(kept * sizeof *cfg->nelem);
    if (!cfg->nelem)
        return qsb_out_of_memory("--nelem");
    memcpy(cfg->nelem, counts, kept * sizeof *cfg->nelem);
    cfg->n_nelem = kept;
    return QSB_OK;
}

static int resolve_nelem(qsb_run_config *cfg, const char *text)
{
    if (!text || strcmp(text, "auto") == 0)
        return resolve_auto_nelem(cfg);
    int status = qsb_parse_u64_list(text, ':', "--nelem", 1, MAX_NELEM, &cfg->nelem,
                                    &cfg->n_nelem);
    return status != QSB_OK ? status
                            : reject_repeated_numbers(cfg->nelem, cfg->n_nelem, "--nelem");
}

static int resolve_sizes(qsb_run_config *cfg, const char *text)
{
    int status = qsb_parse_u64_list(text ? text : DEFAULT_SIZES, ',', "--sizes", 1, MAX_SIZE,
                                    &cfg->sizes, &cfg->n_sizes);
    return status != QSB_OK ? status
                            : reject_repeated_numbers(cfg->sizes, cfg->n_sizes, "--sizes");
}

/* "a, b, c" from a table of names, for error messages. */
static void join_names(char *buf, size_t len, const char *(*name_at)(size_t), size_t count)
{
    size_t used = 0;
    buf[0] = '\0';
    for (size_t i = 0; i < count && used < len; i++) {
        int n = snprintf(buf + used, len - used, "%s%s", i ? ", " : "", name_at(i));
        used += n > 0 ? (size_t)n : 0;
    }
}

static const char *pattern_name_at(size_t i)
{
    return qsb_patterns[i].name;
}

static int use_seed_patterns(qsb_run_config *cfg, bool all)
{
    cfg->patterns = malloc(qsb_pattern_count * sizeof *cfg->patterns);
    if (!cfg->patterns)
        return qsb_out_of_memory("--patterns");
    for (size_t i = 0; i < qsb_pattern_count; i++)
        if (all || qsb_patterns[i].seed_pattern)
            cfg->patterns[cfg->n_patterns++] = &qsb_patterns[i];
    return QSB_OK;
}

static int resolve_patterns(qsb_run_config *cfg, const char *text)
{
    if (!text || strcmp(text, "all") == 0)
        return use_seed_patterns(cfg, text != NULL);
    char **words;
    size_t n;
    int status = qsb_split_words(text, "--patterns", &words, &n);
    if (status != QSB_OK)
        return status;
    cfg->patterns = malloc(n * sizeof *cfg->patterns);
    if (!cfg->patterns)
        status = qsb_out_of_memory("--patterns");
    for (size_t i = 0; i < n && status == QSB_OK; i++) {
        const qsb_pattern *p = qsb_pattern_find(words[i]);
        for (size_t j = 0; p && j < i; j++)
            if (cfg->patterns[j] == p)
                status = qsb_usage_error("--patterns: '%s' is listed twice", p->name);
        if (!p) {
            char valid[512];
            join_names(valid, sizeof valid, pattern_name_at, qsb_pattern_count);
            status = qsb_usage_error("--patterns: unknown pattern '%s' (valid: %s, all)",
                                     qsb_quote(words[i]), valid);
        }
        if (status == QSB_OK)
            cfg->patterns[cfg->n_patterns++] = p;
    }
    free(words);
    return status;
}

/* Without --algos: the default pair, or the cover letter's when its table is the reference. */
static const char *default_algos(const char *reference)
{
    return reference && strcmp(reference, QSB_COVER_LETTER_NAME) == 0 ? COVER_LETTER_ALGOS
                                                                       : DEFAULT_ALGOS;
}

static int resolve_algos(qsb_run_config *cfg, const char *text, const char *reference)
{
    char **words;
    size_t n;
    int status = qsb_split_words(text ? text : default_algos(reference), "--algos", &words, &n);
    if (status != QSB_OK)
        return status;
    cfg->algos = malloc(n * sizeof *cfg->algos);
    if (!cfg->algos)
        status = qsb_out_of_memory("--algos");
    for (size_t i = 0; i < n && status == QSB_OK; i++) {
        qsb_algorithm a; /* a registry entry or a plug-in (plugin.h) */
        status = qsb_resolve_algorithm(words[i], &a);
        for (size_t j = 0; status == QSB_OK && j < i; j++)
            if (strcmp(cfg->algos[j].name, a.name) == 0)
                status = qsb_usage_error("--algos: '%s' is listed twice", qsb_quote(a.name));
        if (status == QSB_OK)
            cfg->algos[cfg->n_algos++] = a;
    }
    free(words);
    return status;
}

static int resolve_metric(qsb_run_config *cfg, const char *text)
{
    bool tsc = qsb_tsc_invariant() != 0;
    if (!text) {
        cfg->metric = tsc ? QSB_METRIC_CYCLES : QSB_METRIC_NS;
        return QSB_OK;
    }
    for (int i = QSB_METRIC_CYCLES; i <= QSB_METRIC_COMPARISONS; i++) {
        if (strcmp(text, qsb_metric_name((qsb_metric)i)) == 0) {
            cfg->metric = (qsb_metric)i;
            if (cfg->metric == QSB_METRIC_CYCLES && !tsc)
                return qsb_usage_error("--metric cycles: this CPU has no invariant TSC; use "
                                       "--metric ns");
            return QSB_OK;
        }
    }
    return qsb_usage_error("--metric: unknown metric '%s' (valid: cycles, ns, comparisons)",
                           qsb_quote(text));
}

static int resolve_outputs(qsb_run_config *cfg, const option_texts *t)
{
    cfg->csv_path = t->text[OPT_CSV];
    cfg->json_path = t->text[OPT_JSON];
    if (cfg->csv_path && cfg->json_path && strcmp(cfg->csv_path, "-") == 0 &&
        strcmp(cfg->json_path, "-") == 0)
        return qsb_usage_error("--csv and --json cannot both be '-' (standard output)");
    if (cfg->csv_path && cfg->json_path && strcmp(cfg->csv_path, cfg->json_path) == 0)
        return qsb_usage_error("--csv and --json name the same file '%s'",
                               qsb_quote_path(cfg->csv_path));
    return QSB_OK;
}

/* A positive number of at most max, for --precision. */
static int parse_positive(const char *text, const char *what, double max, double *out)
{
    int status = qsb_parse_double(text, what, 0.0, max, out);
    if (status == QSB_OK && !(*out > 0.0))
        status = qsb_usage_error("%s: '%s' must be above 0", what, qsb_quote(text));
    return status;
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

static int resolve_placement(qsb_run_config *cfg, const option_texts *t)
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
static int resolve_repetitions(qsb_run_config *cfg, const option_texts *t)
{
    int status = QSB_OK;
    cfg->precision_pct = QSB_DEFAULT_PRECISION_PCT;
    cfg->budget_s = 0; /* auto */
    cfg->warmup = QSB_WARMUP_AUTO;
    if (t->text[OPT_REPS])
        status = qsb_parse_u64(t->text[OPT_REPS], "--reps", 1, MAX_REPS, 0, &cfg->reps);
    if (status == QSB_OK && t->text[OPT_PRECISION])
        status = parse_positive(t->text[OPT_PRECISION], "--precision", MAX_PRECISION_PCT,
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
static int resolve_export_and_gate(qsb_run_config *cfg, const option_texts *t)
{
    int status = QSB_OK;
    const char *exp = t->text[OPT_EXPORT];
    cfg->report_path = t->text[OPT_REPORT];
    cfg->history_path = t->text[OPT_HISTORY];
    if (exp && t->export_operand) {
        cfg->export_format = qsb_export_find(exp);
        cfg->export_path = t->export_operand;
    } else if (exp) {
        status = qsb_export_parse(exp, &cfg->export_format, &cfg->export_path);
    }
    if (status == QSB_OK && exp && cfg->export_format->check)
        status = cfg->export_format->check(qsb_metric_name(cfg->metric));
    if (status == QSB_OK && t->text[OPT_FAIL_ABOVE]) {
        status = qsb_parse_double(t->text[OPT_FAIL_ABOVE], "--fail-above", 0.0, 1e6,
                                  &cfg->fail_above_pct);
        cfg->fail_above = status == QSB_OK;
        if (cfg->fail_above && cfg->n_algos < 2)
            status = qsb_usage_error("--fail-above needs a candidate: --algos BASELINE,"
                                     "CANDIDATE");
    }
    cfg->fail_above_alpha = QSB_DEFAULT_ALPHA;
    if (status == QSB_OK && t->text[OPT_ALPHA]) {
        status = qsb_parse_alpha(t->text[OPT_ALPHA], &cfg->fail_above_alpha);
        if (status == QSB_OK && !t->text[OPT_FAIL_ABOVE])
            status = qsb_usage_error("--alpha is the level of --fail-above: give both");
    }
    cfg->fail_above_correction = QSB_DEFAULT_CORRECTION;
    if (status == QSB_OK && t->text[OPT_CORRECTION]) {
        status = qsb_parse_correction(t->text[OPT_CORRECTION], &cfg->fail_above_correction);
        if (status == QSB_OK && !t->text[OPT_FAIL_ABOVE])
            status = qsb_usage_error("--correction is the correction of --fail-above: give "
                                     "both");
    }
    return status;
}

/* The CELLS of --worker K:SLICE:CELLS: "3,7,12", ordinals (from 0) among the cells the run
** visits; the worker visits only those (workers.h: the processes after a run's minimum). */
static int select_worker_cells(qsb_run_config *cfg, const char *list)
{
    size_t cells = cfg->n_patterns * cfg->n_sizes * cfg->n_nelem;
    size_t visited = qsb_run_config_cells(cfg);
    unsigned char *chosen = calloc(visited ? visited : 1, 1);
    if (!chosen)
        return qsb_out_of_memory("--worker");
    int status = QSB_OK;
    for (const char *p = list; status == QSB_OK && *p;) {
        char word[32];
        size_t len = strcspn(p, ",");
        uint64_t k = 0;
        if (len == 0 || len >= sizeof word)
            status = qsb_usage_error("--worker: '%s' is not a list of cells", qsb_quote(list));
        else {
            memcpy(word, p, len);
            word[len] = '\0';
            status = qsb_parse_u64(word, "--worker cell", 0, visited ? visited - 1 : 0, 0, &k);
        }
        if (status == QSB_OK)
            chosen[k] = 1;
        p += len + (p[len] == ',');
    }
    if (status == QSB_OK && !*list)
        status = qsb_usage_error("--worker: the list of cells is empty");
    if (status == QSB_OK && !cfg->in_shard) { /* no shard: every cell so far */
        cfg->in_shard = malloc(cells ? cells : 1);
        if (cfg->in_shard)
            memset(cfg->in_shard, 1, cells);
        else
            status = qsb_out_of_memory("--worker");
    }
    for (size_t m = 0, ordinal = 0; status == QSB_OK && m < cells; m++)
        if (cfg->in_shard[m])
            cfg->in_shard[m] = chosen[ordinal++];
    free(chosen);
    return status;
}

/* --worker K:SLICE[:CELLS] (workers.h). */
static int parse_worker(qsb_run_config *cfg, const char *text)
{
    const char *colon = strchr(text, ':');
    char index[32], slice[64];
    if (!colon || (size_t)(colon - text) >= sizeof index)
        return qsb_usage_error("--worker: '%s' is not K:SLICE", qsb_quote(text));
    memcpy(index, text, (size_t)(colon - text));
    index[colon - text] = '\0';
    const char *cells = strchr(colon + 1, ':');
    size_t slice_len = cells ? (size_t)(cells - colon - 1) : strlen(colon + 1);
    if (slice_len >= sizeof slice)
        return qsb_usage_error("--worker: '%s' is not K:SLICE", qsb_quote(text));
    memcpy(slice, colon + 1, slice_len);
    slice[slice_len] = '\0';
    int status = qsb_parse_u64(index, "--worker K", 1, QSB_MAX_PROCESSES, 0, &cfg->worker.index);
    if (status == QSB_OK)
        status = parse_positive(slice, "--worker SLICE", MAX_WORKER_SLICE_S,
                                &cfg->worker.slice_s);
    return status == QSB_OK && cells ? select_worker_cells(cfg, cells + 1) : status;
}

/* --inputs-fd FD and --visit-fd FD: a worker's, after --worker (shared_inputs.h,
** visit_record.h). */
static int parse_worker_fd(qsb_run_config *cfg, const char *text, const char *option, int *fd)
{
    uint64_t value;
    if (cfg->worker.slice_s <= 0)
        return qsb_usage_error("%s is for worker processes (--worker)", option);
    int status = qsb_parse_u64(text, option, STDERR_FILENO + 1, INT_MAX, 0, &value);
    *fd = (int)value;
    return status;
}

/* --processes N (workers.h) and --worker K:SLICE. One process where several cannot differ or
** cannot be pooled: exact counts, and --reps, which fixes the rounds of one process. */
static int resolve_processes(qsb_run_config *cfg, const option_texts *t)
{
    int status = QSB_OK;
    if (t->text[OPT_PROCESSES])
        status = qsb_parse_u64(t->text[OPT_PROCESSES], "--processes", 1, QSB_MAX_PROCESSES, 0,
                               &cfg->processes);
    if (status == QSB_OK && cfg->processes > 1 && cfg->reps)
        status = qsb_usage_error("--reps fixes the rounds of one process: give --processes 1 "
                                 "or --budget");
    if (status == QSB_OK && t->text[OPT_WORKER])
        status = parse_worker(cfg, t->text[OPT_WORKER]);
    if (status == QSB_OK && t->text[OPT_TSC_HZ])
        status = parse_positive(t->text[OPT_TSC_HZ], "--tsc-hz", MAX_TSC_HZ,
                                &cfg->worker.tsc_hz);
    if (status == QSB_OK && t->text[OPT_INPUTS_FD])
        status = parse_worker_fd(cfg, t->text[OPT_INPUTS_FD], "--inputs-fd",
                                 &cfg->worker.inputs_fd);
    if (status == QSB_OK && t->text[OPT_VISIT_FD])
        status = parse_worker_fd(cfg, t->text[OPT_VISIT_FD], "--visit-fd", &cfg->worker.visit_fd);
    if (status == QSB_OK && t->text[OPT_MODEL] && cfg->worker.slice_s <= 0)
        status = qsb_usage_error("--model is for worker processes (--worker)");
    cfg->worker.model_path = t->text[OPT_MODEL];
    if (cfg->reps || cfg->metric == QSB_METRIC_COMPARISONS || cfg->worker.slice_s > 0)
        cfg->processes = 1;
    return status;
}

/* The CPUs this process may use (its affinity); 1 when it cannot tell. */
static size_t usable_cpus(void)
{
    cpu_set_t allowed;
    CPU_ZERO(&allowed);
    if (sched_getaffinity(0, sizeof allowed, &allowed) != 0)
        return 1;
    int n = CPU_COUNT(&allowed);
    return n > 0 ? (size_t)n : 1;
}

/* --jobs N|auto (workers.h): after --processes and --pin. auto: one per CPU this process may
** use (side by side, each worker has one to itself); N above that is warned of, since workers
** sharing a CPU measure each other; a pinned run has one CPU. One process (--processes 1,
** --reps, a worker) runs no workers at all. */
static int resolve_jobs(qsb_run_config *cfg, const char *given)
{
    const char *text = given ? given : QSB_JOBS_DEFAULT;
    size_t cpus = usable_cpus();
    uint64_t jobs = 1;
    int status = QSB_OK;
    if (strcmp(text, "auto") == 0)
        jobs = cpus;
    else
        status = qsb_parse_u64(text, "--jobs", 1, QSB_MAX_JOBS, 0, &jobs);
    if (status != QSB_OK)
        return status;
    if (jobs > 1 && cfg->pin_cpu >= 0) {
        if (given)
            return qsb_usage_error("--jobs %s with --pin: the workers would share the one CPU; "
                                   "give --jobs 1 or no --pin", qsb_quote(text));
        jobs = 1;
    }
    if (jobs > cpus && cfg->processes != 1)
        qsb_warning("--jobs %s: this process may use %zu CPU%s, so its workers share them and "
                    "slow each other; --jobs auto runs one per CPU",
                    qsb_quote(text), cpus, cpus == 1 ? "" : "s");
    if (jobs > QSB_MAX_JOBS)
        jobs = QSB_MAX_JOBS;
    cfg->jobs = cfg->processes == 1 ? 1 : jobs;
    return QSB_OK;
}

/* --shard K/N: after the lists, which it splits (shard.h). */
static int resolve_shard(qsb_run_config *cfg, const char *text)
{
    if (!text)
        return QSB_OK;
    const char *slash = strchr(text, '/');
    char k_text[32];
    uint64_t k = 0, n = 0;
    if (!slash || (size_t)(slash - text) >= sizeof k_text)
        return qsb_usage_error("--shard: '%s' is not K/N (e.g. 2/4: the second of four "
                               "parts)", qsb_quote(text));
    memcpy(k_text, text, (size_t)(slash - text));
    k_text[slash - text] = '\0';
    int status = qsb_parse_u64(slash + 1, "--shard N", 1, QSB_MAX_SHARDS, 0, &n);
    if (status == QSB_OK)
        status = qsb_parse_u64(k_text, "--shard K", 1, n, 0, &k);
    if (status != QSB_OK)
        return status;
    size_t cells = cfg->n_patterns * cfg->n_sizes * cfg->n_nelem;
    if (n > cells)
        return qsb_usage_error("--shard %s: the matrix has only %zu cells; use at most %zu "
                               "shards", qsb_quote(text), cells, cells);
    cfg->in_shard = malloc(cells ? cells : 1);
    if (!cfg->in_shard)
        return qsb_out_of_memory("--shard");
    size_t count = qsb_shard_cells(cfg->nelem, cfg->n_nelem, cfg->sizes, cfg->n_sizes,
                                   cfg->n_patterns, cfg->n_algos, (uint32_t)k, (uint32_t)n,
                                   cfg->in_shard);
    if (count == SIZE_MAX)
        return qsb_out_of_memory("--shard");
    cfg->shard_k = (uint32_t)k;
    cfg->shard_n = (uint32_t)n;
    return QSB_OK;
}

/* The worker's head of the command line (worker_args.h), from the options as given. */
static int build_worker_argv(qsb_run_config *cfg, const option_texts *t)
{
    const char *texts[OPT_COUNT] = {0};
    for (size_t i = 0; i < qsb_worker_option_count; i++)
        for (int o = 0; o < OPT_COUNT; o++)
            if (strcmp(run_options[o].name, qsb_worker_options[i]) == 0)
                texts[i] = t->text[o];
    return qsb_worker_argv_build(cfg, texts);
}

static int resolve_all(qsb_run_config *cfg, const option_texts *t)
{
    int status = resolve_sizes(cfg, t->text[OPT_SIZES]);
    if (status == QSB_OK)
        status = resolve_patterns(cfg, t->text[OPT_PATTERNS]);
    if (status == QSB_OK)
        status = resolve_algos(cfg, t->text[OPT_ALGOS], t->text[OPT_REFERENCE]);
    if (status == QSB_OK && t->text[OPT_SEED])
        status = qsb_parse_u64(t->text[OPT_SEED], "--seed", 0, QSB_SEED_LIMIT - 1, 1,
                               &cfg->seed);
    if (status == QSB_OK)
        status = resolve_repetitions(cfg, t);
    if (status == QSB_OK)
        status = resolve_metric(cfg, t->text[OPT_METRIC]);
    if (status == QSB_OK)
        status = qsb_parse_compat(t->text[OPT_COMPAT], &cfg->mode);
    if (status == QSB_OK)
        status = resolve_outputs(cfg, t);
    if (status == QSB_OK)
        status = resolve_export_and_gate(cfg, t);
    /* Last: every option is checked before the machine is looked at (--nelem auto). */
    if (status == QSB_OK)
        status = resolve_nelem(cfg, t->text[OPT_NELEM]);
    if (status == QSB_OK)
        status = resolve_shard(cfg, t->text[OPT_SHARD]);
    if (status == QSB_OK)
        status = resolve_processes(cfg, t);
    if (status == QSB_OK)
        status = resolve_jobs(cfg, t->text[OPT_JOBS]);
    if (status == QSB_OK)
        status = build_worker_argv(cfg, t);
    if (status == QSB_OK && t->text[OPT_MACHINE] && !*t->text[OPT_MACHINE])
        status = qsb_usage_error("--machine: the name is empty");
    cfg->machine = t->text[OPT_MACHINE];
    return status;
}

int qsb_run_config_parse(qsb_run_config *cfg, int argc, char **argv)
{
    memset(cfg, 0, sizeof *cfg);
    cfg->seed = QSB_DEFAULT_SEED;
    cfg->pin_cpu = -1;
    option_texts texts;
    memset(&texts, 0, sizeof texts);
    int first;
    int status = qsb_parse_options(&qsb_run_spec, argc, argv, collect_option, &texts, &first);
    if (status != QSB_OK)
        return status;
    /* The one operand run accepts: FILE of "--export FORMAT FILE". */
    bool export_file = texts.text[OPT_EXPORT] && qsb_export_find(texts.text[OPT_EXPORT]);
    if (export_file && argc - first == 1)
        texts.export_operand = argv[first++];
    if (first < argc)
        return qsb_usage_error("run takes no operands ('%s'); options start with '--'",
                               qsb_quote(argv[first]));
    status = resolve_all(cfg, &texts);
    cfg->reference = texts.text[OPT_REFERENCE];
    cfg->quiet = texts.quiet;
    cfg->plot = texts.plot;
    if (status == QSB_OK)
        status = (cfg->command_line = qsb_command_line("run", argc, argv))
                     ? QSB_OK
                     : qsb_out_of_memory("command line");
    return status;
}
