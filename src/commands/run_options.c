/*
** `qsortbench [run]` options: the table (from which --help is generated) and their parsing
** into qsb_run_options, the bench's configuration (run_config.h) beside what the command keeps.
** Options are first collected as text, then resolved in one place each, so a default and a
** given value go through the same checks. Here, in the order of the file: the table; the
** matrix (the element counts, a list or "auto" from the machine's caches, the element sizes,
** the patterns, the algorithms and the metric, each list checked for unknown names and
** repeats); the worker processes (--processes, --jobs, a worker's own options read with the
** protocol's table of worker_protocol.h) and shards; the measuring and output options; and
** the order of resolution.
*/
#include "run_options.h"

#include <ctype.h>
#include <limits.h>
#include <sched.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "auto_nelem.h"
#include "cli.h"
#include "commands.h"
#include "cover_letter.h"
#include "diag.h"
#include "export.h"
#include "machine.h"
#include "option_names.h"
#include "placement.h"
#include "plugins.h"
#include "result.h"
#include "run_context.h"
#include "schedule.h"
#include "shard.h"
#include "significance.h"
#include "timing.h"
#include "worker_protocol.h"

#define QSB_RUN_DEFAULT_SIZES "4,8,32"
#define QSB_RUN_DEFAULT_ALGOS "msort,introsort"
/* With --reference glibc-2021: the cover letter's own pair, msort and the 2021 introsort. */
#define QSB_RUN_COVER_LETTER_ALGOS "msort,introsort-2021"

/* The options of the table, in its order: those --help shows, then the others. */
enum {
    OPT_NELEM,
    OPT_SIZES,
    OPT_PATTERNS,
    OPT_ALGOS,
    OPT_PRECISION,
    OPT_BUDGET,
    OPT_CSV,
    OPT_JSON,
    OPT_QUIET,
    OPT_FAIL_ABOVE,
    OPT_MORE, /* the options --help leaves out follow */
    OPT_SEED,
    OPT_REPS,
    OPT_PLACEMENT,
    OPT_NO_RELOAD,
    OPT_WARMUP,
    OPT_PIN,
    OPT_BATCH,
    OPT_SLOWED,
    OPT_METRIC,
    OPT_COMPAT,
    OPT_REFERENCE,
    OPT_EXPORT,
    OPT_REPORT,
    OPT_HISTORY,
    OPT_ALPHA,
    OPT_CORRECTION,
    OPT_PLOT,
    OPT_SHARD,
    OPT_MACHINE,
    OPT_PROCESSES,
    OPT_JOBS,
    OPT_MEMORY,
    OPT_COUNT
};

/* The options between their collection and their resolution: the text given for each. */
typedef struct {
    const char *text[OPT_COUNT]; /* the last value given for each option, NULL if none */
    const char *protocol[QSB_WORKER_OPTIONS_MAX]; /* likewise for the worker's own options, by
                                                  ** their rows in the protocol's table */
    bool plot;
    bool quiet;
    bool no_reload;
    const char *export_operand;  /* FILE of "--export FORMAT FILE" (the one operand) */
    qsb_plugins *plugins;        /* where --algos resolves its plug-ins; NULL: none allowed */
} option_texts;

#define MAX_REPS UINT64_C(1000000)
#define MAX_PRECISION_PCT 100.0
#define MAX_BUDGET_S (7 * 86400.0)
#define MAX_WARMUP UINT64_C(1000)
#define MAX_BATCH UINT64_C(1000000)
#define MAX_SLOWED_PCT 1000.0

