/*
** The results readers (src/results/read_results.h): results written by the run's reporters read
** back equal, through CSV and JSON; the hand-written fixtures read to the values they state; and
** every kind of bad file gives QSB_EUSAGE with one error line naming the file and the CSV line or
** the JSON field, and leaves the output empty.
*/
#include <fcntl.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "check.h"
#include "diag.h"
#include "infile.h"
#include "assemble.h"
#include "read_results.h"
#include "report.h"
#include "result.h"

#define FIXTURES QSB_SOURCE_DIR "/tests/fixtures/results/"

static char tmpdir[] = "/tmp/qsb-readers-XXXXXX";

static void path_in_tmp(char *buf, size_t len, const char *name)
{
    snprintf(buf, len, "%s/%s", tmpdir, name);
}

static void write_text(const char *path, const char *text, size_t len)
{
    FILE *fp = fopen(path, "wb");
    CHECK(fp != NULL);
    if (!fp)
        return;
    CHECK(fwrite(text, 1, len, fp) == len);
    CHECK(fclose(fp) == 0);
}

static char *slurp(const char *path, size_t *len)
{
    FILE *fp = fopen(path, "rb");
    if (!fp)
        return NULL;
    char *buf = malloc(1 << 20);
    size_t n = buf ? fread(buf, 1, (1 << 20) - 1, fp) : 0;
    fclose(fp);
    if (buf)
        buf[n] = '\0';
    if (len)
        *len = n;
    return buf;
}

/* ---- reading with stderr captured ---- */

static char captured[4096];

/* stderr into a file from begin_capture() until end_capture() puts it into `captured`. */
static int begin_capture(void)
{
    char errpath[256];
    path_in_tmp(errpath, sizeof errpath, "stderr.txt");
    fflush(stderr);
    int saved = dup(2);
    int fd = open(errpath, O_WRONLY | O_CREAT | O_TRUNC, 0600);
    dup2(fd, 2);
    close(fd);
    return saved;
}

static void end_capture(int saved)
{
    char errpath[256];
    path_in_tmp(errpath, sizeof errpath, "stderr.txt");
    fflush(stderr);
    dup2(saved, 2);
    close(saved);
    char *text = slurp(errpath, NULL);
    snprintf(captured, sizeof captured, "%s", text ? text : "");
    free(text);
}

static int read_captured(const char *path, qsb_results *out)
{
    int saved = begin_capture();
    int status = qsb_read_results(path, out);
    end_capture(saved);
    return status;
}

static size_t count_lines(const char *s)
{
    size_t n = 0;
    for (; *s; s++)
        n += *s == '\n';
    return n;
}

/* ---- results built in the test, written by the reporters ---- */

static void fill_context(qsb_results *r)
{
    qsb_context *c = &r->context;
    char **fields[] = {&c->tool_version, &c->date,        &c->host,       &c->cpu_model,
                       &c->caches,       &c->libc,        &c->compiler,   &c->build_flags,
                       &c->build_type,   &c->timer,       &c->metric,     &c->mode,
                       &c->command_line, &r->baseline};
    const char *values[] = {"0.1.0", "2024-01-31T12:00:00Z", "host, with a comma",
                            "CPU \"quoted\"", "L1d 64 KiB (2)", "glibc 2.36", "GNU 12.2.0",
                            "-O3 -DNDEBUG", "Release", "rdtscp", "cycles", "default",
                            "qsortbench run --algos 'msort,introsort'", "msort"};
    for (size_t i = 0; i < sizeof fields / sizeof fields[0]; i++)
        CHECK(qsb_set_string(fields[i], values[i]) == 0);
    c->cache_bytes[0] = 65536;
    c->cache_bytes[1] = 1048576;
    c->cache_bytes[2] = 33554432;
    c->tsc_hz = 2.45e9;
    c->timer_resolution_ns = 1.0 / 2.45;
    c->seed = UINT64_C(0x9abc56781234);
    /* the run's optional noise-control record (JSON only) */
    CHECK(qsb_set_string(&c->governor, "performance") == 0);
    CHECK(qsb_set_string(&c->turbo, "off") == 0);
    CHECK(qsb_set_string(&c->repetitions, "fixed: 7 rounds") == 0);
    CHECK(qsb_set_string(&c->warmup, "auto") == 0);
    c->load_average = 0.25;
    c->pinned_cpu = 1;
    c->release_build = true;
    c->sanitized = false;
    c->precision_pct = 1.0;
    c->budget_s = NAN;
    c->drift_ratios = 1.75;
    c->drift_medians = NAN;
    c->time = (qsb_time_split){12.5, 5.25, 6.0, 0.25, 0.0625, 0.125, 0.25, 0.375};
}

static void fill_row(qsb_row *row, size_t index, unsigned salt)
{
    for (size_t k = 0; k < 7 + salt % 5; k++)
        CHECK(qsb_row_add_sample(row, 1e6 / 3.0 * (1.0 + 0.01 * (double)((k * 7 + salt) % 11)),
                                    (uint32_t)(k / 2)) == 0);
    row->summary = (qsb_summary){row->samples[0], row->samples[1], 333333.3333333333, 1234.5,
                                 0.1 / 3.0, NAN, 1e6 / 7.0, salt % 3};
    row->comparisons = 8000 + salt;
    if (index > 0) { /* the reporters write the baseline's deltas empty */
        row->delta_pct = -1.0 / 3.0 * salt;
        row->delta_lo = salt % 2 ? NAN : -2.5;
        row->delta_hi = 0.1;
    }
    row->noisy = salt % 2;
    row->batch = salt; /* JSON only */
}

