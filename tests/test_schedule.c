/*
** src/bench/schedule.c without a clock: which cells each sweep visits (the minimum of units first,
** then the widest intervals within the seconds left), --reps spread over units, when a cell is
** visited again, the minimum a run needs; and the batch and slowed rules of a sample.
*/
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "check.h"
#include "schedule.h"
#include "stats.h"

static const qsb_schedule_policy budget = {5, 64, 1.0, 100.0};

/* Cells under the minimum are visited in matrix order while the seconds left hold them; a
** cell without a unit always (its first unit is what one unit of every cell means); with no
** budget (--reps), all of them. */
static void test_minimum_first(void)
{
    qsb_cell_state cells[5] = {{5, 9.0, 1.0}, {2, INFINITY, 50.0}, {4, INFINITY, 80.0},
                               {5, 0.5, 1.0}, {0, INFINITY, 0.0}};
    size_t order[5];
    CHECK_EQ_U64(qsb_schedule_sweep(&budget, cells, 5, 200.0, order), 3);
    CHECK_EQ_U64(order[0], 1);
    CHECK_EQ_U64(order[1], 2);
    CHECK_EQ_U64(order[2], 4);
    /* 100 s left: 50 s for the first, then 80 s do not fit in the 50 s left. */
    CHECK_EQ_U64(qsb_schedule_sweep(&budget, cells, 5, 100.0, order), 2);
    CHECK_EQ_U64(order[0], 1);
    CHECK_EQ_U64(order[1], 4);
    /* Nothing left: only the cell without a unit. */
    CHECK_EQ_U64(qsb_schedule_sweep(&budget, cells, 5, 0.0, order), 1);
    CHECK_EQ_U64(order[0], 4);
    const qsb_schedule_policy reps = {5, 64, 1.0, 0.0};
    CHECK_EQ_U64(qsb_schedule_sweep(&reps, cells, 5, 0.0, order), 3);
}

/* Then the widest intervals first, as many as fit into the seconds left; a cell too costly
** leaves room for a cheaper one; cells within the precision, or at max_units, never. */
static void test_widest_within_budget(void)
{
    qsb_cell_state cells[5] = {{5, 2.0, 3.0}, {5, 8.0, 4.0}, {6, 0.9, 0.1}, {7, 4.0, 2.0},
                               {64, 50.0, 0.1}};
    size_t order[5];
    CHECK_EQ_U64(qsb_schedule_sweep(&budget, cells, 5, 100.0, order), 3);
    CHECK_EQ_U64(order[0], 1); /* 8% */
    CHECK_EQ_U64(order[1], 3); /* 4% */
    CHECK_EQ_U64(order[2], 0); /* 2% */
    /* 5 s left: the widest (4 s) fits, then 1 s is left: neither other one does. */
    CHECK_EQ_U64(qsb_schedule_sweep(&budget, cells, 5, 5.0, order), 1);
    CHECK_EQ_U64(order[0], 1);
    /* 3.5 s left: the widest does not fit; the next two do (2 s, then not 3 s). */
    CHECK_EQ_U64(qsb_schedule_sweep(&budget, cells, 5, 3.5, order), 1);
    CHECK_EQ_U64(order[0], 3);
    /* Nothing left: the run ends. */
    CHECK_EQ_U64(qsb_schedule_sweep(&budget, cells, 5, 0.0, order), 0);
    /* Every cell precise: the run ends early. */
    qsb_cell_state precise[2] = {{5, 0.3, 1.0}, {9, 1.0, 1.0}};
    CHECK_EQ_U64(qsb_schedule_sweep(&budget, precise, 2, 100.0, order), 0);
}

/* --reps: no budget, so nothing after the minimum; N rounds spread over min(N, 5) units. */
static void test_reps(void)
{
    qsb_schedule_policy reps = {5, 64, 1.0, 0.0};
    qsb_cell_state cells[2] = {{5, 30.0, 1.0}, {5, INFINITY, 1.0}};
    size_t order[2];
    CHECK_EQ_U64(qsb_schedule_sweep(&reps, cells, 2, 1000.0, order), 0);
    size_t total = 0;
    for (size_t u = 0; u < 6; u++)
        total += qsb_reps_rounds_of_unit(12, 5, u);
    CHECK_EQ_U64(total, 12);
    CHECK_EQ_U64(qsb_reps_rounds_of_unit(12, 5, 0), 3);
    CHECK_EQ_U64(qsb_reps_rounds_of_unit(12, 5, 2), 2);
    CHECK_EQ_U64(qsb_reps_rounds_of_unit(12, 5, 5), 0);
    CHECK_EQ_U64(qsb_reps_rounds_of_unit(3, 5, 2), 1); /* 3 rounds: 3 units of one */
    CHECK_EQ_U64(qsb_reps_rounds_of_unit(3, 5, 3), 0);
}

