/*
** A row's states in the results files (states_text.h, schema.h's `states` column): the text
** written, parsed and checked; CSV and JSON round trips (the JSON as an array of objects, a
** baseline's without deltas, a state of too few processes without an interval); files of an
** earlier version with a `modes` column read with one warning; malformed states refused with
** exit status 2 and one line naming the file, the line (a JSON state's own where one state is
** at fault) and the CSV column or the JSON field.
*/
#include <fcntl.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "check.h"
#include "diag.h"
#include "export_dashboards.h"
#include "read_results.h"
#include "report.h"
#include "result.h"
#include "states_row.h"
#include "states_text.h"

#define N_OF(a) (sizeof(a) / sizeof((a)[0]))

static char tmpdir[] = "/tmp/qsb-states-XXXXXX";
static char captured[4096];

static void path_in_tmp(char *buf, size_t len, const char *name)
{
    snprintf(buf, len, "%s/%s", tmpdir, name);
}

static void write_text(const char *path, const char *text)
{
    FILE *fp = fopen(path, "wb");
    CHECK(fp != NULL);
    if (!fp)
        return;
    CHECK(fputs(text, fp) >= 0);
    CHECK(fclose(fp) == 0);
}

static char *slurp(const char *path)
{
    FILE *fp = fopen(path, "rb");
    if (!fp)
        return NULL;
    char *buf = calloc(1, 1 << 16);
    if (buf)
        (void)fread(buf, 1, (1 << 16) - 1, fp); /* an empty stderr is a file too */
    fclose(fp);
    return buf;
}

/* qsb_read_results of path with stderr in `captured`. */
static int read_captured(const char *path, qsb_results *out)
{
    char errpath[256];
    path_in_tmp(errpath, sizeof errpath, "stderr.txt");
    fflush(stderr);
    int saved = dup(2), fd = open(errpath, O_WRONLY | O_CREAT | O_TRUNC, 0600);
    dup2(fd, 2);
    close(fd);
    int status = qsb_read_results(path, out);
    fflush(stderr);
    dup2(saved, 2);
    close(saved);
    char *text = slurp(errpath);
    snprintf(captured, sizeof captured, "%s", text ? text : "");
    free(text);
    return status;
}

static size_t count_lines(const char *s)
{
    size_t n = 0;
    for (; *s; s++)
        n += *s == '\n';
    return n;
}

/* text without its blanks (the files here have none inside their strings). */
static void compact(char *text)
{
    char *to = text;
    for (const char *p = text; p && *p; p++)
        if (*p != ' ' && *p != '\t' && *p != '\n')
            *to++ = *p;
    if (text)
        *to = '\0';
}

/* ---- the text ---- */

