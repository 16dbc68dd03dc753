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

#include <stdbool.h>
#include <stdio.h>

#include "compare.h"

/* Where a report goes (qsb_compare_write). */
typedef struct {
    const char *base_path, *new_path; /* BASE and NEW as the command line names them */
    qsb_compare_strictness strictness;
    FILE *text;                       /* the table */
    FILE *markdown, *json;            /* NULL: not asked for */
    int verdict;                      /* the report's status once the table is out; -1 before */
    const char *summary_path;         /* $GITHUB_STEP_SUMMARY; NULL: not set */
    FILE *summary;                    /* it, from its open to the append */
} qsb_compare_outputs;

/* The warnings before the table (the runs' context fields that differ, a run of a sanitized
** or non-release build, an interrupted run), the table on o->text, the warnings after it, then
** the Markdown table and the JSON verdicts where asked. */
int qsb_compare_write(const qsb_compare_report *r, qsb_compare_outputs *o);

/* The row's words after its verdict, as compare's table has them: " (no samples)" for a row
** judged on the threshold alone, its state note (" (state at 2010345 of 2 matched; state only
** in NEW)"), then "; " and its note against the baseline; empty for a row with none. */
void qsb_compare_row_note(char *buf, size_t len, const qsb_comparison *it);

/* The kinds of compare's lines besides its table: a line under the table on stdout, a warning
** ("qsortbench: warning: " on stderr), a note ("qsortbench: " on stderr). */
typedef enum { QSB_SAYS_TEXT, QSB_SAYS_WARNING, QSB_SAYS_NOTE } qsb_says;
typedef void (*qsb_compare_say)(void *ctx, qsb_says kind, const char *line);

/* compare's lines besides its table, each handed to `to` without its prefix or newline, so
** that compare and the HTML report say the same words: before the table (after_table false)
** the warnings on the runs' contexts and builds; after it the summary line, the detectable
** change, then the warnings and notes on the rows. */
void qsb_compare_says(const qsb_compare_report *r, bool after_table, qsb_compare_say to,
                      void *ctx);

/* $GITHUB_STEP_SUMMARY opened for appending, before anything is read: a path that cannot be
** written, or a FIFO that no process reads, fails at once (exit 2), not after the work or
** never. QSB_OK when it is not set. */
int qsb_compare_summary_open(qsb_compare_outputs *o);
/* After the outputs' end, which went `status`: the Markdown table appended to
** $GITHUB_STEP_SUMMARY once the table is out, whatever the outputs did, and the file closed
** (left NULL); then, when all went well, the error line of a finding (regressions and failed
** sorts; when strict, rows in one file only). Returns the first failure, else QSB_FINDING
** with that line, else QSB_OK. */
int qsb_compare_finish(const qsb_compare_report *r, qsb_compare_outputs *o, int status);

#endif
