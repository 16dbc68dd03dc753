/*
** The JSON results reader (schema.h), parsed with cJSON: a document's rows one at a time, the
** rest of it as one tree (json_split.h). Syntax errors name the line; schema errors name the
** field ("results[3].nelem"), and in a row read from its text the field's line too. A key given
** twice in one object is refused (json_keys.h). Every value is type-checked: a results file
** may come from anywhere.
**
** In this order: the places and typed fields (where in a file a value is read, and the getters
** that type-check one member each); the context; a row; the document (its syntax, schema
** version, fleet of machines) and its rows in turn.
*/
#include <cjson/cJSON.h>
#include <math.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "assemble.h"
#include "diag.h"
#include "json_keys.h"
#include "json_split.h"
#include "schema.h"
#include "states_text.h"

typedef struct {
    const char *name; /* as messages show it: escaped already (read_results.h) */
    char where[48]; /* the object being read: "context", "results[3]" */
    const char *text;  /* the file's text when the row was parsed from it alone, else NULL */
    qsb_json_span row; /* that row's text: messages name the line of its member */
} json_place;

/* ---- The places and typed fields: where in a results file a value is read (the object's
** path, "results[3].states[1]", and the text that gives its line) and the getters that
** type-check one member each, refusing a wrong one with one message naming file, line and
** field. ---- */

/* The line of member key of the row being read (of the row, when the key is not there); 0
** when the row was read from a tree. */
static size_t line_of(const json_place *at, const char *key)
{
    if (!at->text || !at->row.start)
        return 0;
    const char *member = *key ? qsb_json_member_at(&at->row, key) : NULL;
    return qsb_json_line_of(at->text, member ? member : at->row.start);
}

/* Refuses the member key of the object at `at` (the object itself when key is ""): "FILE:LINE:
** field 'results[3].key': what", the line when the object was read from its text. Returns
** QSB_EUSAGE. */
static int field_error(const json_place *at, const char *key, const char *fmt, ...)
{
    char what[160];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(what, sizeof what, fmt, ap);
    va_end(ap);
    char line[32] = "";
    size_t n = line_of(at, key);
    if (n)
        snprintf(line, sizeof line, ":%zu", n);
    return qsb_error(QSB_EUSAGE, "%s%s: field '%s%s%s': %s", at->name, line, at->where,
                     *at->where && *key ? "." : "", key, what);
}

/* Member key of obj; NULL when absent or null. */
static const cJSON *member_of(const cJSON *obj, const char *key)
{
    const cJSON *item = cJSON_GetObjectItemCaseSensitive(obj, key);
    return item && !cJSON_IsNull(item) ? item : NULL;
}

/* Member key of obj type-checked as a string, a whole number, a number or a boolean; an
** absent (or null) member is refused when `required` is non-zero. QSB_OK, or the error
** reported. */
static int get_string(const json_place *at, const cJSON *obj, const char *key,
                      int required, char **out)
{
    const cJSON *item = member_of(obj, key);
    *out = NULL;
    if (!item)
        return required ? field_error(at, key, "missing") : QSB_OK;
    if (!cJSON_IsString(item))
        return field_error(at, key, "not a string");
    if (required && item->valuestring[0] == '\0')
        return field_error(at, key, "empty");
    *out = strdup(item->valuestring);
    return *out ? QSB_OK : qsb_out_of_memory("JSON string");
}

/* Whole numbers arrive as doubles: exact only up to 2^53, which covers every real count. */
static int number_to_u64(double v, uint64_t *out)
{
    if (!isfinite(v) || v < 0 || v >= 18446744073709551616.0 || v != floor(v))
        return -1;
    *out = (uint64_t)v;
    return 0;
}

static int get_u64(const json_place *at, const cJSON *obj, const char *key,
                   int required, uint64_t *out)
{
    const cJSON *item = member_of(obj, key);
    if (!item)
        return required ? field_error(at, key, "missing") : QSB_OK;
    if (!cJSON_IsNumber(item) || number_to_u64(item->valuedouble, out) != 0)
        return field_error(at, key, "not a whole number");
    return QSB_OK;
}

