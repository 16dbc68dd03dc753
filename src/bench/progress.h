/*
** The progress line of a run: one line on stderr, redrawn in place with '\r' and erased at
** the end, only when stderr is a terminal and the run is not --quiet. It shows the cells
** done / total, the current cell, the elapsed time and an estimate of the time remaining
** (elapsed / done * cells left, or the caller's: qsb_progress_update_eta).
** One line per process, so the state is module-private.
** No colour is used (NO_COLOR has nothing to turn off).
*/
#ifndef QSB_PROGRESS_H
#define QSB_PROGRESS_H

#include <stdbool.h>
#include <stddef.h>

/* Whether a run shows its progress line: never (--quiet), or when stderr is a terminal. */
typedef enum { QSB_PROGRESS_QUIET, QSB_PROGRESS_ON_TERMINAL } qsb_progress_mode;

/* Starts the line for `total` cells. Draws nothing when quiet or when stderr is not a
** terminal. */
void qsb_progress_begin(size_t total, qsb_progress_mode mode);

/* The total changed (a run's plan of processes grows or shrinks as it learns its costs). */
void qsb_progress_set_total(size_t total);

/* `done` cells are finished and `label` ("sorted n=49152 size=4") is the one running now
** (NULL or "" when none). Redraws the line. */
void qsb_progress_update(size_t done, const char *label);

/* Like qsb_progress_update, with the caller's estimate of the seconds left (negative:
** unknown); the redraws of qsb_progress_tick count it down. */
void qsb_progress_update_eta(size_t done, const char *label, double remaining_s);

/* Redraws the line as last updated (the elapsed time and the estimate move on). */
void qsb_progress_tick(void);

/* Erases the line for a moment, so a warning can be printed on a clean line; the next
** update draws it again. */
void qsb_progress_clear(void);

/* Erases the line and stops. */
void qsb_progress_end(void);

/* The line's text, cut to `width` columns (no '\r', no padding) into buf, which holds
** width + 1 bytes: the pure part, for tests. elapsed_s is the time since begin. Returns the
** length written. */
size_t qsb_progress_format(char *buf, size_t width, size_t done, size_t total,
                           const char *label, double elapsed_s);

/* The same with the remaining time given (negative: unknown, shown as "?"). */
size_t qsb_progress_format_eta(char *buf, size_t width, size_t done, size_t total,
                               const char *label, double elapsed_s, double remaining_s);

#endif
