/*
** A new run gated against its machine's history (run_level.h): each row's value (a
** candidate's delta, the baseline's median) against the prediction interval of one new run
** around the history's mean, whose spread is the row's between-run level, the mean's own
** uncertainty and the new run's interval, as Bencher's t-test threshold does. A row slower
** beyond the threshold at the corrected p is a regression; each row also says the smallest
** change its gate sees at 80% power (detectable), alone and with 3 runs a side.
** docs/measurement.md, "The run level from history".
*/
#ifndef QSB_GATE_H
#define QSB_GATE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

#include "corrections.h"
#include "result.h"
#include "run_level.h"

typedef enum {
    QSB_GATE_SAME,       /* within the threshold, or not significantly beyond it */
    QSB_GATE_REGRESSION, /* slower beyond the threshold, significantly */
    QSB_GATE_IMPROVED,   /* faster beyond the threshold, significantly */
    QSB_GATE_NO_HISTORY, /* the history has no run of the row with an interval */
    QSB_GATE_NO_INTERVAL, /* NEW's row has no interval (exact counts, too few units) */
    QSB_GATE_FAILED,     /* NEW's sort failed verification */
    QSB_GATE_COUNT
} qsb_gate_verdict;

typedef struct {
    const qsb_cell *cell;       /* NEW's */
    size_t row;                 /* its index in the cell */
    bool by_median;             /* the baseline, judged by its median */
    size_t history_n;           /* the history's runs of the row with an interval */
    double level_pct;           /* the row's run level (95%); NAN when unknown (< 5 runs) */
    double change_pct;          /* NEW against the history's mean */
    double lo_pct, hi_pct;      /* the 95% prediction interval of that change */
    double df;                  /* the prediction's degrees of freedom */
    double p, p_adjusted;       /* one-sided p of "slower beyond the threshold" */
    double p_faster_adjusted;
    double detectable_pct;      /* the smallest change this row's gate sees (80% power) */
    double detectable3_pct;     /* ... with 3 runs a side */
    size_t states_tested;       /* judged by state: NEW's states tested (p times them); 0
                                ** for a row judged as a whole; the fields above are then of
                                ** the state whose p is the smallest */
    double state_speed;         /* that state's speed in NEW */
    qsb_gate_verdict verdict;
} qsb_gate_row;

typedef struct {
    qsb_gate_row *rows;
    size_t n;
    size_t count[QSB_GATE_COUNT];
    size_t unknown_level;          /* rows judged within the run only: fewer than 5 runs */
    double detectable_median_pct;  /* over the rows tested */
    double detectable3_median_pct;
    double level_median_pct;       /* over the rows with a known level */
    double delta_scale, median_scale; /* the within-run variances' scales (run_level.h) */
} qsb_gate_report;

typedef struct {
    double threshold_pct;
    double alpha;
    qsb_correction correction;
} qsb_gate_options;

/* Judges every row of new_run against levels. QSB_OK or an error (reported). */
int qsb_gate_judge(const qsb_results *new_run, const qsb_run_levels *levels,
                   const qsb_gate_options *opt, qsb_gate_report *out);
void qsb_gate_report_free(qsb_gate_report *report);

/* The report as a table (its closing lines: the detectable change, the within-run variances'
** scales where below 1, and where the detectable change is larger than the threshold), the
** warnings on stderr (rows without a level or a history), and as JSON: {"threshold_pct",
** "alpha", "run_level_pct", "detectable_pct", "detectable_3_runs_pct",
** "delta_variance_scale", "median_variance_scale", "regressions", "rows": [{"pattern",
** "nelem", "size", "algorithm", "judged", "history_n", "run_level_pct", "change_pct",
** "lo_pct", "hi_pct", "p", "p_adjusted", "detectable_pct", "detectable_3_runs_pct",
** "verdict"}]}, a row judged by state with "states_tested" and "state_speed" besides. */
void qsb_gate_write_table(FILE *out, const qsb_gate_report *r, const qsb_gate_options *opt);
void qsb_gate_warn(const qsb_gate_report *r);
int qsb_gate_write_json(FILE *out, const qsb_gate_report *r, const qsb_gate_options *opt);

/* A machine's run level in a line: "+-2.31% (...)", or "unknown (3 runs; 5 needed)"; and
** that line for every machine (and metric) of the history, or of one machine. */
void qsb_run_levels_write(FILE *out, const qsb_run_levels *levels, const char *machine);
int qsb_history_write_levels(FILE *out, qsb_history *h, const char *machine);

#endif
