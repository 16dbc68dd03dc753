/*
** The Google Benchmark export (src/results/export_gbench.h): results built in the test are
** exported, parsed back with cJSON and checked for what compare.py, github-action-benchmark and
** Bencher read: the context keys, one iteration row per sample with the documented name, the
** aggregates, nanoseconds from cycles through tsc_hz, failed rows left out.
*/
#include <cjson/cJSON.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "captured.h"
#include "check.h"
#include "diag.h"
#include "export.h"
#include "export_gbench.h"
#include "result.h"

static void build(qsb_results *r, const char *metric, double tsc_hz)
{
    memset(r, 0, sizeof *r);
    CHECK(qsb_set_string(&r->context.metric, metric) == 0);
    CHECK(qsb_set_string(&r->context.build_type, "Release") == 0);
    CHECK(qsb_set_string(&r->context.date, "2024-01-31T12:00:00Z") == 0);
    CHECK(qsb_set_string(&r->context.host, "ci-runner") == 0);
    CHECK(qsb_set_string(&r->baseline, "msort") == 0);
    r->context.tsc_hz = tsc_hz;
    const char *const algos[] = {"msort", "introsort"};
    const char *const patterns[] = {"random", "sorted"};
    for (size_t c = 0; c < 2; c++) {
        qsb_cell *cell = qsb_results_add_cell(r, patterns[c], 1000, 4, algos, 2);
        CHECK(cell != NULL);
        if (!cell)
            return;
        for (size_t i = 0; i < 2; i++)
            for (size_t k = 0; k < 3; k++) /* 2000, 4000, 6000 (+ 1000 per row) */
                CHECK(qsb_row_add_sample(&cell->rows[i],
                                         2000.0 * (double)(k + 1) + 1000.0 * (double)i,
                                         (uint32_t)k) == 0);
    }
    CHECK(qsb_row_fail(&r->cells[1].rows[1], "not sorted at index 1") == 0);
}

static cJSON *export_and_parse(const qsb_results *r, int *status)
{
    FILE *fp = tmpfile();
    CHECK(fp != NULL);
    if (!fp)
        return NULL;
    *status = qsb_export_gbench(fp, r);
    char *text = captured(fp);
    cJSON *root = text ? cJSON_Parse(text) : NULL;
    free(text);
    return root;
}

static const cJSON *get(const cJSON *o, const char *key)
{
    return cJSON_GetObjectItemCaseSensitive(o, key);
}

static int has_string(const cJSON *o, const char *key, const char *value)
{
    const cJSON *s = get(o, key);
    return cJSON_IsString(s) && strcmp(s->valuestring, value) == 0;
}

static int has_number(const cJSON *o, const char *key, double value)
{
    const cJSON *n = get(o, key);
    return cJSON_IsNumber(n) && fabs(n->valuedouble - value) <= 1e-9 * fabs(value) + 1e-9;
}

static void check_context(const cJSON *ctx)
{
    CHECK(cJSON_IsObject(ctx));
    CHECK(has_string(ctx, "date", "2024-01-31T12:00:00Z"));
    CHECK(has_string(ctx, "host_name", "ci-runner"));
    CHECK(cJSON_IsNumber(get(ctx, "num_cpus")) && get(ctx, "num_cpus")->valuedouble >= 1);
    CHECK(has_number(ctx, "mhz_per_cpu", 2000));
    CHECK(cJSON_IsArray(get(ctx, "caches")));
    const cJSON *cache = cJSON_GetArrayItem(get(ctx, "caches"), 0);
    if (cache) /* when sysfs has caches: Google Benchmark's keys */
        CHECK(cJSON_IsString(get(cache, "type")) && cJSON_IsNumber(get(cache, "level")) &&
              cJSON_IsNumber(get(cache, "size")) && cJSON_IsNumber(get(cache, "num_sharing")));
    CHECK(has_string(ctx, "library_build_type", "release"));
    CHECK(cJSON_IsBool(get(ctx, "cpu_scaling_enabled")));
    CHECK(has_string(ctx, "qsortbench_metric", "cycles"));
}

static void check_iteration(const cJSON *b, const char *name, int index, double ns, int family,
                            int instance)
{
    CHECK_MSG(has_string(b, "name", name) && has_string(b, "run_name", name), "%s", name);
    CHECK(has_string(b, "run_type", "iteration"));
    CHECK(has_number(b, "repetitions", 3) && has_number(b, "repetition_index", index));
    CHECK(has_number(b, "iterations", 1) && has_number(b, "threads", 1));
    CHECK_MSG(has_number(b, "real_time", ns) && has_number(b, "cpu_time", ns), "%s #%d", name,
              index);
    CHECK(has_string(b, "time_unit", "ns"));
    CHECK(has_number(b, "family_index", family));
    CHECK(has_number(b, "per_family_instance_index", instance));
}

