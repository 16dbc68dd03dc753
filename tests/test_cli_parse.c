/*
** The strict parsers of src/commands/cli.c: qsb_parse_u64, qsb_parse_u64_list, qsb_parse_double and
** qsb_split_words. Every accepted text must give the exact value; every rejected one must
** return QSB_EUSAGE and leave the output untouched. (Rejections print their error line on
** stderr, as the tool would.)
*/
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "cli.h"
#include "diag.h"

#define SENTINEL UINT64_C(0x5eed5eed5eed5eed)

static void accept_u64(const char *text, uint64_t min, uint64_t max, int hex_ok,
                       uint64_t expected)
{
    uint64_t v = SENTINEL;
    int status = qsb_parse_u64(text, "--test", min, max, hex_ok, &v);
    CHECK_MSG(status == QSB_OK && v == expected, "'%s' -> status %d, value %llu", text, status,
              (unsigned long long)v);
}

static void reject_u64(const char *text, uint64_t min, uint64_t max, int hex_ok)
{
    uint64_t v = SENTINEL;
    int status = qsb_parse_u64(text, "--test", min, max, hex_ok, &v);
    CHECK_MSG(status == QSB_EUSAGE && v == SENTINEL, "'%s' accepted (status %d)", text,
              status);
}

static void test_parse_u64(void)
{
    accept_u64("0", 0, UINT64_MAX, 0, 0);
    accept_u64("123", 0, UINT64_MAX, 0, 123);
    accept_u64("007", 0, UINT64_MAX, 0, 7); /* decimal, not octal */
    accept_u64("18446744073709551615", 0, UINT64_MAX, 0, UINT64_MAX);
    accept_u64("0x10", 0, UINT64_MAX, 1, 16);
    accept_u64("0X1f", 0, UINT64_MAX, 1, 31);
    accept_u64("0xffffffffffff", 0, UINT64_C(0xffffffffffff), 1, UINT64_C(0xffffffffffff));
    accept_u64("5", 5, 5, 0, 5); /* both bounds inclusive */

    reject_u64("", 0, UINT64_MAX, 0);
    reject_u64("12x", 0, UINT64_MAX, 0);
    reject_u64("x12", 0, UINT64_MAX, 0);
    reject_u64("-1", 0, UINT64_MAX, 0);
    reject_u64("+1", 0, UINT64_MAX, 0);
    reject_u64(" 1", 0, UINT64_MAX, 0);
    reject_u64("1 ", 0, UINT64_MAX, 0);
    reject_u64("1.0", 0, UINT64_MAX, 0);
    reject_u64("1e3", 0, UINT64_MAX, 0);
    reject_u64("18446744073709551616", 0, UINT64_MAX, 0);      /* 2^64 */
    reject_u64("99999999999999999999", 0, UINT64_MAX, 0);
    reject_u64("0x10", 0, UINT64_MAX, 0);                       /* hex not allowed here */
    reject_u64("0x", 0, UINT64_MAX, 1);
    reject_u64("0xg", 0, UINT64_MAX, 1);
    reject_u64("0x-1", 0, UINT64_MAX, 1);
    reject_u64("0x0x1", 0, UINT64_MAX, 1);
    reject_u64("0x10000000000000000", 0, UINT64_MAX, 1);        /* 2^64 in hex */
    reject_u64("0x1000000000000", 0, UINT64_C(0xffffffffffff), 1); /* 2^48 */
    reject_u64("0", 1, 10, 0);
    reject_u64("11", 1, 10, 0);
}

static void test_parse_u64_list(void)
{
    uint64_t *values = NULL;
    size_t count = 0;
    CHECK(qsb_parse_u64_list("49152:786432:8388608", ':', "--nelem", 1, UINT64_MAX, &values,
                             &count) == QSB_OK);
    CHECK_EQ_U64(count, 3);
    if (count == 3) {
        CHECK_EQ_U64(values[0], 49152);
        CHECK_EQ_U64(values[1], 786432);
        CHECK_EQ_U64(values[2], 8388608);
    }
    free(values);

    values = NULL;
    CHECK(qsb_parse_u64_list("4,8,32,7", ',', "--sizes", 1, 1024, &values, &count) == QSB_OK);
    CHECK_EQ_U64(count, 4);
    if (count == 4)
        CHECK_EQ_U64(values[3], 7);
    free(values);

    values = NULL;
    CHECK(qsb_parse_u64_list("42", ':', "--nelem", 1, UINT64_MAX, &values, &count) == QSB_OK);
    CHECK_EQ_U64(count, 1);
    if (count == 1)
        CHECK_EQ_U64(values[0], 42);
    free(values);

    static const char *const bad[] = {"", ":", "1::2", ":1", "1:", "1:x", "1:0", "1,2",
                                      "1:-2", "1:99999999999999999999"};
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        uint64_t *out = NULL;
        size_t n = 12345;
        int status = qsb_parse_u64_list(bad[i], ':', "--nelem", 1, UINT64_MAX, &out, &n);
        CHECK_MSG(status == QSB_EUSAGE && out == NULL && n == 12345, "list '%s' accepted",
                  bad[i]);
        free(out);
    }
}

static void test_parse_double(void)
{
    static const struct {
        const char *text;
        double value;
    } good[] = {{"0", 0.0}, {"1.5", 1.5}, {"100", 100.0}, {"0.25", 0.25}, {".5", 0.5},
                {"5.", 5.0}};
    for (size_t i = 0; i < sizeof good / sizeof good[0]; i++) {
        double v = -1;
        int status = qsb_parse_double(good[i].text, "--test", 0, 100, &v);
        CHECK_MSG(status == QSB_OK && v == good[i].value, "'%s' -> %d, %g", good[i].text,
                  status, v);
    }
    static const char *const bad[] = {"", ".", "-1", "+1", "1e3", "1.2.3", "inf", "nan",
                                      " 1", "1 ", "0x10", "100.5", "1,5"};
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        double v = -1;
        int status = qsb_parse_double(bad[i], "--test", 0, 100, &v);
        CHECK_MSG(status == QSB_EUSAGE && v == -1, "'%s' accepted", bad[i]);
    }
    double v = -1;
    CHECK(qsb_parse_double("0.5", "--test", 1, 2, &v) == QSB_EUSAGE && v == -1);
}

static void test_split_words(void)
{
    char **words = NULL;
    size_t count = 0;
    CHECK(qsb_split_words("msort,introsort,system", "--algos", &words, &count) == QSB_OK);
    CHECK_EQ_U64(count, 3);
    if (count == 3) {
        CHECK(strcmp(words[0], "msort") == 0);
        CHECK(strcmp(words[1], "introsort") == 0);
        CHECK(strcmp(words[2], "system") == 0);
    }
    free(words); /* one allocation frees all */

    words = NULL;
    CHECK(qsb_split_words("all", "--patterns", &words, &count) == QSB_OK);
    CHECK_EQ_U64(count, 1);
    if (count == 1)
        CHECK(strcmp(words[0], "all") == 0);
    free(words);

    static const char *const bad[] = {"", ",", "a,,b", ",a", "a,"};
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        char **out = NULL;
        size_t n = 12345;
        int status = qsb_split_words(bad[i], "--algos", &out, &n);
        CHECK_MSG(status == QSB_EUSAGE && out == NULL && n == 12345, "words '%s' accepted",
                  bad[i]);
    }
}

int main(void)
{
    test_parse_u64();
    test_parse_u64_list();
    test_parse_double();
    test_split_words();
    return check_done();
}
