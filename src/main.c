/*
** qsortbench: the subcommand table and the exit status. Nothing else lives here.
*/
#include <stdbool.h>
#include <stdio.h>
#include <string.h>

#include "commands.h"
#include "diag.h"
#include "generate.h"

/* The commands, in the order --help lists them; each is defined in its own file. */
static const qsb_command *const commands[] = {
    &qsb_run_command,    &qsb_list_command,  &qsb_info_command,    &qsb_gen_command,
    &qsb_compare_command, &qsb_merge_command, &qsb_plot_command,   &qsb_report_command,
    &qsb_export_command, &qsb_history_command, &qsb_audit_command, NULL,
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
    for (const qsb_command *const *c = commands; *c; c++)
        printf("  %-10s %s\n", (*c)->name, (*c)->summary);
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
    for (const qsb_command *const *c = commands; *c; c++) {
        if (strcmp(word, (*c)->name) == 0)
            return implicit_run ? (*c)->run(argc, argv) : (*c)->run(argc - 1, argv + 1);
    }
    return qsb_usage_error("unknown command '%s'", qsb_quote(word));
}
