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

/* cJSON's formatted text at a nesting of `tabs`: each line after the first indented by that
** many more tabs (an object or array adds one to what it holds). */
static void write_nested(FILE *out, const char *text, unsigned tabs)
{
    for (; *text; text++) {
        fputc(*text, out);
        for (unsigned t = 0; *text == '\n' && t < tabs; t++)
            fputc('\t', out);
    }
}

/* Prints root with the array `key` empty and last, writes it up to and with the array's '[',
** and keeps the rest for close. */
static int open_at(qsb_json_stream *s, unsigned depth, cJSON *root, const char *key)
{
    static const char empty_end[] = "[]\n}"; /* the empty array, then the document's end */
    s->depth = depth;
    s->count = 0;
    s->text = root && cJSON_AddArrayToObject(root, key) ? cJSON_Print(root) : NULL;
    cJSON_Delete(root);
    if (!s->text)
        return qsb_out_of_memory(s->what);
    size_t len = strlen(s->text), end = sizeof empty_end - 1;
    if (len < end || strcmp(s->text + len - end, empty_end) != 0) { /* cJSON prints otherwise */
        cJSON_free(s->text);
        s->text = NULL;
        return qsb_error(QSB_ESYSTEM, "%s: cJSON printed a document in an unexpected layout",
                         s->what);
    }
    s->tail = len - end + 1;
    s->text[s->tail] = '\0'; /* written up to and with the '[' */
    write_nested(s->out, s->text, depth);
    s->text[s->tail] = ']';
    return QSB_OK;
}

int qsb_json_stream_open(qsb_json_stream *s, FILE *out, cJSON *root, const char *key,
                         const char *what)
{
    s->out = out;
    s->what = what;
    return open_at(s, 0, root, key);
}

/* The separator before parent's next element. */
static void next_element(qsb_json_stream *parent)
{
    if (parent->count++ > 0)
        fputs(", ", parent->out);
}

int qsb_json_stream_open_element(qsb_json_stream *parent, qsb_json_stream *s, cJSON *root,
                                 const char *key)
{
    s->out = parent->out;
    s->what = parent->what;
    next_element(parent);
    return open_at(s, parent->depth + 2, root, key);
}

int qsb_json_stream_add(qsb_json_stream *s, cJSON *item)
{
    char *text = item ? cJSON_Print(item) : NULL;
    cJSON_Delete(item);
    if (!text)
        return qsb_out_of_memory(s->what);
    next_element(s);
    write_nested(s->out, text, s->depth + 2);
    cJSON_free(text);
    return QSB_OK;
}

void qsb_json_stream_close(qsb_json_stream *s)
{
    if (!s->text) /* not opened: nothing to close */
        return;
    write_nested(s->out, s->text + s->tail, s->depth); /* "]\n}" at the document's nesting */
    if (s->depth == 0)
        fputc('\n', s->out);
    cJSON_free(s->text);
    s->text = NULL;
}

int qsb_json_abandon(cJSON *root, const char *what)
{
    cJSON_Delete(root);
    return qsb_out_of_memory(what);
}
