/*
** The history database read (history.h): the runs, the series walked in commit order, the
** names of the cells and algorithms it holds.
*/
#include "history.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "diag.h"
#include "grow.h"
#include "history_sql.h"
#include "option_names.h"
#include "samples_codec.h"

void qsb_history_runs_free(qsb_history_run *runs, size_t n)
{
    for (size_t i = 0; i < n && runs; i++) {
        free(runs[i].commit);
        free(runs[i].date);
        free(runs[i].machine);
        free(runs[i].command_line);
        free(runs[i].metric);
    }
    free(runs);
}

static int read_run(sqlite3_stmt *st, void *item)
{
    qsb_history_run *r = item;
    r->id = sqlite3_column_int64(st, 0);
    r->commit = qsb_sql_column_text(st, 1);
    r->date = qsb_sql_column_text(st, 2);
    r->machine = qsb_sql_column_text(st, 3);
    r->command_line = qsb_sql_column_text(st, 4);
    r->metric = qsb_sql_column_text(st, 5);
    r->cells = (size_t)sqlite3_column_int64(st, 6);
    r->incomplete = sqlite3_column_int(st, 7);
    r->dirty = sqlite3_column_int(st, 8);
    return r->commit && r->date && r->machine && r->command_line && r->metric
               ? QSB_OK : qsb_out_of_memory("the history's runs");
}

/* The first key of the runs' order: their commits' depth when no run of the database lacks
** one, else nothing (a constant). */
#define BY_ANCESTRY "CASE WHEN EXISTS(SELECT 1 FROM runs WHERE commit_depth IS NULL) THEN 0" \
                    " ELSE commit_depth END"

int qsb_history_runs(qsb_history *h, const char *machine, qsb_history_run **runs, size_t *n)
{
    void *items;
    /* by the ancestry when every run's is known (an ancestor's depth is smaller), else by
    ** commit time alone: the order of qsb_history_walk's series */
    int status = qsb_sql_select(h, machine ? "SELECT id, commit_rev, commit_date, machine,"
                                             " command_line, metric, cells, incomplete, dirty"
                                             " FROM runs WHERE machine = ?1 ORDER BY"
                                             " " BY_ANCESTRY ", commit_time, id"
                                           : "SELECT id, commit_rev, commit_date, machine,"
                                             " command_line, metric, cells, incomplete, dirty"
                                             " FROM runs ORDER BY " BY_ANCESTRY ","
                                             " commit_time, id",
                                machine, sizeof **runs, read_run, &items, n,
                                "reading the runs");
    *runs = items;
    if (status != QSB_OK) {
        qsb_history_runs_free(*runs, *n);
        *runs = NULL;
        *n = 0;
    }
    return status;
}

/* The texts and samples of one series, freed after its visit: one list of blocks. */
struct qsb_history_store {
    struct qsb_history_store *next;
    double align; /* what follows a block's header is aligned for doubles */
};

static void *store_alloc(struct qsb_history_store **store, size_t size)
{
    struct qsb_history_store *b = malloc(sizeof *b + size);
    if (!b)
        return NULL;
    b->next = *store;
    *store = b;
    return b + 1;
}

static const char *store_text(struct qsb_history_store **store, const char *text)
{
    if (!text)
        return NULL;
    size_t len = strlen(text) + 1;
    char *copy = store_alloc(store, len);
    return copy ? memcpy(copy, text, len) : NULL;
}

static void store_free(struct qsb_history_store *store)
{
    while (store) {
        struct qsb_history_store *next = store->next;
        free(store);
        store = next;
    }
}

static void bind_filter(sqlite3_stmt *st, const qsb_history_filter *f)
{
    if (f->pattern) {
        qsb_sql_bind_text(st, 1, f->pattern);
        sqlite3_bind_int64(st, 2, (sqlite3_int64)f->nelem);
        sqlite3_bind_int64(st, 3, (sqlite3_int64)f->size);
    }
    if (f->algorithm)
        qsb_sql_bind_text(st, 4, f->algorithm);
    if (f->machine)
        qsb_sql_bind_text(st, 5, f->machine);
}

/* The walk reads the runs once (a few per thousand rows), then each series' rows through
** the rows_series index, and orders a series' points itself: no join, and no sort of every
** row of the database by SQLite. */
typedef struct {
    int64_t id, time, depth;
    int incomplete;
    char *commit, *date, *machine, *metric;
} run_key;

typedef struct {
    run_key *runs; /* ascending id */
    size_t n;
} run_keys;

static void run_keys_free(run_keys *k)
{
    for (size_t i = 0; i < k->n; i++) {
        free(k->runs[i].commit);
        free(k->runs[i].date);
        free(k->runs[i].machine);
        free(k->runs[i].metric);
    }
    free(k->runs);
}

