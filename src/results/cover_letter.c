/*
** Published deltas (see cover_letter.h): the 2021 cover letter's table, compiled in, and the
** reader of a CSV file of the same columns.
*/
#include "cover_letter.h"

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include <csv.h>

#include "diag.h"
#include "grow.h"
#include "infile.h"

/* The cover letter of the 2021 libc-alpha series "Use introsort for qsort", as transcribed
** in tests/reference/cover-letter-2021.csv; test_cover_letter checks that they agree. */
const qsb_published_cell qsb_cover_letter_2021[] = {
    {"SORTED", 49152, 4, 52.47, 3654381.0, 5571774.0},
    {"SORTED", 786432, 4, 57.39, 73067211.0, 115003964.0},
    {"SORTED", 8388608, 4, 49.71, 1005357374.0, 1505144332.0},
    {"SORTED", 49152, 8, 48.98, 3796489.0, 5656023.0},
    {"SORTED", 786432, 8, 52.34, 75809561.0, 115491584.0},
    {"SORTED", 8388608, 8, 49.97, 1004201712.0, 1506017512.0},
    {"SORTED", 49152, 32, -2.69, 11191649.0, 10891084.0},
    {"SORTED", 786432, 32, -12.16, 238870746.0, 209822358.0},
    {"SORTED", 8388608, 32, -23.33, 3323248933.0, 2547848399.0},
    {"MOSTLYSORTED", 49152, 4, 66.47, 6915979.0, 11512945.0},
    {"MOSTLYSORTED", 786432, 4, 66.48, 143188170.0, 238379284.0},
    {"MOSTLYSORTED", 8388608, 4, 70.90, 1805703842.0, 3086011963.0},
    {"MOSTLYSORTED", 49152, 8, 78.11, 6836231.0, 12176330.0},
    {"MOSTLYSORTED", 786432, 8, 77.79, 138851879.0, 246867806.0},
    {"MOSTLYSORTED", 8388608, 8, 77.70, 1773884617.0, 3152112348.0},
    {"MOSTLYSORTED", 49152, 32, -6.44, 13766992.0, 12880888.0},
    {"MOSTLYSORTED", 786432, 32, -15.19, 287590899.0, 243919593.0},
    {"MOSTLYSORTED", 8388608, 32, -25.63, 3852042869.0, 2864641676.0},
    {"RANDOM", 49152, 4, 9.54, 15078260.0, 16516457.0},
    {"RANDOM", 786432, 4, 5.64, 305805587.0, 323043450.0},
    {"RANDOM", 8388608, 4, 2.78, 3838340458.0, 3945202718.0},
    {"RANDOM", 49152, 8, 13.75, 14676586.0, 16694499.0},
    {"RANDOM", 786432, 8, 10.71, 295583560.0, 327252646.0},
    {"RANDOM", 8388608, 8, 7.67, 3722946692.0, 4008563091.0},
    {"RANDOM", 49152, 32, -8.34, 20944462.0, 19196696.0},
    {"RANDOM", 786432, 32, -14.31, 425822838.0, 364896701.0},
    {"RANDOM", 8388608, 32, -19.86, 5534217212.0, 4435276362.0},
    {"REPEATED", 49152, 4, 9.18, 14051610.0, 15341610.0},
    {"REPEATED", 786432, 4, 6.01, 282787457.0, 299777700.0},
    {"REPEATED", 8388608, 4, 4.19, 3539279291.0, 3687517777.0},
    {"REPEATED", 49152, 8, 12.37, 13659340.0, 15349336.0},
    {"REPEATED", 786432, 8, 11.11, 273070595.0, 303413116.0},
    {"REPEATED", 8388608, 8, 8.46, 3424739041.0, 3714521094.0},
    {"REPEATED", 49152, 32, -11.21, 19826230.0, 17603795.0},
    {"REPEATED", 786432, 32, -16.73, 405322605.0, 337501658.0},
    {"REPEATED", 8388608, 32, -21.93, 5261140329.0, 4107591456.0},
    {"BITONIC", 49152, 4, 405.43, 4632011.0, 23411611.0},
    {"BITONIC", 786432, 4, 493.28, 92649410.0, 549674361.0},
    {"BITONIC", 8388608, 4, 609.03, 1095591416.0, 7768102251.0},
    {"BITONIC", 49152, 8, 402.05, 4672695.0, 23459484.0},
    {"BITONIC", 786432, 8, 480.60, 94419035.0, 548197066.0},
    {"BITONIC", 8388608, 8, 596.41, 1116631167.0, 7776333333.0},
    {"BITONIC", 49152, 32, -6.92, 11545720.0, 10747100.0},
    {"BITONIC", 786432, 32, -14.97, 245037969.0, 208357373.0},
    {"BITONIC", 8388608, 32, -24.14, 3357712042.0, 2547221807.0},
};
const size_t qsb_cover_letter_2021_count =
    sizeof qsb_cover_letter_2021 / sizeof qsb_cover_letter_2021[0];

