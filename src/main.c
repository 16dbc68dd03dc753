/*
** qsortbench: the subcommand table and the exit status. Nothing else lives here.
*/
#include <stdio.h>
#include <string.h>

#include "commands.h"
#include "diag.h"
#include "version.h"

typedef struct {
    const char *name;
    int (*run)(int argc, char **argv);
    const char *summary;
} command;

static const command commands[] = {
    {"run", qsb_cmd_run, "the benchmark matrix (the default command)"},
    {"list", qsb_cmd_list, "the algorithm registry and the input patterns"},
    {"info", qsb_cmd_info, "this machine: CPU, caches, timer, libc, build"},
    {"gen", qsb_cmd_gen, "write one input's raw bytes"},
    {"compare", qsb_cmd_compare, "regression check between two results files"},
    {"merge", qsb_cmd_merge, "join shards (run --shard K/N) and machines into one file"},
    {"plot", qsb_cmd_plot, "charts from a results file, through gnuplot"},
    {"report", qsb_cmd_report, "one self-contained HTML page of results files"},
    {"export", qsb_cmd_export, "a results file in a format CI dashboards read"},
    {"history", qsb_cmd_history, "every run kept with its commit; steps across commits"},
    {"audit", qsb_cmd_audit, "stability, allocation, stack, worst case, broken comparators"},
    {NULL, NULL, NULL},
};

static void print_help(void)
{
    printf("Usage: qsortbench [run] [OPTIONS]\n"
           "       qsortbench COMMAND [OPTIONS]   (qsortbench COMMAND --help for its options)\n"
           "\nBenchmarks qsort implementations: glibc's legacy mergesort, the 2023 introsort,\n"
           "their relatives and this machine's libc qsort, on the glibc benchmark's inputs.\n"
           "\nCommands:\n");
    for (const command *c = commands; c->name; c++)
        printf("  %-10s %s\n", c->name, c->summary);
    printf("\nOptions of run:\n");
    qsb_print_options(qsb_run_spec.options);
    printf("  %-26s %s\n", "    --version", "print the version and exit");
    printf("\nExit status: 0 success, 1 a finding (a sort FAILED, a regression, an audit subject\n"
           "FAILED), 2 usage error or bad input, 3 system error, 129/130/131/143 run stopped by\n"
           "SIGHUP/SIGINT/SIGQUIT/SIGTERM (results so far written, marked incomplete)\n"
           "(qsortbench COMMAND --help: each command's).\n");
}

int main(int argc, char **argv)
{
    if (argc >= 2 && strcmp(argv[1], "--help") == 0) {
        print_help();
        return QSB_OK;
    }
    if (argc >= 2 && strcmp(argv[1], "--version") == 0) {
        printf("qsortbench %s\n", QSB_VERSION);
        return QSB_OK;
    }
    /* No word, or an option first: the default command, run, with argv[0] as its word. */
    int implicit_run = argc < 2 || argv[1][0] == '-';
    const char *word = implicit_run ? "run" : argv[1];
    for (const command *c = commands; c->name; c++) {
        if (strcmp(word, c->name) == 0)
            return implicit_run ? c->run(argc, argv) : c->run(argc - 1, argv + 1);
    }
    return qsb_usage_error("unknown command '%s'", qsb_quote(word));
}
