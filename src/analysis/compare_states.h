/*
** States between two runs (docs/measurement.md, "Compare and the gates"): a row's processes
** grouped by the states of the row that defines them (the cell's baseline when its row has
** states, else the row itself), found again from the samples exactly as the run found them
** (stats states.h), and two runs' states matched by that row's speed: mutual nearest on the
** log scale, at most QSB_STATE_MATCH_RATIO apart. A row without states is one state of all
** its processes, so that rows without states anywhere compare as before.
*/
#ifndef QSB_COMPARE_STATES_H
#define QSB_COMPARE_STATES_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "result.h"
#include "states.h"

typedef struct {
    size_t count;                 /* states, 1 for a row without */
    double speed[QSB_STATES_MAX]; /* the defining row's median in each state */
    uint8_t *unit_state;          /* state of each unit id (QSB_NO_STATE: none), units_cap */
    size_t units_cap;
} qsb_row_state_map;

/* Whether row i of cell, or the row that defines its states, has states in its file. */
bool qsb_row_shows_states(const qsb_cell *cell, size_t i);

/* Which row's speeds key a candidate's states in both runs alike: its baseline's when either
** run's baseline row has states, else its own. */
typedef enum { QSB_STATES_BY_ROW, QSB_STATES_BY_BASELINE } qsb_state_key;

/* The key of row i of two runs' matching cells (a baseline row: by itself). */
qsb_state_key qsb_state_key_of(const qsb_cell *a, const qsb_cell *b, size_t i);

/* The state map of row i of cell, its units grouped by the states of the row the key names
** (one state of all units where that row has none). Returns 0, or -1 when out of memory. Free
** with qsb_row_state_map_free. */
int qsb_row_state_map_of(const qsb_cell *cell, size_t i, qsb_state_key key,
                         qsb_row_state_map *out);
void qsb_row_state_map_free(qsb_row_state_map *m);

/* The samples of x[0..n) (sample i in units[i]) whose unit is in state k of m, into out_x and
** out_units (n long each); their count. */
size_t qsb_state_samples(const qsb_row_state_map *m, size_t k, const double *x,
                         const uint32_t *units, size_t n, double *out_x, uint32_t *out_units);

#endif
