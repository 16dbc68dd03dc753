/*
** The one result structure: the context of a run, its cells, and in each cell one row per
** algorithm with every sample. The run fills it; the table, CSV and JSON reporters write it;
** the CSV and JSON readers fill it back (compare, plot). Nothing else carries results. The
** files' columns are the schema's table (schema.h).
**
** Strings are owned by the structure and freed by qsb_results_free(): each one malloc'd, or,
** in results read from a file, kept in the results' store (below).
*/
#ifndef QSB_RESULT_H
#define QSB_RESULT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "states.h" /* qsb_state_estimate */
#include "stats.h"  /* qsb_summary */

#define QSB_SCHEMA_VERSION 1
/* Fleet files (merged results of several machines, report.h) carry schema_version 2: a reader
** of version 1 only refuses them clearly instead of misreading them. */
#define QSB_FLEET_SCHEMA_VERSION 2
#define QSB_MAX_SHARDS 4096 /* run --shard K/N: N at most this */

/* The whole matrix of a run (of every shard of it): the lists as given. n_* all 0: unknown (a
** CSV file, or a file written before the fleet fields). */
typedef struct {
    uint64_t *nelem;
    size_t n_nelem;
    uint64_t *sizes;
    size_t n_sizes;
    char **patterns;      /* each malloc'd */
    size_t n_patterns;
    char **algos;         /* each malloc'd; algos[0] is the baseline */
    size_t n_algos;
} qsb_matrix;

/* Where a run's wall time went, in seconds: inside the sorts (timed, counted, warm-ups and
** batch probes, retaken) and outside them (inputs, copies into the work buffer, checks); the
** rest of wall_s is the harness's (starting worker processes, statistics, files). A run with
** worker processes sums its workers' sorts, copies and checks, and their inputs with its own.
** wall_s 0 or NAN: unknown (JSON only, optional; a pooled or merged file sums its parts). */
typedef struct {
    double wall_s;
    double timed_s, counted_s, warmup_s, retaken_s;
    double inputs_s, copies_s, checks_s;
} qsb_time_split;

/* part added into *sum; an unknown part makes the sum unknown. */
void qsb_time_split_add(qsb_time_split *sum, const qsb_time_split *part);

typedef struct {
    char *tool_version;
    char *date;           /* UTC, ISO 8601 */
    char *host;
    char *cpu_model;
    char *caches;         /* human form, e.g. "L1d 64 KiB (2), L2 1 MiB (2), L3 32 MiB (1)" */
    uint64_t cache_bytes[3]; /* total L1d, L2, L3 capacity in bytes; 0 when unknown */
    char *libc;
    char *compiler;
    char *build_flags;
    char *build_type;
    char *timer;          /* "rdtscp", "clock_gettime(CLOCK_MONOTONIC_RAW)", or "none" (the
                          ** comparisons metric times nothing) */
    double tsc_hz;        /* cycles per second when the metric is cycles, else 0 */
    double timer_resolution_ns; /* one tick of the timer; 0 when unknown (JSON, optional) */
    char *metric;         /* "cycles", "ns" or "comparisons" */
    uint64_t seed;
    char *mode;           /* "default" or "glibc-bench-2021" */
    char *command_line;
    char *run_id;         /* 16 hex digits, one run's own (run_context.h); a merge's is its
                          ** inputs' XORed; NULL when unknown (files of earlier versions) */
    bool incomplete;      /* interrupted: the cells are those finished */
    /* Noise control (JSON only, optional; readers may ignore them): */
    char *governor;       /* cpufreq scaling governor, "unknown" when not readable */
    char *turbo;          /* "on", "off" or "unknown" */
    double load_average;  /* 1-minute load average at the start; NAN when unknown */
    int pinned_cpu;       /* --pin CPU; -1 when not pinned (JSON null) */
    bool release_build;   /* built as Release (or RelWithDebInfo): optimised timings */
    bool sanitized;       /* built with ASan/UBSan: timings meaningless */
    char *repetitions;    /* how cells were repeated: "adaptive: ..." or "fixed: N rounds" */
    double precision_pct; /* the precision target of the noisy flag; NAN when unknown */
    double budget_s;      /* the run's time budget; NAN with --reps */
    double memory_bound_bytes; /* the bound on the run's memory (--memory); NAN when unknown */
    double memory_peak_bytes;  /* the run's peak as planned within it; NAN when unknown */
    char *warmup;         /* "auto" or the count */
    char *nelem_source;   /* where the element counts came from (run_config.h) */
    char *placement;      /* the placement scheme of the timed sorts (placement.h) */
    double drift_ratios;  /* the time level's factors (stats.h qsb_drift) by which the deltas' */
    double drift_medians; /* and the medians' intervals were widened; NAN when unknown */
    /* The fleet fields (JSON only, optional): */
    char *machine;        /* the machine's name in merged files; NULL: unknown (use host) */
    uint32_t shard_k, shard_n; /* this run is shard K of N (1-based); 0/0: the whole matrix */
    qsb_matrix matrix;    /* the whole matrix; unknown when n_nelem is 0 */
    qsb_time_split time;  /* where the wall time went (the time split; JSON only, optional) */
} qsb_context;

