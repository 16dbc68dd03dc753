/*
** The history database (history.h) on SQLite: opening and migrating, adding runs in one
** transaction. Reading is history_read.c's; SQLite's calls and their errors history_sql.c's.
*/
#include "history.h"

#include <errno.h>
#include <math.h>
#include <signal.h>
#include <stdbool.h>
#include <sqlite3.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "diag.h"
#include "history_sql.h"
#include "option_names.h"
#include "samples_codec.h"
#include "states_text.h"

#define APPLICATION_ID 0x51534248 /* "QSBH": a database of another program is refused */
#define BUSY_TIMEOUT_MS 60000     /* how long an add waits for another process's add */

/* ---- the schema and its migrations ---- */

/* migrations[v] brings a database of schema v to v + 1; the last one ends at
** QSB_HISTORY_SCHEMA. Never edit one that has shipped: add the next. */
static const char *const migrations[QSB_HISTORY_SCHEMA] = {
    "CREATE TABLE runs("
    " id INTEGER PRIMARY KEY,"
    " commit_rev TEXT NOT NULL, commit_date TEXT NOT NULL, commit_time INTEGER NOT NULL,"
    " branch TEXT, machine TEXT NOT NULL, source TEXT, added TEXT NOT NULL,"
    " run_date TEXT, command_line TEXT, tool_version TEXT, host TEXT, cpu_model TEXT,"
    " libc TEXT, compiler TEXT, build_flags TEXT, build_type TEXT, timer TEXT,"
    " metric TEXT NOT NULL, baseline TEXT, seed INTEGER, mode TEXT, repetitions TEXT,"
    " placement TEXT, incomplete INTEGER NOT NULL, cells INTEGER NOT NULL);"
    "CREATE INDEX runs_order ON runs(machine, commit_time, id);"
    "CREATE TABLE series("
    " id INTEGER PRIMARY KEY, pattern TEXT NOT NULL, nelem INTEGER NOT NULL,"
    " size INTEGER NOT NULL, algorithm TEXT NOT NULL,"
    " UNIQUE(pattern, nelem, size, algorithm));"
    "CREATE TABLE rows("
    " run_id INTEGER NOT NULL REFERENCES runs(id),"
    " series_id INTEGER NOT NULL REFERENCES series(id),"
    " baseline INTEGER NOT NULL, verified INTEGER NOT NULL, noisy INTEGER NOT NULL,"
    " median REAL, median_lo REAL, median_hi REAL,"
    " delta_pct REAL, delta_lo REAL, delta_hi REAL,"
    " states TEXT, samples BLOB);"
    "CREATE INDEX rows_series ON rows(series_id, run_id);",
    /* 2: a run's identity (its start, host and command line), filed once; its commit's place
    ** in the ancestry; the checkout's uncommitted changes */
    "ALTER TABLE runs ADD COLUMN run_key TEXT;"
    "ALTER TABLE runs ADD COLUMN commit_depth INTEGER;"
    "ALTER TABLE runs ADD COLUMN dirty INTEGER NOT NULL DEFAULT 0;"
    "CREATE INDEX runs_key ON runs(run_key);"
    "CREATE INDEX runs_commit ON runs(commit_rev);",
};

static int refuse_foreign(qsb_history *h)
{
    int64_t app, version, objects;
    int status = qsb_sql_int(h, "PRAGMA application_id", &app);
    if (status == QSB_OK)
        status = qsb_sql_int(h, "PRAGMA user_version", &version);
    if (status == QSB_OK)
        status = qsb_sql_int(h, "SELECT count(*) FROM sqlite_master", &objects);
    if (status != QSB_OK)
        return status;
    if (app != 0 && app != APPLICATION_ID)
        return qsb_error(QSB_EUSAGE, "%s: a SQLite database of another program, not a "
                         "qsortbench history", qsb_quote_path(h->path));
    if (app == 0 && objects > 0)
        return qsb_error(QSB_EUSAGE, "%s: a SQLite database that is not a qsortbench history",
                         qsb_quote_path(h->path));
    if (version > QSB_HISTORY_SCHEMA)
        return qsb_error(QSB_EUSAGE, "%s: history schema %lld is newer than this qsortbench "
                         "reads (%d): use a newer qsortbench", qsb_quote_path(h->path),
                         (long long)version, QSB_HISTORY_SCHEMA);
    /* Schema 0 is a history not yet made: its tables would be made by the first migration. */
    if (app == APPLICATION_ID && version == 0 && objects > 0)
        return qsb_error(QSB_EUSAGE, "%s: a damaged history: its schema version is 0 but it "
                         "holds tables", qsb_quote_path(h->path));
    return QSB_OK;
}

