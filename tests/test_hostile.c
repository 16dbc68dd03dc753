/*
** Hostile text in results files and on the command line: the fixtures of
** tests/fixtures/results with a field made of terminal escape sequences (ESC [ ... m, OSC),
** other control bytes, invalid UTF-8 or 400 characters, in every kind of column (CSV string,
** number, bool and list; JSON string, number and bool), must give exit status 2 and exactly
** one stderr line of printable ASCII. Valid files with such names must give a table, a
** Markdown file and chart titles with no raw control byte and no table cell broken by '|'.
*/
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>

#include "check.h"

#define FIXTURES QSB_SOURCE_DIR "/tests/fixtures/results/"

static char tmpdir[] = "/tmp/qsb-hostile-XXXXXX";

static char *slurp(const char *path, size_t *len)
{
    FILE *fp = fopen(path, "rb");
    if (!fp)
        return NULL;
    char *buf = calloc(1, 1 << 20);
    size_t n = buf ? fread(buf, 1, (1 << 20) - 1, fp) : 0;
    fclose(fp);
    if (len)
        *len = n;
    return buf;
}

static void write_file(const char *name, const char *text)
{
    char path[256];
    snprintf(path, sizeof path, "%s/%s", tmpdir, name);
    FILE *fp = fopen(path, "wb");
    CHECK(fp != NULL);
    if (fp) {
        fputs(text, fp);
        CHECK(fclose(fp) == 0);
    }
}

/* text with the first occurrence of from, or every one (all), replaced by to. */
static char *replace(const char *text, const char *from, const char *to, int all)
{
    size_t flen = strlen(from), tlen = strlen(to), n = 0;
    for (const char *p = text; (p = strstr(p, from)); p += flen)
        n++;
    CHECK_MSG(n > 0, "'%s' not in the fixture", from);
    char *out = malloc(strlen(text) + n * tlen + 1), *o = out;
    const char *p = text;
    for (const char *at; (at = strstr(p, from)); p = at + flen) {
        memcpy(o, p, (size_t)(at - p));
        o += at - p;
        memcpy(o, to, tlen);
        o += tlen;
        if (!all) {
            p = at + flen;
            break;
        }
    }
    strcpy(o, p);
    return out;
}

/* Runs the shell command in tmpdir. */
static int shell(const char *command)
{
    char cmd[2048];
    snprintf(cmd, sizeof cmd, "cd '%s' && %s", tmpdir, command);
    int status = system(cmd);
    return WIFEXITED(status) ? WEXITSTATUS(status) : -1;
}

/* Runs "qsortbench ARGS" in tmpdir; stdout in out.txt, stderr in err.txt. */
static int run(const char *args)
{
    char cmd[1024];
    snprintf(cmd, sizeof cmd, "'%s' %s >out.txt 2>err.txt", QSB_BINARY, args);
    return shell(cmd);
}

static char *slurp_tmp(const char *name, size_t *len)
{
    char path[256];
    snprintf(path, sizeof path, "%s/%s", tmpdir, name);
    return slurp(path, len);
}

/* Bytes outside printable ASCII, a newline excepted, and the UTF-8 of `allowed` (may be NULL). */
static size_t raw_bytes(const char *text, size_t len, const char *allowed)
{
    size_t bad = 0, alen = allowed ? strlen(allowed) : 0;
    for (size_t i = 0; i < len; i++) {
        if (alen && strncmp(text + i, allowed, alen) == 0) {
            i += alen - 1;
            continue;
        }
        unsigned char c = (unsigned char)text[i];
        bad += c != '\n' && (c < 0x20 || c > 0x7e);
    }
    return bad;
}

/* The last run: exit status 2, one line "qsortbench: error: ..." of printable ASCII, no
** longer than the escaping allows, containing `want` (NULL: anything). */
static void expect_one_clean_line(const char *what, int status, const char *want)
{
    size_t len = 0;
    char *err = slurp_tmp("err.txt", &len);
    size_t lines = 0;
    for (size_t i = 0; err && i < len; i++)
        lines += err[i] == '\n';
    CHECK_MSG(status == 2, "%s: exit status %d", what, status);
    CHECK_MSG(err && lines == 1 && len > 0 && err[len - 1] == '\n', "%s: %zu lines", what, lines);
    const char *shown = err ? err : "";
    CHECK_MSG(strncmp(shown, "qsortbench: error: ", 19) == 0, "%s: '%s'", what, shown);
    CHECK_MSG(raw_bytes(shown, len, NULL) == 0, "%s: raw bytes in '%s'", what, shown);
    CHECK_MSG(len < 400, "%s: %zu bytes", what, len);
    CHECK_MSG(!want || strstr(shown, want), "%s: no '%s' in '%s'", what, want, shown);
    free(err);
}

/* ---- the hostile values ---- */

typedef struct {
    const char *name;
    const char *csv;  /* as a CSV field's text (the file quotes it) */
    const char *json; /* as a JSON string's body (escaped as JSON wants, raw bytes kept) */
    const char *shown; /* what an error message that quotes it must contain */
} hostile;