static void test_text(void)
{
    qsb_state_estimate s[QSB_STATES_MAX];
    const char *why;
    const char *cand = "0.57(12)@2010345.0/-23.10[-24.90,-21.30];0.43(9)@2931002.5/-41.00";
    CHECK(qsb_states_parse(cand, s, &why) == 2);
    CHECK_EQ_U64(s[0].processes, 12);
    CHECK(s[0].share == 0.57 && s[0].median == 2010345.0 && s[0].delta_pct == -23.10);
    CHECK(s[0].delta_lo == -24.90 && s[0].delta_hi == -21.30);
    CHECK(s[1].delta_pct == -41.0 && isnan(s[1].delta_lo) && isnan(s[1].delta_hi));
    char *again = qsb_states_format(s, 2);
    CHECK(again && strcmp(again, cand) == 0);
    free(again);
    CHECK(qsb_states_parse("0.34(4)@10.0;0.33(4)@20.0;0.33(4)@30.0", s, &why) == 3);
    CHECK(isnan(s[2].delta_pct));

    /* what a row keeps of the run's estimates: their numbers as the text reads them back */
    qsb_state_estimate e[2] = {
        {12, 0.5712, 2010345.04, 1.0, 3.0, -23.104, -24.896, -21.3049, {12, 0.1, 0.2}},
        {9, 0.4288, 2931002.46, 1.0, 3.0, -41.0, NAN, -38.8, {9, 0.1, 0.2}}};
    CHECK(qsb_states_round(e, 2) == 0);
    CHECK(e[0].processes == 12 && e[0].share == 0.57 && e[0].median == 2010345.0);
    CHECK(e[0].delta_pct == -23.10 && e[0].delta_lo == -24.90 && e[0].delta_hi == -21.30);
    CHECK(e[1].share == 0.43 && e[1].median == 2931002.5 && e[1].delta_pct == -41.0);
    CHECK(isnan(e[1].delta_lo) && isnan(e[1].delta_hi)); /* no interval with one bound */
    CHECK(isnan(e[0].median_lo) && isnan(e[0].median_hi) && e[0].log_ratios.units == 0);

    struct {
        const char *text, *why;
    } bad[] = {
        {"0.50(4)@10.0;0.30(3)@20.0", "shares that do not sum to 1"},
        {"0.50(4)@10.0/+1.00[+2.00,+3.00];0.50(4)@20.0/+1.00", "does not hold its delta"},
        {"0.50(0)@10.0;0.50(4)@20.0", "a state of 0 processes"},
        {"0.50(4)@10.0/+1.00;0.50(4)@20.0", "deltas given for some states only"},
        {"1.00(4)@10.0", "not 2 to 8 states"},
        {"0.50(4)@10.0;0.50(4)@-2.0", "a median that is not a positive number"},
        {"0.50(4.5)@10.0;0.50(4)@20.0", "joined by ';'"},
        {"0.50(4)@10.0;;0.50(4)@20.0", "joined by ';'"},
        {"0.50(4)@10.0;0.50(4)@20.0;", "joined by ';'"},
        {"0.5@10;0.5@20", "joined by ';'"}, /* the earlier modes' grammar */
    };
    for (size_t i = 0; i < N_OF(bad); i++) {
        CHECK_MSG(qsb_states_parse(bad[i].text, s, &why) == 0, "'%s' parsed", bad[i].text);
        CHECK_MSG(why && strstr(why, bad[i].why), "'%s': %s", bad[i].text, why ? why : "-");
    }
}

/* ---- the files ---- */

/* One cell, msort then introsort, 10 processes of one sample each, the given states. */
static void build(qsb_results *r, const char *base_states, const char *cand_states)
{
    memset(r, 0, sizeof *r);
    const char *names[] = {"msort", "introsort"};
    CHECK(qsb_set_string(&r->baseline, "msort") == 0);
    CHECK(qsb_set_string(&r->context.metric, "cycles") == 0);
    CHECK(qsb_set_string(&r->context.mode, "default") == 0);
    r->context.pinned_cpu = -1;
    r->context.load_average = r->context.precision_pct = r->context.budget_s = NAN;
    r->context.drift_ratios = r->context.drift_medians = NAN;
    qsb_cell *cell = qsb_results_add_cell(r, "random", 49152, 8, names, 2);
    CHECK(cell != NULL);
    if (!cell)
        return;
    for (uint32_t u = 0; u < 10; u++) {
        CHECK(qsb_row_add_sample(&cell->rows[0], u < 6 ? 2.0e6 : 3.0e6, u) == 0);
        CHECK(qsb_row_add_sample(&cell->rows[1], 2.5e6, u) == 0);
    }
    for (size_t i = 0; i < 2; i++)
        CHECK(qsb_summarize(cell->rows[i].samples, cell->rows[i].nsamples,
                            &cell->rows[i].summary) == 0);
    cell->rows[1].delta_pct = 2.0;
    cell->rows[1].delta_lo = -10.0;
    cell->rows[1].delta_hi = 15.0;
    set_states(&cell->rows[0], base_states, NULL);
    set_states(&cell->rows[1], cand_states, NULL);
}

