/*
** The history database (history.h) on SQLite: opening and migrating, adding runs in one
** transaction, and reading them back: the runs, the series walked in commit order, the names
** of the cells and algorithms it holds.
**
** In this order: SQLite's calls, their failures reported once as one line naming the file (a
** damaged file or not a database is QSB_EUSAGE, anything else QSB_ESYSTEM); opening, the
** schema and adding; reading.
*/
#include "history.h"

#include <errno.h>
#include <math.h>
#include <signal.h>
#include <sqlite3.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "diag.h"
#include "grow.h"
#include "option_names.h"
#include "samples_codec.h"
#include "states_text.h"

struct qsb_history {
    sqlite3 *db;
    char *path;
    bool created; /* the file did not exist before this open: qsb_history_discard removes it */
};

/* Reads one item of item_size bytes (zeroed) from the statement's current row: QSB_OK, or a
** status reported (out of memory). */
typedef int (*sql_row_reader)(sqlite3_stmt *st, void *item);

/* ---- SQLite's calls ---- */

static int is_bad_file(int code)
{
    code &= 0xff;
    return code == SQLITE_NOTADB || code == SQLITE_CORRUPT;
}

/* Reports SQLite's code as a failure of doing ("reading the runs"); returns the status. */
static int sql_error(qsb_history *h, int code, const char *doing)
{
    const char *why = h->db ? sqlite3_errmsg(h->db) : sqlite3_errstr(code);
    if (is_bad_file(code))
        return qsb_error(QSB_EUSAGE, "%s: not a readable history database (%s)",
                         qsb_quote_path(h->path), why);
    return qsb_error(QSB_ESYSTEM, "%s: %s: %s", qsb_quote_path(h->path), doing, why);
}

static int sql_exec(qsb_history *h, const char *sql, const char *doing)
{
    int rc = sqlite3_exec(h->db, sql, NULL, NULL, NULL);
    return rc == SQLITE_OK ? QSB_OK : sql_error(h, rc, doing);
}

static int sql_prepare(qsb_history *h, const char *sql, sqlite3_stmt **st)
{
    int rc = sqlite3_prepare_v2(h->db, sql, -1, st, NULL);
    return rc == SQLITE_OK ? QSB_OK : sql_error(h, rc, "preparing a query");
}

/* A single integer from a query such as "PRAGMA user_version". */
static int sql_int(qsb_history *h, const char *sql, int64_t *out)
{
    sqlite3_stmt *st;
    int status = sql_prepare(h, sql, &st);
    if (status != QSB_OK)
        return status;
    int rc = sqlite3_step(st);
    *out = rc == SQLITE_ROW ? sqlite3_column_int64(st, 0) : 0;
    sqlite3_finalize(st);
    return rc == SQLITE_ROW || rc == SQLITE_DONE ? QSB_OK : sql_error(h, rc, "reading");
}

/* NULL texts and non-finite numbers are bound as NULL, and read back as NULL ("" for a text
** read: column_text returns a malloc'd copy, NULL only when out of memory) and NAN. */
static void bind_text(sqlite3_stmt *st, int i, const char *text)
{
    if (text)
        sqlite3_bind_text(st, i, text, -1, SQLITE_TRANSIENT);
    else
        sqlite3_bind_null(st, i);
}

static void bind_double(sqlite3_stmt *st, int i, double v)
{
    if (isfinite(v))
        sqlite3_bind_double(st, i, v);
    else
        sqlite3_bind_null(st, i);
}

static char *column_text(sqlite3_stmt *st, int i)
{
    const unsigned char *t = sqlite3_column_text(st, i);
    return strdup(t ? (const char *)t : "");
}

static double column_double(sqlite3_stmt *st, int i)
{
    return sqlite3_column_type(st, i) == SQLITE_NULL ? NAN : sqlite3_column_double(st, i);
}

/* Runs sql (its ?1 bound to param when param is not NULL) and reads every row into a
** malloc'd array of items, *items and *n. On failure (reported, doing naming it) the rows
** read so far stay in *items for the caller to free. */
static int sql_select(qsb_history *h, const char *sql, const char *param, size_t item_size,
                      sql_row_reader read, void **items, size_t *n, const char *doing)
{
    *items = NULL;
    *n = 0;
    sqlite3_stmt *st;
    int status = sql_prepare(h, sql, &st);
    if (status != QSB_OK)
        return status;
    if (param)
        bind_text(st, 1, param);
    size_t cap = 0;
    int rc = SQLITE_DONE;
    while (status == QSB_OK && (rc = sqlite3_step(st)) == SQLITE_ROW) {
        if (qsb_grow(items, &cap, *n + 1, item_size) != 0) {
            status = qsb_out_of_memory(doing);
            break;
        }
        status = read(st, (char *)*items + (*n)++ * item_size);
    }
    if (status == QSB_OK && rc != SQLITE_DONE)
        status = sql_error(h, rc, doing);
    sqlite3_finalize(st);
    return status;
}