/* Absent or null means unknown (NAN), as the writers put it. */
static int get_double(const json_place *at, const cJSON *obj, const char *key,
                      int required, double *out)
{
    const cJSON *item = member_of(obj, key);
    *out = NAN;
    if (!item)
        return required && !cJSON_GetObjectItemCaseSensitive(obj, key)
                   ? field_error(at, key, "missing")
                   : QSB_OK;
    if (!cJSON_IsNumber(item) || !isfinite(item->valuedouble))
        return field_error(at, key, "not a finite number");
    *out = item->valuedouble;
    return QSB_OK;
}

static int get_bool(const json_place *at, const cJSON *obj, const char *key,
                    int required, bool *out)
{
    const cJSON *item = member_of(obj, key);
    if (!item)
        return required ? field_error(at, key, "missing") : QSB_OK;
    if (!cJSON_IsBool(item))
        return field_error(at, key, "not true or false");
    *out = cJSON_IsTrue(item);
    return QSB_OK;
}

/* The seed: a number, or a "0x..." string (a number above 2^53 would lose bits). */
static int get_seed(const json_place *at, const cJSON *obj, const char *key, uint64_t *out,
                    int *found)
{
    const cJSON *item = member_of(obj, key);
    *found = item != NULL;
    if (!item)
        return QSB_OK;
    if (cJSON_IsString(item) && qsb_text_to_u64(item->valuestring, 1, out) == 0)
        return QSB_OK;
    if (cJSON_IsNumber(item) && number_to_u64(item->valuedouble, out) == 0)
        return QSB_OK;
    return field_error(at, key, "not a whole number or a 0x-hex string");
}

/* ---- The context block: each key of the schema's context table (schema.h
** QSB_CONTEXT_KEYS) read and type-checked, the optional ones (the matrix, the shard, the time
** split, the cache sizes) left unknown when absent. ---- */

static int get_cache_bytes(const json_place *at, const cJSON *ctx, uint64_t bytes[3])
{
    const cJSON *list = member_of(ctx, "cache_bytes");
    if (!list)
        return QSB_OK;
    if (!cJSON_IsArray(list) || cJSON_GetArraySize(list) > 3)
        return field_error(at, "cache_bytes", "not an array of at most 3 sizes");
    size_t i = 0;
    const cJSON *item;
    cJSON_ArrayForEach(item, list) {
        if (!cJSON_IsNumber(item) || number_to_u64(item->valuedouble, &bytes[i]) != 0)
            return field_error(at, "cache_bytes", "element %zu is not a whole number", i);
        i++;
    }
    return QSB_OK;
}

/* The optional "time_s" (schema.h QSB_TIME_PARTS): every member a number of seconds, none
** negative; absent, all 0 (unknown). */
static int read_time_split(const json_place *at, const cJSON *ctx, qsb_time_split *t)
{
    memset(t, 0, sizeof *t);
    const cJSON *o = member_of(ctx, "time_s");
    if (!o)
        return QSB_OK;
    if (!cJSON_IsObject(o))
        return field_error(at, "time_s", "not an object");
    json_place in = {at->name, "context.time_s", NULL, {NULL, NULL}};
    int status = QSB_OK;
    for (size_t i = 0; i < QSB_TIME_PART_COUNT && status == QSB_OK; i++) {
        double *part = (double *)((char *)t + qsb_time_parts[i].offset);
        status = get_double(&in, o, qsb_time_parts[i].key, 1, part);
        if (status == QSB_OK && *part < 0)
            status = field_error(&in, qsb_time_parts[i].key, "negative");
    }
    if (status != QSB_OK)
        memset(t, 0, sizeof *t);
    return status;
}