static int migrate(qsb_history *h)
{
    int64_t version = 0, app = 0;
    int status = qsb_sql_exec(h, "BEGIN IMMEDIATE", "locking");
    if (status != QSB_OK)
        return status;
    if ((status = qsb_sql_int(h, "PRAGMA application_id", &app)) == QSB_OK &&
        (status = qsb_sql_int(h, "PRAGMA user_version", &version)) == QSB_OK) {
        if (app != APPLICATION_ID || version > QSB_HISTORY_SCHEMA || version == 0)
            status = refuse_foreign(h);
    }
    for (int64_t v = version; status == QSB_OK && v < QSB_HISTORY_SCHEMA; v++)
        status = qsb_sql_exec(h, migrations[v], "migrating the schema");
    if (status == QSB_OK && (version < QSB_HISTORY_SCHEMA || app != APPLICATION_ID)) {
        char sql[96];
        snprintf(sql, sizeof sql, "PRAGMA user_version = %d; PRAGMA application_id = %d",
                 QSB_HISTORY_SCHEMA, APPLICATION_ID);
        status = qsb_sql_exec(h, sql, "migrating the schema");
    }
    if (status == QSB_OK)
        return qsb_sql_exec(h, "COMMIT", "migrating the schema");
    sqlite3_exec(h->db, "ROLLBACK", NULL, NULL, NULL);
    return status;
}

#define OLDER_SCHEMA 100 /* check_schema: a history of an earlier version, to migrate first */

/* A database opened read-only is read as it is: a foreign or damaged one, one of another
** schema or one not yet made (no tables: nothing to read) is refused, never migrated. */
static int check_schema(qsb_history *h)
{
    int64_t version;
    int status = refuse_foreign(h);
    if (status == QSB_OK)
        status = qsb_sql_int(h, "PRAGMA user_version", &version);
    if (status == QSB_OK && version == 0)
        return qsb_error(QSB_EUSAGE, "%s: no history in it yet (history add or run --"
                         QSB_OPT_HISTORY " makes one)", qsb_quote_path(h->path));
    if (status == QSB_OK && version < QSB_HISTORY_SCHEMA)
        return OLDER_SCHEMA;
    return status;
}

static int check_path(const char *path, qsb_history_open_mode mode)
{
    struct stat st;
    if (stat(path, &st) != 0) {
        if (errno != ENOENT)
            return qsb_error(QSB_EUSAGE, "%s: %s", qsb_quote_path(path), strerror(errno));
        if (mode == QSB_HISTORY_READ)
            return qsb_error(QSB_EUSAGE, "%s: no history database there (history add or run "
                             "--" QSB_OPT_HISTORY " makes one)", qsb_quote_path(path));
        return QSB_OK;
    }
    if (!S_ISREG(st.st_mode))
        return qsb_error(QSB_EUSAGE, "%s: not a regular file", qsb_quote_path(path));
    return QSB_OK;
}

/* The read-write connection: a rollback journal, the schema brought up to date. A reader
** of a rollback-journal database needs nothing but the file (a WAL one needs its -wal and -shm
** files, made beside it, or a directory it may write), so a history downloaded or on a
** read-only mount is read as it is; readers wait out an add's commit by the busy timeout. A
** database of the WAL journal (as earlier versions made them) is turned into one when no other
** process has it open; until then it stays as it was. */
static int prepare_for_writing(qsb_history *h)
{
    sqlite3_exec(h->db, "PRAGMA journal_mode = DELETE", NULL, NULL, NULL);
    int status = qsb_sql_exec(h, "PRAGMA synchronous = FULL", "opening");
    return status == QSB_OK ? migrate(h) : status;
}

