/*
** Speed modes and the delta over units: stats.c's qsb_unit_modes_of and
** qsb_unit_modes_centers on constructed units (two separated groups, one group, a gap too
** small, too few units, a lopsided split), and pool.c on constructed worker runs: the delta is
** the geometric mean of the runs' ratios with its t interval, and a cell whose baseline ran at
** two speeds reports each state's share, processes, median and delta (states_text.h).
*/
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "pool.h"
#include "result.h"
#include "states_text.h"
#include "stats.h"

#define N_OF(a) (sizeof(a) / sizeof((a)[0]))

static int near(double a, double b, double tolerance)
{
    return fabs(a - b) <= tolerance;
}

#define CHECK_NEAR(a, b, tol) CHECK_MSG(near((a), (b), (tol)), "%s = %.17g, expected %.17g", #a, \
                                        (double)(a), (double)(b))

static uint32_t units_one_each[16] = {0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15};

static void test_two_modes(void)
{
    /* 6 units near 100 (+-1%), 4 near 150: a 47% gap, scatter about 0.7% */
    const double v[] = {100, 150, 99, 101, 151, 100.5, 149, 99.5, 150.5, 100.2};
    qsb_unit_modes m;
    CHECK(qsb_unit_modes_of(v, units_one_each, N_OF(v), &m) == 0);
    CHECK(m.found);
    CHECK_EQ_U64(m.count[0], 6);
    CHECK_EQ_U64(m.count[1], 4);
    CHECK(m.split > 101 && m.split < 149);
    CHECK_NEAR(m.center[0], 100.03, 0.05);
    CHECK_NEAR(m.center[1], 150.12, 0.05);

    /* the candidate's ratio per unit, grouped by these modes: 1.1 where the baseline was
    ** fast, 0.8 where it was slow */
    double ratio[N_OF(v)], center[2];
    for (size_t i = 0; i < N_OF(v); i++)
        ratio[i] = v[i] < 125 ? 1.1 : 0.8;
    CHECK(qsb_unit_modes_centers(&m, v, ratio, units_one_each, N_OF(v), center) == 0);
    CHECK_NEAR(center[0], 1.1, 1e-12);
    CHECK_NEAR(center[1], 0.8, 1e-12);
}

static void test_no_modes(void)
{
    qsb_unit_modes m;
    const double spread[] = {100, 101, 102, 103, 104, 105, 106, 107, 108, 109};
    CHECK(qsb_unit_modes_of(spread, units_one_each, N_OF(spread), &m) == 0);
    CHECK(!m.found); /* even scatter: no gap stands out */

    const double close[] = {100, 100.1, 100.2, 99.9, 103, 103.1, 102.9, 103.05, 100.05, 103.2};
    CHECK(qsb_unit_modes_of(close, units_one_each, N_OF(close), &m) == 0);
    CHECK(!m.found); /* two groups, but 3% apart: under QSB_MODE_MIN_GAP */

    const double few[] = {100, 100, 100, 150, 150, 150, 150};
    CHECK(qsb_unit_modes_of(few, units_one_each, N_OF(few), &m) == 0);
    CHECK(!m.found); /* under QSB_MODES_MIN_UNITS */

    const double lone[] = {100, 100.5, 99.5, 100.2, 99.8, 100.1, 99.9, 100.3, 100.4, 200};
    CHECK(qsb_unit_modes_of(lone, units_one_each, N_OF(lone), &m) == 0);
    CHECK(!m.found); /* one unit apart is an outlier, not a mode (2 units at least) */

    const double wide[] = {100, 110, 90, 105, 95, 150, 165, 135, 158, 142};
    CHECK(qsb_unit_modes_of(wide, units_one_each, N_OF(wide), &m) == 0);
    CHECK(!m.found); /* the gap (90..110 | 135..165) is not 4 within-mode sds wide */
}

/* A worker run of one cell, msort then introsort, one round: the baseline's sort and the
** candidate's. */
static void worker_run(qsb_merge_input *in, double base, double cand)
{
    memset(in, 0, sizeof *in);
    const char *names[] = {"msort", "introsort"};
    in->run.baseline = strdup("msort");
    in->run.context.metric = strdup("cycles");
    in->run.context.precision_pct = 1.0;
    qsb_cell *cell = qsb_results_add_cell(&in->run, "random", 49152, 8, names, 2);
    CHECK(cell != NULL && in->run.baseline && in->run.context.metric);
    if (!cell)
        return;
    CHECK(qsb_row_add_sample(&cell->rows[0], base, 0) == 0);
    CHECK(qsb_row_add_sample(&cell->rows[1], cand, 0) == 0);
}

