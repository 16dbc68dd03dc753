/*
** src/adaptive.c with deterministic synthetic samplers and a fake clock (each round "takes"
** a fixed time): constant samples stop at the minimum; scattered ones go on until the round
** limit or the time budget and are flagged noisy; one early outlier is shed once the 95%
** interval of the median can exclude it; precise medians with an imprecise paired ratio go
** on; nothing but constant samples stops before 6 rounds; the batching arithmetic; and the
** slowed-sample rule.
*/
#include <math.h>
#include <stdint.h>

#include "adaptive.h"
#include "check.h"

#define MAX_ROUNDS 1000
#define NALGOS 2

typedef double (*sampler)(size_t algo, size_t round);

static double constant_sampler(size_t algo, size_t round)
{
    (void)round;
    return algo ? 2000.0 : 1000.0;
}

/* A fixed LCG: values spread over +-20% around 1000, the same on every run. */
static double scattered_sampler(size_t algo, size_t round)
{
    uint64_t x = (uint64_t)(round * NALGOS + algo + 1) * 6364136223846793005u + 1442695040888963407u;
    double unit = (double)(x >> 11) / 9007199254740992.0; /* [0, 1) */
    return 1000.0 * (0.8 + 0.4 * unit);
}

/* Quiet (+-0.1%) except the second round, which is 30% slow. */
static double one_outlier_sampler(size_t algo, size_t round)
{
    if (round == 1)
        return 1300.0;
    return 1000.0 + (double)((round * 7 + algo * 3) % 3) - 1.0;
}

/* Algorithm 0 is constant, algorithm 1 scattered: a cell waits for its noisiest row. */
static double mixed_sampler(size_t algo, size_t round)
{
    return algo ? scattered_sampler(algo, round) : 500.0;
}

/* Each algorithm is exactly 1000 in three rounds of five, 2000 and 500 in the other two,
** and the two are 1000 together only in one round of five: the medians settle at 1000 within
** some 15 rounds, while the paired ratios are 2, 0.5, 1, 0.5, 2 (one fifth at the median). */
static double crossed_sampler(size_t algo, size_t round)
{
    static const double base[5] = {1000, 1000, 1000, 2000, 500};
    static const double cand[5] = {2000, 500, 1000, 1000, 1000};
    return algo ? cand[round % 5] : base[round % 5];
}

/* Within 0.3% of 1000, never equal. */
static double close_sampler(size_t algo, size_t round)
{
    return 1000.0 + (double)((round + algo) % 4);
}

typedef struct {
    size_t rounds;
    qsb_adaptive_decision decision;
} cell_outcome;

/* Runs a cell: one round per step, `round_s` fake seconds each, until the policy stops it;
** algorithm 0 is the baseline of the paired ratio when `paired`. */
static cell_outcome run_cell_paired(const qsb_adaptive_policy *policy, sampler sample,
                                    double round_s, bool paired)
{
    static double samples[NALGOS][MAX_ROUNDS];
    const double *rows[NALGOS] = {samples[0], samples[1]};
    cell_outcome out = {0, {false, false}};
    while (out.rounds < MAX_ROUNDS) {
        for (size_t a = 0; a < NALGOS; a++)
            samples[a][out.rounds] = sample(a, out.rounds);
        out.rounds++;
        double elapsed = round_s * (double)out.rounds;
        CHECK(qsb_adaptive_decide(policy, rows, NALGOS, paired, out.rounds, elapsed,
                                  &out.decision) == 0);
        if (out.decision.stop)
            break;
    }
    return out;
}

static cell_outcome run_cell(const qsb_adaptive_policy *policy, sampler sample, double round_s)
{
    return run_cell_paired(policy, sample, round_s, true);
}

static void test_defaults(void)
{
    qsb_adaptive_policy p = qsb_adaptive_default_policy();
    CHECK(p.precision_pct == 1.0);
    CHECK_EQ_U64(p.min_reps, 3);
    CHECK(p.max_reps >= p.min_reps);
    CHECK(p.max_time_s > 0.0);
}

static void test_constant_stops_at_min(void)
{
    qsb_adaptive_policy p = qsb_adaptive_default_policy();
    cell_outcome c = run_cell(&p, constant_sampler, 0.01);
    CHECK_EQ_U64(c.rounds, 3);
    CHECK(c.decision.stop && !c.decision.noisy);

    p.min_reps = 7;
    c = run_cell(&p, constant_sampler, 0.01);
    CHECK_EQ_U64(c.rounds, 7);
    CHECK(!c.decision.noisy);
}

static void test_scattered_runs_out_of_budget(void)
{
    /* 0.125 s per round, 2 s budget: after 15 rounds 1.875 + 0.125 still fits, after 16 the
    ** next round would overrun. Never within 1% (+-20% spread, at most 16 samples). */
    qsb_adaptive_policy p = {1.0, 3, 0, 2.0};
    cell_outcome c = run_cell(&p, scattered_sampler, 0.125);
    CHECK_EQ_U64(c.rounds, 16);
    CHECK(c.decision.stop && c.decision.noisy);

    /* The round limit ends it first when it is lower. */
    p.max_reps = 10;
    c = run_cell(&p, scattered_sampler, 0.125);
    CHECK_EQ_U64(c.rounds, 10);
    CHECK(c.decision.noisy);

    /* No budget at all: the round limit alone. */
    p.max_time_s = 0.0;
    p.max_reps = 40;
    c = run_cell(&p, scattered_sampler, 10.0);
    CHECK_EQ_U64(c.rounds, 40);
    CHECK(c.decision.noisy);

    /* The minimum is run even when one round is already over the budget. */
    qsb_adaptive_policy slow = {1.0, 3, 0, 1.0};
    c = run_cell(&slow, scattered_sampler, 5.0);
    CHECK_EQ_U64(c.rounds, 3);
    CHECK(c.decision.noisy);

    /* A looser target is reached: +-20% spread, 10% precision, long before the budget. */
    qsb_adaptive_policy loose = {10.0, 3, 0, 1000.0};
    c = run_cell(&loose, scattered_sampler, 0.01);
    CHECK(c.decision.stop && !c.decision.noisy);
    CHECK(c.rounds < MAX_ROUNDS);
}

