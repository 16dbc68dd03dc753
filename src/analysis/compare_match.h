/*
** What compare, its calibration and the --fail-above gate share (inside analysis only): rows
** of two results matched by key (pattern, nelem, size, algorithm), the two results checked
** for one metric and one baseline, and the drift factor a run widened its intervals by.
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

/* qsort/bsearch order of row references: pattern, nelem, size, algorithm. */
int qsb_row_ref_order(const void *a, const void *b);

/* The rows of r, all cells together. */
size_t qsb_row_count(const qsb_results *r);

/* Every row of r, sorted by key for bsearch (*n of them, malloc'd); NULL when out of memory
** (not reported). */
qsb_row_ref *qsb_row_index(const qsb_results *r, size_t *n);

/* QSB_OK, or QSB_EUSAGE (reported) when the two measure different metrics. */
int qsb_check_metrics(const qsb_results *base, const qsb_results *cand);

/* QSB_OK, or QSB_EUSAGE (reported, as --normalize's defect) when the two have different
** baselines. */
int qsb_check_baselines(const qsb_results *base, const qsb_results *cand);

/* The factor by which the run widened its intervals of medians, or of per-round ratios to the
** baseline; 1 for files without one. */
double qsb_drift_of_medians(const qsb_context *c);
double qsb_drift_of_ratios(const qsb_context *c);

#endif
