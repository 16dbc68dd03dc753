/*
** Slowed samples (docs/measurement.md), through the bench layer's run (runner.h), with sorts
** that exist only in this test (swapped into a parsed config as the candidate, as
** test_run_failed does):
**
**   steady  the baseline: sorts, then spins until 300 us have passed since it started;
**   lumpy   the same, but every third call from the sixth on spins 600 us: a machine slowed
**           for one sort at a time (its first three calls, the counted sort and rounds 0
**           and 1, are fast: no warm-up, no batches);
**   busy    fast for its first six calls, then 600 us for good: a machine slowed for the
**           rest of the cell.
**
** With --slowed 10 lumpy's slow calls are retaken (the next call is fast), so its kept samples
** are fast; by default (no retakes) a third of them are slow (fewer when preempted slow calls
** are retaken; at least 4 of 30 are asked). Up to 2 slow samples of 30 are allowed with
** --slowed: a hiccup of the test machine may spoil the attempts after a slow call. busy's
** median ends well above its fastest sample: its row is flagged noisy, with or without
** retakes, and the run's one summary line counts the cell.
**
** A preempted sort is retaken too ("Preemption"), which shifts the calls against the rounds; the
** patterns hold anyway: no two of lumpy's calls in a row are slow, and busy's six fast calls
** leave fast samples after a few preempted ones.
*/
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <cjson/cJSON.h>

#include "check.h"
#include "bench_run.h"
#include "diag.h"
#include "run.h"
#include "run_options.h"
#include "run_binary.h"

static unsigned calls;

static double now_us(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec * 1e6 + (double)ts.tv_nsec / 1e3;
}

static void sort_lasting(void *base, size_t n, size_t size,
                         qsb_compare cmp, void *arg, double us)
{
    double start = now_us();
    qsort_r(base, n, size, cmp, arg);
    while (now_us() - start < us)
        ;
}

static void steady_sort(void *base, size_t n, size_t size,
                        qsb_compare cmp, void *arg)
{
    sort_lasting(base, n, size, cmp, arg, 300);
}

static void lumpy_sort(void *base, size_t n, size_t size,
                       qsb_compare cmp, void *arg)
{
    calls++;
    sort_lasting(base, n, size, cmp, arg, calls > 3 && calls % 3 == 0 ? 600 : 300);
}

static void busy_sort(void *base, size_t n, size_t size,
                      qsb_compare cmp, void *arg)
{
    sort_lasting(base, n, size, cmp, arg, ++calls > 6 ? 600 : 300);
}

typedef struct {
    size_t slow;    /* the candidate's samples over 1.5x its fastest */
    double retaken; /* its retaken count */
    bool noisy;
    size_t samples;
    char *errors;   /* what the run wrote on stderr */
} outcome;

/* The candidate row (the second) of the results file. */
static void read_candidate(const char *json, outcome *o)
{
    char *text = slurp(json, NULL);
    cJSON *root = text ? cJSON_Parse(text) : NULL;
    free(text);
    const cJSON *row = cJSON_GetArrayItem(cJSON_GetObjectItem(root, "results"), 1);
    const cJSON *samples = cJSON_GetObjectItem(row, "samples"), *s;
    double fastest = INFINITY;
    cJSON_ArrayForEach(s, samples)
    {
        fastest = fmin(fastest, s->valuedouble);
    }
    cJSON_ArrayForEach(s, samples)
    {
        o->slow += s->valuedouble > 1.5 * fastest;
    }
    o->samples = (size_t)cJSON_GetArraySize(samples);
    o->retaken = row ? cJSON_GetObjectItem(row, "retaken")->valuedouble : 0;
    o->noisy = cJSON_IsTrue(cJSON_GetObjectItem(row, "noisy"));
    cJSON_Delete(root);
}

/* One run of 200 4-byte random elements, steady against the candidate, with `more` options
** (NULL-terminated). */
static outcome run_with(const char *dir, qsb_sort_fn candidate, const char *const *more)
{
    char csv[300], json[300], err[300];
    snprintf(csv, sizeof csv, "%s/r.csv", dir);
    snprintf(json, sizeof json, "%s/r.json", dir);
    snprintf(err, sizeof err, "%s/stderr.txt", dir);
    char *args[32] = {"run", "--nelem", "200", "--sizes", "4", "--patterns", "random",
                      "--warmup", "0", "--batch", "1", "--csv", csv, "--json", json,
                      "--quiet", "--processes", "1"}; /* test sorts: this process only */
    int argc = 18;
    while (*more && argc < 32)
        args[argc++] = (char *)*more++;
    outcome o = {0};
    qsb_run_options run;
    int status = qsb_run_options_parse(&run, NULL, argc, args);
    qsb_run_config cfg = run.bench;
    CHECK_EQ_U64(status, QSB_OK);
    if (status == QSB_OK && cfg.n_algos == 2) {
        cfg.algos[0] = (qsb_algorithm){"steady", "test only", steady_sort, 0, "test", 0};
        cfg.algos[1] = (qsb_algorithm){"cand", "test only", candidate, 0, "test", 0};
        calls = 0;
        bench_run_files files = {csv, json, NULL, err};
        CHECK_EQ_U64(bench_run_captured(&cfg, &files), QSB_OK);
        read_candidate(json, &o);
        o.errors = slurp(err, NULL);
    }
    qsb_run_config_free(&cfg);
    return o;
}

int main(void)
{
    char dir[256];
    if (make_temp_dir(dir, sizeof dir, "qsb-run-slowed") != 0)
        return 1;
    outcome o = run_with(dir, lumpy_sort, (const char *[]){"--reps", "30", "--slowed", "10", NULL});
    CHECK_EQ_U64(o.samples, 30);
    CHECK_MSG(o.slow <= 2, "--slowed 10: %zu slow samples kept", o.slow);
    CHECK_MSG(o.retaken >= 5, "--slowed 10: %g retaken", o.retaken);
    CHECK(!o.noisy);
    free(o.errors);

    o = run_with(dir, lumpy_sort, (const char *[]){"--reps", "30", NULL});
    CHECK_MSG(o.slow >= 4, "default: only %zu slow samples kept", o.slow);
    free(o.errors);

    /* Slowed for good: flagged noisy with and without retakes, and counted in the one
    ** summary line. */
    static const char *const busy_runs[2][5] = {{"--reps", "10", NULL},
                                                {"--reps", "10", "--slowed", "10", NULL}};
    for (size_t i = 0; i < 2; i++) {
        o = run_with(dir, busy_sort, busy_runs[i]);
        CHECK(o.noisy);
        CHECK_MSG(o.errors && strstr(o.errors, "warning: 1 of 1 cells are noisy") &&
                      strstr(o.errors, "slowed by a busy machine"),
                  "no noisy summary in: %s", o.errors ? o.errors : "(none)");
        free(o.errors);
    }
    remove_temp_dir(dir);
    return check_done();
}
