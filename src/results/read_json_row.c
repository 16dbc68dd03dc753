/*
** One result object of a JSON results file into a row (see json_fields.h): every column of the
** schema table (schema.h) read through the format's column readers, each value type-checked;
** the states as an array of objects, checked as the CSV's text is, a fault of one state
** reported on that state's line.
*/
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "json_fields.h"
#include "json_keys.h"
#include "schema.h"
#include "states_text.h"

/* ---- the format's column readers (schema.h): ctx is a json_row ---- */

typedef struct {
    const qsb_json_place *at;
    const cJSON *obj; /* the row's object */
} json_row;

static int json_samples(void *ctx, const qsb_column *c, qsb_file_row *lr)
{
    const json_row *j = ctx;
    const qsb_json_place *at = j->at;
    const char *key = c->name;
    qsb_row *row = &lr->row;
    const cJSON *list = qsb_json_member(j->obj, key);
    if (!list)
        return QSB_OK;
    lr->has_samples = 1;
    if (!cJSON_IsArray(list))
        return qsb_json_field_error(at, key, "not an array");
    int n = cJSON_GetArraySize(list);
    if (n == 0)
        return QSB_OK;
    row->samples = malloc((size_t)n * sizeof *row->samples);
    if (!row->samples)
        return qsb_out_of_memory("samples");
    size_t i = 0;
    const cJSON *item;
    cJSON_ArrayForEach(item, list) {
        if (!cJSON_IsNumber(item) || !isfinite(item->valuedouble))
            return qsb_json_field_error(at, key, "element %zu is not a finite number", i);
        row->samples[i++] = item->valuedouble;
    }
    row->nsamples = i;
    return QSB_OK;
}

/* The units: optional; one whole number below 2^32 per sample. */
static int json_units(void *ctx, const qsb_column *c, qsb_row *row)
{
    const json_row *j = ctx;
    const qsb_json_place *at = j->at;
    const char *key = c->name;
    const cJSON *list = qsb_json_member(j->obj, key);
    if (!list)
        return QSB_OK;
    if (!cJSON_IsArray(list) || (size_t)cJSON_GetArraySize(list) != row->nsamples)
        return qsb_json_field_error(at, key, "not an array of one unit per sample");
    row->units = malloc((row->nsamples ? row->nsamples : 1) * sizeof *row->units);
    if (!row->units)
        return qsb_out_of_memory("units");
    size_t i = 0;
    const cJSON *item;
    cJSON_ArrayForEach(item, list) {
        uint64_t v;
        if (!cJSON_IsNumber(item) || qsb_json_number_to_u64(item->valuedouble, &v) != 0 ||
            v > UINT32_MAX)
            return qsb_json_field_error(at, key, "element %zu is not a whole number below 2^32",
                                        i);
        row->units[i++] = (uint32_t)v;
    }
    return QSB_OK;
}

static int json_text(void *ctx, const qsb_column *c, char **out)
{
    const json_row *j = ctx;
    return qsb_json_get_string(j->at, j->obj, c->name, c->required, out);
}

static int json_count(void *ctx, const qsb_column *c, uint64_t *out)
{
    const json_row *j = ctx;
    return qsb_json_get_u64(j->at, j->obj, c->name, c->required, out);
}

static int json_number(void *ctx, const qsb_column *c, double *out)
{
    const json_row *j = ctx;
    return qsb_json_get_double(j->at, j->obj, c->name, c->required, out);
}

static int json_flag(void *ctx, const qsb_column *c, bool *out)
{
    const json_row *j = ctx;
    return qsb_json_get_bool(j->at, j->obj, c->name, c->required, out);
}

static int json_seed(void *ctx, const qsb_column *c, uint64_t *out, int *found)
{
    const json_row *j = ctx;
    return qsb_json_get_seed(j->at, j->obj, c->name, out, found);
}

/* One state's object into e: share, processes, median, and delta_pct with delta_lo and
** delta_hi (absent for a baseline's; the bounds null under three processes). */
static int get_state(const qsb_json_place *at, const cJSON *obj, qsb_state_estimate *e)
{
    uint64_t processes = 0;
    int status = !cJSON_IsObject(obj) ? qsb_json_field_error(at, "", "not an object") : QSB_OK;
    if (status == QSB_OK)
        status = qsb_json_get_double(at, obj, QSB_STATE_SHARE_KEY, 1, &e->share);
    if (status == QSB_OK)
        status = qsb_json_get_u64(at, obj, QSB_STATE_PROCESSES_KEY, 1, &processes);
    if (status == QSB_OK && processes > UINT32_MAX)
        status = qsb_json_field_error(at, QSB_STATE_PROCESSES_KEY, "not a count below 2^32");
    if (status == QSB_OK)
        status = qsb_json_get_double(at, obj, QSB_COLUMN_NAME(median), 1, &e->median);
    if (status == QSB_OK)
        status = qsb_json_get_double(at, obj, QSB_COLUMN_NAME(delta_pct), 0, &e->delta_pct);
    if (status == QSB_OK)
        status = qsb_json_get_double(at, obj, QSB_COLUMN_NAME(delta_lo), 0, &e->delta_lo);
    if (status == QSB_OK)
        status = qsb_json_get_double(at, obj, QSB_COLUMN_NAME(delta_hi), 0, &e->delta_hi);
    e->processes = (uint32_t)processes;
    return status;
}

