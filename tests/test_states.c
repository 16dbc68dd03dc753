/*
** States of a row's units (stats states.h): simulated runs from a seeded generator (one speed
** must not be split, two speeds 40% apart must be found), fixtures with known states, and
** per-state estimates against hand-worked values.
*/
#include <math.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/wait.h>
#include <unistd.h>

#include "check.h"
#include "states.h"

#define N_OF(a) (sizeof(a) / sizeof((a)[0]))
#define CHECK_NEAR(a, b, tol)                                                               \
    CHECK_MSG(fabs((double)(a) - (double)(b)) <= (tol), "%s = %.17g, expected %.17g", #a, \
              (double)(a), (double)(b))

/* The test's own generator (splitmix64), independent of the one the test under test uses. */
static uint64_t rng_state = UINT64_C(20261205);

static double uniform01(void)
{
    uint64_t z = (rng_state += UINT64_C(0x9e3779b97f4a7c15));
    z = (z ^ (z >> 30)) * UINT64_C(0xbf58476d1ce4e5b9);
    z = (z ^ (z >> 27)) * UINT64_C(0x94d049bb133111eb);
    z ^= z >> 31;
    return ((double)(z >> 11) + 0.5) / 9007199254740992.0;
}

static double normal(void)
{
    return sqrt(-2.0 * log(uniform01())) * cos(6.283185307179586 * uniform01());
}

static size_t between(size_t lo, size_t hi)
{
    return lo + (size_t)(uniform01() * (double)(hi - lo + 1));
}

#define SIMULATED_RUNS 100
/* The sd of a process's log speed within one state: msort's states on this project's VMs lie
** 20-60% apart with nothing between (docs/measurement.md, "States"); the test's power at wider
** scatter is given there. */
#define PROCESS_SD 0.03

/* Runs of 6-60 processes whose speeds come from one log-normal distribution: at most 5 of
** 100 may report states. */
static void test_one_speed_is_not_split(void)
{
    double speed[60];
    unsigned with_states = 0;
    for (int run = 0; run < SIMULATED_RUNS; run++) {
        size_t n = between(6, 60);
        for (size_t i = 0; i < n; i++)
            speed[i] = 2.0e6 * exp(PROCESS_SD * normal());
        qsb_states s;
        CHECK(qsb_states_of_medians(speed, n, &s) == 0);
        with_states += s.count > 0;
    }
    printf("one speed: %u of %d runs reported states\n", with_states, SIMULATED_RUNS);
    CHECK_MSG(with_states <= 5, "%u of %d runs of one speed reported states", with_states,
              SIMULATED_RUNS);
}

/* The same with heavy tails (t with 3 degrees of freedom on the log scale): still no states. */
static void test_heavy_tails_are_not_split(void)
{
    double speed[60];
    unsigned with_states = 0;
    for (int run = 0; run < SIMULATED_RUNS; run++) {
        size_t n = between(6, 60);
        for (size_t i = 0; i < n; i++) {
            double z = normal(), chi2 = 0;
            for (int d = 0; d < 3; d++) {
                double w = normal();
                chi2 += w * w;
            }
            speed[i] = 2.0e6 * exp(0.03 * z / sqrt(chi2 / 3.0));
        }
        qsb_states s;
        CHECK(qsb_states_of_medians(speed, n, &s) == 0);
        with_states += s.count > 0;
    }
    printf("heavy tails: %u of %d runs reported states\n", with_states, SIMULATED_RUNS);
    CHECK_MSG(with_states <= 10, "%u of %d heavy-tailed runs reported states", with_states,
              SIMULATED_RUNS);
}

/* Of 100 runs of two speeds 40% apart, 4-12 processes each, scattering by sd within a speed:
** how many find exactly those two, with every process in its own state. */
static unsigned two_speeds_found(double sd)
{
    double speed[24];
    unsigned found = 0;
    for (int run = 0; run < SIMULATED_RUNS; run++) {
        size_t fast = between(4, 12), slow = between(4, 12), n = fast + slow;
        for (size_t i = 0; i < n; i++)
            speed[i] = (i < fast ? 2.0e6 : 2.8e6) * exp(sd * normal());
        qsb_states s;
        CHECK(qsb_states_of_medians(speed, n, &s) == 0);
        bool right = s.count == 2 && s.units[0] == fast && s.units[1] == slow;
        for (size_t i = 0; i < n && right; i++)
            right = qsb_state_index(&s, speed[i]) == (i < fast ? 0u : 1u);
        found += right;
    }
    return found;
}