static int read_run_key(sqlite3_stmt *st, void *item)
{
    run_key *r = item;
    r->id = sqlite3_column_int64(st, 0);
    r->time = sqlite3_column_int64(st, 1);
    r->commit = qsb_sql_column_text(st, 2);
    r->date = qsb_sql_column_text(st, 3);
    r->machine = qsb_sql_column_text(st, 4);
    r->metric = qsb_sql_column_text(st, 5);
    r->depth = sqlite3_column_int64(st, 6); /* NULL reads as 0: not known */
    r->incomplete = sqlite3_column_int(st, 7);
    return r->commit && r->date && r->machine && r->metric
               ? QSB_OK : qsb_out_of_memory("the history's runs");
}

static int run_keys_load(qsb_history *h, const char *machine, run_keys *k)
{
    void *items;
    int status = qsb_sql_select(h, machine ? "SELECT id, commit_time, commit_rev, commit_date,"
                                             " machine, metric, commit_depth, incomplete"
                                             " FROM runs WHERE machine = ?1 ORDER BY id"
                                           : "SELECT id, commit_time, commit_rev, commit_date,"
                                             " machine, metric, commit_depth, incomplete"
                                             " FROM runs ORDER BY id",
                                machine, sizeof *k->runs, read_run_key, &items, &k->n,
                                "reading the runs");
    k->runs = items;
    if (status != QSB_OK)
        run_keys_free(k);
    return status;
}

static const run_key *run_key_find(const run_keys *k, int64_t id)
{
    size_t lo = 0, hi = k->n;
    while (lo < hi) {
        size_t mid = lo + (hi - lo) / 2;
        if (k->runs[mid].id < id)
            lo = mid + 1;
        else
            hi = mid;
    }
    return lo < k->n && k->runs[lo].id == id ? &k->runs[lo] : NULL;
}

/* Within one machine and metric, when every point's ancestry is known: by it, then by
** commit time and run. */
static int ancestry_order(const void *pa, const void *pb)
{
    const qsb_history_point *a = pa, *b = pb;
    if (a->depth != b->depth)
        return (a->depth > b->depth) - (a->depth < b->depth);
    if (a->time != b->time)
        return (a->time > b->time) - (a->time < b->time);
    return (a->run_id > b->run_id) - (a->run_id < b->run_id);
}

/* A series' points in the walk's order: machine, metric, then commit time and run (each
** part reordered by ancestry in visit_parts when it is known). */
static int point_order(const void *pa, const void *pb)
{
    const qsb_history_point *a = pa, *b = pb;
    int c = strcmp(a->machine, b->machine);
    if (!c)
        c = strcmp(a->metric, b->metric);
    if (!c)
        c = (a->time > b->time) - (a->time < b->time);
    if (!c)
        c = (a->run_id > b->run_id) - (a->run_id < b->run_id);
    return c;
}

static int series_grow(qsb_history_series *s, size_t *cap)
{
    return QSB_GROW(s->points, *cap, s->n + 1) == 0 ? QSB_OK : qsb_out_of_memory("a series");
}

static int point_samples(qsb_history *h, qsb_history_series *s, qsb_history_point *p,
                         sqlite3_stmt *st, int column)
{
    double *samples;
    const unsigned char *blob = sqlite3_column_blob(st, column);
    if (qsb_samples_decode(blob, (size_t)sqlite3_column_bytes(st, column), &samples,
                           &p->nsamples) != 0)
        return qsb_error(QSB_EUSAGE, "%s: run %lld holds samples that do not decode",
                         qsb_quote_path(h->path), (long long)p->run_id);
    double *kept = store_alloc(&s->store, p->nsamples * sizeof *kept + 1);
    if (!kept) {
        free(samples);
        return qsb_out_of_memory("a series");
    }
    if (p->nsamples)
        memcpy(kept, samples, p->nsamples * sizeof *kept);
    free(samples);
    p->samples = kept;
    return QSB_OK;
}

