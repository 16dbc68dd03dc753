/*
** End to end: the real binary runs a small matrix, and its three outputs are read back and
** checked against each other and against arithmetic done here.
**
** - the CSV (read with libcsv) has exactly the columns of result.h and one row per
**   (cell, algorithm);
** - the JSON (read with cJSON) has the context block and the same rows: every CSV field equals
**   the JSON field of the same name, samples included;
** - the median and the paired delta recomputed here from the JSON samples equal the reported
**   ones;
** - the table has a title per pattern and, for every cell and candidate, exactly the line the
**   JSON values give in the cover letter's layout;
** - with --metric comparisons on the 2021 benchmark's 4096-element inputs, the comparisons
**   column equals the counts measured on the real glibc code (tests/reference).
*/
#include <ctype.h>
#include <stdbool.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cjson/cJSON.h>

#include "check.h"
#include "machine.h"
#include "run_binary.h"
#include "version.h"

static const char *const csv_columns[] = {
    "pattern",  "nelem",     "size",      "algorithm", "baseline",  "metric",   "reps",
    "min",      "median",    "mean",      "stddev",    "delta_pct", "comparisons",
    "verified", "cv",        "median_lo", "median_hi", "outliers",  "delta_lo", "delta_hi",
    "noisy",    "failure",   "mode",      "seed",      "samples",  "units",
    "incomplete", "states", "run_id"};
#define NCOLUMNS (sizeof csv_columns / sizeof csv_columns[0])

static const char *const context_fields[] = {
    "tool_version", "date",       "host",       "cpu_model", "caches", "cache_bytes",
    "libc",         "compiler",   "build_flags", "build_type", "timer", "tsc_hz",
    "metric",       "seed",       "mode",       "command_line", "run_id",
    "incomplete"};

static char dir[256];

static void path_in_dir(char *buf, size_t len, const char *name)
{
    snprintf(buf, len, "%s/%s", dir, name);
}