static void write_as(const char *path, int json, const qsb_results *r)
{
    FILE *fp = fopen(path, "w");
    CHECK(fp != NULL);
    if (!fp)
        return;
    CHECK((json ? qsb_report_json(fp, r) : qsb_report_csv(fp, r)) == QSB_OK);
    CHECK(fclose(fp) == 0);
}

#define BASE_STATES "0.60(6)@2000000.0;0.40(4)@3000000.0"
#define CAND_STATES "0.60(6)@2500000.0/+25.00[+24.00,+26.00];0.40(4)@2500000.0/-16.67[-18.00,-15.00]"
#define CAND_FEW "0.80(8)@2500000.0/+25.00[+24.00,+26.00];0.20(2)@2500000.0/-16.67"

static void test_round_trips(void)
{
    const char *cands[] = {CAND_STATES, CAND_FEW};
    for (size_t k = 0; k < N_OF(cands); k++)
        for (int json = 0; json < 2; json++) {
            qsb_results r, back;
            build(&r, BASE_STATES, cands[k]);
            char path[256];
            path_in_tmp(path, sizeof path, json ? "round.json" : "round.csv");
            write_as(path, json, &r);
            CHECK(read_captured(path, &back) == QSB_OK);
            CHECK_MSG(captured[0] == '\0', "stderr: %s", captured);
            CHECK(back.ncells == 1 && back.cells[0].nrows == 2);
            if (back.ncells == 1 && back.cells[0].nrows == 2) {
                CHECK(states_are(&back.cells[0].rows[0], BASE_STATES));
                CHECK(states_are(&back.cells[0].rows[1], cands[k]));
            }
            qsb_results_free(&r);
            qsb_results_free(&back);
        }
}

/* The JSON's states: objects, a baseline's without deltas, too few processes: null bounds. */
static void test_json_objects(void)
{
    qsb_results r;
    build(&r, BASE_STATES, CAND_FEW);
    char path[256];
    path_in_tmp(path, sizeof path, "objects.json");
    write_as(path, 1, &r);
    char *text = slurp(path);
    compact(text);
    CHECK(text && strstr(text, "\"states\":[{\"share\":0.6,\"processes\":6,\"median\":2000000},"
                               "{\"share\":0.4,\"processes\":4,\"median\":3000000}]"));
    CHECK(text && strstr(text, "{\"share\":0.2,\"processes\":2,\"median\":2500000,"
                               "\"delta_pct\":-16.67,\"delta_lo\":null,\"delta_hi\":null}"));
    free(text);
    qsb_results_free(&r);
}

