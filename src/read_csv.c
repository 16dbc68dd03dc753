/*
** The CSV results reader (format: the top of result.h). Parsed with libcsv in strict mode,
** fed one physical line at a time so that every error can name its line. Columns are found
** by their header names: the 14 columns of the command-line contract are required, the later
** ones of result.h are optional, unknown columns are ignored.
*/
#include <csv.h>
#include <errno.h>
#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "diag.h"
#include "read_results.h"

typedef enum {
    COL_PATTERN, COL_NELEM, COL_SIZE, COL_ALGORITHM, COL_BASELINE, COL_METRIC, COL_REPS,
    COL_MIN, COL_MEDIAN, COL_MEAN, COL_STDDEV, COL_DELTA_PCT, COL_COMPARISONS, COL_VERIFIED,
    COL_CV, COL_MEDIAN_LO, COL_MEDIAN_HI, COL_OUTLIERS, COL_DELTA_LO, COL_DELTA_HI, COL_NOISY,
    COL_FAILURE, COL_MODE, COL_SEED, COL_SAMPLES, COL_UNITS,
    COL_COUNT
} column;

#define REQUIRED_COLUMNS (COL_VERIFIED + 1) /* pattern .. verified: spec/cli.md */

static const char *const column_names[COL_COUNT] = {
    "pattern", "nelem", "size", "algorithm", "baseline", "metric", "reps",
    "min", "median", "mean", "stddev", "delta_pct", "comparisons", "verified",
    "cv", "median_lo", "median_hi", "outliers", "delta_lo", "delta_hi", "noisy",
    "failure", "mode", "seed", "samples", "units",
};

typedef struct {
    const char *path;     /* as messages show it: escaped already (read_results.h) */
    int status;
    size_t line;          /* physical line being fed to the parser */
    size_t record_line;   /* line where the current record's first field ended */
    char **fields;        /* the current record */
    size_t nfields, cap_fields;
    int have_header;
    size_t header_fields;
    long column_at[COL_COUNT]; /* field index of each known column, -1 when absent */
    long machine_at;      /* the fleet file's `machine` column (report.h), -1 when absent */
    char **machines;      /* each row's machine (owned), when machine_at >= 0 */
    qsb_loose_row *rows;
    size_t nrows, cap_rows;
} csv_reader;

static void clear_fields(csv_reader *r)
{
    for (size_t i = 0; i < r->nfields; i++)
        free(r->fields[i]);
    r->nfields = 0;
}

static void on_field(void *s, size_t len, void *data)
{
    csv_reader *r = data;
    if (r->status != QSB_OK)
        return;
    if (r->nfields == 0)
        r->record_line = r->line;
    if (r->nfields == r->cap_fields) {
        size_t cap = r->cap_fields ? 2 * r->cap_fields : 32;
        char **bigger = realloc(r->fields, cap * sizeof *bigger);
        if (!bigger) {
            r->status = qsb_out_of_memory("CSV record");
            return;
        }
        r->fields = bigger;
        r->cap_fields = cap;
    }
    char *copy = malloc(len + 1);
    if (!copy) {
        r->status = qsb_out_of_memory("CSV field");
        return;
    }
    if (len)
        memcpy(copy, s, len);
    copy[len] = '\0';
    r->fields[r->nfields++] = copy;
}

/* ---- the header ---- */

static int read_header(csv_reader *r)
{
    for (size_t c = 0; c < COL_COUNT; c++)
        r->column_at[c] = -1;
    r->machine_at = -1;
    for (size_t i = 0; i < r->nfields; i++) {
        if (strcmp(r->fields[i], "machine") == 0)
            r->machine_at = (long)i;
        for (size_t c = 0; c < COL_COUNT; c++) {
            if (strcmp(r->fields[i], column_names[c]) != 0)
                continue;
            if (r->column_at[c] >= 0)
                return qsb_error(QSB_EUSAGE, "%s:%zu: column '%s' appears twice", r->path,
                                 r->record_line, column_names[c]);
            r->column_at[c] = (long)i;
        }
    }
    for (size_t c = 0; c < REQUIRED_COLUMNS; c++)
        if (r->column_at[c] < 0)
            return qsb_error(QSB_EUSAGE,
                             "%s:%zu: no column '%s': not a qsortbench results file (the "
                             "header must name pattern,nelem,size,algorithm,baseline,metric,"
                             "reps,min,median,mean,stddev,delta_pct,comparisons,verified)",
                             r->path, r->record_line, column_names[c]);
    r->have_header = 1;
    r->header_fields = r->nfields;
    return QSB_OK;
}

/* ---- one data row ---- */

