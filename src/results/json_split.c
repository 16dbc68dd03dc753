/*
** A JSON results document split into its outline and its rows (see json_split.h).
*/
#include "json_split.h"

#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#include "grow.h"

#define MAX_NESTING 64 /* deeper than any results file: such a text is parsed whole */

typedef struct {
    const char *end; /* one past the text */
    qsb_json_span *docs;
    size_t ndocs, cap;
    bool machines_seen, out_of_memory;
} scan;

static const char *skip_ws(const char *p, const char *end)
{
    while (p < end && (*p == ' ' || *p == '\t' || *p == '\n' || *p == '\r'))
        p++;
    return p;
}

const char *qsb_json_string_end(const char *p, const char *end)
{
    for (p++; p < end; p++) {
        if (*p == '\\')
            p++;
        else if (*p == '"')
            return p + 1;
    }
    return NULL;
}

static bool ends_scalar(char c)
{
    return c == ',' || c == ']' || c == '}' || c == ' ' || c == '\t' || c == '\n' || c == '\r';
}

/* p at a value's first byte: one past its last; NULL when the text ends or misnests first.
** A scalar ends where it cannot go on (cJSON judges it later). */
static const char *value_end(const char *p, const char *end)
{
    if (p >= end)
        return NULL;
    if (*p == '"')
        return qsb_json_string_end(p, end);
    if (*p != '{' && *p != '[') {
        while (p < end && !ends_scalar(*p))
            p++;
        return p;
    }
    char open[MAX_NESTING];
    size_t depth = 0;
    for (; p < end; p++) {
        if (*p == '"') {
            if (!(p = qsb_json_string_end(p, end)))
                return NULL;
            p--;
        } else if (*p == '{' || *p == '[') {
            if (depth == MAX_NESTING)
                return NULL;
            open[depth++] = *p;
        } else if (*p == '}' || *p == ']') {
            if (depth == 0 || open[depth - 1] != (*p == '}' ? '{' : '['))
                return NULL;
            if (--depth == 0)
                return p + 1;
        }
    }
    return NULL;
}

/* The key between k and k_end (quotes included) is name, byte for byte. A key spelt with
** escapes is not: the outline keeps its value, and the tree reads it. */
static bool key_is(const char *k, const char *k_end, const char *name)
{
    size_t n = strlen(name);
    return (size_t)(k_end - k) == n + 2 && memcmp(k + 1, name, n) == 0;
}

/* A new document with no results yet; its index, or -1 when out of memory. */
static long add_doc(scan *s)
{
    if (QSB_GROW(s->docs, s->cap, s->ndocs + 1) != 0) {
        s->out_of_memory = true;
        return -1;
    }
    s->docs[s->ndocs] = (qsb_json_span){NULL, NULL};
    return (long)s->ndocs++;
}

/* What follows a member or an element at *p: the container's `close` (1, *p one past it), a
** comma (0, *p at what comes next), or anything else (-1). */
static int after_member(const char **p, const char *end, char close)
{
    const char *q = skip_ws(*p, end);
    if (q < end && *q == close) {
        *p = q + 1;
        return 1;
    }
    if (q >= end || *q != ',')
        return -1;
    *p = skip_ws(q + 1, end);
    return 0;
}

static const char *scan_machines(scan *s, const char *p);

/* The object at p (its '{'), document doc: the span of its first "results" key's array, and
** for the root the documents of its first "machines" key's array. One past its '}', or NULL
** when not shaped as expected. */
static const char *scan_object(scan *s, const char *p, long doc, bool root)
{
    p = skip_ws(p + 1, s->end);
    if (p < s->end && *p == '}')
        return p + 1;
    while (p < s->end && *p == '"') {
        const char *key = p, *key_end = qsb_json_string_end(p, s->end);
        if (!key_end)
            return NULL;
        p = skip_ws(key_end, s->end);
        if (p >= s->end || *p != ':')
            return NULL;
        p = skip_ws(p + 1, s->end);
        const char *v_end;
        if (root && !s->machines_seen && key_is(key, key_end, "machines") && p < s->end &&
            *p == '[') {
            s->machines_seen = true;
            v_end = scan_machines(s, p);
        } else {
            v_end = value_end(p, s->end);
            if (v_end && *p == '[' && !s->docs[doc].start && key_is(key, key_end, "results"))
                s->docs[doc] = (qsb_json_span){p, v_end};
        }
        if (!v_end)
            return NULL;
        p = v_end;
        int step = after_member(&p, s->end, '}');
        if (step != 0)
            return step > 0 ? p : NULL;
    }
    return NULL;
}

