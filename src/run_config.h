/*
** The configuration of a benchmark run: the option table of `qsortbench [run]`
** (qsb_run_spec, commands.h) and the one struct it is parsed into. After a successful parse
** every list is resolved and checked (names found, numbers in range, --nelem auto read from
** sysfs), so the run never sees a name or a string it must interpret.
*/
#ifndef QSB_RUN_CONFIG_H
#define QSB_RUN_CONFIG_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "patterns.h"
#include "registry.h"
#include "rng.h"

typedef enum {
    QSB_METRIC_CYCLES,     /* TSC cycles (an invariant TSC is required) */
    QSB_METRIC_NS,         /* CLOCK_MONOTONIC_RAW nanoseconds */
    QSB_METRIC_COMPARISONS /* comparator calls: exact, no timing */
} qsb_metric;

const char *qsb_metric_name(qsb_metric metric); /* "cycles", "ns", "comparisons" */

/* The seed's counts, used when --nelem auto finds no cache in sysfs. */
#define QSB_FALLBACK_NELEM "49152:786432:8388608"

typedef struct {
    uint64_t *nelem;    /* element counts, in the order given (malloc'd) */
    size_t n_nelem;
    uint64_t *sizes;    /* element sizes in bytes (malloc'd) */
    size_t n_sizes;
    const qsb_pattern **patterns; /* malloc'd array of table entries */
    size_t n_patterns;
    qsb_algorithm *algos; /* copies of registry entries (malloc'd); algos[0] is the baseline.
                          ** Copies, so that a caller (a test, a plug-in) can run a sort
                          ** function that is not in the registry. */
    size_t n_algos;
    uint64_t seed;
    uint64_t reps;          /* timed rounds per cell; 0 = chosen by the tool per cell */
    const char *csv_path;   /* NULL: results/qsortbench-<stamp>.csv; "-": stdout */
    const char *json_path;  /* likewise .json */
    qsb_metric metric;
    qsb_mode mode;
    const char *reference;  /* NULL, "glibc-2021" (compiled in) or a CSV file */
    bool quiet;             /* no progress line */
    bool plot;              /* --plot: the charts beside the results file (plot.h) */
    char *command_line;     /* "qsortbench run --nelem ...", for the results (malloc'd) */
    const char *gbench_path; /* --export gbench=FILE (or gbench FILE): NULL when not asked */
    bool fail_above;        /* --fail-above PCT given: gate the candidates (compare.h) */
    double fail_above_pct;
} qsb_run_config;

/* Parses argv[1..] (argv[0] is the command word or the program) into cfg. Returns QSB_OK,
** QSB_HELP_SHOWN (help printed), or an error status already reported (QSB_EUSAGE for every
** bad option or value, QSB_ESYSTEM when out of memory). cfg is always safe to free. */
int qsb_run_config_parse(qsb_run_config *cfg, int argc, char **argv);

void qsb_run_config_free(qsb_run_config *cfg);

#endif