/* A cell is visited again under a budget or a minimum above one unit; a worker process (one
** unit, no budget) visits each cell once. */
static void test_revisits(void)
{
    qsb_schedule_policy worker = {1, 64, 1.0, 0.0}, reps = {5, 64, 1.0, 0.0},
                        one_unit_budget = {1, 64, 1.0, 10.0};
    CHECK(!qsb_schedule_revisits(&worker));
    CHECK(qsb_schedule_revisits(&reps));
    CHECK(qsb_schedule_revisits(&one_unit_budget));
    CHECK(qsb_schedule_revisits(&budget));
    qsb_cell_state cells[1] = {{1, INFINITY, 1.0}};
    size_t order[1];
    CHECK_EQ_U64(qsb_schedule_sweep(&worker, cells, 1, 1000.0, order), 0);
}

static void test_minimum_seconds(void)
{
    double round_s[2] = {0.01, 2.0}, first_s[2] = {0.5, 3.0};
    /* 0.5 + 5 * 0.1 + 3 + 5 * 2 */
    CHECK(fabs(qsb_schedule_minimum_s(round_s, first_s, 2, 5, 0.1) - 14.0) < 1e-9);
}

/* The interval over units (stats.h) that the schedule reads: t over the units' medians. */
static void test_unit_interval(void)
{
    /* Three units of four samples; unit medians 1.0, 1.1, 1.21. */
    const double x[] = {1.0, 0.9, 1.1, 1.0, 1.1, 1.1, 1.0, 1.2, 1.21, 1.3, 1.21, 1.1};
    const uint32_t u[] = {0, 0, 0, 0, 1, 1, 1, 1, 2, 2, 2, 2};
    qsb_unit_spread s;
    CHECK(qsb_unit_spread_of(x, u, 12, &s) == 0);
    CHECK_EQ_U64(s.units, 3);
    CHECK(fabs(s.log_mean - log(1.1)) < 1e-12);
    CHECK(fabs(s.log_sd - log(1.1)) < 1e-12);
    CHECK(isnan(qsb_unit_half_width(&s))); /* under QSB_MIN_UNITS: no interval */
    CHECK(isinf(qsb_unit_precision_pct(&s)));
    /* Five units, medians e^-0.02, e^-0.01, 1, e^0.01, e^0.02: sd 0.0158114. */
    const double y[] = {exp(-0.02), exp(-0.01), 1.0, exp(0.01), exp(0.02)};
    const uint32_t v[] = {0, 1, 2, 3, 4};
    CHECK(qsb_unit_spread_of(y, v, 5, &s) == 0);
    double h = qsb_unit_half_width(&s);
    /* t(0.975, 4) = 2.7764451051977934 */
    CHECK(fabs(h - 2.7764451051977934 * sqrt(0.00025) / sqrt(5.0)) < 1e-9);
    /* The same spread from paired ratios: cand = base * y. */
    const double base5[] = {100, 200, 300, 400, 500};
    double cand5[5];
    for (size_t i = 0; i < 5; i++)
        cand5[i] = base5[i] * y[i];
    qsb_unit_spread r;
    CHECK(qsb_paired_ratio_spread(base5, cand5, v, 5, &r) == 0 && r.units == 5);
    CHECK(fabs(r.log_sd - s.log_sd) < 1e-12 && fabs(r.log_mean) < 1e-12);
    /* The reported interval: a cluster bootstrap of the pooled median. */
    double lo2, hi2;
    CHECK(qsb_unit_median_interval(x, u, 12, &lo2, &hi2) == 0);
    CHECK(isnan(lo2) && isnan(hi2)); /* 3 units: none */
    const double same[] = {2.0, 2.0, 2.0, 2.0, 2.0, 2.0};
    const uint32_t six[] = {0, 1, 2, 3, 4, 5};
    CHECK(qsb_unit_median_interval(same, six, 6, &lo2, &hi2) == 0 && lo2 == 2.0 && hi2 == 2.0);
    /* Bimodal units (half fast, half slow): the pooled median can land on either mode, and
    ** the interval says so by spanning both. */
    double bimodal[40];
    uint32_t units[40];
    for (size_t i = 0; i < 40; i++) {
        units[i] = (uint32_t)(i / 4);
        bimodal[i] = units[i] % 2 ? 2.0 + 0.01 * (double)(i % 4) : 1.0 + 0.01 * (double)(i % 4);
    }
    CHECK(qsb_unit_median_interval(bimodal, units, 40, &lo2, &hi2) == 0);
    CHECK_MSG(lo2 < 1.1 && hi2 > 1.9, "bimodal interval [%g, %g]", lo2, hi2);
    /* One mode with a little scatter between units: narrow, around it, inside the units'
    ** range. */
    for (size_t i = 0; i < 40; i++)
        bimodal[i] = 1.0 + 0.001 * (double)(units[i] % 5) + 0.0001 * (double)(i % 4);
    CHECK(qsb_unit_median_interval(bimodal, units, 40, &lo2, &hi2) == 0);
    CHECK_MSG(lo2 >= 1.0 && hi2 <= 1.0044 && lo2 <= 1.002 && hi2 >= 1.002, "[%g, %g]", lo2,
              hi2);
    /* Deterministic: the same samples give the same interval. */
    double lo3, hi3;
    CHECK(qsb_unit_median_interval(bimodal, units, 40, &lo3, &hi3) == 0 && lo3 == lo2 &&
          hi3 == hi2);
    /* No units: nothing. */
    CHECK(qsb_unit_spread_of(y, NULL, 5, &s) == 0 && s.units == 0);
}

