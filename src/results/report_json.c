/*
** The JSON results file (schema.h), built with cJSON:
** {"schema_version": 1, "context": {...}, "baseline": NAME, "results": [...]}; each result
** carries the schema's columns under their names and every sample in round order. NAN
** becomes null; every number reads back as the very double written.
*/
#include "report.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>

#include <cjson/cJSON.h>

#include "diag.h"
#include "json_write.h"
#include "schema.h"

/* cJSON's adders return NULL when out of memory; one flag collects that for a whole tree. */
typedef struct {
    bool failed;
} builder;

static void add(builder *b, cJSON *object, const char *name, cJSON *item)
{
    if (!item || !cJSON_AddItemToObject(object, name, item)) {
        cJSON_Delete(item);
        b->failed = true;
    }
}

/* cJSON prints 15 significant digits whenever they come within an epsilon of the value, so a
** double would not always read back the same. Here the shortest of 15, 16 or 17 digits that
** reads back exactly is used: the JSON carries the very numbers of the CSV. JSON has no NAN
** or infinity: they become null. */
static cJSON *number_or_null(double value)
{
    if (!isfinite(value))
        return cJSON_CreateNull();
    char text[32];
    for (int digits = 15; digits <= 17; digits++) {
        snprintf(text, sizeof text, "%.*g", digits, value);
        if (strtod(text, NULL) == value)
            break;
    }
    return cJSON_CreateRaw(text);
}

static cJSON *string_or_null(const char *text)
{
    return text ? cJSON_CreateString(text) : cJSON_CreateNull();
}

static cJSON *number_array(builder *b, const double *values, size_t n)
{
    cJSON *array = cJSON_CreateArray();
    for (size_t i = 0; array && i < n; i++) {
        cJSON *item = number_or_null(values[i]);
        if (!item || !cJSON_AddItemToArray(array, item)) {
            cJSON_Delete(item);
            b->failed = true;
        }
    }
    return array;
}

/* Counts: exact in a double below 2^53, far above any count here. */
static cJSON *count(uint64_t value)
{
    return number_or_null((double)value);
}

static cJSON *string_array(builder *b, char *const *words, size_t n)
{
    cJSON *array = cJSON_CreateArray();
    for (size_t i = 0; array && i < n; i++) {
        cJSON *item = cJSON_CreateString(words[i]);
        if (!item || !cJSON_AddItemToArray(array, item)) {
            cJSON_Delete(item);
            b->failed = true;
        }
    }
    return array;
}

static cJSON *count_array(builder *b, const uint64_t *values, size_t n)
{
    cJSON *array = cJSON_CreateArray();
    for (size_t i = 0; array && i < n; i++) {
        cJSON *item = count(values[i]);
        if (!item || !cJSON_AddItemToArray(array, item)) {
            cJSON_Delete(item);
            b->failed = true;
        }
    }
    return array;
}

/* "matrix": the whole matrix a shard belongs to (schema.h QSB_CTX_MATRIX). */
static cJSON *matrix_object(builder *b, const qsb_context *c)
{
    const qsb_matrix *m = &c->matrix;
    cJSON *mo = cJSON_CreateObject();
    if (!mo) {
        b->failed = true;
        return NULL;
    }
    add(b, mo, "nelem", count_array(b, m->nelem, m->n_nelem));
    add(b, mo, "sizes", count_array(b, m->sizes, m->n_sizes));
    add(b, mo, "patterns", string_array(b, m->patterns, m->n_patterns));
    add(b, mo, "algos", string_array(b, m->algos, m->n_algos));
    add(b, mo, QSB_COLUMN_NAME(seed), count(c->seed));
    add(b, mo, QSB_COLUMN_NAME(mode), string_or_null(c->mode));
    return mo;
}

/* "time_s" (schema.h QSB_TIME_PARTS). */
static cJSON *time_object(builder *b, const qsb_time_split *t)
{
    cJSON *split = cJSON_CreateObject();
    if (!split) {
        b->failed = true;
        return NULL;
    }
    for (size_t i = 0; i < QSB_TIME_PART_COUNT; i++)
        add(b, split, qsb_time_parts[i].key,
            number_or_null(*(const double *)((const char *)t + qsb_time_parts[i].offset)));
    return split;
}

static cJSON *shard_text(const qsb_context *c)
{
    char shard[32];
    snprintf(shard, sizeof shard, "%u/%u", (unsigned)c->shard_k, (unsigned)c->shard_n);
    return cJSON_CreateString(shard);
}

