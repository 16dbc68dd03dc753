/*
** qsortbench: the subcommand table and the exit status. Nothing else lives here.
*/
#include <stdbool.h>
#include <stdio.h>
#include <string.h>

#include "commands.h"
#include "diag.h"
#include "generate.h"

static const qsb_command commands[] = {
    {"run", qsb_cmd_run, "the benchmark matrix (the default command)", qsb_run_specs},
    {"list", qsb_cmd_list, "the algorithm registry and the input patterns", qsb_list_specs},
    {"info", qsb_cmd_info, "this machine: CPU, caches, timer, libc, build", qsb_info_specs},
    {"gen", qsb_cmd_gen, "write one input's raw bytes", qsb_gen_specs},
    {"compare", qsb_cmd_compare, "regression check between two results files",
     qsb_compare_specs},
    {"merge", qsb_cmd_merge, "join shards (run --shard K/N) and machines into one file",
     qsb_merge_specs},
    {"plot", qsb_cmd_plot, "charts from a results file, through gnuplot", qsb_plot_specs},
    {"report", qsb_cmd_report, "one self-contained HTML page of results files",
     qsb_report_specs},
    {"export", qsb_cmd_export, "a results file in a format CI dashboards read", qsb_export_specs},
    {"history", qsb_cmd_history, "every run kept with its commit; steps across commits",
     qsb_history_specs},
    {"audit", qsb_cmd_audit, "stability, allocation, stack, worst case, broken comparators",
     qsb_audit_specs},
    {NULL, NULL, NULL, NULL},
};

static const qsb_tool tool = {
    commands,
    "Benchmarks qsort implementations: glibc's legacy mergesort, the 2023 introsort,\n"
    "their relatives and this machine's libc qsort, on the glibc benchmark's inputs.",
    "0 success, 1 a finding (a sort FAILED, a regression, an audit subject\n"
    "FAILED), 2 usage error or bad input, 3 system error, 129/130/131/143 run stopped by\n"
    "SIGHUP/SIGINT/SIGQUIT/SIGTERM (results so far written, marked incomplete)",
};

static void print_help(bool all)
{
    printf("Usage: qsortbench [run] [OPTIONS]\n"
           "       qsortbench COMMAND [OPTIONS]   (qsortbench COMMAND --help for its options)\n"
           "\n%s\n\nCommands:\n", tool.description);
    for (const qsb_command *c = commands; c->name; c++)
        printf("  %-10s %s\n", c->name, c->summary);
    printf("\nOptions of run:\n");
    qsb_print_options(qsb_run_spec.options, all);
    printf("  %-26s %s\n", "-V, --version", "print the version, commit and build, and exit");
    printf("\nExit status: %s\n(qsortbench COMMAND --help: each command's).\n",
           tool.exit_status);
}

int main(int argc, char **argv)
{
    if (argc >= 2 && (strcmp(argv[1], "--help") == 0 || strcmp(argv[1], "--help-all") == 0)) {
        print_help(strcmp(argv[1], "--help-all") == 0);
        return QSB_OK;
    }
    if (argc >= 2 && (strcmp(argv[1], "--version") == 0 || strcmp(argv[1], "-V") == 0))
        return qsb_print_version();
    /* The build's own entry (generate.h): not a command a user types, so not in --help. */
    if (argc >= 2 && strcmp(argv[1], QSB_GENERATE_OPTION) == 0)
        return qsb_generate_files(&tool, argc - 1, argv + 1);
    /* No word, or an option first: the default command, run, with argv[0] as its word. */
    int implicit_run = argc < 2 || argv[1][0] == '-';
    const char *word = implicit_run ? "run" : argv[1];
    for (const qsb_command *c = commands; c->name; c++) {
        if (strcmp(word, c->name) == 0)
            return implicit_run ? c->run(argc, argv) : c->run(argc - 1, argv + 1);
    }
    return qsb_usage_error("unknown command '%s'", qsb_quote(word));
}
