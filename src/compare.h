/*
** Regression checks between results: `qsortbench compare BASE NEW` (two runs) and
** `run --fail-above PCT` (candidates against the baseline inside one run).
**
** compare matches rows by (pattern, nelem, size, algorithm). For a timed metric (cycles, ns)
** a matched row gets:
**   change   = (median NEW / median BASE - 1) * 100, the medians of the samples (the file's
**              median when it has no samples);
**   interval = a 95% distribution-free interval of the ratio NEW/BASE by Hodges-Lehmann /
**              Moses: order statistics C and mn+1-C of the m*n pairwise ratios new_j/base_i,
**              C from the normal approximation of the U statistic's null distribution with a
**              continuity correction (it errs on the wide side for small samples). It is the
**              interval that goes with the Mann-Whitney test: it excludes 0 when p < 0.05;
**   p        = two-sided Mann-Whitney U on the two sample sets (stats.h).
** Verdict: REGRESSION when change > threshold and p < alpha; "improved" when change <
** -threshold and p < alpha; "too few samples" when change > threshold but no arrangement of
** that many samples could reach p < alpha (2 / C(m+n, m) >= alpha); "no samples" when a file
** has none (the verdict then rests on the threshold alone). For the comparisons metric the
** counts are exact: REGRESSION on any increase above the threshold, no test.
** A row whose sort failed verification in NEW is FAILED (a finding); failed in BASE only, it
** is listed as such and not compared.
**
** normalize: the machine's speed drifts between two runs by far more than the changes a gate
** must catch (on this project's 2-core VMs the median of one function moves by 10-15% from
** run to run), so a candidate can instead be judged by its per-round ratio to its cell's
** baseline row, cand[i] / base[i] (both from round i, so the drift cancels): the values above
** are then computed on those ratios, in BASE and in NEW. Both files must have the same
** baseline; its own rows are listed as the reference, not judged. Counts are exact and are
** never normalized.
*/
#ifndef QSB_COMPARE_H
#define QSB_COMPARE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "result.h"

typedef enum {
    QSB_VERDICT_SAME,        /* within the threshold, or not significant */
    QSB_VERDICT_REGRESSION,  /* slower beyond the threshold, significantly */
    QSB_VERDICT_IMPROVED,    /* faster beyond the threshold, significantly */
    QSB_VERDICT_FEW_SAMPLES, /* slower beyond the threshold, but untestable at alpha */
    QSB_VERDICT_FAILED,      /* NEW's sort failed verification */
    QSB_VERDICT_BASE_FAILED, /* BASE's sort failed verification: nothing to compare */
    QSB_VERDICT_ONLY_BASE,   /* the row is in BASE only */
    QSB_VERDICT_ONLY_NEW,    /* the row is in NEW only */
    QSB_VERDICT_REFERENCE,   /* normalize: the baseline the others are divided by */
    QSB_VERDICT_COUNT
} qsb_verdict;

const char *qsb_verdict_name(qsb_verdict v); /* "REGRESSION", "same", "only in BASE", ... */

typedef struct {
    const char *pattern;    /* point into the results compared */
    const char *algorithm;
    uint64_t nelem, size;
    double base_value, new_value; /* medians (exact counts; ratios when normalized); NAN when
                                  ** absent */
    double change_pct;            /* NAN when not computable */
    double change_lo, change_hi;  /* 95% interval of the change; NAN when unknown */
    double p;                     /* Mann-Whitney p; NAN when not tested */
    size_t base_n, new_n;         /* samples */
    bool threshold_only;          /* no samples: the verdict rests on the threshold alone */
    qsb_verdict verdict;
} qsb_comparison;

typedef struct {
    double threshold_pct; /* default 5 */
    double alpha;         /* default 0.01 */
    bool normalize;       /* judge candidates by their per-round ratio to the baseline */
} qsb_compare_options;

typedef struct {
    qsb_comparison *items; /* BASE's order, then the rows found in NEW only */
    size_t n;
    size_t count[QSB_VERDICT_COUNT];
    bool exact;            /* comparisons metric: exact counts, no test */
    bool normalized;       /* values are per-round ratios to the baseline (options.normalize) */
    const char *metric;
} qsb_compare_report;

/* Compares NEW against BASE. Different metrics, or different baselines under normalize, are a
** usage error (reported, QSB_EUSAGE); QSB_ESYSTEM when out of memory. */
int qsb_compare_results(const qsb_results *base, const qsb_results *cand,
                        const qsb_compare_options *opt, qsb_compare_report *out);
void qsb_compare_report_free(qsb_compare_report *r);

/* The exit status of a report: QSB_FINDING on a regression or a FAILED row, and with strict
** also on rows present in one file only; QSB_OK otherwise. */
int qsb_compare_status(const qsb_compare_report *r, bool strict);

/* The Hodges-Lehmann / Moses 95% interval of cand/base in percent (see above). Returns 0, or
** -1 when it does not exist: a value <= 0, too few samples (C < 1), more than
** QSB_COMPARE_MAX_PAIRS pairs, or out of memory. */
#define QSB_COMPARE_MAX_PAIRS ((size_t)4 << 20)
int qsb_change_interval(const double *base, size_t nb, const double *cand, size_t nc,
                        double *lo_pct, double *hi_pct);

/* The smallest two-sided p the exact U test can give for samples of m and n values. */
double qsb_min_attainable_p(size_t m, size_t n);

/* run --fail-above PCT: reports every candidate row of r whose paired delta exceeds pct with
** an interval that excludes zero (delta_lo > 0; a row without an interval is judged on its
** delta alone and says so), and returns QSB_FINDING if there is one, else QSB_OK. */
int qsb_gate_fail_above(const qsb_results *r, double pct);

#endif