/* Whether the context has key k: a run's own keys only when it has its repetitions (a
** context read back from a file of an earlier version has none); the machine's name, the
** shard, the matrix and the time split only when known. */
static bool context_has(const qsb_context_key *k, const qsb_context *c)
{
    if (k->group == QSB_CTX_RUN && !c->repetitions)
        return false;
    switch (k->type) {
    case QSB_CTX_NAME: return *(char *const *)qsb_context_field(k, (qsb_context *)c) != NULL;
    case QSB_CTX_SHARD: return c->shard_n != 0;
    case QSB_CTX_MATRIX: return c->matrix.n_nelem != 0;
    case QSB_CTX_TIME: return c->time.wall_s > 0;
    default: return true;
    }
}

/* The member of key k; NULL when out of memory. */
static cJSON *context_value(builder *b, const qsb_context_key *k, const qsb_context *c)
{
    const void *field = qsb_context_field(k, (qsb_context *)c);
    switch (k->type) {
    case QSB_CTX_TEXT:
    case QSB_CTX_NAME: return string_or_null(*(char *const *)field);
    case QSB_CTX_NUMBER:
    case QSB_CTX_MEASURE: return number_or_null(*(const double *)field);
    case QSB_CTX_BOOL: return cJSON_CreateBool(*(const bool *)field);
    case QSB_CTX_SEED: return count(*(const uint64_t *)field);
    case QSB_CTX_CPU: {
        int cpu = *(const int *)field;
        return cpu >= 0 ? count((uint64_t)cpu) : cJSON_CreateNull();
    }
    case QSB_CTX_CACHES: {
        const uint64_t *bytes = field;
        double values[3] = {(double)bytes[0], (double)bytes[1], (double)bytes[2]};
        return number_array(b, values, 3);
    }
    case QSB_CTX_SHARD: return shard_text(c);
    case QSB_CTX_MATRIX: return matrix_object(b, c);
    case QSB_CTX_TIME: return time_object(b, field);
    }
    return NULL;
}

/* The keys of QSB_CONTEXT_KEYS that the context has, in the table's order. */
static cJSON *context_object(builder *b, const qsb_context *c)
{
    cJSON *o = cJSON_CreateObject();
    if (!o) {
        b->failed = true;
        return NULL;
    }
    for (size_t i = 0; i < QSB_CONTEXT_KEY_COUNT && !b->failed; i++) {
        const qsb_context_key *k = &qsb_context_keys[i];
        if (context_has(k, c))
            add(b, o, k->key, context_value(b, k, c));
    }
    return o;
}

/* The unit of each sample as JSON numbers; NULL (and the builder failed) when out of
** memory. */
static cJSON *unit_array(builder *b, const qsb_row *row)
{
    double *units = malloc((row->nsamples ? row->nsamples : 1) * sizeof *units);
    if (!units) {
        b->failed = true;
        return NULL;
    }
    for (size_t i = 0; i < row->nsamples; i++)
        units[i] = row->units[i];
    cJSON *array = number_array(b, units, row->nsamples);
    free(units);
    return array;
}

/* The row's states as an array of objects {share, processes, median, delta_pct, delta_lo,
** delta_hi}, a baseline's without the delta's three; null without states. */
static cJSON *states_array(builder *b, const qsb_state_estimate *s, size_t n)
{
    if (!s)
        return cJSON_CreateNull();
    cJSON *array = cJSON_CreateArray();
    for (size_t k = 0; array && k < n; k++) {
        cJSON *o = cJSON_CreateObject();
        if (!o || !cJSON_AddItemToArray(array, o)) {
            cJSON_Delete(o);
            b->failed = true;
            break;
        }
        add(b, o, QSB_STATE_SHARE_KEY, number_or_null(s[k].share));
        add(b, o, QSB_STATE_PROCESSES_KEY, count(s[k].processes));
        add(b, o, QSB_COLUMN_NAME(median), number_or_null(s[k].median));
        if (isfinite(s[k].delta_pct)) {
            add(b, o, QSB_COLUMN_NAME(delta_pct), number_or_null(s[k].delta_pct));
            add(b, o, QSB_COLUMN_NAME(delta_lo), number_or_null(s[k].delta_lo));
            add(b, o, QSB_COLUMN_NAME(delta_hi), number_or_null(s[k].delta_hi));
        }
    }
    if (!array)
        b->failed = true;
    return array;
}

