/*
** Regression checks between results: `qsortbench compare BASE NEW` (rows matched by pattern,
** nelem, size, algorithm; a change of the median tested over units, or by Mann-Whitney for
** files without units; p corrected over every tested row), `run --fail-above PCT` (each
** candidate against its baseline within one run) and `compare --calibration RUN1 RUN2`.
** Pure: prints nothing but diagnostics. The tests, verdicts and reasons:
** docs/measurement.md, "Compare and the gates".
*/
#ifndef QSB_COMPARE_H
#define QSB_COMPARE_H

#include <math.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "outfile.h"
#include "result.h"
#include "stats.h"

/* A row's verdict. Each is spelled its own way in the table and the JSON, and each is
** documented with every field of qsb_comparison in docs/formats.md ("compare --json"). */
typedef enum {
    QSB_VERDICT_SAME,        /* not significant, the interval's top within the threshold (or
                             ** no interval) */
    QSB_VERDICT_REGRESSION,  /* slower beyond the threshold, significantly */
    QSB_VERDICT_IMPROVED,    /* faster beyond the threshold, significantly */
    QSB_VERDICT_FEW_SAMPLES, /* slower beyond the threshold, but untestable at alpha */
    QSB_VERDICT_FAILED,      /* NEW's sort failed verification */
    QSB_VERDICT_BASE_FAILED, /* BASE's sort failed verification: nothing to compare */
    QSB_VERDICT_ONLY_BASE,   /* the row is in BASE only */
    QSB_VERDICT_ONLY_NEW,    /* the row is in NEW only */
    QSB_VERDICT_REFERENCE,   /* normalize: the baseline the others are divided by */
    QSB_VERDICT_UNRESOLVED,  /* not shown slower beyond the threshold, but its interval reaches
                             ** beyond it: a regression of that size is not ruled out */
    QSB_VERDICT_COUNT
} qsb_verdict;

const char *qsb_verdict_name(qsb_verdict v); /* "REGRESSION", "same", "only in BASE", ... */

typedef enum {
    QSB_TEST_NONE,         /* not tested: exact counts, no samples, too few units, failed */
    QSB_TEST_UNITS,        /* Welch's t over the units' log medians */
    QSB_TEST_MANN_WHITNEY, /* files without units: U test over the samples */
} qsb_test;

/* A candidate row of a report made without --normalize, judged as --normalize judges it: its
** per-round ratios to the cell's baseline, tested the same way, corrected over the candidate
** rows so judged, at the report's threshold and alpha. */
typedef struct {
    bool regression;              /* a regression so, and not by the row's own times; the
                                  ** rest is worked out only then (NAN otherwise) */
    double change_pct;            /* of the ratio */
    double change_lo, change_hi;  /* its 95% interval */
    double p, p_adjusted;         /* one-sided p of "slower beyond the threshold", corrected */
} qsb_baseline_view;

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
    /* By state (compare_states.h), where a run shows states in the row: the change, its test
    ** and the values are those of the matched state that is most clearly slower (else faster),
    ** its p-values multiplied by the matched states tested (Bonferroni within the row); a
    ** state in one run only is counted, never judged. */
    uint8_t states_matched;       /* matched states (0: judged as a mixture) */
    uint8_t states_only_base, states_only_new;
    double state_speed;           /* BASE's speed of the judged state; NAN: none */
    qsb_verdict verdict;
    /* A row that is not a regression (nor failed) by its own times but is one against the
    ** baseline: the baseline moved between the runs (a state of the machine, or a change of
    ** the baseline). Said in the row, the summary and a warning; the exit status stays the
    ** rows' own (docs/measurement.md, "Compare and the gates"). */
    qsb_baseline_view against_baseline;
} qsb_comparison;

/* The normal's 97.5th percentile: a run level is a 95% half-width of QSB_Z975 sds. */
#define QSB_Z975 1.959964

/* A run level of +-pct % as a half-width on the log scale, what a run's intervals get added in
** quadrature (compare --run-level, --calibration --run-level). */
static inline double qsb_run_level_log(double pct)
{
    return log1p(pct / 100.0);
}

typedef struct {
    double threshold_pct; /* default 5 */
    double alpha;         /* default 0.01 */
    bool normalize;       /* judge candidates by their per-round ratio to the baseline */
    qsb_correction correction; /* default (0) Holm */
    double run_level_pct; /* --run-level: a level each run moves by as a whole, measured by
                          ** compare --calibration, as a 95% half-width; added to each run's
                          ** spread in the test over units (0: none) */
} qsb_compare_options;