/* ---- Opening, the schema, adding ---- */

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
    int status = sql_int(h, "PRAGMA application_id", &app);
    if (status == QSB_OK)
        status = sql_int(h, "PRAGMA user_version", &version);
    if (status == QSB_OK)
        status = sql_int(h, "SELECT count(*) FROM sqlite_master", &objects);
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
    int status = sql_exec(h, "BEGIN IMMEDIATE", "locking");
    if (status != QSB_OK)
        return status;
    if ((status = sql_int(h, "PRAGMA application_id", &app)) == QSB_OK &&
        (status = sql_int(h, "PRAGMA user_version", &version)) == QSB_OK) {
        if (app != APPLICATION_ID || version > QSB_HISTORY_SCHEMA || version == 0)
            status = refuse_foreign(h);
    }
    for (int64_t v = version; status == QSB_OK && v < QSB_HISTORY_SCHEMA; v++)
        status = sql_exec(h, migrations[v], "migrating the schema");
    if (status == QSB_OK && (version < QSB_HISTORY_SCHEMA || app != APPLICATION_ID)) {
        char sql[96];
        snprintf(sql, sizeof sql, "PRAGMA user_version = %d; PRAGMA application_id = %d",
                 QSB_HISTORY_SCHEMA, APPLICATION_ID);
        status = sql_exec(h, sql, "migrating the schema");
    }
    if (status == QSB_OK)
        return sql_exec(h, "COMMIT", "migrating the schema");
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
        status = sql_int(h, "PRAGMA user_version", &version);
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
    int status = sql_exec(h, "PRAGMA synchronous = FULL", "opening");
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
    return rc == SQLITE_OK ? QSB_OK : sql_error(h, rc, "opening");
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
                     : sql_error(h, rc, "opening");
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
    int status = sql_prepare(h, SQL_RUN, &s->run);
    if (status == QSB_OK)
        status = sql_prepare(h, SQL_SERIES_INSERT, &s->series_insert);
    if (status == QSB_OK)
        status = sql_prepare(h, SQL_SERIES_FIND, &s->series_find);
    if (status == QSB_OK)
        status = sql_prepare(h, SQL_ROW, &s->row);
    if (status == QSB_OK)
        status = sql_prepare(h, SQL_RUN_FILED, &s->run_filed);
    if (status == QSB_OK)
        status = sql_prepare(h, SQL_COMMIT_DATE, &s->commit_date);
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
    return rc == SQLITE_DONE ? QSB_OK : sql_error(h, rc, "adding");
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
        bind_text(st, 1, cell->pattern);
        sqlite3_bind_int64(st, 2, (sqlite3_int64)cell->nelem);
        sqlite3_bind_int64(st, 3, (sqlite3_int64)cell->size);
        bind_text(st, 4, row->algorithm);
    }
    int status = step_insert(h, s->series_insert);
    if (status != QSB_OK)
        return status;
    int rc = sqlite3_step(s->series_find);
    int64_t series_id = sqlite3_column_int64(s->series_find, 0);
    sqlite3_reset(s->series_find);
    sqlite3_clear_bindings(s->series_find);
    if (rc != SQLITE_ROW)
        return sql_error(h, rc, "adding");

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
    bind_double(st, 6, row->summary.median);
    bind_double(st, 7, row->summary.median_lo);
    bind_double(st, 8, row->summary.median_hi);
    bind_double(st, 9, i == 0 ? NAN : row->delta_pct);
    bind_double(st, 10, i == 0 ? NAN : row->delta_lo);
    bind_double(st, 11, i == 0 ? NAN : row->delta_hi);
    bind_text(st, 12, *states ? states : NULL);
    free(states);
    sqlite3_bind_blob(st, 13, blob, (int)len, free);
    return step_insert(h, st);
}