/* One column's member; NULL for a column the row leaves out (unknown units). */
static cJSON *column_value(builder *b, const qsb_column *c, qsb_file_row *fr)
{
    const void *field = qsb_column_field(c, fr);
    switch (c->type) {
    case QSB_COL_TEXT: return string_or_null(*(char *const *)field);
    case QSB_COL_U64:
    case QSB_COL_SIZE:
    case QSB_COL_SEED: return count(*(const uint64_t *)field);
    case QSB_COL_UINT: return count(*(const unsigned *)field);
    case QSB_COL_DOUBLE: return number_or_null(*(const double *)field);
    case QSB_COL_BOOL: return cJSON_CreateBool(*(const bool *)field);
    case QSB_COL_SAMPLES: return number_array(b, fr->row.samples, fr->row.nsamples);
    case QSB_COL_UNITS: return fr->row.units ? unit_array(b, &fr->row) : NULL;
    case QSB_COL_STATES: return states_array(b, fr->row.states, fr->row.nstates);
    }
    return NULL;
}

/* Whether a document carries its schema_version (a fleet's documents do not: the fleet does). */
typedef enum { QSB_VERSIONED, QSB_UNVERSIONED } qsb_versioning;

static cJSON *result_object(builder *b, const qsb_results *r, const qsb_cell *cell,
                            size_t index)
{
    qsb_file_row fr;
    qsb_file_row_view(r, cell, index, &fr);
    cJSON *o = cJSON_CreateObject();
    if (!o) {
        b->failed = true;
        return NULL;
    }
    for (size_t i = 0; i < QSB_COLUMN_COUNT && !b->failed; i++) {
        const qsb_column *c = &qsb_columns[i];
        if (c->type != QSB_COL_UNITS || fr.row.units)
            add(b, o, c->name, column_value(b, c, &fr));
    }
    return o;
}

/* A document's members before its results: schema_version (versioned), context, baseline. */
static cJSON *document_head(builder *b, const qsb_results *r, qsb_versioning versioning)
{
    cJSON *root = cJSON_CreateObject();
    if (!root) {
        b->failed = true;
        return NULL;
    }
    if (versioning == QSB_VERSIONED)
        add(b, root, "schema_version", count(QSB_SCHEMA_VERSION));
    add(b, root, "context", context_object(b, &r->context));
    add(b, root, QSB_COLUMN_NAME(baseline), string_or_null(r->baseline));
    return root;
}

/* o, or NULL (o deleted) when building it failed part-way: the stream then reports it. */
static cJSON *built(const builder *b, cJSON *o)
{
    if (!b->failed)
        return o;
    cJSON_Delete(o);
    return NULL;
}

/* A document's rows into its open stream, one at a time. */
static int stream_rows(qsb_json_stream *s, builder *b, const qsb_results *r)
{
    int status = QSB_OK;
    for (qsb_row_cursor at = {0}; status == QSB_OK && qsb_results_next_row(r, &at);)
        status = qsb_json_stream_add(s, built(b, result_object(b, r, at.cell, at.i)));
    return status;
}

/* The rows one at a time: a file of millions of rows is never a tree in memory. */
int qsb_report_json(FILE *out, const qsb_results *r)
{
    builder b = {false};
    qsb_json_stream doc;
    int status = qsb_json_stream_open(&doc, out, built(&b, document_head(&b, r, QSB_VERSIONED)),
                                      "results", "JSON results");
    if (status == QSB_OK)
        status = stream_rows(&doc, &b, r);
    qsb_json_stream_close(&doc);
    return status;
}

/* A fleet file (fleet.h): {"schema_version": 2, "machines": [DOCUMENT, ...]}, each document
** a whole single-machine file without its schema_version; each written a row at a time. */
int qsb_report_fleet_json(FILE *out, const qsb_results *runs, size_t n)
{
    builder b = {false};
    cJSON *root = cJSON_CreateObject();
    if (root)
        add(&b, root, "schema_version", count(QSB_FLEET_SCHEMA_VERSION));
    qsb_json_stream fleet, doc;
    int status = qsb_json_stream_open(&fleet, out, built(&b, root), "machines", "JSON results");
    for (size_t i = 0; i < n && status == QSB_OK; i++) {
        cJSON *head = built(&b, document_head(&b, &runs[i], QSB_UNVERSIONED));
        status = qsb_json_stream_open_element(&fleet, &doc, head, "results");
        if (status == QSB_OK)
            status = stream_rows(&doc, &b, &runs[i]);
        qsb_json_stream_close(&doc);
    }
    qsb_json_stream_close(&fleet);
    return status;
}
