/*
** The significance options, --alpha A and --correction C, shared by the commands that test
** rows (run --fail-above, compare), and --run-level PCT of the tests between runs (compare,
** report): their names and metavariables, their defaults, their parsing and its messages,
** declared once. Each command's help says what the level is of.
*/
#ifndef QSB_SIGNIFICANCE_H
#define QSB_SIGNIFICANCE_H

#include "cli.h"
#include "stats.h"

/* The option table rows (cli.h qsb_option), with the command's help line. */
#define QSB_OPTION_ALPHA(help) {"alpha", 0, "A", help}
#define QSB_OPTION_CORRECTION(help) {"correction", 0, "C", help}

#define QSB_DEFAULT_ALPHA 0.01
#define QSB_DEFAULT_THRESHOLD_PCT 5.0 /* compare's and report's --threshold */
#define QSB_DEFAULT_CORRECTION QSB_CORRECTION_HOLM

/* --alpha A: a level strictly between 0 and 1. QSB_OK or QSB_EUSAGE (reported). */
int qsb_parse_alpha(const char *text, double *alpha);

/* --correction C: holm, bh or none. QSB_OK or QSB_EUSAGE (reported). */
int qsb_parse_correction(const char *text, qsb_correction *correction);

/* --run-level PCT: a 95% half-width in percent, 0 to 1000. QSB_OK or QSB_EUSAGE (reported). */
int qsb_parse_run_level(const char *text, double *pct);

#endif
