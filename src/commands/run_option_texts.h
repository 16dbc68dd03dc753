/*
** The run's options between their collection and their resolution: the text given for each
** option of the table (run_options.c), and the resolvers of its parts (the matrix,
** run_matrix_options.c; the worker processes and shards, run_worker_options.c), each taking
** the text as given (NULL when not given) and filling the config or reporting a usage error.
*/
#ifndef QSB_RUN_OPTION_TEXTS_H
#define QSB_RUN_OPTION_TEXTS_H

#include <stdbool.h>

#include "plugins.h"
#include "run_config.h"
#include "worker_protocol.h"

#define QSB_RUN_DEFAULT_SIZES "4,8,32"
#define QSB_RUN_DEFAULT_ALGOS "msort,introsort"
/* With --reference glibc-2021: the cover letter's own pair, msort and the 2021 introsort. */
#define QSB_RUN_COVER_LETTER_ALGOS "msort,introsort-2021"

/* The options of the table, in its order: those --help shows, then the others. */
enum {
    OPT_NELEM,
    OPT_SIZES,
    OPT_PATTERNS,
    OPT_ALGOS,
    OPT_PRECISION,
    OPT_BUDGET,
    OPT_CSV,
    OPT_JSON,
    OPT_QUIET,
    OPT_FAIL_ABOVE,
    OPT_MORE, /* the options --help leaves out follow */
    OPT_SEED,
    OPT_REPS,
    OPT_PLACEMENT,
    OPT_NO_RELOAD,
    OPT_WARMUP,
    OPT_PIN,
    OPT_BATCH,
    OPT_SLOWED,
    OPT_METRIC,
    OPT_COMPAT,
    OPT_REFERENCE,
    OPT_EXPORT,
    OPT_REPORT,
    OPT_HISTORY,
    OPT_ALPHA,
    OPT_CORRECTION,
    OPT_PLOT,
    OPT_SHARD,
    OPT_MACHINE,
    OPT_PROCESSES,
    OPT_JOBS,
    OPT_MEMORY,
    OPT_COUNT
};

typedef struct {
    const char *text[OPT_COUNT]; /* the last value given for each option, NULL if none */
    const char *protocol[QSB_WORKER_OPTIONS_MAX]; /* likewise for the worker's own options, by
                                                  ** their rows in the protocol's table */
    bool plot;
    bool quiet;
    bool no_reload;
    const char *export_operand;  /* FILE of "--export FORMAT FILE" (the one operand) */
    qsb_plugins *plugins;        /* where --algos resolves its plug-ins; NULL: none allowed */
} qsb_run_option_texts;

/* The matrix: --nelem (last of all: "auto" looks at the machine), --sizes, --patterns,
** --algos (their default follows --reference; after --sizes, which an entry's min_size may
** refuse), --metric. */
int qsb_run_resolve_nelem(qsb_run_config *cfg, const char *text);
int qsb_run_resolve_sizes(qsb_run_config *cfg, const char *text);
int qsb_run_resolve_patterns(qsb_run_config *cfg, const char *text);
int qsb_run_resolve_algos(qsb_run_config *cfg, qsb_plugins *plugins, const char *text,
                          const char *reference);
int qsb_run_resolve_metric(qsb_run_config *cfg, const char *text);

/* --shard K/N, after the lists it splits; --processes and a worker's own options (read with
** the protocol's table, worker_protocol.h), after the shard. */
int qsb_run_resolve_shard(qsb_run_config *cfg, const char *text);
int qsb_run_resolve_processes(qsb_run_config *cfg, const qsb_run_option_texts *t);

/* --jobs N|auto (workers.h), after --processes and --pin. */
int qsb_run_resolve_jobs(qsb_run_config *cfg, const char *given);

#endif
