/*
** The dashboard exports (src/results/export_dashboards.h), for every kind of results file: a
** run (JSON and CSV), merged shards, a pooled file and a fleet file (tests/fixtures/report,
** tests/fixtures/results). Each export is parsed back with cJSON and checked field by field
** against the formats' documented schemas, written here from their documentation:
**
** Bencher Metric Format (bencher.dev/docs/reference/bencher-metric-format): a JSON object
**   whose keys (benchmark names, non-empty, at most 1024 characters) map to objects whose keys
**   (measures, non-empty, at most 64 characters) map to objects with "value" (number,
**   required), "lower_value" and "upper_value" (numbers, optional).
** github-action-benchmark, tool customSmallerIsBetter (its README, "Examples"): a JSON array of
**   objects with "name" (string), "unit" (string), "value" (number), all required, and
**   "range" (string), "extra" (string), optional.
**
** Neither format has a reader in the tool, so the round trip is checked against the results
** the export was made from: every verified row is there once under its stable name, with its
** median, its interval, its delta.
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
#include "read_results.h"

#define FIXTURES QSB_SOURCE_DIR "/tests/fixtures/"

static const char *const files[] = {
    FIXTURES "report/run.json",    FIXTURES "results/small.csv", FIXTURES "report/merged.json",
    FIXTURES "report/pooled.json", FIXTURES "report/fleet.json", FIXTURES "plot/small.json",
};

static cJSON *export_and_parse(const char *format, const qsb_results *runs, size_t n)
{
    const qsb_export_format *f = qsb_export_find(format);
    CHECK(f != NULL);
    FILE *fp = tmpfile();
    CHECK(fp != NULL);
    if (!f || !fp)
        return NULL;
    CHECK(f->write(fp, runs, n) == QSB_OK);
    char *text = captured(fp);
    cJSON *root = text ? cJSON_Parse(text) : NULL;
    CHECK_MSG(root != NULL, "%s: not JSON", format);
    free(text);
    return root;
}

static bool near(double a, double b)
{
    return fabs(a - b) <= 1e-9 * fmax(fabs(a), fabs(b)) + 1e-12;
}

static bool number_is(const cJSON *o, const char *key, double want)
{
    const cJSON *v = cJSON_GetObjectItemCaseSensitive(o, key);
    return cJSON_IsNumber(v) && near(v->valuedouble, want);
}

static size_t exportable_rows(const qsb_results *runs, size_t n)
{
    size_t count = 0;
    for (size_t m = 0; m < n; m++)
        for (size_t c = 0; c < runs[m].ncells; c++)
            for (size_t i = 0; i < runs[m].cells[c].nrows; i++)
                count += runs[m].cells[c].rows[i].verified &&
                         isfinite(runs[m].cells[c].rows[i].summary.median);
    return count;
}

static void row_name(char *buf, size_t len, const qsb_results *runs, size_t n, size_t m,
                     const qsb_cell *cell, const qsb_row *row)
{
    qsb_export_name(buf, len, cell, row, n > 1 ? qsb_machine_name(&runs[m].context) : NULL);
}

/* ---- Bencher Metric Format ---- */

static void check_bmf_schema(const cJSON *root, const char *file)
{
    CHECK_MSG(cJSON_IsObject(root), "%s: bmf root not an object", file);
    const cJSON *bench, *measure;
    cJSON_ArrayForEach(bench, root)
    {
        CHECK(bench->string && strlen(bench->string) > 0 && strlen(bench->string) <= 1024);
        CHECK(cJSON_IsObject(bench));
        cJSON_ArrayForEach(measure, bench)
        {
            CHECK(measure->string && strlen(measure->string) > 0 &&
                  strlen(measure->string) <= 64);
            CHECK(cJSON_IsObject(measure));
            CHECK_MSG(cJSON_IsNumber(cJSON_GetObjectItemCaseSensitive(measure, "value")),
                      "%s: %s/%s has no number value", file, bench->string, measure->string);
            const cJSON *field;
            cJSON_ArrayForEach(field, measure)
            {
                bool known = strcmp(field->string, "value") == 0 ||
                             strcmp(field->string, "lower_value") == 0 ||
                             strcmp(field->string, "upper_value") == 0;
                CHECK_MSG(known && cJSON_IsNumber(field), "%s: field %s", file, field->string);
            }
        }
    }
}

static void check_metric(const cJSON *m, double value, double lo, double hi)
{
    CHECK(number_is(m, "value", value));
    if (isfinite(lo) && isfinite(hi)) {
        CHECK(number_is(m, "lower_value", lo) && number_is(m, "upper_value", hi));
    } else {
        CHECK(!cJSON_HasObjectItem(m, "lower_value") && !cJSON_HasObjectItem(m, "upper_value"));
    }
}