static void build_results(qsb_results *r)
{
    memset(r, 0, sizeof *r);
    fill_context(r);
    const char *const algos[] = {"msort", "introsort", "slow,name"};
    const char *const patterns[] = {"random", "sorted"};
    unsigned salt = 1;
    for (size_t p = 0; p < 2; p++) {
        qsb_cell *cell = qsb_results_add_cell(r, patterns[p], 49152 * (p + 1), 4 + 28 * p,
                                              algos, 3);
        CHECK(cell != NULL);
        if (!cell)
            return;
        for (size_t i = 0; i < cell->nrows; i++)
            fill_row(&cell->rows[i], i, salt++);
    }
    CHECK(qsb_row_fail(&r->cells[1].rows[2], "not sorted at index 12, \"a\" > \"b\"") == 0);
}

static int same_double(double a, double b)
{
    return (isnan(a) && isnan(b)) || a == b;
}

static int same_string(const char *a, const char *b)
{
    return (!a && !b) || (a && b && strcmp(a, b) == 0);
}

static void check_rows_equal(const qsb_row *a, const qsb_row *b, int json)
{
    CHECK_EQ_U64(json ? a->batch : 0, b->batch);
    CHECK(same_string(a->algorithm, b->algorithm));
    CHECK_EQ_U64(a->nsamples, b->nsamples);
    for (size_t k = 0; k < a->nsamples && k < b->nsamples; k++)
        CHECK_MSG(a->samples[k] == b->samples[k], "sample %zu: %.17g != %.17g", k,
                  a->samples[k], b->samples[k]);
    const qsb_summary *s = &a->summary, *t = &b->summary;
    CHECK(same_double(s->min, t->min) && same_double(s->median, t->median));
    CHECK(same_double(s->mean, t->mean) && same_double(s->stddev, t->stddev));
    CHECK(same_double(s->cv, t->cv));
    CHECK(same_double(s->median_lo, t->median_lo) && same_double(s->median_hi, t->median_hi));
    CHECK_EQ_U64(s->outliers, t->outliers);
    CHECK(same_double(a->delta_pct, b->delta_pct));
    CHECK(same_double(a->delta_lo, b->delta_lo) && same_double(a->delta_hi, b->delta_hi));
    CHECK_EQ_U64(a->comparisons, b->comparisons);
    CHECK(a->verified == b->verified && a->noisy == b->noisy);
    CHECK(same_string(a->failure, b->failure));
}

static void check_cells_equal(const qsb_results *a, const qsb_results *b, int json)
{
    CHECK(same_string(a->baseline, b->baseline));
    CHECK_EQ_U64(a->ncells, b->ncells);
    for (size_t c = 0; c < a->ncells && c < b->ncells; c++) {
        const qsb_cell *x = &a->cells[c], *y = &b->cells[c];
        CHECK(same_string(x->pattern, y->pattern));
        CHECK_EQ_U64(x->nelem, y->nelem);
        CHECK_EQ_U64(x->size, y->size);
        CHECK_EQ_U64(x->nrows, y->nrows);
        for (size_t i = 0; i < x->nrows && i < y->nrows; i++)
            check_rows_equal(&x->rows[i], &y->rows[i], json);
    }
}

static void check_context_equal(const qsb_context *a, const qsb_context *b)
{
    const char *sa[] = {a->tool_version, a->date,      a->host,        a->cpu_model, a->caches,
                        a->libc,         a->compiler,  a->build_flags, a->build_type, a->timer,
                        a->metric,       a->mode,      a->command_line};
    const char *sb[] = {b->tool_version, b->date,      b->host,        b->cpu_model, b->caches,
                        b->libc,         b->compiler,  b->build_flags, b->build_type, b->timer,
                        b->metric,       b->mode,      b->command_line};
    for (size_t i = 0; i < sizeof sa / sizeof sa[0]; i++)
        CHECK_MSG(same_string(sa[i], sb[i]), "context string %zu: '%s' vs '%s'", i,
                  sa[i] ? sa[i] : "(null)", sb[i] ? sb[i] : "(null)");
    for (size_t i = 0; i < 3; i++)
        CHECK_EQ_U64(a->cache_bytes[i], b->cache_bytes[i]);
    CHECK(a->tsc_hz == b->tsc_hz);
    CHECK(a->timer_resolution_ns == b->timer_resolution_ns);
    CHECK_EQ_U64(a->seed, b->seed);
    CHECK(a->incomplete == b->incomplete);
    CHECK(same_string(a->governor, b->governor) && same_string(a->turbo, b->turbo));
    CHECK(same_string(a->repetitions, b->repetitions) && same_string(a->warmup, b->warmup));
    CHECK(same_double(a->load_average, b->load_average));
    CHECK(same_double(a->precision_pct, b->precision_pct));
    CHECK(same_double(a->budget_s, b->budget_s));
    CHECK(same_double(a->drift_ratios, b->drift_ratios));
    CHECK(same_double(a->drift_medians, b->drift_medians));
    CHECK(memcmp(&a->time, &b->time, sizeof a->time) == 0);
    CHECK(a->pinned_cpu == b->pinned_cpu);
    CHECK(a->release_build == b->release_build && a->sanitized == b->sanitized);
}

