/*
** Slim rows (result.h qsb_slim_row, read_results.h qsb_read_compare_results): a file read slim
** holds what compare reads of every row, and compare reports the same from slim rows as from
** full ones, row for row and figure for figure: on the fixtures, and on runs with states,
** units, a failed row and cells of more algorithms than a view keeps on the stack, written as
** CSV and JSON. (What slim rows save is measured, not tested: docs/results.md.)
*/
#include <math.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "check.h"
#include "compare.h"
#include "diag.h"
#include "pool.h"
#include "read_results.h"
#include "report.h"
#include "slim_check.h"

#define FIXTURES QSB_SOURCE_DIR "/tests/fixtures/"
#define PROCESSES 12
#define ALGORITHMS 10 /* more than a compare view keeps on the stack */

/* ---- the same report from both ---- */

static bool same_view(const qsb_baseline_view *a, const qsb_baseline_view *b)
{
    return a->regression == b->regression && same_double(a->change_pct, b->change_pct) &&
           same_double(a->change_lo, b->change_lo) && same_double(a->change_hi, b->change_hi) &&
           same_double(a->p, b->p) && same_double(a->p_adjusted, b->p_adjusted);
}

static bool same_item(const qsb_comparison *a, const qsb_comparison *b)
{
    return strcmp(a->pattern, b->pattern) == 0 && strcmp(a->algorithm, b->algorithm) == 0 &&
           a->nelem == b->nelem && a->size == b->size &&
           same_double(a->base_value, b->base_value) && same_double(a->new_value, b->new_value) &&
           same_double(a->change_pct, b->change_pct) && same_double(a->change_lo, b->change_lo) &&
           same_double(a->change_hi, b->change_hi) && same_double(a->p, b->p) &&
           same_double(a->p_adjusted, b->p_adjusted) && same_double(a->p_faster, b->p_faster) &&
           same_double(a->p_faster_adjusted, b->p_faster_adjusted) && a->test == b->test &&
           a->base_n == b->base_n && a->new_n == b->new_n && a->base_units == b->base_units &&
           a->new_units == b->new_units && a->threshold_only == b->threshold_only &&
           a->states_matched == b->states_matched && a->states_only_base == b->states_only_base &&
           a->states_only_new == b->states_only_new &&
           same_double(a->state_speed, b->state_speed) && a->verdict == b->verdict &&
           same_view(&a->against_baseline, &b->against_baseline);
}

static const qsb_compare_options option_sets[] = {
    {5.0, 0.01, false, QSB_CORRECTION_HOLM, 0.0},
    {5.0, 0.01, true, QSB_CORRECTION_HOLM, 0.0},
    {1.0, 0.05, false, QSB_CORRECTION_BH, 0.0},
    {5.0, 0.01, false, QSB_CORRECTION_HOLM, 8.0}, /* --run-level */
};

/* BASE against NEW in full and slim, under every option set: the same status, counts and rows.
** Returns how many rows were compared. */
static size_t check_same_reports(const char *what, const qsb_results *fb, const qsb_results *fn,
                                 const qsb_results *sb, const qsb_results *sn)
{
    size_t rows = 0;
    for (size_t k = 0; k < sizeof option_sets / sizeof option_sets[0]; k++) {
        qsb_compare_report full, slim;
        int sf = qsb_compare_results(fb, fn, &option_sets[k], &full);
        int ss = qsb_compare_results(sb, sn, &option_sets[k], &slim);
        CHECK_MSG(sf == ss, "%s, options %zu: status %d, slim %d", what, k, sf, ss);
        if (sf == QSB_OK && ss == QSB_OK) {
            CHECK_MSG(full.n == slim.n && full.tests == slim.tests &&
                          full.against_baseline_regressions == slim.against_baseline_regressions &&
                          memcmp(full.count, slim.count, sizeof full.count) == 0,
                      "%s, options %zu: counts", what, k);
            for (size_t i = 0; i < full.n && i < slim.n; i++) {
                qsb_comparison a, b;
                CHECK(qsb_compare_item(&full, i, &a) == QSB_OK);
                CHECK(qsb_compare_item(&slim, i, &b) == QSB_OK);
                CHECK_MSG(same_item(&a, &b), "%s, options %zu: row %zu (%s %s)", what, k, i,
                          a.pattern, a.algorithm);
                rows++;
            }
        }
        if (sf == QSB_OK)
            qsb_compare_report_free(&full);
        if (ss == QSB_OK)
            qsb_compare_report_free(&slim);
    }
    return rows;
}

