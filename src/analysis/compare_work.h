/*
** Inside compare only, so that `qsb_` marks compare's API: one entry of a report worked out
** (compare.c), the candidates judged by their ratios to the baseline in a report without
** --normalize (compare_baseline.c), and the pieces of text and JSON that the report's writers
** (compare_write.c) share with the calibration's (compare_calibration.c).
*/
#ifndef QSB_COMPARE_WORK_H
#define QSB_COMPARE_WORK_H

#include "compare.h"

/* How a row is worked out: as the report judges it, or by its per-round ratios to the
** baseline (as --normalize judges a candidate) whatever the report's options. */
typedef enum {
    QSB_JUDGE_AS_REPORTED,
    QSB_JUDGE_BY_RATIO,
} qsb_judging;

/* Works the entry's row out into *it: its values, change and own p-values, and its verdict
** before the correction. QSB_OK, or QSB_ESYSTEM when out of memory (reported). */
int qsb_compare_work_out(const qsb_compare_report *r, const qsb_compare_entry *e,
                         qsb_judging how, qsb_comparison *it);

/* When the report can judge them so (timed, not normalized, one baseline in both files): the
** candidate rows judged by their ratios, corrected over the rows so tested; a row that is a
** regression so and not by its own times is marked and counted. */
int qsb_judge_against_baseline(qsb_compare_report *r);

/* The entry's row as --normalize judges it, for a row marked by qsb_judge_against_baseline. */
int qsb_view_against_baseline(const qsb_compare_report *r, const qsb_compare_entry *e,
                              qsb_baseline_view *v);

/* Longer names (a hostile file) are cut to this many characters in a table. */
#define COMPARE_NAME_MAX 32

/* A name from a file or a path from the command line as a table shows it: escaped (diag.h)
** and cut to size - 1 characters, so that no file can move the cursor or recolour the
** terminal. */
const char *compare_shown(char *buf, size_t size, const char *text);

/* A change in percent as the tables show it: "+1.23%", "+inf", "-" when unknown. */
void compare_format_pct(char *buf, size_t len, double v);

/* obj[key] = v, JSON null when v is not finite; nonzero when out of memory. */
struct cJSON;
int compare_json_number(struct cJSON *obj, const char *key, double v);

#endif
