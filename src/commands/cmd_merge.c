/*
** `qsortbench merge FILE... -o OUT [--csv FILE] [--json FILE] [--export FORMAT=FILE]`: joins
** the shards of one matrix (run --shard K/N), and keeps the runs of several machines apart
** by machine (merge.h). The inputs are CSV or JSON (a shard must be JSON: only the JSON
** records its shard and matrix); the output is a results file when one machine remains, a
** fleet file (report.h) otherwise.
** -o OUT writes JSON, or CSV when OUT ends in .csv; --json/--csv name either file explicitly.
** With --pool the files are several runs of one command on one machine, pooled with every run
** a unit (pool.h).
** --export writes the merged results for a dashboard too (export.h). Every file is written
** atomically. Exit: 0, 2 for a bad command line or a bad merge
** (one line), 3 for I/O errors.
*/
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "commands.h"
#include "diag.h"
#include "grow.h"
#include "export.h"
#include "infile.h"
#include "merge.h"
#include "outfile.h"
#include "pool.h"
#include "read_results.h"
#include "report.h"

enum { OPT_OUTPUT, OPT_CSV, OPT_JSON, OPT_POOL, OPT_EXPORT };

static const qsb_option merge_options[] = {
    [OPT_OUTPUT] = {"output", 'o', "OUT", "the merged file: CSV when OUT ends in .csv, else JSON"},
    [OPT_CSV] = {"csv", 0, "FILE", "also (or only) the merged CSV ('-': stdout)"},
    [OPT_JSON] = {"json", 0, "FILE", "also (or only) the merged JSON ('-': stdout)"},
    [OPT_POOL] = {"pool", 0, NULL,
                  "the files are runs of one command on one machine (separate processes, "
                  "at separate times): pool them, every run one unit, intervals by t over "
                  "the runs (five runs or more); what one run cannot sample is then sampled"},
    [OPT_EXPORT] = {"export", 0, "FORMAT=FILE",
                    "also write the merged results for CI dashboards: bmf, "
                    "github-action-benchmark or gbench (one machine only); as run --export"},
    {NULL, 0, NULL, NULL},
};

static const qsb_command_spec merge_spec = {
    "merge", "FILE... -o OUT",
    "Join results files: the shards 1..N of one matrix (run --shard K/N) into the whole\n"
    "run, and the runs of several machines (run --machine NAME) into one fleet file that\n"
    "keeps each machine's results and context apart. The result does not depend on the\n"
    "order of the files. Shards must be JSON files; a CSV is accepted as a whole run.\n"
    "With --pool: several runs of one command, pooled into one result over the runs.",
    merge_options,
    "0 success, 2 usage error or bad input (an unreadable or malformed file,\n"
    "files that cannot be merged, an output that is an input), 3 system error (I/O)."};
static const qsb_command_spec *const merge_specs[] = {&merge_spec, NULL};

typedef struct {
    const char *csv, *json;
    const char *csv_option, *json_option; /* the option that named each: "-o", "--csv" */
    bool pool;
    const qsb_export_format *export_format; /* --export: NULL when not asked */
    const char *export_path;
    const char *const *inputs; /* the files read */
    size_t ninputs;
} merge_outputs;

static int handle_option(void *ctx, int index, const char *arg)
{
    merge_outputs *o = ctx;
    if (index == OPT_POOL) {
        o->pool = true;
        return QSB_OK;
    }
    if (index == OPT_EXPORT)
        return qsb_export_parse(arg, &o->export_format, &o->export_path);
    size_t len = strlen(arg);
    bool csv = index == OPT_CSV ||
               (index == OPT_OUTPUT && len >= 4 && strcmp(arg + len - 4, ".csv") == 0);
    const char *option = index == OPT_OUTPUT ? "-o" : csv ? "--csv" : "--json";
    if (csv) {
        o->csv = arg;
        o->csv_option = option;
    } else {
        o->json = arg;
        o->json_option = option;
    }
    return QSB_OK;
}

/* Every file read; fleet files contribute one input per machine. */
static int read_inputs(const char *const *paths, char **shown, size_t npaths,
                       qsb_merge_input **in, size_t *n)
{
    *in = NULL;
    *n = 0;
    size_t cap = 0;
    int status = QSB_OK;
    for (size_t i = 0; i < npaths && status == QSB_OK; i++) {
        qsb_results *runs = NULL;
        size_t count = 0;
        if (!(shown[i] = strdup(qsb_quote_path(paths[i])))) {
            status = qsb_out_of_memory("merge");
            break;
        }
        status = qsb_read_fleet(paths[i], &runs, &count);
        if (status != QSB_OK)
            break;
        if (QSB_GROW(*in, cap, *n + count) != 0) {
            for (size_t k = 0; k < count; k++)
                qsb_results_free(&runs[k]);
            free(runs);
            status = qsb_out_of_memory("merge");
            break;
        }
        for (size_t k = 0; k < count; k++)
            (*in)[(*n)++] = (qsb_merge_input){runs[k], shown[i]};
        free(runs);
    }
    return status;
}

