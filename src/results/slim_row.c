/*
** The slim row (result.h): what compare reads of a row, packed into one block of the store,
** and given back as a qsb_row view.
*/
#include <math.h>
#include <stdint.h>
#include <string.h>

#include "result.h"

/* Holding a file of millions of rows in under three times its size rests on this size. */
_Static_assert(sizeof(qsb_slim_row) == 40, "a slim row is 40 bytes");
_Static_assert(sizeof(qsb_cell) == 40, "a cell is 40 bytes");

const char *qsb_cell_algorithm(const qsb_cell *cell, size_t i)
{
    return cell->slim_rows ? cell->slim[i].algorithm : cell->rows[i].algorithm;
}

/* The block's parts in order: samples, states, units, failure (the doubles first, so that
** each part is aligned for its type). */
typedef struct {
    size_t samples, states, units, failure;
} block_sizes;

static block_sizes sizes_of(const qsb_row *row)
{
    size_t n = row->samples ? row->nsamples : 0;
    return (block_sizes){n * sizeof(double), row->nstates * sizeof(qsb_state_estimate),
                         row->units ? n * sizeof(uint32_t) : 0,
                         row->failure ? strlen(row->failure) + 1 : 0};
}

/* A part of the block; an absent one (NULL, 0 bytes) copies nothing. */
static void copy_part(char *to, const void *from, size_t bytes)
{
    if (bytes)
        memcpy(to, from, bytes);
}

int qsb_slim_row_pack(qsb_store **store, const qsb_row *row, qsb_slim_row *out)
{
    block_sizes z = sizes_of(row);
    size_t bytes = z.samples + z.states + z.units + z.failure;
    *out = (qsb_slim_row){.algorithm = row->algorithm,
                          .median = row->summary.median,
                          .comparisons = row->comparisons,
                          /* below 2^32: the readers' size cap */
                          .nsamples = row->samples ? (uint32_t)row->nsamples : 0,
                          .verified = row->verified,
                          .has_units = row->units != NULL,
                          .has_failure = row->failure != NULL,
                          .nstates = row->nstates};
    if (bytes == 0)
        return 0;
    char *block = qsb_store_alloc(store, bytes);
    if (!block)
        return -1;
    copy_part(block, row->samples, z.samples);
    copy_part(block + z.samples, row->states, z.states);
    copy_part(block + z.samples + z.states, row->units, z.units);
    copy_part(block + z.samples + z.states + z.units, row->failure, z.failure);
    out->block = block;
    return 0;
}

void qsb_slim_row_view(const qsb_slim_row *slim, qsb_row *row)
{
    const char *at = slim->block;
    size_t n = slim->nsamples;
    double nan = NAN;
    *row = (qsb_row){.algorithm = (char *)slim->algorithm,
                     .nsamples = n,
                     .summary = {nan, slim->median, nan, nan, nan, nan, nan, 0},
                     .delta_pct = nan,
                     .delta_lo = nan,
                     .delta_hi = nan,
                     .comparisons = slim->comparisons,
                     .verified = slim->verified};
    if (!at)
        return;
    row->samples = n ? (double *)at : NULL;
    at += n * sizeof(double);
    row->states = slim->nstates ? (qsb_state_estimate *)at : NULL;
    row->nstates = slim->nstates;
    at += slim->nstates * sizeof(qsb_state_estimate);
    row->units = slim->has_units ? (uint32_t *)at : NULL;
    at += slim->has_units ? n * sizeof(uint32_t) : 0;
    row->failure = slim->has_failure ? (char *)at : NULL;
}