static void test_outlier_is_shed(void)
{
    /* Below 6 samples there is no interval; from 6 to 8 it is [x(1), x(n)] and holds the
    ** 1300; at 9 it is [x(2), x(8)] (binomial rank 2), within 0.1%. */
    qsb_adaptive_policy p = {1.0, 3, 0, 100.0};
    cell_outcome c = run_cell(&p, one_outlier_sampler, 0.01);
    CHECK_EQ_U64(c.rounds, 9);
    CHECK(!c.decision.noisy);
}

static void test_paired_ratio_decides(void)
{
    qsb_adaptive_policy p = {1.0, 3, 60, 0.0};
    cell_outcome c = run_cell(&p, crossed_sampler, 0.01);
    CHECK_EQ_U64(c.rounds, 60);
    CHECK(c.decision.noisy);
    /* Without a baseline (it failed), the medians alone decide, well before the limit. */
    c = run_cell_paired(&p, crossed_sampler, 0.01, false);
    CHECK(c.rounds <= 20);
    CHECK(c.decision.stop && !c.decision.noisy);

    double pct = qsb_ratio_precision_pct((const double[]){1000, 1000, 1000},
                                         (const double[]){1500, 1500, 1500}, 3);
    CHECK(pct == 0.0); /* identical ratios are known exactly, even below 6 pairs */
    pct = qsb_ratio_precision_pct((const double[]){1000, 1000, 1000},
                                  (const double[]){1500, 1501, 1500}, 3);
    CHECK(isinf(pct));
    /* 10 pairs, ratios 1.00 .. 1.09: interval ranks 2 and 9 (1.01, 1.08), median 1.045. */
    double base[10], cand[10];
    for (int i = 0; i < 10; i++) {
        base[i] = 100.0;
        cand[i] = 100.0 + i;
    }
    pct = qsb_ratio_precision_pct(base, cand, 10);
    CHECK(fabs(pct - 3.5 / 1.045) < 1e-9);
    CHECK(isinf(qsb_ratio_precision_pct(base, cand, 0)));
}

static void test_no_stop_below_six_rounds(void)
{
    /* Three samples within 0.3% are no 95% interval: the cell goes on to the 6th round,
    ** where the interval [x(1), x(6)] is within 0.3%. */
    qsb_adaptive_policy p = qsb_adaptive_default_policy();
    cell_outcome c = run_cell(&p, close_sampler, 0.01);
    CHECK_EQ_U64(c.rounds, 6);
    CHECK(!c.decision.noisy);
}

static void test_noisiest_row_decides(void)
{
    qsb_adaptive_policy p = {1.0, 3, 30, 0.0};
    cell_outcome c = run_cell(&p, mixed_sampler, 0.01);
    CHECK_EQ_U64(c.rounds, 30);
    CHECK(c.decision.noisy);
}

static void test_fixed_reps(void)
{
    /* --reps 5 is min = max = 5: constant or not, exactly 5 rounds. */
    qsb_adaptive_policy p = {1.0, 5, 5, 0.0};
    cell_outcome c = run_cell(&p, constant_sampler, 1.0);
    CHECK_EQ_U64(c.rounds, 5);
    CHECK(!c.decision.noisy);
    c = run_cell(&p, scattered_sampler, 1.0);
    CHECK_EQ_U64(c.rounds, 5);
    CHECK(c.decision.noisy);
}

static void test_precision_measure(void)
{
    double pct;
    const double flat[] = {5, 5, 5};
    CHECK(qsb_median_precision_pct(flat, 3, &pct) == 0 && pct == 0.0);
    const double three[] = {1000, 1005, 995}; /* no interval below 6 samples: unknown */
    CHECK(qsb_median_precision_pct(three, 3, &pct) == 0 && isinf(pct));
    /* n = 10: interval ranks 2 and 9 -> 991 and 1008: (1008 - 991) / 2 / 1000.5. */
    const double ten[] = {990, 991, 995, 999, 1000, 1001, 1003, 1006, 1008, 1200};
    CHECK(qsb_median_precision_pct(ten, 10, &pct) == 0);
    CHECK(fabs(pct - 8.5 / 1000.5 * 100.0) < 1e-12);
    CHECK(qsb_median_precision_pct(ten, 0, &pct) == 0 && isinf(pct));
    const double around_zero[] = {-1, 0, 1};
    CHECK(qsb_median_precision_pct(around_zero, 3, &pct) == 0 && isinf(pct));
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
    test_defaults();
    test_constant_stops_at_min();
    test_scattered_runs_out_of_budget();
    test_outlier_is_shed();
    test_paired_ratio_decides();
    test_no_stop_below_six_rounds();
    test_noisiest_row_decides();
    test_fixed_reps();
    test_precision_measure();
    test_batching();
    test_slowed_rule();
    return check_done();
}
