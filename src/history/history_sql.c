/*
** SQLite's calls for the history (history_sql.h).
*/
#include "history_sql.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "diag.h"
#include "grow.h"

/* ---- errors ---- */

static int is_bad_file(int code)
{
    code &= 0xff;
    return code == SQLITE_NOTADB || code == SQLITE_CORRUPT;
}

int qsb_sql_error(qsb_history *h, int code, const char *doing)
{
    const char *why = h->db ? sqlite3_errmsg(h->db) : sqlite3_errstr(code);
    if (is_bad_file(code))
        return qsb_error(QSB_EUSAGE, "%s: not a readable history database (%s)",
                         qsb_quote_path(h->path), why);
    return qsb_error(QSB_ESYSTEM, "%s: %s: %s", qsb_quote_path(h->path), doing, why);
}

int qsb_sql_exec(qsb_history *h, const char *sql, const char *doing)
{
    int rc = sqlite3_exec(h->db, sql, NULL, NULL, NULL);
    return rc == SQLITE_OK ? QSB_OK : qsb_sql_error(h, rc, doing);
}

int qsb_sql_prepare(qsb_history *h, const char *sql, sqlite3_stmt **st)
{
    int rc = sqlite3_prepare_v2(h->db, sql, -1, st, NULL);
    return rc == SQLITE_OK ? QSB_OK : qsb_sql_error(h, rc, "preparing a query");
}

/* A single integer from a query such as "PRAGMA user_version". */
int qsb_sql_int(qsb_history *h, const char *sql, int64_t *out)
{
    sqlite3_stmt *st;
    int status = qsb_sql_prepare(h, sql, &st);
    if (status != QSB_OK)
        return status;
    int rc = sqlite3_step(st);
    *out = rc == SQLITE_ROW ? sqlite3_column_int64(st, 0) : 0;
    sqlite3_finalize(st);
    return rc == SQLITE_ROW || rc == SQLITE_DONE ? QSB_OK : qsb_sql_error(h, rc, "reading");
}

void qsb_sql_bind_text(sqlite3_stmt *st, int i, const char *text)
{
    if (text)
        sqlite3_bind_text(st, i, text, -1, SQLITE_TRANSIENT);
    else
        sqlite3_bind_null(st, i);
}

void qsb_sql_bind_double(sqlite3_stmt *st, int i, double v)
{
    if (isfinite(v))
        sqlite3_bind_double(st, i, v);
    else
        sqlite3_bind_null(st, i);
}

char *qsb_sql_column_text(sqlite3_stmt *st, int i)
{
    const unsigned char *t = sqlite3_column_text(st, i);
    return strdup(t ? (const char *)t : "");
}

double qsb_sql_column_double(sqlite3_stmt *st, int i)
{
    return sqlite3_column_type(st, i) == SQLITE_NULL ? NAN : sqlite3_column_double(st, i);
}

int qsb_sql_select(qsb_history *h, const char *sql, const char *param, size_t item_size,
                   qsb_sql_row_reader read, void **items, size_t *n, const char *doing)
{
    *items = NULL;
    *n = 0;
    sqlite3_stmt *st;
    int status = qsb_sql_prepare(h, sql, &st);
    if (status != QSB_OK)
        return status;
    if (param)
        qsb_sql_bind_text(st, 1, param);
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
        status = qsb_sql_error(h, rc, doing);
    sqlite3_finalize(st);
    return status;
}
