/*
** What the results readers share, below their entry points (read_results.h, whose file has
** the CSV reader too): the JSON reader of a fleet, the assembly of read rows into cells
** (assemble.c) and the strict parsing of file fields. Nobody but the readers includes it.
*/
#ifndef QSB_ASSEMBLE_H
#define QSB_ASSEMBLE_H

#include <stddef.h>
#include <stdint.h>

#include "result.h"
#include "schema.h"

/* How a reader keeps the rows: in full, or slim as compare holds them. */
typedef enum { QSB_ROWS_FULL, QSB_ROWS_SLIM } qsb_rows_view;

/* The JSON reader of a fleet file (read_json.c). `name` is the file's name as messages show
** it: qsb_read_results escapes the path once (qsb_quote_path), and every value taken from
** the text is escaped where it is quoted. */
int qsb_read_json_fleet(const char *name, const char *text, size_t len, qsb_rows_view view,
                        qsb_results **runs, size_t *n);

/* Groups rows into cells as they are read (assemble.c): no flat array of a file's rows is
** kept, only each row's qsb_row in its cell. The cells are built in `out`, whose context (and
** baseline) must already hold what the file says of them; metric, baseline, seed and mode are
** filled from the first row when still empty. A row's place is a CSV line or a JSON results
** index, as `places` says; `name` must outlive the assembler. NULL when out of memory. */
typedef struct qsb_assembler qsb_assembler;
typedef enum {
    QSB_PLACES_CSV_LINES,   /* messages name "FILE:LINE" */
    QSB_PLACES_JSON_RESULTS /* messages name "FILE: results[i]" */
} qsb_row_places;
qsb_assembler *qsb_assembler_new(const char *name, qsb_row_places places, qsb_rows_view view,
                                 qsb_results *out);
/* Takes the row over (its strings and samples are moved or freed; *row is left empty), even
** on failure. Returns QSB_OK, or QSB_ESYSTEM when out of memory (reported). */
int qsb_assembler_add(qsb_assembler *a, qsb_file_row *row, size_t place);
/* Checks what needs the whole file, in this order, reporting the first defect: no rows, rows
** that disagree on metric or baseline or whose reps are not their samples' count (the first in
** file order), an unknown metric, a second row of a (cell, algorithm) (of the least pattern,
** nelem, size and algorithm), a cell without its baseline row (the first cell in file order).
** Cells are in first appearance order, each with the baseline row first, then the others in
** file order. Frees the assembler; on failure out is freed and zeroed. */
int qsb_assembler_finish(qsb_assembler *a);
/* Frees an assembler that is not finished (its rows stay in out, for the caller to free). */
void qsb_assembler_free(qsb_assembler *a);

/* Strict number parsing of file fields: the whole text or nothing, C locale, finite. Return 0
** or -1; the caller reports where. */
int qsb_text_to_u64(const char *text, int hex_ok, uint64_t *out);
int qsb_text_to_double(const char *text, double *out);

#endif