static void write_report(const char *path, int json, const qsb_results *r)
{
    FILE *fp = fopen(path, "w");
    CHECK(fp != NULL);
    if (!fp)
        return;
    CHECK((json ? qsb_report_json(fp, r) : qsb_report_csv(fp, r)) == QSB_OK);
    CHECK(fclose(fp) == 0);
}

static void test_round_trip(void)
{
    qsb_results written, csv, json;
    build_results(&written);
    char csv_path[256], json_path[256];
    path_in_tmp(csv_path, sizeof csv_path, "round.csv");
    path_in_tmp(json_path, sizeof json_path, "round.json");
    write_report(csv_path, 0, &written);
    write_report(json_path, 1, &written);

    CHECK(qsb_read_results(csv_path, &csv) == QSB_OK);
    check_cells_equal(&written, &csv, 0);
    CHECK(csv.context.pinned_cpu == -1 && isnan(csv.context.load_average));
    CHECK(same_string(csv.context.metric, "cycles") && same_string(csv.context.mode, "default"));
    CHECK_EQ_U64(csv.context.seed, written.context.seed);
    CHECK(csv.context.host == NULL); /* a CSV cannot carry it */
    CHECK(!(csv.context.time.wall_s > 0));

    CHECK(qsb_read_results(json_path, &json) == QSB_OK);
    check_cells_equal(&written, &json, 1);
    check_context_equal(&written.context, &json.context);

    qsb_results_free(&written);
    qsb_results_free(&csv);
    qsb_results_free(&json);
}

/* ---- the hand-written fixtures: values as stated, CSV and JSON alike ---- */

static void check_fixture(const qsb_results *r, int json)
{
    CHECK_EQ_U64(r->ncells, 2);
    if (r->ncells != 2)
        return;
    CHECK(same_string(r->baseline, "msort") && same_string(r->context.metric, "cycles"));
    CHECK_EQ_U64(r->context.seed, UINT64_C(0x9abc56781234));
    const qsb_cell *random = &r->cells[0], *sorted = &r->cells[1];
    CHECK(same_string(random->pattern, "random") && random->nelem == 1000 && random->size == 4);
    CHECK(same_string(sorted->pattern, "sorted") && sorted->nrows == 2);
    const qsb_row *intro = &random->rows[1];
    CHECK(same_string(random->rows[0].algorithm, "msort"));
    CHECK(same_string(intro->algorithm, "introsort"));
    CHECK(intro->nsamples == 3 && intro->samples[0] == 90 && intro->samples[2] == 100);
    CHECK(intro->summary.median == 95 && intro->delta_lo == -20 && intro->delta_hi == -5);
    CHECK(intro->comparisons == 9500 && intro->verified && !intro->noisy);
    CHECK(isnan(random->rows[0].delta_pct) && isnan(intro->summary.median_lo));
    const qsb_row *failed = &sorted->rows[1];
    CHECK(!failed->verified && failed->noisy && failed->summary.outliers == 1);
    CHECK(same_string(failed->failure, "not sorted at index 3, \"x\""));
    CHECK(failed->nsamples == 2 && failed->summary.median == 60.5);
    if (json) {
        CHECK(same_string(r->context.host, "fixture-host"));
        CHECK(r->context.cache_bytes[2] == 33554432 && r->context.tsc_hz == 2e9);
    }
}

static void test_fixtures(void)
{
    qsb_results csv, json;
    CHECK(qsb_read_results(FIXTURES "small.csv", &csv) == QSB_OK);
    check_fixture(&csv, 0);
    CHECK(qsb_read_results(FIXTURES "small.json", &json) == QSB_OK);
    check_fixture(&json, 1);
    qsb_results_free(&csv);
    qsb_results_free(&json);
}

/* ---- bad files ---- */

/* Writes text as NAME, reads it, and checks: QSB_EUSAGE, one error line naming the file and
** `where`, output empty. */
static void expect_rejected(const char *name, const char *text, size_t len, const char *where)
{
    char path[256];
    path_in_tmp(path, sizeof path, name);
    write_text(path, text, len);
    qsb_results r;
    memset(&r, 0xA5, sizeof r);
    int status = read_captured(path, &r);
    CHECK_MSG(status == QSB_EUSAGE, "%s: status %d", name, status);
    CHECK_MSG(strncmp(captured, "qsortbench: error: ", 19) == 0 && count_lines(captured) == 1,
              "%s: stderr '%s'", name, captured);
    CHECK_MSG(strstr(captured, path) != NULL, "%s: no file name in '%s'", name, captured);
    CHECK_MSG(strstr(captured, where) != NULL, "%s: no '%s' in '%s'", name, where, captured);
    CHECK_MSG(r.ncells == 0 && r.cells == NULL && r.baseline == NULL, "%s: output left", name);
}

static void expect_rejected_text(const char *name, const char *text, const char *where)
{
    expect_rejected(name, text, strlen(text), where);
}

/* The fixture with line `line` (1-based) replaced by `replacement` (NULL: removed), or with
** `replacement` inserted after it when insert is set. */
static char *edit_lines(const char *text, int line, const char *replacement, int insert)
{
    size_t len = strlen(text);
    char *out = malloc(len + (replacement ? strlen(replacement) : 0) + 2);
    size_t used = 0;
    int current = 1;
    for (const char *p = text; *p;) {
        const char *nl = strchr(p, '\n');
        size_t n = nl ? (size_t)(nl - p) + 1 : strlen(p);
        if (current != line || insert) {
            memcpy(out + used, p, n);
            used += n;
        }
        if (current == line && replacement) {
            size_t r = strlen(replacement);
            memcpy(out + used, replacement, r);
            used += r;
            out[used++] = '\n';
        }
        p += n;
        current++;
    }
    out[used] = '\0';
    return out;
}