/* Whether a candidate's delta differs between its baseline's states (states.h,
** qsb_states_delta_p below QSB_STATES_DELTA_ALPHA), as the run that found the states tested
** it; the files do not carry it, so a row read back is untested. */
typedef enum {
    QSB_STATES_DELTA_UNTESTED,
    QSB_STATES_DELTA_ONE,     /* no difference found */
    QSB_STATES_DELTA_DIFFERS,
} qsb_states_delta;

typedef struct {
    char *algorithm;     /* registry or plug-in name */
    double *samples;     /* one per round, in round order, in the run's metric */
    uint32_t *units;     /* units[i]: the unit (placement: a fresh load of the sorts, fresh
                         ** buffers, a moment of the run) that sample i was taken in, 0, 1, ...
                         ** within the cell; NULL when unknown (a file without units) */
    size_t nsamples;
    qsb_summary summary;
    double delta_pct;    /* paired delta against the cell's baseline; NAN for the baseline */
    double delta_lo, delta_hi; /* its 95% interval; NAN when unknown */
    uint64_t comparisons; /* comparator calls of one (separate, counted) sort */
    /* The flags and counts side by side, where they share words: a file of millions of rows
    ** holds millions of these. The counts are below 2^32, as the files allow. */
    bool verified;
    bool noisy;          /* the precision target was not reached, or the machine was slowed
                         ** for most of the samples (docs/measurement.md, "Slowed samples") */
    uint8_t states_delta; /* qsb_states_delta, in the padding after the flags */
    uint8_t nstates;      /* the states' count: 0, or 2 .. QSB_STATES_MAX */
    unsigned batch;      /* sorts timed back to back per sample (a sample is their time / batch);
                         ** 0 when unknown (JSON only, optional) */
    unsigned retaken;    /* sorts timed again because the process lost the CPU during them
                         ** or the machine slowed them (run.h; JSON only, optional) */
    unsigned near_units; /* units in which the sort's code and the comparator shared a
                         ** 16 MiB-aligned region (placement.h; JSON only, optional) */
    unsigned slowed;     /* a baseline's units the machine slowed beyond their speed's spread,
                         ** too few for a state (qsb_states.slowed); of a run just made, not in
                         ** the files */
    char *failure;       /* NULL when verified, else why ("not sorted at index 12") */
    qsb_state_estimate *states; /* NULL, or the row's nstates states over units (pool.h),
                         ** fastest first, their numbers rounded as the files write them
                         ** (qsb_states_round): a row's states read the same from every file */
} qsb_row;

/* A row as compare holds it (qsb_read_compare_results, read_results.h): what compare reads of
** a row in 40 bytes instead of a qsb_row's 160, so that comparing two files of millions of
** rows holds them in under three times their size. The texts and arrays are in the results'
** store; qsb_slim_row_view gives the row as a qsb_row. */
typedef struct {
    const char *algorithm;
    const void *block;    /* nsamples doubles, then nstates states, then (has_units) nsamples
                          ** units as uint32_t, then (has_failure) the failure's text ending
                          ** in a NUL; NULL when all are absent */
    double median;        /* the file's summary median */
    uint64_t comparisons;
    uint32_t nsamples;
    uint8_t verified, has_units, has_failure, nstates;
} qsb_slim_row;

typedef struct {
    char *pattern;       /* lowercase name */
    uint64_t nelem;
    uint64_t size;
    union {
        qsb_row *rows;      /* rows[0] is the baseline */
        qsb_slim_row *slim; /* when slim_rows: the rows as compare holds them */
    };
    uint32_t nrows;         /* a cell's rows are its algorithms: far below 2^32 */
    bool slim_rows;
} qsb_cell;

/* Large blocks that results read from a file keep their cells' and rows' texts and arrays
** in: a file of millions of rows would otherwise cost a malloc (and its overhead) per name
** and per array, and a copy of the same few names per row. */
typedef struct qsb_store qsb_store;

/* size bytes from the store (created when *store is NULL), aligned for a double; NULL when
** out of memory. Freed only with the whole store. */
void *qsb_store_alloc(qsb_store **store, size_t size);
/* Moves every block of *from into *into (*from is left NULL). */
void qsb_store_join(qsb_store **into, qsb_store **from);

