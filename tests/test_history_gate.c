/*
** The run level learned from a history and the gate of a new run against it
** (src/stats/random_effects.h, src/history/run_level.h, gate.h): DerSimonian-Laird, the
** prediction interval and the detectable change against hand-worked values; fixture
** histories of a known spread between runs (seeded, so the same on every machine): the level
** recovered, each row's shrunk toward the machine's pooled one with 2, 5 and 30 runs, unknown
** under 5; the verdicts on a planted step, on an A/A run, on a row without history; a run
** filed already found; runs whose intervals are wider than their scatter scaled to it.
*/
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "captured.h"
#include "check.h"
#include "diag.h"
#include "gate.h"
#include "history.h"
#include "random_effects.h"
#include "run_level.h"
#include "series_gen.h"

static char dir[] = "/tmp/qsb_history_gate_XXXXXX";
static series_rng rng = {20261207};

static int near(double a, double b, double tolerance)
{
    return fabs(a - b) <= tolerance;
}

static void test_hand_worked(void)
{
    /* y = 0, 0.2, 0.4, each v = 0.01: Q = 8, c = 300 - 30000 / 300 = 200, tau^2 = 6 / 200. */
    const double y[] = {0.0, 0.2, 0.4}, v[] = {0.01, 0.01, 0.01};
    qsb_random_effects re;
    CHECK(qsb_random_effects_dl(y, v, 3, &re) == 0);
    CHECK_EQ_U64(re.k, 3);
    CHECK(near(re.q, 8.0, 1e-12) && near(re.tau2, 0.03, 1e-12));
    CHECK(near(re.mean, 0.2, 1e-12) && near(re.mean_var, 0.04 / 3.0, 1e-12));
    /* one new run of variance 0.01: sqrt(0.03 + 0.04 / 3 + 0.01) */
    double sd = qsb_prediction_sd(&re, re.tau2, 0.01);
    CHECK(near(sd, 0.2309401, 1e-7));
    /* its df: the history's part 0.03 + 0.04 / 3 = 0.13 / 3 has 2, the whole is 0.16 / 3:
    ** 2 (16 / 13)^2 = 512 / 169; the history's part alone keeps k - 1; one run, or a history
    ** without spread or error: a normal's */
    CHECK(near(qsb_prediction_df(&re, re.tau2, 0.01), 512.0 / 169.0, 1e-12));
    CHECK(near(qsb_prediction_df(&re, re.tau2, 0.0), 2.0, 1e-12));
    CHECK(isinf(qsb_prediction_df(&(qsb_random_effects){1, NAN, 0.0, 0.01, NAN}, 0.0, 0.01)));
    CHECK(isinf(qsb_prediction_df(&(qsb_random_effects){3, 0.0, 0.0, 0.0, 0.0}, 0.0, 0.01)));
    /* no threshold: (z(0.95) + z(0.8)) sd = (1.6448536 + 0.8416212) sd on the log scale */
    CHECK(near(qsb_detectable_pct(0.0, sd, 0.05, INFINITY),
               expm1(2.4864748 * 0.2309401) * 100.0, 1e-4));
    /* 5% and 4 df: log 1.05 + (t(0.95, 4) + t(0.8, 4)) 0.01 = 0.0487902 + 0.0307281 */
    CHECK(near(qsb_detectable_pct(5.0, 0.01, 0.05, 4.0), expm1(0.0795183) * 100.0, 1e-4));
    /* Less spread than the runs' own intervals give: tau^2 0. */
    const double close[] = {0.0, 0.05, 0.1};
    CHECK(qsb_random_effects_dl(close, v, 3, &re) == 0 && re.tau2 == 0.0);
    /* One run: its own estimate, no tau^2; none: nothing. */
    CHECK(qsb_random_effects_dl(y, v, 1, &re) == -1 && re.k == 1 && re.mean == 0.0 &&
          isnan(re.tau2));
    const double bad[] = {NAN, 0.1};
    CHECK(qsb_random_effects_dl(bad, v, 1, &re) == -1 && re.k == 0);
    /* Shrinkage: (k tau2 + 5 pooled) / (k + 5); the pooled alone without the row's own. */
    CHECK(near(qsb_tau2_shrunk(0.04, 5, 0.01), 0.025, 1e-15));
    CHECK(near(qsb_tau2_shrunk(NAN, 0, 0.01), 0.01, 1e-15));
    CHECK(near(qsb_level_pct(0.0001), expm1(1.959964 * 0.01) * 100.0, 1e-9));
}