/* The fixture with the first occurrence of `from` replaced by `to`. */
static char *replace_once(const char *text, const char *from, const char *to)
{
    const char *at = strstr(text, from);
    CHECK_MSG(at != NULL, "'%s' not in the fixture", from);
    size_t len = strlen(text), flen = strlen(from), tlen = strlen(to);
    char *out = malloc(len - flen + tlen + 1);
    size_t head = at ? (size_t)(at - text) : len;
    memcpy(out, text, head);
    memcpy(out + head, to, tlen);
    strcpy(out + head + tlen, at ? at + flen : "");
    return out;
}

static void rejected_edit(const char *name, char *text, const char *where)
{
    expect_rejected_text(name, text, where);
    free(text);
}

/* The rows' array found in the text is the one cJSON would take: a key spelt with an escape
** is read from the tree. */
static void read_edited_fixture(const char *name, char *text)
{
    char path[256];
    path_in_tmp(path, sizeof path, name);
    write_text(path, text, strlen(text));
    free(text);
    qsb_results r;
    int status = qsb_read_results(path, &r);
    CHECK_MSG(status == QSB_OK, "%s: status %d", name, status);
    if (status == QSB_OK) {
        check_fixture(&r, 1);
        qsb_results_free(&r);
    }
}

static void test_json_rows_apart(void)
{
    char *good = slurp(FIXTURES "small.json", NULL);
    CHECK(good != NULL);
    if (!good)
        return;
    read_edited_fixture("escaped-key.json", replace_once(good, "\"results\": [",
                                                         "\"r\\u0065sults\": ["));
    free(good);
}

static void test_bad_csv(void)
{
    char *good = slurp(FIXTURES "small.csv", NULL);
    CHECK(good != NULL);
    if (!good)
        return;
    const char *row2 = "random,1000,4,msort,msort,cycles,3,100,110,110,10,,8700,true,"
                       "0.090909090909090912,,,0,,,false,,default,0x9abc56781234,100;110;120";
    expect_rejected_text("empty.csv", "", "empty");
    expect_rejected_text("blank.csv", "\n  \r\n\t\n", "empty");
    char *header_only = edit_lines(good, 0, NULL, 0);
    header_only[strchr(header_only, '\n') - header_only + 1] = '\0';
    rejected_edit("only-header.csv", header_only, "no result rows");
    rejected_edit("no-median.csv", replace_once(good, ",median,", ",medain,"),
                  ":1: no column 'median'");
    rejected_edit("twice.csv", replace_once(good, ",cv,", ",mean,"), ":1: column 'mean'");
    rejected_edit("short-row.csv", edit_lines(good, 3, "random,1000,4,introsort,msort", 0),
                  ":3: 5 fields");
    rejected_edit("long-row.csv", edit_lines(good, 2, "x", 1), ":3: 1 fields");
    rejected_edit("nelem.csv", replace_once(good, "random,1000,", "random,1e3,"),
                  ":2: column 'nelem'");
    rejected_edit("negative.csv", replace_once(good, "random,1000,", "random,-1000,"),
                  ":2: column 'nelem'");
    rejected_edit("median-nan.csv", replace_once(good, ",110,110,", ",nan,110,"),
                  ":2: column 'median'");
    rejected_edit("median-inf.csv", replace_once(good, ",110,110,", ",1e999,110,"),
                  ":2: column 'median'");
    rejected_edit("verified.csv", replace_once(good, ",true,", ",yes,"),
                  ":2: column 'verified'");
    rejected_edit("seed.csv", replace_once(good, "0x9abc56781234", "0xZZ"), ":2: column 'seed'");
    rejected_edit("samples.csv", replace_once(good, "100;110;120", "100;;120"),
                  ":2: column 'samples'");
    rejected_edit("reps.csv", replace_once(good, "100;110;120", "100;110"), ":2: reps is 3");
    rejected_edit("size0.csv", replace_once(good, "random,1000,4,", "random,1000,0,"),
                  ":2: column 'size'");
    rejected_edit("metric.csv", replace_once(good, "introsort,msort,cycles", "introsort,msort,ns"),
                  ":3: metric 'ns'");
    char *all_watts = strdup(good);
    for (char *p; (p = strstr(all_watts, ",cycles,"));)
        memcpy(p, ",watts_,", 8);
    rejected_edit("watts.csv", all_watts, "unknown metric 'watts_'");
    rejected_edit("baseline.csv", replace_once(good, "introsort,msort,", "introsort,heapsort,"),
                  ":3: baseline 'heapsort'");
    rejected_edit("no-baseline-row.csv", edit_lines(good, 2, NULL, 0),
                  ":2: cell random/1000/4 has no row of the baseline");
    rejected_edit("duplicate.csv", edit_lines(good, 3, row2, 1), ":4: a second row");
    rejected_edit("quote.csv", edit_lines(good, 5, "\"sorted,1000,4", 1), ":6: malformed CSV");
    rejected_edit("bad-quote.csv", replace_once(good, "random,1000", "ran\"dom,1000"),
                  ":2: malformed CSV");
    rejected_edit("failure.csv", replace_once(good, ",false,,default", ",false,oops,default"),
                  ":2: verified, yet a failure");
    size_t len = strlen(good);
    char *cut = strndup(good, len - 5); /* the last samples lose their last value */
    rejected_edit("truncated.csv", cut, ":5: reps is 2");
    cut = strndup(good, len / 2);
    rejected_edit("half.csv", cut, "fields, but the header has 25 (truncated?)");
    char nul[] = "pattern,nelem\nrandom,1\0000\n";
    expect_rejected("nul.csv", nul, sizeof nul - 1, ":2: a NUL byte");
    expect_rejected_text("garbage.csv", "\x89PNG\r\n\x1a\n binary", ":1: no column 'pattern'");
    free(good);
}

