/*
** The export formats (`--export FORMAT=FILE` of run and merge, `qsortbench export`): one table,
** name -> writer, so a new format is one row. Every writer takes one or more machines'
** results (a fleet file gives several, in the file's order) and writes one document.
**
**   gbench                   Google Benchmark's JSON (export_gbench.h); one machine only.
**   bmf                      Bencher Metric Format (export_dashboards.h).
**   github-action-benchmark  the customSmallerIsBetter input of github-action-benchmark
**                            (export_dashboards.h).
**
** The benchmark names of the dashboard formats are stable across runs:
** PATTERN/NELEM/SIZE/ALGORITHM, with "@MACHINE" after the algorithm in a fleet (qsb_export_name).
*/
#ifndef QSB_EXPORT_H
#define QSB_EXPORT_H

#include <stddef.h>
#include <stdio.h>

#include "result.h"

typedef struct {
    const char *name;    /* "bmf" */
    const char *summary; /* one line for --help */
    /* Can results of this metric be exported? QSB_OK, or a usage error reported naming the
    ** format; NULL: every metric can. Run calls it before any work. */
    int (*check)(const char *metric);
    /* Writes runs[0..n-1]. QSB_OK, QSB_EUSAGE (reported: what cannot be exported) or
    ** QSB_ESYSTEM (out of memory); write errors stay in fp's error flag (outfile.h). */
    int (*write)(FILE *fp, const qsb_results *runs, size_t n);
} qsb_export_format;

extern const qsb_export_format qsb_export_formats[]; /* ends with a {NULL} row */

/* The format of that name, or NULL. */
const qsb_export_format *qsb_export_find(const char *name);

/* "a, b or c": the formats' names for messages and help (static storage). */
const char *qsb_export_names(void);

/* Splits an --export value "FORMAT=FILE" into its format and path (pointing into value).
** Reports and returns QSB_EUSAGE for an unknown format or a missing FILE. */
int qsb_export_parse(const char *value, const qsb_export_format **format, const char **path);

/* The benchmark name of a row: "PATTERN/NELEM/SIZE/ALGORITHM", and "@MACHINE" after it when
** machine is not NULL (a fleet). Cut (never overflowing) at len - 1 bytes. */
void qsb_export_name(char *buf, size_t len, const qsb_cell *cell, const qsb_row *row,
                     const char *machine);

#endif
