/*
** The progress line (see progress.h). It writes to stderr directly rather than through
** diag: it is a redrawn status line, not a message, and it leaves nothing behind.
*/
#include "progress.h"

#include <math.h>
#include <stdio.h>
#include <string.h>
#include <sys/ioctl.h>
#include <time.h>
#include <unistd.h>


#define DEFAULT_COLUMNS 80
#define MAX_COLUMNS 512
#define TICK_INTERVAL_S 0.25 /* ticks redraw at most this often: rounds can be a millisecond */

static struct {
    bool active;    /* a line on a terminal */
    bool logging;   /* lines off a terminal */
    double logged_s; /* when the last of them was written (or the start) */
    size_t total;
    double start_s;
    size_t columns; /* usable width: the terminal's minus one, so the line never wraps */
    size_t drawn;   /* length of the line now on the screen */
    size_t done;    /* as last updated */
    char label[128];
    double updated_s;      /* when the line was last updated */
    double remaining_s;    /* the caller's estimate then; below 0: none */
    double drawn_s; /* when the line was last drawn */
} line;

static double monotonic_s(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

static double (*now_s)(void) = monotonic_s;

void qsb_progress_use_clock(double (*clock)(void))
{
    now_s = clock ? clock : monotonic_s;
}

static size_t terminal_columns(void)
{
    struct winsize ws;
    size_t cols = DEFAULT_COLUMNS;
    if (ioctl(STDERR_FILENO, TIOCGWINSZ, &ws) == 0 && ws.ws_col > 1)
        cols = ws.ws_col;
    return cols > MAX_COLUMNS ? MAX_COLUMNS - 1 : cols - 1;
}

/* "m:ss", or "h:mm:ss" from an hour on. */
static void format_duration(double seconds, char *buf, size_t len)
{
    unsigned long s = seconds > 0.0 ? (unsigned long)(seconds + 0.5) : 0;
    if (s >= 3600)
        snprintf(buf, len, "%lu:%02lu:%02lu", s / 3600, s / 60 % 60, s % 60);
    else
        snprintf(buf, len, "%lu:%02lu", s / 60, s % 60);
}

size_t qsb_progress_format(char *buf, size_t width, size_t done, size_t total,
                           const char *label, double elapsed_s, double remaining_s)
{
    char elapsed[32], left[32] = "?";
    format_duration(elapsed_s, elapsed, sizeof elapsed);
    if (remaining_s < 0.0 && done > 0 && done <= total) /* none given: at the rate so far */
        remaining_s = elapsed_s / (double)done * (double)(total - done);
    if (remaining_s >= 0.0)
        format_duration(remaining_s, left, sizeof left);
    unsigned percent = total ? (unsigned)(100.0 * (double)done / (double)total) : 100;

    char text[MAX_COLUMNS + 256];
    snprintf(text, sizeof text, "[%zu/%zu] %u%%%s%s  %s elapsed, ~%s left", done, total,
             percent, label && *label ? " " : "", label ? label : "", elapsed, left);
    size_t len = strlen(text);
    if (len > width)
        len = width;
    memcpy(buf, text, len);
    buf[len] = '\0';
    return len;
}

static void draw(const char *text, size_t len)
{
    fputc('\r', stderr);
    fwrite(text, 1, len, stderr);
    for (size_t i = len; i < line.drawn; i++) /* blank what the longer old line left */
        fputc(' ', stderr);
    line.drawn = len;
    fflush(stderr);
}

void qsb_progress_begin(size_t total, qsb_progress_mode mode)
{
    bool terminal = isatty(STDERR_FILENO);
    line.active = mode == QSB_PROGRESS_SHOWN && terminal;
    line.logging = mode == QSB_PROGRESS_SHOWN && !terminal;
    line.total = total;
    line.start_s = now_s();
    line.columns = terminal_columns();
    line.drawn = 0;
    line.done = 0;
    line.label[0] = '\0';
    line.updated_s = line.logged_s = line.start_s;
    line.remaining_s = -1.0;
}

void qsb_progress_set_total(size_t total)
{
    line.total = total;
}

/* The text as of now, cut to width. */
static size_t text_now(char *text, size_t width, double now)
{
    double elapsed = now - line.start_s, remaining = -1.0;
    if (line.remaining_s >= 0.0)
        remaining = fmax(0.0, line.remaining_s - (now - line.updated_s));
    return qsb_progress_format(text, width, line.done, line.total, line.label, elapsed,
                               remaining);
}

static void redraw(void)
{
    char text[MAX_COLUMNS + 1];
    double now = now_s();
    draw(text, text_now(text, line.columns, now));
    line.drawn_s = now;
}

/* Off a terminal: a whole line once QSB_PROGRESS_LOG_S have passed since the last. */
static void log_if_due(void)
{
    double now = now_s();
    if (now - line.logged_s < QSB_PROGRESS_LOG_S)
        return;
    char text[MAX_COLUMNS + 1];
    text_now(text, MAX_COLUMNS, now);
    fprintf(stderr, "qsortbench: progress: %s\n", text);
    fflush(stderr);
    line.logged_s = now;
}

void qsb_progress_tick(void)
{
    if (line.logging)
        log_if_due();
    else if (line.active && now_s() - line.drawn_s >= TICK_INTERVAL_S)
        redraw();
}

void qsb_progress_update(size_t done, const char *label, double remaining_s)
{
    if (!line.active && !line.logging)
        return;
    line.done = done;
    line.updated_s = now_s();
    line.remaining_s = remaining_s;
    snprintf(line.label, sizeof line.label, "%s", label ? label : "");
    if (line.logging)
        log_if_due();
    else
        redraw();
}

/* Blanks the line drawn and puts the cursor back at its start. */
static void erase_line(void)
{
    if (!line.active || line.drawn == 0)
        return;
    draw("", 0);
    fputc('\r', stderr);
    fflush(stderr);
}

void qsb_progress_end(void)
{
    erase_line();
    line.active = line.logging = false;
}
