/*
** gnuplot and its scripts (see gnuplot.h): where the scripts of plots/ are, and gnuplot run
** as a child process, its failure told in its own words.
*/
#include "gnuplot.h"

#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "child.h"
#include "diag.h"
#include "plot.h"
#include "version.h"

#define GNUPLOT_PACKAGE "install Debian's gnuplot-nox (apt-get install gnuplot-nox)"
#define STDERR_KEEP 16384 /* bytes of gnuplot's stderr kept for the error message */

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
** gnuplot as a child process (child.h): argument vector, no shell; stdin and stdout on
** /dev/null so it can neither wait for input nor write into the tool's output; the end of its
** stderr kept for the message.
*/

/* gnuplot's own message: the last non-empty line of its stderr ("file" line N: what). */
static const char *last_line(char *text, size_t len)
{
    while (len > 0 && (text[len - 1] == '\n' || text[len - 1] == '\r' || text[len - 1] == ' '))
        len--;
    text[len] = '\0';
    char *start = memrchr(text, '\n', len);
    return start ? start + 1 : text;
}

/* Reports why gnuplot did not do its job (wait status -1: it could not be started, errno
** set); QSB_OK when it did. */
static int gnuplot_verdict(int wait_status, char *err, const char *what)
{
    if (wait_status < 0)
        return qsb_error(QSB_ESYSTEM, "cannot run %s: %s; %s", QSB_GNUPLOT, strerror(errno),
                         GNUPLOT_PACKAGE);
    if (WIFEXITED(wait_status) && WEXITSTATUS(wait_status) == 0)
        return QSB_OK;
    /* gnuplot's words, unquoted in the message (its own quotes kept), escaped: they may echo
    ** the title and paths it was given */
    char message[QSB_QUOTE_PATH_MAX + 1];
    qsb_escape(message, sizeof message, last_line(err, strlen(err)), "\\");
    if (WIFSIGNALED(wait_status))
        return qsb_error(QSB_ESYSTEM, "gnuplot was killed by signal %d drawing %s",
                         WTERMSIG(wait_status), what);
    return qsb_error(QSB_ESYSTEM, "gnuplot failed drawing %s (exit status %d): %s; the charts "
                     "need Debian's gnuplot-nox 5.4 or later", what,
                     WEXITSTATUS(wait_status), *message ? message : "no message");
}

int qsb_gnuplot_run(char *const argv[], const char *what)
{
    char *err = malloc(STDERR_KEEP);
    if (!err)
        return qsb_out_of_memory("gnuplot");
    int wait_status = qsb_child_run((const char *const *)argv, NULL, NULL, err, STDERR_KEEP,
                                    QSB_CHILD_LAST_ERRORS);
    int status = gnuplot_verdict(wait_status, err, what);
    free(err);
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