static char long_digits[401];

static const hostile values[] = {
    {"sgr", "\x1b[31mRED\x1b[0m", "\\u001b[31mRED\\u001b[0m", "\\x1b[31mRED\\x1b[0m"},
    {"osc", "\x1b]0;pwned\x07", "\\u001b]0;pwned\\u0007", "\\x1b]0;pwned\\x07"},
    {"controls", "a\x01\x1c\n\t\r\x7fz", "a\\u0001\\u001c\\n\\t\\r\x7fz",
     "a\\x01\\x1c\\x0a\\x09\\x0d\\x7fz"},
    {"utf8", "\xff\xfe\xc3(\xed\xa0\x80", "\xff\xfe\xc3(\xed\xa0\x80",
     "\\xff\\xfe\\xc3(\\xed\\xa0\\x80"},
    {"long", long_digits, long_digits, "77777777..."},
};
#define NVALUES (sizeof values / sizeof values[0])

/* before, text and after in one new string. */
static char *join(const char *before, const char *text, const char *after)
{
    size_t n = strlen(before) + strlen(text) + strlen(after) + 1;
    char *s = malloc(n);
    snprintf(s, n, "%s%s%s", before, text, after);
    return s;
}

static void check_csv_file(const char *file, const char *text, const char *want)
{
    write_file(file, text);
    char args[300];
    snprintf(args, sizeof args, "compare '%s' '%s'", file, file);
    expect_one_clean_line(file, run(args), want);
}

static void test_csv(const char *good, const hostile *v)
{
    /* The field replaces `from` between `before` and `after`, quoted (the values hold no
    ** quote, and newlines and commas need quotes). */
    struct {
        const char *column, *from, *before, *after;
        int all;
    } edits[] = {
        {"nelem", "random,1000,", "random,\"", "\",", 0},             /* number */
        {"verified", ",true,", ",\"", "\",", 0},                      /* bool */
        {"samples", "100;110;120", "\"100;", ";120\"", 0},             /* a list's element */
        {"baseline", "introsort,msort,", "introsort,\"", "\",", 0},   /* string, one row */
        {"metric", ",cycles,", ",\"", "\",", 1},                      /* string, every row */
        {"pattern", "sorted,1000,4,introsort", "\"", "\",1000,4,introsort", 0}, /* no base row */
    };
    for (size_t e = 0; e < sizeof edits / sizeof edits[0]; e++) {
        char *to = join(edits[e].before, v->csv, edits[e].after), file[64];
        char *text = replace(good, edits[e].from, to, edits[e].all);
        snprintf(file, sizeof file, "%s-%s.csv", edits[e].column, v->name);
        /* a list's element is cut at the first ';' of the value */
        int split = strcmp(edits[e].column, "samples") == 0 && strchr(v->csv, ';');
        check_csv_file(file, text, split ? NULL : v->shown);
        free(text);
        free(to);
    }
}

static void test_json(const char *good, const hostile *v)
{
    char file[64];
    struct {
        const char *field, *from, *before, *after;
        int all;
        const char *want; /* "" for the value as shown, NULL for anything */
    } edits[] = {
        {"nelem", "\"nelem\": 1000", "\"nelem\": \"", "\"", 0, "results[0].nelem"},
        {"min", "\"min\": 100", "\"min\": \"", "\"", 0, "results[0].min"},
        {"verified", "\"verified\": true", "\"verified\": \"", "\"", 0, "results[0].verified"},
        {"metric", "\"metric\": \"cycles\"", "\"metric\": \"", "\"", 1, ""},
        {"baseline", "\"algorithm\": \"introsort\", \"baseline\": \"msort\"",
         "\"algorithm\": \"introsort\", \"baseline\": \"", "\"", 0, ""},
        {"raw", "\"nelem\": 1000", "\"nelem\": ", "", 0, NULL}, /* not in a string */
    };
    for (size_t e = 0; e < sizeof edits / sizeof edits[0]; e++) {
        char *to = join(edits[e].before, v->json, edits[e].after);
        char *text = replace(good, edits[e].from, to, edits[e].all);
        free(to);
        snprintf(file, sizeof file, "%s-%s.json", edits[e].field, v->name);
        write_file(file, text);
        char args[300];
        snprintf(args, sizeof args, "compare '%s' '%s'", file, file);
        const char *want = edits[e].want;
        expect_one_clean_line(file, run(args), want && !*want ? v->shown : want);
        free(text);
    }
}

/* Text from the command line: a file name, an option and an option's value. */
static void test_argv(void)
{
    expect_one_clean_line("file name", run("compare \"$(printf 'no\\033[31m.csv')\" x.csv"),
                          "no\\x1b[31m.csv");
    expect_one_clean_line("option", run("compare \"$(printf -- '--\\033]0;x\\007')\""),
                          "--\\x1b]0;x\\x07");
    expect_one_clean_line("value", run("compare a b --threshold \"$(printf '\\033[2J')\""),
                          "\\x1b[2J");
    expect_one_clean_line("command", run("\"$(printf 'x\\377\\033c')\""), "x\\xff\\x1bc");
}

