/*
** Results read in full and read slim compared row by row (slim_check.h).
*/
#include "slim_check.h"

#include <math.h>
#include <string.h>

#include "check.h"

static bool same_text(const char *a, const char *b)
{
    return (!a && !b) || (a && b && strcmp(a, b) == 0);
}

/* The same states, figure for figure. */
static bool same_states(const qsb_row *a, const qsb_row *b)
{
    if (a->nstates != b->nstates || !a->states != !b->states)
        return false;
    for (size_t k = 0; k < a->nstates; k++) {
        const qsb_state_estimate *x = &a->states[k], *y = &b->states[k];
        if (x->processes != y->processes || !same_double(x->share, y->share) ||
            !same_double(x->median, y->median) || !same_double(x->delta_pct, y->delta_pct) ||
            !same_double(x->delta_lo, y->delta_lo) || !same_double(x->delta_hi, y->delta_hi))
            return false;
    }
    return true;
}

bool same_double(double a, double b)
{
    return (isnan(a) && isnan(b)) || memcmp(&a, &b, sizeof a) == 0;
}

static void check_same_row(const char *what, const qsb_row *f, const qsb_slim_row *s)
{
    qsb_row v;
    qsb_slim_row_view(s, &v);
    CHECK_MSG(strcmp(f->algorithm, v.algorithm) == 0, "%s: algorithm", what);
    CHECK_MSG(f->nsamples == v.nsamples, "%s %s: %zu samples, slim %zu", what, f->algorithm,
              f->nsamples, v.nsamples);
    CHECK_MSG(f->nsamples == 0 ||
                  memcmp(f->samples, v.samples, f->nsamples * sizeof *f->samples) == 0,
              "%s %s: samples", what, f->algorithm);
    CHECK_MSG(!f->units == !v.units, "%s %s: units present", what, f->algorithm);
    CHECK_MSG(!f->units || f->nsamples == 0 ||
                  memcmp(f->units, v.units, f->nsamples * sizeof *f->units) == 0,
              "%s %s: units", what, f->algorithm);
    CHECK_MSG(same_double(f->summary.median, v.summary.median), "%s %s: median", what,
              f->algorithm);
    CHECK_MSG(f->comparisons == v.comparisons && f->verified == v.verified,
              "%s %s: comparisons, verified", what, f->algorithm);
    CHECK_MSG(same_text(f->failure, v.failure) && same_states(f, &v),
              "%s %s: failure, states", what, f->algorithm);
}

void check_same_rows(const char *what, const qsb_results *full, const qsb_results *slim)
{
    CHECK_MSG(full->ncells == slim->ncells, "%s: %zu cells, slim %zu", what, full->ncells,
              slim->ncells);
    CHECK_MSG(same_text(full->baseline, slim->baseline), "%s: baseline", what);
    for (size_t c = 0; c < full->ncells && c < slim->ncells; c++) {
        const qsb_cell *f = &full->cells[c], *s = &slim->cells[c];
        CHECK_MSG(strcmp(f->pattern, s->pattern) == 0 && f->nelem == s->nelem &&
                      f->size == s->size && f->nrows == s->nrows,
                  "%s: cell %zu", what, c);
        CHECK_MSG(s->slim_rows && !f->slim_rows, "%s: cell %zu's form", what, c);
        for (size_t i = 0; i < f->nrows && i < s->nrows && s->slim_rows; i++)
            check_same_row(what, &f->rows[i], &s->slim[i]);
    }
}
