/*
** src/bench/progress.c: the line's text (counts, percent, label, elapsed and remaining time, cut to
** the width), whole lines at most every 30 s and at least every minute when stderr is not a
** terminal (on a fake clock), silence when the run is quiet, and on a pseudo-terminal a line
** redrawn with '\r' and erased at the end, with no newline.
*/
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "check.h"
#include "progress.h"

static void test_format(void)
{
    char buf[200];
    size_t len = qsb_progress_format(buf, 199, 0, 45, "sorted n=49152 size=4", 0.0, -1.0);
    CHECK_MSG(strcmp(buf, "[0/45] 0% sorted n=49152 size=4  0:00 elapsed, ~? left") == 0,
              "%s", buf);
    CHECK_EQ_U64(len, strlen(buf));

    /* 15 of 45 in 30 s: 2 s a cell, 30 cells left, one minute. */
    qsb_progress_format(buf, 199, 15, 45, "random n=786432 size=8", 30.0, -1.0);
    CHECK_MSG(strcmp(buf, "[15/45] 33% random n=786432 size=8  0:30 elapsed, ~1:00 left") == 0,
              "%s", buf);

    qsb_progress_format(buf, 199, 45, 45, NULL, 3725.0, -1.0);
    CHECK_MSG(strcmp(buf, "[45/45] 100%  1:02:05 elapsed, ~0:00 left") == 0, "%s", buf);

    len = qsb_progress_format(buf, 10, 15, 45, "random n=786432 size=8", 30.0, -1.0);
    CHECK_EQ_U64(len, 10);
    CHECK(strcmp(buf, "[15/45] 33") == 0);
}

/* Runs begin/update/end with stderr sent to fd; returns what was written (malloc'd). */
static char *capture_stderr(int write_fd, int read_fd, bool enabled, size_t *len)
{
    int saved = dup(STDERR_FILENO);
    dup2(write_fd, STDERR_FILENO);
    qsb_progress_begin(2, enabled ? QSB_PROGRESS_SHOWN : QSB_PROGRESS_QUIET);
    qsb_progress_update(0, "sorted n=49152 size=4", -1.0);
    qsb_progress_update(1, "sorted n=786432 size=4", -1.0);
    qsb_progress_update(1, "x", -1.0);
    qsb_progress_end();
    dup2(saved, STDERR_FILENO);
    close(saved);

    char *out = calloc(4096, 1);
    *len = 0;
    ssize_t n;
    while (out && *len < 4095 && (n = read(read_fd, out + *len, 4095 - *len)) > 0)
        *len += (size_t)n;
    return out;
}

static double fake_now;

static double fake_clock(void)
{
    return fake_now;
}

/* The m:ss elapsed of a progress line, in seconds; -1 when it has none. */
static long elapsed_of(const char *line)
{
    const char *at = strstr(line, " elapsed");
    const char *start = at;
    while (start && start > line && start[-1] != ' ')
        start--;
    unsigned minutes, seconds;
    if (!at || sscanf(start, "%u:%u", &minutes, &seconds) != 2)
        return -1;
    return (long)minutes * 60 + (long)seconds;
}

/* Off a terminal (a pipe, as in a CI log), on a fake clock: nothing in the first 30 s, then a
** whole line at the first update or tick 30 s after the last, whatever the cadence of the
** updates (each 7 s, a 25 s pause among them), with no control characters; quiet: nothing. */
static void test_lines_off_terminal(void)
{
    int fds[2];
    CHECK(pipe(fds) == 0);
    fcntl(fds[0], F_SETFL, O_NONBLOCK);
    int saved = dup(STDERR_FILENO);
    dup2(fds[1], STDERR_FILENO);
    qsb_progress_use_clock(fake_clock);
    for (int shown = 0; shown < 2; shown++) {
        fake_now = 1000.0;
        qsb_progress_begin(40, shown ? QSB_PROGRESS_SHOWN : QSB_PROGRESS_QUIET);
        for (size_t done = 0; done < 40; done++) {
            fake_now += done == 20 ? 25.0 : 7.0;
            qsb_progress_update((size_t)done, "worker process 3", 300.0 - 7.0 * done);
            qsb_progress_tick();
        }
        qsb_progress_end();
    }
    qsb_progress_use_clock(NULL);
    dup2(saved, STDERR_FILENO);
    close(saved);
    static char out[8192];
    ssize_t n = read(fds[0], out, sizeof out - 1);
    out[n > 0 ? n : 0] = '\0';
    close(fds[0]);
    close(fds[1]);

    long last = 0;
    size_t lines = 0;
    for (char *line = strtok(out, "\n"); line; line = strtok(NULL, "\n"), lines++) {
        CHECK_MSG(strncmp(line, "qsortbench: progress: [", 23) == 0, "%s", line);
        for (const char *c = line; *c; c++)
            CHECK_MSG((unsigned char)*c >= ' ', "a control character in '%s'", line);
        long at = elapsed_of(line);
        CHECK_MSG(at - last >= 30 && at - last <= 60, "%ld s after the last: %s", at - last,
                  line);
        last = at;
    }
    /* 298 s of updates: a line at 35, 70, 105, 143 (the pause), 178, 213, 248, 283 s. */
    CHECK_EQ_U64(lines, 8);
}

static void test_terminal(void)
{
    int master = posix_openpt(O_RDWR | O_NOCTTY);
    if (master < 0 || grantpt(master) != 0 || unlockpt(master) != 0) {
        CHECK_MSG(0, "no pseudo-terminal available");
        return;
    }
    int slave = open(ptsname(master), O_RDWR | O_NOCTTY);
    CHECK(slave >= 0);
    fcntl(master, F_SETFL, O_NONBLOCK);

    size_t len;
    char *quiet = capture_stderr(slave, master, false, &len); /* --quiet on a terminal */
    CHECK_EQ_U64(len, 0);
    free(quiet);

    char *out = capture_stderr(slave, master, true, &len);
    CHECK(out && len > 0);
    if (out && len > 0) {
        CHECK(out[0] == '\r');
        CHECK(strstr(out, "[0/2] 0% sorted n=49152 size=4") != NULL);
        CHECK(strstr(out, "\r[1/2] 50% sorted n=786432 size=4") != NULL);
        CHECK(strstr(out, "\r[1/2] 50% x") != NULL);
        CHECK(memchr(out, '\n', len) == NULL);
        /* Erased at the end: the last line drawn is blanked, the cursor back at column 0. */
        CHECK(out[len - 1] == '\r');
        size_t blanks = 0;
        for (size_t i = len - 1; i > 0 && out[i - 1] == ' '; i--)
            blanks++;
        CHECK(blanks >= strlen("[1/2] 50% x"));
    }
    free(out);
    close(slave);
    close(master);
}

int main(void)
{
    test_format();
    test_lines_off_terminal();
    test_terminal();
    return check_done();
}
