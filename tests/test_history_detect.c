/*
** Steps in history series (src/history/detect.h, src/stats/changepoint.h), on fixed simulated
** series (a seeded generator: the same series every run):
**  - the step fit itself: an exact step is cut where it is, a cut only where allowed, a lone
**    outlier inside a series is no step, the newest point alone may be one;
**  - 30 runs c01..c30 of a candidate 10% slower from c20 on, each run's delta moved by the
**    host's state between runs (sd 1.5%) and its own interval +-1.5%: one step of the deltas,
**    between c19 and c20 (+-1 commit), of +5..+15%, and none in the series of an unchanged
**    candidate of the same runs; over 20 seeds;
**  - 30 A/A runs: at most 2 of 100 seeds with a step (the penalty's calibrated rate is
**    about 1 in 100), none failing at the newest commit;
**  - a step at the newest commit fails detect (qsb_step_fails) above the threshold, not
**    below it; several runs of one commit are never cut apart.
** `test_history_detect sweep` prints how often A/A series of each length give a step (the
** penalty's calibration, docs/measurement.md), and asserts nothing.
*/
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "changepoint.h"
#include "check.h"
#include "detect.h"
#include "series_gen.h"

/* ---- a seeded generator (series_gen.h) ---- */

static series_rng rng;

static double normal(void)
{
    return series_normal(&rng);
}

/* ---- simulated series ---- */

#define MAX_POINTS 200

typedef struct {
    qsb_history_series s;
    qsb_history_point p[MAX_POINTS];
    char commits[MAX_POINTS][24];
} sim_series;

/* n runs of one candidate: its true delta step_pct from run `from` (1-based) on, else 0;
** each run's delta moved by host_sd (%, the state between runs), its own interval
** +-own_pct. One run per commit c01, c02, ... */
static void simulate(sim_series *x, size_t n, size_t from, double step_pct, double host_sd,
                     double own_pct)
{
    memset(x, 0, sizeof *x);
    x->s = (qsb_history_series){"box", "cycles", "random", "cand", 1000, 4, x->p, n, NULL};
    for (size_t i = 0; i < n; i++) {
        snprintf(x->commits[i], sizeof x->commits[i], "c%02zu", i + 1);
        double truth = i + 1 >= from ? step_pct : 0.0;
        double d = series_run_delta(&rng, truth, host_sd);
        double median = 1e6 * (1.0 + d / 100.0) * (1.0 + 0.05 * normal());
        x->p[i] = (qsb_history_point){.run_id = (int64_t)i + 1, .commit = x->commits[i],
                                      .date = "2026-12-01", .machine = "box",
                                      .metric = "cycles", .time = (int64_t)i, .verified = 1,
                                      .median = median, .median_lo = median * 0.99,
                                      .median_hi = median * 1.01, .delta_pct = d,
                                      .delta_lo = d - own_pct, .delta_hi = d + own_pct};
    }
}

static size_t delta_steps(const qsb_step_list *l)
{
    size_t n = 0;
    for (size_t i = 0; i < l->n; i++)
        n += l->steps[i].view == QSB_VIEW_DELTA;
    return n;
}

static const qsb_step *first_delta_step(const qsb_step_list *l)
{
    for (size_t i = 0; i < l->n; i++)
        if (l->steps[i].view == QSB_VIEW_DELTA)
            return &l->steps[i];
    return NULL;
}

/* ---- the step fit ---- */