static int get_u64_array(const json_place *at, const cJSON *obj, const char *key,
                         uint64_t **out, size_t *n)
{
    const cJSON *list = member_of(obj, key), *item;
    if (!list || !cJSON_IsArray(list) || cJSON_GetArraySize(list) == 0)
        return field_error(at, key, "not a non-empty array");
    *n = (size_t)cJSON_GetArraySize(list);
    if (!(*out = calloc(*n, sizeof **out)))
        return qsb_out_of_memory("JSON matrix");
    size_t i = 0;
    cJSON_ArrayForEach(item, list) {
        if (!cJSON_IsNumber(item) || number_to_u64(item->valuedouble, &(*out)[i]) != 0 ||
            (*out)[i] == 0)
            return field_error(at, key, "element %zu is not a positive whole number", i);
        i++;
    }
    return QSB_OK;
}

static int get_word_array(const json_place *at, const cJSON *obj, const char *key,
                          char ***out, size_t *n)
{
    const cJSON *list = member_of(obj, key), *item;
    if (!list || !cJSON_IsArray(list) || cJSON_GetArraySize(list) == 0)
        return field_error(at, key, "not a non-empty array");
    size_t count = (size_t)cJSON_GetArraySize(list);
    if (!(*out = calloc(count, sizeof **out)))
        return qsb_out_of_memory("JSON matrix");
    *n = count; /* every slot NULL until filled: safe to free at any point */
    size_t i = 0;
    cJSON_ArrayForEach(item, list) {
        if (!cJSON_IsString(item) || !item->valuestring[0])
            return field_error(at, key, "element %zu is not a name", i);
        if (!((*out)[i] = strdup(item->valuestring)))
            return qsb_out_of_memory("JSON matrix");
        i++;
    }
    return QSB_OK;
}

/* "shard": "K/N" with 1 <= K <= N (absent: the whole run). */
static int read_shard(const json_place *at, const cJSON *ctx, qsb_context *c)
{
    char *shard = NULL;
    int status = get_string(at, ctx, "shard", 0, &shard);
    if (status == QSB_OK && shard) {
        unsigned k = 0, n = 0;
        int end = 0;
        if (sscanf(shard, "%u/%u%n", &k, &n, &end) != 2 || shard[end] != '\0' || k < 1 ||
            k > n || n > QSB_MAX_SHARDS)
            status = field_error(at, "shard", "'%s' is not K/N with 1 <= K <= N <= %d",
                                 qsb_quote(shard), QSB_MAX_SHARDS);
        c->shard_k = k;
        c->shard_n = n;
    }
    free(shard);
    return status;
}

/* "matrix" {nelem, sizes, patterns, algos, seed, mode} (schema.h QSB_CTX_MATRIX), optional;
** its seed and mode must be the context's, so it is read after them. */
static int read_matrix(const json_place *at, const cJSON *ctx, qsb_context *c)
{
    const cJSON *m = member_of(ctx, "matrix");
    if (!m)
        return QSB_OK;
    if (!cJSON_IsObject(m))
        return field_error(at, "matrix", "not an object");
    json_place mat = {at->name, "context.matrix", NULL, {NULL, NULL}};
    qsb_matrix *x = &c->matrix;
    int status = get_u64_array(&mat, m, "nelem", &x->nelem, &x->n_nelem);
    if (status == QSB_OK)
        status = get_u64_array(&mat, m, "sizes", &x->sizes, &x->n_sizes);
    if (status == QSB_OK)
        status = get_word_array(&mat, m, "patterns", &x->patterns, &x->n_patterns);
    if (status == QSB_OK)
        status = get_word_array(&mat, m, "algos", &x->algos, &x->n_algos);
    uint64_t seed = 0;
    int found = 0;
    char *mode = NULL;
    if (status == QSB_OK)
        status = get_seed(&mat, m, QSB_COLUMN_NAME(seed), &seed, &found);
    if (status == QSB_OK && found && seed != c->seed)
        status = field_error(&mat, QSB_COLUMN_NAME(seed),
                                      "differs from the context's seed");
    if (status == QSB_OK)
        status = get_string(&mat, m, QSB_COLUMN_NAME(mode), 0, &mode);
    if (status == QSB_OK && mode && c->mode && strcmp(mode, c->mode) != 0)
        status = field_error(&mat, QSB_COLUMN_NAME(mode),
                                      "differs from the context's mode");
    free(mode);
    return status;
}

