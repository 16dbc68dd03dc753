/*
** The real binary with the measurement options wired in (the numbers themselves are not
** checked: no timing assertions, only what the run must do whatever the clock says):
**
** - --reps N gives exactly N samples per row, spread over up to 5 units, and the context says
**   "fixed: N rounds ...";
** - a budget below the matrix's minimum is warned about up front, the minimum of 5 units
**   runs anyway, a precision nobody reaches flags every row noisy in the CSV and the JSON,
**   one summary line counts the noisy cells and says how many units that precision would
**   take (more than the cap), and the last stderr line breaks the overhead
**   down (where the schedule stops depends on the clock: test_schedule drives it with fake
**   times);
** - worker processes (the default): the minimum of 5 runs whatever the budget, each sample's
**   unit is its process, every row has its intervals; a met precision stops the run at 10;
**   the processes after the minimum visit the cells that fit; --worker K:SLICE:CELLS
**   visits only those cells, and takes its run's TSC frequency from --tsc-hz;
** - the JSON context records the noise-control fields, --pin, the budget and the placement;
** - very short sorts are batched (batch > 1 in the JSON), and --batch K fixes the batch;
** - each table line shows "± h" and "no significant change" exactly as the JSON's delta and
**   interval say;
** - an interrupted run keeps the cells that have their minimum of units, noisy.
**
** What depends on how long the sorts take here (the processes a budget or a met precision
** buys, which cells the last ones visit, batching, the interrupt after 2 s) runs only with the
** argument "timing" (ctest label timing); the decisions themselves are tested without a clock
** in test_plan and test_schedule.
*/
#include <math.h>
#include <sched.h>
#include <signal.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <cjson/cJSON.h>

#include "check.h"
#include "run_binary.h"
#include "version.h"

static char dir[256];

#define PATH_LEN 400 /* the directory (< 256) and a name (< 64) */
#define MAX_PROCESSES_SEEN 4096 /* of a run of tiny cells for 2 s (~10 ms a process) */

static void path_in_dir(char buf[PATH_LEN], const char *prefix, const char *ext)
{
    snprintf(buf, PATH_LEN, "%s/%.40s.%.8s", dir, prefix, ext);
}

typedef struct {
    char csv[PATH_LEN], json[PATH_LEN], out[PATH_LEN], err[PATH_LEN];
    int status;
    cJSON *root;
    csv_table table;
    char *stdout_text, *stderr_text;
} run_output;

/* Runs the binary with `extra` options (NULL-terminated) on the given prefix's files. */
static void run(run_output *o, const char *prefix, const char *const *extra)
{
    path_in_dir(o->csv, prefix, "csv");
    path_in_dir(o->json, prefix, "json");
    path_in_dir(o->out, prefix, "out");
    path_in_dir(o->err, prefix, "err");
    char *argv[32];
    size_t n = 0;
    argv[n++] = QSB_BINARY;
    for (size_t i = 0; extra[i] && n < 26; i++)
        argv[n++] = (char *)extra[i];
    argv[n++] = "--csv";
    argv[n++] = o->csv;
    argv[n++] = "--json";
    argv[n++] = o->json;
    argv[n++] = "--quiet";
    argv[n] = NULL;
    o->status = run_binary(argv, o->out, o->err);
    char *text = slurp(o->json, NULL);
    o->root = text ? cJSON_Parse(text) : NULL;
    free(text);
    CHECK_MSG(o->root != NULL, "%s: no JSON", prefix);
    CHECK(csv_table_read(o->csv, &o->table) == 0);
    o->stdout_text = slurp(o->out, NULL);
    o->stderr_text = slurp(o->err, NULL);
    CHECK(o->stdout_text && o->stderr_text);
}

static void run_free(run_output *o)
{
    cJSON_Delete(o->root);
    csv_table_free(&o->table);
    free(o->stdout_text);
    free(o->stderr_text);
}

static const cJSON *results_of(const run_output *o)
{
    return cJSON_GetObjectItemCaseSensitive(o->root, "results");
}