/* ---- rows grouped into cells as they are read (read_results.h, qsb_assembler) ---- */

#define ORDER_HEADER "pattern,nelem,size,algorithm,baseline,metric,reps,min,median,mean," \
                     "stddev,delta_pct,comparisons,verified,samples\n"

/* One row of the order tests: three samples, verified. */
static void order_row(char *buf, size_t len, const char *pattern, const char *algorithm,
                      const char *metric)
{
    size_t used = strlen(buf);
    snprintf(buf + used, len - used, "%s,100,4,%s,msort,%s,3,1,2,2,1,,5,true,1;2;3\n", pattern,
             algorithm, metric);
}

/* Cells in first appearance order, however their rows interleave; in each cell the baseline
** row first, then the others in file order. */
static void test_assembly_order(void)
{
    char text[2048] = ORDER_HEADER, path[256];
    order_row(text, sizeof text, "random", "introsort", "cycles");
    order_row(text, sizeof text, "sorted", "msort", "cycles");
    order_row(text, sizeof text, "random", "heapsort", "cycles");
    order_row(text, sizeof text, "random", "msort", "cycles");
    order_row(text, sizeof text, "sorted", "introsort", "cycles");
    path_in_tmp(path, sizeof path, "interleaved.csv");
    write_text(path, text, strlen(text));
    qsb_results r;
    CHECK(qsb_read_results(path, &r) == QSB_OK);
    const char *want[2][3] = {{"msort", "introsort", "heapsort"}, {"msort", "introsort", NULL}};
    CHECK(r.ncells == 2 && strcmp(r.cells[0].pattern, "random") == 0 &&
          strcmp(r.cells[1].pattern, "sorted") == 0);
    for (size_t c = 0; c < r.ncells && c < 2; c++) {
        CHECK(r.cells[c].nrows == (c == 0 ? 3u : 2u));
        for (size_t i = 0; i < r.cells[c].nrows && want[c][i]; i++)
            CHECK_MSG(strcmp(r.cells[c].rows[i].algorithm, want[c][i]) == 0,
                      "cell %zu row %zu: %s", c, i, r.cells[c].rows[i].algorithm);
    }
    CHECK(strcmp(r.baseline, "msort") == 0 && strcmp(r.context.metric, "cycles") == 0);
    qsb_results_free(&r);
}

/* The checks of the whole file come after the parsing, in a fixed order, whatever order the
** defects have in the file. */
static void test_assembly_defects(void)
{
    char text[2048] = ORDER_HEADER;
    order_row(text, sizeof text, "sorted", "msort", "cycles");
    order_row(text, sizeof text, "random", "msort", "ns"); /* disagrees, line 3 */
    size_t used = strlen(text);
    snprintf(text + used, sizeof text - used, "random,1e2,4,msort,msort,cycles,3,1,2,2,1,,5,"
             "true,1;2;3\n");
    expect_rejected_text("parse-first.csv", text, ":4: column 'nelem'");
    char dups[2048] = ORDER_HEADER;
    order_row(dups, sizeof dups, "sorted", "msort", "cycles");
    order_row(dups, sizeof dups, "random", "msort", "cycles");
    order_row(dups, sizeof dups, "sorted", "msort", "cycles");  /* line 4 */
    order_row(dups, sizeof dups, "random", "msort", "cycles");  /* line 5: the least key */
    order_row(dups, sizeof dups, "random", "msort", "cycles");
    expect_rejected_text("least-duplicate.csv", dups, ":5: a second row for random/100");
    char agree[2048] = ORDER_HEADER;
    order_row(agree, sizeof agree, "sorted", "introsort", "cycles"); /* no baseline row */
    order_row(agree, sizeof agree, "sorted", "introsort", "cycles"); /* a duplicate */
    order_row(agree, sizeof agree, "random", "msort", "ns");         /* disagrees */
    expect_rejected_text("agreement-first.csv", agree, ":4: metric 'ns'");
}