/* An earlier version's CSV with `modes`: read, its modes not taken, one warning. */
static void test_old_modes(void)
{
    const char *csv =
        "pattern,nelem,size,algorithm,baseline,metric,reps,min,median,mean,stddev,delta_pct,"
        "comparisons,verified,modes\n"
        "random,1000,4,msort,msort,cycles,1,100,100,100,,,8700,true,0.62@100.0;0.38@150.0\n"
        "random,1000,4,introsort,msort,cycles,1,90,90,90,,-10,9500,true,"
        "0.62@90.0/+5.10;0.38@95.0/-20.00\n"
        "sorted,1000,4,msort,msort,cycles,1,50,50,50,,,999,true,0.5@50.0;0.5@60.0\n"
        "sorted,1000,4,introsort,msort,cycles,1,60,60,60,,20,1200,true,\n";
    char path[256];
    path_in_tmp(path, sizeof path, "old.csv");
    write_text(path, csv);
    qsb_results r;
    CHECK(read_captured(path, &r) == QSB_OK);
    CHECK(strstr(captured, "qsortbench: warning: ") && strstr(captured, "'modes'"));
    CHECK_EQ_U64(count_lines(captured), 1);
    CHECK(r.ncells == 2 && r.cells[0].rows[0].states == NULL && r.cells[0].rows[1].states == NULL);
    qsb_results_free(&r);

    const char *json =
        "{\"schema_version\": 1, \"context\": {\"metric\": \"cycles\"}, \"baseline\": \"msort\", "
        "\"results\": [{\"pattern\": \"random\", \"nelem\": 1000, \"size\": 4, \"algorithm\": "
        "\"msort\", \"baseline\": \"msort\", \"metric\": \"cycles\", \"reps\": 1, \"min\": 100, "
        "\"median\": 100, \"mean\": 100, \"stddev\": null, \"delta_pct\": null, "
        "\"comparisons\": 8700, \"verified\": true, \"modes\": \"0.62@100.0;0.38@150.0\"}, "
        "{\"pattern\": \"random\", \"nelem\": 1000, \"size\": 4, \"algorithm\": \"introsort\", "
        "\"baseline\": \"msort\", \"metric\": \"cycles\", \"reps\": 1, \"min\": 90, \"median\": "
        "90, \"mean\": 90, \"stddev\": null, \"delta_pct\": -10, \"comparisons\": 9500, "
        "\"verified\": true, \"modes\": \"0.62@90.0/+5.10;0.38@95.0/-20.00\"}]}\n";
    path_in_tmp(path, sizeof path, "old.json");
    write_text(path, json);
    CHECK(read_captured(path, &r) == QSB_OK);
    CHECK(strstr(captured, "qsortbench: warning: ") && strstr(captured, "'modes'"));
    CHECK_EQ_U64(count_lines(captured), 1);
    CHECK(r.ncells == 1 && r.cells[0].rows[1].states == NULL);
    qsb_results_free(&r);
}

/* text with `from` replaced by `to` once, in a new string. */
static char *replaced(const char *text, const char *from, const char *to)
{
    const char *at = strstr(text, from);
    CHECK_MSG(at != NULL, "'%s' not in the file", from);
    if (!at)
        return strdup(text);
    size_t head = (size_t)(at - text), len = strlen(text) - strlen(from) + strlen(to);
    char *out = malloc(len + 1);
    memcpy(out, text, head);
    strcpy(out + head, to);
    strcat(out, at + strlen(from));
    return out;
}

/* A file with a malformed states field: exit status 2 and one line naming the place. */
static void expect_refused(const char *name, const char *text, const char *place,
                           const char *why)
{
    char path[256];
    path_in_tmp(path, sizeof path, name);
    write_text(path, text);
    qsb_results r;
    CHECK_MSG(read_captured(path, &r) == QSB_EUSAGE, "%s was read", name);
    CHECK(QSB_EUSAGE == 2);
    CHECK_MSG(strstr(captured, "qsortbench: error: ") && strstr(captured, name) &&
                  strstr(captured, place) && strstr(captured, why),
              "%s: %s", name, captured);
    CHECK_EQ_U64(count_lines(captured), 1);
}

