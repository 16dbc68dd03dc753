/*
** The JSON results reader (schema.h), parsed with cJSON: a document's rows one at a time, the
** rest of it as one tree (json_split.h). Syntax errors name the line; schema errors name the
** field ("results[3].nelem"), and in a row read from its text the field's line too. A key given
** twice in one object is refused (json_keys.h). Every value is type-checked: a results file
** may come from anywhere. Here: the document (its syntax, schema version, fleet of machines)
** and its rows in turn; the context and a row are read_json_context.c and read_json_row.c.
*/
#include <cjson/cJSON.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "assemble.h"
#include "diag.h"
#include "json_fields.h"
#include "json_keys.h"
#include "json_split.h"
#include "schema.h"

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
static int add_row(const qsb_json_place *at, const cJSON *obj, size_t i, qsb_assembler *cells)
{
    qsb_file_row fr;
    qsb_file_row_init(&fr);
    int status = qsb_json_read_row(at, obj, &fr);
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
    qsb_json_place at = {name, "", src->text, {NULL, NULL}};
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
    qsb_json_place at = {name, "", NULL, {NULL, NULL}};
    const cJSON *list = qsb_json_member(root, "results");
    if (!list || !cJSON_IsArray(list))
        return qsb_json_field_error(&at, "results", list ? "not an array" : "missing");
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
    qsb_json_place at = {name, "", NULL, {NULL, NULL}};
    if (!cJSON_IsObject(root))
        return qsb_error(QSB_EUSAGE, "%s: not a JSON object: not a qsortbench results file",
                         name);
    const cJSON *version = qsb_json_member(root, "schema_version");
    if (!version)
        return qsb_json_field_error(&at, "schema_version",
                                    "missing: not a qsortbench results file");
    if (!cJSON_IsNumber(version) || (version->valuedouble != QSB_SCHEMA_VERSION &&
                                     version->valuedouble != QSB_FLEET_SCHEMA_VERSION))
        return qsb_json_field_error(&at, "schema_version",
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
    qsb_json_place at = {name, "", NULL, {NULL, NULL}};
    qsb_assembler *cells = NULL;
    int status = qsb_json_read_context(name, root, &out->context);
    if (status == QSB_OK)
        status = qsb_json_get_string(&at, root, QSB_COLUMN_NAME(baseline), 0, &out->baseline);
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
        qsb_json_place at = {name, "", NULL, {NULL, NULL}};
        machines = qsb_json_member(root, "machines");
        if (!machines || !cJSON_IsArray(machines) || cJSON_GetArraySize(machines) == 0)
            status = qsb_json_field_error(&at, "machines", "not a non-empty array");
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