static void test_bad_json(void)
{
    char *good = slurp(FIXTURES "small.json", NULL);
    CHECK(good != NULL);
    if (!good)
        return;
    rejected_edit("syntax.json", replace_once(good, "\"host\": \"fixture-host\",",
                                              "\"host\": \"fixture-host\""),
                  ":7: malformed JSON"); /* where the parser finds no comma */
    char *half = strndup(good, strlen(good) / 2);
    rejected_edit("truncated.json", half, "malformed JSON (truncated?)");
    rejected_edit("trailing.json", replace_once(good, "\n}\n", "\n}\n}\n"), "malformed JSON");
    rejected_edit("version.json", replace_once(good, "\"schema_version\": 1",
                                               "\"schema_version\": 3"),
                  "field 'schema_version'");
    /* 2 is a fleet file (report.h): it needs its machines. */
    rejected_edit("fleet-version.json", replace_once(good, "\"schema_version\": 1",
                                                     "\"schema_version\": 2"),
                  "field 'machines': not a non-empty array");
    rejected_edit("no-version.json", replace_once(good, "\"schema_version\": 1,", ""),
                  "field 'schema_version': missing");
    rejected_edit("no-context.json", replace_once(good, "\"context\"", "\"kontext\""),
                  "field 'context': missing");
    rejected_edit("ctx-metric.json", replace_once(good, "\"metric\": \"cycles\",\n    \"seed",
                                                  "\"metric\": 7,\n    \"seed"),
                  "field 'context.metric': not a string");
    rejected_edit("cache-bytes.json", replace_once(good, "[65536, 1048576, 33554432]",
                                                   "[65536, -1, 33554432]"),
                  "field 'context.cache_bytes'");
    rejected_edit("time-split.json",
                  replace_once(good, "\"metric\": \"cycles\",\n    \"seed",
                               "\"time_s\": {\"wall\": 2, \"timed\": 1, \"counted\": 0, "
                               "\"warmups\": 0, \"retaken\": 0, \"inputs\": 0, "
                               "\"copies\": -1, \"checks\": 0},\n"
                               "    \"metric\": \"cycles\",\n    \"seed"),
                  "field 'context.time_s.copies': negative");
    rejected_edit("time-split-part.json",
                  replace_once(good, "\"metric\": \"cycles\",\n    \"seed",
                               "\"time_s\": {\"wall\": 2},\n"
                               "    \"metric\": \"cycles\",\n    \"seed"),
                  "field 'context.time_s.timed': missing");
    rejected_edit("results.json", replace_once(good, "\"results\": [", "\"results\": {\"a\": ["),
                  "malformed JSON"); /* the brackets no longer match */
    rejected_edit("results-type.json", replace_once(good, "\"baseline\": \"msort\",\n  \"results\"",
                                                    "\"baseline\": \"msort\",\n  \"resultz\""),
                  "field 'results': missing");
    rejected_edit("nelem.json", replace_once(good, "\"nelem\": 1000", "\"nelem\": \"1000\""),
                  "field 'results[0].nelem': not a whole number");
    rejected_edit("nelem-frac.json", replace_once(good, "\"nelem\": 1000", "\"nelem\": 1000.5"),
                  "field 'results[0].nelem'");
    rejected_edit("nelem-neg.json", replace_once(good, "\"nelem\": 1000", "\"nelem\": -1000"),
                  "field 'results[0].nelem'");
    rejected_edit("huge.json", replace_once(good, "\"min\": 100", "\"min\": 1e400"),
                  "field 'results[0].min': not a finite number");
    rejected_edit("samples.json", replace_once(good, "[100, 110, 120]", "[100, \"110\", 120]"),
                  "field 'results[0].samples': element 1");
    rejected_edit("reps.json", replace_once(good, "[100, 110, 120]", "[100, 110]"),
                  "results[0]: reps is 3");
    rejected_edit("verified.json", replace_once(good, "\"verified\": true", "\"verified\": 1"),
                  "field 'results[0].verified'");
    rejected_edit("missing.json", replace_once(good, "\"comparisons\": 8700, ", ""),
                  "field 'results[0].comparisons': missing");
    rejected_edit("row-type.json", replace_once(good, "\"results\": [\n    {",
                                                "\"results\": [\n    7, {"),
                  "field 'results[0]': not an object");
    rejected_edit("metric.json",
                  replace_once(good, "\"algorithm\": \"introsort\", \"baseline\": \"msort\",\n"
                                     "     \"metric\": \"cycles\"",
                               "\"algorithm\": \"introsort\", \"baseline\": \"msort\",\n"
                               "     \"metric\": \"ns\""),
                  "results[1]: metric 'ns'");
    rejected_edit("duplicate.json",
                  replace_once(good, "\"algorithm\": \"introsort\", \"baseline\": \"msort\",\n"
                                     "     \"metric\": \"cycles\", \"reps\": 3",
                               "\"algorithm\": \"msort\", \"baseline\": \"msort\",\n"
                               "     \"metric\": \"cycles\", \"reps\": 3"),
                  "results[1]: a second row");
    rejected_edit("pinned.json", replace_once(good, "\"incomplete\": false", "\"incomplete\": "
                                              "false, \"pinned_cpu\": -2"),
                  "field 'context.pinned_cpu'");
    rejected_edit("batch.json", replace_once(good, "[100, 110, 120]}", "[100, 110, 120], "
                                             "\"batch\": \"x\"}"),
                  "field 'results[0].batch'");
    /* The rows are parsed one at a time, the rest of the document apart from them: a fault
    ** in a row, between rows or after the rows is placed on its line of the file. */
    rejected_edit("row-syntax.json", replace_once(good, "\"comparisons\": 9500,",
                                                  "\"comparisons\": 95 00,"),
                  ":33: malformed JSON");
    rejected_edit("rows-between.json",
                  replace_once(good, "[100, 110, 120]},", "[100, 110, 120]} x,"),
                  ":30: malformed JSON");
    rejected_edit("rows-trailing-comma.json",
                  replace_once(good, "\"samples\": [60, 61]}\n  ]", "\"samples\": [60, 61]},\n  ]"),
                  ":48: malformed JSON");
    rejected_edit("after-rows.json", replace_once(good, "\n  ]\n}\n", "\n  ],\n  \"x\" 1\n}\n"),
                  ":49: malformed JSON");
    expect_rejected_text("array.json", "[1, 2]", "not a JSON object");
    expect_rejected_text("empty-object.json", "{}", "schema_version");
    expect_rejected_text("no-rows.json",
                         "{\"schema_version\": 1, \"context\": {\"metric\": \"ns\"}, "
                         "\"results\": []}", "no result rows");
    size_t depth = 5000;
    char *deep = malloc(2 * depth + 3);
    deep[0] = '{';
    memset(deep + 1, '[', depth);
    memset(deep + 1 + depth, ']', depth);
    strcpy(deep + 1 + 2 * depth, "}");
    rejected_edit("deep.json", deep, "malformed JSON");
    free(good);
}

