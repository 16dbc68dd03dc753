/*
** The history database: every run kept with the commit it measured, so that a series of
** runs (one machine, one cell, one algorithm) can be looked at as a whole (detect.h) and
** shown. One SQLite file (docs/formats.md, "The history database"):
**
**   - its schema is versioned (PRAGMA user_version) and migrated forward on open; a file of
**     a newer schema, a file that is not a database, or a database of another application
**     is refused with one line, QSB_EUSAGE;
**   - a rollback journal with a busy timeout: several processes may add at once, each
**     waiting its turn; a reader needs nothing but the file (QSB_HISTORY_READ);
**   - every add is one transaction: a process killed at any moment leaves the file intact
**     and each run either wholly in or wholly out.
**
** Functions report their own errors through diag and return a status (QSB_OK, QSB_EUSAGE
** for a bad file or bad input, QSB_ESYSTEM for I/O and memory).
*/
#ifndef QSB_HISTORY_H
#define QSB_HISTORY_H

#include <stddef.h>
#include <stdbool.h>
#include <stdint.h>

#include "result.h"
#include "trend.h"

#define QSB_HISTORY_DEFAULT_PATH "results/history.sqlite"
#define QSB_HISTORY_SCHEMA 2 /* the newest schema this build reads and writes */

typedef struct qsb_history qsb_history;

typedef enum {
    QSB_HISTORY_READ,     /* read only (list, show, detect, report): the file must exist and
                          ** be a history of this schema; nothing is written, no journal made,
                          ** so a downloaded file or a read-only directory serves */
    QSB_HISTORY_CREATE    /* opened to write, created when missing (add, run --history,
                          ** bisect) */
} qsb_history_open_mode;

/* Opens (or creates) the database at path; to write, brings its schema to
** QSB_HISTORY_SCHEMA. A file this call created is removed again when it fails. */
int qsb_history_open(const char *path, qsb_history_open_mode mode, qsb_history **out);
void qsb_history_close(qsb_history *h);

/* Closes h after a failure: the database file is removed when its open created it (an add
** that failed leaves no empty history behind), else left as it was. */
void qsb_history_discard(qsb_history *h);

/* What a run is filed under, beside its own context. */
typedef struct {
    const char *commit;  /* the revision measured */
    const char *date;    /* its date, ISO 8601 as given or as git gives it */
    int64_t time;        /* the same moment, seconds since the epoch (the series' order) */
    const char *branch;  /* NULL: not known */
    const char *machine; /* NULL: the results' machine name (qsb_machine_name) */
    const char *source;  /* the results file it was read from; NULL for a run just made */
    int64_t depth;       /* the commit's place in the ancestry (stamp.h); 0: not known */
    bool dirty;          /* the checkout had uncommitted changes */
} qsb_history_stamp;

/* Adds runs[0..n-1] with their stamps in one transaction: all of them, or on any failure
** none. ids (may be NULL) gets each run's id. A run filed already (the same start, host and
** command line, as its file gives them), or a commit given a date other than the one it is
** filed under, is refused: one line, QSB_EUSAGE, nothing added. */
int qsb_history_add(qsb_history *h, const qsb_results *runs, const qsb_history_stamp *stamps,
                    size_t n, int64_t *ids);

/* ---- reading ---- */

typedef struct {
    int64_t id;
    char *commit, *date, *machine, *command_line, *metric;
    size_t cells;
    int incomplete; /* interrupted: only the cells it finished */
    int dirty;      /* measured with uncommitted changes to its commit */
} qsb_history_run;

/* Every run, in the series' order (the commits' ancestry when every run's is known, then
** commit time, then the order they were added); *runs malloc'd, freed with
** qsb_history_runs_free. machine NULL: every machine. */
int qsb_history_runs(qsb_history *h, const char *machine, qsb_history_run **runs, size_t *n);
void qsb_history_runs_free(qsb_history_run *runs, size_t n);

