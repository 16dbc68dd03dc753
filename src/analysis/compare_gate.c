/*
** `run --fail-above PCT` (compare.h): each verified candidate row of a run tested against its
** cell's baseline over units (state by state where the row has states), the p-values corrected
** over every candidate row, each row slower than PCT beyond alpha reported.
*/
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "compare.h"
#include "compare_match.h"
#include "compare_states.h"
#include "diag.h"
#include "stats.h"

/* What the gate's test of one candidate row found. */
typedef struct {
    double p;        /* one-sided p of "slower than pct", before the correction; NAN: untested */
    double reach;    /* the top of the tested delta's 95% interval, in percent (of the state
                     ** reaching furthest for a row with states); NAN when untested */
    double delta;    /* by state: the delta of the state tested most clearly slower; NAN for a
                     ** row tested as a whole */
    double speed;    /* that state's speed */
    double se, df;   /* the log delta's standard error and degrees of freedom (of the state
                     ** measured most closely, for a row with states), from which the change the
                     ** gate can see is said; NAN when untested */
    double tests;    /* the tests within the row: 1, or its states tested */
} gate_test;

#define UNTESTED ((gate_test){NAN, NAN, NAN, NAN, NAN, NAN, 0.0})

/* The test of one spread of units' log paired ratios against log(1 + pct / 100), the spread
** widened by the run's drift factor: its p, and in *g the top of its interval, its standard
** error and its degrees of freedom. NAN when untestable (fewer than 2 units). */
static double spread_p(const qsb_unit_spread *s, double pct, double drift, gate_test *g)
{
    if (s->units < 2 || !isfinite(s->log_sd))
        return NAN;
    g->se = drift * s->log_sd / sqrt((double)s->units);
    g->df = (double)(s->units - 1);
    g->reach = expm1(s->log_mean + qsb_t_quantile(0.975, g->df) * g->se) * 100.0;
    return qsb_one_sided_p(s->log_mean, g->se, g->df, log1p(pct / 100.0));
}

/* The row tested over its units as a whole. */
static gate_test gate_row(const qsb_row *base, const qsb_row *row, double pct, double drift)
{
    gate_test g = UNTESTED;
    size_t n = row->nsamples < base->nsamples ? row->nsamples : base->nsamples;
    qsb_unit_spread s;
    if (row->units && n > 0 &&
        qsb_paired_ratio_spread(base->samples, row->samples, row->units, n, &s) == 0)
        g.p = spread_p(&s, pct, drift, &g);
    g.tests = isnan(g.p) ? 0.0 : 1.0;
    return g;
}

/* The row tested state by state (compare_states.h): each state's units tested alone, the
** smallest p times the states tested (Bonferroni within the row). NAN p when no state is
** testable, or out of memory. */
static gate_test gate_states(const qsb_cell *cell, size_t i, double pct, double drift)
{
    gate_test g = UNTESTED;
    const qsb_row *base = &cell->rows[0], *row = &cell->rows[i];
    size_t n = row->nsamples < base->nsamples ? row->nsamples : base->nsamples;
    qsb_row_state_map m = {0};
    double *x = malloc(2 * (n ? n : 1) * sizeof *x);
    uint32_t *units = malloc((n ? n : 1) * sizeof *units);
    double *ratios = x ? x + n : NULL;
    size_t tested = 0;
    qsb_state_key key = qsb_state_key_of(cell, cell, i);
    bool ok = x && units && row->units && qsb_row_state_map_of(cell, i, key, &m) == 0;
    for (size_t k = 0; ok && k < m.count; k++) {
        for (size_t j = 0; j < n; j++)
            ratios[j] = base->samples[j] > 0 ? row->samples[j] / base->samples[j] : NAN;
        size_t kept = qsb_state_samples(&m, k, ratios, row->units, n, x, units);
        qsb_unit_spread s;
        gate_test state = UNTESTED;
        double p = qsb_unit_spread_of(x, units, kept, &s) == 0 ? spread_p(&s, pct, drift, &state)
                                                                : NAN;
        if (isnan(p))
            continue;
        tested++;
        g.reach = isnan(g.reach) || state.reach > g.reach ? state.reach : g.reach;
        if (isnan(g.se) || state.se < g.se) {
            g.se = state.se;
            g.df = state.df;
        }
        if (isnan(g.p) || p < g.p) {
            g.p = p;
            g.delta = expm1(s.log_mean) * 100.0;
            g.speed = m.speed[k];
        }
    }
    qsb_row_state_map_free(&m);
    free(x);
    free(units);
    if (!ok || !tested)
        return UNTESTED;
    g.p = fmin(1.0, g.p * (double)tested);
    g.tests = (double)tested;
    return g;
}

static void gate_report(const qsb_results *r, const qsb_cell *cell, const qsb_row *row,
                        double pct, const char *why)
{
    qsb_error(QSB_FINDING, "--fail-above %g: %s is %+.2f%% against %s on %s/%llu/%llu (%s)",
              pct, qsb_quote(row->algorithm), row->delta_pct,
              qsb_quote(r->baseline ? r->baseline : cell->rows[0].algorithm),
              qsb_quote(cell->pattern), (unsigned long long)cell->nelem,
              (unsigned long long)cell->size, why);
}

