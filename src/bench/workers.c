/*
** Worker processes of a run, pooled with every process one unit (workers.h).
*/
#include "workers.h"

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "diag.h"
#include "pool.h"
#include "progress.h"
#include "read_results.h"
#include "stats.h"
#include "timing.h"

#define POLL_NS 20000000L   /* how often the run looks at its worker (and redraws progress) */
#define LAST_LINE_BYTES 512 /* of a failed worker's stderr, quoted in the error */
#define DIR_BYTES 1024      /* the temporary directory's path */
#define PATH_BYTES (DIR_BYTES + 64) /* a file in it */
#define SELF_EXE "/proc/self/exe"   /* what a worker runs: the run's own executable */
/* No stop for precision before this many workers: stopping at the first interval under the
** target picks the runs whose spread happened to come out small, and with 5 processes (4 df)
** that costs coverage (simulated: 92-93% of t intervals held the truth when stopped so from 5
** units on, 94-95% from 10; one cell here stopped after 6 processes). */
#define PRECISE_MIN_PROCESSES (2 * QSB_MIN_UNITS)

typedef struct {
    const qsb_workers_plan *plan;
    char dir[DIR_BYTES];       /* the private temporary directory */
    char exe[PATH_MAX];        /* this executable's path, the workers' argv[0] */
    qsb_merge_input *runs;     /* the finished workers' results */
    size_t n;
    char **names;              /* "worker 3", for pool's messages */
    pid_t parent;              /* this process, which its workers outlive only by mistake */
} workers;

static void path_of(const workers *w, size_t k, const char *ext, char *buf, size_t len)
{
    snprintf(buf, len, "%s/worker-%zu.%s", w->dir, k + 1, ext);
}

static int make_dir(workers *w)
{
    const char *tmp = getenv("TMPDIR");
    if (!tmp || !*tmp)
        tmp = "/tmp";
    int len = snprintf(w->dir, sizeof w->dir, "%s/qsortbench-XXXXXX", tmp);
    if (len < 0 || (size_t)len >= sizeof w->dir)
        return qsb_error(QSB_ESYSTEM, "TMPDIR is too long a path for the worker processes' "
                                      "directory");
    if (!mkdtemp(w->dir)) {
        int err = errno;
        w->dir[0] = '\0';
        return qsb_error(QSB_ESYSTEM, "cannot create a directory under %s for the worker "
                                      "processes: %s (set TMPDIR)",
                         qsb_quote_path(tmp), strerror(err));
    }
    ssize_t exe_len = readlink(SELF_EXE, w->exe, sizeof w->exe - 1);
    w->exe[exe_len > 0 ? exe_len : 0] = '\0';
    return QSB_OK;
}

static void remove_dir(const workers *w, size_t started)
{
    char path[PATH_BYTES];
    for (size_t k = 0; k < started; k++) {
        path_of(w, k, "json", path, sizeof path);
        unlink(path);
        path_of(w, k, "err", path, sizeof path);
        unlink(path);
    }
    rmdir(w->dir);
}

/* In the child: stdout discarded, stderr into its file, its own process group (a Ctrl-C
** reaches the run, which stops the worker once), a SIGTERM when the run dies; then exec. */
static void exec_worker(const workers *w, char **argv, const char *err_path)
{
    int null_fd = open("/dev/null", O_WRONLY);
    int err_fd = open(err_path, O_WRONLY | O_CREAT | O_TRUNC, 0600);
    if (null_fd < 0 || err_fd < 0 || dup2(null_fd, STDOUT_FILENO) < 0 ||
        dup2(err_fd, STDERR_FILENO) < 0)
        _exit(127);
    close(null_fd);
    close(err_fd);
    setpgid(0, 0);
    if (prctl(PR_SET_PDEATHSIG, SIGTERM) != 0 || getppid() != w->parent)
        _exit(127); /* the run is gone already */
    execv(SELF_EXE, argv); /* this very executable, even if its file was replaced since */
    dprintf(STDERR_FILENO, "qsortbench: error: cannot run " SELF_EXE ": %s\n", strerror(errno));
    _exit(127);
}

/* "--worker=K:SLICE" (malloc'd). */
static char *worker_option(const workers *w, size_t k)
{
    char *text = malloc(64);
    if (text)
        snprintf(text, 64, "--worker=%zu:%.6g", k + 1, w->plan->slice_s);
    return text;
}

/* Worker k's command line: this executable, the run's measuring options, its own. */
static char **worker_argv(const workers *w, size_t k, char *option, char *json)
{
    size_t head = 0;
    while (w->plan->argv_head[head])
        head++;
    char **argv = calloc(head + 6, sizeof *argv);
    if (!argv)
        return NULL;
    size_t n = 0;
    argv[n++] = w->exe[0] ? (char *)w->exe : "qsortbench";
    for (size_t i = 0; i < head; i++)
        argv[n++] = w->plan->argv_head[i];
    argv[n++] = option;
    argv[n++] = "--quiet";
    argv[n++] = "--csv=-";
    memcpy(json, "--json=", 7);
    path_of(w, k, "json", json + 7, PATH_BYTES);
    argv[n++] = json;
    return argv;
}

