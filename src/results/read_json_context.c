/*
** The context block of a JSON results file (see json_fields.h): each key of the schema's
** context table (schema.h QSB_CONTEXT_KEYS) read and type-checked, the optional ones (the
** matrix, the shard, the time split, the cache sizes) left unknown when absent.
*/
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "json_fields.h"
#include "schema.h"

static int get_cache_bytes(const qsb_json_place *at, const cJSON *ctx, uint64_t bytes[3])
{
    const cJSON *list = qsb_json_member(ctx, "cache_bytes");
    if (!list)
        return QSB_OK;
    if (!cJSON_IsArray(list) || cJSON_GetArraySize(list) > 3)
        return qsb_json_field_error(at, "cache_bytes", "not an array of at most 3 sizes");
    size_t i = 0;
    const cJSON *item;
    cJSON_ArrayForEach(item, list) {
        if (!cJSON_IsNumber(item) || qsb_json_number_to_u64(item->valuedouble, &bytes[i]) != 0)
            return qsb_json_field_error(at, "cache_bytes", "element %zu is not a whole number", i);
        i++;
    }
    return QSB_OK;
}

/* The optional "time_s" (schema.h QSB_TIME_PARTS): every member a number of seconds, none
** negative; absent, all 0 (unknown). */
static int read_time_split(const qsb_json_place *at, const cJSON *ctx, qsb_time_split *t)
{
    memset(t, 0, sizeof *t);
    const cJSON *o = qsb_json_member(ctx, "time_s");
    if (!o)
        return QSB_OK;
    if (!cJSON_IsObject(o))
        return qsb_json_field_error(at, "time_s", "not an object");
    qsb_json_place in = {at->name, "context.time_s", NULL, {NULL, NULL}};
    int status = QSB_OK;
    for (size_t i = 0; i < QSB_TIME_PART_COUNT && status == QSB_OK; i++) {
        double *part = (double *)((char *)t + qsb_time_parts[i].offset);
        status = qsb_json_get_double(&in, o, qsb_time_parts[i].key, 1, part);
        if (status == QSB_OK && *part < 0)
            status = qsb_json_field_error(&in, qsb_time_parts[i].key, "negative");
    }
    if (status != QSB_OK)
        memset(t, 0, sizeof *t);
    return status;
}

static int get_u64_array(const qsb_json_place *at, const cJSON *obj, const char *key,
                         uint64_t **out, size_t *n)
{
    const cJSON *list = qsb_json_member(obj, key), *item;
    if (!list || !cJSON_IsArray(list) || cJSON_GetArraySize(list) == 0)
        return qsb_json_field_error(at, key, "not a non-empty array");
    *n = (size_t)cJSON_GetArraySize(list);
    if (!(*out = calloc(*n, sizeof **out)))
        return qsb_out_of_memory("JSON matrix");
    size_t i = 0;
    cJSON_ArrayForEach(item, list) {
        if (!cJSON_IsNumber(item) || qsb_json_number_to_u64(item->valuedouble, &(*out)[i]) != 0 ||
            (*out)[i] == 0)
            return qsb_json_field_error(at, key, "element %zu is not a positive whole number", i);
        i++;
    }
    return QSB_OK;
}

static int get_word_array(const qsb_json_place *at, const cJSON *obj, const char *key,
                          char ***out, size_t *n)
{
    const cJSON *list = qsb_json_member(obj, key), *item;
    if (!list || !cJSON_IsArray(list) || cJSON_GetArraySize(list) == 0)
        return qsb_json_field_error(at, key, "not a non-empty array");
    size_t count = (size_t)cJSON_GetArraySize(list);
    if (!(*out = calloc(count, sizeof **out)))
        return qsb_out_of_memory("JSON matrix");
    *n = count; /* every slot NULL until filled: safe to free at any point */
    size_t i = 0;
    cJSON_ArrayForEach(item, list) {
        if (!cJSON_IsString(item) || !item->valuestring[0])
            return qsb_json_field_error(at, key, "element %zu is not a name", i);
        if (!((*out)[i] = strdup(item->valuestring)))
            return qsb_out_of_memory("JSON matrix");
        i++;
    }
    return QSB_OK;
}

/* "shard": "K/N" with 1 <= K <= N (absent: the whole run). */
static int read_shard(const qsb_json_place *at, const cJSON *ctx, qsb_context *c)
{
    char *shard = NULL;
    int status = qsb_json_get_string(at, ctx, "shard", 0, &shard);
    if (status == QSB_OK && shard) {
        unsigned k = 0, n = 0;
        int end = 0;
        if (sscanf(shard, "%u/%u%n", &k, &n, &end) != 2 || shard[end] != '\0' || k < 1 ||
            k > n || n > QSB_MAX_SHARDS)
            status = qsb_json_field_error(at, "shard", "'%s' is not K/N with 1 <= K <= N <= %d",
                                 qsb_quote(shard), QSB_MAX_SHARDS);
        c->shard_k = k;
        c->shard_n = n;
    }
    free(shard);
    return status;
}

