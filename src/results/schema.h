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
**   its context's incomplete from it.
**
** JSON: {"schema_version": 1, "context": {...}, "baseline": NAME, "results": [...]}
** - each result has the columns as members, in this order: numbers as numbers, NAN as null,
**   booleans as bools, failure null when verified, samples and units arrays (units absent
**   when unknown);
** - context: tool_version, date, host, cpu_model, caches, cache_bytes [L1d, L2, L3], libc,
**   compiler, build_flags, build_type, timer, tsc_hz, metric, seed (number), mode,
**   command_line, incomplete (bool); then, written by the run and optional for readers:
**   timer_resolution_ns, governor, turbo, load_average, pinned_cpu (number or null),
**   release_build, sanitized (bools), repetitions, precision_pct, budget_s, warmup,
**   nelem_source, placement, drift_ratios, drift_medians (the time level's factors, null
**   when unknown); and (issue 18, optional for readers) machine (the name merged
**   files keep machines apart by; the host when not given), shard ("K/N", absent or null for
**   a whole run) and matrix {nelem, sizes, patterns, algos, seed, mode}: the whole matrix a
**   shard belongs to (the lists in the run's order); and (issue 14, optional) time_s {wall,
**   timed, counted, warmups, retaken, inputs, copies, checks}: where the wall time went
**   (result.h qsb_time_split).
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
    uint64_t nelem, size, seed;
    uint64_t reps;   /* must equal the samples' count when the file gives samples */
    int has_seed;
    int has_samples;
    bool incomplete; /* the run's context: interrupted, the cells are those finished */
    char where[48];  /* where the row is, appended to the path: ":12" or ": results[3]" */
} qsb_file_row;

typedef enum {
    QSB_COL_TEXT,    /* char *; required: not empty; optional: NULL when absent (CSV: empty) */
    QSB_COL_U64,     /* uint64_t */
    QSB_COL_SIZE,    /* uint64_t, at least 1 */
    QSB_COL_UINT,    /* unsigned, below 2^32 */
    QSB_COL_ULONG,   /* unsigned long, below 2^32 */
    QSB_COL_DOUBLE,  /* double, NAN when unknown (CSV: empty; JSON: null) */
    QSB_COL_BOOL,    /* bool: true or false */
    QSB_COL_SEED,    /* uint64_t and has_seed; CSV 0x-hex, JSON a number or a 0x-hex string */
    QSB_COL_SAMPLES, /* row.samples[row.nsamples] and has_samples; CSV joined by ';' */
    QSB_COL_UNITS,   /* row.units, one per sample, NULL when unknown; CSV joined by ';' */
} qsb_column_type;

/* X(name, type, field of qsb_file_row, required by the readers, in the CSV too). The 14
** required columns are the command-line contract (spec/cli.md); the others are optional for
** readers, so that files of earlier versions stay readable. */
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
    X(batch,       ULONG,   row.batch,              0, false)  \
    X(retaken,     ULONG,   row.retaken,            0, false)  \
    X(near_units,  ULONG,   row.near_units,         0, false)

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

/* The field of column c in row r. */
static inline void *qsb_column_field(const qsb_column *c, qsb_file_row *r)
{
    return (char *)r + c->offset;
}

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

/* An empty row at `where`, for the readers: unknown (NAN) summary and deltas, as a file
** leaves them. */
void qsb_file_row_init(qsb_file_row *r, const char *where);
void qsb_file_rows_free(qsb_file_row *rows, size_t n); /* each row, then the array */

#endif
