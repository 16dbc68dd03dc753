/*
** compare without --normalize, when the baseline moved between the runs (compare.h,
** qsb_baseline_view): a candidate row that is not a regression by its own times but is one by
** its ratio to the baseline is marked, with the ratio's change, interval and corrected p exactly
** as --normalize gives them; rows that moved with the baseline, rows that are regressions by
** their own times, reports of exact counts or of two baselines are not marked; two runs of the
** same thing gain no mark; the exit status stays the rows' own; the baseline's own rows that
** moved beyond the threshold (a host slower in NEW) are counted. Then the command on the
** fixtures tests/fixtures/compare/moved-*.json (msort 6% faster in NEW, g 4% slower by its
** own times, 10% slower against msort): the row's note in the table, the Markdown and the
** JSON, the summary line, the warning, and --normalize failing on the same row.
*/
#include <cjson/cJSON.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "check.h"
#include "compare.h"
#include "diag.h"
#include "result.h"
#include "series_gen.h"
#include "stats.h"

#define FIXTURES QSB_SOURCE_DIR "/tests/fixtures/compare"

static char tmpdir[] = "/tmp/qsb-compare-baseline-XXXXXX";

/* ---- runs built in the test ---- */

static series_rng rng; /* seeded per run: series_gen.h */

/* How a run is built: the machine's speed (both sorts scaled by it), introsort's factor over
** msort, the units' own levels (placement) and the rounds' drift common to both sorts. */
typedef struct {
    double machine, factor;
    double unit_sd, drift_sd;
    size_t ncells, units, rounds;
    uint64_t seed;
} run_shape;

static void build_run(qsb_results *r, const run_shape *s)
{
    memset(r, 0, sizeof *r);
    CHECK(qsb_set_string(&r->context.metric, "cycles") == 0);
    CHECK(qsb_set_string(&r->baseline, "msort") == 0);
    CHECK(qsb_set_string(&r->context.mode, "default") == 0);
    r->context.seed = 42;
    rng.state = s->seed;
    const char *const algos[] = {"msort", "introsort"};
    static const char *const patterns[] = {"random", "sorted", "reversed", "bitonic"};
    for (size_t c = 0; c < s->ncells; c++) {
        qsb_cell *cell = qsb_results_add_cell(r, patterns[c % 4], 49152u << (c / 4), 4, algos, 2);
        CHECK(cell != NULL);
        if (!cell)
            return;
        double level = 1e6 * (double)(c + 1) * s->machine;
        for (size_t u = 0; u < s->units; u++) {
            double eb = s->unit_sd * series_normal(&rng), ec = s->unit_sd * series_normal(&rng);
            for (size_t k = 0; k < s->rounds; k++) {
                double drift = s->drift_sd * series_normal(&rng);
                CHECK(qsb_row_add_sample(&cell->rows[0], level * exp(eb + drift + 0.002 * series_normal(&rng)),
                                         (uint32_t)u) == 0);
                CHECK(qsb_row_add_sample(&cell->rows[1],
                                         level * s->factor * exp(ec + drift + 0.002 * series_normal(&rng)),
                                         (uint32_t)u) == 0);
            }
        }
        for (size_t i = 0; i < 2; i++)
            CHECK(qsb_summarize_units(cell->rows[i].samples, cell->rows[i].units,
                                      cell->rows[i].nsamples, &cell->rows[i].summary) == 0);
    }
}

static qsb_comparison item_at(const qsb_compare_report *rep, size_t i)
{
    qsb_comparison it;
    CHECK(qsb_compare_item(rep, i, &it) == QSB_OK);
    return it;
}

static bool own_finding(qsb_verdict v)
{
    return v == QSB_VERDICT_REGRESSION || v == QSB_VERDICT_FAILED || v == QSB_VERDICT_BASE_FAILED;
}

