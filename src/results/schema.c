/*
** The results columns' table (schema.h) and the flat file rows the writers and readers share.
*/
#include "schema.h"

#include <math.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "diag.h"

const qsb_column qsb_columns[QSB_COLUMN_COUNT] = {
#define QSB_COLUMN_ENTRY(name, type, field, required, csv) \
    {#name, QSB_COL_##type, offsetof(qsb_file_row, field), required, csv},
    QSB_RESULT_COLUMNS(QSB_COLUMN_ENTRY)
#undef QSB_COLUMN_ENTRY
};

const qsb_context_key qsb_context_keys[QSB_CONTEXT_KEY_COUNT] = {
#define QSB_CONTEXT_ENTRY(key, type, field, required, group) \
    {#key, QSB_CTX_##type, offsetof(qsb_context, field), required, QSB_CTX_##group},
    QSB_CONTEXT_KEYS(QSB_CONTEXT_ENTRY)
#undef QSB_CONTEXT_ENTRY
};

const qsb_time_part qsb_time_parts[QSB_TIME_PART_COUNT] = {
#define QSB_TIME_PART_ENTRY(key, field) {#key, offsetof(qsb_time_split, field)},
    QSB_TIME_PARTS(QSB_TIME_PART_ENTRY)
#undef QSB_TIME_PART_ENTRY
};

/* What a whole number v lacks for column c, or NULL when it fits. */
static const char *count_unfit(const qsb_column *c, uint64_t v)
{
    if (c->type == QSB_COL_SIZE && v == 0)
        return "a size (>= 1)";
    if (c->type == QSB_COL_UINT && v > UINT32_MAX)
        return "a count below 2^32";
    return NULL;
}

/* v into the field of the column's width. */
static void set_count(const qsb_column *c, qsb_file_row *r, uint64_t v)
{
    void *field = qsb_column_field(c, r);
    if (c->type == QSB_COL_UINT)
        *(unsigned *)field = (unsigned)v;
    else
        *(uint64_t *)field = v;
}

/* Column c's value from the file into r, with the checks of its type. */
static int read_value(const qsb_column_reader *in, void *ctx, const qsb_column *c,
                      qsb_file_row *r)
{
    void *field = qsb_column_field(c, r);
    uint64_t v = 0;
    int status;
    const char *unfit;
    switch (c->type) {
    case QSB_COL_TEXT: return in->text(ctx, c, field);
    case QSB_COL_U64:
    case QSB_COL_SIZE:
    case QSB_COL_UINT:
        if ((status = in->count(ctx, c, &v)) != QSB_OK)
            return status;
        if ((unfit = count_unfit(c, v)) != NULL)
            return in->unfit(ctx, c, unfit);
        set_count(c, r, v);
        return QSB_OK;
    case QSB_COL_DOUBLE: return in->number(ctx, c, field);
    case QSB_COL_BOOL: return in->flag(ctx, c, field);
    case QSB_COL_SEED: return in->seed(ctx, c, field, &r->has_seed);
    case QSB_COL_SAMPLES: return in->samples(ctx, c, r);
    case QSB_COL_UNITS: return in->units(ctx, c, &r->row);
    case QSB_COL_STATES: return in->states(ctx, c, &r->row);
    }
    return QSB_OK;
}

/* Does column c hold a time of one sort (in a time metric)? A time is above 0: a file of
** zeros would otherwise compare as "same" with anything. */
static bool holds_time(const qsb_column *c, const qsb_file_row *r)
{
    size_t id = (size_t)(c - qsb_columns);
    bool timed = r->metric && (strcmp(r->metric, "cycles") == 0 || strcmp(r->metric, "ns") == 0);
    return timed && (id == QSB_COLUMN_min || id == QSB_COLUMN_median || id == QSB_COLUMN_mean ||
                     id == QSB_COLUMN_samples);
}

/* The check of a time column read into r (the metric, an earlier column, says whether it is
** one): every known value above 0. */
static int check_times(const qsb_column_reader *in, void *ctx, const qsb_column *c,
                       const qsb_file_row *r)
{
    if (!holds_time(c, r))
        return QSB_OK;
    char why[128];
    if (c->type == QSB_COL_DOUBLE) {
        double v = *(const double *)((const char *)r + c->offset);
        snprintf(why, sizeof why, "a time above 0 (the metric is %s)", r->metric);
        return v <= 0.0 ? in->unfit(ctx, c, why) : QSB_OK;
    }
    for (size_t i = 0; i < r->row.nsamples; i++)
        if (r->row.samples[i] <= 0.0) {
            snprintf(why, sizeof why, "a list of times above 0 (sample %zu of %zu is %g; the "
                     "metric is %s)", i + 1, r->row.nsamples, r->row.samples[i], r->metric);
            return in->unfit(ctx, c, why);
        }
    return QSB_OK;
}

int qsb_read_column(const qsb_column_reader *in, void *ctx, const qsb_column *c,
                    qsb_file_row *r)
{
    int status = read_value(in, ctx, c, r);
    return status == QSB_OK ? check_times(in, ctx, c, r) : status;
}

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
    out->incomplete = r->context.incomplete;
    out->run_id = r->context.run_id;
}

void qsb_file_row_init(qsb_file_row *r)
{
    memset(r, 0, sizeof *r);
    qsb_summary *s = &r->row.summary;
    s->min = s->median = s->mean = s->stddev = s->cv = s->median_lo = s->median_hi = NAN;
    r->row.delta_pct = r->row.delta_lo = r->row.delta_hi = NAN;
}

void qsb_file_row_free(qsb_file_row *r)
{
    qsb_row_free(&r->row);
    free(r->pattern);
    free(r->baseline);
    free(r->metric);
    free(r->mode);
    free(r->run_id);
    memset(r, 0, sizeof *r);
}
