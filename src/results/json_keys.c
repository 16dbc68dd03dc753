/*
** The keys of JSON objects, found in the text (json_keys.h).
*/
#include "json_keys.h"

#include <cjson/cJSON.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#include "grow.h"

#define WALK_DEPTH_MAX 1024 /* above cJSON's nesting limit: deeper text was never parsed */

typedef enum { OBJECT_OPENS, KEY, OBJECT_CLOSES } key_event;

/* Called for each object's opening and closing and for each key (key..key_end, quotes
** included), with the depth of the object (1: the outermost container). */
typedef int (*key_visit)(void *ctx, key_event event, size_t depth, const char *key,
                         const char *key_end);

/* Walks the value text[p..end): a non-zero return of visit stops the walk and is returned. A
** string is a key where an object expects one: after its '{' or after a comma in it. */
static int walk_keys(const char *p, const char *end, key_visit visit, void *ctx)
{
    bool is_object[WALK_DEPTH_MAX + 1];
    size_t depth = 0;
    bool expect_key = false;
    int status = 0;
    for (; p < end && status == 0; p++) {
        if (*p == '"') {
            const char *e = qsb_json_string_end(p, end);
            if (!e)
                return 0;
            if (expect_key)
                status = visit(ctx, KEY, depth, p, e);
            expect_key = false;
            p = e - 1;
        } else if (*p == '{' || *p == '[') {
            if (depth == WALK_DEPTH_MAX)
                return 0;
            is_object[++depth] = *p == '{';
            expect_key = *p == '{';
            if (expect_key)
                status = visit(ctx, OBJECT_OPENS, depth, NULL, NULL);
        } else if (*p == '}' || *p == ']') {
            if (depth == 0)
                return 0;
            if (is_object[depth])
                status = visit(ctx, OBJECT_CLOSES, depth, NULL, NULL);
            depth--;
            expect_key = false;
        } else if (*p == ',') {
            expect_key = depth > 0 && is_object[depth];
        }
    }
    return status;
}

/* ---- a key given twice ---- */

typedef struct {
    const char *start, *end; /* quotes included */
    bool escaped;            /* spelt with a backslash: compared decoded */
} key_text;

typedef struct {
    key_text *keys;  /* the keys of the objects open, the outermost's first */
    size_t n, cap;
    size_t first[WALK_DEPTH_MAX + 1]; /* the index in keys of the first key of the object at
                                      ** each depth */
    qsb_json_span repeated;
} repeat_scan;

/* A key's text as cJSON reads it; NULL when out of memory. */
static cJSON *decoded(const key_text *k)
{
    return cJSON_ParseWithLength(k->start, (size_t)(k->end - k->start));
}

/* 1: the same key, 0: not, -1: out of memory. */
static int same_key(const key_text *a, const key_text *b)
{
    size_t la = (size_t)(a->end - a->start), lb = (size_t)(b->end - b->start);
    if (!a->escaped && !b->escaped)
        return la == lb && memcmp(a->start, b->start, la) == 0;
    cJSON *x = decoded(a), *y = decoded(b);
    int same = x && y ? strcmp(x->valuestring, y->valuestring) == 0 : -1;
    cJSON_Delete(x);
    cJSON_Delete(y);
    return same;
}

static int repeat_visit(void *ctx, key_event event, size_t depth, const char *key,
                        const char *key_end)
{
    repeat_scan *s = ctx;
    if (event == OBJECT_OPENS) {
        s->first[depth] = s->n;
        return 0;
    }
    if (event == OBJECT_CLOSES) {
        s->n = s->first[depth];
        return 0;
    }
    key_text k = {key, key_end, memchr(key, '\\', (size_t)(key_end - key)) != NULL};
    for (size_t i = s->first[depth]; i < s->n; i++) {
        int same = same_key(&s->keys[i], &k);
        if (same != 0) {
            s->repeated = (qsb_json_span){key, key_end};
            return same;
        }
    }
    if (QSB_GROW(s->keys, s->cap, s->n + 1) != 0)
        return -1;
    s->keys[s->n++] = k;
    return 0;
}

int qsb_json_repeated_key(const char *text, size_t len, qsb_json_span *key)
{
    repeat_scan *s = malloc(sizeof *s); /* first[d] is set as the object at d opens */
    if (!s)
        return -1;
    s->keys = NULL;
    s->n = s->cap = 0;
    int found = walk_keys(text, text + len, repeat_visit, s);
    if (found == 1)
        *key = s->repeated;
    free(s->keys);
    free(s);
    return found;
}

/* ---- where a member is ---- */

typedef struct {
    const char *name;
    size_t len;
    const char *at;
} member_scan;

static int member_visit(void *ctx, key_event event, size_t depth, const char *key,
                        const char *key_end)
{
    member_scan *m = ctx;
    if (event != KEY || depth != 1 || (size_t)(key_end - key) != m->len + 2 ||
        memcmp(key + 1, m->name, m->len) != 0)
        return 0;
    m->at = key;
    return 1;
}

const char *qsb_json_member_at(const qsb_json_span *object, const char *name)
{
    member_scan m = {name, strlen(name), NULL};
    walk_keys(object->start, object->end, member_visit, &m);
    return m.at;
}

size_t qsb_json_line_of(const char *text, const char *at)
{
    size_t line = 1;
    for (const char *p = text; p < at; p++) {
        p = memchr(p, '\n', (size_t)(at - p));
        if (!p)
            break;
        line++;
    }
    return line;
}
