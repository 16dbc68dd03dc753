/*
** What the history's verbs print and write: the runs (list), one series as a table or CSV
** (show), the steps as a table or JSON (detect), and the adding of results files (add). The
** command (cmd_history.c) only parses; these do the work.
*/
#ifndef QSB_HISTORY_REPORT_H
#define QSB_HISTORY_REPORT_H

#include <stdio.h>

#include "detect.h"
#include "history.h"
#include "stamp.h"

/* Reads every results file (fleet files give a run per machine) and adds them all in one
** transaction under the stamp; machine (NULL: each run's own) names their machine. Prints
** one line per run added on stderr. */
int qsb_history_add_files(qsb_history *h, char *const *paths, size_t n,
                          const qsb_stamp_text *stamp, const char *machine);

/* Adds one run just made (source NULL) to the database at path under the stamp, opening and
** closing it here: a run measured in a child process adds from there (a SQLite connection
** never crosses a fork). Prints one line on stderr. */
int qsb_history_add_results(const char *path, const qsb_results *r, const qsb_stamp_text *stamp,
                            const char *machine);

/* The runs as a table: id, commit, date, machine, cells, command. */
int qsb_history_write_runs(FILE *out, qsb_history *h, const char *machine);

/* One series (the filter names a cell and an algorithm; machine optional): the table on
** table_out, the CSV (one line per run, every sample) on csv_out when not NULL. An unknown
** cell or algorithm is one line naming those there are, QSB_EUSAGE. */
int qsb_history_show(qsb_history *h, const qsb_history_filter *filter, FILE *table_out,
                     FILE *csv_out);

/* The steps as a table on table_out (the failing ones marked), and as JSON on json_out when
** not NULL: {"threshold_pct": T, "steps": [{"machine", "pattern", "nelem", "size",
** "algorithm", "metric", "before", "after", "change_pct", "lo", "hi", "newest", "fails"}]}.
** QSB_OK or an error (reported). */
int qsb_steps_write(FILE *table_out, FILE *json_out, const qsb_step_list *steps,
                    double threshold_pct);

#endif