static void test_step_fit(void)
{
    double y[8] = {0, 0, 0, 0, 1, 1, 1, 1}, var[8];
    for (int i = 0; i < 8; i++)
        var[i] = 0.01;
    size_t starts[8];
    CHECK_EQ_U64(qsb_step_fit(y, var, NULL, 8, 2, 5.0, starts), 1);
    CHECK_EQ_U64(starts[0], 4);
    /* the cut may not fall at 4 (the same commit on both sides): it moves next to it */
    unsigned char can[8] = {0, 1, 1, 1, 0, 1, 1, 1};
    size_t k = qsb_step_fit(y, var, can, 8, 2, 5.0, starts);
    CHECK(k >= 1 && k <= 2);
    for (size_t i = 0; i < k && i < 8; i++)
        CHECK(starts[i] != 4);
    /* a lone outlier of 5 sd inside: no step (a segment of two points would be needed); the
    ** same at the end: a step of one point */
    double outlier[8] = {0, 0, 0, 0.5, 0, 0, 0, 0};
    CHECK_EQ_U64(qsb_step_fit(outlier, var, NULL, 8, 2, 8.0, starts), 0);
    double newest[8] = {0, 0, 0, 0, 0, 0, 0, 0.5};
    CHECK_EQ_U64(qsb_step_fit(newest, var, NULL, 8, 2, 8.0, starts), 1);
    CHECK_EQ_U64(starts[0], 7);
    /* no step in a flat series, whatever the penalty's size */
    double flat[8] = {0};
    CHECK_EQ_U64(qsb_step_fit(flat, var, NULL, 8, 2, 0.1, starts), 0);
    /* two steps */
    double two[12] = {0, 0, 0, 0, 1, 1, 1, 1, 3, 3, 3, 3};
    double var12[12];
    for (int i = 0; i < 12; i++)
        var12[i] = 0.01;
    CHECK_EQ_U64(qsb_step_fit(two, var12, NULL, 12, 2, 5.0, starts), 2);
    CHECK(starts[0] == 4 && starts[1] == 8);

    double m, mv;
    qsb_weighted_mean(two, var12, 4, 8, &m, &mv);
    CHECK(fabs(m - 1.0) < 1e-12 && fabs(mv - 0.0025) < 1e-12);
    CHECK(qsb_between_variance(flat, var, 8) == 0.0);
}

/* ---- the simulated series ---- */

static void test_known_step(void)
{
    for (uint64_t seed = 1; seed <= 20; seed++) {
        rng.state = seed;
        sim_series slowed, plain;
        simulate(&slowed, 30, 20, 10.0, 1.5, 1.5);
        simulate(&plain, 30, 31, 0.0, 1.5, 1.5);
        qsb_step_list l = {0}, none = {0};
        CHECK(qsb_detect_series(&slowed.s, &l) == 0);
        CHECK(qsb_detect_series(&plain.s, &none) == 0);
        CHECK_MSG(delta_steps(&l) == 1, "seed %llu: %zu steps of the deltas",
                  (unsigned long long)seed, delta_steps(&l));
        const qsb_step *st = first_delta_step(&l);
        if (st) {
            int before = atoi(st->before + 1), after = atoi(st->after + 1);
            CHECK_MSG(before >= 18 && before <= 20 && after == before + 1,
                      "seed %llu: the step is between %s and %s", (unsigned long long)seed,
                      st->before, st->after);
            CHECK_MSG(st->change_pct >= 5.0 && st->change_pct <= 15.0,
                      "seed %llu: change %+.2f%%", (unsigned long long)seed, st->change_pct);
            CHECK(st->lo < st->change_pct && st->change_pct < st->hi && st->lo > 0.0);
            CHECK(!st->at_newest && !qsb_step_fails(st, 5.0));
            CHECK(strcmp(st->algorithm, "cand") == 0 && st->nelem == 1000 && st->size == 4);
        }
        CHECK_MSG(delta_steps(&none) == 0, "seed %llu: %zu steps in the unchanged candidate",
                  (unsigned long long)seed, delta_steps(&none));
        qsb_step_list_free(&l);
        qsb_step_list_free(&none);
    }
}

