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

/* The one-sided p of "the row's paired ratio is at most 1 + pct / 100" over its units, their
** spread widened by the run's drift factor; NAN when untestable (fewer than 2 units, or no
** units). *units gets the count. */
static double gate_p(const qsb_row *base, const qsb_row *row, double pct, double drift,
                     size_t *units)
{
    *units = 0;
    size_t n = row->nsamples < base->nsamples ? row->nsamples : base->nsamples;
    if (!row->units || n == 0)
        return NAN;
    qsb_unit_spread s;
    if (qsb_paired_ratio_spread(base->samples, row->samples, row->units, n, &s) != 0)
        return NAN;
    *units = s.units;
    if (s.units < 2 || !isfinite(s.log_sd))
        return NAN;
    return qsb_one_sided_p(s.log_mean, drift * s.log_sd / sqrt((double)s.units),
                           (double)(s.units - 1), log1p(pct / 100.0));
}

/* gate_p state by state where the row has states (compare_states.h): each state's units
** tested alone, the smallest p times the states tested (Bonferroni within the row); *delta_pct
** the geometric mean delta of that state, *speed its speed. NAN when no state is testable, or
** out of memory. */
static double gate_states_p(const qsb_cell *cell, size_t i, double pct, double drift,
                            double *delta_pct, double *speed)
{
    const qsb_row *base = &cell->rows[0], *row = &cell->rows[i];
    size_t n = row->nsamples < base->nsamples ? row->nsamples : base->nsamples;
    qsb_row_state_map m = {0};
    double *x = malloc(2 * (n ? n : 1) * sizeof *x);
    uint32_t *units = malloc((n ? n : 1) * sizeof *units);
    double *ratios = x ? x + n : NULL, best = NAN;
    size_t tested = 0;
    qsb_state_key key = qsb_state_key_of(cell, cell, i);
    bool ok = x && units && row->units && qsb_row_state_map_of(cell, i, key, &m) == 0;
    for (size_t k = 0; ok && k < m.count; k++) {
        for (size_t j = 0; j < n; j++)
            ratios[j] = base->samples[j] > 0 ? row->samples[j] / base->samples[j] : NAN;
        size_t kept = qsb_state_samples(&m, k, ratios, row->units, n, x, units);
        qsb_unit_spread s;
        if (qsb_unit_spread_of(x, units, kept, &s) != 0 || s.units < 2 || !isfinite(s.log_sd))
            continue;
        double p = qsb_one_sided_p(s.log_mean, drift * s.log_sd / sqrt((double)s.units),
                                   (double)(s.units - 1), log1p(pct / 100.0));
        tested++;
        if (isnan(best) || p < best) {
            best = p;
            *delta_pct = expm1(s.log_mean) * 100.0;
            *speed = m.speed[k];
        }
    }
    qsb_row_state_map_free(&m);
    free(x);
    free(units);
    return ok && tested ? fmin(1.0, best * (double)tested) : NAN;
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

int qsb_gate_fail_above(const qsb_results *r, double pct, double alpha, qsb_correction corr)
{
    bool exact = r->context.metric && strcmp(r->context.metric, "comparisons") == 0;
    size_t n = 0;
    for (size_t c = 0; c < r->ncells; c++)
        n += r->cells[c].nrows ? r->cells[c].nrows - 1 : 0;
    double *p = malloc(4 * (n ? n : 1) * sizeof *p);
    if (!p)
        return qsb_out_of_memory("--fail-above");
    double *adj = p + n, *state_delta = p + 2 * n, *state_speed = p + 3 * n;
    size_t k = 0, untestable = 0, units;
    for (size_t c = 0; c < r->ncells; c++)
        for (size_t i = 1; i < r->cells[c].nrows; i++, k++) {
            const qsb_row *row = &r->cells[c].rows[i];
            bool timed = !exact && row->verified && r->cells[c].rows[0].verified;
            state_delta[k] = state_speed[k] = NAN;
            if (timed && row->states)
                p[k] = gate_states_p(&r->cells[c], i, pct, qsb_drift_of_ratios(&r->context),
                                     &state_delta[k], &state_speed[k]);
            else
                p[k] = timed ? gate_p(&r->cells[c].rows[0], row, pct,
                                      qsb_drift_of_ratios(&r->context), &units)
                             : NAN;
            untestable += timed && isnan(p[k]) && row->delta_pct > pct;
        }
    long m = qsb_adjust_p(p, n, corr, adj);
    if (m < 0) {
        free(p);
        return qsb_out_of_memory("--fail-above");
    }
    size_t flagged = 0;
    k = 0;
    for (size_t c = 0; c < r->ncells; c++)
        for (size_t i = 1; i < r->cells[c].nrows; i++, k++) {
            const qsb_row *row = &r->cells[c].rows[i];
            char why[240];
            bool by_state = !isnan(state_delta[k]);
            double delta = by_state ? state_delta[k] : row->delta_pct;
            if (!row->verified || !(delta > pct))
                continue;
            if (exact)
                snprintf(why, sizeof why, "exact counts");
            else if (!isnan(adj[k]) && adj[k] < alpha) {
                char state[96] = "";
                if (by_state)
                    snprintf(state, sizeof state, "%+.2f%% in its state at %.0f; ", delta,
                             state_speed[k]);
                snprintf(why, sizeof why, "%sone-sided p %.2g over units, adjusted (%s) %.2g < "
                         "%g over %ld candidate rows", state, p[k], qsb_correction_name(corr),
                         adj[k], alpha, m);
            }
            else
                continue;
            flagged++;
            gate_report(r, &r->cells[c], row, pct, why);
        }
    free(p);
    if (untestable)
        qsb_warning("--fail-above %g: %zu candidate row%s above it could not be tested "
                    "(fewer than 2 units) and do%s not fail the gate: run with --reps 10 or "
                    "more, or without --reps", pct, untestable, untestable == 1 ? "" : "s",
                    untestable == 1 ? "es" : "");
    return flagged ? QSB_FINDING : QSB_OK;
}
