/*
** The results columns, declared once: the CSV and JSON writers and readers all walk this
** table, so a column cannot be written by one and forgotten by another. Adding a column is
** one line here (and its field in qsb_row, result.h).
**
** A row of a results file is flat: the cell's pattern, nelem and size, the run's baseline,
** metric, mode and seed, and one algorithm's row. qsb_file_row is that flat row; each
** column names the field of it that it is written from and read into.
**
** CSV: one header row (the CSV columns' names in this order), then one row per (cell,
** algorithm):
** - numbers in the C locale, doubles as %.17g (round-trip); unknown (NAN) values and the
**   baseline's own delta_pct/delta_lo/delta_hi are empty fields;
** - booleans are "true"/"false"; failure is empty when verified;
** - seed is 0x-hex; samples are the per-round values joined by ';' in round order, units the
**   unit of each sample likewise (empty when unknown);
** - incomplete: the run's own flag (the context's in JSON) on every row, so that a CSV file of
**   an interrupted run says so too; readers of files without it take false, and a reader sets
**   its context's incomplete from it;
** - run_id likewise: the run's id on every row, so that a CSV file names its run and one run
**   given in both formats is known as one.
**
** JSON: {"schema_version": 1, "context": {...}, "baseline": NAME, "results": [...]}
** - each result has the columns as members, in this order: numbers as numbers, NAN as null,
**   booleans as bools, failure null when verified, samples and units arrays (units absent
**   when unknown);
** - context: the keys of QSB_CONTEXT_KEYS below, in its order (docs/formats.md describes
**   each one; test_report checks that it names them all).
*/
#ifndef QSB_SCHEMA_H
#define QSB_SCHEMA_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "result.h"

/* One row as a file states it, before rows are grouped into cells. */
typedef struct {
    qsb_row row;     /* owns algorithm, samples, failure */
    char *pattern;   /* owned */
    char *baseline;  /* owned */
    char *metric;    /* owned */
    char *mode;      /* owned, NULL when the file has none */
    char *run_id;    /* owned, NULL when the file has none */
    uint64_t nelem, size, seed;
    uint64_t reps;   /* must equal the samples' count when the file gives samples */
    int has_seed;
    int has_samples;
    bool incomplete; /* the run's context: interrupted, the cells are those finished */
} qsb_file_row;

typedef enum {
    QSB_COL_TEXT,    /* char *; required: not empty; optional: NULL when absent (CSV: empty) */
    QSB_COL_U64,     /* uint64_t */
    QSB_COL_SIZE,    /* uint64_t, at least 1 */
    QSB_COL_UINT,    /* unsigned, below 2^32 */
    QSB_COL_DOUBLE,  /* double, NAN when unknown (CSV: empty; JSON: null) */
    QSB_COL_BOOL,    /* bool: true or false */
    QSB_COL_SEED,    /* uint64_t and has_seed; CSV 0x-hex, JSON a number or a 0x-hex string */
    QSB_COL_SAMPLES, /* row.samples[row.nsamples] and has_samples; CSV joined by ';' */
    QSB_COL_UNITS,   /* row.units, one per sample, NULL when unknown; CSV joined by ';' */
    QSB_COL_STATES,  /* row.states[row.nstates], NULL when none; CSV the states text
                     ** (states_text.h), JSON an array of objects; readers refuse malformed ones */
} qsb_column_type;

/* X(name, type, field of qsb_file_row, required by the readers, in the CSV too). The 14
** required columns are the files' contract (docs/formats.md, "Results CSV"); the others are
** optional for readers, so that files of earlier versions stay readable. */
#define QSB_RESULT_COLUMNS(X)                                  \
    X(pattern,     TEXT,    pattern,                1, true)   \
    X(nelem,       U64,     nelem,                  1, true)   \
    X(size,        SIZE,    size,                   1, true)   \
    X(algorithm,   TEXT,    row.algorithm,          1, true)   \
    X(baseline,    TEXT,    baseline,               1, true)   \
    X(metric,      TEXT,    metric,                 1, true)   \
    X(reps,        U64,     reps,                   1, true)   \
    X(min,         DOUBLE,  row.summary.min,        1, true)   \
    X(median,      DOUBLE,  row.summary.median,     1, true)   \
    X(mean,        DOUBLE,  row.summary.mean,       1, true)   \
    X(stddev,      DOUBLE,  row.summary.stddev,     1, true)   \
    X(delta_pct,   DOUBLE,  row.delta_pct,          1, true)   \
    X(comparisons, U64,     row.comparisons,        1, true)   \
    X(verified,    BOOL,    row.verified,           1, true)   \
    X(cv,          DOUBLE,  row.summary.cv,         0, true)   \
    X(median_lo,   DOUBLE,  row.summary.median_lo,  0, true)   \
    X(median_hi,   DOUBLE,  row.summary.median_hi,  0, true)   \
    X(outliers,    UINT,    row.summary.outliers,   0, true)   \
    X(delta_lo,    DOUBLE,  row.delta_lo,           0, true)   \
    X(delta_hi,    DOUBLE,  row.delta_hi,           0, true)   \
    X(noisy,       BOOL,    row.noisy,              0, true)   \
    X(failure,     TEXT,    row.failure,            0, true)   \
    X(mode,        TEXT,    mode,                   0, true)   \
    X(seed,        SEED,    seed,                   0, true)   \
    X(samples,     SAMPLES, row.samples,            0, true)   \
    X(units,       UNITS,   row.units,              0, true)   \
    X(incomplete,  BOOL,    incomplete,             0, true)   \
    X(batch,       UINT,    row.batch,              0, false)  \
    X(retaken,     UINT,    row.retaken,            0, false)  \
    X(near_units,  UINT,    row.near_units,         0, false)  \
    X(states,      STATES,  row.states,             0, true)   \
    X(run_id,      TEXT,    run_id,                 0, true)

