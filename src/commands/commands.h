/*
** The subcommands. Each takes (argc, argv) with argv[0] the command word, parses its own
** options through cli.h, and returns an exit status (diag.h); none of them exits.
*/
#ifndef QSB_COMMANDS_H
#define QSB_COMMANDS_H

#include "cli.h"
#include "run_config.h"

int qsb_cmd_run(int argc, char **argv);
int qsb_cmd_list(int argc, char **argv);
int qsb_cmd_info(int argc, char **argv);
int qsb_cmd_gen(int argc, char **argv);
int qsb_cmd_compare(int argc, char **argv);
/* `compare --machines A,B FILE [FILE]` (argv as for qsb_cmd_compare). */
int qsb_cmd_compare_machines(int argc, char **argv);
int qsb_cmd_plot(int argc, char **argv);
int qsb_cmd_audit(int argc, char **argv);
int qsb_cmd_merge(int argc, char **argv);
int qsb_cmd_export(int argc, char **argv);
int qsb_cmd_report(int argc, char **argv);
int qsb_cmd_history(int argc, char **argv);

/* --version and -V: the version, the commit built from, the compiler, the build type and
** flags (as info prints them). Returns QSB_OK. */
int qsb_print_version(void);

/* The run's options, also shown by the top-level --help (run is the default command). */
extern const qsb_command_spec qsb_run_spec;

/* Each command's option tables, NULL-ended: its own first, then those of its other forms
** (compare --machines) or of its verbs (history: only its verbs'). The man pages and the shell
** completion are generated from them (generate.h), as --help is. */
extern const qsb_command_spec *const qsb_run_specs[];
extern const qsb_command_spec *const qsb_list_specs[];
extern const qsb_command_spec *const qsb_info_specs[];
extern const qsb_command_spec *const qsb_gen_specs[];
extern const qsb_command_spec *const qsb_compare_specs[];
extern const qsb_command_spec *const qsb_merge_specs[];
extern const qsb_command_spec *const qsb_plot_specs[];
extern const qsb_command_spec *const qsb_report_specs[];
extern const qsb_command_spec *const qsb_export_specs[];
extern const qsb_command_spec *const qsb_history_specs[];
extern const qsb_command_spec *const qsb_audit_specs[];
/* compare's other form, `compare --machines A,B`, in its own file. */
extern const qsb_command_spec qsb_compare_machines_spec;

/* A command of the tool, a row of main.c's table. */
typedef struct {
    const char *name;
    int (*run)(int argc, char **argv);
    const char *summary;                 /* one line, for --help */
    const qsb_command_spec *const *specs; /* its option tables, as above */
} qsb_command;

/* The whole tool as --help, the man pages and the completion describe it. */
typedef struct {
    const qsb_command *commands; /* main.c's table, ended by a {NULL} row */
    const char *description;     /* what the tool does, in a few lines */
    const char *exit_status;     /* every command's exit codes, in one paragraph */
} qsb_tool;

#endif
