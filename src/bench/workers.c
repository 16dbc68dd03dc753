/*
** Worker processes of a run, pooled with every process one unit (workers.h).
*/
#include "workers.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <float.h>
#include <limits.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <unistd.h>

#include "diag.h"
#include "pool.h"
#include "process_group.h"
#include "progress.h"
#include "stop.h"
#include "read_results.h"
#include "states.h"
#include "stats.h"
#include "timing.h"
#include "visit_record.h"

#define LAST_LINE_BYTES 512 /* of a failed worker's stderr, quoted in the error */
#define DIR_BYTES 1024      /* the temporary directory's path */
#define PATH_BYTES (DIR_BYTES + 64) /* a file in it */
#define SELF_EXE "/proc/self/exe"   /* what a worker runs: the run's own executable */
#define TSC_OPTION_BYTES 48         /* "--tsc-hz=" and a double */
#define FD_OPTION_BYTES 32          /* "--inputs-fd=" and an int */
#define MODEL_OPTION_BYTES (PATH_BYTES + 16) /* "--model=" and a worker's results file */
#define WORKER_OWN_ARGS 10          /* argv beyond the run's head: argv[0], the options, NULL */
/* No stop for precision before this many workers: stopping at the first interval under the
** target picks the runs whose spread happened to come out small, and with 5 processes (4 df)
** that costs coverage, less from 10 processes on than from 5 (simulated:
** docs/results.md#why-precision-stop-10). */
#define PRECISE_MIN_PROCESSES (2 * QSB_MIN_UNITS)

typedef struct {
    const qsb_workers_plan *plan;
    char dir[DIR_BYTES];       /* the private temporary directory */
    char exe[PATH_MAX];        /* this executable's path, the workers' argv[0] */
    qsb_merge_input *runs;     /* the finished workers' results */
    size_t n;
    char **names;              /* "worker 3", for pool's messages */
    size_t **where;            /* per finished worker, per cell of the first: the cell's index
                               ** in that worker's results, or NO_CELL */
    double *cost_s;            /* per cell of the first worker: seconds of its visits */
    size_t *costed;            /* ... over this many visits */
    double *cost_max_s;        /* ... the longest of them: whether a visit still fits */
    size_t *visits;            /* per cell of the first worker: the processes that visited it */
    pid_t parent;              /* this process, which its workers outlive only by mistake */
    size_t model;              /* the first finished worker, whose results the later ones
                               ** take their exact counts and batches from (run.h); or
                               ** NO_MODEL */
    qsb_visit_record *record;  /* where the current worker is (visit_record.h) */
    int record_fd;
    bool lost_retried;         /* a lost visit is retried once; the next ends the run */
    bool incomplete;           /* the run ended before its plan: a visit was lost twice */
} workers;

#define NO_MODEL SIZE_MAX

#define NO_CELL SIZE_MAX

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

/* Everything in the directory goes: the workers' files, and the temporary files of a worker
** that died before it committed them. */
static void remove_dir(const workers *w)
{
    char path[PATH_BYTES];
    DIR *d = opendir(w->dir);
    for (struct dirent *e; d && (e = readdir(d)) != NULL;)
        if (strcmp(e->d_name, ".") != 0 && strcmp(e->d_name, "..") != 0 &&
            snprintf(path, sizeof path, "%s/%s", w->dir, e->d_name) < (int)sizeof path)
            unlink(path);
    if (d)
        closedir(d);
    rmdir(w->dir);
}

/* In the child (its own process group, process_group.h: a Ctrl-C reaches the run, which stops
** the worker once): stdout discarded, stderr into its file, the run's inputs kept open across
** the exec, a SIGTERM when the run dies; then exec. */
static void exec_worker(const workers *w, char **argv, const char *err_path)
{
    int null_fd = open("/dev/null", O_WRONLY);
    int err_fd = open(err_path, O_WRONLY | O_CREAT | O_TRUNC, 0600);
    if (null_fd < 0 || err_fd < 0 || dup2(null_fd, STDOUT_FILENO) < 0 ||
        dup2(err_fd, STDERR_FILENO) < 0 ||
        (w->plan->inputs_fd >= 0 && fcntl(w->plan->inputs_fd, F_SETFD, 0) != 0) ||
        fcntl(w->record_fd, F_SETFD, 0) != 0)
        _exit(127);
    close(null_fd);
    close(err_fd);
    if (prctl(PR_SET_PDEATHSIG, SIGTERM) != 0 || getppid() != w->parent)
        _exit(127); /* the run is gone already */
    execv(SELF_EXE, argv); /* this very executable, even if its file was replaced since; its
                           ** SIGINT and SIGTERM stay blocked until it has its handlers */
    dprintf(STDERR_FILENO, "qsortbench: error: cannot run " SELF_EXE ": %s\n", strerror(errno));
    _exit(127);
}