/* At least 95 of 100 at PROCESS_SD; the power at wider scatter is printed, not asserted. */
static void test_two_speeds_are_found(void)
{
    unsigned found = two_speeds_found(PROCESS_SD);
    printf("two speeds 40%% apart, sd %.2f: found in %u of %d runs\n", PROCESS_SD, found,
           SIMULATED_RUNS);
    CHECK_MSG(found >= 95, "two speeds found in only %u of %d runs", found, SIMULATED_RUNS);
    const double wider[] = {0.05, 0.08};
    for (size_t k = 0; k < N_OF(wider); k++)
        printf("two speeds 40%% apart, sd %.2f: found in %u of %d runs\n", wider[k],
               two_speeds_found(wider[k]), SIMULATED_RUNS);
}

/* msort on RANDOM 49,152 x 8 as measured: four speeds (8.4, 10.9, 13.2, 16.3M cycles), four
** processes each, 2% apart within a speed. */
static void test_four_states(void)
{
    const double center[] = {8.4e6, 10.9e6, 13.2e6, 16.3e6}, jitter[] = {0.98, 1.0, 1.01, 1.02};
    double speed[16];
    for (size_t i = 0; i < N_OF(speed); i++)
        speed[i] = center[(i * 3) % 4] * jitter[i / 4];
    qsb_states s;
    CHECK(qsb_states_of_medians(speed, N_OF(speed), &s) == 0);
    CHECK_EQ_U64(s.count, 4);
    for (size_t k = 0; k < 4; k++)
        CHECK_EQ_U64(s.units[k], 4);
    CHECK(s.bound[0] > 8.4e6 * 1.02 && s.bound[0] < 10.9e6 * 0.98);
    CHECK(s.bound[2] > 13.2e6 * 1.02 && s.bound[2] < 16.3e6 * 0.98);
    CHECK_EQ_U64(qsb_state_index(&s, 1.0e6), 0);
    CHECK_EQ_U64(qsb_state_index(&s, 11.0e6), 1);
    CHECK_EQ_U64(qsb_state_index(&s, 13.0e6), 2);
    CHECK_EQ_U64(qsb_state_index(&s, 99.0e6), 3);
}

/* A busy host slows a few processes: 3 of 60 at 1.3 times the speed of the rest are outliers,
** not a state (under QSB_STATE_MIN_SHARE of the row); 3 of 20 (15%), or 20 of 60, are. */
static void test_a_few_slowed_processes_are_not_a_state(void)
{
    double speed[60];
    /* processes, how many of them 30% slower; the states found; the processes counted as
    ** slowed: too few for a state, far beyond the 1% scatter of the rest; none when they are a
    ** state (a group of 3 has no spread of its own to be beyond) or when none is slowed */
    const size_t slowed[][2] = {{60, 3}, {60, 5}, {20, 3}, {60, 20}, {60, 0}};
    const size_t states[] = {0, 0, 2, 2, 0}, counted[] = {3, 5, 0, 0, 0};
    for (size_t c = 0; c < N_OF(states); c++) {
        size_t n = slowed[c][0];
        for (size_t i = 0; i < n; i++)
            speed[i] = 2.0e6 * (i < slowed[c][1] ? 1.3 : 1.0) * exp(0.01 * normal());
        qsb_states s;
        CHECK(qsb_states_of_medians(speed, n, &s) == 0);
        CHECK_MSG(s.count == states[c], "%zu of %zu slowed: %zu states", slowed[c][1], n, s.count);
        CHECK_MSG(s.slowed == counted[c], "%zu of %zu slowed: %zu counted", slowed[c][1], n,
                  s.slowed);
    }
}

