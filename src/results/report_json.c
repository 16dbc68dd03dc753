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

/* What the measurement depended on: the machine's state and the run's repetition rules. */
static void add_noise_control(builder *b, cJSON *o, const qsb_context *c)
{
    add(b, o, "governor", string_or_null(c->governor));
    add(b, o, "turbo", string_or_null(c->turbo));
    add(b, o, "load_average", number_or_null(c->load_average));
    add(b, o, "pinned_cpu", c->pinned_cpu >= 0 ? count((uint64_t)c->pinned_cpu)
                                               : cJSON_CreateNull());
    add(b, o, "release_build", cJSON_CreateBool(c->release_build));
    add(b, o, "sanitized", cJSON_CreateBool(c->sanitized));
    add(b, o, "repetitions", string_or_null(c->repetitions));
    add(b, o, "precision_pct", number_or_null(c->precision_pct));
    add(b, o, "budget_s", number_or_null(c->budget_s));
    add(b, o, "warmup", string_or_null(c->warmup));
    add(b, o, "nelem_source", string_or_null(c->nelem_source));
    add(b, o, "placement", string_or_null(c->placement));
    add(b, o, "drift_ratios", number_or_null(c->drift_ratios));
    add(b, o, "drift_medians", number_or_null(c->drift_medians));
}

/* "time_s": where the wall time went, when known (result.h qsb_time_split). */
static void add_time_split(builder *b, cJSON *o, const qsb_time_split *t)
{
    if (!(t->wall_s > 0))
        return;
    cJSON *split = cJSON_CreateObject();
    add(b, o, "time_s", split);
    if (!split)
        return;
    add(b, split, "wall", number_or_null(t->wall_s));
    add(b, split, "timed", number_or_null(t->timed_s));
    add(b, split, "counted", number_or_null(t->counted_s));
    add(b, split, "warmups", number_or_null(t->warmup_s));
    add(b, split, "retaken", number_or_null(t->retaken_s));
    add(b, split, "inputs", number_or_null(t->inputs_s));
    add(b, split, "copies", number_or_null(t->copies_s));
    add(b, split, "checks", number_or_null(t->checks_s));
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

/* The fleet fields: the machine's name, the shard, and the whole matrix the shard belongs to. */
static void add_fleet(builder *b, cJSON *o, const qsb_context *c)
{
    if (c->machine)
        add(b, o, "machine", cJSON_CreateString(c->machine));
    if (c->shard_n) {
        char shard[32];
        snprintf(shard, sizeof shard, "%u/%u", (unsigned)c->shard_k, (unsigned)c->shard_n);
        add(b, o, "shard", cJSON_CreateString(shard));
    }
    const qsb_matrix *m = &c->matrix;
    if (m->n_nelem == 0)
        return;
    cJSON *mo = cJSON_CreateObject();
    if (!mo) {
        b->failed = true;
        return;
    }
    add(b, mo, "nelem", count_array(b, m->nelem, m->n_nelem));
    add(b, mo, "sizes", count_array(b, m->sizes, m->n_sizes));
    add(b, mo, "patterns", string_array(b, m->patterns, m->n_patterns));
    add(b, mo, "algos", string_array(b, m->algos, m->n_algos));
    add(b, mo, "seed", count(c->seed));
    add(b, mo, "mode", string_or_null(c->mode));
    add(b, o, "matrix", mo);
}

static cJSON *context_object(builder *b, const qsb_context *c)
{
    cJSON *o = cJSON_CreateObject();
    if (!o) {
        b->failed = true;
        return NULL;
    }
    double cache_bytes[3] = {(double)c->cache_bytes[0], (double)c->cache_bytes[1],
                             (double)c->cache_bytes[2]};
    add(b, o, "tool_version", string_or_null(c->tool_version));
    add(b, o, "date", string_or_null(c->date));
    add(b, o, "host", string_or_null(c->host));
    add(b, o, "cpu_model", string_or_null(c->cpu_model));
    add(b, o, "caches", string_or_null(c->caches));
    add(b, o, "cache_bytes", number_array(b, cache_bytes, 3));
    add(b, o, "libc", string_or_null(c->libc));
    add(b, o, "compiler", string_or_null(c->compiler));
    add(b, o, "build_flags", string_or_null(c->build_flags));
    add(b, o, "build_type", string_or_null(c->build_type));
    add(b, o, "timer", string_or_null(c->timer));
    add(b, o, "timer_resolution_ns", number_or_null(c->timer_resolution_ns));
    add(b, o, "tsc_hz", number_or_null(c->tsc_hz));
    add(b, o, "metric", string_or_null(c->metric));
    add(b, o, "seed", count(c->seed));
    add(b, o, "mode", string_or_null(c->mode));
    add(b, o, "command_line", string_or_null(c->command_line));
    add(b, o, "incomplete", cJSON_CreateBool(c->incomplete));
    if (c->repetitions) /* recorded by a run (a context read back from a file has none) */
        add_noise_control(b, o, c);
    add_fleet(b, o, c);
    add_time_split(b, o, &c->time);
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
    case QSB_COL_ULONG: return count(*(const unsigned long *)field);
    case QSB_COL_DOUBLE: return number_or_null(*(const double *)field);
    case QSB_COL_BOOL: return cJSON_CreateBool(*(const bool *)field);
    case QSB_COL_SAMPLES: return number_array(b, fr->row.samples, fr->row.nsamples);
    case QSB_COL_UNITS: return fr->row.units ? unit_array(b, &fr->row) : NULL;
    }
    return NULL;
}

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

static cJSON *document(builder *b, const qsb_results *r, bool versioned)
{
    cJSON *root = cJSON_CreateObject();
    cJSON *results = cJSON_CreateArray();
    if (!root || !results) {
        cJSON_Delete(root);
        cJSON_Delete(results);
        b->failed = true;
        return NULL;
    }
    if (versioned)
        add(b, root, "schema_version", count(QSB_SCHEMA_VERSION));
    add(b, root, "context", context_object(b, &r->context));
    add(b, root, "baseline", string_or_null(r->baseline));
    for (size_t c = 0; c < r->ncells && !b->failed; c++)
        for (size_t i = 0; i < r->cells[c].nrows && !b->failed; i++) {
            cJSON *item = result_object(b, r, &r->cells[c], i);
            if (!item || !cJSON_AddItemToArray(results, item)) {
                cJSON_Delete(item);
                b->failed = true;
            }
        }
    add(b, root, "results", results);
    return root;
}

int qsb_report_json(FILE *out, const qsb_results *r)
{
    builder b = {false};
    cJSON *root = document(&b, r, true);
    return qsb_json_write(out, root, !b.failed, "JSON results");
}

/* A fleet file (fleet.h): {"schema_version": 2, "machines": [DOCUMENT, ...]}, each document
** a whole single-machine file without its schema_version. */
int qsb_report_fleet_json(FILE *out, const qsb_results *runs, size_t n)
{
    builder b = {false};
    cJSON *root = cJSON_CreateObject(), *machines = cJSON_CreateArray();
    if (!root || !machines)
        b.failed = true;
    for (size_t i = 0; i < n && !b.failed; i++) {
        cJSON *doc = document(&b, &runs[i], false);
        if (!doc || !cJSON_AddItemToArray(machines, doc)) {
            cJSON_Delete(doc);
            b.failed = true;
        }
    }
    if (root) {
        add(&b, root, "schema_version", count(QSB_FLEET_SCHEMA_VERSION));
        add(&b, root, "machines", machines);
    } else {
        cJSON_Delete(machines);
    }
    return qsb_json_write(out, root, !b.failed, "JSON results");
}
