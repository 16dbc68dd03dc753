/*
** States between two runs: found again from the samples, matched by speed (compare_states.h).
*/
#include "compare_states.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

/* The row whose speeds define row i's states in its run: the baseline's when it has states. */
static const qsb_row *defining_row(const qsb_cell *cell, size_t i)
{
    const qsb_row *base = &cell->rows[0];
    return i > 0 && base->verified && base->states ? base : &cell->rows[i];
}

qsb_state_key qsb_state_key_of(const qsb_cell *a, const qsb_cell *b, size_t i)
{
    return i > 0 && (a->rows[0].states || b->rows[0].states) ? QSB_STATES_BY_BASELINE
                                                              : QSB_STATES_BY_ROW;
}

bool qsb_row_shows_states(const qsb_cell *cell, size_t i)
{
    return cell->rows[i].states || defining_row(cell, i)->states;
}

int qsb_row_state_map_of(const qsb_cell *cell, size_t i, qsb_state_key key,
                         qsb_row_state_map *out)
{
    memset(out, 0, sizeof *out);
    const qsb_row *by = key == QSB_STATES_BY_BASELINE ? &cell->rows[0] : &cell->rows[i];
    size_t cap = qsb_row_unit_count(by);
    const qsb_row *row = &cell->rows[i];
    size_t row_cap = qsb_row_unit_count(row);
    out->units_cap = cap > row_cap ? cap : row_cap;
    out->unit_state = malloc(out->units_cap ? out->units_cap : 1);
    qsb_states s;
    if (!out->unit_state || qsb_states_of(by->samples, by->units, by->nsamples, &s) != 0)
        return -1;
    if (s.count < 2) { /* one speed: every unit with samples in state 0 */
        out->count = 1;
        out->speed[0] = by->summary.median;
        memset(out->unit_state, QSB_NO_STATE, out->units_cap);
        for (size_t k = 0; by->units && k < by->nsamples; k++)
            out->unit_state[by->units[k]] = 0;
        return 0;
    }
    qsb_state_estimate est[QSB_STATES_MAX];
    if (qsb_state_estimates(&s, by->samples, by->samples, NULL, by->units, by->nsamples, est) != 0 ||
        qsb_states_of_units(&s, by->samples, by->units, by->nsamples, out->unit_state,
                            out->units_cap) != 0)
        return -1;
    out->count = s.count;
    for (size_t k = 0; k < s.count; k++)
        out->speed[k] = est[k].median;
    return 0;
}

void qsb_row_state_map_free(qsb_row_state_map *m)
{
    free(m->unit_state);
    memset(m, 0, sizeof *m);
}

size_t qsb_state_samples(const qsb_row_state_map *m, size_t k, const double *x,
                         const uint32_t *units, size_t n, double *out_x, uint32_t *out_units)
{
    size_t kept = 0;
    for (size_t i = 0; units && i < n; i++)
        if (units[i] < m->units_cap && m->unit_state[units[i]] == k) {
            out_x[kept] = x[i];
            out_units[kept++] = units[i];
        }
    return kept;
}