/* The name of the context's run, as the history tells one run filed twice (in one format or
** two): its id, or in files written before ids the moment it started on its host with its
** command line. *key is malloc'd, NULL when the context names no run (a CSV file of an
** earlier version); 0, or -1 when out of memory. */
static int run_identity(const qsb_context *c, char **key)
{
    *key = NULL;
    if (c->run_id)
        *key = strdup(c->run_id);
    else if (c->date && *c->date && c->host && c->command_line) {
        size_t len = strlen(c->date) + strlen(c->host) + strlen(c->command_line) + 3;
        if ((*key = malloc(len)) != NULL)
            snprintf(*key, len, "%s\n%s\n%s", c->date, c->host, c->command_line);
    } else
        return 0;
    return *key ? 0 : -1;
}

int qsb_history_holds_run(qsb_history *h, const qsb_context *c, bool *held)
{
    *held = false;
    char *key;
    if (run_identity(c, &key) != 0)
        return qsb_out_of_memory("the history's runs");
    if (!key) /* a CSV of an earlier version: not known to be */
        return QSB_OK;
    sqlite3_stmt *st;
    int status = sql_prepare(h, SQL_RUN_FILED, &st);
    if (status == QSB_OK) {
        bind_text(st, 1, key);
        int rc = sqlite3_step(st);
        *held = rc == SQLITE_ROW;
        if (rc != SQLITE_ROW && rc != SQLITE_DONE)
            status = sql_error(h, rc, "looking for the run");
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
        bind_text(s->run_filed, 1, key);
        rc = sqlite3_step(s->run_filed);
        int64_t filed = rc == SQLITE_ROW ? sqlite3_column_int64(s->run_filed, 0) : 0;
        sqlite3_reset(s->run_filed);
        if (rc == SQLITE_ROW)
            return qsb_error(QSB_EUSAGE, "%s: a run filed already (run %lld of %s): a run is "
                             "filed once", source_name(stamp), (long long)filed,
                             qsb_quote_path(h->path));
        if (rc != SQLITE_DONE)
            return sql_error(h, rc, "adding");
    }
    bind_text(s->commit_date, 1, stamp->commit);
    sqlite3_bind_int64(s->commit_date, 2, stamp->time);
    rc = sqlite3_step(s->commit_date);
    char *other = rc == SQLITE_ROW ? column_text(s->commit_date, 0) : NULL;
    sqlite3_reset(s->commit_date);
    if (rc == SQLITE_ROW) {
        int status = qsb_error(QSB_EUSAGE, "commit '%s' is filed under the date %s: %s would "
                               "give it a second one", qsb_quote(stamp->commit),
                               qsb_quote(other ? other : "?"), qsb_quote(stamp->date));
        free(other);
        return status;
    }
    return rc == SQLITE_DONE ? QSB_OK : sql_error(h, rc, "adding");
}

static int add_one_run(qsb_history *h, add_statements *s, const qsb_results *r,
                       const qsb_history_stamp *stamp, int64_t *id, long stop_at, long *rows)
{
    const qsb_context *c = &r->context;
    char *key;
    if (run_identity(c, &key) != 0)
        return qsb_out_of_memory("the history's runs");
    int status = check_filing(h, s, key, stamp);
    if (status != QSB_OK) {
        free(key);
        return status;
    }
    sqlite3_stmt *st = s->run;
    int k = 1;
    bind_text(st, k++, stamp->commit);
    bind_text(st, k++, stamp->date);
    sqlite3_bind_int64(st, k++, stamp->time);
    bind_text(st, k++, stamp->branch);
    bind_text(st, k++, stamp->machine ? stamp->machine : qsb_machine_name(c));
    bind_text(st, k++, stamp->source);
    const char *texts[] = {c->date, c->command_line, c->tool_version, c->host, c->cpu_model,
                           c->libc, c->compiler, c->build_flags, c->build_type, c->timer,
                           c->metric ? c->metric : "unknown", r->baseline};
    for (size_t t = 0; t < sizeof texts / sizeof texts[0]; t++)
        bind_text(st, k++, texts[t]);
    sqlite3_bind_int64(st, k++, (sqlite3_int64)c->seed);
    bind_text(st, k++, c->mode);
    bind_text(st, k++, c->repetitions);
    bind_text(st, k++, c->placement);
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
    status = sql_exec(h, "BEGIN IMMEDIATE", "locking for the add");
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
            status = sql_exec(h, "COMMIT", "committing the add");
        if (status != QSB_OK)
            sqlite3_exec(h->db, "ROLLBACK", NULL, NULL, NULL);
    }
    finalize_statements(&s);
    return status;
}

