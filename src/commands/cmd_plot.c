/*
** `qsortbench plot RESULTS [-o DIR] [--format png|svg] [--title TEXT]`: the charts of one
** results file (CSV or JSON), through gnuplot (plot.h). They go beside the file unless -o
** names a directory; the chart files written are listed on stdout, one per line.
** Exit: 0, 2 for a bad command line or results file, 3 when gnuplot is missing or fails.
*/
#include <stdio.h>
#include <stdlib.h>

#include "commands.h"
#include "diag.h"
#include "fleet_view.h"
#include "plot.h"
#include "read_results.h"

enum { OPT_OUTPUT, OPT_FORMAT, OPT_TITLE };

static const qsb_option plot_options[] = {
    [OPT_OUTPUT] = {"output", 'o', "DIR", "write the charts into DIR (default: beside RESULTS)"},
    [OPT_FORMAT] = {"format", 0, "FMT", "png (default) or svg"},
    [OPT_TITLE] = {"title", 0, "TEXT", "first words of every chart's title (default: qsortbench)"},
    {NULL, 0, NULL, NULL},
};

static const qsb_command_spec plot_spec = {
    "plot", "RESULTS [-o DIR] [--format png|svg] [--title TEXT]",
    "Draw the charts of a results file through gnuplot (Debian package gnuplot-nox):\n"
    "RESULTS-deltas-CANDIDATE (paired delta % per cell, one chart per candidate),\n"
    "RESULTS-scaling (time per element against the element count, cache sizes marked) and\n"
    "RESULTS-comparisons (comparator calls / (n log2 n)).",
    plot_options,
    "0 success, 2 usage error or bad input, 3 system error (gnuplot missing or\n"
    "failing, I/O)."};
static const qsb_command_spec *const plot_specs[] = {&plot_spec, NULL};

typedef struct {
    const char *out_dir;
    qsb_plot_format format;
    const char *title;
} plot_config;

static int handle_option(void *ctx, int index, const char *arg)
{
    plot_config *cfg = ctx;
    switch (index) {
    case OPT_OUTPUT:
        cfg->out_dir = arg;
        return QSB_OK;
    case OPT_FORMAT:
        return qsb_plot_parse_format(arg, &cfg->format);
    default:
        cfg->title = arg;
        return QSB_OK;
    }
}

static int plot_main(int argc, char **argv)
{
    plot_config cfg = {NULL, QSB_PLOT_PNG, NULL};
    int first;
    int status = qsb_parse_options(&plot_spec, argc, argv, handle_option, &cfg, &first);
    if (status != QSB_OK)
        return status == QSB_HELP_SHOWN ? QSB_OK : status;
    if (first >= argc)
        return qsb_usage_error("plot needs a results file (CSV or JSON)");
    if (argc - first > 1)
        return qsb_usage_error("plot takes one results file ('%s' is one too many)",
                               qsb_quote_path(argv[first + 1]));
    const char *path = argv[first];

    qsb_results *runs = NULL;
    size_t n = 0;
    status = qsb_read_fleet(path, &runs, &n);
    if (status != QSB_OK)
        return status;
    qsb_plot_options opt = {cfg.out_dir, NULL, cfg.format, cfg.title, stdout, 0, NULL};
    status = n == 1 ? qsb_plot_results_file(&runs[0], path, &opt)
                    : qsb_plot_fleet_file(runs, n, path, &opt); /* a machine per series */
    for (size_t i = 0; i < n; i++)
        qsb_results_free(&runs[i]);
    free(runs);
    return status;
}

/* The command's row of the tool's table (main.c). */
const qsb_command qsb_plot_command = {
    .name = "plot",
    .run = plot_main,
    .summary = "charts from a results file, through gnuplot",
    .specs = plot_specs,
};