/* Where a row of runs[m] is exported in a parsed file: the entry, or NULL. */
typedef const cJSON *(*entry_lookup)(const cJSON *root, const char *name);

/* What one exported row must say: its entry, the row, its cell and its run. */
typedef void (*entry_check)(const cJSON *entry, const qsb_results *run, const qsb_cell *cell,
                            size_t i, const char *name, const char *file);

/* Every row of every run: a failed row is not exported, any other one is, and says what
** `check` asks of it. The file holds no other entry. */
static void check_exported_rows(const cJSON *root, const qsb_results *runs, size_t n,
                                const char *file, entry_lookup lookup, entry_check check)
{
    CHECK_EQ_U64(cJSON_GetArraySize(root), exportable_rows(runs, n));
    for (size_t m = 0; m < n; m++)
        for (size_t c = 0; c < runs[m].ncells; c++) {
            const qsb_cell *cell = &runs[m].cells[c];
            for (size_t i = 0; i < cell->nrows; i++) {
                char name[1100];
                row_name(name, sizeof name, runs, n, m, cell, &cell->rows[i]);
                const cJSON *entry = lookup(root, name);
                if (!cell->rows[i].verified) {
                    CHECK_MSG(entry == NULL, "%s: failed row %s exported", file, name);
                    continue;
                }
                CHECK_MSG(entry != NULL, "%s: %s missing", file, name);
                if (entry)
                    check(entry, &runs[m], cell, i, name, file);
            }
        }
}

static const cJSON *bmf_entry(const cJSON *root, const char *name)
{
    return cJSON_GetObjectItemCaseSensitive(root, name);
}

static void check_bmf_entry(const cJSON *b, const qsb_results *run, const qsb_cell *cell,
                            size_t i, const char *name, const char *file)
{
    const qsb_row *row = &cell->rows[i];
    char measure[64];
    snprintf(measure, sizeof measure, "median-%s", run->context.metric);
    check_metric(cJSON_GetObjectItemCaseSensitive(b, measure), row->summary.median,
                 row->summary.median_lo, row->summary.median_hi);
    const cJSON *d = cJSON_GetObjectItemCaseSensitive(b, "delta-pct");
    if (i == 0 || !isfinite(row->delta_pct) || !cell->rows[0].verified) {
        CHECK_MSG(d == NULL, "%s: %s has a delta", file, name);
    } else {
        CHECK_MSG(d != NULL, "%s: %s has no delta", file, name);
        if (d)
            check_metric(d, row->delta_pct, row->delta_lo, row->delta_hi);
    }
}

/* ---- github-action-benchmark ---- */

static void check_github_schema(const cJSON *root, const char *file)
{
    CHECK_MSG(cJSON_IsArray(root), "%s: not an array", file);
    const cJSON *e;
    cJSON_ArrayForEach(e, root)
    {
        CHECK(cJSON_IsObject(e));
        CHECK(cJSON_IsString(cJSON_GetObjectItemCaseSensitive(e, "name")));
        CHECK(cJSON_IsString(cJSON_GetObjectItemCaseSensitive(e, "unit")));
        CHECK(cJSON_IsNumber(cJSON_GetObjectItemCaseSensitive(e, "value")));
        const cJSON *field;
        cJSON_ArrayForEach(field, e)
        {
            bool string_field = strcmp(field->string, "name") == 0 ||
                                strcmp(field->string, "unit") == 0 ||
                                strcmp(field->string, "range") == 0 ||
                                strcmp(field->string, "extra") == 0;
            bool ok = string_field ? cJSON_IsString(field)
                                   : strcmp(field->string, "value") == 0 && cJSON_IsNumber(field);
            CHECK_MSG(ok, "%s: field %s", file, field->string);
        }
    }
}

static const cJSON *find_entry(const cJSON *root, const char *name)
{
    const cJSON *e, *found = NULL;
    size_t times = 0;
    cJSON_ArrayForEach(e, root)
    {
        const cJSON *s = cJSON_GetObjectItemCaseSensitive(e, "name");
        if (cJSON_IsString(s) && strcmp(s->valuestring, name) == 0) {
            found = e;
            times++;
        }
    }
    CHECK_MSG(times <= 1, "%s appears %zu times", name, times);
    return found;
}

