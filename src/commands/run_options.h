/*
** The options of `qsortbench [run]` (the table is qsb_run_spec, commands.h), parsed into the
** run's configuration (bench/run_config.h).
*/
#ifndef QSB_RUN_OPTIONS_H
#define QSB_RUN_OPTIONS_H

#include "plugins.h"
#include "run_config.h"

/* Parses argv[1..] (argv[0] is the command word or the program) into cfg, the plug-ins of
** --algos resolved into plugins (plugins.h; NULL: registry names only), which must outlive
** cfg. Returns QSB_OK, QSB_HELP_SHOWN (help printed), or an error status already reported
** (QSB_EUSAGE for every bad option or value, QSB_ESYSTEM when out of memory). cfg is always
** safe to free. */
int qsb_run_config_parse(qsb_run_config *cfg, qsb_plugins *plugins, int argc, char **argv);

#endif