static const cJSON *context_of(const run_output *o)
{
    return cJSON_GetObjectItemCaseSensitive(o->root, "context");
}

static double number(const cJSON *obj, const char *name)
{
    const cJSON *item = cJSON_GetObjectItemCaseSensitive(obj, name);
    return cJSON_IsNumber(item) ? item->valuedouble : NAN;
}

static const char *string(const cJSON *obj, const char *name)
{
    const cJSON *item = cJSON_GetObjectItemCaseSensitive(obj, name);
    return cJSON_IsString(item) ? item->valuestring : "";
}

static void test_fixed_reps(void)
{
    run_output o;
    const char *args[] = {"--nelem", "500:3000", "--sizes", "4,32", "--patterns",
                          "random,sorted", "--reps", "7", NULL};
    run(&o, "fixed", args);
    CHECK_EQ_U64(o.status, 0);
    const cJSON *row;
    size_t rows = 0;
    cJSON_ArrayForEach(row, results_of(&o))
    {
        CHECK_EQ_U64((uint64_t)number(row, "reps"), 7);
        CHECK_EQ_U64(cJSON_GetArraySize(cJSON_GetObjectItemCaseSensitive(row, "samples")), 7);
        rows++;
    }
    CHECK_EQ_U64(rows, 2 * 2 * 2 * 2);
    CHECK(strcmp(string(context_of(&o), "repetitions"),
                 "fixed: 7 rounds over up to 5 units; no slowed sort retaken") == 0);
    CHECK(cJSON_IsNull(cJSON_GetObjectItemCaseSensitive(context_of(&o), "budget_s")));
    CHECK(number(context_of(&o), "precision_pct") == 1.0);
    /* Seven rounds in five units: 2, 2, 1, 1, 1. */
    cJSON_ArrayForEach(row, results_of(&o))
    {
        const cJSON *units = cJSON_GetObjectItemCaseSensitive(row, "units");
        CHECK(cJSON_GetArraySize(units) == 7);
        static const int want[7] = {0, 0, 1, 1, 2, 3, 4};
        for (int i = 0; i < 7 && cJSON_GetArraySize(units) == 7; i++)
            CHECK(cJSON_GetArrayItem(units, i)->valuedouble == want[i]);
    }
    /* No per-cell warning: at most one line counting noisy cells. */
    CHECK(strstr(o.stderr_text, ": noisy: ") == NULL);
    run_free(&o);
}

/* Every row noisy in both files; one summary line counts the cells. */
static void check_all_noisy(const run_output *o, size_t cells)
{
    const cJSON *row;
    size_t r = 1;
    cJSON_ArrayForEach(row, results_of(o))
    {
        CHECK(cJSON_IsTrue(cJSON_GetObjectItemCaseSensitive(row, "noisy")));
        CHECK((uint64_t)number(row, "reps") >= 5); /* the minimum of units, one round each */
        const char *csv_noisy = csv_table_get(&o->table, r++, "noisy");
        CHECK(csv_noisy && strcmp(csv_noisy, "true") == 0);
    }
    char summary[96];
    snprintf(summary, sizeof summary, "qsortbench: warning: %zu of %zu cells are noisy", cells,
             cells);
    CHECK_MSG(strstr(o->stderr_text, summary) != NULL, "no summary in %s", o->stderr_text);
    CHECK(strstr(o->stderr_text, "random n=2000 size=8") == NULL); /* no line per cell */
}

/* The context's time_s: every part of the wall time a number, the parts within the whole. */
static void check_time_split(const run_output *o)
{
    const cJSON *split = cJSON_GetObjectItemCaseSensitive(context_of(o), "time_s");
    CHECK_MSG(cJSON_IsObject(split), "no time_s in the context");
    const char *parts[] = {"timed", "counted", "warmups", "retaken", "inputs", "copies",
                           "checks"};
    double wall = number(split, "wall"), sum = 0;
    for (size_t i = 0; i < sizeof parts / sizeof parts[0]; i++) {
        double part = number(split, parts[i]);
        CHECK_MSG(part >= 0, "time_s.%s = %g", parts[i], part);
        sum += part;
    }
    CHECK_MSG(wall > 0 && sum <= wall * 1.001 && number(split, "timed") > 0,
              "time_s: wall %g, parts %g", wall, sum);
}