static int bad_field(const csv_reader *r, column c, const char *text, const char *what)
{
    return qsb_error(QSB_EUSAGE, "%s:%zu: column '%s': '%s' is not %s", r->path,
                     r->record_line, column_names[c], qsb_quote(text), what);
}

static int parse_u64(const csv_reader *r, column c, const char *text, int hex_ok,
                     uint64_t *out)
{
    return qsb_text_to_u64(text, hex_ok, out) == 0
               ? QSB_OK
               : bad_field(r, c, text, hex_ok ? "a whole number (0x-hex)" : "a whole number");
}

/* Empty means unknown (NAN), as the writers put it. */
static int parse_double(const csv_reader *r, column c, const char *text, double *out)
{
    if (*text == '\0') {
        *out = NAN;
        return QSB_OK;
    }
    return qsb_text_to_double(text, out) == 0 ? QSB_OK
                                              : bad_field(r, c, text, "a finite number");
}

static int parse_bool(const csv_reader *r, column c, const char *text, bool *out)
{
    if (strcmp(text, "true") == 0 || strcmp(text, "false") == 0) {
        *out = text[0] == 't';
        return QSB_OK;
    }
    return bad_field(r, c, text, "true or false");
}

static int parse_name(const csv_reader *r, column c, const char *text, char **out)
{
    if (*text == '\0')
        return qsb_error(QSB_EUSAGE, "%s:%zu: column '%s' is empty", r->path, r->record_line,
                         column_names[c]);
    *out = strdup(text);
    return *out ? QSB_OK : qsb_out_of_memory("CSV field");
}

static int parse_samples(const csv_reader *r, const char *text, qsb_row *row)
{
    if (*text == '\0')
        return QSB_OK;
    size_t n = 1;
    for (const char *p = text; *p; p++)
        n += *p == ';';
    row->samples = malloc(n * sizeof *row->samples);
    char *copy = strdup(text);
    int status = row->samples && copy ? QSB_OK : qsb_out_of_memory("samples");
    char *item = copy;
    for (size_t i = 0; i < n && status == QSB_OK; i++) {
        char *end = strchr(item, ';');
        if (end)
            *end = '\0';
        if (qsb_text_to_double(item, &row->samples[i]) != 0)
            status = qsb_error(QSB_EUSAGE, "%s:%zu: column 'samples': element %zu ('%s') "
                               "is not a finite number", r->path, r->record_line, i + 1,
                               qsb_quote(item));
        item = end ? end + 1 : item;
    }
    free(copy);
    if (status == QSB_OK)
        row->nsamples = n;
    return status;
}

/* The units of the samples (parsed before them): as many whole numbers below 2^32. */
static int parse_units(const csv_reader *r, const char *text, qsb_row *row)
{
    if (*text == '\0')
        return QSB_OK; /* unknown */
    size_t n = 1;
    for (const char *p = text; *p; p++)
        n += *p == ';';
    if (n != row->nsamples)
        return qsb_error(QSB_EUSAGE, "%s:%zu: column 'units': %zu values for %zu samples",
                         r->path, r->record_line, n, row->nsamples);
    row->units = malloc(n * sizeof *row->units);
    if (!row->units)
        return qsb_out_of_memory("units");
    const char *p = text;
    for (size_t i = 0; i < n; i++) {
        char *end;
        errno = 0;
        unsigned long long v = (*p >= '0' && *p <= '9') ? strtoull(p, &end, 10) : 0;
        if (!(*p >= '0' && *p <= '9') || errno || v > UINT32_MAX || (*end != ';' && *end))
            return qsb_error(QSB_EUSAGE, "%s:%zu: column 'units': element %zu is not a whole "
                             "number below 2^32", r->path, r->record_line, i + 1);
        row->units[i] = (uint32_t)v;
        p = end + (*end == ';');
    }
    return QSB_OK;
}