static void check_github_entry(const cJSON *e, const qsb_results *run, const qsb_cell *cell,
                               size_t i, const char *name, const char *file)
{
    (void)name;
    (void)file;
    const qsb_row *row = &cell->rows[i];
    const cJSON *unit = cJSON_GetObjectItemCaseSensitive(e, "unit");
    CHECK(cJSON_IsString(unit) && strcmp(unit->valuestring, run->context.metric) == 0);
    CHECK(number_is(e, "value", row->summary.median));
    const cJSON *range = cJSON_GetObjectItemCaseSensitive(e, "range");
    bool interval = isfinite(row->summary.median_lo);
    CHECK(interval ? cJSON_IsString(range) && strncmp(range->valuestring, "\xc2\xb1", 2) == 0 &&
                         strtod(range->valuestring + 2, NULL) >= 0
                   : range == NULL);
    const cJSON *extra = cJSON_GetObjectItemCaseSensitive(e, "extra");
    CHECK(cJSON_IsString(extra) &&
          (i == 0 ? strstr(extra->valuestring, "baseline") != NULL
                  : strstr(extra->valuestring, "delta vs ") != NULL ||
                        !isfinite(row->delta_pct) || !cell->rows[0].verified));
}

static void check_file(const char *file)
{
    qsb_results *runs = NULL;
    size_t n = 0;
    CHECK_MSG(qsb_read_fleet(file, &runs, &n) == QSB_OK, "%s unreadable", file);
    cJSON *bmf = export_and_parse("bmf", runs, n);
    check_bmf_schema(bmf, file);
    check_exported_rows(bmf, runs, n, file, bmf_entry, check_bmf_entry);
    cJSON *gab = export_and_parse("github-action-benchmark", runs, n);
    check_github_schema(gab, file);
    check_exported_rows(gab, runs, n, file, find_entry, check_github_entry);
    cJSON_Delete(bmf);
    cJSON_Delete(gab);
    for (size_t i = 0; i < n; i++)
        qsb_results_free(&runs[i]);
    free(runs);
}

/* The fixtures cover what the checks are about: a fleet of two machines, intervals, failed
** rows (plot/small.json), a pooled file. */
static void check_fixtures_cover(void)
{
    qsb_results *runs = NULL;
    size_t n = 0;
    CHECK(qsb_read_fleet(FIXTURES "report/fleet.json", &runs, &n) == QSB_OK && n == 2);
    for (size_t i = 0; i < n; i++)
        qsb_results_free(&runs[i]);
    free(runs);
    qsb_results r;
    CHECK(qsb_read_results(FIXTURES "report/pooled.json", &r) == QSB_OK);
    CHECK(r.context.repetitions && strncmp(r.context.repetitions, "pooled", 6) == 0);
    CHECK(isfinite(r.cells[0].rows[1].delta_lo));
    qsb_results_free(&r);
    CHECK(qsb_read_results(FIXTURES "plot/small.json", &r) == QSB_OK);
    bool failed = false;
    for (size_t c = 0; c < r.ncells; c++)
        for (size_t i = 0; i < r.cells[c].nrows; i++)
            failed |= !r.cells[c].rows[i].verified;
    CHECK(failed);
    qsb_results_free(&r);
}

/* gbench describes one machine: a fleet is refused, naming the way out. */
static void check_gbench_refuses_fleet(void)
{
    qsb_results *runs = NULL;
    size_t n = 0;
    CHECK(qsb_read_fleet(FIXTURES "report/fleet.json", &runs, &n) == QSB_OK);
    FILE *fp = tmpfile();
    CHECK(fp && qsb_export_find("gbench")->write(fp, runs, n) == QSB_EUSAGE);
    if (fp)
        fclose(fp);
    for (size_t i = 0; i < n; i++)
        qsb_results_free(&runs[i]);
    free(runs);
}

static void check_table(void)
{
    CHECK(qsb_export_find("bmf") && qsb_export_find("github-action-benchmark") &&
          qsb_export_find("gbench") && !qsb_export_find("csv"));
    CHECK(strcmp(qsb_export_names(), "gbench, bmf or github-action-benchmark") == 0);
    char name[32];
    qsb_cell cell = {.pattern = "random", .nelem = 49152, .size = 4};
    qsb_row row = {.algorithm = "introsort"};
    qsb_export_name(name, sizeof name, &cell, &row, NULL);
    CHECK(strcmp(name, "random/49152/4/introsort") == 0);
    qsb_export_name(name, sizeof name, &cell, &row, "epyc");
    CHECK(strcmp(name, "random/49152/4/introsort@epyc") == 0);
    qsb_export_name(name, 10, &cell, &row, "epyc"); /* cut, terminated */
    CHECK(strcmp(name, "random/49") == 0);
}

int main(void)
{
    for (size_t i = 0; i < sizeof files / sizeof files[0]; i++)
        check_file(files[i]);
    check_fixtures_cover();
    check_gbench_refuses_fleet();
    check_table();
    return check_done();
}