static void test_pool_delta_over_units(void)
{
    /* ratios 1.00, 1.02, 1.04, ..., 1.18 over 10 processes */
    qsb_merge_input in[10];
    double logs = 0;
    for (size_t r = 0; r < N_OF(in); r++) {
        double ratio = 1.0 + 0.02 * (double)r;
        logs += log(ratio);
        worker_run(&in[r], 1000.0, 1000.0 * ratio);
    }
    qsb_results out;
    CHECK(qsb_pool_runs(in, N_OF(in), &out) == 0);
    const qsb_row *cand = &out.cells[0].rows[1];
    double mean = logs / (double)N_OF(in);
    CHECK_NEAR(cand->delta_pct, expm1(mean) * 100.0, 1e-9);
    qsb_unit_spread s;
    CHECK(qsb_unit_spread_of(cand->samples, cand->units, cand->nsamples, &s) == 0);
    double sd = 0;
    for (size_t r = 0; r < N_OF(in); r++) {
        double d = log(1.0 + 0.02 * (double)r) - mean;
        sd += d * d;
    }
    sd = sqrt(sd / (double)(N_OF(in) - 1));
    double h = qsb_t_quantile(0.975, 9) * sd / sqrt(10.0);
    CHECK_NEAR(cand->delta_lo, expm1(mean - h) * 100.0, 1e-9);
    CHECK_NEAR(cand->delta_hi, expm1(mean + h) * 100.0, 1e-9);
    CHECK(cand->states == NULL); /* even steps: no states */
    qsb_results_free(&out);
}

static void test_pool_modes(void)
{
    /* 6 processes where msort ran at 2.0M (introsort +50%), 4 at 3.0M (introsort equal) */
    qsb_merge_input in[10];
    for (size_t r = 0; r < N_OF(in); r++) {
        bool slow = r % 5 == 1 || r % 5 == 3;
        double jitter = 1.0 + 0.001 * (double)r;
        worker_run(&in[r], (slow ? 3.0e6 : 2.0e6) * jitter, 3.0e6 * jitter);
    }
    qsb_results out;
    CHECK(qsb_pool_runs(in, N_OF(in), &out) == 0);
    const qsb_cell *cell = &out.cells[0];
    qsb_state_estimate st[QSB_STATES_MAX];
    const char *why;
    CHECK(cell->rows[0].states && qsb_states_parse(cell->rows[0].states, st, &why) == 2);
    CHECK_NEAR(st[0].share, 0.6, 1e-12);
    CHECK_EQ_U64(st[0].processes, 6);
    CHECK_EQ_U64(st[1].processes, 4);
    CHECK_NEAR(st[0].median, 2.0e6, 2.0e4);
    CHECK_NEAR(st[1].median, 3.0e6, 3.0e4);
    CHECK(isnan(st[0].delta_pct));
    CHECK(cell->rows[1].states && qsb_states_parse(cell->rows[1].states, st, &why) == 2);
    CHECK_NEAR(st[1].share, 0.4, 1e-12);
    CHECK_NEAR(st[0].delta_pct, 50.0, 0.01);
    CHECK_NEAR(st[1].delta_pct, 0.0, 0.01);
    /* every process of a state at the same ratio: an interval of no width */
    CHECK_NEAR(st[0].delta_lo, 50.0, 0.01);
    CHECK_NEAR(st[1].delta_hi, 0.0, 0.01);
    /* the states' intervals are within the precision (1%), the mixture's is not: precise */
    CHECK(!cell->rows[1].noisy && !cell->rows[0].noisy);
    /* the delta over units: between the modes, weighted by their shares */
    CHECK_NEAR(cell->rows[1].delta_pct, (pow(1.5, 0.6) - 1.0) * 100.0, 0.01);
    qsb_results_free(&out);

    /* the same speeds, the candidate scattering by 10% within each state: noisy */
    for (size_t r = 0; r < N_OF(in); r++) {
        bool slow = r % 5 == 1 || r % 5 == 3;
        double jitter = 1.0 + 0.001 * (double)r;
        worker_run(&in[r], (slow ? 3.0e6 : 2.0e6) * jitter,
                   3.0e6 * jitter * (1.0 + 0.1 * (double)(r % 3)));
    }
    CHECK(qsb_pool_runs(in, N_OF(in), &out) == 0);
    cell = &out.cells[0];
    CHECK(cell->rows[1].states && cell->rows[1].noisy && !cell->rows[0].noisy);
    qsb_results_free(&out);
}

int main(void)
{
    test_two_modes();
    test_no_modes();
    test_pool_delta_over_units();
    test_pool_modes();
    return check_done();
}