/* The context fields compared between two runs, in this order: host, cpu_model, build_flags,
** build_type, seed, mode, metric, placement, tool_version. */
#define QSB_CONTEXT_COMPARED 9

/* One row of a report as the report keeps it: where its rows are, and what the correction
** over every row decided. The rest of its qsb_comparison is worked out again when asked
** (qsb_compare_item), so that a report of millions of rows costs a small part of the
** results it points into. */
typedef struct {
    const qsb_cell *cell;  /* BASE's cell; NEW's for a row in NEW only */
    const qsb_cell *other; /* NEW's cell of the same key; NULL for a row in one file only */
    uint32_t row, other_row; /* the rows' indices in them (a cell's rows are its algorithms) */
    double p_adjusted, p_faster_adjusted; /* NAN when not tested */
    uint8_t verdict;       /* qsb_verdict, after the correction */
    uint8_t test;          /* qsb_test */
    uint8_t beyond;        /* the change beyond the threshold, either way, and whether at
                           ** alpha it is untestable: what the correction decides by */
    uint8_t regression_against_baseline; /* 1: qsb_baseline_view.regression */
    uint32_t against_baseline_at; /* such a row's place in the report's against_baseline_p */
} qsb_compare_entry;

typedef struct {
    qsb_compare_entry *entries; /* BASE's order, then the rows found in NEW only */
    size_t n;
    size_t count[QSB_VERDICT_COUNT];
    size_t no_samples;     /* rows judged on the threshold alone (FAILED ones aside) */
    bool exact;            /* comparisons metric: exact counts, no test */
    bool normalized;       /* values are per-round ratios to the baseline (options.normalize) */
    bool judged_against_baseline; /* not normalized, timed, both files of one baseline: the
                                  ** candidate rows were judged by their ratios as well */
    size_t against_baseline_regressions; /* rows a regression against the baseline only */
    size_t baseline_moved; /* in such a report, the baseline's own rows slower or faster beyond
                           ** the threshold: where its code is the same, the host moved */
    double *against_baseline_p; /* their ratios' p after the correction, one a row so marked
                                ** (a report of millions of rows keeps no more per entry) */
    const char *metric;
    size_t tests;          /* rows tested: the number the correction is over */
    size_t tests_units, tests_mann_whitney;
    const char *differs[QSB_CONTEXT_COMPARED]; /* names of the context fields that differ */
    size_t ndiffers;
    const qsb_results *base, *cand; /* what the entries point into: they outlive the report */
    qsb_compare_options opt;        /* what the report was made with */
} qsb_compare_report;

/* The names of the context fields (above) known in both and different; returns how many. */
size_t qsb_context_differences(const qsb_context *a, const qsb_context *b,
                               const char *names[QSB_CONTEXT_COMPARED]);

/* Compares NEW against BASE. Different metrics, or different baselines under normalize, are a
** usage error (reported, QSB_EUSAGE); QSB_ESYSTEM when out of memory. */
int qsb_compare_results(const qsb_results *base, const qsb_results *cand,
                        const qsb_compare_options *opt, qsb_compare_report *out);
void qsb_compare_report_free(qsb_compare_report *r);

/* Row i of the report in full. QSB_OK, or QSB_ESYSTEM when out of memory (reported). */
int qsb_compare_item(const qsb_compare_report *r, size_t i, qsb_comparison *it);

/* What rows present in one file only count for: nothing, or a finding (compare --strict). */
typedef enum {
    QSB_COMPARE_LENIENT, /* a row in one file only is listed, not a finding */
    QSB_COMPARE_STRICT,  /* a row in one file only is a finding */
} qsb_compare_strictness;

/* The exit status of a report: QSB_FINDING on a regression or a FAILED row, and when strict
** also on rows present in one file only; QSB_OK otherwise. A row that is a regression against
** the baseline only is said, not a finding: --normalize is the gate that fails on it. */
int qsb_compare_status(const qsb_compare_report *r, qsb_compare_strictness strictness);

/* run --fail-above PCT: tests every verified candidate row of r (docs/measurement.md; exact
** counts need no test), reports each row slower than pct with p < alpha after the correction
** over all candidate rows, warns about timed rows with fewer than 2 units (untestable: they do
** not fail) and about rows it passes whose 95% interval reaches beyond pct (unresolved: they do
** not fail either), says the smallest slowdown it catches with 80% power (the median row's,
** within the run; into *detectable_pct when not NULL, NAN when no row was tested), and returns
** QSB_FINDING if a row was reported, else QSB_OK. */
int qsb_gate_fail_above(const qsb_results *r, double pct, double alpha, qsb_correction c,
                        double *detectable_pct);

/* ---- compare --calibration ---- */

