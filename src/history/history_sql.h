/*
** What the history's SQLite files share (history_db.c: opening, the schema, adding;
** history_read.c: the runs, the series, the names): the handle, and SQLite's calls with their
** failures reported once, as one line naming the file (a damaged file or not a database is
** QSB_EUSAGE, anything else QSB_ESYSTEM). Private to src/history/.
*/
#ifndef QSB_HISTORY_SQL_H
#define QSB_HISTORY_SQL_H

#include <sqlite3.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "history.h"

struct qsb_history {
    sqlite3 *db;
    char *path;
    bool created; /* the file did not exist before this open: qsb_history_discard removes it */
};

/* Reports SQLite's code as a failure of doing ("reading the runs"); returns the status. */
int qsb_sql_error(qsb_history *h, int code, const char *doing);
int qsb_sql_exec(qsb_history *h, const char *sql, const char *doing);
int qsb_sql_prepare(qsb_history *h, const char *sql, sqlite3_stmt **st);
/* A single integer from a query such as "PRAGMA user_version". */
int qsb_sql_int(qsb_history *h, const char *sql, int64_t *out);

/* NULL texts and non-finite numbers are bound as NULL, and read back as NULL ("" for a text
** read: qsb_sql_column_text returns a malloc'd copy, NULL only when out of memory) and NAN. */
void qsb_sql_bind_text(sqlite3_stmt *st, int i, const char *text);
void qsb_sql_bind_double(sqlite3_stmt *st, int i, double v);
char *qsb_sql_column_text(sqlite3_stmt *st, int i);
double qsb_sql_column_double(sqlite3_stmt *st, int i);

/* Reads one item of item_size bytes (zeroed) from the statement's current row: QSB_OK, or a
** status reported (out of memory). */
typedef int (*qsb_sql_row_reader)(sqlite3_stmt *st, void *item);

/* Runs sql (its ?1 bound to param when param is not NULL) and reads every row into a
** malloc'd array of items, *items and *n. On failure (reported, doing naming it) the rows
** read so far stay in *items for the caller to free. */
int qsb_sql_select(qsb_history *h, const char *sql, const char *param, size_t item_size,
                   qsb_sql_row_reader read, void **items, size_t *n, const char *doing);

#endif