static void test_no_states(void)
{
    qsb_states s;
    /* two clear groups, but one of them has 2 processes: an outlier pair is not a state */
    const double pair[] = {100, 101, 99, 100.5, 99.5, 100.2, 99.8, 100.1, 150, 151};
    CHECK(qsb_states_of_medians(pair, N_OF(pair), &s) == 0);
    CHECK_EQ_U64(s.count, 0);
    CHECK_EQ_U64(s.slowed, 2); /* ... but two processes slowed */
    /* separated well beyond their scatter, but only 4% apart: under QSB_STATE_MIN_GAP */
    const double close[] = {100, 100.1, 99.9, 100.05, 104, 104.1, 103.9, 104.05};
    CHECK(qsb_states_of_medians(close, N_OF(close), &s) == 0);
    CHECK_EQ_U64(s.count, 0);
    /* 5 processes: too few for two states of 3 */
    const double five[] = {100, 100, 100, 200, 200};
    CHECK(qsb_states_of_medians(five, N_OF(five), &s) == 0);
    CHECK_EQ_U64(s.count, 0);
    /* evenly spread: no gap stands out */
    const double even[] = {100, 105, 110, 115, 120, 125, 130, 135, 140, 145, 150, 155};
    CHECK(qsb_states_of_medians(even, N_OF(even), &s) == 0);
    CHECK_EQ_U64(s.count, 0);
    CHECK_EQ_U64(s.slowed, 0); /* nor slowed processes */
    /* a median that is not positive: no states claimed */
    const double zero[] = {0, 100, 100, 200, 200, 200};
    CHECK(qsb_states_of_medians(zero, N_OF(zero), &s) == 0);
    CHECK_EQ_U64(s.count, 0);
    /* groups that do not scatter at all and lie far apart are states */
    const double exact[] = {100, 100, 100, 200, 200, 200};
    CHECK(qsb_states_of_medians(exact, N_OF(exact), &s) == 0);
    CHECK_EQ_U64(s.count, 2);
}

/* Samples with units: each unit's median decides; non-finite samples are skipped. */
static void test_states_of_samples(void)
{
    const double v[] = {100, 102, NAN, 101, 150, 149, 151, 99, 152, 100, 148, 150};
    const uint32_t u[] = {0, 0, 1, 1, 2, 2, 3, 4, 5, 6, 7, 8};
    /* unit medians: 101, 101, 149.5, 151, 99, 152, 100, 148, 150 */
    qsb_states s;
    CHECK(qsb_states_of(v, u, N_OF(v), &s) == 0);
    CHECK_EQ_U64(s.count, 2);
    CHECK_EQ_U64(s.units[0], 4);
    CHECK_EQ_U64(s.units[1], 5);
    CHECK(qsb_states_of(v, NULL, N_OF(v), &s) == 0);
    CHECK_EQ_U64(s.count, 0);
}

