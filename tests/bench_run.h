/*
** The run through the bench layer (runner.h) with sorts of a test's own, for the tests that
** swap them into a parsed configuration (test_run_failed, test_run_slowed): the test's
** reporter prints the table on stdout, writes the CSV and JSON with the results' writers,
** and says on stderr how many rows failed verification ("failed rows: N").
*/
#ifndef QSB_TEST_BENCH_RUN_H
#define QSB_TEST_BENCH_RUN_H

#include "run_config.h"

/* Where a run's outputs go: the result files and the captured streams (NULL: not captured). */
typedef struct {
    const char *csv, *json;
    const char *out, *err;
} bench_run_files;

/* Runs cfg with its outputs in files; the run's status (the reporter returns the outcome's:
** QSB_OK or QSB_FINDING), or an error. */
int bench_run_captured(const qsb_run_config *cfg, const bench_run_files *files);

#endif