static const qsb_option run_options[] = {
    [OPT_NELEM] = {QSB_OPT_NELEM, 0, "LIST",
                   "element counts, colon-separated (49152:786432:8388608), or 'auto': "
                   "L1d/L2/L3 capacity / 8 (default auto)"},
    [OPT_SIZES] = {QSB_OPT_SIZES, 0, "LIST", "element sizes in bytes, comma-separated (default "
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
    [OPT_BUDGET] = {QSB_OPT_BUDGET, 0, "TIME",
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
    [OPT_PIN] = {QSB_OPT_PIN, 0, "CPU", "run on this CPU only (sched_setaffinity; default: not "
                                  "pinned)"},
    [OPT_BATCH] = {"batch", 0, "K",
                   "time K sorts back to back per sample, each on its own fresh copy (default: "
                   "as many as make a sample last 10 us, for very short sorts)"},
    [OPT_SLOWED] = {"slowed", 0, "PCT",
                    "retake a sort under 10 ms that ran more than PCT % slower than the fastest "
                    "sample of its cell and algorithm, as slowed by a busy shared machine (10 "
                    "suits these machines; the retakes cost time within --budget); default "
                    "0: never"},
    [OPT_METRIC] = {QSB_OPT_METRIC, 0, "M", "cycles (invariant TSC), ns or comparisons (default "
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
    [OPT_HISTORY] = {QSB_OPT_HISTORY, 0, "FILE",
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
    [OPT_MACHINE] = {QSB_OPT_MACHINE, 0, "NAME",
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
    [OPT_MEMORY] = {QSB_OPT_MEMORY, 0, "SIZE",
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
    option_texts *t = ctx;
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

/* ---- the matrix ---- */

#define MAX_NELEM (UINT64_C(1) << 40) /* a typo guard; plan.h decides what fits */
#define MAX_SIZE (UINT64_C(1) << 20)

static int reject_repeated_numbers(const uint64_t *v, size_t n, const char *what)
{
    for (size_t i = 0; i < n; i++)
        for (size_t j = 0; j < i; j++)
            if (v[i] == v[j])
                return qsb_usage_error("%s: %llu is listed twice", what,
                                       (unsigned long long)v[i]);
    return QSB_OK;
}

/* The caches' counts (machine.h), one per level; a level of the same count as the one
** before it (rare) would make identical cells and is left out. */
static size_t auto_counts(const qsb_caches *caches, qsb_nelem_choice *choice, uint64_t kept[3])
{
    uint64_t counts[3];
    size_t n = qsb_auto_nelem(caches, counts), count = 0;
    for (size_t i = 0, level = 0; i < n; i++, level++) {
        while (!caches->level[level].total_bytes)
            level++;
        if (count > 0 && counts[i] == kept[count - 1])
            continue;
        choice->level[count] = (unsigned)level;
        choice->cache_bytes[count] = caches->level[level].total_bytes;
        choice->capped = qsb_auto_nelem_capped(caches, (int)level);
        kept[count++] = counts[i];
    }
    return count;
}

static int resolve_auto_nelem(qsb_run_config *cfg)
{
    qsb_caches caches;
    uint64_t counts[3];
    size_t n = qsb_read_caches(qsb_sysfs_cpu_root(), &caches) == 0
                   ? auto_counts(&caches, &cfg->nelem_choice, counts)
                   : 0;
    if (n == 0) { /* the run warns when it starts: a usage error stays one line */
        cfg->nelem_source = QSB_NELEM_FALLBACK;
        return qsb_parse_u64_list(QSB_FALLBACK_NELEM, ':', "--nelem", 1, MAX_NELEM,
                                  &cfg->nelem, &cfg->n_nelem);
    }
    cfg->nelem_source = QSB_NELEM_SYSFS;
    cfg->nelem = malloc(n * sizeof *cfg->nelem);
    if (!cfg->nelem)
        return qsb_out_of_memory("--nelem");
    memcpy(cfg->nelem, counts, n * sizeof *cfg->nelem);
    cfg->n_nelem = n;
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
    int status = qsb_parse_u64_list(text ? text : QSB_RUN_DEFAULT_SIZES, ',', "--sizes", 1,
                                    MAX_SIZE, &cfg->sizes, &cfg->n_sizes);
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
    bool cover_letter = reference && strcmp(reference, QSB_COVER_LETTER_NAME) == 0;
    return cover_letter ? QSB_RUN_COVER_LETTER_ALGOS : QSB_RUN_DEFAULT_ALGOS;
}

/* An entry that refuses some of the run's sizes (registry.h: min_size) is a usage error, not a
** failed row: the real code fails on them by design. */
static int check_sizes_accepted(const qsb_run_config *cfg, const qsb_algorithm *a)
{
    for (size_t i = 0; i < cfg->n_sizes; i++)
        if (cfg->sizes[i] < a->min_size)
            return qsb_usage_error("--algos: %s sorts elements of %zu bytes or more (as the real "
                                   "code, which fails with EINVAL below), but --sizes has %llu; "
                                   "leave it out, or use sizes of %zu bytes or more", a->name,
                                   a->min_size, (unsigned long long)cfg->sizes[i], a->min_size);
    return QSB_OK;
}

static int resolve_algos(qsb_run_config *cfg, qsb_plugins *plugins, const char *text,
                          const char *reference)
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
        qsb_algorithm a; /* a registry entry or a plug-in (plugins.h) */
        status = qsb_plugins_resolve(plugins, words[i], &a);
        for (size_t j = 0; status == QSB_OK && j < i; j++)
            if (strcmp(cfg->algos[j].name, a.name) == 0)
                status = qsb_usage_error("--algos: '%s' is listed twice", qsb_quote(a.name));
        if (status == QSB_OK)
            status = check_sizes_accepted(cfg, &a);
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

/* ---- worker processes and shards ---- */

#define MAX_WORKER_SLICE_S 60.0
#define MAX_TSC_HZ 1e11 /* 100 GHz */

/* "--worker" and "--worker K", for messages: the option's name as the protocol spells it. */
static const char *named(char *buf, size_t len, const qsb_worker_option *o, const char *part)
{
    snprintf(buf, len, "--%s%s%s", o->name, part ? " " : "", part ? part : "");
    return buf;
}

/* The CELLS of --worker K:SLICE:CELLS: "3,7,12", ordinals (from 0) among the cells the run
** visits; the worker visits only those (workers.h: the processes after a run's minimum). */
static int select_worker_cells(qsb_run_config *cfg, const qsb_worker_option *o, const char *list)
{
    size_t cells = cfg->n_patterns * cfg->n_sizes * cfg->n_nelem;
    size_t visited = qsb_run_config_cells(cfg);
    unsigned char *chosen = calloc(visited ? visited : 1, 1);
    char what[64];
    if (!chosen)
        return qsb_out_of_memory(named(what, sizeof what, o, NULL));
    int status = QSB_OK;
    for (const char *p = list; status == QSB_OK && *p;) {
        char word[32];
        size_t len = strcspn(p, ",");
        uint64_t k = 0;
        if (len == 0 || len >= sizeof word)
            status = qsb_usage_error("%s: '%s' is not a list of cells",
                                     named(what, sizeof what, o, NULL), qsb_quote(list));
        else {
            memcpy(word, p, len);
            word[len] = '\0';
            status = qsb_parse_u64(word, named(what, sizeof what, o, "cell"), 0,
                                   visited ? visited - 1 : 0, 0, &k);
        }
        if (status == QSB_OK)
            chosen[k] = 1;
        p += len + (p[len] == ',');
    }
    if (status == QSB_OK && !*list)
        status = qsb_usage_error("%s: the list of cells is empty",
                                 named(what, sizeof what, o, NULL));
    if (status == QSB_OK && !cfg->in_shard) { /* no shard: every cell so far */
        cfg->in_shard = malloc(cells ? cells : 1);
        if (cfg->in_shard)
            memset(cfg->in_shard, 1, cells);
        else
            status = qsb_out_of_memory(named(what, sizeof what, o, NULL));
    }
    for (size_t m = 0, ordinal = 0; status == QSB_OK && m < cells; m++)
        if (cfg->in_shard[m])
            cfg->in_shard[m] = chosen[ordinal++];
    free(chosen);
    return status;
}

/* --worker K:SLICE[:CELLS] (workers.h). */
static int read_slot(qsb_run_config *cfg, const qsb_worker_option *o, const char *text)
{
    const char *colon = strchr(text, ':');
    char index[32], slice[64], what[64];
    if (!colon || (size_t)(colon - text) >= sizeof index)
        return qsb_usage_error("%s: '%s' is not K:SLICE", named(what, sizeof what, o, NULL),
                               qsb_quote(text));
    memcpy(index, text, (size_t)(colon - text));
    index[colon - text] = '\0';
    const char *cells = strchr(colon + 1, ':');
    size_t slice_len = cells ? (size_t)(cells - colon - 1) : strlen(colon + 1);
    if (slice_len >= sizeof slice)
        return qsb_usage_error("%s: '%s' is not K:SLICE", named(what, sizeof what, o, NULL),
                               qsb_quote(text));
    memcpy(slice, colon + 1, slice_len);
    slice[slice_len] = '\0';
    int status = qsb_parse_u64(index, named(what, sizeof what, o, "K"), 1, QSB_MAX_PROCESSES, 0,
                               &cfg->worker.index);
    if (status == QSB_OK)
        status = qsb_parse_positive(slice, named(what, sizeof what, o, "SLICE"),
                                    MAX_WORKER_SLICE_S, &cfg->worker.slice_s);
    return status == QSB_OK && cells ? select_worker_cells(cfg, o, cells + 1) : status;
}

/* One of a worker's own options other than --worker, into its field of cfg->worker. Those
** that only a worker can use need --worker (slot, the table's row of it) first. */
static int read_own(qsb_run_config *cfg, const qsb_worker_option *o, const qsb_worker_option *slot,
                    const char *text)
{
    void *at = (char *)&cfg->worker + o->field;
    char what[64], worker[64];
    named(what, sizeof what, o, NULL);
    if (o->value == QSB_WORKER_HZ)
        return qsb_parse_positive(text, what, MAX_TSC_HZ, at);
    if (cfg->worker.slice_s <= 0)
        return qsb_usage_error("%s is for worker processes (%s)", what,
                               named(worker, sizeof worker, slot, NULL));
    if (o->value == QSB_WORKER_FILE) {
        *(const char **)at = text;
        return QSB_OK;
    }
    uint64_t fd;
    int status = qsb_parse_u64(text, what, STDERR_FILENO + 1, INT_MAX, 0, &fd);
    *(int *)at = (int)fd;
    return status;
}

/* A worker's own options, read with the protocol's table in its order: --worker first. */
static int read_protocol(qsb_run_config *cfg, const option_texts *t)
{
    int status = QSB_OK;
    const qsb_worker_option *slot = NULL;
    for (size_t i = 0; status == QSB_OK && qsb_worker_options[i].name; i++) {
        const qsb_worker_option *o = &qsb_worker_options[i];
        if (o->value == QSB_WORKER_SLOT)
            slot = o;
        if (o->part != QSB_WORKER_OWN || !t->protocol[i])
            continue;
        status = o->value == QSB_WORKER_SLOT ? read_slot(cfg, o, t->protocol[i])
                                             : read_own(cfg, o, slot, t->protocol[i]);
    }
    return status;
}

/* --processes N (workers.h) and a worker's own options. One process where several cannot
** differ or cannot be pooled: exact counts, and --reps, which fixes the rounds of one
** process. */
static int resolve_processes(qsb_run_config *cfg, const option_texts *t)
{
    int status = QSB_OK;
    if (t->text[OPT_PROCESSES])
        status = qsb_parse_u64(t->text[OPT_PROCESSES], "--processes", 1, QSB_MAX_PROCESSES, 0,
                               &cfg->processes);
    if (status == QSB_OK && cfg->processes > 1 && cfg->reps)
        status = qsb_usage_error("--reps fixes the rounds of one process: give --processes 1 "
                                 "or --budget");
    if (status == QSB_OK)
        status = read_protocol(cfg, t);
    if (cfg->reps || cfg->metric == QSB_METRIC_COMPARISONS || cfg->worker.slice_s > 0)
        cfg->processes = 1;
    return status;
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

/* auto: one per CPU this process may use (side by side, each worker has one to itself); N
** above that is warned of, since workers sharing a CPU measure each other; a pinned run has
** one CPU. One process (--processes 1, --reps, a worker) runs no workers at all. */
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

/* ---- the measurement and the outputs ---- */

static int resolve_outputs(qsb_run_options *run, const option_texts *t)
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
static int resolve_export_and_gate(qsb_run_options *run, const option_texts *t)
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
static int build_worker_argv(qsb_run_config *cfg, const option_texts *t)
{
    const char *texts[QSB_WORKER_OPTIONS_MAX] = {0};
    for (size_t i = 0; qsb_worker_options[i].part == QSB_WORKER_HEAD; i++)
        for (int o = 0; o < OPT_COUNT; o++)
            if (strcmp(run_options[o].name, qsb_worker_options[i].name) == 0)
                texts[i] = t->text[o];
    return qsb_worker_argv_build(cfg, texts);
}

static int resolve_all(qsb_run_options *run, const option_texts *t)
{
    qsb_run_config *cfg = &run->bench;
    int status = resolve_sizes(cfg, t->text[OPT_SIZES]);
    if (status == QSB_OK)
        status = resolve_patterns(cfg, t->text[OPT_PATTERNS]);
    if (status == QSB_OK)
        status = resolve_algos(cfg, t->plugins, t->text[OPT_ALGOS],
                                       t->text[OPT_REFERENCE]);
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
        status = resolve_outputs(run, t);
    if (status == QSB_OK)
        status = resolve_export_and_gate(run, t);
    /* Last: every option is checked before the machine is looked at (--nelem auto). */
    if (status == QSB_OK)
        status = resolve_nelem(cfg, t->text[OPT_NELEM]);
    if (status == QSB_OK)
        status = resolve_shard(cfg, t->text[OPT_SHARD]);
    if (status == QSB_OK)
        status = resolve_processes(cfg, t);
    if (status == QSB_OK)
        status = resolve_jobs(cfg, t->text[OPT_JOBS]);
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
    option_texts texts;
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