/* Per-state estimates, worked by hand. Six processes, one sample each: the baseline at 100,
** 101, 99 (state 0) and 200, 202, 198 (state 1); the candidate's ratios exp(0.10), exp(0.12),
** exp(0.08) in state 0 and exp(-0.2), exp(-0.3), exp(-0.1), exp(0) in state 1 (the seventh
** process at 201). */
static void test_estimates_by_hand(void)
{
    const double base[] = {100, 200, 101, 202, 99, 198, 201};
    const double lr[] = {0.10, -0.2, 0.12, -0.3, 0.08, -0.1, 0.0};
    const uint32_t u[] = {0, 1, 2, 3, 4, 5, 6};
    double cand[N_OF(base)];
    for (size_t i = 0; i < N_OF(base); i++)
        cand[i] = base[i] * exp(lr[i]);
    qsb_states s;
    CHECK(qsb_states_of(base, u, N_OF(base), &s) == 0);
    CHECK_EQ_U64(s.count, 2);
    if (s.count != 2)
        return;
    qsb_state_estimate e[2];
    CHECK(qsb_state_estimates(&s, base, cand, base, u, N_OF(base), e) == 0);
    /* state 0: mean log 0.10, sd 0.02, t(0.975, 2) = 4.302652729749464,
    ** h = 4.302652729749464 * 0.02 / sqrt(3) = 0.049682754;
    ** delta = (e^0.1 - 1) * 100 = 10.517091807564771,
    ** lo = (e^0.050317246 - 1) * 100 = 5.1604661, hi = (e^0.149682754 - 1) * 100 = 16.146571 */
    CHECK_EQ_U64(e[0].processes, 3);
    CHECK_NEAR(e[0].share, 3.0 / 7.0, 1e-12);
    CHECK_NEAR(e[0].delta_pct, 10.517091807564771, 1e-9);
    CHECK_NEAR(e[0].delta_lo, 5.1604661, 1e-6);
    CHECK_NEAR(e[0].delta_hi, 16.146571, 1e-6);
    /* its median: the candidate's unit medians 110.517 (100 e^0.1), 113.877 (101 e^0.12),
    ** 107.245 (99 e^0.08): 110.51709180756477 */
    CHECK_NEAR(e[0].median, 110.51709180756477, 1e-9);
    /* state 1: logs -0.2, -0.3, -0.1, 0.0: mean -0.15, sd 0.12909944, t(0.975, 3) =
    ** 3.182446305284263, h = 3.182446305284263 * 0.12909944 / 2 = 0.20542603;
    ** delta = (e^-0.15 - 1) * 100 = -13.929202357494222,
    ** lo = (e^-0.35542603 - 1) * 100 = -29.912521, hi = (e^0.05542603 - 1) * 100 = 5.6990824 */
    CHECK_EQ_U64(e[1].processes, 4);
    CHECK_NEAR(e[1].share, 4.0 / 7.0, 1e-12);
    CHECK_NEAR(e[1].delta_pct, -13.929202357494222, 1e-9);
    CHECK_NEAR(e[1].delta_lo, -29.912521, 1e-6);
    CHECK_NEAR(e[1].delta_hi, 5.6990824, 1e-6);
    /* do the states' deltas differ? Welch's test over the two states' log ratios (3 at mean
    ** 0.10, sd 0.02; 4 at -0.15, sd 0.12909944): t = 0.25 / sqrt(0.02^2/3 + 0.12909944^2/4)
    ** = 3.8124643 on 3.1901719 df, two-sided p 0.02847199401282 (not below 1%) */
    CHECK_EQ_U64(e[0].log_ratios.units, 3);
    CHECK_NEAR(e[0].log_ratios.log_mean, 0.10, 1e-12);
    CHECK_NEAR(e[0].log_ratios.log_sd, 0.02, 1e-12);
    CHECK_NEAR(qsb_states_delta_p(e, 2), 0.02847199401282, 1e-10);

    /* the baseline's own: medians 100 and 200.5, no deltas */
    CHECK(qsb_state_estimates(&s, base, base, NULL, u, N_OF(base), e) == 0);
    CHECK_NEAR(e[0].median, 100.0, 1e-12);
    CHECK_NEAR(e[1].median, 200.5, 1e-12);
    /* the speed's interval of state 0: logs of 100, 101, 99, t(0.975, 2) over them:
    ** [97.543120547699, 102.511927710289] */
    CHECK_NEAR(e[0].median_lo, 97.543120547699, 1e-9);
    CHECK_NEAR(e[0].median_hi, 102.511927710289, 1e-9);
    CHECK(isnan(e[0].delta_pct) && isnan(e[0].delta_lo) && isnan(e[1].delta_hi));
    CHECK(isnan(qsb_states_delta_p(e, 2))); /* a baseline's: no deltas to test */
}

/* A state of 2 processes has a delta and no interval ("too few"). */
static void test_too_few_for_an_interval(void)
{
    qsb_states s = {.count = 2, .bound = {150}, .units = {2, 4}};
    const double base[] = {100, 100, 200, 200, 200, 200};
    const double cand[] = {110, 110, 200, 200, 220, 180};
    const uint32_t u[] = {0, 1, 2, 3, 4, 5};
    qsb_state_estimate e[2];
    CHECK(qsb_state_estimates(&s, base, cand, base, u, N_OF(u), e) == 0);
    CHECK_EQ_U64(e[0].processes, 2);
    CHECK_NEAR(e[0].delta_pct, 10.0, 1e-9);
    CHECK(isnan(e[0].delta_lo) && isnan(e[0].delta_hi));
    CHECK(isfinite(e[1].delta_lo) && e[1].delta_lo <= e[1].delta_pct &&
          e[1].delta_pct <= e[1].delta_hi);
    CHECK(isnan(qsb_states_delta_p(e, 2))); /* one state of 3 processes or more: no test */
    qsb_states none = {0};
    CHECK(qsb_state_estimates(&none, base, cand, base, u, N_OF(u), e) == -1);
}