/* A double never negative, 0 when unknown (schema.h QSB_CTX_MEASURE). */
static int get_measure(const json_place *at, const cJSON *ctx, const char *key, double *out)
{
    int status = get_double(at, ctx, key, 0, out);
    if (isnan(*out))
        *out = 0;
    if (status == QSB_OK && *out < 0)
        status = field_error(at, key, "negative");
    return status;
}

/* A CPU number or null (schema.h QSB_CTX_CPU). */
static int get_cpu(const json_place *at, const cJSON *ctx, const char *key, int *out)
{
    uint64_t cpu = 0;
    *out = -1;
    if (!member_of(ctx, key))
        return QSB_OK;
    int status = get_u64(at, ctx, key, 0, &cpu);
    if (status == QSB_OK && cpu > 65535)
        status = field_error(at, key, "not a CPU number");
    *out = status == QSB_OK ? (int)cpu : -1;
    return status;
}

/* Key k of the context object into c. */
static int read_context_key(const json_place *at, const cJSON *ctx, const qsb_context_key *k,
                            qsb_context *c)
{
    void *field = qsb_context_field(k, c);
    int found;
    switch (k->type) {
    case QSB_CTX_TEXT:
    case QSB_CTX_NAME: return get_string(at, ctx, k->key, k->required, field);
    case QSB_CTX_NUMBER: return get_double(at, ctx, k->key, k->required, field);
    case QSB_CTX_MEASURE: return get_measure(at, ctx, k->key, field);
    case QSB_CTX_BOOL: return get_bool(at, ctx, k->key, k->required, field);
    case QSB_CTX_SEED: return get_seed(at, ctx, k->key, field, &found);
    case QSB_CTX_CPU: return get_cpu(at, ctx, k->key, field);
    case QSB_CTX_CACHES: return get_cache_bytes(at, ctx, field);
    case QSB_CTX_SHARD: return read_shard(at, ctx, c);
    case QSB_CTX_MATRIX: return read_matrix(at, ctx, c);
    case QSB_CTX_TIME: return read_time_split(at, ctx, field);
    }
    return QSB_OK;
}

/* The context's keys, in the table's order (schema.h QSB_CONTEXT_KEYS). */
static int read_context(const char *name, const cJSON *root, qsb_context *c)
{
    json_place at = {name, "", NULL, {NULL, NULL}};
    const cJSON *ctx = member_of(root, "context");
    if (!ctx || !cJSON_IsObject(ctx))
        return field_error(&at, "context", ctx ? "not an object" : "missing");
    snprintf(at.where, sizeof at.where, "context");
    int status = QSB_OK;
    for (size_t i = 0; i < QSB_CONTEXT_KEY_COUNT && status == QSB_OK; i++)
        status = read_context_key(&at, ctx, &qsb_context_keys[i], c);
    return status;
}

/* ---- One result object into a row: every column of the schema table (schema.h) read
** through the format's column readers, each value type-checked; the states as an array of
** objects, checked as the CSV's text is, a fault of one state reported on that state's
** line. ---- */

/* ---- the format's column readers (schema.h): ctx is a json_row ---- */

typedef struct {
    const json_place *at;
    const cJSON *obj; /* the row's object */
} json_row;

static int json_samples(void *ctx, const qsb_column *c, qsb_file_row *lr)
{
    const json_row *j = ctx;
    const json_place *at = j->at;
    const char *key = c->name;
    qsb_row *row = &lr->row;
    const cJSON *list = member_of(j->obj, key);
    if (!list)
        return QSB_OK;
    lr->has_samples = 1;
    if (!cJSON_IsArray(list))
        return field_error(at, key, "not an array");
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
            return field_error(at, key, "element %zu is not a finite number", i);
        row->samples[i++] = item->valuedouble;
    }
    row->nsamples = i;
    return QSB_OK;
}

