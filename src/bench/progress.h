/*
** The progress of a run on stderr, unless the run is --quiet: on a terminal one line redrawn
** in place with '\r' and erased at the end; elsewhere (a CI log, a file) a plain line
** "qsortbench: progress: ..." every QSB_PROGRESS_LOG_S seconds, no control characters, so that
** a long run is seen to move. It shows the cells done / total, the current cell, the elapsed
** time and an estimate of the time remaining (elapsed / done * cells left, or the caller's).
** One line per process, so the state is module-private.
** No colour is used (NO_COLOR has nothing to turn off).
*/
#ifndef QSB_PROGRESS_H
#define QSB_PROGRESS_H

#include <stdbool.h>
#include <stddef.h>

/* Whether a run shows its progress: never (--quiet), or as stderr allows. */
typedef enum { QSB_PROGRESS_QUIET, QSB_PROGRESS_SHOWN } qsb_progress_mode;

/* Off a terminal, a line at the first update or tick this many seconds after the last one (or
** the start): with the updates and ticks a run makes (at least every few seconds), between
** 30 s and a minute apart. */
#define QSB_PROGRESS_LOG_S 30.0

/* Starts the progress for `total` cells. Shows nothing when quiet. */
void qsb_progress_begin(size_t total, qsb_progress_mode mode);

/* The clock the progress reads, in seconds (tests give a fake one; NULL: CLOCK_MONOTONIC). */
void qsb_progress_use_clock(double (*now_s)(void));

/* The total changed (a run's plan of processes grows or shrinks as it learns its costs). */
void qsb_progress_set_total(size_t total);

/* `done` cells are finished and `label` ("sorted n=49152 size=4") is the one running now
** (NULL or "" when none), with the caller's estimate of the seconds left (negative: none, the
** rate so far tells it); the redraws of qsb_progress_tick count it down. Redraws the line. */
void qsb_progress_update(size_t done, const char *label, double remaining_s);

/* Redraws the line as last updated (the elapsed time and the estimate move on). */
void qsb_progress_tick(void);

/* Erases the line and stops. */
void qsb_progress_end(void);

/* The line's text, cut to `width` columns (no '\r', no padding) into buf, which holds
** width + 1 bytes: the pure part, for tests. elapsed_s is the time since begin, remaining_s
** the time left (negative: at the rate so far, "?" before a cell is done). Returns the length
** written. */
size_t qsb_progress_format(char *buf, size_t width, size_t done, size_t total,
                           const char *label, double elapsed_s, double remaining_s);

#endif
