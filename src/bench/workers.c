/*
** Worker processes of a run, pooled with every process one unit (workers.h).
*/
#include "workers.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <unistd.h>

#include "diag.h"
#include "grow.h"
#include "option_names.h"
#include "pool.h"
#include "child.h"
#include "progress.h"
#include "stop.h"
#include "read_results.h"
#include "states.h"
#include "timing.h"
#include "visit_record.h"
#include "worker_cells.h"
#include "worker_protocol.h"

#define LAST_LINE_BYTES 512 /* of a failed worker's stderr, quoted in the error */
#define DIR_BYTES 1024      /* the temporary directory's path */
#define PATH_BYTES (DIR_BYTES + 64) /* a file in it */
#define SELF_EXE "/proc/self/exe"   /* what a worker runs: the run's own executable */
/* A worker in flight in one of the run's slots (--jobs: as many as run at once). */
typedef struct {
    size_t k;                  /* its worker (from 0); FREE_SLOT: none */
    size_t *cells;             /* the first worker's cells it visits (malloc'd); NULL: every
                               ** cell */
    size_t ncells;
    qsb_visit_record *record;  /* where its worker is (visit_record.h) */
    int record_fd;
    qsb_watch watch;           /* its deadline, the run's stop request, its name */
    qsb_watching watching;
    uint64_t start_ns;
    char who[48];              /* "worker process 3" */
} slot;

#define FREE_SLOT SIZE_MAX

typedef struct {
    const qsb_workers_plan *plan;
    char dir[DIR_BYTES];       /* the private temporary directory */
    char exe[PATH_MAX];        /* this executable's path, the workers' argv[0] */
    qsb_worker_tally tally;    /* the finished workers' results and costs (worker_cells.h) */
    char **names;              /* "worker 3", for pool's messages */
    size_t cap;                /* of names and of the tally's runs and where */
    pid_t parent;              /* this process, which its workers outlive only by mistake */
    size_t model;              /* the first finished worker, whose results the later ones
                               ** take their exact counts and batches from (run.h); or
                               ** NO_MODEL */
    slot *slots;               /* plan->jobs of them */
    size_t jobs;
    size_t in_flight;          /* busy slots */
    size_t started;            /* workers started (a retry is not another) */
    bool lost_retried;         /* a lost visit is retried once; the next ends the run */
    bool incomplete;           /* the run ended before its plan: a visit was lost twice */
    bool finding;              /* a worker found a failed result */
    volatile sig_atomic_t stop; /* what the workers in flight are told: the run's stop request,
                               ** or at the budget's end SIGTERM (they keep what they finished) */
    bool out_of_time;          /* the budget ran out with workers in flight */
    double lost_s;             /* the time of attempts lost to a sort that took its worker
                               ** down or hung (retried): added to the budget's end */
    double first_wall_s;       /* the first finished worker's wall time (0: none yet) */
    double later_wall_s;       /* the longest of the later finished workers' (0: none yet) */
} workers;

#define NO_MODEL SIZE_MAX

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

typedef struct {
    const workers *w;
    const slot *at;
    char **argv;
    const char *err_path;
} worker_exec;

/* In the child (its own process group, child.h: a Ctrl-C reaches the run, which stops
** the worker once): stdout discarded, stderr into its file, the run's inputs kept open across
** the exec, a SIGTERM when the run dies; then exec. */
static int exec_worker(void *arg)
{
    const worker_exec *x = arg;
    int null_fd = open("/dev/null", O_WRONLY);
    int err_fd = open(x->err_path, O_WRONLY | O_CREAT | O_TRUNC, 0600);
    if (null_fd < 0 || err_fd < 0 || dup2(null_fd, STDOUT_FILENO) < 0 ||
        dup2(err_fd, STDERR_FILENO) < 0 ||
        (x->w->plan->inputs_fd >= 0 && fcntl(x->w->plan->inputs_fd, F_SETFD, 0) != 0) ||
        fcntl(x->at->record_fd, F_SETFD, 0) != 0)
        return 127;
    close(null_fd);
    close(err_fd);
    if (prctl(PR_SET_PDEATHSIG, SIGTERM) != 0 || getppid() != x->w->parent)
        return 127; /* the run is gone already */
    execv(SELF_EXE, x->argv); /* this very executable, even if its file was replaced since; its
                              ** SIGINT and SIGTERM stay blocked until it has its handlers */
    dprintf(STDERR_FILENO, "qsortbench: error: cannot run " SELF_EXE ": %s\n", strerror(errno));
    return 127;
}

