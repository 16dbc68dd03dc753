/*
** The files made from the option tables at build time, through the binary's own entry
** `qsortbench --generate WHAT PATH`, which CMake runs and no --help shows:
**   man DIR    the pages qsortbench(1) and qsortbench-COMMAND(1), one per command, into DIR;
**   bash FILE  the bash completion: the commands, history's verbs, every option of every
**              table, and the values the tables know (algorithm and pattern names, export
**              formats), file names where a file is asked for.
** Like --help, both are written from the tables, so an option cannot be added without them.
** Exit: 0, 2 for a bad command line, 3 when a file cannot be written.
*/
#ifndef QSB_GENERATE_H
#define QSB_GENERATE_H

#include <stdio.h>

#include "commands.h"

#define QSB_GENERATE_OPTION "--generate"

/* argv[0] is QSB_GENERATE_OPTION, argv[1] WHAT, argv[2] PATH. */
int qsb_generate_files(const qsb_tool *tool, int argc, char **argv);

#endif
