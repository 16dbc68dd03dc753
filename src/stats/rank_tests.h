/*
** Tests on ranks of two samples: the Mann-Whitney U test and the Hodges-Lehmann / Moses
** interval of their ratio.
*/
#ifndef QSB_RANK_TESTS_H
#define QSB_RANK_TESTS_H

#include <stddef.h>

/* Two-sided Mann-Whitney U test p-value: exact when both samples have at most 20 values and
** no value is tied, else the normal approximation with tie and continuity corrections. NAN
** when a sample is empty or out of memory; 1 when every value is tied. */
double qsb_mann_whitney_p(const double *a, size_t na, const double *b, size_t nb);

/* The Hodges-Lehmann / Moses 95% interval of cand/base in percent: the ratios of every pair
** (base[i], cand[j]) sorted, the C-th from each end with C from the normal approximation of
** the U statistic's distribution. Returns 0, or -1 when it does not exist: a value <= 0, too
** few samples (C < 1), more than QSB_CHANGE_MAX_PAIRS pairs, or out of memory. */
#define QSB_CHANGE_MAX_PAIRS ((size_t)4 << 20)
int qsb_change_interval(const double *base, size_t nb, const double *cand, size_t nc,
                        double *lo_pct, double *hi_pct);

/* The smallest two-sided p the exact U test can give for samples of m and n values. */
double qsb_min_attainable_p(size_t m, size_t n);

#endif
