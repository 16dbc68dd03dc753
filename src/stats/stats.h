/*
** Pure statistics over samples: no I/O, no clock, no global state. Medians and order
** statistics are taken on copies sorted with libc's qsort, never with an algorithm under test.
** One header per concept; this one is the layer's whole interface.
*/
#ifndef QSB_STATS_H
#define QSB_STATS_H

#include "bootstrap.h"   /* the cluster bootstrap of a pooled median */
#include "corrections.h" /* p-values corrected for many tests */
#include "random_effects.h" /* the level between runs, from a history */
#include "rank_tests.h"  /* Mann-Whitney U, the Hodges-Lehmann interval */
#include "student_t.h"   /* Student's t, Welch over units */
#include "summary.h"     /* summaries of samples, the paired delta */
#include "units.h"       /* units: their spread, intervals, precision; the time level above */

#endif
