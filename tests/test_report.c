/*
** The three reporters on a result structure built by hand: the table's lines are exactly the
** cover letter's layout (the spec's own example line), FAILED rows and published deltas are
** shown as documented; the CSV leaves the baseline's delta and unknown values empty, quotes
** a field that needs it and joins the samples with ';'; the JSON has the documented shape,
** with null for unknown values, and its context the keys of the one table (schema.h), each
** named in docs/formats.md.
*/
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cjson/cJSON.h>

#include "check.h"
#include "cover_letter.h"
#include "report.h"
#include "result.h"
#include "schema.h"

static void build(qsb_results *r)
{
    memset(r, 0, sizeof *r);
    const char *algos[] = {"msort", "introsort"};
    qsb_set_string(&r->baseline, "msort");
    qsb_set_string(&r->context.metric, "cycles");
    qsb_set_string(&r->context.mode, "glibc-bench-2021");
    qsb_set_string(&r->context.timer, "rdtscp");
    qsb_set_string(&r->context.tool_version, "9.9");
    r->context.tsc_hz = 2.5e9;
    r->context.seed = UINT64_C(0x9abc56781234);

    qsb_cell *c = qsb_results_add_cell(r, "sorted", 49152, 4, algos, 2);
    qsb_row_add_sample(&c->rows[0], 3654381.0, 0);
    qsb_row_add_sample(&c->rows[1], 5571774.0, 0);
    c->rows[0].summary.median = 3654381.0;
    c->rows[1].summary.median = 5571774.0;
    c->rows[1].delta_pct = 52.46875; /* exact in binary: prints the same in every format */
    c->rows[0].comparisons = 100;

    c = qsb_results_add_cell(r, "sorted", 786432, 4, algos, 2);
    c->rows[0].summary.median = 1.0;
    c->rows[1].summary.median = 0.5;
    c->rows[1].delta_pct = -50.0; /* published +57.39: the sign differs */

    c = qsb_results_add_cell(r, "bitonic", 49152, 32, algos, 2);
    qsb_row_fail(&c->rows[1], "not sorted at index 12, after 3 rounds");
}

static int starts_with(const char *text, const char *prefix)
{
    return strncmp(text, prefix, strlen(prefix)) == 0;
}

static char *render(int (*reporter)(FILE *, const qsb_results *), const qsb_results *r)
{
    char *text = NULL;
    size_t len = 0;
    FILE *fp = open_memstream(&text, &len);
    CHECK(fp && reporter(fp, r) == 0);
    fclose(fp);
    return text;
}

static int table_plain(FILE *fp, const qsb_results *r)
{
    return qsb_report_table(fp, r, NULL);
}

static const qsb_reference *the_reference;

static int table_with_reference(FILE *fp, const qsb_results *r)
{
    return qsb_report_table(fp, r, the_reference);
}

static void test_table(const qsb_results *r)
{
    char *t = render(table_plain, r);
    CHECK(starts_with(t, "qsortbench 9.9: baseline msort, candidates introsort; metric cycles "
                         "(rdtscp, TSC 2.500 GHz); seed 0x9abc56781234; mode glibc-bench-2021"));
    CHECK(strstr(t, "\n\nSORTED\n  elements=    49152 (size= 4):  +52.47% (msort=3654381.0 "
                    "introsort=5571774.0)\n  elements=   786432 (size= 4):  -50.00% (msort=1.0 "
                    "introsort=0.5)\n\nBITONIC\n") != NULL);
    CHECK(strstr(t, "\n  elements=    49152 (size=32): FAILED (introsort: not sorted at "
                    "index 12, after 3 rounds)\n") != NULL);
    free(t);

    qsb_reference ref;
    CHECK(qsb_reference_load("glibc-2021", &ref) == 0);
    the_reference = &ref;
    t = render(table_with_reference, r);
    CHECK(strstr(t, "introsort=5571774.0)  [published +52.47%]\n") != NULL);
    CHECK(strstr(t, "introsort=0.5)  [published +57.39%, sign differs]\n") != NULL);
    CHECK(strstr(t, "\nintrosort vs msort: the sign agrees with the published delta "
                    "(glibc-2021) in 1 of 2 cells (45 published)\n") != NULL);
    size_t agree, compared;
    qsb_reference_agreement(r, 1, &ref, &agree, &compared);
    CHECK(agree == 1 && compared == 2);
    qsb_reference_free(&ref);
    free(t);
}