/* A time of a sort is above 0: a file of zero (or negative) times is refused on the line and
** the column of the first one; counts of comparisons may be 0. */
static void test_times_above_zero(void)
{
    qsb_results r;
    CHECK(read_captured(FIXTURES "zero-times.csv", &r) == QSB_EUSAGE);
    CHECK_MSG(strstr(captured, "zero-times.csv:2: column 'min': '0' is not a time above 0 "
                               "(the metric is cycles)") != NULL, "'%s'", captured);
    char *csv = slurp(FIXTURES "small.csv", NULL), *json = slurp(FIXTURES "small.json", NULL);
    CHECK(csv != NULL && json != NULL);
    if (!csv || !json)
        return;
    rejected_edit("zero-median.csv", replace_once(csv, "3,90,95,95,", "3,90,0,95,"),
                  ":3: column 'median': '0' is not a time above 0");
    rejected_edit("negative-mean.csv", replace_once(csv, "3,90,95,95,", "3,90,95,-95,"),
                  ":3: column 'mean': '-95' is not a time above 0");
    rejected_edit("zero-sample.csv", replace_once(csv, "90;95;100", "90;-0;100"),
                  ":3: column 'samples': '90;-0;100' is not a list of times above 0 (sample 2 "
                  "of 3 is -0");
    rejected_edit("ns-zero.csv", replace_once(csv, "introsort,msort,cycles,3,90,",
                                              "introsort,msort,ns,3,0,"),
                  ":3: column 'min': '0' is not a time above 0 (the metric is ns)");
    /* JSON: the field and the line it is written on */
    rejected_edit("zero-median.json", replace_once(json, "\"median\": 95,", "\"median\": 0,"),
                  ":32: field 'results[1].median': not a time above 0 (the metric is cycles)");
    rejected_edit("zero-sample.json", replace_once(json, "[90, 95, 100]", "[90, 95, 0]"),
                  ":36: field 'results[1].samples': not a list of times above 0 (sample 3 of "
                  "3 is 0");
    /* comparisons are counts: 0 is one (a sort of one element makes none) */
    const char *zero_counts = ORDER_HEADER "random,1,4,msort,msort,comparisons,3,0,0,0,0,,0,true,"
                                           "0;0;0\n";
    char path[256];
    path_in_tmp(path, sizeof path, "zero-counts.csv");
    write_text(path, zero_counts, strlen(zero_counts));
    CHECK(qsb_read_results(path, &r) == QSB_OK && r.ncells == 1 &&
          r.cells[0].rows[0].summary.median == 0);
    qsb_results_free(&r);
    free(csv);
    free(json);
}

/* A key given twice in one object is refused on the line of the second one, wherever the
** object is: a row, the root, the context, a nested object, a fleet's machine; spelt with an
** escape too. The same key in two different objects is not a repeat. */
static void test_repeated_keys(void)
{
    qsb_results r;
    CHECK(read_captured(FIXTURES "repeated-key.json", &r) == QSB_EUSAGE);
    CHECK_MSG(strstr(captured, "repeated-key.json:32: key 'median' given twice in one object: "
                               "an ambiguous file") != NULL, "'%s'", captured);
    char *json = slurp(FIXTURES "small.json", NULL);
    CHECK(json != NULL);
    if (!json)
        return;
    rejected_edit("two-versions.json", replace_once(json, "\"schema_version\": 1,",
                                                    "\"schema_version\": 1,\n  "
                                                    "\"schema_version\": 3,"),
                  ":3: key 'schema_version' given twice");
    rejected_edit("two-results.json",
                  replace_once(json, "\n  ]\n}\n", "\n  ],\n  \"results\": []\n}\n"),
                  ":49: key 'results' given twice");
    rejected_edit("context-escaped.json", replace_once(json, "\"host\": \"fixture-host\",",
                                                       "\"host\": \"fixture-host\",\n    "
                                                       "\"h\\u006fst\": \"x\","),
                  ":7: key 'h\\\\u006fst' given twice");
    rejected_edit("nested.json",
                  replace_once(json, "\"incomplete\": false",
                               "\"incomplete\": false,\n    \"time_s\": {\"wall\": 1, "
                               "\"timed\": 1,\n      \"wall\": 2}"),
                  ":23: key 'wall' given twice");
    rejected_edit("last-row.json", replace_once(json, "\"samples\": [60, 61]}",
                                                "\"samples\": [60, 61], \"samples\": [1]}"),
                  ":47: key 'samples' given twice");
    /* "median" in every row, "metric" in the context and in the rows: no repeats */
    char path[256];
    path_in_tmp(path, sizeof path, "distinct.json");
    write_text(path, json, strlen(json));
    CHECK(qsb_read_results(path, &r) == QSB_OK);
    qsb_results_free(&r);
    free(json);
    char *fleet = slurp(FIXTURES "fleet-same-names.json", NULL);
    CHECK(fleet != NULL);
    if (!fleet)
        return;
    rejected_edit("fleet-repeat.json", replace_once(fleet, "\"baseline\": \"msort\",",
                                                    "\"baseline\": \"msort\", "
                                                    "\"baseline\": \"introsort\","),
                  ":25: key 'baseline' given twice");
    free(fleet);
}