/* Worker k's command line (worker_protocol.h): this executable, the run's measuring options,
** its own: the TSC frequency (a worker need not spend 50 ms calibrating it again), the shared
** inputs' descriptor, the model, where it records its visits and where its results go. */
static char **worker_argv(const workers *w, const slot *at)
{
    char json[PATH_BYTES], model[PATH_BYTES];
    path_of(w, at->k, "json", json, sizeof json);
    if (w->model != NO_MODEL)
        path_of(w, w->model, "json", model, sizeof model);
    qsb_worker_protocol own = {
        .index = at->k + 1,
        .slice_s = w->plan->slice_s,
        .tsc_hz = w->plan->tsc_hz,
        .inputs_fd = w->plan->inputs_fd,
        .visit_fd = at->record_fd,
        .model_path = w->model != NO_MODEL ? model : NULL,
    };
    return qsb_worker_argv(w->exe[0] ? w->exe : "qsortbench", w->plan->argv_head, &own,
                           at->cells, at->cells ? at->ncells : 0, json);
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

/* A worker's plug-in code printed on its standard output (child.h): the notice and
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

/* where[c]: the index in run of the first worker's cell c, QSB_NO_CELL where run did not visit
** it (the first worker's own: every cell). A worker that reports a cell the first did not
** measure is an error: pooling would lose it. */
static int locate_cells(workers *w, const qsb_results *run, size_t **where)
{
    const qsb_results *first = w->tally.n ? &w->tally.runs[0].run : run;
    *where = malloc((first->ncells ? first->ncells : 1) * sizeof **where);
    if (!*where)
        return qsb_out_of_memory("worker results");
    size_t found = 0;
    for (size_t c = 0; c < first->ncells; c++) {
        const qsb_cell *cell = qsb_results_find_cell(run, &first->cells[c]);
        (*where)[c] = cell ? (size_t)(cell - run->cells) : QSB_NO_CELL;
        found += cell != NULL;
    }
    if (found == run->ncells)
        return QSB_OK;
    free(*where);
    *where = NULL;
    return qsb_error(QSB_ESYSTEM, "a worker process measured cells its run did not ask for");
}


/* Keeps the results of the worker in slot `at`, which exited outside any sort with this code.
** Exit 0 and 1 (a finding) wrote them, so did a stop's status (stop.h: the finished cells,
** marked incomplete); anything else is the worker's failure. */
static int collect(workers *w, const slot *at, int code, double wall_s)
{
    char json[PATH_BYTES], err[PATH_BYTES], line[LAST_LINE_BYTES];
    size_t k = at->k;
    path_of(w, k, "json", json, sizeof json);
    path_of(w, k, "err", err, sizeof err);
    bool stopped = qsb_stop_is_exit_status(code);
    if (stopped && (w->tally.n > 0 || at->record->cells_kept == 0))
        return QSB_OK; /* the finished workers have every cell; this one has only some, or
                       ** none (stopped in its first cell) */
    if (code != QSB_OK && code != QSB_FINDING && !stopped) {
        last_line(err, line, sizeof line);
        return qsb_error(code == QSB_EUSAGE ? QSB_EUSAGE : QSB_ESYSTEM,
                         "worker process %zu failed (exit %d): %s", k + 1, code,
                         qsb_quote(line));
    }
    char *name = malloc(32);
    size_t runs = w->cap, names = w->cap, where = w->cap; /* the three grow alike */
    if (!name || QSB_GROW(w->tally.runs, runs, w->tally.n + 1) != 0 ||
        QSB_GROW(w->names, names, runs) != 0 || QSB_GROW(w->tally.where, where, runs) != 0) {
        free(name);
        return qsb_out_of_memory("worker results");
    }
    w->cap = runs;
    snprintf(name, 32, "worker %zu", k + 1);
    memset(&w->tally.runs[w->tally.n], 0, sizeof w->tally.runs[w->tally.n]);
    int status = qsb_read_results(json, &w->tally.runs[w->tally.n].run);
    if (status == QSB_OK)
        status = locate_cells(w, &w->tally.runs[w->tally.n].run, &w->tally.where[w->tally.n]);
    if (status != QSB_OK) {
        qsb_results_free(&w->tally.runs[w->tally.n].run);
        free(name);
        return status;
    }
    w->names[w->tally.n] = name;
    w->tally.runs[w->tally.n].file = name;
    qsb_tally_add_costs(&w->tally, w->tally.n, wall_s, w->plan->start_s);
    if (w->model == NO_MODEL && !stopped)
        w->model = k;
    if (w->tally.n == 0)
        w->first_wall_s = wall_s;
    else if (wall_s > w->later_wall_s)
        w->later_wall_s = wall_s;
    w->tally.n++;
    return code == QSB_FINDING ? QSB_FINDING : QSB_OK;
}

/* Starts the worker of slot `at` (at->k, on at->cells) and begins to watch it. */
static int launch(workers *w, slot *at)
{
    char err[PATH_BYTES];
    char **argv = worker_argv(w, at);
    if (!argv)
        return qsb_out_of_memory("worker command line");
    path_of(w, at->k, "err", err, sizeof err);
    qsb_visit_record_reset(at->record);
    at->start_ns = qsb_clock_ns();
    sigset_t mask;
    qsb_signals_block(&mask);
    worker_exec x = {w, at, argv, err};
    pid_t pid = qsb_child_fork(exec_worker, &x);
    qsb_signals_restore(&mask);
    free(argv);
    if (pid < 0)
        return qsb_error(QSB_ESYSTEM, "cannot start a worker process: %s", strerror(errno));
    snprintf(at->who, sizeof at->who, "worker process %zu", at->k + 1);
    at->watch = (qsb_watch){qsb_visit_deadline_s(w->plan->worker_s), &w->stop, NULL,
                            at->who};
    qsb_watch_begin(&at->watching, &at->watch, pid, at->record);
    return QSB_OK;
}

/* A worker died, exited or hung in an algorithm's sorts: the algorithm is excluded from
** every later worker, and from every retry of one in flight now (its rows FAILED with the
** cause); the caller retries this one. */
static void blame(workers *w, size_t k, const qsb_process_end *end)
{
    const char *name = w->plan->algo_names ? w->plan->algo_names[end->algo] : "?";
    qsb_warning("worker process %zu: %s %s in cell %s; its rows are FAILED (%s) and the "
                "others measured again",
                k + 1, name, end->cause, end->cell[0] ? end->cell : "(none)", end->cause);
    for (size_t j = 0; j < w->jobs; j++)
        snprintf(w->slots[j].record->excluded[end->algo], QSB_VISIT_CAUSE_BYTES, "%s",
                 end->cause);
}

/* A worker killed from outside, or dead outside any sort: its visit is retried once; lost
** again, the run starts no other worker (those in flight finish) and is marked incomplete.
** Returns whether to retry. */
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

/* The slot's worker is no longer in flight. */
static void release(workers *w, slot *at)
{
    qsb_tally_pending(&w->tally, at->cells, at->ncells, -1);
    free(at->cells);
    at->cells = NULL;
    at->ncells = 0;
    at->k = FREE_SLOT;
    w->in_flight--;
}

/* The slot's worker ended as *end says: started again without an algorithm that took it down,
** once more after a lost visit, else its results kept and the slot freed. */
static int settle(workers *w, slot *at, const qsb_process_end *end)
{
    double wall_s = (double)(qsb_clock_ns() - at->start_ns) / 1e9;
    int status = QSB_OK;
    pass_on_stdout_notice(w, at->k);
    switch (end->kind) {
    case QSB_END_SORT_FAILED:
        w->lost_s += wall_s;
        blame(w, at->k, end);
        if ((status = launch(w, at)) == QSB_OK)
            return QSB_OK;
        break;
    case QSB_END_LOST:
        w->lost_s += wall_s;
        if (retry_lost(w, at->k, end) && (status = launch(w, at)) == QSB_OK)
            return QSB_OK;
        break;
    case QSB_END_INTERRUPTED:
        if (qsb_stop_is_exit_status(end->exit_code)) /* else killed after the grace: nothing */
            status = collect(w, at, end->exit_code, wall_s);
        break;
    case QSB_END_EXITED:
        status = collect(w, at, end->exit_code, wall_s);
        break;
    }
    release(w, at);
    if (status == QSB_FINDING) {
        w->finding = true;
        status = QSB_OK;
    }
    return status;
}

static int pool_workers(workers *w, qsb_results *out)
{
    if (w->tally.n == 1) { /* one unit: no interval, but its cells stand */
        *out = w->tally.runs[0].run;
        memset(&w->tally.runs[0].run, 0, sizeof w->tally.runs[0].run);
        return QSB_OK;
    }
    int status = qsb_pool_series(w->tally.runs, w->tally.n, out);
    w->tally.n = 0; /* pooled: taken over and freed */
    return status;
}

/* What a later worker of every cell is expected to take: the longest such worker so far, or
** the plan's estimate scaled as the first worker's own estimate turned out. */
static double expected_worker_s(const workers *w)
{
    const qsb_workers_plan *p = w->plan;
    if (w->later_wall_s > 0)
        return w->later_wall_s;
    if (w->first_wall_s > 0 && p->first_s > 0)
        return p->worker_s * fmax(1.0, w->first_wall_s / p->first_s);
    return p->worker_s;
}

/* Does the time left hold one more worker of every cell (the first always starts, and so
** does each of --processes N)? */
static bool minimum_fits(const workers *w, double elapsed_s)
{
    return w->started == 0 || w->plan->exact ||
           elapsed_s + expected_worker_s(w) <= w->plan->budget_s;
}

/* What the next worker does. */
typedef enum {
    NEXT_NONE,  /* no other worker: the run ends once those in flight have */
    NEXT_WAIT,  /* none now: what those in flight bring decides */
    NEXT_START, /* start it (on *cells) */
} next_step;

/* Before the next worker: the cells it visits after the minimum (*cells, *ncells of them;
** before, NULL: all), and whether it starts. After the minimum the choice needs a finished
** worker's results; with workers in flight it may wait for theirs. */
static next_step next_worker(workers *w, double elapsed_s, size_t **cells, size_t *ncells)
{
    const qsb_workers_plan *p = w->plan;
    *cells = NULL;
    *ncells = 0;
    if (*p->stop || w->incomplete || w->out_of_time || w->started >= p->max_processes)
        return NEXT_NONE;
    if (w->started < p->min_processes)
        return minimum_fits(w, elapsed_s) ? NEXT_START
                                          : w->in_flight ? NEXT_WAIT : NEXT_NONE;
    if (w->tally.n == 0)
        return w->in_flight ? NEXT_WAIT : NEXT_NONE;
    size_t total = w->tally.runs[0].run.ncells;
    *cells = malloc((total ? total : 1) * sizeof **cells);
    if (*cells)
        *ncells = qsb_tally_choose_cells(&w->tally, p->precision_pct, p->start_s,
                                         p->budget_s - elapsed_s, *cells);
    if (*ncells > 0)
        return NEXT_START;
    free(*cells);
    *cells = NULL;
    return w->in_flight ? NEXT_WAIT : NEXT_NONE;
}

/* Once states are seen, the progress line says what the cell furthest from the target has of
** them: "; states 7/3 of 10/15 processes" (each state's processes, and what each would need
** for the precision: worker_cells.h), and when a need is more than the run's `total`
** processes, that the budget will not reach it. */
static void append_state_needs(const workers *w, size_t total, char *label, size_t len)
{
    size_t got[QSB_STATES_MAX], need[QSB_STATES_MAX];
    size_t states = qsb_tally_state_needs(&w->tally, w->plan->precision_pct, got, need);
    size_t used = strlen(label);
    for (size_t part = 0; part < 2 && states > 0; part++) {
        const size_t *v = part ? need : got;
        for (size_t k = 0; k < states && used < len; k++) {
            int n = snprintf(label + used, len - used, "%s%zu",
                             k ? "/" : part ? " of " : "; states ", v[k]);
            used += n > 0 ? (size_t)n : 0;
        }
    }
    size_t most = 0;
    for (size_t k = 0; k < states; k++)
        most = need[k] > most ? need[k] : most;
    if (states > 0 && used < len)
        snprintf(label + used, len - used, " processes%s",
                 most > total ? ", more than this budget holds" : "");
}

/* The processes the progress line counts towards: the plan's estimate until some have ended,
** then those started and as many as the rest of the budget holds at the slots' mean time a
** process, mean_s (the plan's estimate can be off by half); at least the minimum, and one
** more than started, so that the line is full only at the end. */
static size_t expected_processes(const workers *w, size_t ended, double mean_s,
                                 double elapsed_s)
{
    const qsb_workers_plan *p = w->plan;
    size_t total = p->planned;
    if (ended > 0 && !p->exact) {
        double more = fmax(p->budget_s - elapsed_s, 0.0) * (double)w->jobs / mean_s;
        total = w->started + (size_t)fmin(more, (double)p->max_processes);
        total = total > p->min_processes ? total : p->min_processes;
    }
    return total > w->started ? total : w->started + 1;
}

/* The progress line after a start: the worker started last, and how many run at once. */
static void show_start(workers *w, const slot *at, double elapsed_s)
{
    const qsb_workers_plan *p = w->plan;
    char label[160], others[32] = "";
    size_t ended = w->started - w->in_flight, before = w->started - 1; /* started before it */
    double mean = ended ? elapsed_s * (double)w->jobs / (double)ended : p->worker_s;
    double left = fmax(p->budget_s - elapsed_s,
                       before < p->min_processes
                           ? mean * (double)(p->min_processes - before) / (double)w->jobs
                           : 0.0);
    if (!p->exact) /* the budget holds: the minimum is cut short rather than outlast it */
        left = fmin(left, fmax(p->budget_s - elapsed_s, 0.0));
    if (w->in_flight > 1)
        snprintf(others, sizeof others, ", %zu at once", w->in_flight);
    if (at->cells)
        snprintf(label, sizeof label, "worker process %zu (%zu of %zu cells%s)", at->k + 1,
                 at->ncells, w->tally.runs[0].run.ncells, others);
    else
        snprintf(label, sizeof label, "worker process %zu%s%s%s", at->k + 1,
                 others[0] ? " (" : "", others[0] ? others + 2 : "", others[0] ? ")" : "");
    size_t total = expected_processes(w, ended, mean, elapsed_s);
    qsb_progress_set_total(total);
    append_state_needs(w, total, label, sizeof label);
    qsb_progress_update(ended, label, left);
}

/* Fills the free slots with the workers the plan has next. */
static int start_workers(workers *w, uint64_t start_ns)
{
    int status = QSB_OK;
    for (size_t j = 0; status == QSB_OK && j < w->jobs; j++) {
        slot *at = &w->slots[j];
        if (at->k != FREE_SLOT)
            continue;
        double elapsed = (double)(qsb_clock_ns() - start_ns) / 1e9;
        size_t *cells, ncells;
        if (next_worker(w, elapsed, &cells, &ncells) != NEXT_START)
            break;
        at->k = w->started++;
        at->cells = cells;
        at->ncells = ncells;
        w->in_flight++;
        qsb_tally_pending(&w->tally, cells, ncells, +1);
        show_start(w, at, elapsed);
        status = launch(w, at);
        if (status != QSB_OK)
            release(w, at);
    }
    return status;
}

/* One look at every worker in flight, settling those that ended. */
static int look_at_workers(workers *w)
{
    int status = QSB_OK;
    for (size_t j = 0; j < w->jobs; j++) {
        slot *at = &w->slots[j];
        qsb_process_end end;
        int looked = QSB_OK;
        if (at->k == FREE_SLOT || !qsb_watch_look(&at->watching, &end, &looked))
            continue;
        int settled = looked == QSB_OK ? settle(w, at, &end) : looked;
        if (looked != QSB_OK)
            release(w, at);
        if (status == QSB_OK)
            status = settled;
    }
    return status;
}

/* After an error: the workers still in flight are killed and waited for; their results are
** not kept. */
static void abandon_workers(workers *w)
{
    while (w->in_flight > 0) {
        qsb_watching *waiting[QSB_WATCH_WAIT_MAX];
        size_t n = 0;
        for (size_t j = 0; j < w->jobs; j++) {
            slot *at = &w->slots[j];
            qsb_process_end end;
            int looked;
            if (at->k == FREE_SLOT)
                continue;
            kill(-at->watching.pid, SIGKILL);
            if (qsb_watch_look(&at->watching, &end, &looked))
                release(w, at);
            else if (n < QSB_WATCH_WAIT_MAX)
                waiting[n++] = &at->watching;
        }
        if (n > 0)
            qsb_watch_wait(waiting, n);
    }
}

/* Waits until a worker in flight ends (or the next look is due), the progress line moving. */
static void wait_for_workers(workers *w)
{
    qsb_watching *waiting[QSB_WATCH_WAIT_MAX];
    size_t n = 0;
    for (size_t j = 0; j < w->jobs && n < QSB_WATCH_WAIT_MAX; j++)
        if (w->slots[j].k != FREE_SLOT)
            waiting[n++] = &w->slots[j].watching;
    qsb_progress_tick();
    qsb_watch_wait(waiting, n);
}

static int make_slots(workers *w)
{
    w->jobs = w->plan->jobs > 0 ? w->plan->jobs : 1;
    if (w->jobs > QSB_WATCH_WAIT_MAX)
        w->jobs = QSB_WATCH_WAIT_MAX;
    w->slots = calloc(w->jobs, sizeof *w->slots);
    if (!w->slots)
        return qsb_out_of_memory("worker slots");
    for (size_t j = 0; j < w->jobs; j++) {
        w->slots[j].k = FREE_SLOT;
        w->slots[j].record_fd = -1;
    }
    for (size_t j = 0; j < w->jobs; j++)
        if (!(w->slots[j].record = qsb_visit_record_create(&w->slots[j].record_fd)))
            return QSB_ESYSTEM;
    return QSB_OK;
}

static void free_workers(workers *w, size_t processes)
{
    for (size_t r = 0; r < processes; r++) {
        free(w->names[r]);
        free(w->tally.where[r]);
    }
    free(w->names);
    free(w->tally.where);
    qsb_tally_free(&w->tally);
    for (size_t j = 0; w->slots && j < w->jobs; j++) {
        free(w->slots[j].cells);
        if (w->slots[j].record)
            qsb_visit_record_close(w->slots[j].record, w->slots[j].record_fd);
    }
    free(w->slots);
}

/* The run ended with fewer processes than its minimum because the time left could not hold
** another (the machine ran slower than estimated): said, since its rows then have no
** interval. */
static void warn_short_of_minimum(const workers *w)
{
    const qsb_workers_plan *p = w->plan;
    if (*p->stop || w->incomplete || w->tally.n == 0 || w->tally.n >= p->min_processes)
        return;
    qsb_warning("the budget held %zu of the %zu worker processes planned: the machine ran "
                "slower than estimated (the first process took %.3g s, %.3g s estimated); rows "
                "under 5 processes have no interval (too few)",
                w->tally.n, p->min_processes, w->first_wall_s, p->first_s);
}

/* What the workers in flight are told: the run's own stop request, else at the budget's end
** (with QSB_OVERRUN_SHARE and QSB_OVERRUN_S of slack) a stop: they end after their current
** sort; --processes N runs as long as it takes. Never before a hung sort's stall deadline
** (visit_record.h), so that a hang is blamed on its sort, and the time an attempt lost to a
** sort that took its worker down or hung is added: its retry without that sort still gets its
** time. Out of
** time before any worker finished, the first one's finished cells are the run's, marked
** incomplete: the budget holds even where the estimate of one process was far short. */
static void pass_on_stop(workers *w, uint64_t start_ns)
{
    const qsb_workers_plan *p = w->plan;
    double elapsed = (double)(qsb_clock_ns() - start_ns) / 1e9;
    if (*p->stop) {
        w->stop = *p->stop;
        return;
    }
    double end_s = fmax(p->budget_s * (1.0 + QSB_OVERRUN_SHARE) + QSB_OVERRUN_S,
                        QSB_VISIT_DEADLINE_FLOOR_S + 1.0);
    if (w->out_of_time || p->exact || w->in_flight == 0 || elapsed < end_s + w->lost_s)
        return;
    w->out_of_time = true;
    w->stop = SIGTERM;
    if (w->tally.n > 0)
        return; /* the finished workers have every cell: those in flight are left out */
    w->incomplete = true;
    qsb_warning("the budget ran out before the first worker process had visited every cell "
                "(%.3g s of it estimated): the cells it finished are kept, marked incomplete; "
                "give a longer --" QSB_OPT_BUDGET " or fewer cells",
                p->first_s);
}

/* Workers start while the plan has more and a slot is free; the run waits on those in flight
** and settles each as it ends. */
static int run_all(workers *w)
{
    uint64_t start = qsb_clock_ns();
    int status = QSB_OK;
    qsb_progress_begin(w->plan->planned,
                       w->plan->progress ? QSB_PROGRESS_SHOWN : QSB_PROGRESS_QUIET);
    for (;;) {
        status = start_workers(w, start);
        if (status != QSB_OK || w->in_flight == 0)
            break;
        wait_for_workers(w);
        pass_on_stop(w, start);
        status = look_at_workers(w);
        if (status != QSB_OK)
            break;
    }
    abandon_workers(w);
    qsb_progress_end();
    warn_short_of_minimum(w);
    return status;
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
    if (status == QSB_OK)
        status = make_slots(&w);
    if (status == QSB_OK)
        status = run_all(&w);
    *processes = w.tally.n;
    bool stopped = *plan->stop || w.incomplete;
    if (status == QSB_OK && w.tally.n == 0 && !stopped)
        status = qsb_error(QSB_ESYSTEM, "no worker process finished");
    if (status == QSB_OK && w.tally.n > 0)
        status = pool_workers(&w, out);
    out->context.incomplete |= stopped; /* with no worker finished: no cells, incomplete */
    free_workers(&w, *processes);
    if (w.dir[0])
        remove_dir(&w);
    return status == QSB_OK && w.finding ? QSB_FINDING : status;
}
