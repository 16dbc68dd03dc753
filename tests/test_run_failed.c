/*
** FAILED reporting, with deliberately broken sorts that exist only in this test.
**
** The shipped tool has no hook for a broken algorithm (no environment variable, no hidden
** registry entry). Instead the run is split at the config: the command parses the command
** line and hands the config to the bench layer (runner.h); this test parses a real command
** line the same way, replaces some algorithms of the config with broken sort functions
** defined here, and runs it through the bench layer, so that the very code of the run (the
** watched child, the run loop, verification, the totals) meets a wrong sort, and the table,
** CSV and JSON writers meet its failed rows.
**
**   noop   does nothing: right on sorted input, "not sorted at index i" on random input;
**   lossy  sorts, then copies one element over another: "not a permutation of the input";
**   flaky  right except on its third sort of 100 sorted 4-byte elements (the first cell's
**          counted sort, round 0, then round 1, which the next unit runs): the row fails in
**          the middle of the timed rounds, keeping the one sample of round 0.
*/
#include <math.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cjson/cJSON.h>

#include "check.h"
#include "bench_run.h"
#include "diag.h"
#include "element.h"
#include "patterns.h"
#include "run.h"
#include "run_options.h"
#include "run_binary.h"

static void noop_sort(void *base, size_t n, size_t size,
                      qsb_compare cmp, void *arg)
{
    (void)base, (void)n, (void)size, (void)cmp, (void)arg;
}

static void lossy_sort(void *base, size_t n, size_t size,
                       qsb_compare cmp, void *arg)
{
    qsort_r(base, n, size, cmp, arg);
    if (n >= 2) /* the largest element is lost, the order stays right */
        memcpy((char *)base + (n - 1) * size, (char *)base + (n - 2) * size, size);
}

static unsigned flaky_calls;

static void flaky_sort(void *base, size_t n, size_t size,
                       qsb_compare cmp, void *arg)
{
    bool sorted_input = true;
    for (size_t i = 1; i < n && sorted_input; i++)
        sorted_input = cmp((char *)base + (i - 1) * size, (char *)base + i * size, arg) <= 0;
    qsort_r(base, n, size, cmp, arg);
    if (n == 100 && size == 4 && sorted_input && ++flaky_calls == 3)
        memcpy(base, (char *)base + size, size);
}

static const qsb_algorithm broken[] = {
    {"noop", "test only", noop_sort, 0, "test", 0},
    {"lossy", "test only", lossy_sort, 0, "test", 0},
    {"flaky", "test only", flaky_sort, 0, "test", 0},
};

static char dir[256], csv[300], json[300], out[300], err[300];

/* Where a no-op leaves the random input unsorted: its first descent, found here by keys. */
static size_t first_descent(size_t n, size_t size)
{
    unsigned char *input = malloc(n * size);
    size_t i = n;
    if (!input)
        return n;
    qsb_generate(qsb_pattern_find("random"), input, n, size, QSB_DEFAULT_SEED,
                 QSB_MODE_DEFAULT);
    for (size_t k = 0; k + 1 < n && i == n; k++)
        if (qsb_key(input + k * size, size) > qsb_key(input + (k + 1) * size, size))
            i = k;
    free(input);
    return i;
}

static const cJSON *find_row(const cJSON *results, const char *pattern, double nelem,
                             double size, const char *algo)
{
    const cJSON *row;
    cJSON_ArrayForEach(row, results)
    {
        if (strcmp(cJSON_GetObjectItem(row, "pattern")->valuestring, pattern) == 0 &&
            cJSON_GetObjectItem(row, "nelem")->valuedouble == nelem &&
            cJSON_GetObjectItem(row, "size")->valuedouble == size &&
            strcmp(cJSON_GetObjectItem(row, "algorithm")->valuestring, algo) == 0)
            return row;
    }
    return NULL;
}

static void expect_row(const cJSON *results, const char *pattern, double nelem, double size,
                       const char *algo, const char *failure, size_t samples)
{
    const cJSON *row = find_row(results, pattern, nelem, size, algo);
    CHECK_MSG(row != NULL, "no row %s %g %g %s", pattern, nelem, size, algo);
    if (!row)
        return;
    const cJSON *f = cJSON_GetObjectItem(row, "failure");
    const cJSON *verified = cJSON_GetObjectItem(row, "verified");
    if (failure)
        CHECK_MSG(cJSON_IsFalse(verified) && cJSON_IsString(f) &&
                      strcmp(f->valuestring, failure) == 0,
                  "%s %s %g %g: failure %s, expected %s", algo, pattern, nelem, size,
                  cJSON_IsString(f) ? f->valuestring : "null", failure);
    else
        CHECK_MSG(cJSON_IsTrue(verified) && cJSON_IsNull(f), "%s %s %g %g should pass", algo,
                  pattern, nelem, size);
    CHECK_EQ_U64((size_t)cJSON_GetArraySize(cJSON_GetObjectItem(row, "samples")), samples);
    const cJSON *delta = cJSON_GetObjectItem(row, "delta_pct");
    bool baseline = strcmp(algo, "msort") == 0;
    CHECK_MSG(failure || baseline ? cJSON_IsNull(delta) : cJSON_IsNumber(delta),
              "%s %s delta", algo, pattern);
}