/* The rows of series `id` whose runs are in keys (the complete ones, or every one), into s
** (emptied first). */
static int series_read(qsb_history *h, sqlite3_stmt *st, int64_t id, const run_keys *keys,
                       qsb_history_runs_taken taken, qsb_history_detail detail,
                       qsb_history_series *s, size_t *cap)
{
    store_free(s->store);
    s->store = NULL;
    s->n = 0;
    sqlite3_bind_int64(st, 1, id);
    int status = QSB_OK, rc;
    while (status == QSB_OK && (rc = sqlite3_step(st)) == SQLITE_ROW) {
        const run_key *run = run_key_find(keys, sqlite3_column_int64(st, 0));
        if (!run || (run->incomplete && taken == QSB_HISTORY_COMPLETE_RUNS) ||
            (status = series_grow(s, cap)) != QSB_OK)
            continue;
        qsb_history_point *p = &s->points[s->n];
        memset(p, 0, sizeof *p);
        p->run_id = run->id;
        p->commit = run->commit;
        p->date = run->date;
        p->machine = run->machine;
        p->metric = run->metric;
        p->time = run->time;
        p->depth = run->depth;
        p->incomplete = run->incomplete;
        p->baseline = sqlite3_column_int(st, 1);
        p->verified = sqlite3_column_int(st, 2);
        p->median = qsb_sql_column_double(st, 3);
        p->median_lo = qsb_sql_column_double(st, 4);
        p->median_hi = qsb_sql_column_double(st, 5);
        p->delta_pct = qsb_sql_column_double(st, 6);
        p->delta_lo = qsb_sql_column_double(st, 7);
        p->delta_hi = qsb_sql_column_double(st, 8);
        if (sqlite3_column_type(st, 9) != SQLITE_NULL &&
            !(p->states = store_text(&s->store, (const char *)sqlite3_column_text(st, 9))))
            status = qsb_out_of_memory("a series");
        if (status == QSB_OK && detail == QSB_HISTORY_SAMPLES &&
            sqlite3_column_type(st, 10) == SQLITE_BLOB)
            status = point_samples(h, s, p, st, 10);
        s->n++;
    }
    if (status == QSB_OK && rc != SQLITE_DONE)
        status = qsb_sql_error(h, rc, "reading the series");
    sqlite3_reset(st);
    if (status == QSB_OK && s->n > 1)
        qsort(s->points, s->n, sizeof *s->points, point_order);
    return status;
}

/* Visits each (machine, metric) part of the series read into all. */
static int visit_parts(qsb_history_series *all, qsb_history_visit visit, void *ctx)
{
    int status = QSB_OK;
    for (size_t from = 0, to; status == QSB_OK && from < all->n; from = to) {
        for (to = from + 1; to < all->n &&
                            strcmp(all->points[to].machine, all->points[from].machine) == 0 &&
                            strcmp(all->points[to].metric, all->points[from].metric) == 0;
             to++)
            ;
        size_t known = 0;
        for (size_t i = from; i < to; i++)
            known += all->points[i].depth > 0;
        if (known == to - from)
            qsort(all->points + from, to - from, sizeof *all->points, ancestry_order);
        qsb_history_series part = *all;
        part.machine = all->points[from].machine;
        part.metric = all->points[from].metric;
        part.points = all->points + from;
        part.n = to - from;
        status = visit(ctx, &part);
    }
    return status;
}

int qsb_history_walk(qsb_history *h, const qsb_history_filter *filter,
                     qsb_history_detail detail, qsb_history_visit visit, void *ctx)
{
    qsb_history_filter none = {NULL, 0, 0, NULL, NULL, QSB_HISTORY_COMPLETE_RUNS};
    const qsb_history_filter *f = filter ? filter : &none;
    run_keys keys;
    int status = run_keys_load(h, f->machine, &keys);
    if (status != QSB_OK)
        return status;
    char sql[320];
    snprintf(sql, sizeof sql, "SELECT id, pattern, nelem, size, algorithm FROM series WHERE 1%s%s"
             " ORDER BY pattern, nelem, size, algorithm",
             f->pattern ? " AND pattern = ?1 AND nelem = ?2 AND size = ?3" : "",
             f->algorithm ? " AND algorithm = ?4" : "");
    sqlite3_stmt *series_st = NULL, *rows_st = NULL;
    status = qsb_sql_prepare(h, sql, &series_st);
    if (status == QSB_OK)
        status = qsb_sql_prepare(h, "SELECT run_id, baseline, verified, median, median_lo, median_hi,"
                            " delta_pct, delta_lo, delta_hi, states, samples FROM rows"
                            " WHERE series_id = ?1", &rows_st);
    if (status == QSB_OK) {
        qsb_history_filter series_filter = *f;
        series_filter.machine = NULL;
        bind_filter(series_st, &series_filter);
    }
    qsb_history_series s;
    memset(&s, 0, sizeof s);
    size_t cap = 0;
    int rc = SQLITE_DONE;
    while (status == QSB_OK && (rc = sqlite3_step(series_st)) == SQLITE_ROW) {
        s.pattern = (const char *)sqlite3_column_text(series_st, 1);
        s.nelem = (uint64_t)sqlite3_column_int64(series_st, 2);
        s.size = (uint64_t)sqlite3_column_int64(series_st, 3);
        s.algorithm = (const char *)sqlite3_column_text(series_st, 4);
        status = series_read(h, rows_st, sqlite3_column_int64(series_st, 0), &keys, f->runs,
                             detail, &s, &cap);
        if (status == QSB_OK)
            status = visit_parts(&s, visit, ctx);
    }
    if (status == QSB_OK && rc != SQLITE_DONE)
        status = qsb_sql_error(h, rc, "reading the series");
    store_free(s.store);
    free(s.points);
    sqlite3_finalize(series_st);
    sqlite3_finalize(rows_st);
    run_keys_free(&keys);
    return status;
}

