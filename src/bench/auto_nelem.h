/*
** --nelem auto: one element count per cache level of this machine, at a size the run can
** afford. Each count is its level's total capacity / 8 (the rule that gives the cover letter's
** 49152:786432:8388608 on its Ryzen 9), never above the cover letter's 8,388,608
** (machine.h). Then the largest count is halved while the run's minimum of processes would
** not fit in its budget (5 minutes when the budget is auto) or its inputs and buffers not in
** its memory bound (plan.h), but never below twice the count before it: it stays beyond
** that level's cache. What was chosen, and why, is said in the run's first line and by
** `info` (docs/measurement.md, "--nelem auto").
*/
#ifndef QSB_AUTO_NELEM_H
#define QSB_AUTO_NELEM_H

#include <stddef.h>

#include "estimate.h"
#include "run_config.h"

/* Of the budget, what the run's minimum may take: generating the shared inputs, the start
** and the end of the run take the rest (docs/results.md#overhead-finish). */
#define QSB_AUTO_NELEM_BUDGET_SHARE 0.85

/* Fits cfg's counts (from --nelem auto: cfg->nelem_source is not QSB_NELEM_GIVEN) to its run,
** `plug_ins` of its algorithms being plug-ins, given what its sorts cost on this machine: a
** pure function, for tests. The budget is fitted only where the run spends one (not with
** --reps, --processes N or exact counts). */
void qsb_auto_nelem_fit_costs(qsb_run_config *cfg, unsigned plug_ins,
                              const qsb_sort_costs *costs);

/* The same with this machine's costs, probed. QSB_OK, or an error (reported). */
int qsb_auto_nelem_fit(qsb_run_config *cfg, unsigned plug_ins);

/* The choice in words: "L1d 96 KiB: 12,288; L2 2 MiB: 262,144; L3 32 MiB: 4,194,304 (its
** size / 8)". */
void qsb_auto_nelem_describe(const qsb_run_config *cfg, char *buf, size_t len);

#endif