/* The penalty lets about 1 A/A series of 30 runs in 100 have a step somewhere (the sweep:
** 17 of 2000); at the newest commit, where detect fails a CI job, none of 2000 had one. */
static void test_aa(void)
{
    size_t with_step = 0, at_newest = 0;
    for (uint64_t seed = 1; seed <= 100; seed++) {
        rng.state = 1000 + seed;
        sim_series aa;
        simulate(&aa, 30, 31, 0.0, 1.5, 1.5);
        qsb_step_list l = {0};
        CHECK(qsb_detect_series(&aa.s, &l) == 0);
        with_step += delta_steps(&l) > 0;
        for (size_t i = 0; i < l.n; i++)
            at_newest += l.steps[i].view == QSB_VIEW_DELTA && qsb_step_fails(&l.steps[i], 0.0);
        qsb_step_list_free(&l);
    }
    CHECK_MSG(with_step <= 2, "%zu of 100 A/A series have a step", with_step);
    CHECK_MSG(at_newest == 0, "%zu A/A series fail at the newest commit", at_newest);
}

static void test_newest(void)
{
    rng.state = 77;
    sim_series x;
    simulate(&x, 30, 30, 12.0, 1.0, 1.0);
    qsb_step_list l = {0};
    CHECK(qsb_detect_series(&x.s, &l) == 0);
    const qsb_step *st = first_delta_step(&l);
    CHECK(st != NULL);
    if (st) {
        CHECK(strcmp(st->before, "c29") == 0 && strcmp(st->after, "c30") == 0);
        CHECK(st->at_newest && st->gates);
        CHECK(qsb_step_fails(st, 5.0));
        CHECK(!qsb_step_fails(st, 20.0));
    }
    qsb_step_list_free(&l);

    /* the last three runs are of one commit: the step may not split them */
    rng.state = 78;
    simulate(&x, 30, 28, 12.0, 1.0, 1.0);
    strcpy(x.commits[28], "c28");
    strcpy(x.commits[29], "c28");
    CHECK(qsb_detect_series(&x.s, &l) == 0);
    st = first_delta_step(&l);
    CHECK(st && strcmp(st->after, "c28") == 0 && strcmp(st->before, "c27") == 0 &&
          st->at_newest);
    qsb_step_list_free(&l);

    /* a baseline's series (no deltas): its medians gate */
    rng.state = 79;
    simulate(&x, 30, 31, 0.0, 1.0, 1.0);
    for (size_t i = 0; i < 30; i++) {
        x.p[i].baseline = 1;
        x.p[i].delta_pct = NAN;
        x.p[i].median = i == 29 ? 1.3e6 : 1e6 * (1.0 + 0.01 * normal());
        x.p[i].median_lo = x.p[i].median * 0.99;
        x.p[i].median_hi = x.p[i].median * 1.01;
    }
    CHECK(qsb_detect_series(&x.s, &l) == 0);
    CHECK_EQ_U64(l.n, 1);
    CHECK(l.n == 1 && l.steps[0].view == QSB_VIEW_MEDIAN && l.steps[0].gates &&
          qsb_step_fails(&l.steps[0], 5.0));
    qsb_step_list_free(&l);
}

/* Exact counts: the same count every run, then another: a step however small. */
static void test_exact(void)
{
    sim_series x;
    simulate(&x, 10, 11, 0.0, 0.0, 0.0);
    for (size_t i = 0; i < 10; i++) {
        x.p[i].delta_pct = i < 6 ? 2.0 : 2.5;
        x.p[i].delta_lo = x.p[i].delta_hi = NAN;
        x.p[i].median = 1000.0;
        x.p[i].median_lo = x.p[i].median_hi = NAN;
    }
    qsb_step_list l = {0};
    CHECK(qsb_detect_series(&x.s, &l) == 0);
    CHECK_EQ_U64(l.n, 1);
    CHECK(l.n == 1 && strcmp(l.steps[0].after, "c07") == 0);
    qsb_step_list_free(&l);
}