/* A read-only connection cannot roll back what an add killed before its commit left in the
** journal; it says so instead of SQLite's code. */
static int check_readable(qsb_history *h)
{
    int rc = sqlite3_exec(h->db, "SELECT count(*) FROM sqlite_master", NULL, NULL, NULL);
    if (rc == SQLITE_READONLY_ROLLBACK)
        return qsb_error(QSB_EUSAGE, "%s: an add stopped before its end left its journal: the "
                         "next history add (or run --" QSB_OPT_HISTORY ") on it rolls it back",
                         qsb_quote_path(h->path));
    return rc == SQLITE_OK ? QSB_OK : qsb_sql_error(h, rc, "opening");
}

static int open_as(const char *path, qsb_history_open_mode mode, qsb_history **out);

/* A history of an earlier version is brought up to date once by whoever may write it, a
** reader too (the rows it holds are the same); one that cannot be written is refused with
** what to do. */
int qsb_history_open(const char *path, qsb_history_open_mode mode, qsb_history **out)
{
    int status = open_as(path, mode, out);
    if (status != OLDER_SCHEMA)
        return status;
    if (access(path, W_OK) != 0)
        return qsb_error(QSB_EUSAGE, "%s: a history of an earlier version, which a read-only "
                         "file cannot be brought up to date in: copy it where it can be written",
                         qsb_quote_path(path));
    qsb_history *writer;
    status = open_as(path, QSB_HISTORY_CREATE, &writer); /* it exists: nothing is created */
    qsb_history_close(writer);
    return status == QSB_OK ? open_as(path, mode, out) : status;
}

static int open_as(const char *path, qsb_history_open_mode mode, qsb_history **out)
{
    *out = NULL;
    int status = check_path(path, mode);
    if (status != QSB_OK)
        return status;
    qsb_history *h = calloc(1, sizeof *h);
    if (!h || !(h->path = strdup(path))) {
        free(h);
        return qsb_out_of_memory("the history database");
    }
    struct stat st;
    h->created = mode == QSB_HISTORY_CREATE && stat(path, &st) != 0;
    int flags = mode == QSB_HISTORY_READ ? SQLITE_OPEN_READONLY
                                         : SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE;
    int rc = sqlite3_open_v2(path, &h->db, flags, NULL);
    if (rc != SQLITE_OK) {
        status = rc == SQLITE_CANTOPEN
                     ? qsb_error(QSB_EUSAGE, "%s: cannot open (%s)", qsb_quote_path(path),
                                 sqlite3_errstr(rc))
                     : qsb_sql_error(h, rc, "opening");
    } else {
        sqlite3_extended_result_codes(h->db, 1);
        sqlite3_busy_timeout(h->db, BUSY_TIMEOUT_MS);
        status = mode == QSB_HISTORY_READ ? check_readable(h) : prepare_for_writing(h);
        if (status == QSB_OK && mode == QSB_HISTORY_READ)
            status = check_schema(h);
    }
    if (status != QSB_OK) {
        qsb_history_discard(h);
        return status;
    }
    *out = h;
    return QSB_OK;
}

void qsb_history_close(qsb_history *h)
{
    if (!h)
        return;
    sqlite3_close(h->db);
    free(h->path);
    free(h);
}

void qsb_history_discard(qsb_history *h)
{
    if (!h)
        return;
    bool created = h->created;
    char *path = h->path;
    h->path = NULL;
    qsb_history_close(h);
    /* Only a file this open made: an add that failed leaves no empty database behind. */
    static const char *const companions[] = {"", "-wal", "-shm", "-journal"};
    for (size_t i = 0; created && path && i < sizeof companions / sizeof *companions; i++) {
        char name[4096];
        if ((size_t)snprintf(name, sizeof name, "%s%s", path, companions[i]) < sizeof name)
            unlink(name);
    }
    free(path);
}

/* ---- adding ---- */

/* The statements of one add, prepared once. */
typedef struct {
    sqlite3_stmt *run, *series_insert, *series_find, *row;
    sqlite3_stmt *run_filed, *commit_date; /* the checks before a run is inserted */
} add_statements;

