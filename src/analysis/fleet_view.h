/*
** Views of a fleet file (several machines' results, from merge; report.h):
**   - charts: one deltas chart per candidate with a bar per machine in every group (a group
**     per pattern and element count, a panel per element size), and the scaling and
**     comparisons charts with a line or bar per algorithm@machine;
**   - `compare --machines A,B FILE [FILE]`: the paired delta of each candidate on machine A
**     and on machine B, cell by cell, and their difference (B - A, percentage points).
** Machines must share the metric (a delta in cycles and one in ns are both percentages, but
** the scaling chart is not); the deltas chart needs the same baseline on every machine.
*/
#ifndef QSB_FLEET_VIEW_H
#define QSB_FLEET_VIEW_H

#include <stddef.h>
#include <stdio.h>

#include "plot.h"
#include "result.h"

/* The charts of runs[0..n-1] beside results_path (or in opt->out_dir). */
int qsb_plot_fleet_file(const qsb_results *runs, size_t n, const char *results_path,
                        const qsb_plot_options *opt);

/* The table of compare --machines for runs a and b, to out; QSB_OK or QSB_EUSAGE (no common
** cell) or QSB_ESYSTEM. */
int qsb_compare_machines(FILE *out, const qsb_results *a, const qsb_results *b);

#endif