/* A budget too small for one unit of every cell: refused before the first sort, naming one
** that holds it. A precision nobody can reach leaves every row noisy, within the budget. */
static void test_tiny_budget(void)
{
    char *refused[] = {QSB_BINARY, "--nelem", "2000:6000", "--sizes", "8", "--patterns",
                       "random", "--budget", "0.001s", "--processes", "1", "--quiet", NULL};
    char out[PATH_LEN], err[PATH_LEN];
    path_in_dir(out, "refused", "out");
    path_in_dir(err, "refused", "err");
    CHECK_EQ_U64(run_binary(refused, out, err), 2);
    char *said = slurp(err, NULL);
    CHECK_MSG(said && strstr(said, "error: --budget 0.001s cannot hold one unit of this "
                                   "matrix's 2 cells (about ") &&
                  strstr(said, "give --budget 10s or more"),
              "%s", said ? said : "(nothing)");
    free(said);
    run_output o;
    const char *args[] = {"--nelem", "2000:6000", "--sizes", "8", "--patterns", "random",
                          "--budget", "1s", "--precision", "0.0001", "--warmup", "2",
                          "--processes", "1", NULL};
    run(&o, "tiny", args);
    CHECK_EQ_U64(o.status, 0);
    check_all_noisy(&o, 2);
    /* what that precision would take, at any spread a clock gives */
    const char *need = "would reach it with more than 100000 units (it had ";
    CHECK_MSG(strstr(o.stderr_text, need) != NULL, "no units needed in %s", o.stderr_text);
    const cJSON *ctx = context_of(&o);
    CHECK(number(ctx, "budget_s") == 1 && number(ctx, "precision_pct") == 0.0001);
    CHECK(strncmp(string(ctx, "repetitions"), "budget: 5 units per cell at least", 33) == 0);
    CHECK(strncmp(string(ctx, "placement"), "far: ", 5) == 0);
    CHECK(strcmp(string(ctx, "warmup"), "2") == 0);
    /* The last line: time inside sorts, wall time, the overhead and its parts, memory. */
    const char *last = o.stderr_text;
    for (const char *p = o.stderr_text; *p; p++)
        if (p[0] == '\n' && p[1])
            last = p + 1;
    CHECK_MSG(strstr(last, "s inside timed sorts, ") && strstr(last, "overhead ") &&
                  strstr(last, "(counted sorts ") && strstr(last, "outside any sort ") &&
                  strstr(last, "checks ") && strstr(last, "peak memory"),
              "last line: %s", last);
    check_time_split(&o);
    run_free(&o);
}

/* How many worker processes the run's last line says it pooled (0 when it does not say). */
static size_t processes_said(const char *stderr_text)
{
    const char *said = strstr(stderr_text, "qsortbench: ");
    for (; said; said = strstr(said + 1, "qsortbench: ")) {
        size_t processes = 0;
        int end = 0; /* set only where the whole pattern matched: sscanf counts the number alone */
        if (sscanf(said, "qsortbench: %zu worker processes, %n", &processes, &end) == 1 && end > 0)
            return processes;
    }
    return 0;
}

