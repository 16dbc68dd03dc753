/*
** Google Benchmark JSON export (see export_gbench.h), built with cJSON.
*/
#include "export_gbench.h"

#include <cjson/cJSON.h>
#include <ctype.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "diag.h"
#include "json_write.h"
#include "machine.h"
#include "stats.h"


int qsb_export_gbench_check(const char *metric)
{
    if (strcmp(metric, "cycles") == 0 || strcmp(metric, "ns") == 0)
        return QSB_OK;
    return qsb_usage_error("--export gbench: the %s metric is not a time; use --metric cycles "
                           "or --metric ns", metric);
}

/* ---- the context ---- */

static int add_caches(cJSON *ctx, long cpus)
{
    static const char *const types[3] = {"Data", "Unified", "Unified"};
    cJSON *list = cJSON_AddArrayToObject(ctx, "caches");
    if (!list)
        return -1;
    qsb_caches caches;
    if (qsb_read_caches(qsb_sysfs_cpu_root(), &caches) != 0)
        return 0; /* unknown: an empty list, as Google Benchmark writes it then */
    for (int level = 0; level < 3; level++) {
        const qsb_cache_level *c = &caches.level[level];
        if (c->total_bytes == 0 || c->instances == 0)
            continue;
        cJSON *item = cJSON_CreateObject();
        if (!item || !cJSON_AddItemToArray(list, item) ||
            !cJSON_AddStringToObject(item, "type", types[level]) ||
            !cJSON_AddNumberToObject(item, "level", level + 1) ||
            !cJSON_AddNumberToObject(item, "size", (double)c->instance_bytes) ||
            !cJSON_AddNumberToObject(item, "num_sharing",
                                     cpus > 0 ? (double)((unsigned long)cpus / c->instances)
                                              : 0))
            return -1;
    }
    return 0;
}

static const char *or_unknown(const char *s)
{
    return s ? s : "unknown";
}

static cJSON *context_json(const qsb_results *r)
{
    const qsb_context *c = &r->context;
    long cpus = sysconf(_SC_NPROCESSORS_ONLN);
    char governor[64];
    qsb_cpu_governor(governor, sizeof governor);
    double load = qsb_load_average();
    bool debug = c->build_type && strcmp(c->build_type, "Debug") == 0;
    cJSON *ctx = cJSON_CreateObject();
    cJSON *loads = ctx ? cJSON_AddArrayToObject(ctx, "load_avg") : NULL;
    int bad = !loads || !cJSON_AddStringToObject(ctx, "date", or_unknown(c->date)) ||
              !cJSON_AddStringToObject(ctx, "host_name", or_unknown(c->host)) ||
              !cJSON_AddStringToObject(ctx, "executable", "qsortbench") ||
              !cJSON_AddNumberToObject(ctx, "num_cpus", cpus > 0 ? (double)cpus : 0) ||
              !cJSON_AddNumberToObject(ctx, "mhz_per_cpu", round(c->tsc_hz / 1e6)) ||
              !cJSON_AddBoolToObject(ctx, "cpu_scaling_enabled",
                                     strcmp(governor, "performance") != 0 &&
                                         strcmp(governor, "unknown") != 0) ||
              add_caches(ctx, cpus) != 0 ||
              !cJSON_AddStringToObject(ctx, "library_build_type", debug ? "debug" : "release") ||
              !cJSON_AddStringToObject(ctx, "qsortbench_version", or_unknown(c->tool_version)) ||
              !cJSON_AddStringToObject(ctx, "qsortbench_metric", or_unknown(c->metric)) ||
              !cJSON_AddNumberToObject(ctx, "qsortbench_seed", (double)c->seed) ||
              !cJSON_AddStringToObject(ctx, "qsortbench_baseline", or_unknown(r->baseline)) ||
              (load >= 0 && !cJSON_AddItemToArray(loads, cJSON_CreateNumber(load)));
    if (bad) {
        cJSON_Delete(ctx);
        return NULL;
    }
    return ctx;
}

/* ---- the benchmarks ---- */

typedef struct {
    char name[256];
    int family, instance;
    size_t repetitions;
} row_id;

static cJSON *benchmark_json(const row_id *id, const char *name, const char *run_type)
{
    cJSON *b = cJSON_CreateObject();
    int bad = !b || !cJSON_AddStringToObject(b, "name", name) ||
              !cJSON_AddNumberToObject(b, "family_index", id->family) ||
              !cJSON_AddNumberToObject(b, "per_family_instance_index", id->instance) ||
              !cJSON_AddStringToObject(b, "run_name", id->name) ||
              !cJSON_AddStringToObject(b, "run_type", run_type) ||
              !cJSON_AddNumberToObject(b, "repetitions", (double)id->repetitions);
    if (bad) {
        cJSON_Delete(b);
        return NULL;
    }
    return b;
}

static int add_times(cJSON *b, double iterations, double ns)
{
    return cJSON_AddNumberToObject(b, "threads", 1) &&
                   cJSON_AddNumberToObject(b, "iterations", iterations) &&
                   cJSON_AddNumberToObject(b, "real_time", ns) &&
                   cJSON_AddNumberToObject(b, "cpu_time", ns) &&
                   cJSON_AddStringToObject(b, "time_unit", "ns")
               ? 0
               : -1;
}