/* Two files read both ways: each file's rows the same, and BASE against NEW the same. */
static void check_pair(const char *base_path, const char *new_path)
{
    qsb_results fb, fn, sb, sn;
    int status = qsb_read_results(base_path, &fb);
    CHECK_MSG(status == QSB_OK, "%s: read", base_path);
    CHECK(qsb_read_results(new_path, &fn) == QSB_OK);
    CHECK(qsb_read_compare_results(base_path, &sb) == QSB_OK);
    CHECK(qsb_read_compare_results(new_path, &sn) == QSB_OK);
    check_same_rows(base_path, &fb, &sb);
    check_same_rows(new_path, &fn, &sn);
    size_t rows = check_same_reports(new_path, &fb, &fn, &sb, &sn);
    CHECK_MSG(rows > 0, "%s against %s: no rows compared", new_path, base_path);
    qsb_results_free(&fb);
    qsb_results_free(&fn);
    qsb_results_free(&sb);
    qsb_results_free(&sn);
}

static void test_fixtures(void)
{
    check_pair(FIXTURES "results/small.csv", FIXTURES "results/small.json");
    check_pair(FIXTURES "results/small.json", FIXTURES "results/small.csv");
    check_pair(FIXTURES "compare/moved-base.json", FIXTURES "compare/moved-new.json");
    check_pair(FIXTURES "report/shard1.json", FIXTURES "report/shard2.json"); /* by key */
    check_pair(FIXTURES "report/run.json", FIXTURES "report/merged.json");
    check_pair(FIXTURES "plot/small.json", FIXTURES "plot/small.csv");
}

/* A defect is found in both views alike: the same status. */
static void test_refused_alike(void)
{
    const char *refused[] = {FIXTURES "results/zero-times.csv",
                             FIXTURES "results/repeated-key.json",
                             FIXTURES "results/fleet-same-names.json",
                             FIXTURES "report/fleet.json"};
    for (size_t i = 0; i < sizeof refused / sizeof refused[0]; i++) {
        qsb_results f, s;
        int sf = qsb_read_results(refused[i], &f), ss = qsb_read_compare_results(refused[i], &s);
        CHECK_MSG(sf == QSB_EUSAGE && ss == sf, "%s: status %d, slim %d", refused[i], sf, ss);
        CHECK(s.ncells == 0 && s.cells == NULL);
    }
}

/* ---- runs with states, units, a failed row and wide cells ---- */

/* Worker r's run: in each of two cells ALGORITHMS algorithms, the baseline at one of two
** speeds by process (states), algorithm a at (1 + a/20) * scale of it; algorithm 3 failed in
** the second cell. */
static void worker_run(qsb_results *run, size_t r, double scale)
{
    static const char *names[ALGORITHMS] = {"msort", "a1", "a2", "a3", "a4",
                                            "a5", "a6", "a7", "a8", "a9"};
    run->baseline = strdup("msort");
    run->context.metric = strdup("cycles");
    run->context.precision_pct = 1.0;
    const char *patterns[2] = {"random", "sorted"};
    for (size_t c = 0; c < 2; c++) {
        qsb_cell *cell = qsb_results_add_cell(run, patterns[c], 49152, 8, names, ALGORITHMS);
        CHECK(cell != NULL);
        if (!cell)
            return;
        double speed = (r % 2 ? 3.0e6 : 2.0e6) * (1.0 + 0.002 * (double)r);
        for (size_t a = 0; a < ALGORITHMS; a++) {
            double v = speed * (1.0 + (double)a / 20.0) * (a ? scale : 1.0);
            CHECK(qsb_row_add_sample(&cell->rows[a], v, 0) == 0);
            CHECK(qsb_row_add_sample(&cell->rows[a], v * 1.01, 0) == 0);
            cell->rows[a].comparisons = 700000 + a;
        }
        if (c == 1)
            CHECK(qsb_row_fail(&cell->rows[3], "not sorted at index 12") == 0);
    }
}

