/*
** src/results/json_split.c: the "results" arrays of a document (the root's, and each of a
** fleet's machines) found in the text, the outline with them emptied and their newlines
** kept, the elements of an array in turn, and the texts it leaves to the whole parser (not
** an object, cut short, misnested, a trailing comma).
*/
#include <string.h>

#include "check.h"
#include "json_split.h"

static int span_is(const qsb_json_span *s, const char *text)
{
    return s->start && (size_t)(s->end - s->start) == strlen(text) &&
           memcmp(s->start, text, strlen(text)) == 0;
}

static void test_one_document(void)
{
    const char *text = "{\"schema_version\": 1,\n \"results\": [\n  {\"a\": \"]\"},\n"
                       "  {\"b\": [1]}\n ],\n \"context\": {\"results\": [9]}}\n";
    qsb_json_split s;
    CHECK(qsb_json_split_results(text, strlen(text), &s) == 0);
    CHECK_EQ_U64(s.ndocs, 1);
    CHECK(s.ndocs == 1 && span_is(&s.docs[0], "[\n  {\"a\": \"]\"},\n  {\"b\": [1]}\n ]"));
    /* the array's three newlines stay, so the context is still on line 6 */
    const char *outline = "{\"schema_version\": 1,\n \"results\": [\n\n\n],\n"
                          " \"context\": {\"results\": [9]}}\n";
    CHECK_MSG(s.outline && strcmp(s.outline, outline) == 0, "outline '%s'", s.outline);
    CHECK_EQ_U64(s.outline_len, strlen(outline));
    const char *at = s.docs[0].start;
    qsb_json_span item;
    CHECK(qsb_json_next_element(&s.docs[0], &at, &item) == 1 && span_is(&item, "{\"a\": \"]\"}"));
    CHECK(qsb_json_next_element(&s.docs[0], &at, &item) == 1 && span_is(&item, "{\"b\": [1]}"));
    CHECK(qsb_json_next_element(&s.docs[0], &at, &item) == 0);
    qsb_json_split_free(&s);
}

static void test_fleet(void)
{
    const char *text = "{\"schema_version\": 2, \"machines\": [{\"results\": [1, 2]}, 7, "
                       "{\"context\": {}}, {\"results\": []}]}";
    qsb_json_split s;
    CHECK(qsb_json_split_results(text, strlen(text), &s) == 0);
    CHECK_EQ_U64(s.ndocs, 5); /* the root, then one per element of machines */
    if (s.ndocs == 5) {
        CHECK(s.docs[0].start == NULL && span_is(&s.docs[1], "[1, 2]"));
        CHECK(s.docs[2].start == NULL && s.docs[3].start == NULL && span_is(&s.docs[4], "[]"));
        const char *at = s.docs[4].start;
        qsb_json_span item;
        CHECK(qsb_json_next_element(&s.docs[4], &at, &item) == 0);
    }
    CHECK(s.outline && strcmp(s.outline, "{\"schema_version\": 2, \"machines\": [{\"results\": "
                                         "[]}, 7, {\"context\": {}}, {\"results\": []}]}") == 0);
    qsb_json_split_free(&s);
}

static void test_left_to_the_parser(void)
{
    const char *texts[] = {"[1, 2]", "{\"results\": [1, 2", "{\"results\": [1}]}",
                           "{\"results\": [1]} x", "{1: 2}", "", "{\"a\" 1}"};
    for (size_t i = 0; i < sizeof texts / sizeof texts[0]; i++) {
        qsb_json_split s;
        CHECK_MSG(qsb_json_split_results(texts[i], strlen(texts[i]), &s) == 1, "'%s'", texts[i]);
        CHECK(s.docs == NULL && s.outline == NULL);
    }
    const char *text = "{\"results\": [{}, {},\n ]}";
    qsb_json_split s;
    CHECK(qsb_json_split_results(text, strlen(text), &s) == 0);
    const char *at = s.docs[0].start;
    qsb_json_span item;
    CHECK(qsb_json_next_element(&s.docs[0], &at, &item) == 1);
    CHECK(qsb_json_next_element(&s.docs[0], &at, &item) == 1);
    CHECK(qsb_json_next_element(&s.docs[0], &at, &item) == -1 && *at == ']');
    qsb_json_split_free(&s);
}

int main(void)
{
    test_one_document();
    test_fleet();
    test_left_to_the_parser();
    return check_done();
}
