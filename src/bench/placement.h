/*
** Code placement, sampled: where the timed sorts sit relative to the comparator they call.
**
** On this project's machines an indirect call to a comparator in another 16 MiB-aligned region
** than the call site can run at another speed than a near one, and which state a process gets
** is sticky (docs/measurement.md). So every contender runs in one regime, chosen to match how
** qsort is used, and the rest of placement is sampled rather than fixed:
** - regime far (default): the comparator lives in its own shared object (libqsb_comparators.so,
**   beside the sorts'; the executable's own copy when it is missing or nothing is reloaded);
**   the registry's sorts live in libqsb_algorithms.so, plug-ins in theirs, `system` in libc:
**   all call it from another object and another 16 MiB region, as every libc qsort does.
**   near: the comparator is the copy compiled into the sorts' object (for experiments;
**   `system` and plug-ins stay far from it).
** - units: each sweep of the run (run.c) enters a new placement: a fresh copy of every sorts'
**   object that can be reloaded (the registry's, and plug-ins of qsort_r signature) is loaded
**   from an in-memory file below a reserved gap of random size (0..64 MiB), so its address,
**   16 MiB region and page offsets change from unit to unit; the comparators' object likewise,
**   loaded again while it shares a 16 MiB region with a sort. Sorts that cannot be reloaded
**   (`system` in libc, qsort-signature plug-ins, test functions) keep their one placement.
** Whether a contender's code and its comparator share a 16 MiB region is recorded per unit.
*/
#ifndef QSB_PLACEMENT_H
#define QSB_PLACEMENT_H

#include <stdbool.h>
#include <stddef.h>

#include "element.h"
#include "plugins.h"
#include "registry.h"

typedef enum { QSB_PLACEMENT_FAR, QSB_PLACEMENT_NEAR } qsb_placement_regime;


typedef struct qsb_placement qsb_placement;

/* Whether the sorts are loaded afresh for every unit. */
typedef enum {
    QSB_PLACEMENT_RELOADED, /* a fresh copy of every object that can be reloaded per unit */
    QSB_PLACEMENT_AS_GIVEN  /* every unit uses the functions as given (--no-reload; counted
                            ** runs; test sorts; sanitized builds) */
} qsb_placement_copies;

/* Prepares the placements of n algorithms (their entries, and the set of the plug-ins among
** them, plugins.h, must outlive it; NULL: none is a plug-in). Returns NULL when out of memory
** or an object cannot be read (reported). */
qsb_placement *qsb_placement_new(const qsb_algorithm *algos, size_t n,
                                 const qsb_plugins *plugins, qsb_placement_regime regime,
                                 qsb_placement_copies copies);

/* Enters a new unit: unloads the previous copies and loads fresh ones. Returns 0, or -1
** (reported) when a copy cannot be loaded. */
int qsb_placement_enter(qsb_placement *p);

/* Algorithm i is not measured in this process (visit_record.h, excluded): from the next unit
** on no copy of its object is loaded for it, so none of its code runs (a constructor too). */
void qsb_placement_skip(qsb_placement *p, size_t i);

/* The sort function of algorithm i in the current unit. */
qsb_sort_fn qsb_placement_sort(const qsb_placement *p, size_t i);

/* The comparator for elements of `size` bytes in the current unit's regime. */
qsb_compare qsb_placement_comparator(const qsb_placement *p, size_t size);

/* Do algorithm i's code and the comparator for `size` share a 16 MiB-aligned region now? */
bool qsb_placement_near(const qsb_placement *p, size_t i, size_t size);

/* "far, reloaded per unit", for the results' context. */
void qsb_placement_describe(const qsb_placement *p, char *buf, size_t len);

void qsb_placement_free(qsb_placement *p);

#endif
