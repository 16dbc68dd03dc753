/*
** Corrections of p-values for many tests: Holm, Benjamini-Hochberg, none.
*/
#ifndef QSB_CORRECTIONS_H
#define QSB_CORRECTIONS_H

#include <stddef.h>

/* Corrections of p-values for many tests. Holm (step-down Bonferroni) controls the chance of
** any false finding (family-wise error) under any dependence; Benjamini-Hochberg controls
** the expected share of false findings (false discovery rate) for independent or positively
** dependent tests. */
typedef enum { QSB_CORRECTION_HOLM, QSB_CORRECTION_BH, QSB_CORRECTION_NONE } qsb_correction;

/* "holm", "bh", "none" */
const char *qsb_correction_name(qsb_correction c);
/* The correction of that name: 0, or -1 for another name. */
int qsb_correction_of(const char *name, qsb_correction *out);

/* adjusted[i] for the finite p[i] (m of them: the tests), NAN elsewhere; adjusted[i] < alpha
** is the corrected decision at level alpha. Returns m, or -1 when out of memory (adjusted is
** then all NAN). p and adjusted may be the same array (a large family needs no second one),
** but may not overlap otherwise. */
long qsb_adjust_p(const double *p, size_t n, qsb_correction c, double *adjusted);

#endif
