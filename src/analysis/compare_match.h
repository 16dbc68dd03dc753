/*
** What compare, its calibration and the --fail-above gate share (inside compare only, so that
** `qsb_` marks compare's API): rows of two results matched by key (pattern, nelem, size,
** algorithm), the two results checked for one metric, and the drift factor a run widened its
** intervals by.
*/
#ifndef QSB_COMPARE_MATCH_H
#define QSB_COMPARE_MATCH_H

#include <stdbool.h>
#include <stddef.h>

#include "result.h"

typedef struct {
    const qsb_cell *cell;
    const char *algorithm; /* the row's (its cell's rows are full or slim, result.h) */
    size_t row;            /* its index in the cell */
    bool matched;
} qsb_row_ref;

/* The rows of r, all cells together. */
size_t compare_row_count(const qsb_results *r);

/* Every row of r, sorted by key (*n of them, malloc'd); NULL when out of memory (not
** reported). */
qsb_row_ref *compare_row_index(const qsb_results *r, size_t *n);

/* Row i of cell's match among refs[0..n) of compare_row_index; NULL when none. */
qsb_row_ref *compare_find_row(qsb_row_ref *refs, size_t n, const qsb_cell *cell, size_t i);

/* QSB_OK, or QSB_EUSAGE (reported) when the two measure different metrics. */
int compare_check_metrics(const qsb_results *base, const qsb_results *cand);

/* The factor by which the run widened its intervals of medians, or (ratios) of per-round
** ratios to the baseline; 1 for files without one. */
double compare_drift(const qsb_context *c, bool ratios);

#endif