/* The marks of a report without --normalize are --normalize's regressions that are not the
** rows' own: row by row, with the same change, interval and corrected p. Returns the marks. */
static size_t check_same_as_normalize(const qsb_results *a, const qsb_results *b,
                                      qsb_compare_options o)
{
    qsb_compare_report raw, ratio;
    o.normalize = false;
    CHECK(qsb_compare_results(a, b, &o, &raw) == QSB_OK);
    o.normalize = true;
    CHECK(qsb_compare_results(a, b, &o, &ratio) == QSB_OK);
    CHECK(raw.judged_against_baseline && !ratio.judged_against_baseline);
    CHECK_EQ_U64(ratio.against_baseline_regressions, 0);
    CHECK_EQ_U64(raw.n, ratio.n);
    size_t marked = 0;
    for (size_t i = 0; i < raw.n && i < ratio.n; i++) {
        qsb_comparison r = item_at(&raw, i), n = item_at(&ratio, i);
        bool expected = n.verdict == QSB_VERDICT_REGRESSION && !own_finding(r.verdict);
        const qsb_baseline_view *v = &r.against_baseline;
        CHECK_MSG(v->regression == expected, "%s/%llu %s: own %s, by ratio %s, marked %d",
                  r.pattern, (unsigned long long)r.nelem, r.algorithm,
                  qsb_verdict_name(r.verdict), qsb_verdict_name(n.verdict), v->regression);
        CHECK(!ratio.entries[i].regression_against_baseline && !n.against_baseline.regression);
        if (!v->regression)
            continue;
        marked++;
        CHECK(v->change_pct == n.change_pct && v->change_lo == n.change_lo &&
              v->change_hi == n.change_hi && v->p == n.p && v->p_adjusted == n.p_adjusted);
    }
    CHECK_EQ_U64(raw.against_baseline_regressions, marked);
    qsb_compare_report_free(&raw);
    qsb_compare_report_free(&ratio);
    return marked;
}

static const run_shape quiet = {1.0, 1.0, 0.005, 0.03, 4, 8, 3, 1};
/* NEW on a machine 6% faster with introsort 10% slower against msort (its own seed). */
static const run_shape moved = {0.94, 1.10, 0.005, 0.03, 4, 8, 3, 2};

/* A run shaped as `quiet` on a machine of the given speed, introsort at the given factor. */
static void build_quiet_run(qsb_results *r, double machine, double factor, uint64_t seed)
{
    run_shape shape = quiet;
    shape.machine = machine;
    shape.factor = factor;
    shape.seed = seed;
    build_run(r, &shape);
}

/* NEW on a machine 6% faster, introsort 10% slower against msort: +3.4% by its own times,
** within the 5% threshold; every introsort row marked, no msort row; the status is the
** rows' own. */
static void test_moved_baseline(void)
{
    qsb_results base, cand;
    build_run(&base, &quiet);
    build_run(&cand, &moved);
    qsb_compare_options o = {5.0, 0.01, false, QSB_CORRECTION_HOLM, 0.0};
    qsb_compare_report rep;
    CHECK(qsb_compare_results(&base, &cand, &o, &rep) == QSB_OK);
    CHECK(rep.judged_against_baseline);
    CHECK_EQ_U64(rep.against_baseline_regressions, 4);
    CHECK_EQ_U64(rep.count[QSB_VERDICT_REGRESSION], 0);
    for (size_t i = 0; i < rep.n; i++) {
        qsb_comparison it = item_at(&rep, i);
        const qsb_baseline_view *v = &it.against_baseline;
        if (strcmp(it.algorithm, "msort") == 0) {
            CHECK(!v->regression && isnan(v->change_pct) && isnan(v->p_adjusted));
            continue;
        }
        CHECK_MSG(it.change_pct > 0.0 && it.change_pct < 5.0, "own change %+.2f%%",
                  it.change_pct);
        CHECK(v->regression && v->change_lo > 5.0 && v->p_adjusted < 0.01);
        CHECK_MSG(fabs(v->change_pct - 10.0) < 1.5, "against the baseline %+.2f%%",
                  v->change_pct);
    }
    CHECK(qsb_compare_status(&rep, QSB_COMPARE_LENIENT) == QSB_OK);
    CHECK(qsb_compare_status(&rep, QSB_COMPARE_STRICT) == QSB_OK);
    qsb_compare_report_free(&rep);
    CHECK_EQ_U64(check_same_as_normalize(&base, &cand, o), 4);
    qsb_results_free(&base);
    qsb_results_free(&cand);
}

