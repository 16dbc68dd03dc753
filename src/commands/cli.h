/*
** Command-line plumbing shared by every subcommand: option tables (from which --help is
** generated), strict number and list parsing. Every parser reports its own error through
** diag and returns a status (QSB_OK or QSB_EUSAGE).
*/
#ifndef QSB_CLI_H
#define QSB_CLI_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "rng.h"

struct qsb_worker_option; /* worker_protocol.h */

typedef struct {
    const char *name;  /* long name without "--" */
    int short_name;    /* single-letter alias, 0 when none */
    const char *arg;   /* metavariable ("LIST"), NULL for a flag */
    const char *help;  /* one line; may mention the default */
} qsb_option;          /* tables end with a {NULL} sentinel */

/* The row after which a table's options are left out of --help and shown by --help-all: those
** few users need (the man page and the completion have them all). */
#define QSB_MORE_OPTIONS {"", 0, NULL, NULL}

typedef struct {
    const char *name;          /* "gen" */
    const char *usage;         /* "PATTERN --nelem N --size S [OPTIONS]" */
    const char *summary;       /* one line */
    const qsb_option *options; /* may be NULL */
    const char *exit_status;   /* "0 success, 2 ...": the README's exit codes for this command */
} qsb_command_spec;

/* The verb of a history verb's table ("add" of "history add"), or NULL for a command's own
** table: the man pages and the completion group the tables by it. */
const char *qsb_spec_verb(const qsb_command_spec *spec);

/* Called for each option found: index into the option table, its argument or NULL; an
** option of a protocol's table comes after the command's (its index: the command's count of
** rows, plus its row in the protocol's table). */
typedef int (*qsb_option_handler)(void *ctx, int index, const char *arg);

/* Parses argv[1..] (argv[0] is the command word) against spec->options, calling handler for
** each. --help/-h prints the generated help and returns QSB_HELP_SHOWN; --help-all prints
** every option. Operands are
** gathered (GNU permutation) into argv[*first_operand .. argc-1]. */
#define QSB_HELP_SHOWN (-1)
int qsb_parse_options(const qsb_command_spec *spec, int argc, char **argv,
                      qsb_option_handler handler, void *ctx, int *first_operand);
/* The same, with the own options of the worker protocol (worker_protocol.h) as well, which
** only --help-all shows: run's. */
int qsb_parse_options_with(const qsb_command_spec *spec,
                           const struct qsb_worker_option *protocol, int argc, char **argv,
                           qsb_option_handler handler, void *ctx, int *first_operand);

#define QSB_HELP_ALL_TEXT "show every option, and exit"
/* The options of a table, those of --help-all too when all, then --help (and --help-all where
** --help leaves options out). */
void qsb_print_options(const qsb_option *options, bool all);

/* Strict unsigned parsing: decimal digits only (or 0x-hex when hex_ok), no sign, no blanks,
** in [min, max]. `what` names the value in the error ("--nelem"). */
int qsb_parse_u64(const char *text, const char *what, uint64_t min, uint64_t max,
                  int hex_ok, uint64_t *out);

/* A separator-delimited list of such numbers; no empty elements. *out is malloc'd. */
int qsb_parse_u64_list(const char *text, char sep, const char *what, uint64_t min,
                       uint64_t max, uint64_t **out, size_t *count);

/* A non-negative decimal number such as "1.5" (percentages, seconds). */
int qsb_parse_double(const char *text, const char *what, double min, double max, double *out);

/* Such a number above 0 and at most max (--precision, --worker SLICE, --tsc-hz). */
int qsb_parse_positive(const char *text, const char *what, double max, double *out);

/* A size in bytes: digits, optionally followed by K, M, G or T (powers of 1024, "KiB" and
** "KB" alike), above 0. */
int qsb_parse_size(const char *text, const char *what, uint64_t *out);

/* Splits a comma list into malloc'd words (one allocation; free(*words) frees all); rejects
** empty elements. */
int qsb_split_words(const char *text, const char *what, char ***words, size_t *count);

/* --compat MODE: "glibc-bench-2021" selects QSB_MODE_COMPAT_2021; NULL leaves the default. */
int qsb_parse_compat(const char *text, qsb_mode *mode);

#endif
