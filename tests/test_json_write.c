/*
** The streamed JSON writer (json_write.h): a document whose last member is an array written
** element by element is byte for byte the document printed whole, for no element, one, and
** many, with nested objects and arrays, escaped strings and numbers in the elements; and so
** is a fleet's shape, documents streamed as the elements of the root's array.
*/
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cjson/cJSON.h>

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

/* What `print` writes, as a malloc'd string. */
static char *written(size_t n, int streamed)
{
    char *text = NULL;
    size_t len = 0;
    FILE *fp = open_memstream(&text, &len);
    if (!fp)
        return NULL;
    cJSON *root = head();
    if (streamed) {
        qsb_json_stream cells;
        CHECK(qsb_json_stream_open(&cells, fp, root, "cells", "test") == QSB_OK);
        for (size_t i = 0; i < n; i++)
            CHECK(qsb_json_stream_add(&cells, element(i)) == QSB_OK);
        qsb_json_stream_close(&cells);
    } else {
        cJSON *cells = cJSON_AddArrayToObject(root, "cells");
        for (size_t i = 0; i < n; i++)
            cJSON_AddItemToArray(cells, element(i));
        CHECK(qsb_json_print(fp, root, "test") == QSB_OK);
    }
    fclose(fp);
    return text;
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

static char *fleet_written(size_t machines, size_t rows, int streamed)
{
    char *text = NULL;
    size_t len = 0;
    FILE *fp = open_memstream(&text, &len);
    if (!fp)
        return NULL;
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
    } else {
        cJSON *all = cJSON_AddArrayToObject(root, "machines");
        for (size_t m = 0; m < machines; m++) {
            cJSON *doc = machine_head(m), *results = cJSON_AddArrayToObject(doc, "results");
            for (size_t i = 0; i < rows; i++)
                cJSON_AddItemToArray(results, element(i + m));
            cJSON_AddItemToArray(all, doc);
        }
        CHECK(qsb_json_print(fp, root, "test") == QSB_OK);
    }
    fclose(fp);
    return text;
}

int main(void)
{
    const size_t shapes[][2] = {{1, 0}, {1, 3}, {2, 1}, {3, 4}};
    for (size_t k = 0; k < sizeof shapes / sizeof shapes[0]; k++) {
        char *whole = fleet_written(shapes[k][0], shapes[k][1], 0);
        char *streamed = fleet_written(shapes[k][0], shapes[k][1], 1);
        CHECK_MSG(whole && streamed && strcmp(whole, streamed) == 0,
                  "%zu machines of %zu rows:\n--- whole\n%s--- streamed\n%s", shapes[k][0],
                  shapes[k][1], whole, streamed);
        free(whole);
        free(streamed);
    }
    const size_t counts[] = {0, 1, 2, 7};
    for (size_t k = 0; k < sizeof counts / sizeof counts[0]; k++) {
        char *whole = written(counts[k], 0), *streamed = written(counts[k], 1);
        CHECK(whole && streamed);
        CHECK_MSG(whole && streamed && strcmp(whole, streamed) == 0,
                  "%zu elements:\n--- whole\n%s--- streamed\n%s", counts[k], whole, streamed);
        free(whole);
        free(streamed);
    }
    return check_done();
}