/* One point of a series: one row of one run. */
typedef struct {
    int64_t run_id;
    const char *commit, *date, *machine, *metric; /* owned by the series */
    int64_t time;
    int64_t depth;                     /* the commit's place in the ancestry; 0: not known */
    int incomplete;                    /* its run was interrupted */
    int baseline;                      /* the row is its run's baseline (no delta) */
    int verified;
    double median, median_lo, median_hi; /* NAN when unknown */
    double delta_pct, delta_lo, delta_hi;
    const char *states;                /* the row's speed states as read (the report echoes
                                       ** them), or NULL */
    const qsb_state_estimate *state;   /* ... read once by the reader: nstates of them, 0 when
                                       ** there are none or the text is not well formed */
    size_t nstates;
    size_t nsamples;
    const double *samples;
} qsb_history_point;

/* A series: one machine, one metric, one cell, one algorithm, in commit order: by the
** commits' ancestry when every point's is known, then by commit time, then by run. */
typedef struct {
    const char *machine, *metric, *pattern, *algorithm;
    uint64_t nelem, size;
    qsb_history_point *points;
    size_t n;
    struct qsb_history_store *store; /* texts and samples (private) */
} qsb_history_series;

/* Which runs a walk takes: the complete ones (what a step fit judges: an interrupted run
** holds the cells it finished, measured under other conditions), or every run. */
typedef enum { QSB_HISTORY_COMPLETE_RUNS, QSB_HISTORY_EVERY_RUN } qsb_history_runs_taken;

typedef struct {
    const char *pattern;
    uint64_t nelem, size;
    const char *algorithm; /* NULL: every algorithm */
    const char *machine;   /* NULL: every machine */
    qsb_history_runs_taken runs;
} qsb_history_filter;

/* Calls visit once per series matching the filter (its points with samples when detail is
** QSB_HISTORY_SAMPLES), in (pattern, nelem, size, algorithm, machine, metric) order. The
** series and its texts are valid during the visit only. A visit returning non-zero stops the
** walk with that status. */
typedef enum { QSB_HISTORY_NO_SAMPLES, QSB_HISTORY_SAMPLES } qsb_history_detail;
typedef int (*qsb_history_visit)(void *ctx, const qsb_history_series *series);
int qsb_history_walk(qsb_history *h, const qsb_history_filter *filter,
                     qsb_history_detail detail, qsb_history_visit visit, void *ctx);

/* The cells the database holds (every machine when machine is NULL), for messages: "random/
** 1000/4, sorted/1000/4" in buf, cut with "..." when longer. Returns how many there are. */
size_t qsb_history_cells_text(qsb_history *h, const char *machine, char *buf, size_t len);

/* Is a run of this context (its date, host and command line: the key a run is filed once
** under) in the database already? A run is never judged against itself; a context without a
** date is not known to be. QSB_OK or an error (reported). */
int qsb_history_holds_run(qsb_history *h, const qsb_context *c, bool *held);

/* QSB_OK when machine is NULL or has a run in the database; else one line naming the
** machines there are, QSB_EUSAGE: a typo must not read as a history without steps. */
int qsb_history_check_machine(qsb_history *h, const char *machine);

/* The algorithms of one cell the same way. */
size_t qsb_history_algorithms_text(qsb_history *h, const qsb_history_filter *cell, char *buf,
                                   size_t len);

/* The trend of the database at path (which must exist), for the report (trend.h): every
** series of candidate deltas per machine and cell, each cell's runs in commit order as its
** axis, the states of each run in words, and the steps `history detect` finds in each series
** (detect.h). QSB_OK, QSB_EUSAGE (a bad database) or QSB_ESYSTEM, reported. The trend is
** freed with qsb_trend_free (also after a failure). */
int qsb_trend_load(const char *path, qsb_trend *out);
void qsb_trend_free(qsb_trend *t);

#endif
