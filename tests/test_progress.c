/*
** src/bench/progress.c: the line's text (counts, percent, label, elapsed and remaining time, cut to
** the width), silence when stderr is not a terminal or the run is quiet, and on a
** pseudo-terminal a line redrawn with '\r' and erased at the end, with no newline.
*/
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "check.h"
#include "progress.h"

static void test_format(void)
{
    char buf[200];
    size_t len = qsb_progress_format(buf, 199, 0, 45, "sorted n=49152 size=4", 0.0);
    CHECK_MSG(strcmp(buf, "[0/45] 0% sorted n=49152 size=4  0:00 elapsed, ~? left") == 0,
              "%s", buf);
    CHECK_EQ_U64(len, strlen(buf));

    /* 15 of 45 in 30 s: 2 s a cell, 30 cells left, one minute. */
    qsb_progress_format(buf, 199, 15, 45, "random n=786432 size=8", 30.0);
    CHECK_MSG(strcmp(buf, "[15/45] 33% random n=786432 size=8  0:30 elapsed, ~1:00 left") == 0,
              "%s", buf);

    qsb_progress_format(buf, 199, 45, 45, NULL, 3725.0);
    CHECK_MSG(strcmp(buf, "[45/45] 100%  1:02:05 elapsed, ~0:00 left") == 0, "%s", buf);

    len = qsb_progress_format(buf, 10, 15, 45, "random n=786432 size=8", 30.0);
    CHECK_EQ_U64(len, 10);
    CHECK(strcmp(buf, "[15/45] 33") == 0);
}

/* Runs begin/update/end with stderr sent to fd; returns what was written (malloc'd). */
static char *capture_stderr(int write_fd, int read_fd, bool enabled, size_t *len)
{
    int saved = dup(STDERR_FILENO);
    dup2(write_fd, STDERR_FILENO);
    qsb_progress_begin(2, enabled ? QSB_PROGRESS_ON_TERMINAL : QSB_PROGRESS_QUIET);
    qsb_progress_update(0, "sorted n=49152 size=4");
    qsb_progress_update(1, "sorted n=786432 size=4");
    qsb_progress_clear();
    qsb_progress_update(1, "x");
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

static void test_silent_off_terminal(void)
{
    int fds[2];
    CHECK(pipe(fds) == 0);
    fcntl(fds[0], F_SETFL, O_NONBLOCK);
    size_t len;
    char *out = capture_stderr(fds[1], fds[0], true, &len);
    CHECK_EQ_U64(len, 0);
    free(out);
    close(fds[0]);
    close(fds[1]);
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
    test_silent_off_terminal();
    test_terminal();
    return check_done();
}