static int parse_column(const csv_reader *r, column c, const char *t, qsb_loose_row *lr)
{
    qsb_row *row = &lr->row;
    uint64_t u;
    int status;
    switch (c) {
    case COL_PATTERN: return parse_name(r, c, t, &lr->pattern);
    case COL_NELEM: return parse_u64(r, c, t, 0, &lr->nelem);
    case COL_SIZE:
        status = parse_u64(r, c, t, 0, &lr->size);
        return status == QSB_OK && lr->size == 0 ? bad_field(r, c, t, "a size (>= 1)") : status;
    case COL_ALGORITHM: return parse_name(r, c, t, &row->algorithm);
    case COL_BASELINE: return parse_name(r, c, t, &lr->baseline);
    case COL_METRIC: return parse_name(r, c, t, &lr->metric);
    case COL_REPS: return parse_u64(r, c, t, 0, &lr->reps);
    case COL_MIN: return parse_double(r, c, t, &row->summary.min);
    case COL_MEDIAN: return parse_double(r, c, t, &row->summary.median);
    case COL_MEAN: return parse_double(r, c, t, &row->summary.mean);
    case COL_STDDEV: return parse_double(r, c, t, &row->summary.stddev);
    case COL_DELTA_PCT: return parse_double(r, c, t, &row->delta_pct);
    case COL_COMPARISONS: return parse_u64(r, c, t, 0, &row->comparisons);
    case COL_VERIFIED: return parse_bool(r, c, t, &row->verified);
    case COL_CV: return parse_double(r, c, t, &row->summary.cv);
    case COL_MEDIAN_LO: return parse_double(r, c, t, &row->summary.median_lo);
    case COL_MEDIAN_HI: return parse_double(r, c, t, &row->summary.median_hi);
    case COL_OUTLIERS:
        status = parse_u64(r, c, t, 0, &u);
        if (status == QSB_OK && u > UINT32_MAX)
            return bad_field(r, c, t, "a count of samples");
        row->summary.outliers = (unsigned)u;
        return status;
    case COL_DELTA_LO: return parse_double(r, c, t, &row->delta_lo);
    case COL_DELTA_HI: return parse_double(r, c, t, &row->delta_hi);
    case COL_NOISY: return parse_bool(r, c, t, &row->noisy);
    case COL_FAILURE: return *t ? parse_name(r, c, t, &row->failure) : QSB_OK;
    case COL_MODE: return *t ? parse_name(r, c, t, &lr->mode) : QSB_OK;
    case COL_SEED:
        lr->has_seed = *t != '\0';
        return lr->has_seed ? parse_u64(r, c, t, 1, &lr->seed) : QSB_OK;
    case COL_SAMPLES:
        lr->has_samples = 1;
        return parse_samples(r, t, row);
    case COL_UNITS: return parse_units(r, t, row);
    case COL_COUNT: break;
    }
    return QSB_OK;
}

static int read_row(csv_reader *r)
{
    if (r->nfields != r->header_fields)
        return qsb_error(QSB_EUSAGE, "%s:%zu: %zu fields, but the header has %zu%s", r->path,
                         r->record_line, r->nfields, r->header_fields,
                         r->nfields < r->header_fields ? " (truncated?)" : "");
    if (r->nrows == r->cap_rows) {
        size_t cap = r->cap_rows ? 2 * r->cap_rows : 64;
        qsb_loose_row *bigger = realloc(r->rows, cap * sizeof *bigger);
        if (!bigger)
            return qsb_out_of_memory("results");
        r->rows = bigger;
        char **names = realloc(r->machines, cap * sizeof *names);
        if (!names)
            return qsb_out_of_memory("results");
        r->machines = names;
        r->cap_rows = cap;
    }
    r->machines[r->nrows] = NULL;
    if (r->machine_at >= 0 && !(r->machines[r->nrows] = strdup(r->fields[r->machine_at])))
        return qsb_out_of_memory("results");
    char where[32];
    snprintf(where, sizeof where, ":%zu", r->record_line);
    qsb_loose_row *lr = &r->rows[r->nrows++];
    qsb_loose_row_init(lr, where); /* optional columns that are absent stay unknown */
    int status = QSB_OK;
    for (size_t c = 0; c < COL_COUNT && status == QSB_OK; c++)
        if (r->column_at[c] >= 0)
            status = parse_column(r, (column)c, r->fields[r->column_at[c]], lr);
    if (status == QSB_OK && lr->row.verified && lr->row.failure)
        status = qsb_error(QSB_EUSAGE, "%s:%zu: verified, yet a failure is given", r->path,
                           r->record_line);
    return status;
}

static void on_record(int terminator, void *data)
{
    (void)terminator;
    csv_reader *r = data;
    if (r->status == QSB_OK)
        r->status = r->have_header ? read_row(r) : read_header(r);
    clear_fields(r);
}

/* ---- driving libcsv ---- */

static int feed(csv_reader *r, struct csv_parser *p, const char *text, size_t len)
{
    size_t pos = 0;
    r->line = 1;
    while (pos < len && r->status == QSB_OK) {
        const char *nl = memchr(text + pos, '\n', len - pos);
        size_t chunk = nl ? (size_t)(nl - (text + pos)) + 1 : len - pos;
        if (csv_parse(p, text + pos, chunk, on_field, on_record, r) != chunk && r->status == QSB_OK)
            r->status = qsb_error(QSB_EUSAGE, "%s:%zu: malformed CSV (%s)", r->path, r->line,
                                  csv_strerror(csv_error(p)));
        pos += chunk;
        r->line += nl != NULL;
    }
    size_t last_line = r->line - (len > 0 && text[len - 1] == '\n');
    if (r->status == QSB_OK && csv_fini(p, on_field, on_record, r) != 0 && r->status == QSB_OK)
        r->status = qsb_error(QSB_EUSAGE, "%s:%zu: malformed CSV at the end of the file (%s: "
                              "truncated?)", r->path, last_line, csv_strerror(csv_error(p)));
    return r->status;
}

