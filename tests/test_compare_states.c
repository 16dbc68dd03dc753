/*
** compare and the gates by state (compare_states.h): states matched by speed; a regression
** caught within its state; a change of state said in the row and not judged as a regression of
** the mixture; a candidate slower against a baseline that changed state said to be so; run
** --fail-above testing each state; compare --calibration counting agreement per matched
** state. The runs are built from worker runs of one process each, pooled as a run
** pools its workers (pool.h), so their states are the run's own.
*/
#include <math.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "compare.h"
#include "compare_states.h"
#include "diag.h"
#include "pool.h"

#define PROCESSES 12

static void test_matching(void)
{
    qsb_state_pairs m;
    const double a[] = {2.0e6, 3.0e6}, near[] = {2.1e6, 3.05e6}, moved[] = {2.0e6, 5.0e6};
    qsb_match_states(a, 2, near, 2, &m);
    CHECK(m.n == 2 && m.base[0] == 0 && m.cand[0] == 0 && m.base[1] == 1 && m.cand[1] == 1);
    CHECK(m.only_base == 0 && m.only_new == 0);
    qsb_match_states(a, 2, moved, 2, &m);
    CHECK(m.n == 1 && m.base[0] == 0 && m.cand[0] == 0 && m.only_base == 1 && m.only_new == 1);
    const double one[] = {2.5e6}, far[] = {9.0e6};
    qsb_match_states(one, 1, a, 2, &m); /* 3.0M is the nearer, 18% away */
    CHECK(m.n == 1 && m.cand[0] == 1 && m.only_base == 0 && m.only_new == 1);
    qsb_match_states(one, 1, far, 1, &m); /* no states on either side: the rows as before */
    CHECK(m.n == 1 && m.only_base == 0 && m.only_new == 0);
}

/* A run of PROCESSES worker processes of one round each: msort at speed[r], introsort at
** speed[r] * ratio[r]; pooled as a run pools its workers. */
static void pooled_run(qsb_results *out, const double *speed, const double *ratio)
{
    qsb_merge_input in[PROCESSES];
    for (size_t r = 0; r < PROCESSES; r++) {
        memset(&in[r], 0, sizeof in[r]);
        const char *names[] = {"msort", "introsort"};
        in[r].run.baseline = strdup("msort");
        in[r].run.context.metric = strdup("cycles");
        in[r].run.context.precision_pct = 1.0;
        qsb_cell *cell = qsb_results_add_cell(&in[r].run, "random", 49152, 8, names, 2);
        CHECK(cell && in[r].run.baseline && in[r].run.context.metric);
        if (!cell)
            return;
        CHECK(qsb_row_add_sample(&cell->rows[0], speed[r], 0) == 0);
        CHECK(qsb_row_add_sample(&cell->rows[1], speed[r] * ratio[r], 0) == 0);
    }
    CHECK(qsb_pool_runs(in, PROCESSES, out) == 0);
}

/* 6 processes at 2.0M and 6 at 3.0M (a little scatter), or all at 2.0M. */
static void speeds(double *speed, bool two_states, double scale)
{
    for (size_t r = 0; r < PROCESSES; r++)
        speed[r] = (two_states && r % 2 ? 3.0e6 : 2.0e6) * scale * (1.0 + 0.002 * (double)(r % 5));
}

static const qsb_comparison *find(const qsb_compare_report *rep, const char *algorithm,
                                  qsb_comparison *it)
{
    for (size_t i = 0; i < rep->n; i++)
        if (qsb_compare_item(rep, i, it) == QSB_OK && strcmp(it->algorithm, algorithm) == 0)
            return it;
    return NULL;
}

/* The pooled run tests whether introsort's delta differs between msort's states: 20% faster
** in one and 20% slower in the other differs; the same ratio in both does not; the baseline's
** own row is not tested. */
static void test_delta_by_state_tested(void)
{
    double speed[PROCESSES], apart[PROCESSES], alike[PROCESSES];
    speeds(speed, true, 1.0);
    for (size_t r = 0; r < PROCESSES; r++) {
        apart[r] = (r % 2 ? 0.8 : 1.2) * (1.0 + 0.003 * (double)(r % 3));
        alike[r] = 1.1 * (1.0 + 0.003 * (double)(r % 3));
    }
    qsb_results a, b;
    pooled_run(&a, speed, apart);
    pooled_run(&b, speed, alike);
    CHECK(a.ncells == 1 && b.ncells == 1);
    if (a.ncells == 1 && b.ncells == 1) {
        CHECK(a.cells[0].rows[0].states && b.cells[0].rows[1].states);
        CHECK_EQ_U64(a.cells[0].rows[0].states_delta, QSB_STATES_DELTA_UNTESTED);
        CHECK_EQ_U64(a.cells[0].rows[1].states_delta, QSB_STATES_DELTA_DIFFERS);
        CHECK_EQ_U64(b.cells[0].rows[1].states_delta, QSB_STATES_DELTA_ONE);
    }
    qsb_results_free(&a);
    qsb_results_free(&b);
}

