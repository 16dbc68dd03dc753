/*
** A row's states (qsb_row.states) as the CSV files and the history write them: one text,
** fastest state first,
**
**     STATE;STATE[;...]      STATE = SHARE(PROCESSES)@MEDIAN[/DELTA[[LO,HI]]]
**
** e.g. "0.57(12)@2010345.0/-23.10[-24.90,-21.30];0.43(9)@2931002.5/-41.00[-43.20,-38.80]":
** the share of the row's processes (2 decimals), their count, the row's median in the state
** (1 decimal), and for a candidate the delta in % with its 95% interval (2 decimals; the
** interval absent under 3 processes). A baseline's states have no delta. The JSON files carry
** the same numbers as an array of objects (report_json.c, read_json.c). States are well
** formed when there are 2 to QSB_STATES_MAX of them, every one of at least one process, all
** with a delta or none, each interval holding its delta, and shares summing to 1 within their
** rounding. The text is made and read here only, for the CSV writer and reader and the
** history; everything else reads the row's array.
*/
#ifndef QSB_STATES_TEXT_H
#define QSB_STATES_TEXT_H

#include <stddef.h>

#include "result.h"
#include "states.h"

/* The text of s[0..n) in a new string ("" for n 0), or NULL when out of memory. A state whose
** delta_pct is NAN is written without a delta, one whose bounds are NAN without an interval. */
char *qsb_states_format(const qsb_state_estimate *s, size_t n);

/* The states of text into out[QSB_STATES_MAX]: their count, or 0 when the text is not well
** formed (*why then says why, for a message). Numbers are as written (rounded). */
size_t qsb_states_parse(const char *text, qsb_state_estimate *out, const char **why);

/* Why states s[0..n) are not well formed (the rules above), or NULL. *fault gets the index of
** the state at fault, n when the fault is of the states together (their count, their shares'
** sum). */
const char *qsb_states_check(const qsb_state_estimate *s, size_t n, size_t *fault);

/* s[0..n) replaced by what their text reads back: each number rounded to its decimals, the
** interval dropped when a bound or the delta is NAN, the fields the files do not carry NAN.
** What the run and the JSON reader keep in a row, so that every file writes the same states.
** Returns 0, or -1 when out of memory (s unchanged then). */
int qsb_states_round(qsb_state_estimate *s, size_t n);

/* A row's states s[0..n) in words, as the table and the report show them: "states 57% -23.1%
** ±1.8 / 43% -41.0% ±2.2" for a candidate (± the larger side of the interval; "too few"
** without one), "states 57% 2010345 / 43% 2931002" for a baseline (medians). Returns n (buf
** empty and 0 for a row without states). */
size_t qsb_states_words(const qsb_state_estimate *s, size_t n, char *buf, size_t len);

/* What algorithm `index` (the cells' row index; 0 the baseline) showed of states over the
** result, in words for the run's last lines: "msort ran at 3 speeds in this run's processes
** (41% / 35% / 24%) in 7 of its 10 rows; those rows are given per speed". Only states of the
** algorithm's own speeds count (a candidate's when its baseline had none); the count is the
** most any row had, the shares the mean over the rows with that many. Returns the rows with
** such states (0: buf empty). */
size_t qsb_states_summary(const qsb_results *r, size_t index, char *buf, size_t len);

/* For candidate `index`, whether its delta differed between its baseline's states where the
** run tested it (qsb_row.states_delta), in words for the run's last lines: "introsort's delta
** against msort differs between msort's speeds in 15 of the 19 rows tested (...)". Returns
** the rows tested (0: buf empty; rows read from files are untested). */
size_t qsb_states_delta_summary(const qsb_results *r, size_t index, char *buf, size_t len);

#endif