/* "a, b, c" of a query's first column (or columns 0-2 as PATTERN/NELEM/SIZE), cut at len. */
static size_t join_names(qsb_history *h, sqlite3_stmt *st, int cells, char *buf, size_t len)
{
    size_t count = 0, used = 0;
    buf[0] = '\0';
    int rc;
    while ((rc = sqlite3_step(st)) == SQLITE_ROW) {
        char item[200];
        if (cells)
            snprintf(item, sizeof item, "%s/%lld/%lld", sqlite3_column_text(st, 0),
                     (long long)sqlite3_column_int64(st, 1),
                     (long long)sqlite3_column_int64(st, 2));
        else
            snprintf(item, sizeof item, "%s", sqlite3_column_text(st, 0));
        size_t need = strlen(item) + (count ? 2 : 0);
        if (used + need + 4 < len) {
            used += (size_t)snprintf(buf + used, len - used, "%s%s", count ? ", " : "", item);
        } else if (used + 4 < len && (used < 3 || strcmp(buf + used - 3, "...") != 0)) {
            used += (size_t)snprintf(buf + used, len - used, "%s", count ? ", ..." : "...");
        }
        count++;
    }
    if (rc != SQLITE_DONE)
        qsb_sql_error(h, rc, "reading the series");
    sqlite3_finalize(st);
    return count;
}

size_t qsb_history_cells_text(qsb_history *h, const char *machine, char *buf, size_t len)
{
    sqlite3_stmt *st;
    const char *sql = machine ? "SELECT DISTINCT s.pattern, s.nelem, s.size FROM series s"
                                " JOIN rows w ON w.series_id = s.id JOIN runs r ON r.id ="
                                " w.run_id WHERE r.machine = ?1 ORDER BY 1, 2, 3"
                              : "SELECT DISTINCT pattern, nelem, size FROM series"
                                " ORDER BY 1, 2, 3";
    buf[0] = '\0';
    if (qsb_sql_prepare(h, sql, &st) != QSB_OK)
        return 0;
    if (machine)
        qsb_sql_bind_text(st, 1, machine);
    return join_names(h, st, 1, buf, len);
}

size_t qsb_history_algorithms_text(qsb_history *h, const qsb_history_filter *cell, char *buf,
                                   size_t len)
{
    sqlite3_stmt *st;
    const char *sql = cell->machine
                          ? "SELECT DISTINCT s.algorithm FROM series s JOIN rows w ON"
                            " w.series_id = s.id JOIN runs r ON r.id = w.run_id WHERE"
                            " s.pattern = ?1 AND s.nelem = ?2 AND s.size = ?3 AND"
                            " r.machine = ?5 ORDER BY 1"
                          : "SELECT algorithm FROM series WHERE pattern = ?1 AND nelem = ?2"
                            " AND size = ?3 ORDER BY 1";
    buf[0] = '\0';
    if (qsb_sql_prepare(h, sql, &st) != QSB_OK)
        return 0;
    qsb_history_filter f = *cell;
    f.algorithm = NULL;
    bind_filter(st, &f);
    return join_names(h, st, 0, buf, len);
}

/* The machines the database holds, as qsb_history_cells_text says its cells. */
static size_t machines_text(qsb_history *h, char *buf, size_t len)
{
    sqlite3_stmt *st;
    buf[0] = '\0';
    if (qsb_sql_prepare(h, "SELECT DISTINCT machine FROM runs ORDER BY 1", &st) != QSB_OK)
        return 0;
    return join_names(h, st, 0, buf, len);
}

int qsb_history_check_machine(qsb_history *h, const char *machine)
{
    if (!machine)
        return QSB_OK;
    sqlite3_stmt *st;
    int status = qsb_sql_prepare(h, "SELECT 1 FROM runs WHERE machine = ?1 LIMIT 1", &st);
    if (status != QSB_OK)
        return status;
    qsb_sql_bind_text(st, 1, machine);
    int rc = sqlite3_step(st);
    sqlite3_finalize(st);
    if (rc == SQLITE_ROW)
        return QSB_OK;
    if (rc != SQLITE_DONE)
        return qsb_sql_error(h, rc, "reading the runs");
    char names[256];
    if (machines_text(h, names, sizeof names) == 0)
        snprintf(names, sizeof names, "none");
    return qsb_error(QSB_EUSAGE, "--" QSB_OPT_MACHINE " '%s': no run of that machine in %s "
                     "(there: %s)", qsb_quote(machine), qsb_quote_path(h->path), names);
}