static void check_aggregate(const cJSON *b, const char *run_name, const char *what, double ns)
{
    char name[128];
    snprintf(name, sizeof name, "%s_%s", run_name, what);
    CHECK_MSG(has_string(b, "name", name) && has_string(b, "run_name", run_name), "%s", name);
    CHECK(has_string(b, "run_type", "aggregate") && has_string(b, "aggregate_name", what));
    CHECK(has_string(b, "aggregate_unit", "time") && has_number(b, "iterations", 3));
    CHECK_MSG(has_number(b, "real_time", ns) && has_number(b, "cpu_time", ns), "%s", name);
    CHECK(has_string(b, "time_unit", "ns"));
}

static void test_cycles(void)
{
    qsb_results r;
    build(&r, "cycles", 2e9); /* 2 cycles per ns */
    int status = -1;
    cJSON *root = export_and_parse(&r, &status);
    CHECK(status == QSB_OK && root != NULL);
    if (!root) {
        qsb_results_free(&r);
        return;
    }
    check_context(get(root, "context"));
    const cJSON *list = get(root, "benchmarks");
    /* 3 rows of 3 samples (the failed one left out), each with 3 aggregates */
    CHECK(cJSON_IsArray(list) && cJSON_GetArraySize(list) == 3 * (3 + 3));
    for (int k = 0; k < 3; k++)
        check_iteration(cJSON_GetArrayItem(list, k), "msort/RANDOM/1000/4", k, 1000.0 * (k + 1),
                        0, 0);
    check_aggregate(cJSON_GetArrayItem(list, 3), "msort/RANDOM/1000/4", "mean", 2000);
    check_aggregate(cJSON_GetArrayItem(list, 4), "msort/RANDOM/1000/4", "median", 2000);
    check_aggregate(cJSON_GetArrayItem(list, 5), "msort/RANDOM/1000/4", "stddev", 1000);
    check_iteration(cJSON_GetArrayItem(list, 6), "introsort/RANDOM/1000/4", 0, 1500, 1, 0);
    check_iteration(cJSON_GetArrayItem(list, 12), "msort/SORTED/1000/4", 0, 1000, 0, 1);
    const cJSON *b;
    cJSON_ArrayForEach(b, list)
        CHECK(strstr(get(b, "name")->valuestring, "introsort/SORTED") == NULL);
    cJSON_Delete(root);
    qsb_results_free(&r);
}

static void test_metrics(void)
{
    qsb_results r;
    int status = -1;
    build(&r, "ns", 0);
    cJSON *root = export_and_parse(&r, &status);
    CHECK(status == QSB_OK && root != NULL);
    const cJSON *first = cJSON_GetArrayItem(get(root, "benchmarks"), 0);
    CHECK(has_number(first, "real_time", 2000)); /* nanoseconds as they are */
    cJSON_Delete(root);
    qsb_results_free(&r);

    build(&r, "comparisons", 0);
    root = export_and_parse(&r, &status);
    CHECK(status == QSB_EUSAGE);
    cJSON_Delete(root);
    qsb_results_free(&r);

    build(&r, "cycles", 0); /* cycles without a frequency cannot become time */
    root = export_and_parse(&r, &status);
    CHECK(status == QSB_EUSAGE);
    cJSON_Delete(root);
    qsb_results_free(&r);
}

static void test_option(void)
{
    const char *path = NULL;
    const qsb_export_format *format = NULL;
    CHECK(qsb_export_parse("gbench=out/bench.json", &format, &path) == QSB_OK &&
          strcmp(path, "out/bench.json") == 0 && format == qsb_export_find("gbench"));
    CHECK(qsb_export_parse("bmf=b.json", &format, &path) == QSB_OK &&
          format == qsb_export_find("bmf") && strcmp(path, "b.json") == 0);
    CHECK(qsb_export_parse("gbench=", &format, &path) == QSB_EUSAGE);
    CHECK(qsb_export_parse("csv=x.csv", &format, &path) == QSB_EUSAGE);
    CHECK(qsb_export_parse("bmf", &format, &path) == QSB_EUSAGE);
    CHECK(qsb_export_gbench_check("ns") == QSB_OK && qsb_export_gbench_check("cycles") == QSB_OK);
    CHECK(qsb_export_gbench_check("comparisons") == QSB_EUSAGE);
}

int main(void)
{
    test_cycles();
    test_metrics();
    test_option();
    return check_done();
}
