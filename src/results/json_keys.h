/*
** The keys of JSON objects, found in the text: a key given twice in one object, and where a
** member of an object is written. cJSON keeps both members of a key given twice and answers
** with the first, where other readers (Python's json, jq) take the last: the reader refuses
** such a file as ambiguous, on the line of the second key. Only the structure is scanned
** (strings, nesting, which strings are keys), in a text cJSON has already parsed.
*/
#ifndef QSB_JSON_KEYS_H
#define QSB_JSON_KEYS_H

#include <stddef.h>

#include "json_split.h"

/* The first key given twice in one object of the JSON value text[0..len), spellings with
** escapes compared as cJSON decodes them: 1 with *key the second one's span (quotes
** included), 0 when no key is, -1 when out of memory. */
int qsb_json_repeated_key(const char *text, size_t len, qsb_json_span *key);

/* Where the member `name` of the object spanned by `object` is (its key's opening quote), at
** the object's top level and spelt without escapes; NULL when there is none. */
const char *qsb_json_member_at(const qsb_json_span *object, const char *name);

/* The line (1-based) of `at` in text. */
size_t qsb_json_line_of(const char *text, const char *at);

#endif