/* Not marked: introsort moving with msort (both 6% faster), or a regression by its own times
** (introsort 15% slower on the same machine: REGRESSION by both). */
static void test_unmarked(void)
{
    qsb_results base, together, own;
    build_run(&base, &quiet);
    build_quiet_run(&together, 0.94, 1.0, 3);
    build_quiet_run(&own, 1.0, 1.15, 4);
    qsb_compare_options o = {5.0, 0.01, false, QSB_CORRECTION_HOLM, 0.0};
    qsb_compare_report rep;
    CHECK(qsb_compare_results(&base, &together, &o, &rep) == QSB_OK);
    CHECK(rep.judged_against_baseline);
    CHECK_EQ_U64(rep.against_baseline_regressions, 0);
    qsb_compare_report_free(&rep);
    CHECK_EQ_U64(check_same_as_normalize(&base, &together, o), 0);

    CHECK(qsb_compare_results(&base, &own, &o, &rep) == QSB_OK);
    CHECK_EQ_U64(rep.count[QSB_VERDICT_REGRESSION], 4);
    CHECK_EQ_U64(rep.against_baseline_regressions, 0);
    for (size_t i = 0; i < rep.n; i++)
        CHECK(!item_at(&rep, i).against_baseline.regression);
    qsb_compare_report_free(&rep);
    o.normalize = true;
    CHECK(qsb_compare_results(&base, &own, &o, &rep) == QSB_OK);
    CHECK_EQ_U64(rep.count[QSB_VERDICT_REGRESSION], 4); /* ... by the ratio as well */
    qsb_compare_report_free(&rep);
    qsb_results_free(&base);
    qsb_results_free(&together);
    qsb_results_free(&own);
}

/* The same sorts on a host 20% slower in NEW: every row a regression by its times, msort's own
** among them, counted as the baseline moved; nothing against the baseline; --normalize, which
** judges the ratios, sees neither. */
static void test_baseline_itself_moved(void)
{
    qsb_results base, slower;
    build_run(&base, &quiet);
    build_quiet_run(&slower, 1.2, 1.0, 7);
    qsb_compare_options o = {5.0, 0.01, false, QSB_CORRECTION_HOLM, 0.0};
    qsb_compare_report rep;
    CHECK(qsb_compare_results(&base, &slower, &o, &rep) == QSB_OK);
    CHECK_EQ_U64(rep.count[QSB_VERDICT_REGRESSION], 8);
    CHECK_EQ_U64(rep.baseline_moved, 4);
    CHECK_EQ_U64(rep.against_baseline_regressions, 0);
    qsb_compare_report_free(&rep);
    o.normalize = true;
    CHECK(qsb_compare_results(&base, &slower, &o, &rep) == QSB_OK);
    CHECK_EQ_U64(rep.count[QSB_VERDICT_REGRESSION], 0);
    CHECK_EQ_U64(rep.baseline_moved, 0);
    qsb_compare_report_free(&rep);
    qsb_results_free(&base);
    qsb_results_free(&slower);
}

/* Exact counts, and two files of different baselines (which --normalize refuses): not judged
** against the baseline, and no error. */
static void test_not_judged(void)
{
    qsb_results base, cand;
    build_run(&base, &quiet);
    build_run(&cand, &moved);
    CHECK(qsb_set_string(&cand.baseline, "heapsort") == 0);
    qsb_compare_options o = {5.0, 0.01, false, QSB_CORRECTION_HOLM, 0.0};
    qsb_compare_report rep;
    CHECK(qsb_compare_results(&base, &cand, &o, &rep) == QSB_OK);
    CHECK(!rep.judged_against_baseline);
    CHECK_EQ_U64(rep.against_baseline_regressions, 0);
    qsb_compare_report_free(&rep);

    CHECK(qsb_set_string(&cand.baseline, "msort") == 0);
    CHECK(qsb_set_string(&base.context.metric, "comparisons") == 0);
    CHECK(qsb_set_string(&cand.context.metric, "comparisons") == 0);
    CHECK(qsb_compare_results(&base, &cand, &o, &rep) == QSB_OK);
    CHECK(!rep.judged_against_baseline);
    CHECK_EQ_U64(rep.against_baseline_regressions, 0);
    qsb_compare_report_free(&rep);
    qsb_results_free(&base);
    qsb_results_free(&cand);
}