/* After the minimum, processes visit every cell that still needs them while the time left
** holds both cells, and the last ones the cells that fit: every process from the sixth on is
** a unit of one or both cells, and some of both. */
static void test_worker_topups(void)
{
    const char *topped[] = {"--nelem", "300", "--sizes", "4", "--patterns", "random,sorted",
                            "--budget", "2s", "--precision", "0.0001", NULL};
    run_output o;
    run(&o, "workers-topped", topped);
    CHECK_EQ_U64(o.status, 0);
    size_t processes = processes_said(o.stderr_text);
    CHECK_MSG(processes > 5, "stderr: %s", o.stderr_text);
    size_t cells_of_unit[MAX_PROCESSES_SEEN] = {0}, units_total = 0;
    const cJSON *row;
    cJSON_ArrayForEach(row, results_of(&o))
    {
        if (strcmp(string(row, "algorithm"), "msort") != 0)
            continue;
        bool seen[MAX_PROCESSES_SEEN] = {false};
        const cJSON *unit;
        cJSON_ArrayForEach(unit, cJSON_GetObjectItemCaseSensitive(row, "units"))
        {
            int u = (int)unit->valuedouble;
            CHECK(u >= 0 && (size_t)u < processes && u < MAX_PROCESSES_SEEN);
            if (u >= 0 && u < MAX_PROCESSES_SEEN && !seen[u]) {
                seen[u] = true;
                cells_of_unit[u]++;
                units_total++;
            }
        }
        for (int u = 0; u < 5; u++)
            CHECK_MSG(seen[u], "a cell has no sample of process %d", u);
    }
    size_t of_both = 0, visits = 0;
    for (size_t u = 5; u < processes && u < MAX_PROCESSES_SEEN; u++) {
        CHECK_MSG(cells_of_unit[u] == 1 || cells_of_unit[u] == 2, "process %zu visited %zu cells",
                  u, cells_of_unit[u]);
        of_both += cells_of_unit[u] == 2;
        visits += cells_of_unit[u];
    }
    CHECK(of_both > 0);
    CHECK_EQ_U64(units_total, 2 * 5 + visits);
    run_free(&o);
}

/* A worker visits only the cells of --worker K:SLICE:CELLS, and takes its run's TSC
** frequency from --tsc-hz instead of calibrating its own. */
static void test_worker_options(void)
{
    const char *one[] = {"--nelem", "300", "--sizes", "4", "--patterns", "random,sorted",
                         "--worker", "1:0.001:1", NULL};
    run_output o;
    run(&o, "worker-cells", one);
    CHECK_EQ_U64(o.status, 0);
    size_t rows = 0;
    const cJSON *row;
    cJSON_ArrayForEach(row, results_of(&o))
    {
        CHECK_MSG(strcmp(string(row, "pattern"), "sorted") == 0, "pattern %s",
                  string(row, "pattern"));
        rows++;
    }
    CHECK_EQ_U64(rows, 2);
    run_free(&o);

    const char *tsc[] = {"--nelem", "300", "--sizes", "4", "--patterns", "sorted",
                         "--worker", "1:0.001", "--tsc-hz", "2345678901", NULL};
    run(&o, "worker-tsc", tsc);
    CHECK_EQ_U64(o.status, 0);
    if (strcmp(string(context_of(&o), "timer"), "rdtscp") == 0)
        CHECK(number(context_of(&o), "tsc_hz") == 2345678901.0);
    run_free(&o);
}