/* ---- valid files with hostile names ---- */

static const char *const bad_pattern = "r\x1b]0;pwned\x07|x`*";
static const char *const bad_algorithm = "intro\x1b[31mRED\x1b[0m\xff<i>&|zzzzzzzzzzzzzzzzzzzzzz"
                                         "zzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzz";

/* The fixture with pattern "random" and algorithm "introsort" renamed (no comma or quote in
** the new names: the CSV fields need no quotes). */
static char *hostile_names(const char *good)
{
    char pattern[64];
    snprintf(pattern, sizeof pattern, "%s,", bad_pattern);
    char *a = replace(good, "random,", pattern, 1);
    char *b = replace(a, "introsort", bad_algorithm, 1);
    free(a);
    return b;
}

/* Unescaped '|' of a Markdown line: a table row must keep its 11 cell borders. */
static size_t cell_borders(const char *line, size_t len)
{
    size_t n = 0;
    for (size_t i = 0; i < len; i++)
        n += line[i] == '|' && (i == 0 || line[i - 1] != '\\');
    return n;
}

static void test_outputs(const char *good)
{
    char *text = hostile_names(good);
    write_file("names.csv", text);
    free(text);
    int status = run("compare names.csv names.csv --markdown t.md");
    CHECK_MSG(status == 1, "names.csv: status %d (its FAILED row)", status); /* read fine */
    size_t len;
    char *out = slurp_tmp("out.txt", &len);
    CHECK_MSG(out && raw_bytes(out, len, NULL) == 0, "table: raw bytes in '%s'", out);
    CHECK(out && strstr(out, "r\\x1b]0;pwned\\x07|x`*"));
    CHECK(out && strstr(out, "intro\\x1b[31mRED\\x1b[0m\\xff<i...")); /* cut at 32 */
    free(out);
    char *md = slurp_tmp("t.md", &len);
    CHECK_MSG(md && raw_bytes(md, len, "\xe2\x86\x92") == 0, "markdown: raw bytes in '%s'", md);
    CHECK(md && strstr(md, "| r\\x1b\\]0;pwned\\x07\\|x\\`\\* |"));
    CHECK(md && strstr(md, "intro\\x1b\\[31mRED\\x1b\\[0m\\xff\\<i\\>\\&\\|zzz"));
    CHECK(md && strstr(md, "zzz... |"));
    size_t rows = 0;
    for (const char *line = md; line && *line;) {
        const char *nl = strchr(line, '\n');
        size_t n = nl ? (size_t)(nl - line) : strlen(line);
        if (n > 0 && line[0] == '|') {
            rows++;
            /* 11 columns since the adjusted p: 12 borders */
            CHECK_MSG(cell_borders(line, n) == 12, "markdown row '%.*s'", (int)n, line);
        }
        line = nl ? nl + 1 : line + n;
    }
    CHECK_EQ_U64(rows, 2 + 4); /* the header, its rule, four rows */
    free(md);
}

/* Chart titles: escaped names in the SVG text, no raw byte in any chart. */
static void test_plot_titles(void)
{
    if (system("command -v gnuplot >/dev/null 2>&1") != 0) {
        printf("gnuplot not installed: chart titles not checked\n");
        return;
    }
    int status = run("plot names.csv -o charts --format svg");
    CHECK_MSG(status == 0, "plot: status %d", status);
    CHECK(shell("cat charts/names-deltas-*.svg charts/names-scaling.svg >charts.txt") == 0);
    size_t len;
    char *svg = slurp_tmp("charts.txt", &len);
    CHECK_MSG(svg && raw_bytes(svg, len, "\t") == 0, "charts: raw bytes"); /* tabs indent */
    CHECK(svg && strstr(svg, "intro\\x1b[31mRED\\x1b[0m\\xff&lt;i>&amp;|zzz") &&
          strstr(svg, "... against msort (baseline)"));
    free(svg);
}

int main(void)
{
    if (!mkdtemp(tmpdir)) {
        perror("mkdtemp");
        return 1;
    }
    memset(long_digits, '7', sizeof long_digits - 1);
    char *csv = slurp(FIXTURES "small.csv", NULL), *json = slurp(FIXTURES "small.json", NULL);
    CHECK(csv && json);
    for (size_t i = 0; csv && json && i < NVALUES; i++) {
        test_csv(csv, &values[i]);
        test_json(json, &values[i]);
    }
    test_argv();
    if (csv) {
        test_outputs(csv);
        test_plot_titles();
    }
    free(csv);
    free(json);
    char cmd[300];
    snprintf(cmd, sizeof cmd, "rm -rf '%s'", tmpdir);
    CHECK(system(cmd) == 0);
    return check_done();
}