/* Waits for pid, forwarding a stop request once; redraws the progress line meanwhile. */
static int wait_worker(const workers *w, pid_t pid, int *wstatus)
{
    bool forwarded = false;
    for (;;) {
        pid_t got = waitpid(pid, wstatus, WNOHANG);
        if (got == pid)
            return QSB_OK;
        if (got < 0 && errno != EINTR)
            return qsb_error(QSB_ESYSTEM, "cannot wait for a worker process: %s",
                             strerror(errno));
        if (*w->plan->stop && !forwarded) {
            kill(pid, *w->plan->stop);
            forwarded = true;
        }
        qsb_progress_tick();
        struct timespec pause = {0, POLL_NS};
        nanosleep(&pause, NULL);
    }
}

/* The last non-empty line of a failed worker's stderr, for the error message. */
static void last_line(const char *path, char *buf, size_t len)
{
    snprintf(buf, len, "(no message)");
    FILE *f = fopen(path, "r");
    char line[LAST_LINE_BYTES];
    while (f && fgets(line, sizeof line, f)) {
        line[strcspn(line, "\n")] = '\0';
        if (line[0])
            snprintf(buf, len, "%s", line);
    }
    if (f)
        fclose(f);
}

/* Keeps worker k's results. Exit 0 and 1 (a finding) wrote them, so did 130 and 143 (a
** stop: the finished cells, marked incomplete); anything else is the worker's failure. */
static int collect(workers *w, size_t k, int wstatus)
{
    char json[PATH_BYTES], err[PATH_BYTES], line[LAST_LINE_BYTES];
    path_of(w, k, "json", json, sizeof json);
    path_of(w, k, "err", err, sizeof err);
    int code = WIFEXITED(wstatus) ? WEXITSTATUS(wstatus) : -1;
    bool stopped = code == QSB_SIGINT || code == QSB_SIGTERM;
    if (stopped && w->n > 0)
        return QSB_OK; /* the finished workers have every cell; this one has only some */
    if (code != QSB_OK && code != QSB_FINDING && !stopped) {
        last_line(err, line, sizeof line);
        if (WIFSIGNALED(wstatus))
            return qsb_error(QSB_ESYSTEM, "worker process %zu was killed by signal %d: %s",
                             k + 1, WTERMSIG(wstatus), qsb_quote(line));
        return qsb_error(code == QSB_EUSAGE ? QSB_EUSAGE : QSB_ESYSTEM,
                         "worker process %zu failed (exit %d): %s", k + 1, code,
                         qsb_quote(line));
    }
    char *name = malloc(32);
    qsb_merge_input *grown = realloc(w->runs, (w->n + 1) * sizeof *grown);
    char **names = realloc(w->names, (w->n + 1) * sizeof *names);
    if (grown)
        w->runs = grown;
    if (names)
        w->names = names;
    if (!name || !grown || !names) {
        free(name);
        return qsb_out_of_memory("worker results");
    }
    snprintf(name, 32, "worker %zu", k + 1);
    memset(&w->runs[w->n], 0, sizeof w->runs[w->n]);
    int status = qsb_read_results(json, &w->runs[w->n].run);
    if (status != QSB_OK) {
        free(name);
        return status;
    }
    w->names[w->n] = name;
    w->runs[w->n].file = name;
    w->n++;
    return code == QSB_FINDING ? QSB_FINDING : QSB_OK;
}

static int run_one(workers *w, size_t k)
{
    char json[PATH_BYTES + 8], err[PATH_BYTES];
    char *option = worker_option(w, k);
    char **argv = option ? worker_argv(w, k, option, json) : NULL;
    if (!argv) {
        free(option);
        return qsb_out_of_memory("worker command line");
    }
    path_of(w, k, "err", err, sizeof err);
    fflush(NULL);
    pid_t pid = fork();
    if (pid == 0)
        exec_worker(w, argv, err);
    free(argv);
    free(option);
    if (pid < 0)
        return qsb_error(QSB_ESYSTEM, "cannot start a worker process: %s", strerror(errno));
    int wstatus;
    int status = wait_worker(w, pid, &wstatus);
    return status == QSB_OK ? collect(w, k, wstatus) : status;
}