/* Two runs of the same thing, 40 cells with placement scatter: no mark at the defaults; at the
** most alarm-prone setting (threshold 0, alpha 0.05, no correction) the marks are exactly
** --normalize's regressions that are not the rows' own. */
static void test_aa(void)
{
    qsb_results a, b;
    run_shape shape = {1.0, 1.0, 0.03, 0.03, 40, 6, 3, 5};
    build_run(&a, &shape);
    shape.seed = 6;
    build_run(&b, &shape);
    qsb_compare_options o = {5.0, 0.01, false, QSB_CORRECTION_HOLM, 0.0};
    CHECK_EQ_U64(check_same_as_normalize(&a, &b, o), 0);
    o.correction = QSB_CORRECTION_BH;
    CHECK_EQ_U64(check_same_as_normalize(&a, &b, o), 0);
    qsb_compare_options loose = {0.0, 0.05, false, QSB_CORRECTION_NONE, 0.0};
    size_t marked = check_same_as_normalize(&a, &b, loose);
    CHECK_MSG(marked <= 4, "%zu of 40 rows marked at alpha 0.05 without a correction", marked);
    qsb_results_free(&a);
    qsb_results_free(&b);
}

/* ---- the command on the fixtures ---- */

static char *slurp(const char *name)
{
    char path[256];
    snprintf(path, sizeof path, "%s/%s", tmpdir, name);
    FILE *fp = fopen(path, "rb");
    if (!fp)
        return NULL;
    char *buf = calloc(1, 1 << 20);
    if (buf && fread(buf, 1, (1 << 20) - 1, fp) == 0)
        buf[0] = '\0';
    fclose(fp);
    return buf;
}

/* Runs "qsortbench compare ARGS" in tmpdir; stdout in out.txt, stderr in err.txt. */
static int run_compare(const char *args)
{
    char cmd[1024];
    snprintf(cmd, sizeof cmd, "cd '%s' && '%s' compare %s >out.txt 2>err.txt", tmpdir,
             QSB_BINARY, args);
    int status = system(cmd);
    return WIFEXITED(status) ? WEXITSTATUS(status) : -1;
}

static size_t occurrences(const char *name, const char *text)
{
    char *s = slurp(name);
    size_t n = 0;
    for (const char *p = s; p && (p = strstr(p, text)); p++)
        n++;
    free(s);
    return n;
}

/* The line of out.txt that starts with prefix (a row: pattern, nelem, size, algorithm), or
** NULL; malloc'd. */
static char *line_of(const char *name, const char *pattern, const char *algorithm)
{
    char *s = slurp(name), *found = NULL;
    for (char *line = s ? strtok(s, "\n") : NULL; line && !found; line = strtok(NULL, "\n")) {
        char p[32], a[32];
        unsigned long long nelem, size;
        if (sscanf(line, "%31s %llu %llu %31s", p, &nelem, &size, a) == 4 &&
            strcmp(p, pattern) == 0 && strcmp(a, algorithm) == 0)
            found = strdup(line);
    }
    free(s);
    return found;
}

static const cJSON *get(const cJSON *o, const char *key)
{
    return cJSON_GetObjectItemCaseSensitive(o, key);
}

static void check_json(void)
{
    char *text = slurp("v.json");
    cJSON *root = text ? cJSON_Parse(text) : NULL;
    free(text);
    CHECK(root != NULL);
    if (!root)
        return;
    CHECK(strcmp(cJSON_GetStringValue(get(root, "verdict")), "pass") == 0);
    CHECK(cJSON_IsTrue(get(root, "against_baseline_judged")));
    CHECK(cJSON_IsNumber(get(root, "against_baseline_regressions")) &&
          get(root, "against_baseline_regressions")->valuedouble == 1);
    const cJSON *cells = get(root, "cells");
    CHECK(cJSON_GetArraySize(cells) == 4);
    for (int i = 0; i < cJSON_GetArraySize(cells); i++) {
        const cJSON *cell = cJSON_GetArrayItem(cells, i), *v = get(cell, "against_baseline");
        bool noted = strcmp(cJSON_GetStringValue(get(cell, "pattern")), "random") == 0 &&
                     strcmp(cJSON_GetStringValue(get(cell, "algorithm")), "g") == 0;
        /* the noted row's own interval, [+1.6%, +6.5%], reaches beyond the 5% threshold */
        CHECK(strcmp(cJSON_GetStringValue(get(cell, "verdict")), noted ? "unresolved" : "same") ==
              0);
        if (!noted) {
            CHECK(cJSON_IsNull(v));
            continue;
        }
        CHECK(cJSON_IsObject(v));
        CHECK(strcmp(cJSON_GetStringValue(get(v, "verdict")), "regression") == 0);
        CHECK(cJSON_IsNumber(get(v, "change_pct")) &&
              fabs(get(v, "change_pct")->valuedouble - 10.6) < 0.5);
        CHECK(cJSON_IsNumber(get(v, "change_lo")) && get(v, "change_lo")->valuedouble > 5.0);
        CHECK(cJSON_IsNumber(get(v, "change_hi")) && cJSON_IsNumber(get(v, "p")));
        CHECK(cJSON_IsNumber(get(v, "p_adjusted")) && get(v, "p_adjusted")->valuedouble < 0.01);
        CHECK(get(cell, "change_pct")->valuedouble < 5.0);
    }
    cJSON_Delete(root);
}