typedef struct {
    const char *pattern, *algorithm;
    uint64_t nelem, size;
    double d1, d2;      /* the runs' paired deltas, % */
    double lo1, hi1, lo2, hi2; /* their intervals, %; NAN when unknown */
    double diff_pts;    /* |d1 - d2|, percentage points */
    double excess;      /* |log ratio difference| / sqrt(h1^2 + h2^2 + 2 l^2), l the assumed
                        ** run level's log half-width: <= 1 agrees; NAN when a run has no
                        ** interval */
    double log_diff, log_h; /* that difference and sqrt(h1^2 + h2^2); NAN as excess */
} qsb_calibration_row;

/* A run level (compare --calibration): Cochran's Q of rows' differences over their intervals,
** on the rows with intervals of some width, and its p (chi-square on the rows); when p < 0.05,
** the 95% half-width (in percent, on the log scale) each run's intervals would need added in
** quadrature for Q to be what it is without a level, else 0. NAN without such rows. */
typedef struct {
    size_t rows;
    double q, p, pct;
} qsb_run_level;

typedef struct {
    qsb_calibration_row *rows; /* candidate rows with a delta in both runs, RUN1's order */
    size_t n;
    size_t with_interval, agree;
    double median_diff_pts, worst_diff_pts; /* over the n rows; NAN when n is 0 */
    size_t worst;                           /* index of the worst row */
    /* By state: candidate rows with states in both runs, their states matched by speed
    ** (compare_states.h); each matched pair with an interval in both runs checked as a row */
    size_t state_pairs, state_with_interval, state_agree;
    size_t state_only; /* states without a partner in the other run */
    /* The run level the two runs show (docs/measurement.md, "Compare and the gates"): what
    ** they moved together beyond their processes' spread; of the candidate rows' deltas, and of
    ** every row's median (the times themselves, which also move with the machine's speed). */
    qsb_run_level run_level, run_level_medians;
    double assumed_level_pct; /* --run-level: added to each run's intervals before the rows
                              ** are checked (0: none); the levels found ignore it */
} qsb_calibration;

/* compare --calibration --strict: the share of rows with intervals that must agree. */
#define QSB_CALIBRATION_STRICT_SHARE 0.90

/* compare --calibration RUN1 RUN2 RUN3 ...: what the calibrations of consecutive runs add up
** to. A level found in one pair is that pair's: the largest over several pairs is what
** --run-level wants. */
typedef struct {
    size_t pairs, with_interval, agree; /* rows with intervals, and agreeing, over every pair */
    size_t levels_found, medians_levels_found; /* pairs in which a level was found */
    double largest_level_pct, largest_medians_level_pct; /* 0 when none was found */
    size_t largest_level_pair, largest_medians_level_pair; /* which pair (0-based) */
} qsb_calibration_totals;

void qsb_calibration_add_up(const qsb_calibration *pairs, size_t n, qsb_calibration_totals *out);

/* assumed_level_pct: a run level added to each run's intervals before the rows are checked
** (0: none). Different metrics are a usage error (reported); QSB_ESYSTEM when out of memory. */
int qsb_calibrate(const qsb_results *a, const qsb_results *b, double assumed_level_pct,
                  qsb_calibration *out);
void qsb_calibration_free(qsb_calibration *c);
/* Over every pair: QSB_FINDING when strict and under QSB_CALIBRATION_STRICT_SHARE agree (or
** none has an interval); QSB_OK otherwise. */
int qsb_calibration_status(const qsb_calibration_totals *t, qsb_compare_strictness strictness);

/* compare --calibration's run level: pct (--run-level; 0 for none), passed to of_first when
** it is not NULL, with the first run once read, to change it or keep it: compare --history
** takes a level from the history layer, which analysis does not read. */
typedef struct {
    double pct;
    int (*of_first)(const qsb_results *first, void *ctx, double *pct);
    void *ctx;
} qsb_calibration_level;

/* compare --calibration RUN1 RUN2 [RUN3 ...] (n >= 2 paths): --json (json_path; NULL for none)
** opened, and checked against the runs and `also_read` (a file the level reads; NULL for none),
** before anything is read; then the runs read and each calibrated against the next, each
** pair's report written on the text stream, with more than two runs what the pairs add up to,
** and the JSON of them all committed. QSB_FINDING when qsb_calibration_status says so (its line
** said after the commit); else QSB_OK or the failure (reported). */
int qsb_calibration_command(const char *const *paths, size_t n, const char *json_path,
                            const qsb_file_group *also_read, qsb_calibration_level level,
                            qsb_compare_strictness strictness);

#endif