static const char SQL_RUN[] =
    "INSERT INTO runs(commit_rev, commit_date, commit_time, branch, machine, source, added,"
    " run_date, command_line, tool_version, host, cpu_model, libc, compiler, build_flags,"
    " build_type, timer, metric, baseline, seed, mode, repetitions, placement, incomplete,"
    " cells, run_key, commit_depth, dirty) VALUES(?,?,?,?,?,?,strftime('%Y-%m-%dT%H:%M:%SZ','now'),"
    "?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?)";
static const char SQL_RUN_FILED[] = "SELECT id FROM runs WHERE run_key = ?1 LIMIT 1";
static const char SQL_COMMIT_DATE[] =
    "SELECT commit_date FROM runs WHERE commit_rev = ?1 AND commit_time <> ?2 LIMIT 1";
static const char SQL_SERIES_INSERT[] =
    "INSERT OR IGNORE INTO series(pattern, nelem, size, algorithm) VALUES(?,?,?,?)";
static const char SQL_SERIES_FIND[] =
    "SELECT id FROM series WHERE pattern = ? AND nelem = ? AND size = ? AND algorithm = ?";
static const char SQL_ROW[] =
    "INSERT INTO rows(run_id, series_id, baseline, verified, noisy, median, median_lo,"
    " median_hi, delta_pct, delta_lo, delta_hi, states, samples) "
    "VALUES(?,?,?,?,?,?,?,?,?,?,?,?,?)";

static void finalize_statements(add_statements *s)
{
    sqlite3_finalize(s->run);
    sqlite3_finalize(s->series_insert);
    sqlite3_finalize(s->series_find);
    sqlite3_finalize(s->row);
    sqlite3_finalize(s->run_filed);
    sqlite3_finalize(s->commit_date);
}

static int prepare_statements(qsb_history *h, add_statements *s)
{
    memset(s, 0, sizeof *s);
    int status = qsb_sql_prepare(h, SQL_RUN, &s->run);
    if (status == QSB_OK)
        status = qsb_sql_prepare(h, SQL_SERIES_INSERT, &s->series_insert);
    if (status == QSB_OK)
        status = qsb_sql_prepare(h, SQL_SERIES_FIND, &s->series_find);
    if (status == QSB_OK)
        status = qsb_sql_prepare(h, SQL_ROW, &s->row);
    if (status == QSB_OK)
        status = qsb_sql_prepare(h, SQL_RUN_FILED, &s->run_filed);
    if (status == QSB_OK)
        status = qsb_sql_prepare(h, SQL_COMMIT_DATE, &s->commit_date);
    if (status != QSB_OK)
        finalize_statements(s);
    return status;
}


/* Runs a bound insert to its end and resets it. */
static int step_insert(qsb_history *h, sqlite3_stmt *st)
{
    int rc = sqlite3_step(st);
    sqlite3_reset(st);
    sqlite3_clear_bindings(st);
    return rc == SQLITE_DONE ? QSB_OK : qsb_sql_error(h, rc, "adding");
}

/* A test hook, so that a test can kill an add at a chosen point instead of a random moment:
** with QSB_HISTORY_STOP_AFTER_ROWS=K in the environment, the process stops itself (SIGSTOP)
** once K rows of the add are inserted (K = 0: right after the transaction began), inside the
** open transaction. */
static long stop_after_rows(void)
{
    const char *text = getenv("QSB_HISTORY_STOP_AFTER_ROWS");
    if (!text || !*text)
        return -1;
    char *end;
    long k = strtol(text, &end, 10);
    return *end == '\0' && k >= 0 ? k : -1;
}

static void maybe_stop(long stop_at, long rows_done)
{
    if (stop_at == rows_done)
        raise(SIGSTOP);
}

