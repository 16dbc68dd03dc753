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

/* The run's options, also shown by the top-level --help (run is the default command). */
extern const qsb_command_spec qsb_run_spec;

#endif