/* introsort 10% slower in NEW within both of msort's states: a REGRESSION, judged by state. */
static void test_regression_within_state(void)
{
    double speed[PROCESSES], ratio[PROCESSES], slower[PROCESSES];
    speeds(speed, true, 1.0);
    for (size_t r = 0; r < PROCESSES; r++) {
        ratio[r] = (r % 2 ? 0.8 : 1.2) * (1.0 + 0.003 * (double)(r % 3));
        slower[r] = ratio[r] * 1.10;
    }
    qsb_results base, cand;
    pooled_run(&base, speed, ratio);
    pooled_run(&cand, speed, slower);
    CHECK(base.ncells == 1 && base.cells[0].rows[0].states && base.cells[0].rows[1].states);
    qsb_compare_options opt = {5.0, 0.01, false, QSB_CORRECTION_HOLM, 0.0};
    qsb_compare_report rep;
    CHECK(qsb_compare_results(&base, &cand, &opt, &rep) == QSB_OK);
    qsb_comparison it;
    const qsb_comparison *x = find(&rep, "introsort", &it);
    CHECK(x && x->verdict == QSB_VERDICT_REGRESSION);
    CHECK(x && x->states_matched == 2 && x->states_only_base == 0 && x->states_only_new == 0);
    CHECK(x && fabs(x->change_pct - 10.0) < 0.5);
    CHECK(x && (fabs(x->state_speed - 2.0e6) < 1e5 || fabs(x->state_speed - 3.0e6) < 1e5));
    const qsb_comparison *m = find(&rep, "msort", &it);
    CHECK(m && m->verdict == QSB_VERDICT_SAME && m->states_matched == 2);
    qsb_compare_report_free(&rep);
    qsb_results_free(&base);
    qsb_results_free(&cand);
}

/* msort at one speed in BASE and half of NEW's processes in a slower state: the mixture's
** median moves 50%, yet the matched state did not change; the slow state is said, not judged. */
static void test_change_of_state(void)
{
    double one[PROCESSES], two[PROCESSES], ratio[PROCESSES];
    speeds(one, false, 1.0);
    speeds(two, true, 1.0);
    for (size_t r = 0; r < PROCESSES; r++)
        two[r] = r % 2 ? two[r] : one[r];
    for (size_t r = 0; r < PROCESSES; r++) /* NEW: 7 of 12 slow, so the median is slow */
        two[r] = r % 2 || r == 0 ? 3.0e6 * (1.0 + 0.002 * (double)(r % 5)) : one[r];
    for (size_t r = 0; r < PROCESSES; r++)
        ratio[r] = 1.5 * (1.0 + 0.003 * (double)(r % 3));
    qsb_results base, cand;
    pooled_run(&base, one, ratio);
    pooled_run(&cand, two, ratio);
    CHECK(base.cells[0].rows[0].states == NULL && cand.cells[0].rows[0].states != NULL);
    qsb_compare_options opt = {5.0, 0.01, false, QSB_CORRECTION_HOLM, 0.0};
    qsb_compare_report rep;
    CHECK(qsb_compare_results(&base, &cand, &opt, &rep) == QSB_OK);
    qsb_comparison it;
    const qsb_comparison *m = find(&rep, "msort", &it);
    CHECK(m && m->verdict != QSB_VERDICT_REGRESSION);
    CHECK(m && m->states_matched == 1 && m->states_only_new == 1 && m->states_only_base == 0);
    CHECK(m && fabs(m->change_pct) < 1.0); /* the fast state against BASE's one speed */
    for (size_t i = 0; i < rep.n; i++)
        if (qsb_compare_item(&rep, i, &it) == QSB_OK)
            CHECK_MSG(it.verdict != QSB_VERDICT_REGRESSION, "%s: %s, change %g", it.algorithm,
                      qsb_verdict_name(it.verdict), it.change_pct);
    CHECK(qsb_compare_status(&rep, QSB_COMPARE_LENIENT) == QSB_OK);
    qsb_compare_report_free(&rep);
    qsb_results_free(&base);
    qsb_results_free(&cand);
}

