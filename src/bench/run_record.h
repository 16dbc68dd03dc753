/*
** What a run records of itself beside its results (result.h qsb_context): the tool and its
** build, the machine and its state, the matrix, the repetition rules of its plan and where
** its sorts sit. Filled once, before the first sort; the time split and the drift are the
** run's end's (totals.h, run.c).
*/
#ifndef QSB_RUN_RECORD_H
#define QSB_RUN_RECORD_H

#include <stdbool.h>
#include <time.h>

#include "placement.h"
#include "plan.h"
#include "result.h"
#include "run_config.h"
#include "timing.h"

/* Whether this executable is an optimised build (Release or RelWithDebInfo). */
bool qsb_release_build(void);

/* r's context and baseline for a run of cfg under plan, its sorts placed by placement, timed
** by timer (NULL: counted), started at utc with that 1-minute load average (negative:
** unknown). QSB_OK, or QSB_ESYSTEM (reported) when out of memory. */
int qsb_run_record_context(qsb_results *r, const qsb_run_config *cfg, const qsb_run_plan *plan,
                           const qsb_placement *placement, const qsb_timer *timer,
                           const struct tm *utc, double load_average);

#endif
