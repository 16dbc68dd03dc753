/*
** The formats CI dashboards read (export.h has the table and the benchmark names).
**
** bmf: Bencher Metric Format, an object of benchmarks, each an object of measures, each
**   {"value": v, "lower_value": lo, "upper_value": hi} (lower and upper only when the
**   interval is known). One benchmark per cell and algorithm, named PATTERN/NELEM/SIZE/ALGORITHM
**   (@MACHINE in a fleet); its measures:
**     "median-<metric>"  the median in the run's metric (cycles, ns or comparisons per sort),
**                        with its 95% interval;
**     "delta-pct"        the paired delta against the baseline in %, with its 95% interval
**                        (candidates only; the baseline has none).
** github-action-benchmark: the input of its customSmallerIsBetter tool, a JSON array of
**   {"name", "unit", "value", "range", "extra"}: one element per cell and algorithm, named as
**   above, value the median, unit the metric, range "±h" (h the larger side of the median's
**   95% interval; absent when unknown), extra the delta against the baseline with its interval,
**   the samples and units, and the noisy flag, as text.
** Rows whose sort failed verification, or without a median, are left out of both.
*/
#ifndef QSB_EXPORT_DASHBOARDS_H
#define QSB_EXPORT_DASHBOARDS_H

#include <stddef.h>
#include <stdio.h>

#include "result.h"

/* Writers of the export table (export.h): runs[0..n-1], one machine each. */
int qsb_export_bmf(FILE *fp, const qsb_results *runs, size_t n);
int qsb_export_github_action(FILE *fp, const qsb_results *runs, size_t n);

#endif