/* --pool: one result from all the inputs (taken over and freed, as by qsb_merge). */
static int pool_inputs(qsb_merge_input *in, size_t n, qsb_results **out, size_t *nout)
{
    *nout = 0;
    if (!(*out = calloc(1, sizeof **out))) {
        for (size_t i = 0; i < n; i++)
            qsb_results_free(&in[i].run);
        return qsb_out_of_memory("merge");
    }
    int status = qsb_pool_runs(in, n, *out);
    if (status == QSB_OK)
        *nout = 1;
    else {
        free(*out);
        *out = NULL;
    }
    return status;
}

enum { OUT_CSV, OUT_JSON, OUT_EXPORT, OUT_COUNT };

static int write_merged(const merge_outputs *o, const qsb_outputs *out, const qsb_results *runs,
                        size_t n)
{
    int status = QSB_OK;
    FILE *csv = out->file[OUT_CSV].fp, *json = out->file[OUT_JSON].fp;
    if (csv)
        status = n == 1 ? qsb_report_csv(csv, &runs[0]) : qsb_report_fleet_csv(csv, runs, n);
    if (status == QSB_OK && json)
        status = n == 1 ? qsb_report_json(json, &runs[0]) : qsb_report_fleet_json(json, runs, n);
    if (status == QSB_OK && out->file[OUT_EXPORT].fp)
        status = o->export_format->write(out->file[OUT_EXPORT].fp, runs, n);
    return status;
}

/* Between the outputs' open and their commit: the inputs read, merged or pooled, written. */
static int merge_into(const qsb_outputs *out, void *arg)
{
    const merge_outputs *o = arg;
    qsb_merge_input *in = NULL;
    qsb_results *merged = NULL;
    size_t n = 0, machines = 0;
    char **shown = calloc(o->ninputs, sizeof *shown); /* the paths as messages show them */
    int status = shown ? read_inputs(o->inputs, shown, o->ninputs, &in, &n)
                       : qsb_out_of_memory("merge");
    if (status == QSB_OK && o->pool)
        status = pool_inputs(in, n, &merged, &machines);
    else if (status == QSB_OK)
        status = qsb_merge(in, n, &merged, &machines);
    else
        for (size_t i = 0; i < n; i++)
            qsb_results_free(&in[i].run);
    free(in);
    if (status == QSB_OK)
        status = write_merged(o, out, merged, machines);
    for (size_t i = 0; i < machines; i++)
        qsb_results_free(&merged[i]);
    free(merged);
    for (size_t i = 0; shown && i < o->ninputs; i++)
        free(shown[i]);
    free(shown);
    return status;
}

static int merge_main(int argc, char **argv)
{
    merge_outputs o = {0};
    int first;
    int status = qsb_parse_options(&merge_spec, argc, argv, handle_option, &o, &first);
    if (status != QSB_OK)
        return status == QSB_HELP_SHOWN ? QSB_OK : status;
    if (first >= argc)
        return qsb_usage_error("merge needs results files (the shards' JSON files, or runs of "
                               "several machines)");
    if (!o.csv && !o.json)
        return qsb_usage_error("merge needs -o OUT (or --json FILE / --csv FILE)");
    o.inputs = (const char *const *)&argv[first];
    o.ninputs = (size_t)(argc - first);
    const qsb_output_spec paths[OUT_COUNT] = {
        {o.csv_option, o.csv}, {o.json_option, o.json}, {"--export", o.export_path}};
    const qsb_file_group read = {"the input", QSB_FILES_READ, o.inputs, o.ninputs};
    /* every output opened before a byte is read: none may be one of the inputs */
    status = qsb_with_outputs(paths, OUT_COUNT, &read, 1, merge_into, &o);
    if (status == QSB_OK) {
        qsb_warn_if_unreadable(o.csv);
        qsb_warn_if_unreadable(o.json);
    }
    return status;
}

/* The command's row of the tool's table (main.c). */
const qsb_command qsb_merge_command = {
    .name = "merge",
    .run = merge_main,
    .summary = "join shards (run --shard K/N) and machines into one file",
    .specs = merge_specs,
};
