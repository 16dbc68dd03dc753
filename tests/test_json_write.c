/*
** The streamed JSON writer (json_write.h): a document whose last member is an array written
** element by element is byte for byte the document printed whole, for no element, one, and
** many, with nested objects and arrays, escaped strings and numbers in the elements; and so
** is a fleet's shape, documents streamed as the elements of the root's array.
*/
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cjson/cJSON.h>

#include "captured.h"
#include "check.h"
#include "diag.h"
#include "json_write.h"

/* Element i: an object with a string that needs escapes, numbers, a nested array of objects
** and an empty object and array. */
static cJSON *element(size_t i)
{
    cJSON *o = cJSON_CreateObject();
    cJSON_AddStringToObject(o, "name", i % 2 ? "tab\tquote\"newline\n" : "plain");
    cJSON_AddNumberToObject(o, "i", (double)i);
    cJSON_AddNumberToObject(o, "third", 1.0 / 3.0 + (double)i);
    cJSON *inner = cJSON_AddArrayToObject(o, "inner");
    for (size_t k = 0; k < i % 3; k++) {
        cJSON *x = cJSON_CreateObject();
        cJSON_AddBoolToObject(x, "odd", k % 2);
        cJSON_AddItemToArray(inner, x);
    }
    cJSON_AddObjectToObject(o, "empty");
    cJSON_AddArrayToObject(o, "none");
    return o;
}

static cJSON *head(void)
{
    cJSON *root = cJSON_CreateObject();
    cJSON_AddNumberToObject(root, "schema_version", 1);
    cJSON *counts = cJSON_AddObjectToObject(root, "counts");
    cJSON_AddNumberToObject(counts, "same", 3);
    cJSON_AddStringToObject(root, "base", "a \\ b");
    return root;
}

/* The flat shape: head() and its array "cells" of n elements, streamed or printed whole. */
static void write_flat(FILE *fp, size_t n, size_t unused, bool streamed)
{
    (void)unused;
    cJSON *root = head();
    if (streamed) {
        qsb_json_stream cells;
        CHECK(qsb_json_stream_open(&cells, fp, root, "cells", "test") == QSB_OK);
        for (size_t i = 0; i < n; i++)
            CHECK(qsb_json_stream_add(&cells, element(i)) == QSB_OK);
        qsb_json_stream_close(&cells);
        return;
    }
    cJSON *cells = cJSON_AddArrayToObject(root, "cells");
    for (size_t i = 0; i < n; i++)
        cJSON_AddItemToArray(cells, element(i));
    CHECK(qsb_json_print(fp, root, "test") == QSB_OK);
}

/* A fleet's shape: {"schema_version", "machines": [{"context", "results": [...]}, ...]}. */
static cJSON *machine_head(size_t m)
{
    cJSON *doc = cJSON_CreateObject();
    cJSON *context = cJSON_AddObjectToObject(doc, "context");
    cJSON_AddNumberToObject(context, "machine", (double)m);
    cJSON_AddStringToObject(doc, "baseline", "msort");
    return doc;
}

static void write_fleet(FILE *fp, size_t machines, size_t rows, bool streamed)
{
    cJSON *root = cJSON_CreateObject();
    cJSON_AddNumberToObject(root, "schema_version", 2);
    if (streamed) {
        qsb_json_stream fleet, doc;
        CHECK(qsb_json_stream_open(&fleet, fp, root, "machines", "test") == QSB_OK);
        for (size_t m = 0; m < machines; m++) {
            CHECK(qsb_json_stream_open_element(&fleet, &doc, machine_head(m), "results") ==
                  QSB_OK);
            for (size_t i = 0; i < rows; i++)
                CHECK(qsb_json_stream_add(&doc, element(i + m)) == QSB_OK);
            qsb_json_stream_close(&doc);
        }
        qsb_json_stream_close(&fleet);
        return;
    }
    cJSON *all = cJSON_AddArrayToObject(root, "machines");
    for (size_t m = 0; m < machines; m++) {
        cJSON *doc = machine_head(m), *results = cJSON_AddArrayToObject(doc, "results");
        for (size_t i = 0; i < rows; i++)
            cJSON_AddItemToArray(results, element(i + m));
        cJSON_AddItemToArray(all, doc);
    }
    CHECK(qsb_json_print(fp, root, "test") == QSB_OK);
}

typedef void (*shape_writer)(FILE *fp, size_t a, size_t b, bool streamed);

/* What the writer writes, as a malloc'd string; NULL when no stream opens. */
static char *written_by(shape_writer write, size_t a, size_t b, bool streamed)
{
    FILE *fp = tmpfile();
    if (!fp)
        return NULL;
    write(fp, a, b, streamed);
    return captured(fp);
}

static void check_same(const char *shape, shape_writer write, size_t a, size_t b)
{
    char *whole = written_by(write, a, b, false), *streamed = written_by(write, a, b, true);
    CHECK_MSG(whole && streamed && strcmp(whole, streamed) == 0,
              "%s %zu, %zu:\n--- whole\n%s--- streamed\n%s", shape, a, b, whole, streamed);
    free(whole);
    free(streamed);
}

int main(void)
{
    const size_t elements[] = {0, 1, 2, 7};
    for (size_t k = 0; k < sizeof elements / sizeof elements[0]; k++)
        check_same("flat, elements", write_flat, elements[k], 0);
    const size_t fleets[][2] = {{1, 0}, {1, 3}, {2, 1}, {3, 4}};
    for (size_t k = 0; k < sizeof fleets / sizeof fleets[0]; k++)
        check_same("fleet, machines and rows", write_fleet, fleets[k][0], fleets[k][1]);
    return check_done();
}