/* The units: optional; one whole number below 2^32 per sample. */
static int json_units(void *ctx, const qsb_column *c, qsb_row *row)
{
    const json_row *j = ctx;
    const json_place *at = j->at;
    const char *key = c->name;
    const cJSON *list = member_of(j->obj, key);
    if (!list)
        return QSB_OK;
    if (!cJSON_IsArray(list) || (size_t)cJSON_GetArraySize(list) != row->nsamples)
        return field_error(at, key, "not an array of one unit per sample");
    row->units = malloc((row->nsamples ? row->nsamples : 1) * sizeof *row->units);
    if (!row->units)
        return qsb_out_of_memory("units");
    size_t i = 0;
    const cJSON *item;
    cJSON_ArrayForEach(item, list) {
        uint64_t v;
        if (!cJSON_IsNumber(item) || number_to_u64(item->valuedouble, &v) != 0 ||
            v > UINT32_MAX)
            return field_error(at, key, "element %zu is not a whole number below 2^32",
                                        i);
        row->units[i++] = (uint32_t)v;
    }
    return QSB_OK;
}

static int json_text(void *ctx, const qsb_column *c, char **out)
{
    const json_row *j = ctx;
    return get_string(j->at, j->obj, c->name, c->required, out);
}

static int json_count(void *ctx, const qsb_column *c, uint64_t *out)
{
    const json_row *j = ctx;
    return get_u64(j->at, j->obj, c->name, c->required, out);
}

static int json_number(void *ctx, const qsb_column *c, double *out)
{
    const json_row *j = ctx;
    return get_double(j->at, j->obj, c->name, c->required, out);
}

static int json_flag(void *ctx, const qsb_column *c, bool *out)
{
    const json_row *j = ctx;
    return get_bool(j->at, j->obj, c->name, c->required, out);
}

static int json_seed(void *ctx, const qsb_column *c, uint64_t *out, int *found)
{
    const json_row *j = ctx;
    return get_seed(j->at, j->obj, c->name, out, found);
}

/* One state's object into e: share, processes, median, and delta_pct with delta_lo and
** delta_hi (absent for a baseline's; the bounds null under three processes). */
static int get_state(const json_place *at, const cJSON *obj, qsb_state_estimate *e)
{
    uint64_t processes = 0;
    int status = !cJSON_IsObject(obj) ? field_error(at, "", "not an object") : QSB_OK;
    if (status == QSB_OK)
        status = get_double(at, obj, QSB_STATE_SHARE_KEY, 1, &e->share);
    if (status == QSB_OK)
        status = get_u64(at, obj, QSB_STATE_PROCESSES_KEY, 1, &processes);
    if (status == QSB_OK && processes > UINT32_MAX)
        status = field_error(at, QSB_STATE_PROCESSES_KEY, "not a count below 2^32");
    if (status == QSB_OK)
        status = get_double(at, obj, QSB_COLUMN_NAME(median), 1, &e->median);
    if (status == QSB_OK)
        status = get_double(at, obj, QSB_COLUMN_NAME(delta_pct), 0, &e->delta_pct);
    if (status == QSB_OK)
        status = get_double(at, obj, QSB_COLUMN_NAME(delta_lo), 0, &e->delta_lo);
    if (status == QSB_OK)
        status = get_double(at, obj, QSB_COLUMN_NAME(delta_hi), 0, &e->delta_hi);
    e->processes = (uint32_t)processes;
    return status;
}

/* The text of element k of the row's array `key`, where messages place that element's fields;
** the row's own text when the row was read from a tree (no line then) or there is no such
** element. */
static qsb_json_span element_text(const json_place *at, const char *key, size_t k)
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
static json_place state_place(const json_place *row, const char *key, size_t k)
{
    json_place at = *row;
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
    const cJSON *list = member_of(j->obj, c->name), *item;
    if (!list)
        return QSB_OK;
    if (!cJSON_IsArray(list))
        return field_error(j->at, c->name, "not an array");
    qsb_state_estimate s[QSB_STATES_MAX];
    size_t n = 0;
    cJSON_ArrayForEach(item, list) {
        if (n == QSB_STATES_MAX)
            return field_error(j->at, c->name, "more states than a row can have");
        json_place at = state_place(j->at, c->name, n);
        int status = get_state(&at, item, &s[n++]);
        if (status != QSB_OK)
            return status;
    }
    size_t fault;
    const char *why = qsb_states_check(s, n, &fault);
    if (why && fault < n) {
        json_place at = state_place(j->at, c->name, fault);
        return field_error(&at, "", "not a row's state: %s", why);
    }
    if (why)
        return field_error(j->at, c->name, "not a row's states: %s", why);
    if (qsb_states_round(s, n) != 0 || !(row->states = malloc(n * sizeof *s)))
        return qsb_out_of_memory("JSON states");
    memcpy(row->states, s, n * sizeof *s);
    row->nstates = (uint8_t)n;
    return QSB_OK;
}