static void pooled(qsb_results *out, double scale)
{
    qsb_merge_input in[PROCESSES];
    memset(in, 0, sizeof in);
    for (size_t r = 0; r < PROCESSES; r++)
        worker_run(&in[r].run, r, scale);
    CHECK(qsb_pool_runs(in, PROCESSES, out) == 0);
}

/* r written by writer into path; false when it could not be. */
static bool write_results(const char *path, const qsb_results *r,
                          int (*writer)(FILE *, const qsb_results *))
{
    FILE *fp = fopen(path, "w");
    bool ok = fp && writer(fp, r) == QSB_OK;
    ok = fp && fclose(fp) == 0 && ok;
    CHECK_MSG(ok, "cannot write %s", path);
    return ok;
}

static void test_runs_with_states(const char *dir)
{
    qsb_results base, slower;
    pooled(&base, 1.0);
    pooled(&slower, 1.08);
    bool shows_states = base.ncells == 2 && base.cells[0].rows[0].states != NULL;
    CHECK_MSG(shows_states, "the pooled run shows no states: the test would test less");
    char paths[4][96];
    int (*writers[2])(FILE *, const qsb_results *) = {qsb_report_json, qsb_report_csv};
    for (size_t k = 0; k < 2; k++) {
        snprintf(paths[2 * k], sizeof paths[0], "%s/base.%s", dir, k ? "csv" : "json");
        snprintf(paths[2 * k + 1], sizeof paths[0], "%s/slower.%s", dir, k ? "csv" : "json");
        if (write_results(paths[2 * k], &base, writers[k]) &&
            write_results(paths[2 * k + 1], &slower, writers[k]))
            check_pair(paths[2 * k], paths[2 * k + 1]);
    }
    check_pair(paths[0], paths[3]); /* JSON against CSV */
    for (size_t i = 0; i < 4; i++)
        unlink(paths[i]);
    qsb_results_free(&base);
    qsb_results_free(&slower);
}

/* A file of more rows than the readers' tables start with (they grow while it is read). */
static void test_many_rows(const char *dir)
{
    char path[96];
    snprintf(path, sizeof path, "%s/many.csv", dir);
    FILE *fp = fopen(path, "w");
    CHECK(fp != NULL);
    if (!fp)
        return;
    fprintf(fp, "pattern,nelem,size,algorithm,baseline,metric,reps,min,median,mean,stddev,"
                "delta_pct,comparisons,verified,samples\n");
    for (unsigned c = 0; c < 1500; c++)
        fprintf(fp, "random,%u,4,msort,msort,cycles,2,90,95,95,5,,900,true,90;100\n"
                    "random,%u,4,introsort,msort,cycles,2,80,85,85,5,-10,800,true,80;90\n",
                1000 + c, 1000 + c);
    CHECK(fclose(fp) == 0);
    check_pair(path, path);
    unlink(path);
}

int main(void)
{
    char dir[] = "/tmp/qsb-slim-XXXXXX";
    if (!mkdtemp(dir)) {
        perror("mkdtemp");
        return 1;
    }
    test_fixtures();
    test_refused_alike();
    test_runs_with_states(dir);
    test_many_rows(dir);
    rmdir(dir);
    return check_done();
}
