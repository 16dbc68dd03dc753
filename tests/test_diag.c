/*
** The escaping of untrusted text in messages (src/base/diag.h): known values for every kind of
** byte, the cut with "..." at the documented limits, and the rotating buffers of qsb_quote.
*/
#include <string.h>

#include "check.h"
#include "diag.h"

static void expect(const char *text, const char *want)
{
    const char *got = qsb_quote(text);
    CHECK_MSG(strcmp(got, want) == 0, "quote: got '%s', want '%s'", got, want);
}

static void test_known_values(void)
{
    expect("msort", "msort");
    expect("", "");
    expect(NULL, "");
    expect(" ~", " ~"); /* the ends of printable ASCII */
    expect("\x1b[31mRED\x1b[0m", "\\x1b[31mRED\\x1b[0m");
    expect("\x1b]0;title\x07", "\\x1b]0;title\\x07");
    expect("\x1c" "000", "\\x1c000");
    expect("\x01\t\n\r\x1f", "\\x01\\x09\\x0a\\x0d\\x1f");
    expect("\x7f", "\\x7f");
    expect("\x80\xff", "\\x80\\xff");
    expect("caf\xc3\xa9", "caf\\xc3\\xa9");     /* UTF-8 as well: the terminal may not be */
    expect("\xc3(\xed\xa0\x80", "\\xc3(\\xed\\xa0\\x80"); /* invalid UTF-8 */
    expect("it's \"x\"", "it\\'s \\\"x\\\"");
    expect("a\\b", "a\\\\b");
    expect("\\x41", "\\\\x41"); /* a literal backslash-x cannot pass for an escape */
}

static void test_every_byte_printable(void)
{
    for (int c = 1; c < 256; c++) {
        char text[2] = {(char)c, '\0'};
        const char *got = qsb_quote(text);
        int ok = *got != '\0';
        for (const char *p = got; *p; p++)
            ok &= *p >= 0x20 && *p <= 0x7e;
        CHECK_MSG(ok, "byte 0x%02x quoted as '%s'", c, got);
    }
}

static void test_cut(void)
{
    char digits[401];
    memset(digits, '7', 400);
    digits[400] = '\0';
    const char *got = qsb_quote(digits);
    CHECK_EQ_U64(strlen(got), QSB_QUOTE_MAX);
    CHECK(strncmp(got, digits, QSB_QUOTE_MAX - 3) == 0);
    CHECK(strcmp(got + QSB_QUOTE_MAX - 3, "...") == 0);

    digits[QSB_QUOTE_MAX] = '\0'; /* exactly the limit: whole */
    CHECK(strcmp(qsb_quote(digits), digits) == 0);
    digits[QSB_QUOTE_MAX] = '7';
    digits[QSB_QUOTE_MAX + 1] = '\0'; /* one more: cut */
    got = qsb_quote(digits);
    CHECK_EQ_U64(strlen(got), QSB_QUOTE_MAX);
    CHECK(strcmp(got + QSB_QUOTE_MAX - 3, "...") == 0);

    /* never inside an escape: 60 letters and ESCs leave room for no whole "\x1b" */
    char mixed[80];
    memset(mixed, 'a', 60);
    memset(mixed + 60, 0x1b, 10);
    mixed[70] = '\0';
    CHECK(strcmp(qsb_quote(mixed), "aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa...")
          == 0);
    /* 61 letters and one ESC escape: exactly 65 characters, one too many */
    memset(mixed, 'a', 61);
    mixed[61] = 0x1b;
    mixed[62] = '\0';
    got = qsb_quote(mixed);
    CHECK(strlen(got) == 64 && strcmp(got + 61, "...") == 0);
    /* 60 letters and one ESC escape: exactly 64, whole */
    mixed[60] = 0x1b;
    mixed[61] = '\0';
    got = qsb_quote(mixed);
    CHECK(strlen(got) == 64 && strcmp(got + 60, "\\x1b") == 0);

    char path[300];
    memset(path, 'p', sizeof path - 1);
    path[sizeof path - 1] = '\0';
    got = qsb_quote_path(path);
    CHECK_EQ_U64(strlen(got), QSB_QUOTE_PATH_MAX);
    CHECK(strcmp(got + QSB_QUOTE_PATH_MAX - 3, "...") == 0);
    path[QSB_QUOTE_MAX + 10] = '\0'; /* longer than a value, whole as a path */
    CHECK(strcmp(qsb_quote_path(path), path) == 0);
}

static void test_escape(void)
{
    char buf[8];
    CHECK(strcmp(qsb_escape(buf, sizeof buf, "a|b", "\\|"), "a\\|b") == 0); /* Markdown */
    CHECK(strcmp(qsb_escape(buf, sizeof buf, "'\"", "\\"), "'\"") == 0);     /* quotes kept */
    CHECK(strcmp(qsb_escape(buf, sizeof buf, "abcdefg", ""), "abcdefg") == 0);
    CHECK(strcmp(qsb_escape(buf, sizeof buf, "abcdefgh", ""), "abcd...") == 0);
    CHECK(strcmp(qsb_escape(buf, 4, "\x1b", ""), "...") == 0); /* the smallest buffer */
    CHECK(strcmp(qsb_escape(buf, 4, "abc", ""), "abc") == 0);
}

static void test_slots(void)
{
    const char *p[QSB_QUOTE_SLOTS];
    char text[8];
    for (int i = 0; i < QSB_QUOTE_SLOTS; i++) {
        snprintf(text, sizeof text, "v%d", i);
        p[i] = i % 2 ? qsb_quote(text) : qsb_quote_path(text);
    }
    for (int i = 0; i < QSB_QUOTE_SLOTS; i++) {
        snprintf(text, sizeof text, "v%d", i);
        CHECK_MSG(strcmp(p[i], text) == 0, "slot %d holds '%s'", i, p[i]);
    }
}

int main(void)
{
    test_known_values();
    test_every_byte_printable();
    test_cut();
    test_escape();
    test_slots();
    return check_done();
}