static void free_machines(csv_reader *r)
{
    for (size_t i = 0; r->machines && i < r->nrows; i++)
        free(r->machines[i]);
    free(r->machines);
    r->machines = NULL;
}

static void empty_context(qsb_context *ctx) /* what a CSV cannot say: unknown */
{
    memset(ctx, 0, sizeof *ctx);
    ctx->pinned_cpu = -1;
    ctx->load_average = ctx->precision_pct = ctx->budget_s = NAN;
    ctx->drift_ratios = ctx->drift_medians = NAN;
}

/* The rows of each machine (first appearance order) assembled apart; a file without a
** `machine` column is one machine. */
static int assemble_machines(const char *name, csv_reader *r, qsb_results **runs, size_t *n)
{
    size_t groups = 0;
    size_t *group = calloc(r->nrows ? r->nrows : 1, sizeof *group);
    const char **names = calloc(r->nrows ? r->nrows : 1, sizeof *names);
    int status = group && names ? QSB_OK : qsb_out_of_memory("results");
    for (size_t i = 0; i < r->nrows && status == QSB_OK; i++) {
        const char *m = r->machine_at >= 0 ? r->machines[i] : "";
        size_t g = 0;
        while (g < groups && strcmp(names[g], m) != 0)
            g++;
        if (g == groups)
            names[groups++] = m;
        group[i] = g;
    }
    qsb_results *out = status == QSB_OK ? calloc(groups ? groups : 1, sizeof *out) : NULL;
    if (status == QSB_OK && !out)
        status = qsb_out_of_memory("results");
    size_t done = 0;
    for (size_t g = 0; g < groups && status == QSB_OK; g++) {
        size_t k = 0;
        for (size_t i = 0; i < r->nrows; i++)
            k += group[i] == g;
        qsb_loose_row *rows = malloc(k * sizeof *rows); /* assemble frees the array */
        if (!rows) {
            status = qsb_out_of_memory("results");
            break;
        }
        k = 0;
        for (size_t i = 0; i < r->nrows; i++)
            if (group[i] == g) {
                rows[k++] = r->rows[i];
                memset(&r->rows[i], 0, sizeof r->rows[i]);
            }
        empty_context(&out[g].context);
        if (r->machine_at >= 0 && qsb_set_string(&out[g].context.machine, names[g]) != 0) {
            qsb_loose_rows_free(rows, k);
            status = qsb_out_of_memory("results");
            break;
        }
        status = qsb_results_assemble(name, rows, k, &out[g]);
        if (status == QSB_OK)
            done++;
    }
    free(group);
    free(names);
    if (status != QSB_OK) {
        for (size_t g = 0; g < done; g++)
            qsb_results_free(&out[g]);
        free(out);
        return status;
    }
    *runs = out;
    *n = groups;
    return QSB_OK;
}

int qsb_read_csv_fleet(const char *name, const char *text, size_t len, qsb_results **runs,
                       size_t *n)
{
    *runs = NULL;
    *n = 0;
    struct csv_parser parser;
    if (csv_init(&parser, CSV_STRICT | CSV_STRICT_FINI) != 0)
        return qsb_out_of_memory("CSV parser");
    csv_reader r = {.path = name, .status = QSB_OK, .machine_at = -1};
    int status = feed(&r, &parser, text, len);
    csv_free(&parser);
    clear_fields(&r);
    free(r.fields);
    if (status == QSB_OK && !r.have_header)
        status = qsb_error(QSB_EUSAGE, "%s: empty file: no results", name);
    if (status == QSB_OK && r.nrows == 0) { /* a header alone: one machine, no cells */
        qsb_results *one = calloc(1, sizeof *one);
        if (!one)
            status = qsb_out_of_memory("results");
        else {
            empty_context(&one->context);
            qsb_loose_row *none = malloc(sizeof *none);
            status = none ? qsb_results_assemble(name, none, 0, one)
                          : qsb_out_of_memory("results");
            if (status == QSB_OK) {
                *runs = one;
                *n = 1;
            } else {
                free(one);
            }
        }
    } else if (status == QSB_OK) {
        status = assemble_machines(name, &r, runs, n);
    }
    qsb_loose_rows_free(r.rows, r.nrows); /* what assemble did not take (zeroed rows) */
    free_machines(&r);
    return status;
}