/* The half-width of the t interval over the workers of the values some_of(row of run r), %
** of the estimate (stats.h); INFINITY when there is none. */
static double spread_pct(const workers *w, size_t c, size_t i, bool delta)
{
    double *values = malloc(w->n * sizeof *values);
    uint32_t *units = malloc(w->n * sizeof *units);
    qsb_unit_spread s = {0, NAN, NAN};
    for (size_t r = 0; values && units && r < w->n; r++) {
        const qsb_row *row = &w->runs[r].run.cells[c].rows[i];
        values[r] = delta ? 1.0 + row->delta_pct / 100.0 : row->summary.median;
        units[r] = (uint32_t)r;
    }
    if (values && units)
        qsb_unit_spread_of(values, units, w->n, &s);
    free(values);
    free(units);
    return qsb_unit_precision_pct(&s);
}

/* Is every interval of the workers so far within the precision target? (Failed rows have no
** interval to narrow; a stopped worker has fewer cells, but then no other starts.) */
static bool precise_enough(const workers *w)
{
    if (w->n < PRECISE_MIN_PROCESSES)
        return false;
    const qsb_results *first = &w->runs[0].run;
    for (size_t c = 0; c < first->ncells; c++)
        for (size_t i = 0; i < first->cells[c].nrows; i++) {
            if (!first->cells[c].rows[i].verified)
                continue;
            if (!(spread_pct(w, c, i, false) <= w->plan->precision_pct) ||
                (i > 0 && !(spread_pct(w, c, i, true) <= w->plan->precision_pct)))
                return false;
        }
    return true;
}

/* Another worker? Always below the minimum, never at the maximum or after a stop; else
** while an interval is wider than the target and the budget holds half of one more of the
** mean duration so far (so the run ends within half a worker of its budget, either side). */
static bool start_another(const workers *w, size_t started, double elapsed_s)
{
    const qsb_workers_plan *p = w->plan;
    if (*p->stop || started >= p->max_processes)
        return false;
    if (started < p->min_processes)
        return true;
    double mean_s = elapsed_s / (double)started; /* started >= min_processes >= 1 */
    return elapsed_s + mean_s / 2 <= p->budget_s && !precise_enough(w);
}

static int pool_workers(workers *w, qsb_results *out)
{
    if (w->n == 1) { /* one unit: no interval, but its cells stand */
        *out = w->runs[0].run;
        memset(&w->runs[0].run, 0, sizeof w->runs[0].run);
        return QSB_OK;
    }
    int status = qsb_pool_runs(w->runs, w->n, out);
    w->n = 0; /* pooled: taken over and freed */
    return status;
}

int qsb_run_workers(const qsb_workers_plan *plan, qsb_results *out, size_t *processes)
{
    workers w;
    memset(&w, 0, sizeof w);
    w.plan = plan;
    w.parent = getpid();
    memset(out, 0, sizeof *out);
    *processes = 0;
    int status = make_dir(&w);
    size_t started = 0, planned = plan->planned;
    bool finding = false;
    uint64_t start = qsb_clock_ns();
    qsb_progress_begin(planned, plan->progress);
    while (status == QSB_OK &&
           start_another(&w, started, (double)(qsb_clock_ns() - start) / 1e9)) {
        char label[64];
        snprintf(label, sizeof label, "worker process %zu", started + 1);
        double elapsed = (double)(qsb_clock_ns() - start) / 1e9;
        double mean = started ? elapsed / (double)started : plan->worker_s;
        size_t left = planned > started ? planned - started : 1;
        qsb_progress_update_eta(started, label, mean * (double)left);
        status = run_one(&w, started++);
        if (status == QSB_FINDING) {
            finding = true;
            status = QSB_OK;
        }
        if (started >= planned && start_another(&w, started, elapsed + mean))
            planned = started + 1;
    }
    qsb_progress_end();
    *processes = w.n;
    if (status == QSB_OK && w.n == 0)
        status = qsb_error(QSB_ESYSTEM, "no worker process finished");
    if (status == QSB_OK)
        status = pool_workers(&w, out);
    for (size_t r = 0; r < w.n; r++)
        qsb_results_free(&w.runs[r].run);
    for (size_t r = 0; r < *processes; r++)
        free(w.names[r]);
    free(w.names);
    free(w.runs);
    if (w.dir[0])
        remove_dir(&w, started);
    return status == QSB_OK && finding ? QSB_FINDING : status;
}

double qsb_results_timed_s(const qsb_results *r)
{
    bool cycles = qsb_same_text(r->context.metric, "cycles");
    double per_s = cycles ? r->context.tsc_hz : 1e9;
    if (!(per_s > 0) || qsb_same_text(r->context.metric, "comparisons"))
        return 0;
    double total = 0;
    for (size_t c = 0; c < r->ncells; c++)
        for (size_t i = 0; i < r->cells[c].nrows; i++) {
            const qsb_row *row = &r->cells[c].rows[i];
            for (size_t k = 0; k < row->nsamples; k++)
                total += row->samples[k] * (double)(row->batch ? row->batch : 1);
        }
    return total / per_s;
}
