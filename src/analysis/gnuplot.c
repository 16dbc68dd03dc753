/*
** gnuplot and its scripts (see gnuplot.h): where the scripts of plots/ are, and gnuplot run
** as a child process, its failure told in its own words.
*/
#include "gnuplot.h"

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/types.h>
#include <sys/wait.h>
#include <unistd.h>

#include "diag.h"
#include "plot.h"
#include "version.h"

#define GNUPLOT_PACKAGE "install Debian's gnuplot-nox (apt-get install gnuplot-nox)"
#define STDERR_KEEP 8192 /* bytes of gnuplot's stderr kept for the error message */

static const char *const chart_scripts[] = {"deltas.gp", "scaling.gp", "comparisons.gp",
                                             "trend.gp"};

/* ------------------------------------------------------------------------------------------
** Where the scripts are: beside an installed executable, in the source tree for a build-tree
** executable, or under the configured install prefix.
*/

static int scripts_in(const char *dir)
{
    char path[PATH_MAX];
    for (size_t i = 0; i < sizeof chart_scripts / sizeof *chart_scripts; i++) {
        int n = snprintf(path, sizeof path, "%s/%s", dir, chart_scripts[i]);
        if (n < 0 || (size_t)n >= sizeof path || access(path, R_OK) != 0)
            return 0;
    }
    return 1;
}

static int exe_relative_dir(char *dir, size_t len)
{
    char exe[PATH_MAX];
    ssize_t n = readlink("/proc/self/exe", exe, sizeof exe - 1);
    if (n <= 0)
        return 0;
    exe[n] = '\0';
    char *slash = strrchr(exe, '/');
    if (!slash)
        return 0;
    *slash = '\0';
    int m = snprintf(dir, len, "%s/../share/qsortbench/plots", exe);
    return m > 0 && (size_t)m < len;
}

int qsb_gnuplot_find_scripts(char *dir, size_t len)
{
    if (exe_relative_dir(dir, len) && scripts_in(dir))
        return QSB_OK;
#ifdef QSB_SOURCE_PLOTS_DIR
    if (scripts_in(QSB_SOURCE_PLOTS_DIR)) {
        snprintf(dir, len, "%s", QSB_SOURCE_PLOTS_DIR);
        return QSB_OK;
    }
#endif
    if (scripts_in(QSB_DATADIR "/plots")) {
        snprintf(dir, len, "%s", QSB_DATADIR "/plots");
        return QSB_OK;
    }
    return qsb_error(QSB_ESYSTEM,
                     "the gnuplot scripts (deltas.gp, ...) are in neither "
                     "<executable>/../share/qsortbench/plots nor %s/plots; reinstall qsortbench",
                     QSB_DATADIR);
}

/* ------------------------------------------------------------------------------------------
** gnuplot as a child process: argument vector, no shell; stdin and stdout on /dev/null so it
** can neither wait for input nor write into the tool's output; stderr kept for the message.
*/

typedef struct {
    int exec_errno;           /* non-zero: gnuplot could not be started */
    int wait_status;
    char err[2 * STDERR_KEEP]; /* the last STDERR_KEEP..2*STDERR_KEEP bytes of its stderr */
    size_t errlen;
} gnuplot_outcome;

static void exec_child(char *const argv[], int err_fd, int exec_fd)
{
    int null_fd = open("/dev/null", O_RDWR | O_CLOEXEC);
    if (null_fd >= 0 && dup2(null_fd, STDIN_FILENO) >= 0 && dup2(null_fd, STDOUT_FILENO) >= 0 &&
        dup2(err_fd, STDERR_FILENO) >= 0)
        execvp(argv[0], argv);
    int e = errno;
    ssize_t ignored = write(exec_fd, &e, sizeof e); /* the parent reads why */
    (void)ignored;
    _exit(127);
}

static void keep_stderr(gnuplot_outcome *out, const char *chunk, size_t n)
{
    for (size_t i = 0; i < n; i++) {
        if (out->errlen == sizeof out->err) { /* keep the end: gnuplot's error comes last */
            memmove(out->err, out->err + STDERR_KEEP, sizeof out->err - STDERR_KEEP);
            out->errlen -= STDERR_KEEP;
        }
        out->err[out->errlen++] = chunk[i];
    }
}

static void read_child(int exec_fd, int err_fd, gnuplot_outcome *out)
{
    int e;
    ssize_t n;
    while ((n = read(exec_fd, &e, sizeof e)) < 0 && errno == EINTR)
        ;
    if (n == (ssize_t)sizeof e)
        out->exec_errno = e ? e : ENOEXEC;
    char chunk[1024];
    while ((n = read(err_fd, chunk, sizeof chunk)) != 0) {
        if (n < 0 && errno == EINTR)
            continue;
        if (n < 0)
            break;
        keep_stderr(out, chunk, (size_t)n);
    }
}