/* A run of one cell (random/1000/4) and, for the second machine's tests, of another
** (sorted/1000/4): msort's median `base` and introsort's delta `delta_pct`, each with a 95%
** interval of +-within_pct. */
static void build(qsb_results *r, const char *machine, const char *date, double base,
                  double delta_pct, double within_pct)
{
    memset(r, 0, sizeof *r);
    CHECK(qsb_set_string(&r->context.metric, "cycles") == 0);
    CHECK(qsb_set_string(&r->context.machine, machine) == 0);
    CHECK(qsb_set_string(&r->context.date, date) == 0);
    CHECK(qsb_set_string(&r->context.host, "host") == 0);
    CHECK(qsb_set_string(&r->context.command_line, "qsortbench run") == 0);
    CHECK(qsb_set_string(&r->baseline, "msort") == 0);
    const char *const algos[] = {"msort", "introsort"};
    qsb_cell *cell = qsb_results_add_cell(r, "random", 1000, 4, algos, 2);
    CHECK(cell != NULL);
    if (!cell)
        return;
    double f = 1.0 + within_pct / 100.0;
    qsb_row *b = &cell->rows[0], *c = &cell->rows[1];
    b->summary.median = base;
    b->summary.median_lo = base / f;
    b->summary.median_hi = base * f;
    c->summary.median = base * (1 + delta_pct / 100.0);
    c->delta_pct = delta_pct;
    c->delta_lo = (1 + delta_pct / 100.0) / f * 100.0 - 100.0;
    c->delta_hi = (1 + delta_pct / 100.0) * f * 100.0 - 100.0;
}

/* The date of the run filed at clock, in the given hour of the fixtures' day. */
static const char *date_at(char date[32], int hour, int clock)
{
    snprintf(date, 32, "2026-12-01T%02d:%02d:%02dZ", hour, clock / 60, clock % 60);
    return date;
}

/* Files r, made for date, as commit c<clock>, and frees it; the clock moves on. */
static void file_run(qsb_history *h, qsb_results *r, const char *date, int *clock)
{
    char commit[16];
    snprintf(commit, sizeof commit, "c%d", *clock);
    qsb_history_stamp st = {commit, date, 1000 + *clock, "main", NULL, "r.json", 0, false};
    CHECK(qsb_history_add(h, r, &st, 1, NULL) == QSB_OK);
    qsb_results_free(r);
    (*clock)++;
}

/* Files n runs of machine: introsort's delta 10% moved by a host level of sd host_sd % per
** run, msort's median 1e6 by the same, each with a 95% interval of +-within_pct. */
static void file_runs(qsb_history *h, const char *machine, size_t n, double host_sd,
                      double within_pct, int *clock)
{
    for (size_t i = 0; i < n; i++) {
        qsb_results r;
        char date[32];
        double move = series_normal(&rng) * host_sd;
        build(&r, machine, date_at(date, 0, *clock), 1e6 * (1 + move / 100.0), 10.0 + move,
              within_pct);
        file_run(h, &r, date, clock);
    }
}

static double level_of(const qsb_run_levels *l, const char *algorithm)
{
    const qsb_row_level *row = qsb_run_levels_find(l, "random", 1000, 4, algorithm);
    CHECK(row != NULL);
    return row ? qsb_row_level_pct(row) : NAN;
}