/* The detectable step at the newest commit is a promise of 80% power: one series of each
** A/A run says it (the deltas gate; the medians do not when there are deltas), and a step of
** the median A/A series' size at the newest commit fails detect at the threshold in about 4 of
** 5 series (200 series: 160 +- 11 at two standard deviations). */
static void check_detectable(size_t n, double host_pct, double own_pct, double threshold,
                             double least, double most)
{
    double seen[200];
    for (uint64_t seed = 0; seed < 200; seed++) {
        rng.state = 9000 + seed;
        sim_series aa;
        simulate(&aa, n, n + 1, 0.0, host_pct, own_pct);
        qsb_step_list l = {0};
        CHECK(qsb_detect_series(&aa.s, &l) == 0);
        CHECK_EQ_U64(l.nseen, 1);
        CHECK(l.nseen == 0 || (l.seen[0].n == n && l.seen[0].newest == 1));
        seen[seed] = qsb_steps_detectable_pct(&l, threshold);
        qsb_step_list_free(&l);
    }
    double step = qsb_median_of_finite(seen, 200);
    CHECK_MSG(step > least && step < most, "%zu runs: sees %.2f%%", n, step);
    size_t caught = 0;
    for (uint64_t seed = 0; seed < 200; seed++) {
        rng.state = 19000 + seed;
        sim_series x;
        simulate(&x, n, n, step, host_pct, own_pct);
        qsb_step_list l = {0};
        CHECK(qsb_detect_series(&x.s, &l) == 0);
        for (size_t i = 0; i < l.n; i++)
            caught += l.steps[i].view == QSB_VIEW_DELTA && qsb_step_fails(&l.steps[i], threshold);
        qsb_step_list_free(&l);
    }
    CHECK_MSG(caught >= 149 && caught <= 171, "%zu runs: %zu of 200 steps of %.2f%% caught", n,
              caught, step);
}

/* More than (sqrt(4 ln n (1 + 4 / n)) + 0.84) times a point's spread of 1.5% (4.77 for 30
** runs, 4.35 for 10): the spread between runs is estimated from the series itself; for
** series whose own intervals hold little of their spread and for those that hold most of it,
** long and short. Where a point spreads by 0.5% only, the threshold of 5% decides. */
static void test_detectable(void)
{
    check_detectable(30, 1.5, 0.5, 0.0, 4.77 * 1.5, 10.0);
    check_detectable(30, 1.5, 1.5, 0.0, 4.77 * 1.5, 10.0);
    check_detectable(10, 1.5, 1.5, 0.0, 4.35 * 1.5, 14.0);
    check_detectable(30, 0.5, 0.5, 5.0, 5.0, 6.0);
}

static void sweep(void)
{
    const size_t lengths[] = {10, 30, 100, 1000};
    for (size_t k = 0; k < 4; k++) {
        size_t series = lengths[k] >= 1000 ? 200 : 2000, with_step = 0, newest = 0;
        for (size_t s = 0; s < series; s++) {
            rng.state = 5000 + s;
            sim_series *x = malloc(sizeof *x);
            qsb_history_point *p = malloc(lengths[k] * sizeof *p);
            char (*commits)[24] = malloc(lengths[k] * sizeof *commits);
            simulate(x, MAX_POINTS < lengths[k] ? MAX_POINTS : lengths[k], 0, 0.0, 1.5, 1.5);
            size_t n = lengths[k];
            for (size_t i = 0; i < n; i++) {
                double d = 1.5 * normal();
                snprintf(commits[i], 24, "%zu", i);
                p[i] = x->p[0];
                p[i].commit = commits[i];
                p[i].delta_pct = d;
                p[i].delta_lo = d - 1.5;
                p[i].delta_hi = d + 1.5;
            }
            x->s.points = p;
            x->s.n = n;
            qsb_step_list l = {0};
            qsb_detect_series(&x->s, &l);
            with_step += delta_steps(&l) > 0;
            for (size_t i = 0; i < l.n; i++)
                newest += l.steps[i].view == QSB_VIEW_DELTA && l.steps[i].at_newest;
            qsb_step_list_free(&l);
            free(commits);
            free(p);
            free(x);
        }
        printf("A/A series of %zu runs: %zu of %zu with a step (%zu at the newest run)\n",
               lengths[k], with_step, series, newest);
    }
}

int main(int argc, char **argv)
{
    if (argc > 1 && strcmp(argv[1], "sweep") == 0) {
        sweep();
        return 0;
    }
    test_step_fit();
    test_known_step();
    test_aa();
    test_newest();
    test_exact();
    test_detectable();
    return check_done();
}
