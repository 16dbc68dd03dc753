/*
** The CSV results reader (schema.h). Parsed with libcsv in strict mode, fed one physical line
** at a time so that every error can name its line. Columns are found by their header names:
** the schema's required columns must be there, the others may be, unknown columns are
** ignored.
*/
#include <csv.h>
#include <errno.h>
#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "diag.h"
#include "read_results.h"
#include "schema.h"

typedef struct {
    const char *path;     /* as messages show it: escaped already (read_results.h) */
    int status;
    size_t line;          /* physical line being fed to the parser */
    size_t record_line;   /* line where the current record's first field ended */
    char **fields;        /* the current record */
    size_t nfields, cap_fields;
    int have_header;
    size_t header_fields;
    long column_at[QSB_COLUMN_COUNT]; /* field index of each CSV column, -1: absent */
    long machine_at;      /* the fleet file's `machine` column (report.h), -1 when absent */
    char **machines;      /* each row's machine (owned), when machine_at >= 0 */
    size_t nmachines;     /* entries of machines set (rows read; they may be taken away) */
    qsb_file_row *rows;
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

/* "pattern,nelem,...,verified": the required columns, for the message that none is missing. */
static void required_names(char *buf, size_t len)
{
    size_t used = 0;
    buf[0] = '\0';
    for (size_t c = 0; c < QSB_COLUMN_COUNT && used < len; c++)
        if (qsb_columns[c].required)
            used += (size_t)snprintf(buf + used, len - used, "%s%s", used ? "," : "",
                                     qsb_columns[c].name);
}

static int read_header(csv_reader *r)
{
    for (size_t c = 0; c < QSB_COLUMN_COUNT; c++)
        r->column_at[c] = -1;
    r->machine_at = -1;
    for (size_t i = 0; i < r->nfields; i++) {
        if (strcmp(r->fields[i], "machine") == 0)
            r->machine_at = (long)i;
        for (size_t c = 0; c < QSB_COLUMN_COUNT; c++) {
            if (!qsb_columns[c].csv || strcmp(r->fields[i], qsb_columns[c].name) != 0)
                continue;
            if (r->column_at[c] >= 0)
                return qsb_error(QSB_EUSAGE, "%s:%zu: column '%s' appears twice", r->path,
                                 r->record_line, qsb_columns[c].name);
            r->column_at[c] = (long)i;
        }
    }
    for (size_t c = 0; c < QSB_COLUMN_COUNT; c++)
        if (qsb_columns[c].required && r->column_at[c] < 0) {
            char names[256];
            required_names(names, sizeof names);
            return qsb_error(QSB_EUSAGE, "%s:%zu: no column '%s': not a qsortbench results "
                             "file (the header must name %s)", r->path, r->record_line,
                             qsb_columns[c].name, names);
        }
    r->have_header = 1;
    r->header_fields = r->nfields;
    return QSB_OK;
}

/* ---- one data row ---- */

static int bad_field(const csv_reader *r, const qsb_column *c, const char *text,
                     const char *what)
{
    return qsb_error(QSB_EUSAGE, "%s:%zu: column '%s': '%s' is not %s", r->path,
                     r->record_line, c->name, qsb_quote(text), what);
}

static int parse_u64(const csv_reader *r, const qsb_column *c, const char *text, int hex_ok,
                     uint64_t *out)
{
    return qsb_text_to_u64(text, hex_ok, out) == 0
               ? QSB_OK
               : bad_field(r, c, text, hex_ok ? "a whole number (0x-hex)" : "a whole number");
}

/* Empty means unknown (NAN), as the writers put it. */
static int parse_double(const csv_reader *r, const qsb_column *c, const char *text, double *out)
{
    if (*text == '\0') {
        *out = NAN;
        return QSB_OK;
    }
    return qsb_text_to_double(text, out) == 0 ? QSB_OK
                                              : bad_field(r, c, text, "a finite number");
}

static int parse_bool(const csv_reader *r, const qsb_column *c, const char *text, bool *out)
{
    if (strcmp(text, "true") == 0 || strcmp(text, "false") == 0) {
        *out = text[0] == 't';
        return QSB_OK;
    }
    return bad_field(r, c, text, "true or false");
}

static int parse_name(const csv_reader *r, const qsb_column *c, const char *text, char **out)
{
    if (*text == '\0')
        return qsb_error(QSB_EUSAGE, "%s:%zu: column '%s' is empty", r->path, r->record_line,
                         c->name);
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

/* ---- the format's column readers (schema.h): ctx is a csv_field ---- */

typedef struct {
    const csv_reader *r;
    const char *text; /* the row's field of the column */
} csv_field;

static int csv_text(void *ctx, const qsb_column *c, char **out)
{
    const csv_field *f = ctx;
    return c->required || *f->text ? parse_name(f->r, c, f->text, out) : QSB_OK;
}

static int csv_count(void *ctx, const qsb_column *c, uint64_t *out)
{
    const csv_field *f = ctx;
    return parse_u64(f->r, c, f->text, 0, out);
}

static int csv_number(void *ctx, const qsb_column *c, double *out)
{
    const csv_field *f = ctx;
    return parse_double(f->r, c, f->text, out);
}

static int csv_flag(void *ctx, const qsb_column *c, bool *out)
{
    const csv_field *f = ctx;
    return parse_bool(f->r, c, f->text, out);
}

static int csv_seed(void *ctx, const qsb_column *c, uint64_t *out, int *found)
{
    const csv_field *f = ctx;
    *found = *f->text != '\0';
    return *found ? parse_u64(f->r, c, f->text, 1, out) : QSB_OK;
}

static int csv_samples(void *ctx, const qsb_column *c, qsb_file_row *fr)
{
    const csv_field *f = ctx;
    (void)c;
    fr->has_samples = 1;
    return parse_samples(f->r, f->text, &fr->row);
}

static int csv_units(void *ctx, const qsb_column *c, qsb_row *row)
{
    const csv_field *f = ctx;
    (void)c;
    return parse_units(f->r, f->text, row);
}

static int csv_unfit(void *ctx, const qsb_column *c, const char *why)
{
    const csv_field *f = ctx;
    return bad_field(f->r, c, f->text, why);
}

static const qsb_column_reader csv_columns = {
    csv_text, csv_count, csv_number, csv_flag, csv_seed, csv_samples, csv_units, csv_unfit,
};

static int read_row(csv_reader *r)
{
    if (r->nfields != r->header_fields)
        return qsb_error(QSB_EUSAGE, "%s:%zu: %zu fields, but the header has %zu%s", r->path,
                         r->record_line, r->nfields, r->header_fields,
                         r->nfields < r->header_fields ? " (truncated?)" : "");
    if (r->nrows == r->cap_rows) { /* only when the lines undercounted the rows */
        size_t cap = r->cap_rows ? 2 * r->cap_rows : 64;
        qsb_file_row *bigger = realloc(r->rows, cap * sizeof *bigger);
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
    r->nmachines = r->nrows + 1;
    if (r->machine_at >= 0 && !(r->machines[r->nrows] = strdup(r->fields[r->machine_at])))
        return qsb_out_of_memory("results");
    char where[32];
    snprintf(where, sizeof where, ":%zu", r->record_line);
    qsb_file_row *lr = &r->rows[r->nrows++];
    qsb_file_row_init(lr, where); /* optional columns that are absent stay unknown */
    int status = QSB_OK;
    for (size_t c = 0; c < QSB_COLUMN_COUNT && status == QSB_OK; c++) {
        if (r->column_at[c] < 0)
            continue;
        csv_field field = {r, r->fields[r->column_at[c]]};
        status = qsb_read_column(&csv_columns, &field, &qsb_columns[c], lr);
    }
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

/* Room for one row per line, made once: a large file's rows array is its largest allocation,
** and doubling it would leave up to half of it unused (and need both copies while it moves). */
static int reserve_rows(csv_reader *r, const char *text, size_t len)
{
    size_t lines = 1;
    for (const char *p = text; (p = memchr(p, '\n', len - (size_t)(p - text))) != NULL; p++)
        lines++;
    r->rows = malloc(lines * sizeof *r->rows);
    r->machines = malloc(lines * sizeof *r->machines);
    if (!r->rows || !r->machines)
        return qsb_out_of_memory("results");
    r->cap_rows = lines;
    return QSB_OK;
}

static void free_machines(csv_reader *r)
{
    for (size_t i = 0; r->machines && i < r->nmachines; i++)
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

/* One machine's rows, moved into an array of their own (assemble frees it); NULL when out of
** memory. */
static qsb_file_row *take_group(csv_reader *r, const size_t *group, size_t g, size_t *k)
{
    *k = 0;
    for (size_t i = 0; i < r->nrows; i++)
        *k += group[i] == g;
    qsb_file_row *rows = malloc((*k ? *k : 1) * sizeof *rows);
    if (!rows)
        return NULL;
    *k = 0;
    for (size_t i = 0; i < r->nrows; i++)
        if (group[i] == g) {
            rows[(*k)++] = r->rows[i];
            memset(&r->rows[i], 0, sizeof r->rows[i]);
        }
    return rows;
}

/* Every row, when they are all one machine's: the array itself, not a copy of it. */
static qsb_file_row *take_all_rows(csv_reader *r, size_t *k)
{
    qsb_file_row *rows = r->rows;
    *k = r->nrows;
    r->rows = NULL;
    r->nrows = 0;
    return rows;
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
        qsb_file_row *rows = groups == 1 ? take_all_rows(r, &k) : take_group(r, group, g, &k);
        if (!rows) {
            status = qsb_out_of_memory("results");
            break;
        }
        empty_context(&out[g].context);
        if (r->machine_at >= 0 && qsb_set_string(&out[g].context.machine, names[g]) != 0) {
            qsb_file_rows_free(rows, k);
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
    int status = reserve_rows(&r, text, len);
    if (status == QSB_OK)
        status = feed(&r, &parser, text, len);
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
            qsb_file_row *none = malloc(sizeof *none);
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
    qsb_file_rows_free(r.rows, r.nrows); /* what assemble did not take (zeroed rows) */
    free_machines(&r);
    return status;
}
