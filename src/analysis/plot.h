/*
** Charts from one qsb_results, through gnuplot (a run-time dependency: Debian gnuplot-nox).
**
** qsb_plot() writes the data files gnuplot needs into a private temporary directory, runs
** `gnuplot -d -c plots/<chart>.gp ARGS...` once per chart (fork + execvp with an argument
** vector, never a shell; stdin and stdout on /dev/null; stderr captured), renders every chart
** into a temporary file beside its final name and renames them all only when every chart
** succeeded: a missing or failing gnuplot leaves no chart, partial or whole.
**
** Charts (file names <stem>-<chart>.<png|svg> in the output directory):
**   deltas-<candidate>  the paired delta % of one candidate against the baseline, with its
**                       95% interval: a panel per element size, a group of bars per pattern,
**                       a bar per element count. One chart per candidate.
**   scaling             the median per element (cycles, ns or comparator calls) against the
**                       element count on a log axis: a panel per (element size, pattern), a
**                       line per algorithm, dashed marks where the L1d/L2/L3 capacity of the
**                       results' context (cache_bytes) holds that many elements of the panel's
**                       size (cache_bytes / size).
**   comparisons         comparator calls / (n log2 n): a panel per (element size, count), a
**                       group of bars per pattern, a bar per algorithm. Only when counted.
** Cells whose sort failed verification are left out and marked with a red cross at zero (or at
** the panel's foot, scaling). The scripts are found beside the executable
** (../share/qsortbench/plots), in the source tree (build tree binaries), or under QSB_DATADIR.
*/
#ifndef QSB_PLOT_H
#define QSB_PLOT_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "result.h"

typedef enum { QSB_PLOT_PNG, QSB_PLOT_SVG } qsb_plot_format;

typedef struct {
    const char *out_dir;    /* created (one level) when missing */
    const char *stem;       /* chart names: <stem>-scaling.png, ... */
    qsb_plot_format format;
    const char *title;      /* first words of every chart title; NULL: "qsortbench" */
    FILE *report;           /* each chart written is named here, one per line; NULL: silent */
    unsigned charts;        /* QSB_CHART_* bits to draw; 0: every chart */
    const char *series;     /* fleets (fleet_view.h): the words naming the deltas chart's bars
                            ** instead of the element counts, each "=NAME" (deltas.gp) */
} qsb_plot_options;

#define QSB_CHART_DELTAS 1u
#define QSB_CHART_SCALING 2u
#define QSB_CHART_COMPARISONS 4u

/* Renders every chart of r. Returns QSB_OK, QSB_EUSAGE (nothing to plot, bad directory) or
** QSB_ESYSTEM (gnuplot missing or failing, I/O, memory), after reporting through diag. */
int qsb_plot(const qsb_results *r, const qsb_plot_options *opt);

/* The charts of a results file beside it (or in opt's out_dir when not NULL): the stem is the
** file's name without its .csv/.json extension (opt's stem is ignored). Used by `plot` and
** `run --plot`. */
int qsb_plot_results_file(const qsb_results *r, const char *results_path,
                          const qsb_plot_options *opt);

/* The files the charts of a results file at results_path (in out_dir when not NULL) take when
** the charts of `charts` (QSB_CHART_* bits; 0: every chart) are drawn for results of these
** algorithms, the first the baseline. For the outputs' collision check before a run
** (outfile.h): the run reserves the charts it will ask for, and draws no other (a chart asked
** for may still be left out: the comparisons chart when no row carries a count). */
typedef struct {
    char **paths; /* n paths, malloc'd */
    size_t n;
} qsb_chart_paths;

int qsb_plot_chart_paths(const char *results_path, const char *out_dir, qsb_plot_format format,
                         unsigned charts, const char *const *algorithms, size_t nalgorithms,
                         qsb_chart_paths *out);
void qsb_plot_chart_paths_free(qsb_chart_paths *c);

/* Cheap early check for `run --plot` (before a long run): the scripts are found and gnuplot
** starts. Reports and returns QSB_ESYSTEM when not. */
int qsb_plot_check(void);

/* Runs one script of the charts' folder, found as theirs are: `gnuplot -d -c DIR/script
** ARGS...`, as the charts are run (no shell, stderr kept for the message). The chart it draws
** is output, which must exist and not be empty afterwards; what names it in messages.
** QSB_OK or QSB_ESYSTEM (reported). */
int qsb_plot_run_script(const char *script, const char *const *args, size_t nargs,
                        const char *output, const char *what);

/* Parses "png" / "svg"; reports a usage error otherwise. */
int qsb_plot_parse_format(const char *text, qsb_plot_format *out);

/* ---- The data files, exposed for the tests. ---- */

/* The axes of the charts: every size and element count ascending, patterns in order of first
** appearance, algorithms baseline first, then in order of first appearance. The strings point
** into the results. */
typedef struct {
    uint64_t *sizes;
    size_t nsizes;
    uint64_t *nelems;
    size_t nnelems;
    const char **patterns;
    size_t npatterns;
    const char **algorithms;
    size_t nalgorithms;
} qsb_plot_axes;

int qsb_plot_axes_build(const qsb_results *r, qsb_plot_axes *ax);
void qsb_plot_axes_free(qsb_plot_axes *ax);

/* deltas.gp data for algorithms[candidate] (>= 1): one block (gnuplot index) per size; in it a
** row per (pattern p, count j):
**   x delta_pct delta_lo delta_hi failed series width noisy pattern
** x = p + (j - (nnelems-1)/2) * width, width = 0.8 / nnelems, series = j; NaN where unknown;
** failed = 1 when the candidate's or the baseline's sort failed (delta then NaN). */
void qsb_plot_write_deltas(FILE *fp, const qsb_results *r, const qsb_plot_axes *ax,
                           size_t candidate);

/* scaling.gp data. Index 0: a row per (size, level): size level elements (NaN when the cache
** size is unknown). Index 1 + (s * npatterns + p) * nalgorithms + a: a row per count:
**   nelem per_element failed
** per_element = median / nelem (NaN when missing or failed). */
void qsb_plot_write_scaling(FILE *fp, const qsb_results *r, const qsb_plot_axes *ax);

/* comparisons.gp data: index s * nnelems + j (size s, count j); a row per (pattern p,
** algorithm a): x ratio failed series width pattern, with ratio = comparisons / (n log2 n)
** (NaN when n < 2, not counted or failed), x as in deltas with series = a. */
void qsb_plot_write_comparisons(FILE *fp, const qsb_results *r, const qsb_plot_axes *ax);

/* Does any row carry a comparator count (is the comparisons chart worth drawing)? */
int qsb_plot_has_comparisons(const qsb_results *r);

#endif