static void test_csv(const qsb_results *r)
{
    char *t = render(qsb_report_csv, r);
    CHECK(starts_with(t, "pattern,nelem,size,algorithm,baseline,metric,reps,min,median,mean,"
                         "stddev,delta_pct,comparisons,verified,cv,median_lo,median_hi,"
                         "outliers,delta_lo,delta_hi,noisy,failure,mode,seed,samples,units,"
                         "incomplete,states,run_id\n"));
    CHECK(strstr(t, "\nsorted,49152,4,msort,msort,cycles,1,,3654381,,,,100,true,,,,0,,,false,,"
                    "glibc-bench-2021,0x9abc56781234,3654381,0,false,,\n") != NULL);
    CHECK(strstr(t, "\nsorted,49152,4,introsort,msort,cycles,1,,5571774,,,52.46875,0,true,") !=
          NULL);
    CHECK(strstr(t, "\nbitonic,49152,32,introsort,msort,cycles,0,,,,,,0,false,,,,0,,,false,"
                    "\"not sorted at index 12, after 3 rounds\",glibc-bench-2021,"
                    "0x9abc56781234,,,false,,\n") != NULL);
    free(t);
}

static void test_json(const qsb_results *r)
{
    char *t = render(qsb_report_json, r);
    cJSON *root = cJSON_Parse(t);
    CHECK(root != NULL);
    CHECK(cJSON_GetObjectItem(root, "schema_version")->valuedouble == 1);
    CHECK(strcmp(cJSON_GetObjectItem(root, "baseline")->valuestring, "msort") == 0);
    const cJSON *ctx = cJSON_GetObjectItem(root, "context");
    CHECK(cJSON_GetObjectItem(ctx, "seed")->valuedouble == (double)UINT64_C(0x9abc56781234));
    CHECK(cJSON_IsNull(cJSON_GetObjectItem(ctx, "host")));
    CHECK(cJSON_IsFalse(cJSON_GetObjectItem(ctx, "incomplete")));
    const cJSON *results = cJSON_GetObjectItem(root, "results");
    CHECK_EQ_U64(cJSON_GetArraySize(results), 6);
    const cJSON *base = cJSON_GetArrayItem(results, 0), *cand = cJSON_GetArrayItem(results, 1);
    CHECK(cJSON_IsNull(cJSON_GetObjectItem(base, "delta_pct")));
    CHECK(cJSON_IsNull(cJSON_GetObjectItem(base, "min")));
    CHECK(cJSON_GetObjectItem(cand, "delta_pct")->valuedouble == 52.46875);
    CHECK(cJSON_GetArrayItem(cJSON_GetObjectItem(cand, "samples"), 0)->valuedouble ==
          5571774.0);
    const cJSON *failed = cJSON_GetArrayItem(results, 5);
    CHECK(cJSON_IsFalse(cJSON_GetObjectItem(failed, "verified")));
    CHECK(strcmp(cJSON_GetObjectItem(failed, "failure")->valuestring,
                 "not sorted at index 12, after 3 rounds") == 0);
    CHECK_EQ_U64(cJSON_GetArraySize(cJSON_GetObjectItem(failed, "samples")), 0);
    CHECK(cJSON_IsNull(cJSON_GetObjectItem(cJSON_GetArrayItem(results, 4), "failure")));
    cJSON_Delete(root);
    free(t);
}