/* The root's "machines" array at p: each element a document (objects are scanned for their
** results; anything else keeps its place, for the reader to refuse). */
static const char *scan_machines(scan *s, const char *p)
{
    p = skip_ws(p + 1, s->end);
    if (p < s->end && *p == ']')
        return p + 1;
    while (p < s->end) {
        long doc = add_doc(s);
        if (doc < 0)
            return NULL;
        const char *e = *p == '{' ? scan_object(s, p, doc, false) : value_end(p, s->end);
        if (!e)
            return NULL;
        p = e;
        int step = after_member(&p, s->end, ']');
        if (step != 0)
            return step > 0 ? p : NULL;
    }
    return NULL;
}

static int by_start(const void *a, const void *b)
{
    const char *x = (*(const qsb_json_span *const *)a)->start;
    const char *y = (*(const qsb_json_span *const *)b)->start;
    return (x > y) - (x < y);
}

/* The text with every recorded array emptied to "[" + its newlines + "]". */
static int build_outline(const char *text, size_t len, qsb_json_split *out)
{
    const qsb_json_span **spans = malloc((out->ndocs ? out->ndocs : 1) * sizeof *spans);
    char *outline = malloc(len + 1);
    if (!spans || !outline) {
        free(spans);
        free(outline);
        return -1;
    }
    size_t n = 0;
    for (size_t i = 0; i < out->ndocs; i++)
        if (out->docs[i].start)
            spans[n++] = &out->docs[i];
    qsort(spans, n, sizeof *spans, by_start); /* libc's: never a sort under test */
    size_t used = 0;
    const char *from = text;
    for (size_t i = 0; i < n; i++) {
        memcpy(outline + used, from, (size_t)(spans[i]->start - from));
        used += (size_t)(spans[i]->start - from);
        outline[used++] = '[';
        for (const char *p = spans[i]->start; p < spans[i]->end; p++)
            if (*p == '\n')
                outline[used++] = '\n';
        outline[used++] = ']';
        from = spans[i]->end;
    }
    memcpy(outline + used, from, (size_t)(text + len - from));
    used += (size_t)(text + len - from);
    outline[used] = '\0';
    free(spans);
    char *fitted = realloc(outline, used + 1); /* a large file's outline is a small part of it */
    out->outline = fitted ? fitted : outline;
    out->outline_len = used;
    return 0;
}

int qsb_json_split_results(const char *text, size_t len, qsb_json_split *out)
{
    memset(out, 0, sizeof *out);
    scan s = {text + len, NULL, 0, 0, false, false};
    const char *p = skip_ws(text, s.end);
    const char *e = NULL;
    if (p < s.end && *p == '{' && add_doc(&s) == 0)
        e = scan_object(&s, p, 0, true);
    if (s.out_of_memory) {
        free(s.docs);
        return -1;
    }
    if (!e || skip_ws(e, s.end) != s.end) {
        free(s.docs);
        return 1;
    }
    out->docs = s.docs;
    out->ndocs = s.ndocs;
    if (build_outline(text, len, out) != 0) {
        qsb_json_split_free(out);
        return -1;
    }
    return 0;
}

void qsb_json_split_free(qsb_json_split *s)
{
    free(s->docs);
    free(s->outline);
    memset(s, 0, sizeof *s);
}

int qsb_json_next_element(const qsb_json_span *array, const char **at, qsb_json_span *element)
{
    const char *end = array->end - 1; /* the closing ']' */
    const char *p = skip_ws(*at == array->start ? *at + 1 : *at, end);
    if (p == end)
        return 0;
    if (*at != array->start) {
        if (*p != ',') {
            *at = p;
            return -1;
        }
        p = skip_ws(p + 1, end);
    }
    const char *e = p < end ? value_end(p, end) : NULL;
    if (!e || e == p) {
        *at = p;
        return -1;
    }
    *element = (qsb_json_span){p, e};
    *at = e;
    return 1;
}