/* The schedule's measure: the widest state's t half-width, by hand. Speeds 100, 101, 99 (state
** 0: t(0.975, 2) over their logs, 2.5153450%) and 200, 210, 190, 205 (state 1: t(0.975, 3),
** 7.0494212%); a state of 2 units is not judged. */
static void test_widest_state(void)
{
    const double speed[] = {100, 200, 101, 210, 99, 190, 205};
    qsb_states s;
    CHECK(qsb_states_of_medians(speed, N_OF(speed), &s) == 0);
    CHECK_EQ_U64(s.count, 2);
    CHECK_NEAR(qsb_states_widest_pct(&s, speed, speed, N_OF(speed)), 7.049421219326327, 1e-9);
    const double ratio[] = {1.1, 1.0, 1.1, 1.0, 1.1, 1.0, 1.0}; /* no scatter in a state */
    CHECK_NEAR(qsb_states_widest_pct(&s, speed, ratio, N_OF(speed)), 0.0, 1e-12);
    const double bad[] = {1.1, 1.0, 1.1, 1.0, 0.0, 1.0, 1.0};
    CHECK(isinf(qsb_states_widest_pct(&s, speed, bad, N_OF(speed))));
    const double two[] = {100, 101, 99, 98, 200, 202};
    qsb_states lone = {.count = 2, .bound = {150}, .units = {4, 2}};
    CHECK_NEAR(qsb_states_widest_pct(&lone, two, two, N_OF(two)),
               qsb_states_widest_pct(&lone, two, two, 4), 1e-12); /* state 1 not judged */
}

/* The states of n speeds asked alone, in a child process whose test has been asked nothing
** else; SIZE_MAX when the child failed. */
static size_t states_alone(const double *speed, size_t n)
{
    fflush(stdout);
    pid_t pid = fork();
    if (pid == 0) {
        qsb_states s;
        _exit(qsb_states_of_medians(speed, n, &s) == 0 ? (int)s.count : 255);
    }
    int status;
    if (pid < 0 || waitpid(pid, &status, 0) != pid || !WIFEXITED(status) ||
        WEXITSTATUS(status) == 255)
        return SIZE_MAX;
    return (size_t)WEXITSTATUS(status);
}

/* The test's null scores are drawn once for each count of units and kept: a row's answer must
** be what it gets asked alone, whatever was asked before it, of its count or of a count that
** shares its place (n and n + 64): sets of 16 at two speeds 30% apart, and sets of 80 at one
** speed widely scattered, whose widest gaps would look rare against 16 draws' null. Run first,
** while this process has asked nothing. */
static void test_answers_do_not_depend_on_order(void)
{
    enum { SETS = 24 };
    double speeds[SETS][80];
    size_t n[SETS], alone[SETS], split = 0;
    for (size_t k = 0; k < SETS; k++) {
        n[k] = k % 2 ? 16 + 64 : 16;
        double apart = k % 2 ? 1.0 : 1.3, sd = k % 2 ? 0.15 : 0.04;
        for (size_t i = 0; i < n[k]; i++)
            speeds[k][i] = (i % 2 ? apart : 1.0) * 1.0e6 * exp(sd * normal());
        alone[k] = states_alone(speeds[k], n[k]);
        CHECK(alone[k] != SIZE_MAX);
        split += alone[k] > 1;
    }
    for (size_t pass = 0; pass < 2; pass++)
        for (size_t j = 0; j < SETS; j++) {
            size_t k = pass ? SETS - 1 - j : j;
            qsb_states s;
            CHECK(qsb_states_of_medians(speeds[k], n[k], &s) == 0);
            CHECK_MSG(s.count == alone[k], "set %zu, pass %zu: %zu states, alone %zu", k, pass,
                      s.count, alone[k]);
        }
    printf("asked alone and after others: %zu of %d sets split, the same answers\n", split,
           SETS);
}

int main(void)
{
    test_answers_do_not_depend_on_order();
    test_widest_state();
    test_one_speed_is_not_split();
    test_heavy_tails_are_not_split();
    test_two_speeds_are_found();
    test_four_states();
    test_a_few_slowed_processes_are_not_a_state();
    test_no_states();
    test_states_of_samples();
    test_estimates_by_hand();
    test_too_few_for_an_interval();
    return check_done();
}