static int add_run_row(qsb_history *h, add_statements *s, int64_t run_id,
                       const qsb_cell *cell, size_t i)
{
    const qsb_row *row = &cell->rows[i];
    sqlite3_stmt *st = s->series_insert;
    for (int k = 0; k < 2; k++, st = s->series_find) {
        qsb_sql_bind_text(st, 1, cell->pattern);
        sqlite3_bind_int64(st, 2, (sqlite3_int64)cell->nelem);
        sqlite3_bind_int64(st, 3, (sqlite3_int64)cell->size);
        qsb_sql_bind_text(st, 4, row->algorithm);
    }
    int status = step_insert(h, s->series_insert);
    if (status != QSB_OK)
        return status;
    int rc = sqlite3_step(s->series_find);
    int64_t series_id = sqlite3_column_int64(s->series_find, 0);
    sqlite3_reset(s->series_find);
    sqlite3_clear_bindings(s->series_find);
    if (rc != SQLITE_ROW)
        return qsb_sql_error(h, rc, "adding");

    size_t len = 0;
    unsigned char *blob = qsb_samples_encode(row->samples, row->nsamples, &len);
    char *states = blob ? qsb_states_format(row->states, row->nstates) : NULL;
    if (!states) {
        free(blob);
        return qsb_out_of_memory("the history's samples");
    }
    st = s->row;
    sqlite3_bind_int64(st, 1, run_id);
    sqlite3_bind_int64(st, 2, series_id);
    sqlite3_bind_int(st, 3, i == 0);
    sqlite3_bind_int(st, 4, row->verified);
    sqlite3_bind_int(st, 5, row->noisy);
    qsb_sql_bind_double(st, 6, row->summary.median);
    qsb_sql_bind_double(st, 7, row->summary.median_lo);
    qsb_sql_bind_double(st, 8, row->summary.median_hi);
    qsb_sql_bind_double(st, 9, i == 0 ? NAN : row->delta_pct);
    qsb_sql_bind_double(st, 10, i == 0 ? NAN : row->delta_lo);
    qsb_sql_bind_double(st, 11, i == 0 ? NAN : row->delta_hi);
    qsb_sql_bind_text(st, 12, *states ? states : NULL);
    free(states);
    sqlite3_bind_blob(st, 13, blob, (int)len, free);
    return step_insert(h, st);
}

int qsb_history_holds_run(qsb_history *h, const qsb_context *c, bool *held)
{
    *held = false;
    if (!qsb_run_has_key(c)) /* a CSV of an earlier version: not known to be */
        return QSB_OK;
    char *key = qsb_run_key(c);
    if (!key)
        return qsb_out_of_memory("the history's runs");
    sqlite3_stmt *st;
    int status = qsb_sql_prepare(h, SQL_RUN_FILED, &st);
    if (status == QSB_OK) {
        qsb_sql_bind_text(st, 1, key);
        int rc = sqlite3_step(st);
        *held = rc == SQLITE_ROW;
        if (rc != SQLITE_ROW && rc != SQLITE_DONE)
            status = qsb_sql_error(h, rc, "looking for the run");
        sqlite3_finalize(st);
    }
    free(key);
    return status;
}

/* What the run's source is called in messages: its file, or "the run" just made. */
static const char *source_name(const qsb_history_stamp *stamp)
{
    return stamp->source ? qsb_quote_path(stamp->source) : "the run";
}

/* Refuses a run filed already, and a second date for its commit (the series' order would
** hold one commit at two places). */
static int check_filing(qsb_history *h, add_statements *s, const char *key,
                        const qsb_history_stamp *stamp)
{
    int rc = SQLITE_DONE;
    if (key) {
        qsb_sql_bind_text(s->run_filed, 1, key);
        rc = sqlite3_step(s->run_filed);
        int64_t filed = rc == SQLITE_ROW ? sqlite3_column_int64(s->run_filed, 0) : 0;
        sqlite3_reset(s->run_filed);
        if (rc == SQLITE_ROW)
            return qsb_error(QSB_EUSAGE, "%s: a run filed already (run %lld of %s): a run is "
                             "filed once", source_name(stamp), (long long)filed,
                             qsb_quote_path(h->path));
        if (rc != SQLITE_DONE)
            return qsb_sql_error(h, rc, "adding");
    }
    qsb_sql_bind_text(s->commit_date, 1, stamp->commit);
    sqlite3_bind_int64(s->commit_date, 2, stamp->time);
    rc = sqlite3_step(s->commit_date);
    char *other = rc == SQLITE_ROW ? qsb_sql_column_text(s->commit_date, 0) : NULL;
    sqlite3_reset(s->commit_date);
    if (rc == SQLITE_ROW) {
        int status = qsb_error(QSB_EUSAGE, "commit '%s' is filed under the date %s: %s would "
                               "give it a second one", qsb_quote(stamp->commit),
                               qsb_quote(other ? other : "?"), qsb_quote(stamp->date));
        free(other);
        return status;
    }
    return rc == SQLITE_DONE ? QSB_OK : qsb_sql_error(h, rc, "adding");
}