/* ---- Reading: the runs, the series in commit order, the names ---- */

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
    r->commit = column_text(st, 1);
    r->date = column_text(st, 2);
    r->machine = column_text(st, 3);
    r->command_line = column_text(st, 4);
    r->metric = column_text(st, 5);
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
    int status = sql_select(h, machine ? "SELECT id, commit_rev, commit_date, machine,"
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

/* The point's states into the store: their text as read (the report echoes it) and the states
** read once from it; a text that is not well formed gives none. Returns QSB_OK, or -1 when
** out of memory. */
static int point_states(struct qsb_history_store **store, qsb_history_point *p, const char *text)
{
    qsb_state_estimate read[QSB_STATES_MAX];
    const char *why;
    if (!(p->states = store_text(store, text)))
        return -1;
    size_t n = *text ? qsb_states_parse(text, read, &why) : 0;
    qsb_state_estimate *kept = n ? store_alloc(store, n * sizeof *kept) : NULL;
    if (n && !kept)
        return -1;
    p->state = n ? memcpy(kept, read, n * sizeof *kept) : NULL;
    p->nstates = n;
    return QSB_OK;
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
        bind_text(st, 1, f->pattern);
        sqlite3_bind_int64(st, 2, (sqlite3_int64)f->nelem);
        sqlite3_bind_int64(st, 3, (sqlite3_int64)f->size);
    }
    if (f->algorithm)
        bind_text(st, 4, f->algorithm);
    if (f->machine)
        bind_text(st, 5, f->machine);
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
    r->commit = column_text(st, 2);
    r->date = column_text(st, 3);
    r->machine = column_text(st, 4);
    r->metric = column_text(st, 5);
    r->depth = sqlite3_column_int64(st, 6); /* NULL reads as 0: not known */
    r->incomplete = sqlite3_column_int(st, 7);
    return r->commit && r->date && r->machine && r->metric
               ? QSB_OK : qsb_out_of_memory("the history's runs");
}

static int run_keys_load(qsb_history *h, const char *machine, run_keys *k)
{
    void *items;
    int status = sql_select(h, machine ? "SELECT id, commit_time, commit_rev, commit_date,"
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
        p->median = column_double(st, 3);
        p->median_lo = column_double(st, 4);
        p->median_hi = column_double(st, 5);
        p->delta_pct = column_double(st, 6);
        p->delta_lo = column_double(st, 7);
        p->delta_hi = column_double(st, 8);
        if (sqlite3_column_type(st, 9) != SQLITE_NULL &&
            point_states(&s->store, p, (const char *)sqlite3_column_text(st, 9)) != QSB_OK)
            status = qsb_out_of_memory("a series");
        if (status == QSB_OK && detail == QSB_HISTORY_SAMPLES &&
            sqlite3_column_type(st, 10) == SQLITE_BLOB)
            status = point_samples(h, s, p, st, 10);
        s->n++;
    }
    if (status == QSB_OK && rc != SQLITE_DONE)
        status = sql_error(h, rc, "reading the series");
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
    status = sql_prepare(h, sql, &series_st);
    if (status == QSB_OK)
        status = sql_prepare(h, "SELECT run_id, baseline, verified, median, median_lo, median_hi,"
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
        status = sql_error(h, rc, "reading the series");
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
        sql_error(h, rc, "reading the series");
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
    if (sql_prepare(h, sql, &st) != QSB_OK)
        return 0;
    if (machine)
        bind_text(st, 1, machine);
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
    if (sql_prepare(h, sql, &st) != QSB_OK)
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
    if (sql_prepare(h, "SELECT DISTINCT machine FROM runs ORDER BY 1", &st) != QSB_OK)
        return 0;
    return join_names(h, st, 0, buf, len);
}

int qsb_history_check_machine(qsb_history *h, const char *machine)
{
    if (!machine)
        return QSB_OK;
    sqlite3_stmt *st;
    int status = sql_prepare(h, "SELECT 1 FROM runs WHERE machine = ?1 LIMIT 1", &st);
    if (status != QSB_OK)
        return status;
    bind_text(st, 1, machine);
    int rc = sqlite3_step(st);
    sqlite3_finalize(st);
    if (rc == SQLITE_ROW)
        return QSB_OK;
    if (rc != SQLITE_DONE)
        return sql_error(h, rc, "reading the runs");
    char names[256];
    if (machines_text(h, names, sizeof names) == 0)
        snprintf(names, sizeof names, "none");
    return qsb_error(QSB_EUSAGE, "--" QSB_OPT_MACHINE " '%s': no run of that machine in %s "
                     "(there: %s)", qsb_quote(machine), qsb_quote_path(h->path), names);
}