static void check_results(void)
{
    char *text = slurp(json, NULL);
    cJSON *root = text ? cJSON_Parse(text) : NULL;
    free(text);
    CHECK(root != NULL);
    if (!root)
        return;
    const cJSON *results = cJSON_GetObjectItem(root, "results");
    CHECK_EQ_U64((size_t)cJSON_GetArraySize(results), 2 * 2 * 2 * 5);
    static const double counts[] = {100, 1000}, sizes[] = {4, 8};
    for (size_t c = 0; c < 2; c++)
        for (size_t z = 0; z < 2; z++) {
            double n = counts[c], s = sizes[z];
            char unsorted[64];
            snprintf(unsorted, sizeof unsorted, "not sorted at index %zu",
                     first_descent((size_t)n, (size_t)s));
            expect_row(results, "sorted", n, s, "noop", NULL, 3);
            expect_row(results, "random", n, s, "noop", unsorted, 0);
            expect_row(results, "sorted", n, s, "lossy", "not a permutation of the input", 0);
            expect_row(results, "random", n, s, "lossy", "not a permutation of the input", 0);
            expect_row(results, "random", n, s, "introsort", NULL, 3);
            expect_row(results, "sorted", n, s, "msort", NULL, 3);
        }
    /* The first cell (sorted, size 4, 100 elements) met the flaky call in round 1. */
    expect_row(results, "sorted", 100, 4, "flaky", "not a permutation of the input", 1);
    expect_row(results, "sorted", 1000, 4, "flaky", NULL, 3);
    cJSON_Delete(root);
}

static void check_outputs(void)
{
    char *table = slurp(out, NULL), *errors = slurp(err, NULL);
    CHECK(table && errors);
    if (table && errors) {
        CHECK(strstr(table, "  elements=      100 (size= 4): FAILED (lossy: not a "
                            "permutation of the input)\n") != NULL);
        CHECK(strstr(table, "(size= 8): FAILED (noop: not sorted at index ") != NULL);
        CHECK(strstr(errors, "failed rows: 13\n") != NULL);
    }
    csv_table t;
    CHECK(csv_table_read(csv, &t) == 0);
    size_t failed = 0;
    for (size_t r = 1; r < t.nrows; r++) {
        int ok = strcmp(csv_table_get(&t, r, "verified"), "true") == 0;
        failed += !ok;
        CHECK(ok == (csv_table_get(&t, r, "failure")[0] == '\0'));
    }
    CHECK_EQ_U64(failed, 13); /* lossy 8 cells, noop the 4 random cells, flaky 1 */
    csv_table_free(&t);
    free(table);
    free(errors);
}

int main(void)
{
    if (make_temp_dir(dir, sizeof dir, "qsb-run-failed") != 0)
        return 1;
    snprintf(csv, sizeof csv, "%s/r.csv", dir);
    snprintf(json, sizeof json, "%s/r.json", dir);
    snprintf(out, sizeof out, "%s/table.txt", dir);
    snprintf(err, sizeof err, "%s/stderr.txt", dir);
    char *args[] = {"run", "--nelem", "100:1000", "--sizes", "4,8", "--patterns",
                    "sorted,random", "--algos", "msort,introsort,heapsort,quicksort,msort-2.39",
                    "--reps", "3", "--warmup", "0", "--batch", "1", "--csv", csv, "--json",
                    json, "--quiet"}; /* one call per sort, one round per unit */
    qsb_run_options run;
    int status = qsb_run_options_parse(&run, NULL, (int)(sizeof args / sizeof args[0]), args);
    qsb_run_config cfg = run.bench;
    CHECK_EQ_U64(status, QSB_OK);
    if (status == QSB_OK && cfg.n_algos == 5) {
        /* msort stays the baseline and introsort a sound candidate; the others break. */
        for (size_t i = 0; i < 3; i++)
            cfg.algos[2 + i] = broken[i];
        bench_run_files files = {csv, json, out, err};
        CHECK_EQ_U64(bench_run_captured(&cfg, &files), QSB_FINDING);
        check_results();
        check_outputs();
    }
    qsb_run_config_free(&cfg);
    remove_temp_dir(dir);
    return check_done();
}