static void test_batching(void)
{
    /* 1 ns resolution: a sample must last 1000 ns. */
    CHECK_EQ_U64(qsb_batch_count(1.0, 2000.0, 0.0), 1);
    CHECK_EQ_U64(qsb_batch_count(1.0, 1000.0, 0.0), 1);
    CHECK_EQ_U64(qsb_batch_count(1.0, 3.0, 0.0), 334); /* ceil(1000 / 3) */
    CHECK_EQ_U64(qsb_batch_count(1.0, 250.0, 0.0), 4);
    /* A minimum sample time above that wins: 1 ms of 30 us sorts is 34 sorts. */
    CHECK_EQ_U64(qsb_batch_count(1.0, 30000.0, 1e6), 34);
    /* In TSC cycles: 1 cycle resolution, 700-cycle sorts. */
    CHECK_EQ_U64(qsb_batch_count(1.0, 700.0, 0.0), 2);
    /* The clock did not tick: assume one resolution step, a lower bound. */
    CHECK_EQ_U64(qsb_batch_count(20.0, 0.0, 0.0), 1000);
    /* Capped, and never 0. */
    CHECK_EQ_U64(qsb_batch_count(1.0, 1e-9, 0.0), QSB_BATCH_MAX);
    CHECK_EQ_U64(qsb_batch_count(0.0, 0.0, 0.0), 1);
}

/* A sample is slowed when it exceeds the row's fastest by more than pct %, from the row's
** third sample on (two give the reference), and never with pct 0. */
static void test_slowed_rule(void)
{
    CHECK(!qsb_sample_slowed(INFINITY, 0, 5000, 10));
    CHECK(!qsb_sample_slowed(1000, 1, 5000, 10)); /* one sample: no reference yet */
    CHECK(qsb_sample_slowed(1000, 2, 1101, 10));
    CHECK(!qsb_sample_slowed(1000, 2, 1100, 10)); /* exactly 10% above is not over it */
    CHECK(!qsb_sample_slowed(1000, 3, 1099, 10));
    CHECK(qsb_sample_slowed(1000, 3, 1300, 25));
    CHECK(!qsb_sample_slowed(1000, 3, 1250, 25));
    CHECK(!qsb_sample_slowed(1000, 3, 1e9, 0)); /* --slowed 0: never */
}

int main(void)
{
    test_minimum_first();
    test_widest_within_budget();
    test_reps();
    test_revisits();
    test_minimum_seconds();
    test_unit_interval();
    test_batching();
    test_slowed_rule();
    return check_done();
}