/* "matrix" {nelem, sizes, patterns, algos, seed, mode} (schema.h QSB_CTX_MATRIX), optional;
** its seed and mode must be the context's, so it is read after them. */
static int read_matrix(const qsb_json_place *at, const cJSON *ctx, qsb_context *c)
{
    const cJSON *m = qsb_json_member(ctx, "matrix");
    if (!m)
        return QSB_OK;
    if (!cJSON_IsObject(m))
        return qsb_json_field_error(at, "matrix", "not an object");
    qsb_json_place mat = {at->name, "context.matrix", NULL, {NULL, NULL}};
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
        status = qsb_json_get_seed(&mat, m, QSB_COLUMN_NAME(seed), &seed, &found);
    if (status == QSB_OK && found && seed != c->seed)
        status = qsb_json_field_error(&mat, QSB_COLUMN_NAME(seed),
                                      "differs from the context's seed");
    if (status == QSB_OK)
        status = qsb_json_get_string(&mat, m, QSB_COLUMN_NAME(mode), 0, &mode);
    if (status == QSB_OK && mode && c->mode && strcmp(mode, c->mode) != 0)
        status = qsb_json_field_error(&mat, QSB_COLUMN_NAME(mode),
                                      "differs from the context's mode");
    free(mode);
    return status;
}

/* A double never negative, 0 when unknown (schema.h QSB_CTX_MEASURE). */
static int get_measure(const qsb_json_place *at, const cJSON *ctx, const char *key, double *out)
{
    int status = qsb_json_get_double(at, ctx, key, 0, out);
    if (isnan(*out))
        *out = 0;
    if (status == QSB_OK && *out < 0)
        status = qsb_json_field_error(at, key, "negative");
    return status;
}

/* A CPU number or null (schema.h QSB_CTX_CPU). */
static int get_cpu(const qsb_json_place *at, const cJSON *ctx, const char *key, int *out)
{
    uint64_t cpu = 0;
    *out = -1;
    if (!qsb_json_member(ctx, key))
        return QSB_OK;
    int status = qsb_json_get_u64(at, ctx, key, 0, &cpu);
    if (status == QSB_OK && cpu > 65535)
        status = qsb_json_field_error(at, key, "not a CPU number");
    *out = status == QSB_OK ? (int)cpu : -1;
    return status;
}

/* Key k of the context object into c. */
static int read_context_key(const qsb_json_place *at, const cJSON *ctx, const qsb_context_key *k,
                            qsb_context *c)
{
    void *field = qsb_context_field(k, c);
    int found;
    switch (k->type) {
    case QSB_CTX_TEXT:
    case QSB_CTX_NAME: return qsb_json_get_string(at, ctx, k->key, k->required, field);
    case QSB_CTX_NUMBER: return qsb_json_get_double(at, ctx, k->key, k->required, field);
    case QSB_CTX_MEASURE: return get_measure(at, ctx, k->key, field);
    case QSB_CTX_BOOL: return qsb_json_get_bool(at, ctx, k->key, k->required, field);
    case QSB_CTX_SEED: return qsb_json_get_seed(at, ctx, k->key, field, &found);
    case QSB_CTX_CPU: return get_cpu(at, ctx, k->key, field);
    case QSB_CTX_CACHES: return get_cache_bytes(at, ctx, field);
    case QSB_CTX_SHARD: return read_shard(at, ctx, c);
    case QSB_CTX_MATRIX: return read_matrix(at, ctx, c);
    case QSB_CTX_TIME: return read_time_split(at, ctx, field);
    }
    return QSB_OK;
}

/* The context's keys, in the table's order (schema.h QSB_CONTEXT_KEYS). */
int qsb_json_read_context(const char *name, const cJSON *root, qsb_context *c)
{
    qsb_json_place at = {name, "", NULL, {NULL, NULL}};
    const cJSON *ctx = qsb_json_member(root, "context");
    if (!ctx || !cJSON_IsObject(ctx))
        return qsb_json_field_error(&at, "context", ctx ? "not an object" : "missing");
    snprintf(at.where, sizeof at.where, "context");
    int status = QSB_OK;
    for (size_t i = 0; i < QSB_CONTEXT_KEY_COUNT && status == QSB_OK; i++)
        status = read_context_key(&at, ctx, &qsb_context_keys[i], c);
    return status;
}