/* Worker processes: --processes 5 runs its 5 processes of every cell whatever the budget
** (exact counts take as long as they take, said up front), every sample's unit is its
** process, and the intervals are there; the context and the last line say so. */
static void test_worker_processes(void)
{
    run_output o;
    const char *args[] = {"--nelem", "300:900", "--sizes", "4", "--patterns", "random,sorted",
                          "--budget", "0.001s", "--precision", "0.0001", "--processes", "5",
                          NULL};
    run(&o, "workers", args);
    CHECK_EQ_U64(o.status, 0);
    CHECK(strstr(o.stderr_text, "warning: --budget 0.001s is below the 5 worker processes "
                                "asked (about ") &&
          strstr(o.stderr_text, "): the run takes that long"));
    size_t processes = processes_said(o.stderr_text);
    CHECK_MSG(processes >= 5, "stderr: %s", o.stderr_text);
    CHECK(strncmp(string(context_of(&o), "repetitions"), "processes: ", 11) == 0);
    check_time_split(&o); /* the workers' parts, added up */
    CHECK(strstr(o.stderr_text, "outside any sort ") &&
          strstr(o.stderr_text, "starting the processes and other ") &&
          strstr(o.stderr_text, "MiB of shared inputs"));
    const cJSON *row;
    size_t rows = 0;
    cJSON_ArrayForEach(row, results_of(&o))
    {
        const cJSON *units = cJSON_GetObjectItemCaseSensitive(row, "units"), *unit;
        bool seen[5] = {false};
        cJSON_ArrayForEach(unit, units)
        {
            CHECK(unit->valuedouble >= 0 && unit->valuedouble < (double)processes);
            if (unit->valuedouble >= 0 && unit->valuedouble <= 4)
                seen[(int)unit->valuedouble] = true;
        }
        for (int u = 0; u < 5; u++)
            CHECK_MSG(seen[u], "row %zu has no sample of process %d", rows, u);
        CHECK(!isnan(number(row, "median_lo")) && !isnan(number(row, "median_hi")));
        if (strcmp(string(row, "algorithm"), "introsort") == 0)
            CHECK(number(row, "delta_lo") <= number(row, "delta_pct") &&
                  number(row, "delta_pct") <= number(row, "delta_hi"));
        rows++;
    }
    CHECK_EQ_U64(rows, 8);
    run_free(&o);

    /* A precision every interval meets at once still runs 10 processes (stopping at the first
    ** small spread of 5 would shorten the intervals), and no more within a long budget. */
    const char *lax[] = {"--nelem", "300", "--sizes", "4", "--patterns", "random",
                         "--budget", "120s", "--precision", "100", NULL};
    run(&o, "workers-precise", lax);
    CHECK_EQ_U64(o.status, 0);
    CHECK_MSG(strstr(o.stderr_text, "qsortbench: 10 worker processes, ") != NULL, "stderr: %s",
              o.stderr_text);
    run_free(&o);

    /* A gating run does not end at a met precision: it spends its budget on its power. */
    const char *gate[] = {"--nelem", "300", "--sizes", "4", "--patterns", "random",
                          "--budget", "2s", "--precision", "100", "--fail-above", "50", NULL};
    run(&o, "workers-gate", gate);
    CHECK_EQ_U64(o.status, 0);
    CHECK_MSG(processes_said(o.stderr_text) > 10, "stderr: %s", o.stderr_text);
    CHECK(strstr(string(context_of(&o), "repetitions"), "a gate spends its budget") != NULL);
    run_free(&o);

    /* --reps fixes the rounds of one process. */
    const char *both[] = {"--nelem", "300", "--processes", "3", "--reps", "2", NULL};
    run_output bad;
    memset(&bad, 0, sizeof bad);
    path_in_dir(bad.out, "reps-processes", "out");
    path_in_dir(bad.err, "reps-processes", "err");
    char *argv[] = {QSB_BINARY, (char *)both[0], (char *)both[1], (char *)both[2],
                    (char *)both[3], (char *)both[4], (char *)both[5], NULL};
    CHECK_EQ_U64(run_binary(argv, bad.out, bad.err), 2);
}

static int first_allowed_cpu(void)
{
    cpu_set_t set;
    CPU_ZERO(&set);
    if (sched_getaffinity(0, sizeof set, &set) != 0)
        return -1;
    for (int cpu = 0; cpu < CPU_SETSIZE; cpu++)
        if (CPU_ISSET(cpu, &set))
            return cpu;
    return -1;
}