/* The members of a state's object in the JSON files' `states` beside the columns' median,
** delta_pct, delta_lo and delta_hi, which give those figures of the state alone. */
#define QSB_STATE_SHARE_KEY "share"
#define QSB_STATE_PROCESSES_KEY "processes"

/* The column an earlier version wrote where `states` is now: readers accept it, say so once,
** and do not read it. */
#define QSB_OLD_MODES_COLUMN "modes"

typedef enum {
#define QSB_COLUMN_ENUM(name, type, field, required, csv) QSB_COLUMN_##name,
    QSB_RESULT_COLUMNS(QSB_COLUMN_ENUM)
#undef QSB_COLUMN_ENUM
    QSB_COLUMN_COUNT
} qsb_column_id;

typedef struct {
    const char *name;
    qsb_column_type type;
    size_t offset;  /* of the field in qsb_file_row */
    bool required;
    bool csv;       /* false: JSON only */
} qsb_column;

extern const qsb_column qsb_columns[QSB_COLUMN_COUNT];

/* A column's name, from the table: the one place it is spelled. */
#define QSB_COLUMN_NAME(id) (qsb_columns[QSB_COLUMN_##id].name)

/* The field of column c in row r. */
static inline void *qsb_column_field(const qsb_column *c, qsb_file_row *r)
{
    return (char *)r + c->offset;
}

/* ---- The JSON context's keys, declared once: the writer and the reader walk this table. ---- */

typedef enum {
    QSB_CTX_TEXT,    /* char *; null when NULL */
    QSB_CTX_NAME,    /* char *; absent when NULL */
    QSB_CTX_NUMBER,  /* double; null when unknown (NAN) */
    QSB_CTX_MEASURE, /* double, never negative; 0 when unknown (read from null or absent) */
    QSB_CTX_BOOL,    /* bool; left as it is when absent */
    QSB_CTX_SEED,    /* uint64_t; a number, read also from a 0x-hex string */
    QSB_CTX_CPU,     /* int: a CPU number, or -1 (null) for none */
    QSB_CTX_CACHES,  /* uint64_t[3]: L1d, L2, L3 bytes, 0 when unknown */
    QSB_CTX_SHARD,   /* shard_k and shard_n as "K/N"; absent for a whole run (0/0) */
    QSB_CTX_MATRIX,  /* qsb_matrix as {nelem, sizes, patterns, algos, seed, mode}, absent when
                     ** unknown: hand-written in report_json.c and read_json.c (its
                     ** lists, and its seed and mode checked against the context's) */
    QSB_CTX_TIME,    /* qsb_time_split as an object of QSB_TIME_PARTS, absent when unknown */
} qsb_context_type;

/* Who writes a key: every file, or a run (the machine's state and its repetition rules:
** written when the context has its repetitions, optional for readers). */
typedef enum { QSB_CTX_ALWAYS, QSB_CTX_RUN } qsb_context_group;