/* The machines of a fleet file are told apart by name: two of one name are refused. */
static void test_fleet_names(void)
{
    qsb_results *runs = NULL;
    size_t n = 0;
    int saved = begin_capture();
    int status = qsb_read_fleet(FIXTURES "fleet-same-names.json", &runs, &n);
    end_capture(saved);
    CHECK(status == QSB_EUSAGE && runs == NULL && n == 0);
    CHECK_MSG(strstr(captured, "fleet-same-names.json: machines[1] has the name 'fixture-host' "
                               "of machines[0]") != NULL && count_lines(captured) == 1,
              "'%s'", captured);
    char *fleet = slurp(FIXTURES "fleet-same-names.json", NULL);
    CHECK(fleet != NULL);
    if (!fleet)
        return;
    /* named apart by the machine key, or by the host */
    char *named = replace_once(fleet, "\"incomplete\": false",
                               "\"incomplete\": false, \"machine\": \"a\"");
    char *hosts = replace_once(fleet, "\"host\": \"fixture-host\"", "\"host\": \"first\"");
    char *texts[] = {named, hosts};
    for (size_t i = 0; i < 2; i++) {
        char path[256];
        path_in_tmp(path, sizeof path, "fleet-apart.json");
        write_text(path, texts[i], strlen(texts[i]));
        CHECK(qsb_read_fleet(path, &runs, &n) == QSB_OK && n == 2);
        for (size_t m = 0; m < n; m++)
            qsb_results_free(&runs[m]);
        free(runs);
        free(texts[i]);
    }
    /* a machine named as another's host is the same name */
    rejected_edit("fleet-host-name.json",
                  replace_once(fleet, "\"incomplete\": false",
                               "\"incomplete\": false, \"machine\": \"fixture-host\""),
                  "machines[1] has the name 'fixture-host' of machines[0]");
    free(fleet);
}

static void test_unreadable(void)
{
    qsb_results r;
    CHECK(read_captured("/nonexistent/results.csv", &r) == QSB_EUSAGE);
    CHECK(strstr(captured, "cannot read '/nonexistent/results.csv'") != NULL);
    CHECK(read_captured(tmpdir, &r) == QSB_EUSAGE); /* a directory */
    CHECK(strstr(captured, tmpdir) != NULL && count_lines(captured) == 1);
    CHECK(strstr(captured, "is a directory: only regular files are read") != NULL);
}

/* Only regular files are read: a FIFO without a writer is refused at once (not waited on),
** a device that never ends (/dev/zero) is refused before a byte is read. */
static void test_not_regular(void)
{
    qsb_results r;
    char fifo[sizeof tmpdir + 16];
    snprintf(fifo, sizeof fifo, "%s/fifo", tmpdir);
    CHECK(mkfifo(fifo, 0600) == 0);
    CHECK(read_captured(fifo, &r) == QSB_EUSAGE);
    CHECK(strstr(captured, "is a FIFO (pipe): only regular files are read") != NULL &&
          count_lines(captured) == 1);
    unlink(fifo);
    CHECK(read_captured("/dev/zero", &r) == QSB_EUSAGE);
    CHECK(strstr(captured, "'/dev/zero' is a character device") != NULL &&
          count_lines(captured) == 1);
}

/* The one cap: a sparse file one byte over it is refused from its size, without reading. */
static void test_over_cap(void)
{
    char path[sizeof tmpdir + 16];
    snprintf(path, sizeof path, "%s/huge.csv", tmpdir);
    int fd = open(path, O_WRONLY | O_CREAT | O_TRUNC, 0600);
    CHECK(fd >= 0 && ftruncate(fd, (off_t)QSB_INPUT_MAX_BYTES + 1) == 0);
    close(fd);
    qsb_results r;
    CHECK(read_captured(path, &r) == QSB_EUSAGE);
    CHECK(strstr(captured, "larger than 256 MiB") != NULL && count_lines(captured) == 1);
    /* written by this tool, such a file is warned about at once */
    int saved = begin_capture();
    qsb_warn_if_unreadable(path);
    qsb_warn_if_unreadable(FIXTURES "small.csv");
    qsb_warn_if_unreadable("-");
    end_capture(saved);
    CHECK_MSG(strncmp(captured, "qsortbench: warning: ", 21) == 0 && count_lines(captured) == 1 &&
                  strstr(captured, "is 257 MiB, larger than the 256 MiB this tool reads") != NULL,
              "'%s'", captured);
    unlink(path);
}

int main(void)
{
    if (!mkdtemp(tmpdir)) {
        perror("mkdtemp");
        return 1;
    }
    test_round_trip();
    test_fixtures();
    test_json_rows_apart();
    test_bad_csv();
    test_bad_json();
    test_assembly_order();
    test_assembly_defects();
    test_times_above_zero();
    test_repeated_keys();
    test_fleet_names();
    test_unreadable();
    test_not_regular();
    test_over_cap();
    char cmd[300];
    snprintf(cmd, sizeof cmd, "rm -rf '%s'", tmpdir);
    CHECK(system(cmd) == 0);
    return check_done();
}