/* 30 runs of a host level of sd 3%: the delta's and the median's level (95%: about 6%)
** found from the history; 2 runs: unknown; 5: known, pulled toward the machine's pooled. */
static void test_levels(qsb_history *h, int *clock)
{
    file_runs(h, "vm-x", 30, 3.0, 1.0, clock);
    qsb_run_levels l;
    CHECK(qsb_history_run_levels(h, "vm-x", "cycles", 30, &l) == QSB_OK);
    double delta = level_of(&l, "introsort"), median = level_of(&l, "msort");
    /* sd 3% of a log is a 95% spread of about 6%; DL from 30 runs lands within 4-9% */
    CHECK_MSG(delta > 4.0 && delta < 9.0, "delta level %g", delta);
    CHECK_MSG(median > 4.0 && median < 9.0, "median level %g", median);
    CHECK(isfinite(qsb_run_levels_median_pct(&l)));
    qsb_run_levels_free(&l);

    CHECK(qsb_history_run_levels(h, "vm-x", "cycles", 2, &l) == QSB_OK);
    CHECK(isnan(level_of(&l, "introsort")));
    qsb_run_levels_free(&l);
    CHECK(qsb_history_run_levels(h, "vm-x", "cycles", 5, &l) == QSB_OK);
    const qsb_row_level *row = qsb_run_levels_find(&l, "random", 1000, 4, "introsort");
    CHECK(row && row->delta.k == 5 && isfinite(qsb_row_level_pct(row)));
    if (row) /* one row: the pooled level is its own, so the shrunk one is too */
        CHECK(near(row->delta_tau2, row->delta.tau2, 1e-15));
    qsb_run_levels_free(&l);
    CHECK(qsb_history_run_levels(h, "nobody", "cycles", 30, &l) == QSB_OK && l.n == 0);
    qsb_run_levels_free(&l);
}

static qsb_gate_verdict verdict_of(qsb_history *h, double delta_pct, double base)
{
    qsb_run_levels l;
    qsb_results r;
    qsb_gate_report report;
    qsb_gate_options opt = {5.0, 0.01, QSB_CORRECTION_HOLM};
    build(&r, "vm-x", "2026-12-02T00:00:00Z", base, delta_pct, 1.0);
    CHECK(qsb_history_run_levels(h, "vm-x", "cycles", 30, &l) == QSB_OK);
    CHECK(qsb_gate_judge(&r, &l, &opt, &report) == QSB_OK);
    qsb_gate_verdict v = report.n == 2 ? report.rows[1].verdict : QSB_GATE_COUNT;
    CHECK(report.n == 2 && report.rows[0].by_median && !report.rows[1].by_median);
    CHECK(report.n == 2 && report.rows[1].history_n == 30 &&
          isfinite(report.rows[1].detectable_pct) &&
          report.rows[1].detectable3_pct < report.rows[1].detectable_pct);
    qsb_gate_report_free(&report);
    qsb_run_levels_free(&l);
    qsb_results_free(&r);
    return v;
}

/* The history's delta is 10% with a level of about 6%: +45% is a regression, the same 10% is
** not, nor is +14% (within the level), and 10% faster than the history's mean by more than
** the threshold and its spread is an improvement. */
static void test_verdicts(qsb_history *h)
{
    CHECK_EQ_U64(verdict_of(h, 45.0, 1e6), QSB_GATE_REGRESSION);
    CHECK_EQ_U64(verdict_of(h, 10.0, 1e6), QSB_GATE_SAME);
    CHECK_EQ_U64(verdict_of(h, 14.0, 1e6), QSB_GATE_SAME);
    CHECK_EQ_U64(verdict_of(h, -25.0, 1e6), QSB_GATE_IMPROVED);

    /* A row the history lacks: not judged; a run filed already: found. */
    qsb_run_levels l;
    qsb_results r;
    qsb_gate_report report;
    qsb_gate_options opt = {5.0, 0.01, QSB_CORRECTION_HOLM};
    build(&r, "vm-x", "2026-12-01T00:00:00Z", 1e6, 10.0, 1.0);
    free(r.cells[0].pattern);
    r.cells[0].pattern = strdup("sorted");
    CHECK(qsb_history_run_levels(h, "vm-x", "cycles", 30, &l) == QSB_OK);
    CHECK(qsb_gate_judge(&r, &l, &opt, &report) == QSB_OK);
    CHECK_EQ_U64(report.count[QSB_GATE_NO_HISTORY], 2);
    qsb_gate_report_free(&report);
    qsb_run_levels_free(&l);
    bool held = false;
    CHECK(qsb_history_holds_run(h, &r.context, &held) == QSB_OK && held);
    free(r.context.date);
    r.context.date = strdup("2026-12-09T00:00:00Z");
    CHECK(qsb_history_holds_run(h, &r.context, &held) == QSB_OK && !held);
    qsb_results_free(&r);
}