static int json_unfit(void *ctx, const qsb_column *c, const char *why)
{
    const json_row *j = ctx;
    return field_error(j->at, c->name, "not %s", why);
}

static const qsb_column_reader json_columns = {
    json_text, json_count, json_number, json_flag, json_seed, json_samples, json_units,
    json_states, json_unfit,
};

/* One result object into fr: every column of the schema table, through json_columns. */
static int read_row(const json_place *at, const cJSON *obj, qsb_file_row *fr)
{
    if (!cJSON_IsObject(obj))
        return field_error(at, "", "not an object");
    json_row row = {at, obj};
    int status = QSB_OK;
    for (size_t c = 0; c < QSB_COLUMN_COUNT && status == QSB_OK; c++)
        status = qsb_read_column(&json_columns, &row, &qsb_columns[c], fr);
    if (status == QSB_OK && fr->row.verified && fr->row.failure)
        status = field_error(at, QSB_COLUMN_NAME(failure),
                                      "given, yet the row is verified");
    return status;
}

/* ---- The document and its rows. ---- */

/* Does the text end inside a string or an open object or array (cut short, not misspelt)? */
static int ends_open(const char *text, size_t len)
{
    size_t depth = 0;
    int in_string = 0;
    for (size_t i = 0; i < len; i++) {
        char c = text[i];
        if (in_string) {
            if (c == '\\')
                i++;
            else if (c == '"')
                in_string = 0;
        } else if (c == '"') {
            in_string = 1;
        } else if (c == '{' || c == '[') {
            depth++;
        } else if ((c == '}' || c == ']') && depth > 0) {
            depth--;
        }
    }
    return in_string || depth > 0;
}

static int syntax_error(const char *name, const char *text, size_t len, const char *at)
{
    size_t offset = at && at >= text && at <= text + len ? (size_t)(at - text) : len;
    size_t line = 1;
    for (size_t i = 0; i < offset; i++)
        line += text[i] == '\n';
    return qsb_error(QSB_EUSAGE, "%s:%zu: malformed JSON%s", name, line,
                     ends_open(text, len) ? " (truncated?)" : "");
}

/* A key given twice in one object of the value spanned (in text): reported on the line of
** the second one. */
static int check_keys_once(const char *name, const char *text, const qsb_json_span *value)
{
    qsb_json_span key;
    int found = qsb_json_repeated_key(value->start, (size_t)(value->end - value->start), &key);
    if (found <= 0)
        return found < 0 ? qsb_out_of_memory("JSON") : QSB_OK;
    char spelt[64];
    snprintf(spelt, sizeof spelt, "%.*s", (int)(key.end - key.start - 2), key.start + 1);
    return qsb_error(QSB_EUSAGE, "%s:%zu: key '%s' given twice in one object: an ambiguous "
                     "file (readers differ on which one counts)", name,
                     qsb_json_line_of(text, key.start), qsb_quote(spelt));
}

/* The whole text, where syntax errors are placed, and a document's rows in it. */
typedef struct {
    const char *text;
    size_t len;
    const qsb_json_span *rows; /* the document's results array, parsed a row at a time; NULL:
                               ** read from the tree (or reported missing from it) */
} json_rows;

/* One result object straight into its cell (the assembler takes it). */
static int add_row(const json_place *at, const cJSON *obj, size_t i, qsb_assembler *cells)
{
    qsb_file_row fr;
    qsb_file_row_init(&fr);
    int status = read_row(at, obj, &fr);
    if (status != QSB_OK) {
        qsb_file_row_free(&fr);
        return status;
    }
    return qsb_assembler_add(cells, &fr, i);
}

