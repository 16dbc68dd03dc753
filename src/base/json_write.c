/*
** Writing a cJSON document (see json_write.h).
*/
#include "json_write.h"

#include <string.h>

#include <cjson/cJSON.h>

#include "diag.h"

int qsb_json_print(FILE *out, cJSON *root, const char *what)
{
    char *text = root ? cJSON_Print(root) : NULL;
    cJSON_Delete(root);
    if (!text)
        return qsb_out_of_memory(what);
    fputs(text, out);
    fputc('\n', out);
    cJSON_free(text);
    return QSB_OK;
}

/* An element printed alone, written as cJSON prints it as an element of an array member of
** the root: every line after its first indented by two more tabs (the root object and the
** array each add one). */
static void write_nested(FILE *out, const char *text)
{
    for (; *text; text++) {
        fputc(*text, out);
        if (*text == '\n')
            fputs("\t\t", out);
    }
}

int qsb_json_print_array_streamed(FILE *out, cJSON *root, const char *key, size_t n,
                                  qsb_json_element_fn element, void *ctx, const char *what)
{
    static const char empty_tail[] = "[]\n}"; /* the empty array last, then the root's end */
    char *text = root && cJSON_AddArrayToObject(root, key) ? cJSON_Print(root) : NULL;
    cJSON_Delete(root);
    if (!text)
        return qsb_out_of_memory(what);
    size_t len = strlen(text), tail = sizeof empty_tail - 1;
    if (len < tail || strcmp(text + len - tail, empty_tail) != 0) { /* cJSON prints otherwise */
        cJSON_free(text);
        return qsb_error(QSB_ESYSTEM, "%s: cJSON printed the document in an unexpected layout",
                         what);
    }
    fwrite(text, 1, len - tail + 1, out); /* up to and with the '[' */
    int status = QSB_OK;
    for (size_t i = 0; i < n && status == QSB_OK; i++) {
        cJSON *item = element(ctx, i);
        char *item_text = item ? cJSON_Print(item) : NULL;
        cJSON_Delete(item);
        if (!item_text) {
            status = qsb_out_of_memory(what);
            break;
        }
        if (i > 0)
            fputs(", ", out);
        write_nested(out, item_text);
        cJSON_free(item_text);
    }
    if (status == QSB_OK)
        fprintf(out, "%s\n", text + len - tail + 1); /* "]\n}" and the final newline */
    cJSON_free(text);
    return status;
}

int qsb_json_abandon(cJSON *root, const char *what)
{
    cJSON_Delete(root);
    return qsb_out_of_memory(what);
}