static void test_context_and_pin(void)
{
    int cpu = first_allowed_cpu();
    CHECK(cpu >= 0);
    char cpu_text[16];
    snprintf(cpu_text, sizeof cpu_text, "%d", cpu);
    run_output o;
    const char *args[] = {"--nelem", "300", "--sizes", "4", "--patterns", "sorted", "--pin",
                          cpu_text, "--budget", "0.3s", NULL};
    run(&o, "pinned", args);
    CHECK_EQ_U64(o.status, 0);
    const cJSON *ctx = context_of(&o);
    CHECK(number(ctx, "pinned_cpu") == cpu);
    static const char *const fields[] = {"governor", "turbo", "load_average", "release_build",
                                         "sanitized", "repetitions", "precision_pct",
                                         "budget_s", "warmup", "timer_resolution_ns", "placement",
                                         "nelem_source", "drift_ratios", "drift_medians"};
    for (size_t i = 0; i < sizeof fields / sizeof fields[0]; i++)
        CHECK_MSG(cJSON_GetObjectItemCaseSensitive(ctx, fields[i]) != NULL, "no %s",
                  fields[i]);
    CHECK(cJSON_IsBool(cJSON_GetObjectItemCaseSensitive(ctx, "release_build")));
    CHECK(cJSON_IsBool(cJSON_GetObjectItemCaseSensitive(ctx, "sanitized")));
    CHECK(cJSON_IsTrue(cJSON_GetObjectItemCaseSensitive(ctx, "sanitized")) == QSB_SANITIZED);
    CHECK(strcmp(string(ctx, "warmup"), "auto") == 0);
    CHECK(number(ctx, "budget_s") > 0);
    CHECK(number(ctx, "drift_medians") >= 1.0); /* a timed run has a factor, at least 1 */
    run_free(&o);

    /* Not pinned: null. */
    const char *plain[] = {"--nelem", "300", "--sizes", "4", "--patterns", "sorted", "--reps",
                           "2", NULL};
    run(&o, "unpinned", plain);
    CHECK(cJSON_IsNull(cJSON_GetObjectItemCaseSensitive(context_of(&o), "pinned_cpu")));
    run_free(&o);
}

/* Sorting 8 elements takes far less than the 10 us a sample must last: batched. */
static void test_batching(void)
{
    run_output o;
    const char *args[] = {"--nelem", "8", "--sizes", "4", "--patterns", "random", "--reps",
                          "5", "--algos", "msort,introsort,heapsort", NULL};
    run(&o, "batch", args);
    CHECK_EQ_U64(o.status, 0);
    const cJSON *row;
    cJSON_ArrayForEach(row, results_of(&o))
    {
        CHECK_MSG(number(row, "batch") > 1, "%s: batch %g", string(row, "algorithm"),
                  number(row, "batch"));
        CHECK_EQ_U64((uint64_t)number(row, "reps"), 5);
        CHECK(cJSON_IsTrue(cJSON_GetObjectItemCaseSensitive(row, "verified")));
    }
    run_free(&o);

    /* --batch K: exactly K, even for a sort that needs no batching. */
    const char *given[] = {"--nelem", "3000", "--sizes", "4", "--patterns", "random", "--reps",
                           "3", "--batch", "4", NULL};
    run(&o, "batch4", given);
    CHECK_EQ_U64(o.status, 0);
    cJSON_ArrayForEach(row, results_of(&o))
        CHECK_EQ_U64((uint64_t)number(row, "batch"), 4);
    run_free(&o);
}