static void test_malformed(void)
{
    qsb_results r;
    build(&r, BASE_STATES, CAND_STATES);
    char csv_path[256], json_path[256];
    path_in_tmp(csv_path, sizeof csv_path, "good.csv");
    path_in_tmp(json_path, sizeof json_path, "good.json");
    write_as(csv_path, 0, &r);
    write_as(json_path, 1, &r);
    qsb_results_free(&r);
    char *csv = slurp(csv_path), *json = slurp(json_path);
    compact(json);
    CHECK(csv && json);
    if (!csv || !json) {
        free(csv);
        free(json);
        return;
    }
    struct {
        const char *from, *to, *why;
    } csv_bad[] = {
        {"0.40(4)@3000000.0", "0.20(4)@3000000.0", "shares that do not sum to 1"},
        {"[+24.00,+26.00]", "[+26.00,+27.00]", "an interval that does not hold its delta"},
        {"0.40(4)@3000000.0", "0.40(0)@3000000.0", "a state of 0 processes"},
    };
    for (size_t i = 0; i < N_OF(csv_bad); i++) {
        char name[32];
        snprintf(name, sizeof name, "bad%zu.csv", i);
        char *text = replaced(csv, csv_bad[i].from, csv_bad[i].to);
        /* the baseline's row is line 2, the candidate's line 3 */
        expect_refused(name, text, i == 1 ? ":3: column 'states'" : ":2: column 'states'",
                       csv_bad[i].why);
        free(text);
    }
    struct {
        const char *from, *to, *place, *why;
    } json_bad[] = {
        {"\"share\":0.4,\"processes\":4,\"median\":3000000}",
         "\"share\":0.2,\"processes\":4,\"median\":3000000}", "results[0].states",
         "shares that do not sum to 1"},
        {"\"delta_lo\":24", "\"delta_lo\":25.5", "results[1].states",
         "an interval that does not hold its delta"},
        {"\"processes\":4,\"median\":3000000}", "\"processes\":0,\"median\":3000000}",
         "results[0].states", "a state of 0 processes"},
        {"\"processes\":4,\"median\":3000000}", "\"processes\":\"4\",\"median\":3000000}",
         "results[0].states[1].processes", "not a whole number"},
    };
    for (size_t i = 0; i < N_OF(json_bad); i++) {
        char name[32];
        snprintf(name, sizeof name, "bad%zu.json", i);
        char *text = replaced(json, json_bad[i].from, json_bad[i].to);
        expect_refused(name, text, json_bad[i].place, json_bad[i].why);
        free(text);
    }
    free(csv);
    free(json);
}

/* A JSON file laid out over lines as a person or another tool writes it: each malformed
** states field refused on the line of the state at fault, or of the row's `states` when the
** fault is of the states together, as the CSV reader names its line. */
static const char *const laid_out =
    "{\n"                                                                          /* 1 */
    "  \"schema_version\": 1,\n"                                                   /* 2 */
    "  \"context\": {\"metric\": \"cycles\"},\n"                                   /* 3 */
    "  \"baseline\": \"msort\",\n"                                                /* 4 */
    "  \"results\": [\n"                                                           /* 5 */
    "    {\"pattern\": \"random\", \"nelem\": 1000, \"size\": 4, \"algorithm\": \"msort\",\n" /* 6 */
    "     \"baseline\": \"msort\", \"metric\": \"cycles\", \"reps\": 1, \"min\": 100,\n" /* 7 */
    "     \"median\": 100, \"mean\": 100, \"stddev\": null, \"delta_pct\": null,\n"   /* 8 */
    "     \"comparisons\": 8700, \"verified\": true,\n"                              /* 9 */
    "     \"states\": [\n"                                                          /* 10 */
    "       {\"share\": 0.6, \"processes\": 6, \"median\": 2000000},\n"             /* 11 */
    "       {\"share\": 0.4, \"processes\": 4, \"median\": 3000000}\n"              /* 12 */
    "     ]},\n"                                                                     /* 13 */
    "    {\"pattern\": \"random\", \"nelem\": 1000, \"size\": 4,\n"                 /* 14 */
    "     \"algorithm\": \"introsort\", \"baseline\": \"msort\", \"metric\": \"cycles\",\n" /* 15 */
    "     \"reps\": 1, \"min\": 90, \"median\": 90, \"mean\": 90, \"stddev\": null,\n" /* 16 */
    "     \"delta_pct\": -10,\n"                                                       /* 17 */
    "     \"comparisons\": 9500, \"verified\": true, \"states\": [\n"                 /* 18 */
    "       {\"share\": 0.6, \"processes\": 6, \"median\": 2500000,\n"               /* 19 */
    "        \"delta_pct\": 25, \"delta_lo\": 24, \"delta_hi\": 26},\n"               /* 20 */
    "       {\"share\": 0.4, \"processes\": 4, \"median\": 2500000,\n"               /* 21 */
    "        \"delta_pct\": -16.67, \"delta_lo\": -18, \"delta_hi\": -15}\n"          /* 22 */
    "     ]}\n"                                                                      /* 23 */
    "  ]\n"                                                                         /* 24 */
    "}\n";                                                                         /* 25 */