/* A planted step: the last 5 runs 20% slower. Against the last 30 the step is spread between
** runs (a wider level); against the last 5, a new run like them is no regression, one 20%
** slower again is. */
static void test_step(qsb_history *h, int *clock)
{
    for (size_t i = 0; i < 5; i++) {
        qsb_results r;
        char date[32];
        build(&r, "vm-x", date_at(date, 1, *clock), 1e6, 32.0 + series_normal(&rng), 1.0);
        file_run(h, &r, date, clock);
    }
    qsb_run_levels l;
    CHECK(qsb_history_run_levels(h, "vm-x", "cycles", 30, &l) == QSB_OK);
    CHECK_MSG(level_of(&l, "introsort") > 9.0, "level %g", level_of(&l, "introsort"));
    qsb_run_levels_free(&l);
    qsb_results r;
    qsb_gate_report report;
    qsb_gate_options opt = {5.0, 0.01, QSB_CORRECTION_HOLM};
    build(&r, "vm-x", "2026-12-02T00:00:00Z", 1e6, 32.0, 1.0);
    CHECK(qsb_history_run_levels(h, "vm-x", "cycles", 5, &l) == QSB_OK);
    CHECK(qsb_gate_judge(&r, &l, &opt, &report) == QSB_OK);
    CHECK(report.n == 2 && report.rows[1].verdict == QSB_GATE_SAME);
    qsb_gate_report_free(&report);
    qsb_results_free(&r);
    build(&r, "vm-x", "2026-12-02T00:00:00Z", 1e6, 58.0, 1.0);
    CHECK(qsb_gate_judge(&r, &l, &opt, &report) == QSB_OK);
    CHECK(report.n == 2 && report.rows[1].verdict == QSB_GATE_REGRESSION);
    qsb_gate_report_free(&report);
    qsb_run_levels_free(&l);
    qsb_results_free(&r);
}

/* Gives introsort's row of r two states of 20 processes, `fast` of them at speed 1e6 with
** delta d_fast, the rest at 2e6 with delta d_slow (each +-1%), and the mixture's delta. */
static void give_states(qsb_results *r, unsigned fast, double d_fast, double d_slow)
{
    qsb_row *c = &r->cells[0].rows[1];
    c->states = calloc(2, sizeof *c->states);
    CHECK(c->states != NULL);
    if (!c->states)
        return;
    c->nstates = 2;
    const double delta[] = {d_fast, d_slow}, speed[] = {1e6, 2e6};
    const unsigned processes[] = {fast, 20 - fast};
    for (size_t k = 0; k < 2; k++) {
        qsb_state_estimate *e = &c->states[k];
        e->processes = processes[k];
        e->share = processes[k] / 20.0;
        e->median = speed[k] * (1 + delta[k] / 100.0);
        e->median_lo = e->median_hi = NAN;
        e->delta_pct = delta[k];
        e->delta_lo = (1 + delta[k] / 100.0) / 1.01 * 100.0 - 100.0;
        e->delta_hi = (1 + delta[k] / 100.0) * 1.01 * 100.0 - 100.0;
    }
    double mix = (fast * d_fast + (20 - fast) * d_slow) / 20.0;
    c->delta_pct = mix;
    c->delta_lo = (1 + mix / 100.0) / 1.01 * 100.0 - 100.0;
    c->delta_hi = (1 + mix / 100.0) * 1.01 * 100.0 - 100.0;
}

