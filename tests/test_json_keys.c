/*
** src/results/json_keys.c: a key given twice in one object found at any depth (spelt with
** escapes too), never across objects, nor in strings that are values; a member's key found at
** the object's top level only; lines counted.
*/
#include <string.h>

#include "check.h"
#include "json_keys.h"

/* The repeated key of text: its spelling (quotes included) or "" when none. */
static int repeated_is(const char *text, const char *want)
{
    qsb_json_span key = {NULL, NULL};
    int found = qsb_json_repeated_key(text, strlen(text), &key);
    if (!*want)
        return found == 0;
    return found == 1 && (size_t)(key.end - key.start) == strlen(want) &&
           memcmp(key.start, want, strlen(want)) == 0;
}

static void test_repeated(void)
{
    CHECK(repeated_is("{\"a\": 1, \"b\": 2}", ""));
    CHECK(repeated_is("{\"a\": 1, \"a\": 2}", "\"a\""));
    /* the second one is named: its place is where the line is counted */
    const char *text = "{\"a\": 1,\n \"b\": {\"c\": 1, \"c\": [2]},\n \"a\": 3}";
    qsb_json_span key;
    CHECK(qsb_json_repeated_key(text, strlen(text), &key) == 1);
    CHECK(key.start == strstr(text, "\"c\": [") && qsb_json_line_of(text, key.start) == 2);
    /* siblings and parents are other objects; values are not keys */
    CHECK(repeated_is("[{\"a\": 1}, {\"a\": 2}]", ""));
    CHECK(repeated_is("{\"a\": {\"a\": 1}, \"b\": {\"a\": 2}}", ""));
    CHECK(repeated_is("{\"a\": \"a\", \"b\": [\"a\", \"b\"]}", ""));
    CHECK(repeated_is("{\"a\": {\"x\": 1}, \"a\": 2}", "\"a\""));
    CHECK(repeated_is("{\"k\\\"\": 1, \"k\\\"\": 2}", "\"k\\\"\""));
    /* escapes compared as decoded */
    CHECK(repeated_is("{\"median\": 1, \"med\\u0069an\": 2}", "\"med\\u0069an\""));
    CHECK(repeated_is("{\"a\\/b\": 1, \"a/b\": 2}", "\"a/b\""));
    CHECK(repeated_is("{\"a\\u0062\": 1, \"ac\": 2}", ""));
}

static void test_member_at(void)
{
    const char *text = "{\"x\": {\"median\": 1},\n \"s\": \"median\",\n \"median\": 2}";
    qsb_json_span object = {text, text + strlen(text)};
    const char *at = qsb_json_member_at(&object, "median");
    CHECK(at == strstr(text, "\"median\": 2") && qsb_json_line_of(text, at) == 3);
    CHECK(qsb_json_member_at(&object, "y") == NULL);
    CHECK(qsb_json_line_of(text, text) == 1);
}

int main(void)
{
    test_repeated();
    test_member_at();
    return check_done();
}