/* A row of an earlier qsortbench carries `modes`: a warning, once per document (the caller
** keeps what was said). True when said. */
static bool say_old_modes(const char *name, const cJSON *obj)
{
    if (!cJSON_GetObjectItemCaseSensitive(obj, QSB_OLD_MODES_COLUMN))
        return false;
    qsb_warning("%s: field '%s' (an earlier qsortbench's speed modes) is accepted and not read: "
                "its rows have no states", name, QSB_OLD_MODES_COLUMN);
    return true;
}

/* Each element of the results array's text parsed alone, read, and its tree freed. */
static int read_row_texts(const char *name, const json_rows *src, qsb_assembler *cells)
{
    json_place at = {name, "", src->text, {NULL, NULL}};
    const char *cursor = src->rows->start;
    qsb_json_span item;
    int more = 0, status = QSB_OK;
    size_t i = 0;
    bool said_old_modes = false;
    while (status == QSB_OK && (more = qsb_json_next_element(src->rows, &cursor, &item)) == 1) {
        const char *parsed = NULL;
        cJSON *obj = cJSON_ParseWithLengthOpts(item.start, (size_t)(item.end - item.start),
                                               &parsed, 0);
        if (!obj || parsed != item.end) {
            cJSON_Delete(obj);
            return syntax_error(name, src->text, src->len, obj ? parsed : cJSON_GetErrorPtr());
        }
        snprintf(at.where, sizeof at.where, "results[%zu]", i);
        at.row = item;
        status = check_keys_once(name, src->text, &item);
        if (status == QSB_OK)
            status = add_row(&at, obj, i, cells);
        said_old_modes = said_old_modes || say_old_modes(name, obj);
        cJSON_Delete(obj);
        i++;
    }
    if (status == QSB_OK && more < 0)
        return syntax_error(name, src->text, src->len, cursor);
    return status;
}

static int read_rows(const char *name, const cJSON *root, const json_rows *src,
                     qsb_assembler *cells)
{
    json_place at = {name, "", NULL, {NULL, NULL}};
    const cJSON *list = member_of(root, "results");
    if (!list || !cJSON_IsArray(list))
        return field_error(&at, "results", list ? "not an array" : "missing");
    if (src->rows)
        return read_row_texts(name, src, cells);
    int status = QSB_OK;
    const cJSON *item;
    size_t i = 0;
    bool said_old_modes = false;
    cJSON_ArrayForEach(item, list) {
        snprintf(at.where, sizeof at.where, "results[%zu]", i);
        if ((status = add_row(&at, item, i, cells)) != QSB_OK)
            break;
        said_old_modes = said_old_modes || say_old_modes(name, item);
        i++;
    }
    return status;
}

/* ---- the document ---- */

/* The version of the document: 1 (one machine) or 2 (a fleet file, report.h). */
static int check_schema(const char *name, const cJSON *root, int *version_out)
{
    json_place at = {name, "", NULL, {NULL, NULL}};
    if (!cJSON_IsObject(root))
        return qsb_error(QSB_EUSAGE, "%s: not a JSON object: not a qsortbench results file",
                         name);
    const cJSON *version = member_of(root, "schema_version");
    if (!version)
        return field_error(&at, "schema_version",
                                    "missing: not a qsortbench results file");
    if (!cJSON_IsNumber(version) || (version->valuedouble != QSB_SCHEMA_VERSION &&
                                     version->valuedouble != QSB_FLEET_SCHEMA_VERSION))
        return field_error(&at, "schema_version",
                           "this qsortbench reads versions %d and %d (fleet files) only (a "
                           "newer tool wrote it?)",
                           QSB_SCHEMA_VERSION, QSB_FLEET_SCHEMA_VERSION);
    *version_out = (int)version->valuedouble;
    return QSB_OK;
}

