/*
** The subcommands. Each takes (argc, argv) with argv[0] the command word, parses its own
** options through cli.h, and returns an exit status (diag.h); none of them exits.
*/
#ifndef QSB_COMMANDS_H
#define QSB_COMMANDS_H

#include "cli.h"
#include "run_config.h"

/* `compare --machines A,B FILE [FILE]` (argv as for compare). */
int qsb_cmd_compare_machines(int argc, char **argv);

/* --version and -V: the version, the commit built from, the compiler, the build type and
** flags (as info prints them). Returns QSB_OK. */
int qsb_print_version(void);

/* The run's options, also shown by the top-level --help (run is the default command), and
** run's tables. */
extern const qsb_command_spec qsb_run_spec;
extern const qsb_command_spec *const qsb_run_specs[];
/* compare's other form, `compare --machines A,B`, in its own file. */
extern const qsb_command_spec qsb_compare_machines_spec;

/* A command of the tool: its word, its entry point, its line in --help and its option tables,
** NULL-ended: its own first, then those of its other forms (compare --machines) or of its verbs
** (history: only its verbs'). The man pages and the shell completion are generated from them
** (generate.h), as --help is. Each command's file defines its own. */
typedef struct {
    const char *name;
    int (*run)(int argc, char **argv);
    const char *summary; /* one line, for --help */
    const qsb_command_spec *const *specs;
} qsb_command;

extern const qsb_command qsb_run_command, qsb_list_command, qsb_info_command, qsb_gen_command,
    qsb_compare_command, qsb_merge_command, qsb_plot_command, qsb_report_command,
    qsb_export_command, qsb_history_command, qsb_audit_command;

/* The whole tool as --help, the man pages and the completion describe it. */
typedef struct {
    const qsb_command *const *commands; /* main.c's table, NULL-ended */
    const char *description;            /* what the tool does, in a few lines */
    const char *exit_status;            /* every command's exit codes, in one paragraph */
} qsb_tool;

#endif