/* Names and strings that did not come from this tool (a plug-in's NAME, a machine's CPU
** model) are escaped in the table: no raw control byte, the pattern's escapes in lowercase. */
static void test_table_escapes(void)
{
    qsb_results r;
    memset(&r, 0, sizeof r);
    const char *algos[] = {"msort", "x\x1b[31mRED"};
    qsb_set_string(&r.baseline, "msort");
    qsb_set_string(&r.context.cpu_model, "CPU\x1b]0;title\x07");
    qsb_cell *c = qsb_results_add_cell(&r, "p\x1b[2J", 1000, 4, algos, 2);
    qsb_row_fail(&c->rows[1], "bad\n\xff");
    char *t = render(table_plain, &r);
    size_t raw = 0;
    for (const char *p = t; p && *p; p++)
        raw += *p != '\n' && (*p < 0x20 || *p > 0x7e); /* no interval: no UTF-8 "±" */
    CHECK(t && raw == 0);
    CHECK(t && strstr(t, "candidates x\\x1b[31mRED;") && strstr(t, "CPU\\x1b]0;title\\x07"));
    CHECK(t && strstr(t, "\n\nP\\x1b[2J\n"));
    CHECK(t && strstr(t, "FAILED (x\\x1b[31mRED: bad\\x0a\\xff)"));
    free(t);
    qsb_results_free(&r);
}

/* The context's keys have one table (schema.h): the JSON written from a full context has
** exactly its keys, in its order, and docs/formats.md names every one of them. */
static void test_context_keys(void)
{
    qsb_results r;
    memset(&r, 0, sizeof r);
    qsb_context *c = &r.context;
    uint64_t nelem[1] = {100}, sizes[1] = {4};
    char *words[1] = {"random"};
    qsb_matrix m = {nelem, 1, sizes, 1, words, 1, words, 1};
    CHECK(qsb_matrix_copy(&c->matrix, &m) == 0);
    CHECK(qsb_set_string(&c->repetitions, "fixed: 1 rounds") == 0);
    CHECK(qsb_set_string(&c->machine, "box") == 0);
    CHECK(qsb_set_string(&c->run_id, "0123456789abcdef") == 0);
    CHECK(qsb_set_string(&c->metric, "ns") == 0);
    c->shard_k = 1;
    c->shard_n = 2;
    c->time.wall_s = 1.0;
    c->pinned_cpu = -1;
    char *text = NULL;
    size_t len = 0;
    FILE *out = open_memstream(&text, &len);
    CHECK(out && qsb_report_json(out, &r) == 0);
    if (out)
        fclose(out);
    cJSON *root = text ? cJSON_Parse(text) : NULL;
    const cJSON *ctx = cJSON_GetObjectItemCaseSensitive(root, "context"), *item;
    size_t i = 0;
    cJSON_ArrayForEach(item, ctx)
    {
        CHECK_MSG(i < QSB_CONTEXT_KEY_COUNT && strcmp(item->string, qsb_context_keys[i].key) == 0,
                  "context member %zu is %s", i, item->string);
        i++;
    }
    CHECK_EQ_U64(i, QSB_CONTEXT_KEY_COUNT);
    cJSON_Delete(root);
    free(text);
    qsb_results_free(&r);

    FILE *doc = fopen(QSB_SOURCE_DIR "/docs/formats.md", "r");
    char page[65536];
    size_t n = doc ? fread(page, 1, sizeof page - 1, doc) : 0;
    page[n] = '\0';
    if (doc)
        fclose(doc);
    for (size_t k = 0; k < QSB_CONTEXT_KEY_COUNT; k++) {
        char quoted[64];
        snprintf(quoted, sizeof quoted, "`%s`", qsb_context_keys[k].key);
        CHECK_MSG(strstr(page, quoted) != NULL, "docs/formats.md does not name %s", quoted);
    }
}

int main(void)
{
    test_context_keys();
    qsb_results r;
    build(&r);
    test_table(&r);
    test_table_escapes();
    test_csv(&r);
    test_json(&r);
    qsb_results_free(&r);
    return check_done();
}