static int add_one_run(qsb_history *h, add_statements *s, const qsb_results *r,
                       const qsb_history_stamp *stamp, int64_t *id, long stop_at, long *rows)
{
    const qsb_context *c = &r->context;
    char *key = qsb_run_key(c);
    if (!key && qsb_run_has_key(c))
        return qsb_out_of_memory("the history's runs");
    int status = check_filing(h, s, key, stamp);
    if (status != QSB_OK) {
        free(key);
        return status;
    }
    sqlite3_stmt *st = s->run;
    int k = 1;
    qsb_sql_bind_text(st, k++, stamp->commit);
    qsb_sql_bind_text(st, k++, stamp->date);
    sqlite3_bind_int64(st, k++, stamp->time);
    qsb_sql_bind_text(st, k++, stamp->branch);
    qsb_sql_bind_text(st, k++, stamp->machine ? stamp->machine : qsb_machine_name(c));
    qsb_sql_bind_text(st, k++, stamp->source);
    const char *texts[] = {c->date, c->command_line, c->tool_version, c->host, c->cpu_model,
                           c->libc, c->compiler, c->build_flags, c->build_type, c->timer,
                           c->metric ? c->metric : "unknown", r->baseline};
    for (size_t t = 0; t < sizeof texts / sizeof texts[0]; t++)
        qsb_sql_bind_text(st, k++, texts[t]);
    sqlite3_bind_int64(st, k++, (sqlite3_int64)c->seed);
    qsb_sql_bind_text(st, k++, c->mode);
    qsb_sql_bind_text(st, k++, c->repetitions);
    qsb_sql_bind_text(st, k++, c->placement);
    sqlite3_bind_int(st, k++, c->incomplete);
    sqlite3_bind_int64(st, k++, (sqlite3_int64)r->ncells);
    sqlite3_bind_text(st, k++, key, -1, free); /* NULL binds NULL */
    if (stamp->depth > 0)
        sqlite3_bind_int64(st, k++, stamp->depth);
    else
        sqlite3_bind_null(st, k++);
    sqlite3_bind_int(st, k++, stamp->dirty);
    status = step_insert(h, st);
    if (status != QSB_OK)
        return status;
    *id = sqlite3_last_insert_rowid(h->db);
    for (qsb_row_cursor at = {0}; status == QSB_OK && qsb_results_next_row(r, &at);) {
        status = add_run_row(h, s, *id, at.cell, at.i);
        maybe_stop(stop_at, ++*rows);
    }
    return status;
}

int qsb_history_add(qsb_history *h, const qsb_results *runs, const qsb_history_stamp *stamps,
                    size_t n, int64_t *ids)
{
    add_statements s;
    int status = prepare_statements(h, &s);
    if (status != QSB_OK)
        return status;
    status = qsb_sql_exec(h, "BEGIN IMMEDIATE", "locking for the add");
    if (status == QSB_OK) {
        long stop_at = stop_after_rows(), rows = 0;
        maybe_stop(stop_at, 0);
        for (size_t i = 0; i < n && status == QSB_OK; i++) {
            int64_t id = 0;
            status = add_one_run(h, &s, &runs[i], &stamps[i], &id, stop_at, &rows);
            if (ids)
                ids[i] = id;
        }
        if (status == QSB_OK)
            status = qsb_sql_exec(h, "COMMIT", "committing the add");
        if (status != QSB_OK)
            sqlite3_exec(h->db, "ROLLBACK", NULL, NULL, NULL);
    }
    finalize_statements(&s);
    return status;
}