typedef struct {
    qsb_context context;
    char *baseline;      /* name of the baseline algorithm */
    qsb_cell *cells;
    size_t ncells;
    qsb_store *store;    /* NULL: every cell and row owns its texts and arrays (malloc'd);
                         ** else all of them are in it (read results) and the rows own none:
                         ** rows are not added to, nor their texts replaced */
} qsb_results;

void qsb_results_free(qsb_results *r);

/* The name that keeps a machine apart in merged files: context.machine, else the host, else
** "unknown". */
const char *qsb_machine_name(const qsb_context *c);

/* A deep copy of src into *dst (which is overwritten); 0, or -1 when out of memory. */
int qsb_matrix_copy(qsb_matrix *dst, const qsb_matrix *src);
/* Deep copy of a whole context, for merge; 0 or -1 when out of memory (then dst is freed). */
int qsb_context_copy(qsb_context *dst, const qsb_context *src);

/* Building results (result.c), for the run and the readers. Functions returning int give 0,
** or -1 when out of memory, and report nothing: the caller reports. */

/* Replaces *field with a copy of value (NULL stays NULL). */
int qsb_set_string(char **field, const char *value);

/* Both NULL, or both the same text. */
bool qsb_same_text(const char *a, const char *b);

/* The cell of r with like's pattern, element count and size, or NULL. */
const qsb_cell *qsb_results_find_cell(const qsb_results *r, const qsb_cell *like);

/* A walk over the rows of r, cell by cell, in their order, so that a writer needs one loop:
**     for (qsb_row_cursor at = {0}; qsb_results_next_row(r, &at);)
**         write(at.cell, at.i);
** Returns false after the last row. */
typedef struct {
    const qsb_cell *cell;
    const qsb_row *row;  /* &cell->rows[i] */
    size_t c, i;         /* the cell's place in r, the row's in its cell */
} qsb_row_cursor;
bool qsb_results_next_row(const qsb_results *r, qsb_row_cursor *at);

/* The rows of every cell of r. */
size_t qsb_results_row_count(const qsb_results *r);

/* Appends a cell with nrows rows, each initialised by qsb_row_init(algorithms[i]); returns
** it, or NULL when out of memory (r is unchanged then). Pointers to earlier cells may move. */
qsb_cell *qsb_results_add_cell(qsb_results *r, const char *pattern, uint64_t nelem,
                               uint64_t size, const char *const *algorithms, size_t nrows);

/* A deep copy of src into *dst (overwritten), every text and array its own (no store); 0, or
** -1 when out of memory (then dst is freed). */
int qsb_results_copy(qsb_results *dst, const qsb_results *src);

/* Removes and frees the last cell (an interrupted one). */
void qsb_results_drop_last_cell(qsb_results *r);

/* An empty, verified row: no samples, summary and deltas NAN, comparisons 0. */
int qsb_row_init(qsb_row *row, const char *algorithm);
/* Appends a sample taken in the given unit (units start at 0 in each cell). */
int qsb_row_add_sample(qsb_row *row, double value, uint32_t unit);

/* How many units the row's samples come from (the largest unit + 1); 0 when unknown. */
size_t qsb_row_unit_count(const qsb_row *row);

/* Row i's algorithm, whether the cell's rows are full or slim. */
const char *qsb_cell_algorithm(const qsb_cell *cell, size_t i);

/* The slim row as a qsb_row that owns nothing (its pointers are into the row's block, its
** summary NAN but for the median, its deltas NAN); not to be freed. */
void qsb_slim_row_view(const qsb_slim_row *slim, qsb_row *row);

/* Frees what the row owns (algorithm, samples, units, failure, states) and zeroes it. */
void qsb_row_free(qsb_row *row);

/* Marks the row failed with the reason (copied). */
int qsb_row_fail(qsb_row *row, const char *reason);

/* The widest of row i's reported intervals (its median's; its delta's when the cell's
** baseline is verified) as a half-width in % of the value; INFINITY when one is missing.
** What the noisy flag compares with the precision target. */
double qsb_row_interval_pct(const qsb_cell *cell, size_t i);

/* The time level of a result whose units are numbered in time order (the units of one
** process, or the worker processes of a run; stats intervals.h): every verified row's units
** pooled into two factors (>= 1), one for the deltas (paired ratios) and one for the medians,
** recorded in the context (drift_ratios, drift_medians), and every interval widened by them
** on the log scale (docs/measurement.md, "The time level"). Returns 0, or -1 when out of
** memory. */
int qsb_widen_for_time(qsb_results *r);

#endif
