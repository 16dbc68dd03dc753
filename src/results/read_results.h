/*
** Reading results files back into the one result structure (result.h), for compare and plot.
**
** qsb_read_results() detects the format from the content (a first non-blank '{' or '[' is JSON,
** anything else CSV) and reads exactly the formats of schema.h. The input is
** treated as hostile: every defect (empty, truncated, malformed, wrong schema_version, missing
** required CSV columns, bad numbers, a time (cycles, ns) at or below 0, a JSON key given twice
** in one object, rows of different metrics or baselines, duplicate rows, a cell without its
** baseline row, two machines of one name in a fleet) is reported as one line naming the file
** and the CSV line or the JSON field, in printable ASCII only (the path and every quoted value
** escaped, diag.h), and gives QSB_EUSAGE with *out left empty. Out of memory gives QSB_ESYSTEM,
** an unreadable file QSB_EUSAGE; the file is read by the one input reader (infile.h: regular
** files only, one size cap).
**
** What a CSV file cannot carry is left empty in the context: strings NULL, numbers 0; its
** metric, seed and mode come from the rows. Rows keep the file's summary values; a missing
** optional column reads as NAN (0 for outliers, false for noisy).
*/
#ifndef QSB_READ_RESULTS_H
#define QSB_READ_RESULTS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "result.h"
#include "schema.h"

int qsb_read_results(const char *path, qsb_results *out);

/* As qsb_read_results, with the same checks, but the rows slim (result.h qsb_slim_row: cells'
** slim, rows NULL), as compare holds them: for compare only. */
int qsb_read_compare_results(const char *path, qsb_results *out);

/* Any results file, fleet files (report.h) included: *runs (malloc'd, *n >= 1 of them, each
** freed by qsb_results_free, then the array by free) holds one results structure per
** machine, in the file's order. A single-machine file gives one. Errors as above. */
int qsb_read_fleet(const char *path, qsb_results **runs, size_t *n);

#endif
