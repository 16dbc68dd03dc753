/*
** A JSON results document split where its bytes are: the rows of its "results" arrays (nearly
** all of a large file) found in the text without parsing them, and the rest of the document
** (the context, the baseline, a fleet's machines) as a short text of its own. The JSON reader
** parses that outline as one cJSON tree and the rows one at a time: a tree of a whole file
** takes about eight times the file.
**
** Only the structure is scanned here (strings, nesting, keys); every byte is still parsed by
** cJSON, the outline whole and each row alone, so a malformed file is reported as before.
*/
#ifndef QSB_JSON_SPLIT_H
#define QSB_JSON_SPLIT_H

#include <stddef.h>

/* A value's text: start at its first byte, end one past its last. start NULL: none. */
typedef struct {
    const char *start, *end;
} qsb_json_span;

typedef struct {
    qsb_json_span *docs; /* the "results" array of each document: docs[0] the root object's,
                         ** docs[1 + k] that of element k of the root's "machines" array (a
                         ** fleet file); a span with start NULL where there is none */
    size_t ndocs;
    char *outline;       /* the text with each of those arrays emptied; NUL-terminated */
    size_t outline_len;
} qsb_json_split;

/* Splits text (len bytes). 0: *out filled (free it with qsb_json_split_free); 1: the text is
** not shaped as expected (not an object, cut short, misnested), *out empty: parse it whole,
** which reports the fault; -1: out of memory. An emptied array keeps its newlines in the
** outline, so that a line there has its number in the text. */
int qsb_json_split_results(const char *text, size_t len, qsb_json_split *out);
void qsb_json_split_free(qsb_json_split *s);

/* p at a string's opening '"': one past its closing quote, or NULL when the text ends first. */
const char *qsb_json_string_end(const char *p, const char *end);

/* The elements of an array's span in turn: *at starts at the span's '['. Returns 1 with
** *element set to the next one, 0 after the last, -1 where the text between elements is not
** a comma (*at points there). */
int qsb_json_next_element(const qsb_json_span *array, const char **at, qsb_json_span *element);

#endif
