/*
** `qsortbench audit [--algos LIST] [--json FILE] [--csv FILE] [--quick]`: the measured
** property table (audit.h), a row per algorithm (registry entries and plug-ins, plugin.h) plus
** a "malloc fails" row for each merge sort with a scratch fallback. The table goes to stdout
** row by row as each is measured; the CSV and JSON files, opened before the first probe so a
** bad path fails at once, get the same rows. The properties found are data (exit 0); a
** subject that FAILED (crashed, hung, exited or wrote outside its array) is a finding (exit
** 1); 2 on bad arguments, 3 on a system error.
*/
#include <stdlib.h>
#include <unistd.h>
#include <string.h>
#include <time.h>

#include "audit.h"
#include "cli.h"
#include "commands.h"
#include "diag.h"
#include "outfile.h"
#include "plugin.h"
#include "run_context.h"
#include "version.h"

enum { OPT_ALGOS, OPT_JSON, OPT_CSV, OPT_QUICK };

static const qsb_option audit_options[] = {
    {"algos", 'a', "LIST",
     "comma-separated registry names or plug-ins [NAME=]PATH.so:SYMBOL[:qsort] "
     "(default: the whole registry)"},
    {"json", 0, "FILE", "also write the rows as JSON ('-' for stdout)"},
    {"csv", 0, "FILE", "also write the rows as CSV ('-' for stdout)"},
    {"quick", 'q', NULL, "stack probe up to n = 65536 instead of 8,388,608"},
    {NULL, 0, NULL, NULL},
};

static const qsb_command_spec audit_spec = {
    "audit", "[OPTIONS]",
    "Measure, for each algorithm: stability, allocation, stack depth, comparisons on McIlroy's\n"
    "killer adversary, and behaviour under broken comparators (guard pages around the array).",
    audit_options,
    "0 whatever properties are found (they are data), 1 when a subject FAILED\n"
    "(crashed, hung, exited or wrote outside its array), 2 usage error or bad input, 3 system\n"
    "error."};

typedef struct {
    const char *algos;
    const char *json;
    const char *csv;
    bool quick;
} audit_args;

static int on_option(void *ctx, int index, const char *arg)
{
    audit_args *a = ctx;
    switch (index) {
    case OPT_ALGOS:
        a->algos = arg;
        break;
    case OPT_JSON:
        a->json = arg;
        break;
    case OPT_CSV:
        a->csv = arg;
        break;
    case OPT_QUICK:
        a->quick = true;
        break;
    }
    return QSB_OK;
}

/* ---- the subjects: the selected algorithms, each followed by its "malloc fails" row ---- */

typedef struct {
    qsb_audit_subject *items;
    size_t count;
} subject_list;

static void add_with_variant(subject_list *list, const qsb_audit_subject *s)
{
    list->items[list->count++] = *s;
    qsb_audit_subject forced;
    if (!s->variant && qsb_audit_forced_fallback(s->name, &forced))
        list->items[list->count++] = forced;
}

static int is_duplicate(const subject_list *list, const char *name)
{
    for (size_t i = 0; i < list->count; i++)
        if (!list->items[i].variant && strcmp(list->items[i].name, name) == 0)
            return 1;
    return 0;
}

static int select_subjects(const char *algos, subject_list *list)
{
    char **words = NULL;
    size_t nwords = qsb_algorithm_count;
    if (algos && qsb_split_words(algos, "--algos", &words, &nwords) != QSB_OK)
        return QSB_EUSAGE;
    list->count = 0;
    list->items = malloc(2 * nwords * sizeof *list->items); /* room for every variant */
    if (!list->items) {
        free(words);
        return qsb_out_of_memory("audit rows");
    }
    int status = QSB_OK;
    for (size_t i = 0; i < nwords && status == QSB_OK; i++) {
        const char *name = words ? words[i] : qsb_algorithms[i].name;
        qsb_algorithm a; /* a registry entry, or a plug-in (checked in a child, not loaded) */
        status = qsb_resolve_algorithm(name, &a);
        if (status != QSB_OK)
            break;
        /* Plug-ins and `system` declare nothing, so nothing they do can contradict a claim. */
        qsb_audit_subject s = {a.name, NULL, a.sort, a.properties,
                               !(a.properties & QSB_PROP_UNKNOWN)};
        if (is_duplicate(list, s.name))
            status = qsb_usage_error("--algos: '%s' is listed twice", qsb_quote(s.name));
        else
            add_with_variant(list, &s);
    }
    free(words);
    if (status != QSB_OK) {
        free(list->items);
        list->items = NULL;
    }
    return status;
}

/* ---- output files ---- */

enum { OUT_CSV, OUT_JSON, OUT_COUNT };

/* Opens the files; none may be the library of a plug-in audited. */
static int open_files(const audit_args *a, const subject_list *subjects, qsb_outputs *files)
{
    const qsb_output_spec paths[OUT_COUNT] = {{"--csv", a->csv}, {"--json", a->json}};
    const char **libraries = calloc(subjects->count ? subjects->count : 1, sizeof *libraries);
    if (!libraries)
        return qsb_out_of_memory("plug-in names");
    for (size_t i = 0; i < subjects->count; i++)
        libraries[i] = qsb_plugin_library(subjects->items[i].sort);
    const qsb_file_group read = {"the plug-in", QSB_FILES_READ, libraries, subjects->count};
    int status = qsb_outputs_open(files, paths, OUT_COUNT, &read, 1);
    free(libraries);
    return status;
}