static int compare_doubles(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

static double median(double *x, size_t n)
{
    qsort(x, n, sizeof *x, compare_doubles);
    return n % 2 ? x[n / 2] : (x[n / 2 - 1] + x[n / 2]) / 2;
}

static double json_number(const cJSON *o, const char *name)
{
    const cJSON *item = cJSON_GetObjectItemCaseSensitive(o, name);
    return cJSON_IsNumber(item) ? item->valuedouble : NAN;
}

static const char *json_string(const cJSON *o, const char *name)
{
    const cJSON *item = cJSON_GetObjectItemCaseSensitive(o, name);
    return cJSON_IsString(item) ? item->valuestring : NULL;
}

static int close_enough(double a, double b)
{
    return fabs(a - b) <= 1e-9 * fmax(1.0, fmax(fabs(a), fabs(b)));
}

/* One CSV field against the JSON field of the same name. */
static int field_matches(const char *text, const cJSON *item)
{
    if (cJSON_IsNull(item))
        return text[0] == '\0';
    if (cJSON_IsBool(item))
        return strcmp(text, cJSON_IsTrue(item) ? "true" : "false") == 0;
    if (cJSON_IsString(item))
        return strcmp(text, item->valuestring) == 0;
    if (cJSON_IsNumber(item)) {
        char *end;
        double v = strncmp(text, "0x", 2) == 0 ? (double)strtoull(text, &end, 16)
                                               : strtod(text, &end);
        return text[0] != '\0' && *end == '\0' && v == item->valuedouble;
    }
    if (cJSON_IsArray(item)) { /* samples: ';'-joined */
        const char *p = text;
        const cJSON *sample;
        cJSON_ArrayForEach(sample, item)
        {
            char *end;
            double v = strtod(p, &end);
            if (end == p || v != sample->valuedouble || (*end != ';' && *end != '\0'))
                return 0;
            p = *end ? end + 1 : end;
        }
        return *p == '\0';
    }
    return 0;
}

static void check_csv_header(const csv_table *t)
{
    CHECK(t->nrows > 0 && t->nfields[0] == NCOLUMNS);
    for (size_t i = 0; t->nrows > 0 && i < NCOLUMNS && i < t->nfields[0]; i++)
        CHECK_MSG(strcmp(t->rows[0][i], csv_columns[i]) == 0, "column %zu is '%s', not '%s'",
                  i, t->rows[0][i], csv_columns[i]);
}

static void check_rows_agree(const csv_table *t, const cJSON *results)
{
    CHECK_EQ_U64(t->nrows - 1, (size_t)cJSON_GetArraySize(results));
    size_t r = 1;
    const cJSON *row;
    cJSON_ArrayForEach(row, results)
    {
        for (size_t c = 0; c < NCOLUMNS && r < t->nrows; c++) {
            const char *text = csv_table_get(t, r, csv_columns[c]);
            const cJSON *item = cJSON_GetObjectItemCaseSensitive(row, csv_columns[c]);
            CHECK_MSG(text && item && field_matches(text, item), "row %zu, %s: CSV '%s'", r,
                      csv_columns[c], text ? text : "(none)");
        }
        r++;
    }
}

static size_t samples_of(const cJSON *row, double *out, size_t cap)
{
    size_t n = 0;
    const cJSON *s;
    cJSON_ArrayForEach(s, cJSON_GetObjectItemCaseSensitive(row, "samples"))
    {
        if (n < cap)
            out[n] = s->valuedouble;
        n++;
    }
    return n;
}

/* Median and paired delta recomputed from the samples; the baseline row precedes its cell's
** candidates. */
static void check_arithmetic(const cJSON *results)
{
    double base[64], cand[64], work[64];
    size_t nbase = 0;
    const cJSON *row;
    cJSON_ArrayForEach(row, results)
    {
        size_t n = samples_of(row, cand, 64);
        CHECK(n > 0 && n <= 64);
        CHECK_EQ_U64(n, (uint64_t)json_number(row, "reps"));
        memcpy(work, cand, n * sizeof *work);
        CHECK_MSG(median(work, n) == json_number(row, "median"), "median of %s",
                  json_string(row, "algorithm"));
        if (strcmp(json_string(row, "algorithm"), json_string(row, "baseline")) == 0) {
            memcpy(base, cand, n * sizeof *base);
            nbase = n;
            CHECK(cJSON_IsNull(cJSON_GetObjectItemCaseSensitive(row, "delta_pct")));
            continue;
        }
        CHECK_EQ_U64(n, nbase);
        for (size_t i = 0; i < n && i < nbase; i++)
            work[i] = (cand[i] / base[i] - 1) * 100;
        double expected = median(work, n < nbase ? n : nbase);
        CHECK_MSG(close_enough(expected, json_number(row, "delta_pct")),
                  "delta %.17g, recomputed %.17g", json_number(row, "delta_pct"), expected);
    }
}

/* The cover letter's line for each candidate row, from the JSON values. */
static void check_table(const char *table, const cJSON *results, size_t expected_lines)
{
    const cJSON *row;
    const cJSON *base = NULL;
    size_t lines = 0;
    cJSON_ArrayForEach(row, results)
    {
        const char *algo = json_string(row, "algorithm");
        if (strcmp(algo, json_string(row, "baseline")) == 0) {
            base = row;
            continue;
        }
        char title[40], line[256];
        snprintf(title, sizeof title, "\n%s\n", json_string(row, "pattern"));
        for (char *p = title; *p; p++)
            *p = (char)toupper((unsigned char)*p);
        CHECK_MSG(strstr(table, title) != NULL, "no title %s", title);
        bool noisy = cJSON_IsTrue(cJSON_GetObjectItemCaseSensitive(row, "noisy")) ||
                     cJSON_IsTrue(cJSON_GetObjectItemCaseSensitive(base, "noisy"));
        double delta = json_number(row, "delta_pct"), lo = json_number(row, "delta_lo"),
               hi = json_number(row, "delta_hi");
        char interval[32] = "";
        if (!isnan(lo) && !isnan(hi))
            snprintf(interval, sizeof interval, " \xc2\xb1 %.2f", fmax(delta - lo, hi - delta));
        snprintf(line, sizeof line,
                 "  elements=%9.0f (size=%2.0f): %+7.2f%%%s (%s=%.1f %s=%.1f)%s%s\n",
                 json_number(row, "nelem"), json_number(row, "size"), delta, interval,
                 json_string(base, "algorithm"), json_number(base, "median"), algo,
                 json_number(row, "median"),
                 !isnan(lo) && lo <= 0 && hi >= 0 ? "  no significant change" : "",
                 noisy ? "  ~noisy" : "");
        CHECK_MSG(strstr(table, line) != NULL, "missing line: %s", line);
        lines++;
    }
    CHECK_EQ_U64(lines, expected_lines);
    size_t element_lines = 0;
    for (const char *p = table; (p = strstr(p, "  elements=")) != NULL; p++)
        element_lines++;
    CHECK_EQ_U64(element_lines, expected_lines);
}

static void check_context(const cJSON *root, const char *metric)
{
    CHECK_EQ_U64((uint64_t)json_number(root, "schema_version"), 1);
    const cJSON *context = cJSON_GetObjectItemCaseSensitive(root, "context");
    CHECK(cJSON_IsObject(context));
    for (size_t i = 0; i < sizeof context_fields / sizeof context_fields[0]; i++)
        CHECK_MSG(cJSON_GetObjectItemCaseSensitive(context, context_fields[i]) != NULL,
                  "context.%s missing", context_fields[i]);
    CHECK(cJSON_IsFalse(cJSON_GetObjectItemCaseSensitive(context, "incomplete")));
    /* The run's id: 16 hex digits, the same on every row (which the CSV's rows repeat). */
    const char *id = json_string(context, "run_id");
    CHECK_MSG(id && strlen(id) == 16 && strspn(id, "0123456789abcdef") == 16, "run_id %s",
              id ? id : "(none)");
    const cJSON *row;
    cJSON_ArrayForEach(row, cJSON_GetObjectItemCaseSensitive(root, "results"))
        CHECK(id && json_string(row, "run_id") && strcmp(json_string(row, "run_id"), id) == 0);
    const char *m = json_string(context, "metric");
    CHECK_MSG(m && (metric ? strcmp(m, metric) == 0
                           : strcmp(m, "cycles") == 0 || strcmp(m, "ns") == 0),
              "metric %s", m ? m : "(none)");
    CHECK(json_number(context, "seed") == (double)0x9abc56781234);
    CHECK(json_string(root, "baseline") && strcmp(json_string(root, "baseline"), "msort") == 0);
}

static cJSON *read_json(const char *path)
{
    char *text = slurp(path, NULL);
    cJSON *root = text ? cJSON_Parse(text) : NULL;
    free(text);
    CHECK_MSG(root != NULL, "%s is not valid JSON", path);
    return root;
}

static void test_timed_run(void)
{
    char csv[300], json[300], out[300], err[300];
    path_in_dir(csv, sizeof csv, "timed.csv");
    path_in_dir(json, sizeof json, "timed.json");
    path_in_dir(out, sizeof out, "timed.out");
    path_in_dir(err, sizeof err, "timed.err");
    char *argv[] = {QSB_BINARY, "--nelem", "1000:5000", "--sizes", "4,8,32", "--patterns",
                    "all", "--algos", "msort,introsort,heapsort", "--reps", "5", "--csv", csv,
                    "--json", json, "--quiet", NULL};
    CHECK_EQ_U64(run_binary(argv, out, err), 0);
    csv_table t;
    CHECK(csv_table_read(csv, &t) == 0);
    cJSON *root = read_json(json);
    char *table = slurp(out, NULL);
    if (t.nrows == 0 || !root || !table)
        goto done;
    size_t cells = 7 * 3 * 2;
    CHECK_EQ_U64(t.nrows - 1, cells * 3);
    check_csv_header(&t);
    check_context(root, NULL); /* cycles or ns: the default */
    const cJSON *results = cJSON_GetObjectItemCaseSensitive(root, "results");
    check_rows_agree(&t, results);
    check_arithmetic(results);
    check_table(table, results, cells * 2);
    for (size_t r = 1; r < t.nrows; r++)
        CHECK(strcmp(csv_table_get(&t, r, "verified"), "true") == 0 &&
              strtoull(csv_table_get(&t, r, "comparisons"), NULL, 10) > 0);
done:
    free(table);
    cJSON_Delete(root);
    csv_table_free(&t);
}

/* The reference counts of (pattern, size) for a registry name, from comparisons.csv. */
static void check_reference_counts(const csv_table *ours, const csv_table *ref,
                                   const char *algo)
{
    size_t compared = 0;
    for (size_t r = 1; r < ref->nrows; r++) {
        if (strcmp(csv_table_get(ref, r, "mode"), "compat") != 0 ||
            strcmp(csv_table_get(ref, r, "nelem"), "4096") != 0)
            continue;
        for (size_t o = 1; o < ours->nrows; o++) {
            if (strcmp(csv_table_get(ours, o, "algorithm"), algo) != 0 ||
                strcmp(csv_table_get(ours, o, "pattern"), csv_table_get(ref, r, "pattern")) ||
                strcmp(csv_table_get(ours, o, "size"), csv_table_get(ref, r, "size")))
                continue;
            CHECK_MSG(strcmp(csv_table_get(ours, o, "comparisons"),
                             csv_table_get(ref, r, algo)) == 0,
                      "%s %s size %s: %s comparisons, the real code %s", algo,
                      csv_table_get(ref, r, "pattern"), csv_table_get(ref, r, "size"),
                      csv_table_get(ours, o, "comparisons"), csv_table_get(ref, r, algo));
            compared++;
        }
    }
    CHECK_EQ_U64(compared, 21); /* 7 patterns x 3 sizes */
}

static void test_compat_comparisons(void)
{
    char csv[300], json[300], out[300];
    path_in_dir(csv, sizeof csv, "counts.csv");
    path_in_dir(json, sizeof json, "counts.json");
    path_in_dir(out, sizeof out, "counts.out");
    /* system is glibc's msort up to 2.38; under ASan it is not: the sanitizer's qsort_r
    ** interceptor first runs the comparator over every neighbour pair (n - 1 calls more). */
    int with_system = qsb_libc_is_glibc_at_most(2, 38) && !QSB_SANITIZED;
    char *argv[] = {QSB_BINARY, "--compat", "glibc-bench-2021", "--nelem", "4096", "--sizes",
                    "4,8,32", "--patterns", "all", "--metric", "comparisons", "--algos",
                    with_system ? "msort,quicksort,introsort,introsort-final,msort-2.39,system"
                                : "msort,quicksort,introsort,introsort-final,msort-2.39",
                    "--csv", csv, "--json", json, NULL};
    CHECK_EQ_U64(run_binary(argv, out, NULL), 0);
    csv_table ours, ref;
    CHECK(csv_table_read(csv, &ours) == 0);
    CHECK(csv_table_read(QSB_REFERENCE_DIR "/comparisons.csv", &ref) == 0);
    const char *algos[] = {"msort", "quicksort", "introsort", "introsort-final", "msort-2.39",
                           "system"};
    for (size_t a = 0; ours.nrows > 0 && ref.nrows > 0 && a < 5u + (size_t)with_system; a++)
        check_reference_counts(&ours, &ref, algos[a]);
    /* With this metric the one sample is the count, and the delta is exact arithmetic. */
    cJSON *root = read_json(json);
    if (root) {
        check_context(root, "comparisons");
        check_arithmetic(cJSON_GetObjectItemCaseSensitive(root, "results"));
        check_rows_agree(&ours, cJSON_GetObjectItemCaseSensitive(root, "results"));
    }
    cJSON_Delete(root);
    csv_table_free(&ours);
    csv_table_free(&ref);
}

int main(void)
{
    if (make_temp_dir(dir, sizeof dir, "qsb-run-files") != 0) {
        perror("mkdtemp");
        return 1;
    }
    test_timed_run();
    test_compat_comparisons();
    remove_temp_dir(dir);
    return check_done();
}
