/*
** The processes of a run's states against what the precision needs (state_needs.h).
*/
#include "state_needs.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>


size_t qsb_state_need(size_t m, double half_pct, double precision_pct)
{
    if (m < QSB_STATE_MIN_UNITS || !isfinite(half_pct) || !(precision_pct > 0))
        return QSB_STATE_MIN_UNITS;
    double ratio = half_pct / precision_pct;
    double need = ceil((double)m * ratio * ratio - 1e-9);
    if (need >= QSB_STATE_NEED_CAP)
        return QSB_STATE_NEED_CAP;
    return need > QSB_STATE_MIN_UNITS ? (size_t)need : QSB_STATE_MIN_UNITS;
}

/* A state's half-width, % of its paired ratio (1 + delta / 100): the larger side of its
** interval; NAN without one. */
static double state_half_pct(const qsb_state_estimate *s)
{
    if (!isfinite(s->delta_lo) || !isfinite(s->delta_hi) || !(s->delta_pct > -100))
        return NAN;
    return fmax(s->delta_hi - s->delta_pct, s->delta_pct - s->delta_lo) /
           (100.0 + s->delta_pct) * 100.0;
}

static int by_size(const void *a, const void *b)
{
    size_t x = *(const size_t *)a, y = *(const size_t *)b;
    return (x > y) - (x < y);
}

/* The median of v[0..n) (n > 0; sorted in place by libc's qsort, never a sort under test). */
static size_t median_of(size_t *v, size_t n)
{
    qsort(v, n, sizeof *v, by_size);
    return v[n / 2];
}

/* The states the candidate's row has to count: none when it failed. */
static size_t row_states(const qsb_row *row)
{
    return row->verified ? row->nstates : 0;
}

void qsb_state_needs_of(const qsb_results *r, double precision_pct, qsb_state_needs *out)
{
    memset(out, 0, sizeof *out);
    for (size_t c = 0; c < r->ncells; c++) /* the most states any row has */
        for (size_t i = 1; i < r->cells[c].nrows; i++) {
            size_t n = row_states(&r->cells[c].rows[i]);
            out->states = n > out->states ? n : out->states;
        }
    size_t rows = 0, total = 0;
    for (size_t c = 0; c < r->ncells; c++)
        total += r->cells[c].nrows;
    size_t *got = malloc((total ? total : 1) * QSB_STATES_MAX * sizeof *got);
    size_t *need = malloc((total ? total : 1) * QSB_STATES_MAX * sizeof *need);
    for (size_t c = 0; got && need && out->states && c < r->ncells; c++)
        for (size_t i = 1; i < r->cells[c].nrows; i++) {
            const qsb_state_estimate *s = r->cells[c].rows[i].states;
            if (row_states(&r->cells[c].rows[i]) != out->states)
                continue;
            for (size_t k = 0; k < out->states; k++) {
                got[k * total + rows] = s[k].processes;
                need[k * total + rows] =
                    qsb_state_need(s[k].processes, state_half_pct(&s[k]), precision_pct);
            }
            rows++;
        }
    out->rows = rows;
    for (size_t k = 0; rows > 0 && k < out->states; k++) {
        out->got[k] = median_of(got + k * total, rows);
        out->need[k] = median_of(need + k * total, rows);
    }
    if (rows == 0)
        out->states = 0;
    free(got);
    free(need);
}

size_t qsb_state_needs_words(const qsb_state_needs *n, double precision_pct, char *buf,
                             size_t len)
{
    if (len == 0)
        return 0;
    buf[0] = '\0';
    if (n->states == 0)
        return 0;
    size_t used = (size_t)snprintf(buf, len, "the states got ");
    for (size_t k = 0; k < n->states && used < len; k++)
        used += (size_t)snprintf(buf + used, len - used, "%s%zu", k ? " / " : "", n->got[k]);
    if (used < len)
        used += (size_t)snprintf(buf + used, len - used,
                                 " processes (median over the %zu row%s with %zu states); "
                                 "+-%g%% would take about ",
                                 n->rows, n->rows == 1 ? "" : "s", n->states, precision_pct);
    for (size_t k = 0; k < n->states && used < len; k++)
        used += (size_t)snprintf(buf + used, len - used, "%s%s%zu", k ? " / " : "",
                                 n->need[k] >= QSB_STATE_NEED_CAP ? "more than " : "",
                                 n->need[k]);
    if (used < len)
        used += (size_t)snprintf(buf + used, len - used, " processes each");
    return used < len ? used : len - 1;
}