/* Writes both files and commits them, or neither. */
static int write_files(qsb_outputs *files, const qsb_audit_row *rows, size_t count,
                       const qsb_audit_config *config, const qsb_run_context *where,
                       const char *command_line)
{
    FILE *csv = files->file[OUT_CSV].fp, *json = files->file[OUT_JSON].fp;
    int status = csv ? qsb_audit_write_csv(csv, rows, count) : QSB_OK;
    if (status == QSB_OK && json)
        status = qsb_audit_write_json(json, rows, count, config, where, command_line);
    return qsb_outputs_close(files, status);
}

/* When a file takes stdout ("-", /dev/stdout...), the table goes to stderr so the file stays
** parseable. */
static FILE *table_stream(const qsb_outputs *files)
{
    bool file_on_stdout = files->file[OUT_CSV].fp == stdout || files->file[OUT_JSON].fp == stdout;
    return file_on_stdout ? stderr : stdout;
}

#define PROBE_MARK "QSB_AUDIT_PROBE" /* set in the audit run again with the probe */

/* The allocation counter must not sit in any benchmark's malloc path, so it is not linked
** into the tool: the audit runs itself again with libqsb_alloc_probe.so preloaded (once:
** the mark in the environment stops a loop). When that cannot be done the audit goes on and
** reports allocation as unavailable. */
static void with_allocation_probe(int argc, char **argv)
{
    const char *method;
    char probe[4096];
    if (getenv(PROBE_MARK) || qsb_alloc_counting_available(&method) ||
        !qsb_alloc_probe_path(probe, sizeof probe))
        return;
    const char *preload = getenv("LD_PRELOAD");
    size_t len = strlen(probe) + (preload ? strlen(preload) + 1 : 0) + 1;
    char *value = malloc(len);
    char **args = malloc(((size_t)argc + 2) * sizeof *args);
    if (value && args) {
        snprintf(value, len, "%s%s%s", probe, preload ? ":" : "", preload ? preload : "");
        args[0] = "qsortbench";
        for (int i = 0; i < argc; i++)
            args[i + 1] = argv[i];
        args[argc + 1] = NULL;
        if (setenv("LD_PRELOAD", value, 1) == 0 && setenv(PROBE_MARK, "1", 1) == 0) {
            fflush(NULL);
            execv("/proc/self/exe", args);
        }
    }
    free(value);
    free(args);
}

static size_t failed_rows(const qsb_audit_row *rows, size_t count)
{
    size_t failed = 0;
    for (size_t i = 0; i < count; i++)
        failed += rows[i].failure[0] != '\0';
    return failed;
}

int qsb_cmd_audit(int argc, char **argv)
{
    audit_args args = {NULL, NULL, NULL, false};
    int first;
    int status = qsb_parse_options(&audit_spec, argc, argv, on_option, &args, &first);
    if (status != QSB_OK)
        return status == QSB_HELP_SHOWN ? QSB_OK : status;
    if (first < argc)
        return qsb_usage_error("audit takes no operands ('%s')", qsb_quote(argv[first]));
    with_allocation_probe(argc, argv);
    time_t now = time(NULL);
    struct tm started;
    gmtime_r(&now, &started);

    subject_list subjects = {NULL, 0};
    qsb_outputs files;
    memset(&files, 0, sizeof files);
    qsb_audit_row *rows = NULL;
    char *command_line = NULL;
    status = select_subjects(args.algos, &subjects);
    if (status != QSB_OK)
        goto done;
    status = open_files(&args, &subjects, &files);
    if (status != QSB_OK)
        goto done;
    rows = calloc(subjects.count, sizeof *rows);
    command_line = qsb_command_line("audit", argc, argv);
    if (!rows || !command_line) {
        status = qsb_out_of_memory("audit rows");
        goto done;
    }

    qsb_audit_config config;
    qsb_audit_config_init(&config, args.quick);
    if (QSB_SANITIZED)
        qsb_warning("sanitized build: stack depths include ASan's redzones, allocations are "
                    "counted through ASan's hooks, and 'system' runs through ASan's qsort_r "
                    "interceptor (n-1 extra comparator calls); audit a normal build for the "
                    "real figures");
    qsb_child_set_setup(qsb_plugins_load); /* plug-ins run in the probes' children only */
    FILE *table = table_stream(&files);
    qsb_audit_print_table_head(table, &config);
    for (size_t i = 0; i < subjects.count && status == QSB_OK; i++) {
        status = qsb_audit_run_row(&subjects.items[i], &config, &rows[i]);
        if (status == QSB_OK) {
            qsb_audit_print_table_row(table, &rows[i]);
            fflush(table);
        }
    }
    if (status != QSB_OK)
        goto done;
    qsb_audit_print_table_foot(table, rows, subjects.count, &config);
    qsb_run_context where;
    qsb_run_context_gather(&where, &started);
    status = write_files(&files, rows, subjects.count, &config, &where, command_line);
    if (status == QSB_OK && failed_rows(rows, subjects.count) > 0)
        status = QSB_FINDING; /* each failure was reported as its row ended */
done:
    qsb_outputs_abort(&files); /* what an error left open */
    free(command_line);
    free(rows);
    free(subjects.items);
    qsb_plugins_unload(); /* last: the rows' names point into the plug-ins */
    return status;
}