/* The gate case: BASE's processes in two states, NEW's all in the fast one and 6% faster
** still, introsort 10% slower against msort. By its own times introsort is +3.4% within the
** matched state (the slow state only in BASE): not a regression, but said to be one against
** the baseline, as --normalize, judging the ratio by state, calls it. */
static void test_baseline_moved_with_state(void)
{
    double two[PROCESSES], fast[PROCESSES], ratio[PROCESSES], slower[PROCESSES];
    speeds(two, true, 1.0);
    speeds(fast, false, 0.94);
    for (size_t r = 0; r < PROCESSES; r++) {
        ratio[r] = 1.0 + 0.003 * (double)(r % 3);
        slower[r] = 1.10 * (1.0 + 0.003 * (double)((r + 1) % 3));
    }
    qsb_results base, cand;
    pooled_run(&base, two, ratio);
    pooled_run(&cand, fast, slower);
    CHECK(base.cells[0].rows[0].states != NULL && cand.cells[0].rows[0].states == NULL);
    qsb_compare_options opt = {5.0, 0.01, false, QSB_CORRECTION_HOLM, 0.0};
    qsb_compare_report rep;
    CHECK(qsb_compare_results(&base, &cand, &opt, &rep) == QSB_OK);
    qsb_comparison it;
    const qsb_comparison *x = find(&rep, "introsort", &it);
    CHECK(x && x->verdict != QSB_VERDICT_REGRESSION);
    CHECK(x && x->states_matched == 1 && x->states_only_base == 1);
    CHECK_MSG(x && fabs(x->change_pct - 3.4) < 1.0, "own change %+.2f%%",
              x ? x->change_pct : NAN);
    CHECK(x && x->against_baseline.regression);
    CHECK_MSG(x && fabs(x->against_baseline.change_pct - 10.0) < 1.0, "ratio %+.2f%%",
              x ? x->against_baseline.change_pct : NAN);
    CHECK(x && x->against_baseline.p_adjusted < 0.01);
    const qsb_comparison *m = find(&rep, "msort", &it);
    CHECK(m && !m->against_baseline.regression);
    CHECK_EQ_U64(rep.against_baseline_regressions, 1);
    CHECK(qsb_compare_status(&rep, QSB_COMPARE_LENIENT) == QSB_OK);
    qsb_compare_report_free(&rep);
    opt.normalize = true;
    CHECK(qsb_compare_results(&base, &cand, &opt, &rep) == QSB_OK);
    x = find(&rep, "introsort", &it);
    CHECK(x && x->verdict == QSB_VERDICT_REGRESSION);
    qsb_compare_report_free(&rep);
    qsb_results_free(&base);
    qsb_results_free(&cand);
}

/* --fail-above 5: introsort +9% in msort's slow state, equal in the fast one (the mixture
** about +4.6%): the slow state fails the gate, which a test of the mixture would pass; at 15
** nothing fails. */
static void test_gate_by_state(void)
{
    double speed[PROCESSES], ratio[PROCESSES];
    speeds(speed, true, 1.0);
    for (size_t r = 0; r < PROCESSES; r++)
        ratio[r] = (r % 2 ? 1.09 : 1.0) * (1.0 + 0.002 * (double)(r % 3));
    qsb_results run;
    pooled_run(&run, speed, ratio);
    CHECK(run.cells[0].rows[1].states != NULL && run.cells[0].rows[1].delta_pct < 5.0);
    CHECK(qsb_gate_fail_above(&run, 5.0, 0.01, QSB_CORRECTION_HOLM, NULL) == QSB_FINDING);
    CHECK(qsb_gate_fail_above(&run, 15.0, 0.01, QSB_CORRECTION_HOLM, NULL) == QSB_OK);
    qsb_results_free(&run);
}

/* Two runs with the same states: each matched state's delta agrees within their intervals,
** one state of a third run lies elsewhere and is counted apart. */
static void test_calibration_by_state(void)
{
    double speed[PROCESSES], ratio[PROCESSES], other[PROCESSES];
    speeds(speed, true, 1.0);
    for (size_t r = 0; r < PROCESSES; r++) {
        ratio[r] = (r % 2 ? 0.8 : 1.2) * (1.0 + 0.01 * (double)(r % 3));
        other[r] = (r % 2 ? 0.8 : 1.2) * (1.0 + 0.01 * (double)((r + 1) % 3));
    }
    qsb_results a, b;
    pooled_run(&a, speed, ratio);
    pooled_run(&b, speed, other);
    qsb_calibration c;
    CHECK(qsb_calibrate(&a, &b, 0.0, &c) == QSB_OK);
    CHECK_EQ_U64(c.n, 1);
    CHECK_EQ_U64(c.state_pairs, 2);
    CHECK_EQ_U64(c.state_with_interval, 2);
    CHECK_EQ_U64(c.state_agree, 2);
    CHECK_EQ_U64(c.state_only, 0);
    qsb_calibration_free(&c);
    qsb_results_free(&b);
    double moved[PROCESSES];
    for (size_t r = 0; r < PROCESSES; r++)
        moved[r] = r % 2 ? speed[r] * 2.0 : speed[r]; /* the slow state at 6.0M */
    pooled_run(&b, moved, ratio);
    CHECK(qsb_calibrate(&a, &b, 0.0, &c) == QSB_OK);
    CHECK_EQ_U64(c.state_pairs, 1);
    CHECK_EQ_U64(c.state_only, 2);
    qsb_calibration_free(&c);
    qsb_results_free(&a);
    qsb_results_free(&b);
}

int main(void)
{
    test_matching();
    test_delta_by_state_tested();
    test_regression_within_state();
    test_change_of_state();
    test_baseline_moved_with_state();
    test_gate_by_state();
    test_calibration_by_state();
    return check_done();
}