/* "--worker=K:SLICE", or with only some cells "--worker=K:SLICE:3,7,12" (malloc'd). */
static char *worker_option(const workers *w, size_t k, const size_t *cells, size_t ncells)
{
    size_t len = 64 + ncells * 21;
    char *text = malloc(len);
    if (!text)
        return NULL;
    int used = snprintf(text, len, "--worker=%zu:%.6g", k + 1, w->plan->slice_s);
    for (size_t i = 0; i < ncells && used > 0 && (size_t)used < len; i++)
        used += snprintf(text + used, len - (size_t)used, "%c%zu", i ? ',' : ':', cells[i]);
    return text;
}

/* Worker k's command line: this executable, the run's measuring options, its own (the TSC
** frequency into tsc: a worker need not spend 50 ms calibrating it again; the shared inputs'
** descriptor into fd). */
static char **worker_argv(const workers *w, size_t k, char *option, char *json,
                          char tsc[TSC_OPTION_BYTES], char fd[2][FD_OPTION_BYTES],
                          char model[MODEL_OPTION_BYTES])
{
    size_t head = 0;
    while (w->plan->argv_head[head])
        head++;
    char **argv = calloc(head + WORKER_OWN_ARGS, sizeof *argv);
    if (!argv)
        return NULL;
    size_t n = 0;
    argv[n++] = w->exe[0] ? (char *)w->exe : "qsortbench";
    for (size_t i = 0; i < head; i++)
        argv[n++] = w->plan->argv_head[i];
    argv[n++] = option;
    if (w->plan->tsc_hz > 0) {
        snprintf(tsc, TSC_OPTION_BYTES, "--tsc-hz=%.17g", w->plan->tsc_hz);
        argv[n++] = tsc;
    }
    if (w->plan->inputs_fd >= 0) {
        snprintf(fd[0], FD_OPTION_BYTES, "--inputs-fd=%d", w->plan->inputs_fd);
        argv[n++] = fd[0];
    }
    if (w->model != NO_MODEL) {
        memcpy(model, "--model=", 8);
        path_of(w, w->model, "json", model + 8, PATH_BYTES);
        argv[n++] = model;
    }
    snprintf(fd[1], FD_OPTION_BYTES, "--visit-fd=%d", w->record_fd);
    argv[n++] = fd[1];
    argv[n++] = "--quiet";
    argv[n++] = "--csv=-";
    memcpy(json, "--json=", 7);
    path_of(w, k, "json", json + 7, PATH_BYTES);
    argv[n++] = json;
    return argv;
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

/* A worker's plug-in code printed on its standard output (process_group.h): the notice and
** the bytes that follow it are among the worker's private messages, so the run passes them
** on (the notice naming the worker). */
static void pass_on_stdout_notice(const workers *w, size_t k)
{
    char err[PATH_BYTES], line[LAST_LINE_BYTES];
    long long bytes = 0, left = 0;
    path_of(w, k, "err", err, sizeof err);
    FILE *f = fopen(err, "r");
    while (f && !bytes && fgets(line, sizeof line, f))
        if (sscanf(line, "qsortbench: warning: plug-in code in a worker process wrote %lld",
                   &bytes) != 1)
            bytes = 0;
    if (bytes > 0) {
        qsb_warning("plug-in code in worker process %zu wrote %lld bytes on standard output, "
                    "which carries only the tool's own; they follow on standard error",
                    k + 1, bytes);
        fflush(stderr);
        for (left = bytes; left > 0 && fgets(line, sizeof line, f);) {
            size_t len = strlen(line);
            fputs(line, stderr);
            left -= (long long)len;
        }
    }
    if (f)
        fclose(f);
}

/* where[c]: the index in run of the first worker's cell c, NO_CELL where run did not visit
** it (the first worker's own: every cell). A worker that reports a cell the first did not
** measure is an error: pooling would lose it. */
static int locate_cells(workers *w, const qsb_results *run, size_t **where)
{
    const qsb_results *first = w->n ? &w->runs[0].run : run;
    *where = malloc((first->ncells ? first->ncells : 1) * sizeof **where);
    if (!*where)
        return qsb_out_of_memory("worker results");
    size_t found = 0;
    for (size_t c = 0; c < first->ncells; c++) {
        const qsb_cell *cell = qsb_results_find_cell(run, &first->cells[c]);
        (*where)[c] = cell ? (size_t)(cell - run->cells) : NO_CELL;
        found += cell != NULL;
    }
    if (found == run->ncells)
        return QSB_OK;
    free(*where);
    *where = NULL;
    return qsb_error(QSB_ESYSTEM, "a worker process measured cells its run did not ask for");
}

/* Seconds inside the timed sorts behind a cell's samples (each sample is one sort of a
** batch); 0 where the metric is not a time. */
static double cell_timed_s(const qsb_context *context, const qsb_cell *cell)
{
    bool cycles = qsb_same_text(context->metric, "cycles");
    double per_s = cycles ? context->tsc_hz : 1e9;
    if (!(per_s > 0) || qsb_same_text(context->metric, "comparisons"))
        return 0;
    double total = 0;
    for (size_t i = 0; i < cell->nrows; i++) {
        const qsb_row *row = &cell->rows[i];
        for (size_t k = 0; k < row->nsamples; k++)
            total += row->samples[k] * (double)(row->batch ? row->batch : 1);
    }
    return total / per_s;
}

/* Worker r's wall time, less its start, shared among its cells as their timed sorts were
** (the copies and checks of a visit grow with its sorts): what a visit of a cell costs, for
** choosing the cells of the processes after the minimum. The first worker also counted
** (the later ones take its counts: run.h, model), so its costs stand only until the
** second's are known. */
static void add_costs(workers *w, size_t r, double wall_s)
{
    const qsb_results *run = &w->runs[r].run;
    size_t ncells = r ? w->runs[0].run.ncells : run->ncells;
    if (r == 0) {
        w->cost_s = calloc(ncells ? ncells : 1, sizeof *w->cost_s);
        w->costed = calloc(ncells ? ncells : 1, sizeof *w->costed);
        w->cost_max_s = calloc(ncells ? ncells : 1, sizeof *w->cost_max_s);
        w->visits = calloc(ncells ? ncells : 1, sizeof *w->visits);
    }
    if (!w->cost_s || !w->costed || !w->cost_max_s || !w->visits)
        return;
    if (r == 1) {
        memset(w->cost_s, 0, ncells * sizeof *w->cost_s);
        memset(w->costed, 0, ncells * sizeof *w->costed);
        memset(w->cost_max_s, 0, ncells * sizeof *w->cost_max_s);
    }
    double total = qsb_results_timed_s(run), spent = wall_s - w->plan->start_s;
    for (size_t c = 0; c < ncells; c++) {
        if (w->where[r][c] == NO_CELL)
            continue;
        w->visits[c]++;
        if (total > 0 && spent > 0) {
            double cost = spent * cell_timed_s(&run->context, &run->cells[w->where[r][c]]) /
                          total;
            w->cost_s[c] += cost;
            w->cost_max_s[c] = fmax(w->cost_max_s[c], cost);
            w->costed[c]++;
        }
    }
}

/* Keeps the results of worker k, which exited outside any sort with this code. Exit 0 and 1
** (a finding) wrote them, so did a stop's status (stop.h: the finished cells, marked
** incomplete); anything else is the worker's failure. */
static int collect(workers *w, size_t k, int code, double wall_s)
{
    char json[PATH_BYTES], err[PATH_BYTES], line[LAST_LINE_BYTES];
    path_of(w, k, "json", json, sizeof json);
    path_of(w, k, "err", err, sizeof err);
    bool stopped = qsb_stop_is_exit_status(code);
    if (stopped && (w->n > 0 || w->record->cells_kept == 0))
        return QSB_OK; /* the finished workers have every cell; this one has only some, or
                       ** none (stopped in its first cell) */
    if (code != QSB_OK && code != QSB_FINDING && !stopped) {
        last_line(err, line, sizeof line);
        return qsb_error(code == QSB_EUSAGE ? QSB_EUSAGE : QSB_ESYSTEM,
                         "worker process %zu failed (exit %d): %s", k + 1, code,
                         qsb_quote(line));
    }
    char *name = malloc(32);
    qsb_merge_input *grown = realloc(w->runs, (w->n + 1) * sizeof *grown);
    char **names = realloc(w->names, (w->n + 1) * sizeof *names);
    size_t **where = realloc(w->where, (w->n + 1) * sizeof *where);
    if (grown)
        w->runs = grown;
    if (names)
        w->names = names;
    if (where)
        w->where = where;
    if (!name || !grown || !names || !where) {
        free(name);
        return qsb_out_of_memory("worker results");
    }
    snprintf(name, 32, "worker %zu", k + 1);
    memset(&w->runs[w->n], 0, sizeof w->runs[w->n]);
    int status = qsb_read_results(json, &w->runs[w->n].run);
    if (status == QSB_OK)
        status = locate_cells(w, &w->runs[w->n].run, &w->where[w->n]);
    if (status != QSB_OK) {
        qsb_results_free(&w->runs[w->n].run);
        free(name);
        return status;
    }
    w->names[w->n] = name;
    w->runs[w->n].file = name;
    add_costs(w, w->n, wall_s);
    if (w->model == NO_MODEL && !stopped)
        w->model = k;
    w->n++;
    return code == QSB_FINDING ? QSB_FINDING : QSB_OK;
}

/* Starts worker k on the given cells of the first worker (all of them when cells is NULL)
** and watches it to its end. */
static int start_and_watch(workers *w, size_t k, const size_t *cells, size_t ncells,
                           qsb_process_end *end, double *wall_s)
{
    char json[PATH_BYTES + 8], err[PATH_BYTES], tsc[TSC_OPTION_BYTES], fd[2][FD_OPTION_BYTES];
    char model[MODEL_OPTION_BYTES];
    char *option = worker_option(w, k, cells, cells ? ncells : 0);
    char **argv = option ? worker_argv(w, k, option, json, tsc, fd, model) : NULL;
    if (!argv) {
        free(option);
        return qsb_out_of_memory("worker command line");
    }
    path_of(w, k, "err", err, sizeof err);
    qsb_visit_record_reset(w->record);
    fflush(NULL);
    uint64_t start = qsb_clock_ns();
    sigset_t mask;
    qsb_signals_block(&mask);
    pid_t pid = qsb_group_fork();
    if (pid == 0)
        exec_worker(w, argv, err);
    qsb_signals_restore(&mask);
    free(argv);
    free(option);
    if (pid < 0)
        return qsb_error(QSB_ESYSTEM, "cannot start a worker process: %s", strerror(errno));
    char who[48];
    snprintf(who, sizeof who, "worker process %zu", k + 1);
    qsb_watch watch = {qsb_visit_deadline_s(w->plan->worker_s), w->plan->stop,
                       qsb_progress_tick, who};
    int status = qsb_watch_process(&watch, pid, w->record, end);
    *wall_s = (double)(qsb_clock_ns() - start) / 1e9;
    pass_on_stdout_notice(w, k);
    return status;
}

/* A worker died, exited or hung in an algorithm's sorts: the algorithm is excluded from
** every later worker (its rows FAILED with the cause), which the caller retries. */
static void blame(workers *w, size_t k, const qsb_process_end *end)
{
    const char *name = w->plan->algo_names ? w->plan->algo_names[end->algo] : "?";
    qsb_warning("worker process %zu: %s %s in cell %s; its rows are FAILED (%s) and the "
                "others measured again",
                k + 1, name, end->cause, end->cell[0] ? end->cell : "(none)", end->cause);
    snprintf(w->record->excluded[end->algo], QSB_VISIT_CAUSE_BYTES, "%s", end->cause);
}

/* A worker killed from outside, or dead outside any sort: its visit is retried once; lost
** again, the run ends there, marked incomplete. Returns whether to retry. */
static bool retry_lost(workers *w, size_t k, const qsb_process_end *end)
{
    char err[PATH_BYTES], line[LAST_LINE_BYTES] = "", said[LAST_LINE_BYTES + 8] = "";
    bool killed = strncmp(end->cause, "killed", 6) == 0;
    if (!killed) { /* its own last words may say why */
        path_of(w, k, "err", err, sizeof err);
        last_line(err, line, sizeof line);
        snprintf(said, sizeof said, ": %s", qsb_quote(line));
    }
    bool retry = !w->lost_retried;
    qsb_warning("worker process %zu was %s (%s) in cell %s%s; %s", k + 1,
                killed ? "killed from outside" : "lost", end->cause,
                end->cell[0] ? end->cell : "(none)", said,
                retry ? "its visit is retried" : "the run ends here, marked incomplete");
    w->lost_retried = true;
    w->incomplete = !retry;
    return retry;
}

/* Runs worker k on the given cells of the first worker (all of them when cells is NULL),
** again without an algorithm that took it down, and once more after a lost visit. */
static int run_one(workers *w, size_t k, const size_t *cells, size_t ncells)
{
    for (;;) {
        qsb_process_end end;
        double wall_s = 0;
        int status = start_and_watch(w, k, cells, ncells, &end, &wall_s);
        if (status != QSB_OK)
            return status;
        switch (end.kind) {
        case QSB_END_SORT_FAILED:
            blame(w, k, &end);
            continue;
        case QSB_END_LOST:
            if (retry_lost(w, k, &end))
                continue;
            return QSB_OK;
        case QSB_END_INTERRUPTED:
            return qsb_stop_is_exit_status(end.exit_code)
                       ? collect(w, k, end.exit_code, wall_s)
                       : QSB_OK; /* killed after the grace: nothing of it to keep */
        case QSB_END_EXITED:
            return collect(w, k, end.exit_code, wall_s);
        }
    }
}

/* The half-width, % of the middle value, of the interval the pooled row will have (pool.h:
** a delta's t interval over the processes; a median's, from 6 processes the order-statistic
** interval of the processes' medians, with 5 the t interval) over the workers that visited
** the first worker's cell c: row i's median, or its delta; INFINITY when there is none. The
** same interval as the files', so that the run stops narrowing a cell when what it reports
** meets --precision. */
static double spread_pct(const workers *w, size_t c, size_t i, bool delta)
{
    double *values = malloc(w->n * sizeof *values);
    uint32_t *units = malloc(w->n * sizeof *units);
    double pct = INFINITY, lo = NAN, hi = NAN;
    size_t n = 0;
    for (size_t r = 0; values && units && r < w->n; r++) {
        if (w->where[r][c] == NO_CELL)
            continue;
        const qsb_row *row = &w->runs[r].run.cells[w->where[r][c]].rows[i];
        values[n] = delta ? 1.0 + row->delta_pct / 100.0 : row->summary.median;
        units[n++] = (uint32_t)r;
    }
    if (values && units && !delta &&
        qsb_unit_median_order_interval(values, units, n, &lo, &hi) == 0 && isfinite(lo) &&
        isfinite(hi)) {
        qsb_sort_doubles(values, n); /* one value per process: their median */
        double middle = qsb_median_of_sorted(values, n);
        pct = fmax(middle - lo, hi - middle) / middle * 100.0;
    } else if (values && units) {
        qsb_unit_spread s = {0, NAN, NAN};
        if (qsb_unit_spread_of(values, units, n, &s) == 0)
            pct = qsb_unit_precision_pct(&s);
    }
    free(values);
    free(units);
    return isfinite(pct) && pct >= 0 ? pct : INFINITY;
}

/* Where the baseline's processes at cell c ran at separated speeds (states.h), the widest
** t interval of a state of 3 processes or more (the baseline's speed, each candidate's delta),
** % of the estimate, as pool.c judges a row with states; NAN when the cell shows no states. */
static double states_spread_pct(const workers *w, size_t c)
{
    const qsb_cell *cell = &w->runs[0].run.cells[c];
    double *speed = malloc(w->n * sizeof *speed), *x = malloc(w->n * sizeof *x);
    double widest = NAN;
    size_t n = 0;
    qsb_states s = {0};
    for (size_t r = 0; speed && x && r < w->n; r++)
        if (w->where[r][c] != NO_CELL)
            speed[n++] = w->runs[r].run.cells[w->where[r][c]].rows[0].summary.median;
    if (speed && x && cell->rows[0].verified && qsb_states_of_medians(speed, n, &s) == 0 &&
        s.count > 0) {
        widest = qsb_states_widest_pct(&s, speed, speed, n);
        for (size_t i = 1; i < cell->nrows; i++) {
            if (!cell->rows[i].verified)
                continue;
            size_t m = 0;
            for (size_t r = 0; r < w->n; r++)
                if (w->where[r][c] != NO_CELL)
                    x[m++] = 1.0 + w->runs[r].run.cells[w->where[r][c]].rows[i].delta_pct / 100.0;
            widest = fmax(widest, qsb_states_widest_pct(&s, speed, x, n));
        }
    }
    free(speed);
    free(x);
    return widest;
}

/* How far cell c of the first worker is from the precision target: its widest interval over
** the target (> 1: wider), its states' where it shows states; 0 when it needs no more
** processes: every verified interval within the target, from PRECISE_MIN_PROCESSES visits on
** (failed rows have nothing to narrow).
** Without a target (0: a gate spends its budget), its widest interval. */
static double cell_need(const workers *w, size_t c)
{
    const qsb_cell *cell = &w->runs[0].run.cells[c];
    size_t visits = 0;
    for (size_t r = 0; r < w->n; r++)
        visits += w->where[r][c] != NO_CELL;
    double widest = 0;
    bool verified = false;
    for (size_t i = 0; i < cell->nrows; i++) {
        if (!cell->rows[i].verified)
            continue;
        verified = true;
        widest = fmax(widest, spread_pct(w, c, i, false));
        if (i > 0)
            widest = fmax(widest, spread_pct(w, c, i, true));
    }
    if (!verified)
        return 0;
    double by_states = states_spread_pct(w, c);
    if (!isnan(by_states))
        widest = by_states;
    if (!(w->plan->precision_pct > 0))
        return fmax(widest, DBL_MIN);
    double need = widest / w->plan->precision_pct;
    return need <= 1 && visits >= PRECISE_MIN_PROCESSES ? 0 : fmax(need, DBL_MIN);
}

typedef struct {
    size_t cell;
    double gain; /* how much one more visit narrows its intervals, per second of the visit */
} cell_gain;

static int by_gain_descending(const void *a, const void *b)
{
    double x = ((const cell_gain *)a)->gain, y = ((const cell_gain *)b)->gain;
    return (x < y) - (x > y);
}

/* The cells of the next process after the minimum (the first worker's indexes, in cells[]):
** every cell that still needs processes while the time left holds them all and the process's
** start; else, for the run's last processes, those that fit, where a visit narrows the
** intervals most for its time first. Returns how many (0: no process).
**
** Why every open cell and not only the widest: what a process sees is not independent of when
** it ran. msort's large cells switch between speeds
** (docs/results.md#calibration-time-level-over-processes) with a state of the machine that
** holds for tens of seconds, so processes close in time agree. Sending the later processes
** to the widest cells alone (or to the cells where a visit narrowed most) gave them tens of
** processes from one stretch of the run, too narrow an interval for the next run: fewer rows
** agreed between runs than with a cell's processes spread over the run
** (docs/results.md#why-visit-every-cell). The gain of a visit of a cell is taken as w / (n c):
** its widest interval against the target over its processes so far and the visit's cost (a
** half-width narrows about w / 2n per process). */
static size_t choose_cells(const workers *w, double left_s, size_t *cells)
{
    size_t ncells = w->runs[0].run.ncells, open = 0, chosen = 0;
    cell_gain *order = malloc((ncells ? ncells : 1) * sizeof *order);
    if (!order || !w->cost_s || !w->costed || !w->cost_max_s || !w->visits)
        goto done;
    double all_s = w->plan->start_s;
    for (size_t c = 0; c < ncells; c++) {
        double need = cell_need(w, c);
        double cost = w->costed[c] ? w->cost_s[c] / (double)w->costed[c] : 0;
        if (need > 0 && cost > 0) {
            order[open++] = (cell_gain){c, need / ((double)w->visits[c] * cost)};
            all_s += w->cost_max_s[c];
        }
    }
    if (all_s > left_s) /* the last processes: the cells that fit, best first */
        qsort(order, open, sizeof *order, by_gain_descending);
    double spend = w->plan->start_s; /* at the longest a visit took: the budget is a bound */
    for (size_t k = 0; k < open; k++) {
        double cost = w->cost_max_s[order[k].cell];
        if (spend + cost <= left_s) {
            cells[chosen++] = order[k].cell;
            spend += cost;
        }
    }
done:
    free(order);
    return chosen;
}

static int pool_workers(workers *w, qsb_results *out)
{
    if (w->n == 1) { /* one unit: no interval, but its cells stand */
        *out = w->runs[0].run;
        memset(&w->runs[0].run, 0, sizeof w->runs[0].run);
        return QSB_OK;
    }
    int status = qsb_pool_series(w->runs, w->n, out);
    w->n = 0; /* pooled: taken over and freed */
    return status;
}

/* Before the next worker: the cells it visits after the minimum (*ncells of them in cells;
** before, all: *ncells 0), and whether it starts at all. */
static bool next_worker(const workers *w, size_t started, double elapsed_s, size_t *cells,
                        size_t *ncells)
{
    const qsb_workers_plan *p = w->plan;
    *ncells = 0;
    if (*p->stop || started >= p->max_processes)
        return false;
    if (started < p->min_processes)
        return true;
    *ncells = cells && w->n > 0 ? choose_cells(w, p->budget_s - elapsed_s, cells) : 0;
    return *ncells > 0;
}

static void free_workers(workers *w, size_t processes)
{
    for (size_t r = 0; r < w->n; r++)
        qsb_results_free(&w->runs[r].run);
    for (size_t r = 0; r < processes; r++) {
        free(w->names[r]);
        free(w->where[r]);
    }
    free(w->names);
    free(w->where);
    free(w->runs);
    free(w->cost_s);
    free(w->costed);
    free(w->cost_max_s);
    free(w->visits);
}

int qsb_run_workers(const qsb_workers_plan *plan, qsb_results *out, size_t *processes)
{
    workers w;
    memset(&w, 0, sizeof w);
    w.plan = plan;
    w.parent = getpid();
    w.model = NO_MODEL;
    memset(out, 0, sizeof *out);
    *processes = 0;
    int status = make_dir(&w);
    if (status == QSB_OK && !(w.record = qsb_visit_record_create(&w.record_fd)))
        status = QSB_ESYSTEM;
    size_t started = 0, planned = plan->planned, ncells = 0, *cells = NULL;
    bool finding = false;
    uint64_t start = qsb_clock_ns();
    qsb_progress_begin(planned, plan->progress);
    while (status == QSB_OK) {
        double elapsed = (double)(qsb_clock_ns() - start) / 1e9;
        if (w.n > 0 && !cells && !(cells = malloc(w.runs[0].run.ncells * sizeof *cells)))
            status = qsb_out_of_memory("worker cells");
        if (status != QSB_OK || w.incomplete ||
            !next_worker(&w, started, elapsed, cells, &ncells))
            break;
        char label[96];
        double mean = started ? elapsed / (double)started : plan->worker_s;
        double left = fmax(plan->budget_s - elapsed,
                           started < plan->min_processes
                               ? mean * (double)(plan->min_processes - started) : 0.0);
        if (ncells)
            snprintf(label, sizeof label, "worker process %zu (%zu of %zu cells)", started + 1,
                     ncells, w.runs[0].run.ncells);
        else
            snprintf(label, sizeof label, "worker process %zu", started + 1);
        qsb_progress_update_eta(started, label, left);
        status = run_one(&w, started++, ncells ? cells : NULL, ncells);
        if (status == QSB_FINDING) {
            finding = true;
            status = QSB_OK;
        }
        if (started >= planned) {
            planned = started + 1;
            qsb_progress_set_total(planned);
        }
    }
    qsb_progress_end();
    free(cells);
    *processes = w.n;
    bool stopped = *plan->stop || w.incomplete;
    if (status == QSB_OK && w.n == 0 && !stopped)
        status = qsb_error(QSB_ESYSTEM, "no worker process finished");
    if (status == QSB_OK && w.n > 0)
        status = pool_workers(&w, out);
    out->context.incomplete |= stopped; /* with no worker finished: no cells, incomplete */
    free_workers(&w, *processes);
    qsb_visit_record_close(w.record, w.record_fd);
    if (w.dir[0])
        remove_dir(&w);
    return status == QSB_OK && finding ? QSB_FINDING : status;
}

double qsb_results_timed_s(const qsb_results *r)
{
    double total = 0;
    for (size_t c = 0; c < r->ncells; c++)
        total += cell_timed_s(&r->context, &r->cells[c]);
    return total;
}