/* Every candidate row of r tested (t[k], k over the candidate rows in order); the timed rows
** above pct that could not be tested counted into *untestable. */
static void test_rows(const qsb_results *r, bool exact, double pct, gate_test *t, double *p,
                      size_t *untestable)
{
    double drift = compare_drift(&r->context, true);
    size_t k = 0;
    for (size_t c = 0; c < r->ncells; c++)
        for (size_t i = 1; i < r->cells[c].nrows; i++, k++) {
            const qsb_cell *cell = &r->cells[c];
            const qsb_row *row = &cell->rows[i];
            bool timed = !exact && row->verified && cell->rows[0].verified;
            t[k] = !timed       ? UNTESTED
                   : row->states ? gate_states(cell, i, pct, drift)
                                 : gate_row(&cell->rows[0], row, pct, drift);
            p[k] = t[k].p;
            *untestable += timed && isnan(t[k].p) && row->delta_pct > pct;
        }
}

/* Reports each row the gate fails on (adj: the p-values corrected over the m tests); returns
** how many, and counts into *unresolved the tested rows it passes whose interval reaches
** beyond pct. */
static size_t report_rows(const qsb_results *r, bool exact, double pct, double alpha,
                          qsb_correction corr, const gate_test *t, const double *adj, long m,
                          size_t *unresolved)
{
    size_t flagged = 0, k = 0;
    for (size_t c = 0; c < r->ncells; c++)
        for (size_t i = 1; i < r->cells[c].nrows; i++, k++) {
            const qsb_row *row = &r->cells[c].rows[i];
            char why[240];
            bool by_state = !isnan(t[k].delta);
            double delta = by_state ? t[k].delta : row->delta_pct;
            bool fails = row->verified && delta > pct &&
                         (exact || (!isnan(adj[k]) && adj[k] < alpha));
            *unresolved += !fails && !isnan(t[k].p) && t[k].reach > pct;
            if (!fails)
                continue;
            if (exact)
                snprintf(why, sizeof why, "exact counts");
            else {
                char state[96] = "";
                if (by_state)
                    snprintf(state, sizeof state, "%+.2f%% in its state at %.0f; ", delta,
                             t[k].speed);
                snprintf(why, sizeof why, "%sone-sided p %.2g over units, adjusted (%s) %.2g < "
                         "%g over %ld candidate rows", state, t[k].p, qsb_correction_name(corr),
                         adj[k], alpha, m);
            }
            flagged++;
            gate_report(r, &r->cells[c], row, pct, why);
        }
    return flagged;
}

static void warn_passed_rows(double pct, size_t untestable, size_t unresolved)
{
    if (untestable)
        qsb_warning("--fail-above %g: %zu candidate row%s above it could not be tested "
                    "(fewer than 2 units) and do%s not fail the gate: run with --reps 10 or "
                    "more, or without --reps", pct, untestable, untestable == 1 ? "" : "s",
                    untestable == 1 ? "es" : "");
    if (unresolved)
        qsb_warning("--fail-above %g: %zu candidate row%s unresolved: not shown slower than "
                    "%g%%, but %s 95%% interval%s reach%s beyond it, so a regression of that "
                    "size is not ruled out; a longer --budget narrows %s", pct, unresolved,
                    unresolved == 1 ? " is" : "s are", pct, unresolved == 1 ? "its" : "their",
                    unresolved == 1 ? "" : "s", unresolved == 1 ? "es" : "",
                    unresolved == 1 ? "it" : "them");
}

/* The median over the tested rows of the smallest slowdown each row's test catches with 80%
** power, at the first of Holm's steps (alpha over the m tests, and over the row's states);
** NAN when no row was tested. */
static double median_detectable(const gate_test *t, size_t n, double pct, double alpha, long m)
{
    double *v = malloc((n ? n : 1) * sizeof *v);
    for (size_t k = 0; v && k < n; k++)
        v[k] = t[k].tests > 0 ? qsb_detectable_pct(pct, t[k].se, alpha / ((double)m * t[k].tests),
                                                   t[k].df)
                              : NAN;
    double median = v ? qsb_median_of_finite(v, n) : NAN;
    free(v);
    return median;
}

/* The change the gate sees, and that it is seen within this run: its processes are the units,
** and how far a whole run moves from the next is not in their spread. */
static void say_detectable(double pct, double detectable)
{
    if (!isfinite(detectable))
        return;
    qsb_note("--fail-above %g: this gate sees slowdowns above %.1f%% (median row), within this "
             "run only: how far whole runs move is not in it (compare --history DB adds it)",
             pct, detectable);
    qsb_note("--fail-above %g: a pass rules out slowdowns above %.1f%%, not every one above "
             "%g%%; a longer --budget narrows the gap", pct, detectable, pct);
}

int qsb_gate_fail_above(const qsb_results *r, double pct, double alpha, qsb_correction corr,
                        double *detectable_pct)
{
    bool exact = r->context.metric && strcmp(r->context.metric, "comparisons") == 0;
    size_t n = 0;
    for (size_t c = 0; c < r->ncells; c++)
        n += r->cells[c].nrows ? r->cells[c].nrows - 1 : 0;
    size_t room = n ? n : 1;
    gate_test *t = calloc(room, sizeof *t);
    double *p = malloc(2 * room * sizeof *p);
    if (!t || !p) {
        free(t);
        free(p);
        return qsb_out_of_memory("--fail-above");
    }
    double *adj = p + room;
    size_t untestable = 0, unresolved = 0, flagged = 0;
    test_rows(r, exact, pct, t, p, &untestable);
    long m = qsb_adjust_p(p, n, corr, adj);
    double detectable = m > 0 ? median_detectable(t, n, pct, alpha, m) : NAN;
    if (m >= 0)
        flagged = report_rows(r, exact, pct, alpha, corr, t, adj, m, &unresolved);
    free(t);
    free(p);
    if (m < 0)
        return qsb_out_of_memory("--fail-above");
    warn_passed_rows(pct, untestable, unresolved);
    say_detectable(pct, detectable);
    if (detectable_pct)
        *detectable_pct = detectable;
    return flagged ? QSB_FINDING : QSB_OK;
}
