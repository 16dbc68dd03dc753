/*
** The reporters: each writes the one result structure in one format, so the table, the CSV
** and the JSON cannot disagree. None of them computes a figure; they only format what the
** run put in the structure. Numbers are formatted in the C locale (the tool never calls
** setlocale). Each returns QSB_OK, or QSB_ESYSTEM (reported) when out of memory; write
** errors are left in the stream's error flag for the caller (outfile.h) to find.
*/
#ifndef QSB_REPORT_H
#define QSB_REPORT_H

#include <stdio.h>

#include "cover_letter.h"
#include "result.h"

/* The human table of the spec: a header line, then per pattern (in capitals) one line per
** cell and candidate in the cover letter's layout. With ref, the published delta goes beside
** the run's and a last line per candidate says in how many published cells the signs agree. */
int qsb_report_table(FILE *out, const qsb_results *r, const qsb_reference *ref);

/* The CSV of result.h, with libcsv quoting the fields that need it. */
int qsb_report_csv(FILE *out, const qsb_results *r);

/* The JSON of result.h, built with cJSON. */
int qsb_report_json(FILE *out, const qsb_results *r);

/* Fleet files (several machines' results, merged: fleet.h). The JSON is
** {"schema_version": 2, "machines": [...]}, each element a whole single-machine document
** without its own schema_version; the CSV is the single-machine CSV with a last column
** `machine` (the machine's name). */
int qsb_report_fleet_json(FILE *out, const qsb_results *runs, size_t n);
int qsb_report_fleet_csv(FILE *out, const qsb_results *runs, size_t n);

/* How many published cells the candidate's deltas agree with in sign, of how many published
** cells were measured (both deltas known). */
void qsb_reference_agreement(const qsb_results *r, size_t candidate, const qsb_reference *ref,
                             size_t *agree, size_t *compared);

#endif