static int add_iterations(cJSON *list, const row_id *id, const double *ns, size_t n)
{
    for (size_t i = 0; i < n; i++) {
        cJSON *b = benchmark_json(id, id->name, "iteration");
        if (!b || !cJSON_AddItemToArray(list, b) ||
            !cJSON_AddNumberToObject(b, "repetition_index", (double)i) || add_times(b, 1, ns[i]))
            return -1;
    }
    return 0;
}

static int add_aggregates(cJSON *list, const row_id *id, const double *ns, size_t n)
{
    qsb_summary s;
    if (qsb_summarize(ns, n, &s) != 0)
        return -1;
    const struct {
        const char *name;
        double value;
    } aggregates[] = {{"mean", s.mean}, {"median", s.median}, {"stddev", s.stddev}};
    for (size_t i = 0; i < sizeof aggregates / sizeof aggregates[0]; i++) {
        char name[sizeof id->name + 16];
        snprintf(name, sizeof name, "%s_%s", id->name, aggregates[i].name);
        double value = isfinite(aggregates[i].value) ? aggregates[i].value : 0.0;
        cJSON *b = benchmark_json(id, name, "aggregate");
        if (!b || !cJSON_AddItemToArray(list, b) ||
            !cJSON_AddStringToObject(b, "aggregate_name", aggregates[i].name) ||
            !cJSON_AddStringToObject(b, "aggregate_unit", "time") ||
            add_times(b, (double)n, value))
            return -1;
    }
    return 0;
}

/* Family = algorithm, numbered in order of first appearance; instances counted per family. */
static void identify(const char **families, int *instances, int *nfamilies, const qsb_cell *cell,
                     const qsb_row *row, row_id *id)
{
    int f = 0;
    while (f < *nfamilies && strcmp(families[f], row->algorithm) != 0)
        f++;
    if (f == *nfamilies) {
        families[f] = row->algorithm;
        instances[f] = 0;
        (*nfamilies)++;
    }
    id->family = f;
    id->instance = instances[f]++;
    id->repetitions = row->nsamples;
    int len = snprintf(id->name, sizeof id->name, "%s/", row->algorithm);
    for (const char *p = cell->pattern; *p && len > 0 && (size_t)len < sizeof id->name - 1; p++)
        id->name[len++] = (char)toupper((unsigned char)*p);
    if (len > 0 && (size_t)len < sizeof id->name)
        snprintf(id->name + len, sizeof id->name - (size_t)len, "/%llu/%llu",
                 (unsigned long long)cell->nelem, (unsigned long long)cell->size);
}

static int add_benchmarks(cJSON *list, const qsb_results *r, double ns_per_unit)
{
    size_t cap = qsb_results_row_count(r) + 1; /* at least the distinct algorithms */
    const char **families = malloc(cap * sizeof *families);
    int *instances = malloc(cap * sizeof *instances);
    double *ns = NULL;
    int nfamilies = 0, status = families && instances ? 0 : -1;
    for (qsb_row_cursor at = {0}; status == 0 && qsb_results_next_row(r, &at);) {
        const qsb_row *row = at.row;
        if (!row->verified || row->nsamples == 0)
            continue;
        row_id id;
        identify(families, instances, &nfamilies, at.cell, row, &id);
        free(ns);
        ns = malloc(row->nsamples * sizeof *ns);
        if (!ns) {
            status = -1;
            break;
        }
        for (size_t k = 0; k < row->nsamples; k++)
            ns[k] = row->samples[k] * ns_per_unit;
        status = add_iterations(list, &id, ns, row->nsamples);
        if (status == 0)
            status = add_aggregates(list, &id, ns, row->nsamples);
    }
    free(ns);
    free(families);
    free(instances);
    return status;
}

int qsb_export_gbench(FILE *fp, const qsb_results *r)
{
    const char *metric = r->context.metric ? r->context.metric : "none";
    int status = qsb_export_gbench_check(metric);
    if (status != QSB_OK)
        return status;
    bool cycles = strcmp(metric, "cycles") == 0;
    if (cycles && !(r->context.tsc_hz > 0))
        return qsb_error(QSB_EUSAGE, "--export gbench: the TSC frequency is unknown, so cycles "
                         "cannot be turned into time");
    double ns_per_unit = cycles ? 1e9 / r->context.tsc_hz : 1.0;
    cJSON *root = cJSON_CreateObject();
    cJSON *ctx = context_json(r);
    if (!root || !ctx || !cJSON_AddItemToObject(root, "context", ctx)) {
        cJSON_Delete(ctx);
        cJSON_Delete(root);
        return qsb_out_of_memory("gbench export");
    }
    cJSON *list = cJSON_AddArrayToObject(root, "benchmarks");
    bool built = list && add_benchmarks(list, r, ns_per_unit) == 0;
    return built ? qsb_json_print(fp, root, "gbench export")
                 : qsb_json_abandon(root, "gbench export");
}
