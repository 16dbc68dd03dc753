/*
** The JSON reader's places and typed fields (see json_fields.h).
*/
#include "json_fields.h"

#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "diag.h"
#include "json_keys.h"

/* The line of member key of the row being read (of the row, when the key is not there); 0
** when the row was read from a tree. */
static size_t line_of(const qsb_json_place *at, const char *key)
{
    if (!at->text || !at->row.start)
        return 0;
    const char *member = *key ? qsb_json_member_at(&at->row, key) : NULL;
    return qsb_json_line_of(at->text, member ? member : at->row.start);
}

int qsb_json_field_error(const qsb_json_place *at, const char *key, const char *fmt, ...)
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

const cJSON *qsb_json_member(const cJSON *obj, const char *key)
{
    const cJSON *item = cJSON_GetObjectItemCaseSensitive(obj, key);
    return item && !cJSON_IsNull(item) ? item : NULL;
}

int qsb_json_get_string(const qsb_json_place *at, const cJSON *obj, const char *key,
                        int required, char **out)
{
    const cJSON *item = qsb_json_member(obj, key);
    *out = NULL;
    if (!item)
        return required ? qsb_json_field_error(at, key, "missing") : QSB_OK;
    if (!cJSON_IsString(item))
        return qsb_json_field_error(at, key, "not a string");
    if (required && item->valuestring[0] == '\0')
        return qsb_json_field_error(at, key, "empty");
    *out = strdup(item->valuestring);
    return *out ? QSB_OK : qsb_out_of_memory("JSON string");
}

/* Whole numbers arrive as doubles: exact only up to 2^53, which covers every real count. */
int qsb_json_number_to_u64(double v, uint64_t *out)
{
    if (!isfinite(v) || v < 0 || v >= 18446744073709551616.0 || v != floor(v))
        return -1;
    *out = (uint64_t)v;
    return 0;
}

int qsb_json_get_u64(const qsb_json_place *at, const cJSON *obj, const char *key,
                     int required, uint64_t *out)
{
    const cJSON *item = qsb_json_member(obj, key);
    if (!item)
        return required ? qsb_json_field_error(at, key, "missing") : QSB_OK;
    if (!cJSON_IsNumber(item) || qsb_json_number_to_u64(item->valuedouble, out) != 0)
        return qsb_json_field_error(at, key, "not a whole number");
    return QSB_OK;
}

/* Absent or null means unknown (NAN), as the writers put it. */
int qsb_json_get_double(const qsb_json_place *at, const cJSON *obj, const char *key,
                        int required, double *out)
{
    const cJSON *item = qsb_json_member(obj, key);
    *out = NAN;
    if (!item)
        return required && !cJSON_GetObjectItemCaseSensitive(obj, key)
                   ? qsb_json_field_error(at, key, "missing")
                   : QSB_OK;
    if (!cJSON_IsNumber(item) || !isfinite(item->valuedouble))
        return qsb_json_field_error(at, key, "not a finite number");
    *out = item->valuedouble;
    return QSB_OK;
}

int qsb_json_get_bool(const qsb_json_place *at, const cJSON *obj, const char *key,
                      int required, bool *out)
{
    const cJSON *item = qsb_json_member(obj, key);
    if (!item)
        return required ? qsb_json_field_error(at, key, "missing") : QSB_OK;
    if (!cJSON_IsBool(item))
        return qsb_json_field_error(at, key, "not true or false");
    *out = cJSON_IsTrue(item);
    return QSB_OK;
}

/* The seed: a number, or a "0x..." string (a number above 2^53 would lose bits). */
int qsb_json_get_seed(const qsb_json_place *at, const cJSON *obj, const char *key, uint64_t *out,
                      int *found)
{
    const cJSON *item = qsb_json_member(obj, key);
    *found = item != NULL;
    if (!item)
        return QSB_OK;
    if (cJSON_IsString(item) && qsb_text_to_u64(item->valuestring, 1, out) == 0)
        return QSB_OK;
    if (cJSON_IsNumber(item) && qsb_json_number_to_u64(item->valuedouble, out) == 0)
        return QSB_OK;
    return qsb_json_field_error(at, key, "not a whole number or a 0x-hex string");
}