/* X(key, type, field of qsb_context, required by the reader, group). Only metric is
** required: the other keys are optional, so that files of earlier versions stay readable. */
#define QSB_CONTEXT_KEYS(X)                                             \
    X(tool_version,        TEXT,    tool_version,        0, ALWAYS)     \
    X(date,                TEXT,    date,                0, ALWAYS)     \
    X(host,                TEXT,    host,                0, ALWAYS)     \
    X(cpu_model,           TEXT,    cpu_model,           0, ALWAYS)     \
    X(caches,              TEXT,    caches,              0, ALWAYS)     \
    X(cache_bytes,         CACHES,  cache_bytes,         0, ALWAYS)     \
    X(libc,                TEXT,    libc,                0, ALWAYS)     \
    X(compiler,            TEXT,    compiler,            0, ALWAYS)     \
    X(build_flags,         TEXT,    build_flags,         0, ALWAYS)     \
    X(build_type,          TEXT,    build_type,          0, ALWAYS)     \
    X(timer,               TEXT,    timer,               0, ALWAYS)     \
    X(timer_resolution_ns, MEASURE, timer_resolution_ns, 0, ALWAYS)     \
    X(tsc_hz,              MEASURE, tsc_hz,              0, ALWAYS)     \
    X(metric,              TEXT,    metric,              1, ALWAYS)     \
    X(seed,                SEED,    seed,                0, ALWAYS)     \
    X(mode,                TEXT,    mode,                0, ALWAYS)     \
    X(command_line,        TEXT,    command_line,        0, ALWAYS)     \
    X(run_id,              NAME,    run_id,              0, ALWAYS)     \
    X(incomplete,          BOOL,    incomplete,          0, ALWAYS)     \
    X(governor,            TEXT,    governor,            0, RUN)        \
    X(turbo,               TEXT,    turbo,               0, RUN)        \
    X(load_average,        NUMBER,  load_average,        0, RUN)        \
    X(pinned_cpu,          CPU,     pinned_cpu,          0, RUN)        \
    X(release_build,       BOOL,    release_build,       0, RUN)        \
    X(sanitized,           BOOL,    sanitized,           0, RUN)        \
    X(repetitions,         TEXT,    repetitions,         0, RUN)        \
    X(precision_pct,       NUMBER,  precision_pct,       0, RUN)        \
    X(budget_s,            NUMBER,  budget_s,            0, RUN)        \
    X(warmup,              TEXT,    warmup,              0, RUN)        \
    X(nelem_source,        TEXT,    nelem_source,        0, RUN)        \
    X(memory_bound_bytes,  NUMBER,  memory_bound_bytes,  0, RUN)        \
    X(memory_peak_bytes,   NUMBER,  memory_peak_bytes,   0, RUN)        \
    X(placement,           TEXT,    placement,           0, RUN)        \
    X(drift_ratios,        NUMBER,  drift_ratios,        0, RUN)        \
    X(drift_medians,       NUMBER,  drift_medians,       0, RUN)        \
    X(machine,             NAME,    machine,             0, ALWAYS)     \
    X(shard,               SHARD,   shard_k,             0, ALWAYS)     \
    X(matrix,              MATRIX,  matrix,              0, ALWAYS)     \
    X(time_s,              TIME,    time,                0, ALWAYS)

typedef enum {
#define QSB_CONTEXT_ENUM(key, type, field, required, group) QSB_CONTEXT_##key,
    QSB_CONTEXT_KEYS(QSB_CONTEXT_ENUM)
#undef QSB_CONTEXT_ENUM
    QSB_CONTEXT_KEY_COUNT
} qsb_context_key_id;

typedef struct {
    const char *key;
    qsb_context_type type;
    size_t offset; /* of the field in qsb_context */
    bool required;
    qsb_context_group group;
} qsb_context_key;

extern const qsb_context_key qsb_context_keys[QSB_CONTEXT_KEY_COUNT];

/* The field of key k in context c. */
static inline void *qsb_context_field(const qsb_context_key *k, qsb_context *c)
{
    return (char *)c + k->offset;
}

/* The members of "time_s" (seconds; all of them present when it is): X(key, field of
** qsb_time_split). */
#define QSB_TIME_PARTS(X)     \
    X(wall,    wall_s)        \
    X(timed,   timed_s)       \
    X(counted, counted_s)     \
    X(warmups, warmup_s)      \
    X(retaken, retaken_s)     \
    X(inputs,  inputs_s)      \
    X(copies,  copies_s)      \
    X(checks,  checks_s)

typedef struct {
    const char *key;
    size_t offset; /* of the field in qsb_time_split */
} qsb_time_part;

#define QSB_TIME_PART_COUNT 8
extern const qsb_time_part qsb_time_parts[QSB_TIME_PART_COUNT];

/* How one format reads a column's value: each function reads column c of the row the
** reader's ctx points at into out, and returns QSB_OK or a status it reported. `unfit`
** reports a whole number that does not fit its column, `why` as the format says it after
** "not" ("a size (>= 1)"). */
typedef struct {
    int (*text)(void *ctx, const qsb_column *c, char **out);
    int (*count)(void *ctx, const qsb_column *c, uint64_t *out);
    int (*number)(void *ctx, const qsb_column *c, double *out);
    int (*flag)(void *ctx, const qsb_column *c, bool *out);
    int (*seed)(void *ctx, const qsb_column *c, uint64_t *out, int *found);
    int (*samples)(void *ctx, const qsb_column *c, qsb_file_row *r);
    int (*units)(void *ctx, const qsb_column *c, qsb_row *r);
    int (*states)(void *ctx, const qsb_column *c, qsb_row *r);
    int (*unfit)(void *ctx, const qsb_column *c, const char *why);
} qsb_column_reader;

/* Reads column c into r through the format's functions; the checks every format shares
** (a size is at least 1, 32-bit counts fit) are made here. */
int qsb_read_column(const qsb_column_reader *in, void *ctx, const qsb_column *c,
                    qsb_file_row *r);

/* Row `index` of cell as a file states it, for the writers: strings and samples point into
** r (nothing is owned; do not free). As written, the baseline's own deltas and a verified
** row's failure are unknown. */
void qsb_file_row_view(const qsb_results *r, const qsb_cell *cell, size_t index,
                       qsb_file_row *out);

/* An empty row, for the readers: unknown (NAN) summary and deltas, as a file leaves them. */
void qsb_file_row_init(qsb_file_row *r);
/* Frees what the row owns and empties it. */
void qsb_file_row_free(qsb_file_row *r);

#endif
