/*
** The one result structure's memory: freeing it, and the small builders the run and the
** readers use (see result.h). Arrays grow one element at a time: a run has at most a few
** hundred cells and samples per row, and exact sizes keep every array safe to extend no
** matter who built it.
*/
#include "result.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

int qsb_set_string(char **field, const char *value)
{
    char *copy = NULL;
    if (value && !(copy = strdup(value)))
        return -1;
    free(*field);
    *field = copy;
    return 0;
}

int qsb_row_init(qsb_row *row, const char *algorithm)
{
    memset(row, 0, sizeof *row);
    row->summary = (qsb_summary){NAN, NAN, NAN, NAN, NAN, NAN, NAN, 0};
    row->delta_pct = row->delta_lo = row->delta_hi = NAN;
    row->verified = true;
    return qsb_set_string(&row->algorithm, algorithm);
}

int qsb_row_add_sample(qsb_row *row, double value, uint32_t unit)
{
    double *grown = realloc(row->samples, (row->nsamples + 1) * sizeof *grown);
    if (!grown)
        return -1;
    row->samples = grown;
    uint32_t *units = realloc(row->units, (row->nsamples + 1) * sizeof *units);
    if (!units)
        return -1;
    row->units = units;
    grown[row->nsamples] = value;
    units[row->nsamples++] = unit;
    return 0;
}

size_t qsb_row_unit_count(const qsb_row *row)
{
    size_t count = 0;
    for (size_t i = 0; row->units && i < row->nsamples; i++)
        if (row->units[i] + (size_t)1 > count)
            count = row->units[i] + (size_t)1;
    return count;
}

int qsb_row_fail(qsb_row *row, const char *reason)
{
    row->verified = false;
    return qsb_set_string(&row->failure, reason);
}

void qsb_row_free(qsb_row *row)
{
    free(row->algorithm);
    free(row->samples);
    free(row->units);
    free(row->failure);
    memset(row, 0, sizeof *row);
}

static void cell_free(qsb_cell *cell)
{
    for (size_t i = 0; i < cell->nrows; i++)
        qsb_row_free(&cell->rows[i]);
    free(cell->rows);
    free(cell->pattern);
    memset(cell, 0, sizeof *cell);
}

qsb_cell *qsb_results_add_cell(qsb_results *r, const char *pattern, uint64_t nelem,
                               uint64_t size, const char *const *algorithms, size_t nrows)
{
    qsb_cell cell = {NULL, nelem, size, calloc(nrows ? nrows : 1, sizeof(qsb_row)), nrows};
    int failed = !cell.rows || qsb_set_string(&cell.pattern, pattern) != 0;
    for (size_t i = 0; i < nrows && !failed; i++)
        failed = qsb_row_init(&cell.rows[i], algorithms[i]) != 0;
    qsb_cell *grown = failed ? NULL : realloc(r->cells, (r->ncells + 1) * sizeof *grown);
    if (!grown) {
        cell_free(&cell);
        return NULL;
    }
    r->cells = grown;
    r->cells[r->ncells] = cell;
    return &r->cells[r->ncells++];
}

void qsb_results_drop_last_cell(qsb_results *r)
{
    if (r->ncells > 0)
        cell_free(&r->cells[--r->ncells]);
}

static void context_free(qsb_context *c)
{
    char **strings[] = {&c->tool_version, &c->date,      &c->host,        &c->cpu_model,
                        &c->caches,       &c->libc,      &c->compiler,    &c->build_flags,
                        &c->build_type,   &c->timer,     &c->metric,      &c->mode,
                        &c->command_line, &c->governor,  &c->turbo,       &c->repetitions,
                        &c->warmup,       &c->nelem_source, &c->placement};
    for (size_t i = 0; i < sizeof strings / sizeof strings[0]; i++)
        free(*strings[i]);
    memset(c, 0, sizeof *c);
}

void qsb_results_free(qsb_results *r)
{
    if (!r)
        return;
    while (r->ncells > 0)
        qsb_results_drop_last_cell(r);
    free(r->cells);
    free(r->baseline);
    context_free(&r->context);
    memset(r, 0, sizeof *r);
}
