/*
** compare's outputs: the table on stdout, the Markdown table (--markdown FILE and
** $GITHUB_STEP_SUMMARY) and the JSON verdicts (--json FILE) of a report (compare.h); the
** lines on stderr that a report calls for. Names from files and paths from the command line
** are escaped (diag.h) and cut to size, so that no file can move the cursor, break a Markdown
** cell or become markup. The writers return
** QSB_OK, or QSB_ESYSTEM when out of memory or when the JSON cannot be written (reported);
** `verdict` is the report's exit status (qsb_compare_status), shown as passed or failed.
*/
#ifndef QSB_COMPARE_WRITE_H
#define QSB_COMPARE_WRITE_H

#include <stdio.h>

#include "compare.h"

int qsb_compare_write_table(FILE *fp, const qsb_compare_report *r, const char *base_path,
                            const char *new_path);
int qsb_compare_write_markdown(FILE *fp, const qsb_compare_report *r, const char *base_path,
                               const char *new_path, int verdict);
int qsb_compare_write_json(FILE *fp, const qsb_compare_report *r, const char *base_path,
                           const char *new_path, qsb_compare_strictness strictness, int verdict);

/* Warnings before the table: the runs' context fields that differ (one line naming each and
** both values), a run measured by a sanitized or non-release build, an interrupted run. */
void qsb_compare_warn_context(const qsb_compare_report *r);
/* Warnings after the table: rows with too few samples, rows tested by Mann-Whitney, rows
** without samples, rows that are a regression against the baseline only. */
void qsb_compare_warn_rows(const qsb_compare_report *r);
/* The error line of a finding (regressions and failed sorts; when strict, rows in one file
** only), with QSB_FINDING; QSB_OK when the report has none. */
int qsb_compare_report_finding(const qsb_compare_report *r, qsb_compare_strictness strictness);

#endif
