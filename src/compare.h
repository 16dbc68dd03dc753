/*
** Regression checks between results: `qsortbench compare BASE NEW` (two runs) and
** `run --fail-above PCT` (candidates against the baseline inside one run).
**
** compare matches rows by (pattern, nelem, size, algorithm). For a timed metric (cycles, ns)
** a matched row gets change = (median NEW / median BASE - 1) * 100 (the medians of the
** samples; the file's median when it has no samples) and, when both rows record units
** (stats.h: samples within a unit are correlated, units are independent), a test over units:
**   each unit's median -> its log; Welch's t on the difference d of the two runs' mean logs
**   (standard error from the units' spread, df by Welch-Satterthwaite);
**   interval = exp(d +- t(0.975, df) * se) - 1;
**   p        = P(T >= (d - log(1 + threshold)) / se): one-sided, H0 "NEW is at most
**              threshold slower" (p_faster likewise for "at most threshold faster").
** Files without units (older versions) fall back to the two-sided Mann-Whitney U test over
** the samples with the Hodges-Lehmann / Moses interval (it treats correlated samples as
** independent: its p is too small when units matter).
** A matrix asks many questions at once, so the p of every tested row is corrected over all
** of them (--correction): Holm's step-down (default; the chance of any false REGRESSION in
** the whole comparison is at most alpha), Benjamini-Hochberg (the expected share of false
** REGRESSIONs among those called is at most alpha), or none. Verdict: REGRESSION when change
** > threshold and adjusted p < alpha; "improved" likewise for faster; "too few samples" when
** change > threshold and the row cannot be tested (fewer than 2 units on a side, or a U test
** that cannot reach alpha); "no samples" when a file has none (the threshold alone decides).
** For the comparisons metric the counts are exact: REGRESSION on any increase above the
** threshold, no test.
** A row whose sort failed verification in NEW is FAILED (a finding); failed in BASE only, it
** is listed as such and not compared.
**
** normalize: the machine's speed drifts between two runs by far more than the changes a gate
** must catch (on this project's 2-core VMs the median of one function moves by 10-15% from
** run to run), so a candidate can instead be judged by its per-round ratio to its cell's
** baseline row, cand[i] / base[i] (both from round i, so the drift cancels): the values above
** are then computed on those ratios, in BASE and in NEW. Both files must have the same
** baseline; its own rows are listed as the reference, not judged. Counts are exact and are
** never normalized. The unit test then runs on each unit's median ratio.
**
** The in-run gate (--fail-above PCT) tests each candidate row the same way within its run:
** the units' mean log paired ratio against log(1 + PCT / 100), t with U - 1 df, one-sided,
** Holm over all candidate rows of the run.
**
** Calibration (compare --calibration RUN1 RUN2): two runs of the same thing should give
** paired deltas that agree within their intervals, |d1 - d2| <= sqrt(h1^2 + h2^2) (h the
** half-widths, on the log scale the intervals are built on) in about 95% of the candidate
** rows when the intervals are honest.
*/
#ifndef QSB_COMPARE_H
#define QSB_COMPARE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "result.h"
#include "stats.h"

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

typedef enum {
    QSB_TEST_NONE,         /* not tested: exact counts, no samples, too few units, failed */
    QSB_TEST_UNITS,        /* Welch's t over the units' log medians */
    QSB_TEST_MANN_WHITNEY, /* files without units: U test over the samples */
} qsb_test;

typedef struct {
    const char *pattern;    /* point into the results compared */
    const char *algorithm;
    uint64_t nelem, size;
    double base_value, new_value; /* medians (exact counts; ratios when normalized); NAN when
                                  ** absent */
    double change_pct;            /* NAN when not computable */
    double change_lo, change_hi;  /* 95% interval of the change; NAN when unknown */
    double p;                     /* one-sided p of "slower beyond the threshold" (units), or
                                  ** Mann-Whitney's two-sided p; NAN when not tested */
    double p_adjusted;            /* p after the correction over every tested row */
    double p_faster, p_faster_adjusted; /* the same for "faster beyond the threshold" */
    qsb_test test;
    size_t base_n, new_n;         /* samples */
    size_t base_units, new_units; /* units (0 when the files have none) */
    bool threshold_only;          /* no samples: the verdict rests on the threshold alone */
    qsb_verdict verdict;
} qsb_comparison;

typedef struct {
    double threshold_pct; /* default 5 */
    double alpha;         /* default 0.01 */
    bool normalize;       /* judge candidates by their per-round ratio to the baseline */
    qsb_correction correction; /* default (0) Holm */
} qsb_compare_options;

/* The context fields compared between two runs, in this order: host, cpu_model, build_flags,
** build_type, seed, mode, metric, placement, tool_version. */
#define QSB_CONTEXT_COMPARED 9

typedef struct {
    qsb_comparison *items; /* BASE's order, then the rows found in NEW only */
    size_t n;
    size_t count[QSB_VERDICT_COUNT];
    bool exact;            /* comparisons metric: exact counts, no test */
    bool normalized;       /* values are per-round ratios to the baseline (options.normalize) */
    const char *metric;
    qsb_correction correction;
    size_t tests;          /* rows tested: the number the correction is over */
    size_t tests_units, tests_mann_whitney;
    const char *differs[QSB_CONTEXT_COMPARED]; /* names of the context fields that differ */
    size_t ndiffers;
} qsb_compare_report;

/* The names of the context fields (above) known in both and different; returns how many. */
size_t qsb_context_differences(const qsb_context *a, const qsb_context *b,
                               const char *names[QSB_CONTEXT_COMPARED]);

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

/* run --fail-above PCT: tests every verified candidate row of r (see above; exact counts need
** no test), reports each row slower than pct with p < alpha after the correction over all
** candidate rows, warns about timed rows with fewer than 2 units (untestable: they do not
** fail), and returns QSB_FINDING if a row was reported, else QSB_OK. */
int qsb_gate_fail_above(const qsb_results *r, double pct, double alpha, qsb_correction c);

/* ---- compare --calibration ---- */

typedef struct {
    const char *pattern, *algorithm;
    uint64_t nelem, size;
    double d1, d2;      /* the runs' paired deltas, % */
    double lo1, hi1, lo2, hi2; /* their intervals, %; NAN when unknown */
    double diff_pts;    /* |d1 - d2|, percentage points */
    double excess;      /* |log ratio difference| / sqrt(h1^2 + h2^2): <= 1 agrees; NAN when
                        ** a run has no interval */
} qsb_calibration_row;

typedef struct {
    qsb_calibration_row *rows; /* candidate rows with a delta in both runs, RUN1's order */
    size_t n;
    size_t with_interval, agree;
    double median_diff_pts, worst_diff_pts; /* over the n rows; NAN when n is 0 */
    size_t worst;                           /* index of the worst row */
} qsb_calibration;

/* Different metrics are a usage error (reported); QSB_ESYSTEM when out of memory. */
int qsb_calibrate(const qsb_results *a, const qsb_results *b, qsb_calibration *out);
void qsb_calibration_free(qsb_calibration *c);

#endif