/* NEW's introsort row against machine's history, with or without its states. */
static qsb_gate_row judge_with_states(qsb_history *h, const char *machine, double d_fast,
                                      bool states, const char *table_has)
{
    qsb_run_levels l;
    qsb_results r;
    qsb_gate_report report;
    qsb_gate_options opt = {5.0, 0.01, QSB_CORRECTION_HOLM};
    qsb_gate_row g = {0};
    g.verdict = QSB_GATE_COUNT;
    build(&r, machine, "2026-12-03T00:00:00Z", 1e6, 0.0, 1.0);
    give_states(&r, 10, d_fast, 30.0);
    if (!states) {
        free(r.cells[0].rows[1].states);
        r.cells[0].rows[1].states = NULL;
        r.cells[0].rows[1].nstates = 0;
    }
    CHECK(qsb_history_run_levels(h, machine, "cycles", 30, &l) == QSB_OK);
    CHECK(qsb_gate_judge(&r, &l, &opt, &report) == QSB_OK);
    if (report.n == 2)
        g = report.rows[1];
    FILE *fp = tmpfile(), *json = tmpfile();
    CHECK(fp && json);
    if (fp && json) { /* the state's speed in the table and the JSON where a state decided */
        qsb_gate_write_table(fp, &report, &opt);
        CHECK(qsb_gate_write_json(json, &report, &opt) == QSB_OK);
        char *text = captured(fp), *doc = captured(json);
        bool says_state = text && strstr(text, "(state at") != NULL;
        CHECK_MSG(text && (table_has ? strstr(text, table_has) != NULL
                                     : says_state == (g.states_tested > 0)),
                  "%s", text ? text : "");
        CHECK(doc && (strstr(doc, "\"state_speed\"") != NULL) == (g.states_tested > 0));
        free(text);
        free(doc);
    }
    qsb_gate_report_free(&report);
    qsb_run_levels_free(&l);
    qsb_results_free(&r);
    return g;
}

/* A candidate at two speeds of its processes, +2% at the fast one and +30% at the slow one,
** their shares moving from run to run (6 to 14 of 20 processes fast): the mixture's delta
** moves with the shares, so its level is wide. A new run whose fast state is 10% slower is
** within that level as a mixture, and a regression of its fast state judged state by state;
** one like the history is the same either way. */
static void test_states(qsb_history *h, int *clock)
{
    for (size_t i = 0; i < 30; i++) {
        qsb_results r;
        char date[32];
        build(&r, "states", date_at(date, 2, *clock), 1e6, 0.0, 1.0);
        give_states(&r, 6 + (unsigned)(i * 7 % 9), 2.0 + 0.3 * series_normal(&rng),
                    30.0 + 0.3 * series_normal(&rng));
        file_run(h, &r, date, clock);
    }
    double slower = (1.02 * 1.10 - 1) * 100.0;
    qsb_gate_row g = judge_with_states(h, "states", slower, false, NULL);
    CHECK_EQ_U64(g.verdict, QSB_GATE_SAME);
    CHECK(g.states_tested == 0 && g.history_n == 30 && g.level_pct > 5.0);
    g = judge_with_states(h, "states", slower, true, "REGRESSION (state at 1122000)");
    CHECK_EQ_U64(g.verdict, QSB_GATE_REGRESSION);
    CHECK(g.states_tested == 2 && g.history_n == 30 && g.level_pct < 2.0 &&
          near(g.state_speed, 1.122e6, 1.0) && near(g.change_pct, 10.0, 1.0));
    g = judge_with_states(h, "states", 2.0, true, NULL);
    CHECK_EQ_U64(g.verdict, QSB_GATE_SAME);
    CHECK(g.states_tested == 2);

    /* A history without states: NEW's row with states is judged as a whole, exactly as
    ** without them. */
    qsb_gate_row with = judge_with_states(h, "vm-x", slower, true, NULL);
    qsb_gate_row without = judge_with_states(h, "vm-x", slower, false, NULL);
    CHECK(with.states_tested == 0 && with.verdict == without.verdict &&
          with.history_n == without.history_n && with.p == without.p &&
          with.change_pct == without.change_pct && with.detectable_pct == without.detectable_pct);
}

/* The verdict on introsort's row of a run of machine whose delta is delta_pct, with its 95%
** interval of +-within_pct, against the machine's last 30 runs (threshold 0, alpha 5%). */
static qsb_gate_verdict gate_delta(qsb_history *h, const char *machine, double delta_pct,
                                   double within_pct, double *delta_scale)
{
    qsb_run_levels l;
    qsb_results r;
    qsb_gate_report report;
    qsb_gate_options opt = {0.0, 0.05, QSB_CORRECTION_HOLM};
    build(&r, machine, "2026-12-02T00:00:00Z", 1e6, delta_pct, within_pct);
    CHECK(qsb_history_run_levels(h, machine, "cycles", 30, &l) == QSB_OK);
    CHECK(qsb_gate_judge(&r, &l, &opt, &report) == QSB_OK);
    qsb_gate_verdict v = report.n == 2 ? report.rows[1].verdict : QSB_GATE_COUNT;
    *delta_scale = report.delta_scale;
    qsb_gate_report_free(&report);
    qsb_run_levels_free(&l);
    qsb_results_free(&r);
    return v;
}

