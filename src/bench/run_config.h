/*
** The configuration of a benchmark run: what the bench reads, the matrix and how it is
** measured, parsed from the `run` options (commands/run_options.h, which keeps the outputs,
** the gate's level and the history for the command). Every list in it is resolved and checked
** (names found, numbers in range, --nelem auto read from sysfs), so the run never sees a name
** or a string it must interpret.
*/
#ifndef QSB_RUN_CONFIG_H
#define QSB_RUN_CONFIG_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "patterns.h"
#include "registry.h"
#include "rng.h"
#include "stats.h"

typedef enum {
    QSB_METRIC_CYCLES,     /* TSC cycles (an invariant TSC is required) */
    QSB_METRIC_NS,         /* CLOCK_MONOTONIC_RAW nanoseconds */
    QSB_METRIC_COMPARISONS /* comparator calls: exact, no timing */
} qsb_metric;

const char *qsb_metric_name(qsb_metric metric); /* "cycles", "ns", "comparisons" */

/* The seed's counts, used when --nelem auto finds no cache in sysfs. */
#define QSB_FALLBACK_NELEM "49152:786432:8388608"
/* Worker processes: at most this many, given (--processes N) or bought by the budget. */
#define QSB_MAX_PROCESSES 10000u
/* How many of them run at once without --jobs: "1" (one after the other) or "auto" (one per
** CPU the process may use). This is the one place that decides it. Side by side gives a run
** about twice the processes on two CPUs; it becomes the default only once a calibration on a
** quiet machine holds (two runs side by side, then two alone, `compare --calibration`:
** docs/measurement.md, "Workers side by side"). */
#define QSB_JOBS_DEFAULT "1"
#define QSB_MAX_JOBS 64 /* workers in flight at once (workers.h watches at most that many) */

/* Where the element counts came from (recorded in the context as nelem_source). */
typedef enum {
    QSB_NELEM_GIVEN,    /* --nelem LIST */
    QSB_NELEM_SYSFS,    /* --nelem auto: the caches in sysfs */
    QSB_NELEM_FALLBACK  /* --nelem auto without cache sizes in sysfs: the seed's counts */
} qsb_nelem_source;

/* How --nelem auto chose its counts (auto_nelem.h): for the run's first line, `info` and the
** results' context. */
typedef struct {
    unsigned level[3];       /* the cache level of each count (0 L1d, 1 L2, 2 L3) */
    uint64_t cache_bytes[3]; /* that level's total capacity */
    bool capped;             /* the largest count is the cover letter's, below its size / 8 */
    unsigned halvings;       /* times the largest count was halved to fit the run */
    bool for_memory;         /* ... to fit the memory bound (else the budget) */
    double budget_s;         /* the budget it was fitted to */
} qsb_nelem_choice;

/* The worker protocol (workers.h): what a run tells each of its worker processes on the
** command line, written and read with the table of worker_protocol.h, and the command line
** it starts them with. In a process that is not a worker every field but argv_head is zero. */
typedef struct {
    uint64_t index;         /* --worker K:SLICE: this process is worker K (from 1) of a run, */
    double slice_s;         /* one visit per cell with SLICE seconds of rounds */
    double tsc_hz;          /* --tsc-hz: the TSC frequency from the run; 0: calibrate */
    int inputs_fd;          /* --inputs-fd: the inputs from the run (shared_inputs.h); 0: none
                            ** (the run's file is never a standard stream) */
    int visit_fd;           /* --visit-fd: where the worker records its visits for the run
                            ** (visit_record.h); 0: none */
    const char *model_path; /* --model: a later worker's model (run.h); NULL: none */
    char **argv_head;       /* the run's side: its workers' command line up to their own
                            ** options, "run" and the options that decide what is measured
                            ** (malloc'd, as are its strings; NULL-terminated) */
} qsb_worker_protocol;

typedef struct {
    uint64_t *nelem;    /* element counts, in the order given (malloc'd) */
    size_t n_nelem;
    qsb_nelem_source nelem_source;
    qsb_nelem_choice nelem_choice; /* with --nelem auto from sysfs */
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
    qsb_metric metric;
    qsb_mode mode;
    bool quiet;             /* no progress line */
    char *command_line;     /* "qsortbench run --nelem ...", for the results (malloc'd) */
    bool fail_above;        /* --fail-above PCT given: the command gates the candidates, so
                            ** the run spends its whole budget */
    double precision_pct;   /* --precision: target half-width of every 95% interval, % of its
                            ** estimate (where the budget goes; the noisy flag) */
    double budget_s;        /* --budget: seconds for the whole run; 0 = auto (plan.h) */
    int placement;          /* --placement: qsb_placement_regime (placement.h) */
    bool reload;            /* a fresh placement of the sorts per unit (not --no-reload) */
    uint64_t warmup;        /* --warmup: untimed sorts per cell and algorithm, or
                            ** QSB_WARMUP_AUTO */
    int pin_cpu;            /* --pin: the CPU to run on, checked available; -1 = not pinned */
    uint64_t batch;         /* --batch: sorts timed back to back per sample; 0 = chosen per
                            ** cell and algorithm (docs/measurement.md) */
    double slowed_pct;      /* --slowed: retake a short sort this % slower than its row's
                            ** fastest sample (docs/measurement.md); 0: never (default) */
    uint32_t shard_k, shard_n; /* --shard K/N; 0/0: the whole matrix */
    unsigned char *in_shard; /* with --shard: per cell of the matrix (matrix order), whether
                             ** this shard runs it (shard.h; malloc'd); NULL: every cell */
    const char *machine;    /* --machine NAME; NULL: the host's name is recorded */
    uint64_t processes;     /* --processes: worker processes (workers.h); 0 = auto */
    uint64_t jobs;          /* --jobs: worker processes at once (workers.h); at least 1 */
    uint64_t memory_bytes;  /* --memory: the bound on the run's memory (plan.h); 0: a
                            ** quarter of physical memory */
    qsb_worker_protocol worker; /* --worker and the options only a worker is given */
} qsb_run_config;

/* The cells this run visits: the matrix's, or its shard's. */
size_t qsb_run_config_cells(const qsb_run_config *cfg);

/* Walks those cells in the cover letter's order (pattern, then element size, then count):
**     qsb_cell_cursor at = {0};
**     while (qsb_run_config_next_cell(cfg, &at))
**         ... cfg->patterns[at.pattern], cfg->sizes[at.size], cfg->nelem[at.nelem] ...
** skipping another shard's cells (shard.h). */
typedef struct {
    size_t next;                 /* the next cell's ordinal in the whole matrix */
    size_t pattern, size, nelem; /* the current cell's indexes into the lists */
} qsb_cell_cursor;
bool qsb_run_config_next_cell(const qsb_run_config *cfg, qsb_cell_cursor *at);

/* The default warm-up: one untimed sort per algorithm at each visit of a cell whose
** sorts take less than QSB_WARMUP_AUTO_LIMIT_S, where the code and data are cold after the
** other cells and a sort costs little; none where sorts take longer: a cold start is a
** negligible part of such a sort, and at the first visit the counted sort (same input, same
** code, just before) has warmed up. */
#define QSB_WARMUP_AUTO UINT64_MAX
#define QSB_WARMUP_AUTO_LIMIT_S 0.02

void qsb_run_config_free(qsb_run_config *cfg);

#endif