/* One machine's document: context, baseline, results. */
static int read_document(const char *name, const cJSON *root, const json_rows *rows,
                         qsb_rows_view view, qsb_results *out)
{
    memset(out, 0, sizeof *out);
    json_place at = {name, "", NULL, {NULL, NULL}};
    qsb_assembler *cells = NULL;
    int status = read_context(name, root, &out->context);
    if (status == QSB_OK)
        status = get_string(&at, root, QSB_COLUMN_NAME(baseline), 0, &out->baseline);
    if (status == QSB_OK && !(cells = qsb_assembler_new(name, QSB_PLACES_JSON_RESULTS, view, out)))
        status = qsb_out_of_memory("results");
    if (status == QSB_OK)
        status = read_rows(name, root, rows, cells);
    if (status == QSB_OK)
        return qsb_assembler_finish(cells);
    qsb_assembler_free(cells);
    qsb_results_free(out);
    memset(out, 0, sizeof *out);
    return status;
}

/* Document k's rows: their array in the text when the split found one. */
static json_rows rows_of(const qsb_json_split *split, size_t k, const char *text, size_t len)
{
    const qsb_json_span *span = k < split->ndocs && split->docs[k].start ? &split->docs[k] : NULL;
    return (json_rows){text, len, span};
}

int qsb_read_json_fleet(const char *name, const char *text, size_t len, qsb_rows_view view,
                        qsb_results **runs, size_t *nruns)
{
    *runs = NULL;
    *nruns = 0;
    /* The outline as a tree and the rows one at a time; a text the split does not take is
    ** parsed whole (and its fault reported from there). */
    qsb_json_split split;
    int shaped = qsb_json_split_results(text, len, &split);
    if (shaped < 0)
        return qsb_out_of_memory("JSON");
    const char *doc_text = shaped == 0 ? split.outline : text;
    size_t doc_len = shaped == 0 ? split.outline_len : len;
    const char *end = NULL;
    cJSON *root = cJSON_ParseWithOpts(doc_text, &end, 1);
    if (!root) {
        int status = syntax_error(name, doc_text, doc_len, end ? end : cJSON_GetErrorPtr());
        qsb_json_split_free(&split);
        return status;
    }
    int version = 0;
    qsb_json_span outline = {doc_text, doc_text + doc_len}; /* the rows are checked as read */
    int status = check_keys_once(name, doc_text, &outline);
    if (status == QSB_OK)
        status = check_schema(name, root, &version);
    const cJSON *machines = NULL;
    size_t count = 1;
    if (status == QSB_OK && version == QSB_FLEET_SCHEMA_VERSION) {
        json_place at = {name, "", NULL, {NULL, NULL}};
        machines = member_of(root, "machines");
        if (!machines || !cJSON_IsArray(machines) || cJSON_GetArraySize(machines) == 0)
            status = field_error(&at, "machines", "not a non-empty array");
        else
            count = (size_t)cJSON_GetArraySize(machines);
    }
    qsb_results *r = status == QSB_OK ? calloc(count, sizeof *r) : NULL;
    if (status == QSB_OK && !r)
        status = qsb_out_of_memory("results");
    size_t done = 0;
    if (status == QSB_OK && !machines) {
        json_rows rows = rows_of(&split, 0, text, len);
        status = read_document(name, root, &rows, view, &r[0]);
        done = status == QSB_OK;
    } else if (status == QSB_OK) {
        const cJSON *doc;
        cJSON_ArrayForEach(doc, machines) {
            char where[QSB_QUOTE_PATH_MAX + 32];
            snprintf(where, sizeof where, "%s: machines[%zu]", name, done);
            json_rows rows = rows_of(&split, 1 + done, text, len);
            status = cJSON_IsObject(doc)
                         ? read_document(where, doc, &rows, view, &r[done])
                         : qsb_error(QSB_EUSAGE, "%s: not an object", where);
            if (status != QSB_OK)
                break;
            done++;
        }
    }
    cJSON_Delete(root);
    qsb_json_split_free(&split);
    if (status != QSB_OK) {
        for (size_t i = 0; i < done; i++)
            qsb_results_free(&r[i]);
        free(r);
        return status;
    }
    *runs = r;
    *nruns = done;
    return QSB_OK;
}
