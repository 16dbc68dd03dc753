/*
** The streamed JSON writer (json_write.h): a document whose last member is an array written
** element by element is byte for byte the document printed whole, for no element, one, and
** many, with nested objects and arrays, escaped strings and numbers in the elements.
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
static cJSON *element(void *ctx, size_t i)
{
    (void)ctx;
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
        CHECK(qsb_json_print_array_streamed(fp, root, "cells", n, element, NULL, "test") ==
              QSB_OK);
    } else {
        cJSON *cells = cJSON_AddArrayToObject(root, "cells");
        for (size_t i = 0; i < n; i++)
            cJSON_AddItemToArray(cells, element(NULL, i));
        CHECK(qsb_json_print(fp, root, "test") == QSB_OK);
    }
    fclose(fp);
    return text;
}

int main(void)
{
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