static void test_malformed_lines(void)
{
    char path[256];
    path_in_tmp(path, sizeof path, "laid_out.json");
    write_text(path, laid_out);
    qsb_results r;
    CHECK(read_captured(path, &r) == QSB_OK); /* the fixture itself is well formed */
    CHECK_MSG(captured[0] == '\0', "stderr: %s", captured);
    CHECK(r.ncells == 1 && r.cells[0].nrows == 2 && r.cells[0].rows[1].states);
    qsb_results_free(&r);
    struct {
        const char *from, *to, *place, *why;
    } bad[] = {
        {"\"share\": 0.4, \"processes\": 4, \"median\": 3000000",
         "\"share\": 0.2, \"processes\": 4, \"median\": 3000000",
         ":10: field 'results[0].states': ", "shares that do not sum to 1"},
        {"\"delta_lo\": 24", "\"delta_lo\": 25.5", ":19: field 'results[1].states[0]': ",
         "an interval that does not hold its delta"},
        {"\"processes\": 4, \"median\": 3000000", "\"processes\": 0, \"median\": 3000000",
         ":12: field 'results[0].states[1]': ", "a state of 0 processes"},
        {"\"processes\": 4, \"median\": 2500000", "\"processes\": 0, \"median\": 2500000",
         ":21: field 'results[1].states[1]': ", "a state of 0 processes"},
        {"\"delta_hi\": -15", "\"delta_hi\": \"-15\"",
         ":22: field 'results[1].states[1].delta_hi': ", "not a finite number"},
        {"\"processes\": 6, \"median\": 2000000", "\"processes\": 6",
         ":11: field 'results[0].states[0].median': ", "missing"},
    };
    for (size_t i = 0; i < N_OF(bad); i++) {
        char name[32];
        snprintf(name, sizeof name, "lines%zu.json", i);
        char *text = replaced(laid_out, bad[i].from, bad[i].to);
        expect_refused(name, text, bad[i].place, bad[i].why);
        free(text);
    }
}

