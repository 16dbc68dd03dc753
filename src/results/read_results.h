/*
** Reading results files back into the one result structure (result.h), for compare and plot.
**
** qsb_read_results() detects the format from the content (a first non-blank '{' or '[' is JSON,
** anything else CSV) and reads exactly the formats of schema.h. The input is
** treated as hostile: every defect (empty, truncated, malformed, wrong schema_version, missing
** required CSV columns, bad numbers, rows of different metrics or baselines, duplicate rows, a
** cell without its baseline row) is reported as one line naming the file and the CSV line or
** the JSON field, in printable ASCII only (the path and every quoted value escaped, diag.h),
** and gives QSB_EUSAGE with *out left empty. Out of memory gives QSB_ESYSTEM,
** an unreadable file QSB_EUSAGE; the file is read by the one input reader (infile.h: regular
** files only, one size cap).
**
** What a CSV file cannot carry is left empty in the context: strings NULL, numbers 0; its
** metric, seed and mode come from the rows. Rows keep the file's summary values; a missing
** optional column reads as NAN (0 for outliers, false for noisy).
*/
#ifndef QSB_READ_RESULTS_H
#define QSB_READ_RESULTS_H

#include <stddef.h>
#include <stdint.h>

#include "result.h"
#include "schema.h"

int qsb_read_results(const char *path, qsb_results *out);

/* Any results file, fleet files (report.h) included: *runs (malloc'd, *n >= 1 of them, each
** freed by qsb_results_free, then the array by free) holds one results structure per
** machine, in the file's order. A single-machine file gives one. Errors as above. */
int qsb_read_fleet(const char *path, qsb_results **runs, size_t *n);

/* ---- Between the two readers and their common part (read_results.c); nobody else. ---- */

/* `name` is the file's name as messages show it: qsb_read_results escapes the path once
** (qsb_quote_path), and every value taken from the text is escaped where it is quoted. */
int qsb_read_csv_fleet(const char *name, const char *text, size_t len, qsb_results **runs,
                       size_t *n);
int qsb_read_json_fleet(const char *name, const char *text, size_t len, qsb_results **runs,
                        size_t *n);

/* Groups rows into cells (first appearance order, the baseline row first), after checking
** that they agree on metric and baseline, that no (cell, algorithm) repeats and that every
** cell has its baseline row. Takes the rows' strings over (also on failure) and frees rows.
** out->context must already hold what the file says of it; its metric, seed and mode are
** filled from the rows when still empty. On failure out is freed and zeroed. */
int qsb_results_assemble(const char *name, qsb_file_row *rows, size_t n, qsb_results *out);

/* Strict number parsing of file fields: the whole text or nothing, C locale, finite. Return 0
** or -1; the caller reports where. */
int qsb_text_to_u64(const char *text, int hex_ok, uint64_t *out);
int qsb_text_to_double(const char *text, double *out);

#endif