/* The text of element k of the row's array `key`, where messages place that element's fields;
** the row's own text when the row was read from a tree (no line then) or there is no such
** element. */
static qsb_json_span element_text(const qsb_json_place *at, const char *key, size_t k)
{
    const char *p = at->text && at->row.start ? qsb_json_member_at(&at->row, key) : NULL;
    p = p ? qsb_json_string_end(p, at->row.end) : NULL;
    while (p && p < at->row.end && *p != '[') /* the blanks and the ':' before the array */
        p++;
    if (!p || p >= at->row.end)
        return at->row;
    qsb_json_span list = {p, at->row.end}, item = at->row;
    const char *cursor = p;
    for (size_t i = 0; i <= k; i++)
        if (qsb_json_next_element(&list, &cursor, &item) != 1)
            return at->row;
    return item;
}

/* The place of state k of the row's states: "results[3].states[k]" on that state's lines. */
static qsb_json_place state_place(const qsb_json_place *row, const char *key, size_t k)
{
    qsb_json_place at = *row;
    size_t used = strlen(at.where);
    snprintf(at.where + used, sizeof at.where - used, ".%s[%zu]", key, k);
    at.row = element_text(row, key, k);
    return at;
}

/* The row's states: an array of state objects, checked as the CSV's text is and rounded as
** it writes them (states_text.h); absent or null: none. A fault of one state names that state
** and its line, a fault of them together (their count, their shares) the row's `states`. */
static int json_states(void *ctx, const qsb_column *c, qsb_row *row)
{
    const json_row *j = ctx;
    const cJSON *list = qsb_json_member(j->obj, c->name), *item;
    if (!list)
        return QSB_OK;
    if (!cJSON_IsArray(list))
        return qsb_json_field_error(j->at, c->name, "not an array");
    qsb_state_estimate s[QSB_STATES_MAX];
    size_t n = 0;
    cJSON_ArrayForEach(item, list) {
        if (n == QSB_STATES_MAX)
            return qsb_json_field_error(j->at, c->name, "more states than a row can have");
        qsb_json_place at = state_place(j->at, c->name, n);
        int status = get_state(&at, item, &s[n++]);
        if (status != QSB_OK)
            return status;
    }
    size_t fault;
    const char *why = qsb_states_check(s, n, &fault);
    if (why && fault < n) {
        qsb_json_place at = state_place(j->at, c->name, fault);
        return qsb_json_field_error(&at, "", "not a row's state: %s", why);
    }
    if (why)
        return qsb_json_field_error(j->at, c->name, "not a row's states: %s", why);
    if (qsb_states_round(s, n) != 0 || !(row->states = malloc(n * sizeof *s)))
        return qsb_out_of_memory("JSON states");
    memcpy(row->states, s, n * sizeof *s);
    row->nstates = (uint8_t)n;
    return QSB_OK;
}

static int json_unfit(void *ctx, const qsb_column *c, const char *why)
{
    const json_row *j = ctx;
    return qsb_json_field_error(j->at, c->name, "not %s", why);
}

static const qsb_column_reader json_columns = {
    json_text, json_count, json_number, json_flag, json_seed, json_samples, json_units,
    json_states, json_unfit,
};

int qsb_json_read_row(const qsb_json_place *at, const cJSON *obj, qsb_file_row *fr)
{
    if (!cJSON_IsObject(obj))
        return qsb_json_field_error(at, "", "not an object");
    json_row row = {at, obj};
    int status = QSB_OK;
    for (size_t c = 0; c < QSB_COLUMN_COUNT && status == QSB_OK; c++)
        status = qsb_read_column(&json_columns, &row, &qsb_columns[c], fr);
    if (status == QSB_OK && fr->row.verified && fr->row.failure)
        status = qsb_json_field_error(at, QSB_COLUMN_NAME(failure),
                                      "given, yet the row is verified");
    return status;
}