/* Runs whose own intervals (+-4%, an sd of 2% on the log scale) are twice as wide as their
** scatter (sd 1%): the dispersion, Q over its degrees of freedom, is about (1 / 2)^2, and each
** view's variances, the new run's too, are scaled by it; +14% against the history's 10% is
** then a regression, as its true spread makes it (z about 3.5), where the intervals as given
** would call it the same (z about 1.8: one-sided p 0.04, above Holm's first 0.025). Under 30
** degrees of freedom a view is not scaled: one row of 30 runs has 29, a second row (another
** pattern's runs) brings them to 58. A machine whose intervals are right (a host level of sd
** 3% about intervals of +-1%) keeps them: 1. */
static void test_dispersion(qsb_history *h, int *clock)
{
    double scale;
    file_runs(h, "wide", 30, 1.0, 4.0, clock);
    CHECK_EQ_U64(gate_delta(h, "wide", 14.0, 4.0, &scale), QSB_GATE_SAME);
    CHECK(scale == 1.0);
    for (size_t i = 0; i < 30; i++) {
        qsb_results r;
        char date[32];
        double move = series_normal(&rng);
        build(&r, "wide", date_at(date, 2, *clock), 1e6 * (1 + move / 100.0), 10.0 + move,
              4.0);
        free(r.cells[0].pattern);
        r.cells[0].pattern = strdup("sorted");
        file_run(h, &r, date, clock);
    }
    CHECK_EQ_U64(gate_delta(h, "wide", 14.0, 4.0, &scale), QSB_GATE_REGRESSION);
    CHECK_MSG(scale > 0.12 && scale < 0.4, "scale %g", scale);
    CHECK_EQ_U64(gate_delta(h, "wide", 10.0, 4.0, &scale), QSB_GATE_SAME);
    CHECK_EQ_U64(gate_delta(h, "vm-x", 14.0, 1.0, &scale), QSB_GATE_SAME);
    CHECK(scale == 1.0);
}

/* A machine whose runs move no more than their own intervals (width 1% about the delta, no
** host level): its level is estimated as 0, which is said as "none seen", never as +-0.00%. */
static void test_level_none_seen(qsb_history *h, int *clock)
{
    file_runs(h, "still", 8, 0.0, 1.0, clock);
    qsb_run_levels l;
    CHECK(qsb_history_run_levels(h, "still", "cycles", 30, &l) == QSB_OK);
    CHECK(qsb_run_levels_median_pct(&l) == 0.0);
    FILE *fp = tmpfile();
    CHECK(fp != NULL);
    if (fp) {
        qsb_run_levels_write(fp, &l, "still");
        char *text = captured(fp);
        CHECK_MSG(text && strstr(text, "still: run level none seen") && !strstr(text, "0.00"),
                  "%s", text ? text : "");
        free(text);
    }
    qsb_run_levels_free(&l);
}

int main(void)
{
    test_hand_worked();
    if (!mkdtemp(dir))
        return 1;
    char path[256];
    snprintf(path, sizeof path, "%s/h.sqlite", dir);
    qsb_history *h;
    CHECK(qsb_history_open(path, QSB_HISTORY_CREATE, &h) == QSB_OK);
    int clock = 0;
    test_levels(h, &clock);
    test_verdicts(h);
    test_step(h, &clock);
    test_states(h, &clock);
    test_level_none_seen(h, &clock);
    test_dispersion(h, &clock);
    qsb_history_close(h);
    char wal[300], shm[300];
    snprintf(wal, sizeof wal, "%s-wal", path);
    snprintf(shm, sizeof shm, "%s-shm", path);
    unlink(wal);
    unlink(shm);
    unlink(path);
    rmdir(dir);
    return check_done();
}
