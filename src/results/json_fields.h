/*
** The JSON reader's places and typed fields: where in a results file a value is read (the
** object's path, "results[3].states[1]", and the text that gives its line) and the getters
** that type-check one member each, refusing a wrong one with one message naming file, line
** and field. The reader's parts (the document, the context, a row) share them.
*/
#ifndef QSB_JSON_FIELDS_H
#define QSB_JSON_FIELDS_H

#include <cjson/cJSON.h>
#include <stdbool.h>
#include <stdint.h>

#include "assemble.h"
#include "diag.h"
#include "json_split.h"

typedef struct {
    const char *name; /* as messages show it: escaped already (read_results.h) */
    char where[48]; /* the object being read: "context", "results[3]" */
    const char *text;  /* the file's text when the row was parsed from it alone, else NULL */
    qsb_json_span row; /* that row's text: messages name the line of its member */
} qsb_json_place;

/* Refuses the member key of the object at `at` (the object itself when key is ""): "FILE:LINE:
** field 'results[3].key': what", the line when the object was read from its text. Returns
** QSB_EUSAGE. */
int qsb_json_field_error(const qsb_json_place *at, const char *key, const char *fmt, ...)
    QSB_PRINTF(3, 4);

/* v as a whole number below 2^64 (a double is exact up to 2^53, which covers every real
** count): 0 with *out set, -1 when v is not one. */
int qsb_json_number_to_u64(double v, uint64_t *out);

/* Member key of obj; NULL when absent or null. */
const cJSON *qsb_json_member(const cJSON *obj, const char *key);

/* Member key of obj type-checked as a string, a whole number, a number or a boolean; an
** absent (or null) member is refused when `required` is non-zero. QSB_OK, or the error
** reported. */
int qsb_json_get_string(const qsb_json_place *at, const cJSON *obj, const char *key,
                        int required, char **out);

int qsb_json_get_u64(const qsb_json_place *at, const cJSON *obj, const char *key,
                     int required, uint64_t *out);

int qsb_json_get_double(const qsb_json_place *at, const cJSON *obj, const char *key,
                        int required, double *out);

int qsb_json_get_bool(const qsb_json_place *at, const cJSON *obj, const char *key,
                      int required, bool *out);

/* The seed at key: a number, or a "0x..." string (a number above 2^53 would lose bits);
** *found says whether it was given. */
int qsb_json_get_seed(const qsb_json_place *at, const cJSON *obj, const char *key, uint64_t *out,
                      int *found);

/* The document's context into c (schema.h QSB_CONTEXT_KEYS; read_json_context.c). */
int qsb_json_read_context(const char *name, const cJSON *root, qsb_context *c);

/* One result object into fr, every column of the schema table (read_json_row.c). */
int qsb_json_read_row(const qsb_json_place *at, const cJSON *obj, qsb_file_row *fr);

#endif