/* The table line of each candidate from the JSON's delta and interval. */
static void test_table_matches_json(void)
{
    run_output o;
    const char *args[] = {"--nelem", "1000:4000", "--sizes", "4,8", "--patterns",
                          "random,sorted,bitonic", "--reps", "9", NULL};
    run(&o, "table", args);
    CHECK_EQ_U64(o.status, 0);
    const cJSON *row, *base = NULL;
    size_t lines = 0, unchanged = 0;
    cJSON_ArrayForEach(row, results_of(&o))
    {
        if (cJSON_IsNull(cJSON_GetObjectItemCaseSensitive(row, "delta_pct"))) {
            base = row;
            continue;
        }
        double d = number(row, "delta_pct"), lo = number(row, "delta_lo"),
               hi = number(row, "delta_hi");
        CHECK(lo <= d && d <= hi);
        bool zero_inside = lo <= 0 && hi >= 0;
        char line[256];
        snprintf(line, sizeof line,
                 "  elements=%9.0f (size=%2.0f): %+7.2f%% \xc2\xb1 %.2f (%s=%.1f %s=%.1f)%s%s\n",
                 number(row, "nelem"), number(row, "size"), d, fmax(d - lo, hi - d),
                 string(base, "algorithm"), number(base, "median"), string(row, "algorithm"),
                 number(row, "median"), zero_inside ? "  no significant change" : "",
                 cJSON_IsTrue(cJSON_GetObjectItemCaseSensitive(row, "noisy")) ||
                         cJSON_IsTrue(cJSON_GetObjectItemCaseSensitive(base, "noisy"))
                     ? "  ~noisy"
                     : "");
        CHECK_MSG(strstr(o.stdout_text, line) != NULL, "missing: %s", line);
        lines++;
        unchanged += zero_inside;
    }
    CHECK_EQ_U64(lines, 2 * 2 * 3);
    size_t marked = 0;
    for (const char *p = o.stdout_text; (p = strstr(p, "no significant change")) != NULL; p++)
        marked++;
    CHECK_EQ_U64(marked, unchanged);
    run_free(&o);
}

/* Ctrl-C in a run that would go on for seconds: the cell with its minimum of units is kept,
** flagged noisy (its intervals are wider than asked), and the run exits 130. */
static void test_interrupt_keeps_cells(void)
{
    run_output o;
    path_in_dir(o.csv, "stopped", "csv");
    path_in_dir(o.json, "stopped", "json");
    path_in_dir(o.err, "stopped", "err");
    /* A 3 s budget: units of 0.15 s (the minimum within the first second), then more units
    ** until the budget is spent. */
    char *argv[] = {QSB_BINARY, "--nelem", "100000", "--sizes", "4", "--patterns", "random",
                    "--precision", "0.0001", "--budget", "3s", "--processes", "1", "--csv",
                    o.csv, "--json", o.json, "--quiet", NULL};
    pid_t pid = start_binary(argv, NULL, o.err, NULL);
    CHECK(pid > 0);
    struct timespec pause = {2, 0};
    nanosleep(&pause, NULL);
    kill(pid, SIGINT);
    CHECK_EQ_U64(wait_binary(pid), 130);
    char *text = slurp(o.json, NULL);
    cJSON *root = text ? cJSON_Parse(text) : NULL;
    free(text);
    CHECK(root != NULL);
    const cJSON *results = cJSON_GetObjectItemCaseSensitive(root, "results");
    CHECK(cJSON_IsTrue(cJSON_GetObjectItemCaseSensitive(
        cJSON_GetObjectItemCaseSensitive(root, "context"), "incomplete")));
    CHECK_EQ_U64(cJSON_GetArraySize(results), 2);
    const cJSON *row;
    cJSON_ArrayForEach(row, results)
    {
        CHECK(number(row, "reps") >= 5);
        CHECK(cJSON_IsTrue(cJSON_GetObjectItemCaseSensitive(row, "noisy")));
        CHECK(!isnan(number(row, "median")));
    }
    cJSON_Delete(root);
}

/* Without an argument (the suite), what holds whatever the clock says; with "timing" (ctest
** label timing, its own pass), what depends on how long the sorts take on this machine: when a
** met precision or the budget ends the processes, which cells the last ones visit, batches
** of short sorts, and an interrupt after 2 s of a run. */
int main(int argc, char **argv)
{
    if (make_temp_dir(dir, sizeof dir, "qsb-run-adaptive") != 0) {
        perror("mkdtemp");
        return 1;
    }
    if (argc > 1 && strcmp(argv[1], "timing") == 0) {
        test_worker_processes();
        test_worker_topups();
        test_batching();
        test_interrupt_keeps_cells();
    } else {
        test_fixed_reps();
        test_tiny_budget();
        test_worker_options();
        test_context_and_pin();
        test_table_matches_json();
    }
    remove_temp_dir(dir);
    return check_done();
}
