/*
** Running the real qsortbench binary, for the tests that do (test_run_*): start it with its
** output in files, wait for it, read files back, and read a CSV file (with libcsv) into rows
** of fields; and a run's configuration parsed from its options, as the binary parses them.
*/
#ifndef QSB_TEST_RUN_BINARY_H
#define QSB_TEST_RUN_BINARY_H

#include <stddef.h>
#include <sys/types.h>

#include "run_config.h"

/* *cfg as `qsortbench run OPTIONS...` parses it (options NULL-terminated, at most 30); the
** parser's status (0: parsed). */
int parse_run_config(qsb_run_config *cfg, const char *const *options);

/* A fresh directory under $TMPDIR (or /tmp) into buf; 0 or -1. */
int make_temp_dir(char *buf, size_t len, const char *prefix);

/* Removes the directory and the plain files in it. */
void remove_temp_dir(const char *dir);

/* Starts argv (argv[0] a path) with stdout and stderr in the given files (NULL: /dev/null),
** optionally with extra environment entries "NAME=value" (NULL-terminated, may be NULL).
** Returns the pid, or -1. */
pid_t start_binary(char *const argv[], const char *out_path, const char *err_path,
                   char *const extra_env[]);

/* Waits for pid: its exit status, or 128 + the signal that killed it, or -1. */
int wait_binary(pid_t pid);

/* start_binary() then wait_binary(). */
int run_binary(char *const argv[], const char *out_path, const char *err_path);

/* The whole file, NUL-terminated, malloc'd (length in *len when len is not NULL); NULL when
** it cannot be read. */
char *slurp(const char *path, size_t *len);

/* Lines of text that count (non-empty). */
size_t count_lines(const char *text);

typedef struct {
    char ***rows;      /* rows[r][f], each string malloc'd */
    size_t *nfields;   /* fields of each row */
    size_t nrows;      /* including the header row */
} csv_table;

/* Reads a CSV file with libcsv (strict). 0, or -1 when unreadable or malformed. */
int csv_table_read(const char *path, csv_table *t);

/* The field of row r (1 = the first data row) under the header's column name; NULL when
** there is no such column. */
const char *csv_table_get(const csv_table *t, size_t r, const char *column);

void csv_table_free(csv_table *t);

#endif