#define NCOLUMNS 6
#define FIELD_MAX 64

static const char *const columns[NCOLUMNS] = {"pattern",  "nelem",        "size",
                                              "delta_pct", "master_msort", "patches_introsort"};

/* The reader's state between libcsv's callbacks. Only the first defect is kept. */
typedef struct {
    const char *path;
    char fields[NCOLUMNS][FIELD_MAX];
    size_t nfields;      /* fields seen in the current row */
    unsigned long line;  /* rows finished; the header is row 1 */
    unsigned long error_line;
    qsb_reference *ref;
    size_t cap_cells;    /* of ref->cells */
    int status;
    char error[160];
} reader;

static void reader_fail(reader *r, int status, const char *message)
{
    if (r->status != QSB_OK)
        return;
    r->status = status;
    r->error_line = r->line + 1;
    snprintf(r->error, sizeof r->error, "%s", message);
}

static void on_field(void *data, size_t len, void *ctx)
{
    reader *r = ctx;
    if (r->nfields < NCOLUMNS) {
        if (len >= FIELD_MAX) {
            reader_fail(r, QSB_EUSAGE, "field too long");
            len = FIELD_MAX - 1;
        }
        memcpy(r->fields[r->nfields], data, len);
        r->fields[r->nfields][len] = '\0';
    }
    r->nfields++;
}

/* The whole text as a finite number with an optional sign, in the C locale. */
static int text_to_double(const char *text, double *out)
{
    const char *digits = text + (*text == '-' || *text == '+');
    size_t len = strlen(digits);
    if (len == 0 || strspn(digits, "0123456789.") != len ||
        strchr(digits, '.') != strrchr(digits, '.'))
        return -1;
    char *end;
    errno = 0;
    *out = strtod(text, &end);
    return *end == '\0' && errno == 0 && isfinite(*out) ? 0 : -1;
}

static int text_to_u64(const char *text, uint64_t *out)
{
    size_t len = strlen(text);
    if (len == 0 || len > 19 || strspn(text, "0123456789") != len)
        return -1;
    *out = strtoull(text, NULL, 10);
    return *out > 0 ? 0 : -1;
}

static void check_header(reader *r)
{
    for (size_t i = 0; i < NCOLUMNS; i++)
        if (strcmp(r->fields[i], columns[i]) != 0)
            reader_fail(r, QSB_EUSAGE, "the header must be pattern,nelem,size,delta_pct,"
                                       "master_msort,patches_introsort");
}

/* The row's cell, or the defect that keeps it out. */
static const char *parse_cell(reader *r, qsb_published_cell *cell)
{
    memset(cell, 0, sizeof *cell);
    if (r->fields[0][0] == '\0' || strlen(r->fields[0]) >= sizeof cell->pattern)
        return "bad pattern name";
    memcpy(cell->pattern, r->fields[0], strlen(r->fields[0]) + 1);
    if (text_to_u64(r->fields[1], &cell->nelem) != 0 ||
        text_to_u64(r->fields[2], &cell->size) != 0)
        return "nelem and size must be positive whole numbers";
    if (text_to_double(r->fields[3], &cell->delta_pct) != 0 ||
        text_to_double(r->fields[4], &cell->master) != 0 ||
        text_to_double(r->fields[5], &cell->patches) != 0)
        return "delta_pct, master_msort and patches_introsort must be numbers";
    if (qsb_reference_find(r->ref, cell->pattern, cell->nelem, cell->size))
        return "this cell is listed twice";
    return NULL;
}