static int run_gnuplot(char *const argv[], gnuplot_outcome *out)
{
    memset(out, 0, sizeof *out);
    int err_pipe[2], exec_pipe[2];
    if (pipe2(err_pipe, O_CLOEXEC) != 0)
        return qsb_error(QSB_ESYSTEM, "cannot start gnuplot: pipe: %s", strerror(errno));
    if (pipe2(exec_pipe, O_CLOEXEC) != 0) {
        int err = errno;
        close(err_pipe[0]);
        close(err_pipe[1]);
        return qsb_error(QSB_ESYSTEM, "cannot start gnuplot: pipe: %s", strerror(err));
    }
    fflush(NULL); /* nothing buffered may be written twice */
    pid_t pid = fork();
    if (pid == 0)
        exec_child(argv, err_pipe[1], exec_pipe[1]);
    int fork_errno = errno;
    close(err_pipe[1]);
    close(exec_pipe[1]);
    if (pid > 0)
        read_child(exec_pipe[0], err_pipe[0], out);
    close(err_pipe[0]);
    close(exec_pipe[0]);
    if (pid < 0)
        return qsb_error(QSB_ESYSTEM, "cannot start gnuplot: fork: %s", strerror(fork_errno));
    while (waitpid(pid, &out->wait_status, 0) < 0) {
        if (errno != EINTR)
            return qsb_error(QSB_ESYSTEM, "waiting for gnuplot: %s", strerror(errno));
    }
    return QSB_OK;
}

/* gnuplot's own message: the last non-empty line of its stderr ("file" line N: what). */
static const char *last_line(char *text, size_t len)
{
    while (len > 0 && (text[len - 1] == '\n' || text[len - 1] == '\r' || text[len - 1] == ' '))
        len--;
    text[len] = '\0';
    char *start = memrchr(text, '\n', len);
    return start ? start + 1 : text;
}

/* Reports why gnuplot did not do its job; QSB_OK when it did. */
static int gnuplot_verdict(gnuplot_outcome *out, const char *what)
{
    if (out->exec_errno)
        return qsb_error(QSB_ESYSTEM, "cannot run %s: %s; %s", QSB_GNUPLOT,
                         strerror(out->exec_errno), GNUPLOT_PACKAGE);
    if (WIFEXITED(out->wait_status) && WEXITSTATUS(out->wait_status) == 0)
        return QSB_OK;
    /* gnuplot's words, unquoted in the message (its own quotes kept), escaped: they may echo
    ** the title and paths it was given */
    char message[QSB_QUOTE_PATH_MAX + 1];
    qsb_escape(message, sizeof message, last_line(out->err, out->errlen), "\\");
    if (WIFSIGNALED(out->wait_status))
        return qsb_error(QSB_ESYSTEM, "gnuplot was killed by signal %d drawing %s",
                         WTERMSIG(out->wait_status), what);
    return qsb_error(QSB_ESYSTEM, "gnuplot failed drawing %s (exit status %d): %s; the charts "
                     "need Debian's gnuplot-nox 5.4 or later", what,
                     WEXITSTATUS(out->wait_status), *message ? message : "no message");
}

int qsb_gnuplot_run(char *const argv[], const char *what)
{
    gnuplot_outcome *out = malloc(sizeof *out);
    if (!out)
        return qsb_out_of_memory("gnuplot");
    int status = run_gnuplot(argv, out);
    if (status == QSB_OK)
        status = gnuplot_verdict(out, what);
    free(out);
    return status;
}

int qsb_plot_run_script(const char *script, const char *const *args, size_t nargs,
                        const char *output, const char *what)
{
    char dir[PATH_MAX], path[PATH_MAX + 32];
    int status = qsb_gnuplot_find_scripts(dir, sizeof dir);
    if (status != QSB_OK)
        return status;
    snprintf(path, sizeof path, "%s/%s", dir, script);
    char **argv = calloc(nargs + 5, sizeof *argv);
    if (!argv)
        return qsb_out_of_memory("gnuplot");
    argv[0] = QSB_GNUPLOT;
    argv[1] = "-d";
    argv[2] = "-c";
    argv[3] = path;
    for (size_t i = 0; i < nargs; i++)
        argv[4 + i] = (char *)args[i];
    status = qsb_gnuplot_run(argv, what);
    free(argv);
    struct stat st;
    if (status == QSB_OK && (stat(output, &st) != 0 || st.st_size == 0))
        status = qsb_error(QSB_ESYSTEM, "gnuplot wrote no %s; the charts need Debian's "
                           "gnuplot-nox 5.4 or later", what);
    return status;
}

int qsb_plot_check(void)
{
    char dir[PATH_MAX];
    int status = qsb_gnuplot_find_scripts(dir, sizeof dir);
    if (status != QSB_OK)
        return status;
    char *argv[] = {QSB_GNUPLOT, "--version", NULL};
    return qsb_gnuplot_run(argv, "nothing (--version)");
}
