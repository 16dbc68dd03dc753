/*
** The results columns' table (schema.h) and the flat file rows the writers and readers share.
*/
#include "schema.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

const qsb_column qsb_columns[QSB_COLUMN_COUNT] = {
#define QSB_COLUMN_ENTRY(name, type, field, required, csv) \
    {#name, QSB_COL_##type, offsetof(qsb_file_row, field), required, csv},
    QSB_RESULT_COLUMNS(QSB_COLUMN_ENTRY)
#undef QSB_COLUMN_ENTRY
};

void qsb_file_row_view(const qsb_results *r, const qsb_cell *cell, size_t index,
                       qsb_file_row *out)
{
    memset(out, 0, sizeof *out);
    out->row = cell->rows[index];
    if (index == 0) /* the baseline against itself: no delta */
        out->row.delta_pct = out->row.delta_lo = out->row.delta_hi = NAN;
    if (out->row.verified)
        out->row.failure = NULL;
    out->pattern = cell->pattern;
    out->nelem = cell->nelem;
    out->size = cell->size;
    out->baseline = r->baseline;
    out->metric = r->context.metric;
    out->mode = r->context.mode;
    out->seed = r->context.seed;
    out->has_seed = 1;
    out->reps = out->row.nsamples;
    out->has_samples = 1;
}

void qsb_file_row_init(qsb_file_row *r, const char *where)
{
    memset(r, 0, sizeof *r);
    qsb_summary *s = &r->row.summary;
    s->min = s->median = s->mean = s->stddev = s->cv = s->median_lo = s->median_hi = NAN;
    r->row.delta_pct = r->row.delta_lo = r->row.delta_hi = NAN;
    snprintf(r->where, sizeof r->where, "%s", where);
}

static void file_row_free(qsb_file_row *r)
{
    qsb_row_free(&r->row);
    free(r->pattern);
    free(r->baseline);
    free(r->metric);
    free(r->mode);
    memset(r, 0, sizeof *r);
}

void qsb_file_rows_free(qsb_file_row *rows, size_t n)
{
    for (size_t i = 0; i < n; i++)
        file_row_free(&rows[i]);
    free(rows);
}