static void add_cell(reader *r)
{
    qsb_published_cell cell;
    const char *defect = parse_cell(r, &cell);
    if (defect) {
        reader_fail(r, QSB_EUSAGE, defect);
        return;
    }
    if (QSB_GROW(r->ref->cells, r->cap_cells, r->ref->ncells + 1) != 0) {
        reader_fail(r, QSB_ESYSTEM, "out of memory");
        return;
    }
    r->ref->cells[r->ref->ncells++] = cell;
}

static void on_row_end(int terminator, void *ctx)
{
    reader *r = ctx;
    (void)terminator;
    if (r->status == QSB_OK && r->nfields != NCOLUMNS)
        reader_fail(r, QSB_EUSAGE, "expected 6 fields");
    else if (r->status == QSB_OK && r->line == 0)
        check_header(r);
    else if (r->status == QSB_OK)
        add_cell(r);
    r->nfields = 0;
    r->line++;
}

static int parse_text(const char *text, size_t len, reader *r)
{
    struct csv_parser parser;
    if (csv_init(&parser, CSV_STRICT | CSV_STRICT_FINI) != 0)
        return qsb_out_of_memory("CSV parser");
    if (csv_parse(&parser, text, len, on_field, on_row_end, r) != len)
        reader_fail(r, QSB_EUSAGE, csv_strerror(csv_error(&parser)));
    if (r->status == QSB_OK && csv_fini(&parser, on_field, on_row_end, r) != 0)
        reader_fail(r, QSB_EUSAGE, csv_strerror(csv_error(&parser)));
    csv_free(&parser);
    if (r->status == QSB_OK && r->ref->ncells == 0)
        reader_fail(r, QSB_EUSAGE, "no cells after the header");
    if (r->status != QSB_OK)
        return qsb_error(r->status, "--reference: %s:%lu: %s", qsb_quote_path(r->path),
                         r->error_line, r->error);
    return QSB_OK;
}

static int load_file(const char *path, qsb_reference *out)
{
    char hint[64];
    snprintf(hint, sizeof hint, " (or use '%s')", QSB_COVER_LETTER_NAME);
    char *text;
    size_t len;
    int status = qsb_read_input_file(path, "--reference: ", hint, &text, &len);
    if (status != QSB_OK)
        return status;
    reader r;
    memset(&r, 0, sizeof r);
    r.path = path;
    r.ref = out;
    status = parse_text(text, len, &r);
    free(text);
    return status;
}

int qsb_reference_load(const char *what, qsb_reference *out)
{
    memset(out, 0, sizeof *out);
    int status = QSB_OK;
    if (strcmp(what, QSB_COVER_LETTER_NAME) == 0) {
        size_t bytes = qsb_cover_letter_2021_count * sizeof *out->cells;
        out->cells = malloc(bytes);
        if (out->cells) {
            memcpy(out->cells, qsb_cover_letter_2021, bytes);
            out->ncells = qsb_cover_letter_2021_count;
        } else {
            status = qsb_out_of_memory("reference");
        }
    } else {
        status = load_file(what, out);
    }
    if (status == QSB_OK && !(out->name = strdup(what)))
        status = qsb_out_of_memory("reference");
    if (status != QSB_OK)
        qsb_reference_free(out);
    return status;
}

const qsb_published_cell *qsb_reference_find(const qsb_reference *ref, const char *pattern,
                                             uint64_t nelem, uint64_t size)
{
    for (size_t i = 0; ref && i < ref->ncells; i++) {
        const qsb_published_cell *c = &ref->cells[i];
        if (c->nelem == nelem && c->size == size && strcasecmp(c->pattern, pattern) == 0)
            return c;
    }
    return NULL;
}

void qsb_reference_free(qsb_reference *ref)
{
    free(ref->cells);
    free(ref->name);
    memset(ref, 0, sizeof *ref);
}
