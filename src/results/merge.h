/*
** Merging results files: the shards of one matrix from one machine become the
** whole run; runs of several machines are kept apart by machine (result.h: machine), each
** with its context whole.
**
** Inputs are grouped by machine name. Within a machine every input must be a shard of the
** same matrix (same lists, seed, mode, metric, baseline; a whole run counts as shard 1/1) and
** the shards 1..N must all be there exactly once; the cells are then put in matrix order and
** the context is shard 1's, without the shard, its run id the shards' XORed. Machines come
** out sorted by name, so the output does not depend on the order of the inputs. A CSV input
** carries no shard or matrix: it is accepted as a whole run, alone for its machine.
**
** Every refusal is one line through diag and QSB_EUSAGE: duplicate cells (or shards) from one
** machine, different seeds, input modes, metrics, baselines or matrices within one machine,
** missing shards (listed), a shard without its matrix record.
*/
#ifndef QSB_MERGE_H
#define QSB_MERGE_H

#include <stddef.h>

#include "result.h"

typedef struct {
    qsb_results run;  /* one machine's results of one file */
    const char *file; /* where it came from, as messages show it */
} qsb_merge_input;

/* Merges in[0..n-1] (their results are taken over and freed, also on failure) into *out, a
** malloc'd array of *nout machines sorted by name (free each with qsb_results_free, then the
** array). Returns QSB_OK, QSB_EUSAGE or QSB_ESYSTEM (reported). */
int qsb_merge(qsb_merge_input *in, size_t n, qsb_results **out, size_t *nout);

/* Sets out->run_id to the id of a result made of the runs in[0..n-1]: their ids XORed, so that
** it differs from each of theirs, does not depend on their order, and one run alone keeps its
** own; NULL when one of them has no id. -1 when out of memory. */
int qsb_merged_run_id(const qsb_merge_input *in, size_t n, qsb_context *out);

#endif