/* The run's last lines in words: an algorithm's own states over its rows. */
static void test_summary(void)
{
    qsb_results r;
    build(&r, BASE_STATES, CAND_STATES);
    const char *names[] = {"msort", "introsort"};
    qsb_cell *more[3];
    for (size_t c = 0; c < 3; c++) {
        more[c] = qsb_results_add_cell(&r, c == 0 ? "sorted" : c == 1 ? "bitonic" : "repeated",
                                       49152, 8, names, 2);
        CHECK(more[c] != NULL);
        if (!more[c])
            return;
    }
    /* msort at 3 speeds in one more row; introsort at its own 2 speeds where msort had none */
    set_states(&r.cells[1].rows[0], "0.50(5)@1000.0;0.30(3)@2000.0;0.20(2)@3000.0", NULL);
    set_states(&r.cells[2].rows[1], "0.70(7)@1000.0/+1.00;0.30(3)@2000.0/+2.00", NULL);
    char words[512];
    CHECK_EQ_U64(qsb_states_summary(&r, 0, words, sizeof words), 2);
    CHECK_MSG(strcmp(words, "msort ran at 3 speeds in this run's processes (50% / 30% / 20%) in "
                            "2 of its 4 rows; those rows are given per speed") == 0, "%s", words);
    /* introsort's row grouped by msort's states does not count; its own states do */
    CHECK_EQ_U64(qsb_states_summary(&r, 1, words, sizeof words), 1);
    CHECK_MSG(strstr(words, "introsort ran at 2 speeds in this run's processes (70% / 30%) in 1 "
                            "of its 4 rows") == words, "%s", words);
    /* whether introsort's delta differed between msort's states, where the run tested it */
    CHECK_EQ_U64(qsb_states_delta_summary(&r, 1, words, sizeof words), 0);
    CHECK(words[0] == '\0');
    r.cells[0].rows[1].states_delta = QSB_STATES_DELTA_DIFFERS;
    r.cells[1].rows[1].states_delta = QSB_STATES_DELTA_ONE;
    CHECK_EQ_U64(qsb_states_delta_summary(&r, 1, words, sizeof words), 2);
    CHECK_MSG(strcmp(words, "introsort's delta against msort differs between msort's speeds in 1 "
                            "of the 2 rows tested (Welch's test at 1%): in those rows its mixture "
                            "moves with the speeds' shares from run to run, so read the delta per "
                            "speed") == 0, "%s", words);
    r.cells[0].rows[1].states_delta = QSB_STATES_DELTA_ONE;
    CHECK_EQ_U64(qsb_states_delta_summary(&r, 1, words, sizeof words), 2);
    CHECK_MSG(strcmp(words, "introsort's delta against msort is the same at each of msort's speeds "
                            "in the 2 rows tested, as far as Welch's test at 1% sees: its mixture "
                            "is the figure to read") == 0, "%s", words);
    CHECK_EQ_U64(qsb_states_delta_summary(&r, 0, words, sizeof words), 0); /* the baseline */
    qsb_results_free(&r);
    qsb_results empty;
    build(&empty, NULL, NULL);
    CHECK_EQ_U64(qsb_states_summary(&empty, 0, words, sizeof words), 0);
    CHECK(words[0] == '\0');
    qsb_results_free(&empty);
}

/* The exports: the mixture as before, the states as named extra measures (bmf) and words in
** `extra` (github-action-benchmark). */
static void test_exports(void)
{
    qsb_results r;
    build(&r, BASE_STATES, CAND_FEW);
    char path[256];
    path_in_tmp(path, sizeof path, "bmf.json");
    FILE *fp = fopen(path, "w");
    CHECK(fp && qsb_export_bmf(fp, &r, 1) == QSB_OK);
    if (fp)
        fclose(fp);
    char *text = slurp(path);
    compact(text);
    CHECK(text && strstr(text, "\"delta-pct\":{\"value\":2,\"lower_value\":-10,\"upper_value\":15}"));
    CHECK(text && strstr(text, "\"state-1-share\":{\"value\":0.8}"));
    CHECK(text && strstr(text, "\"state-1-delta-pct\":{\"value\":25,\"lower_value\":24,"
                               "\"upper_value\":26}"));
    CHECK(text && strstr(text, "\"state-2-delta-pct\":{\"value\":-16.67}"));
    CHECK(text && strstr(text, "\"state-2-median-cycles\":{\"value\":3000000}"));
    free(text);
    path_in_tmp(path, sizeof path, "gab.json");
    fp = fopen(path, "w");
    CHECK(fp && qsb_export_github_action(fp, &r, 1) == QSB_OK);
    if (fp)
        fclose(fp);
    text = slurp(path);
    CHECK(text && strstr(text, "10 samples, 10 units; states 80% +25.0% \xc2\xb1" "1.0 / 20% -16.7% "
                               "too few\""));
    CHECK(text && strstr(text, "baseline; 10 samples, 10 units; states 60% 2000000 / 40% 3000000\""));
    free(text);
    qsb_results_free(&r);
}

int main(void)
{
    test_summary();
    if (!mkdtemp(tmpdir)) {
        perror("mkdtemp");
        return 1;
    }
    test_text();
    test_round_trips();
    test_json_objects();
    test_old_modes();
    test_malformed();
    test_malformed_lines();
    test_exports();
    char cmd[300];
    snprintf(cmd, sizeof cmd, "rm -rf '%s'", tmpdir);
    CHECK(system(cmd) == 0);
    return check_done();
}
