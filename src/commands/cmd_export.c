/*
** `qsortbench export RESULTS --format F -o FILE`: a results file of any kind (a run, merged
** shards, a pooled file, a fleet file; CSV or JSON) in a format CI dashboards read, so files
** written before a dashboard existed can be fed to it. The formats are the table of export.h,
** the same as `run --export` and `merge --export`. The file is written atomically.
** Exit: 0, 2 for a bad command line, a bad results file or a format that cannot carry the
** results (gbench: counts, or a fleet), 3 for I/O errors.
*/
#include <stdio.h>
#include <stdlib.h>

#include "commands.h"
#include "diag.h"
#include "export.h"
#include "outfile.h"
#include "read_results.h"

enum { OPT_FORMAT, OPT_OUTPUT };

static const qsb_option export_options[] = {
    [OPT_FORMAT] = {"format", 'f', "F",
                    "bmf (Bencher Metric Format), github-action-benchmark (its "
                    "customSmallerIsBetter JSON) or gbench (Google Benchmark JSON; one "
                    "machine, a time metric)"},
    [OPT_OUTPUT] = {"output", 'o', "FILE", "the exported file ('-': stdout)"},
    {NULL, 0, NULL, NULL},
};

static const qsb_command_spec export_spec = {
    "export", "RESULTS --format F -o FILE",
    "Write a results file (a run, merged shards, a pooled file or a fleet file; CSV or JSON)\n"
    "for a CI dashboard. bmf and github-action-benchmark name each benchmark\n"
    "PATTERN/NELEM/SIZE/ALGORITHM (@MACHINE in a fleet): the median in the run's metric\n"
    "(cycles, ns or comparisons, the unit) with its 95% interval, and bmf the paired delta\n"
    "in % with its interval. Sorts that failed verification are left out.",
    export_options,
    "0 success, 2 usage error or bad input (an unreadable or malformed file, a\n"
    "format that cannot carry the results, -o naming RESULTS), 3 system error (I/O)."};
static const qsb_command_spec *const export_specs[] = {&export_spec, NULL};

typedef struct {
    const qsb_export_format *format;
    const char *output;
    const char *results; /* the file read */
} export_config;

static int handle_option(void *ctx, int index, const char *arg)
{
    export_config *cfg = ctx;
    if (index == OPT_OUTPUT) {
        cfg->output = arg;
        return QSB_OK;
    }
    if (!(cfg->format = qsb_export_find(arg)))
        return qsb_usage_error("--format: unknown format '%s' (%s)", qsb_quote(arg),
                               qsb_export_names());
    return QSB_OK;
}

/* Between the outputs' open and their commit: RESULTS read, each run's metric checked
** against the format, the file written as -o. */
static int export_into(const qsb_outputs *out, void *arg)
{
    const export_config *cfg = arg;
    qsb_results *runs = NULL;
    size_t n = 0;
    int status = qsb_read_fleet(cfg->results, &runs, &n);
    for (size_t i = 0; i < n && status == QSB_OK && cfg->format->check; i++)
        status = cfg->format->check(runs[i].context.metric ? runs[i].context.metric : "unknown");
    if (status == QSB_OK)
        status = cfg->format->write(out->file[0].fp, runs, n);
    for (size_t i = 0; i < n; i++)
        qsb_results_free(&runs[i]);
    free(runs);
    return status;
}

static int export_main(int argc, char **argv)
{
    export_config cfg = {NULL, NULL, NULL};
    int first;
    int status = qsb_parse_options(&export_spec, argc, argv, handle_option, &cfg, &first);
    if (status != QSB_OK)
        return status == QSB_HELP_SHOWN ? QSB_OK : status;
    if (argc - first != 1)
        return qsb_usage_error("export takes one results file (CSV or JSON)");
    if (!cfg.format)
        return qsb_usage_error("export needs --format F (%s)", qsb_export_names());
    if (!cfg.output)
        return qsb_usage_error("export needs -o FILE");
    cfg.results = argv[first];
    const qsb_output_spec paths[1] = {{"-o", cfg.output}};
    const qsb_file_group read = {"RESULTS", QSB_FILES_READ, &cfg.results, 1};
    return qsb_with_outputs(paths, 1, &read, 1, export_into, &cfg); /* -o may not be RESULTS */
}

/* The command's row of the tool's table (main.c). */
const qsb_command qsb_export_command = {
    .name = "export",
    .run = export_main,
    .summary = "a results file in a format CI dashboards read",
    .specs = export_specs,
};