static void test_command(void)
{
    const char *pair = "'" FIXTURES "/moved-base.json' '" FIXTURES "/moved-new.json'";
    char args[512];
    snprintf(args, sizeof args, "%s --markdown t.md --json v.json", pair);
    CHECK(run_compare(args) == 0); /* said, not failed */
    char *row = line_of("out.txt", "random", "g");
    CHECK_MSG(row && strstr(row, "  unresolved; against the baseline +10.") &&
                  strstr(row, ": a regression by --normalize (the baseline moved between the "
                              "runs)"),
              "%s", row ? row : "(no row)");
    free(row);
    CHECK(occurrences("out.txt", "against the baseline") == 2); /* the row, the summary */
    CHECK(occurrences("out.txt", "; 1 row is a regression against the baseline only (the "
                                 "baseline moved between the runs: compare --normalize judges "
                                 "by the ratio)\n") == 1);
    CHECK(occurrences("err.txt", "qsortbench: warning: 1 row is not a regression by its own "
                                 "times but is one against the baseline") == 1);
    CHECK(occurrences("err.txt", "qsortbench: warning: 1 row is unresolved: not shown slower "
                                 "beyond 5%, but its 95% interval reaches beyond it") == 1);
    CHECK(occurrences("err.txt", "error") == 0);
    CHECK(occurrences("t.md", "**Passed** (1 row is a regression against the baseline only: "
                              "see the table) (1 row is unresolved: its interval reaches beyond "
                              "5%): metric cycles") == 1);
    CHECK(occurrences("t.md", "| unresolved; **against the baseline +10.") == 1);
    check_json();

    snprintf(args, sizeof args, "%s --normalize", pair);
    CHECK(run_compare(args) == 1); /* the gate that fails on it */
    row = line_of("out.txt", "random", "g");
    CHECK_MSG(row && strstr(row, "  REGRESSION") && !strstr(row, "against the baseline"), "%s",
              row ? row : "(no row)");
    free(row);
    CHECK(occurrences("out.txt", "REGRESSION") == 1);

    /* each run against itself: nothing said */
    CHECK(run_compare("'" FIXTURES "/moved-base.json' '" FIXTURES "/moved-base.json'") == 0);
    CHECK(occurrences("out.txt", "against the baseline") == 0);
    CHECK(occurrences("err.txt", "warning") == 0);
    CHECK(run_compare("'" FIXTURES "/moved-new.json' '" FIXTURES "/moved-new.json' "
                      "--json v.json") == 0);
    CHECK(occurrences("out.txt", "against the baseline") == 0);
    CHECK(occurrences("v.json", "\"against_baseline_regressions\":\t0") == 1);
    CHECK(occurrences("v.json", "\"against_baseline\":\tnull") == 4);
    CHECK(occurrences("v.json", "\"baseline_moved_rows\":\t0") == 1);
}

int main(void)
{
    if (!mkdtemp(tmpdir)) {
        perror("mkdtemp");
        return 1;
    }
    test_moved_baseline();
    test_unmarked();
    test_baseline_itself_moved();
    test_not_judged();
    test_aa();
    test_command();
    char cmd[300];
    snprintf(cmd, sizeof cmd, "rm -rf '%s'", tmpdir);
    CHECK(system(cmd) == 0);
    return check_done();
}
