/*
** The results readers' entry points (read_results.h): loading a file and telling CSV from JSON
** (the readers' shared part: assemble.h), and the CSV reader, fed the file in pieces.
*/
#include "read_results.h"

#include <csv.h>
#include <errno.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "assemble.h"
#include "diag.h"
#include "grow.h"
#include "infile.h"
#include "schema.h"
#include "states_text.h"

/* ---- The CSV results reader (schema.h). Parsed with libcsv in strict mode, fed one physical
** line at a time so that every error can name its line; the text comes in pieces, as the file
** is read (below), so a large file is never held whole. Columns are found by their header
** names: the schema's required columns must be there, the others may be, unknown columns are
** ignored. ---- */

/* One machine's rows (a file without a `machine` column is one machine), assembled into
** cells as they are read. */
typedef struct {
    char *machine;        /* "" without the column */
    qsb_results run;
    qsb_assembler *cells; /* NULL once finished */
} machine_rows;

typedef struct {
    const char *path;     /* as messages show it: escaped already (read_results.h) */
    qsb_rows_view view;   /* the rows kept in full or slim */
    int status;
    struct csv_parser parser;
    bool ends_line;       /* the text so far ends with a newline */
    size_t line;          /* physical line being fed to the parser */
    size_t record_line;   /* line where the current record's first field ended */
    char **fields;        /* the current record: buffers kept from record to record */
    size_t *field_cap;    /* each buffer's room */
    size_t nfields, cap_fields;
    int have_header;
    size_t header_fields;
    long column_at[QSB_COLUMN_COUNT]; /* field index of each CSV column, -1: absent */
    long machine_at;      /* the fleet file's `machine` column (report.h), -1 when absent */
    machine_rows **machines; /* first appearance order */
    size_t nmachines, last;  /* last: the machine of the previous row (rows come in runs) */
    size_t cap_machines;
} csv_reader;

static void clear_fields(csv_reader *r)
{
    r->nfields = 0;
}

static void free_fields(csv_reader *r)
{
    for (size_t i = 0; i < r->cap_fields; i++)
        free(r->fields[i]);
    free(r->fields);
    free(r->field_cap);
}

/* The two arrays grow alike: each keeps its own capacity until both have grown. */
static int more_fields(csv_reader *r)
{
    size_t cap = r->cap_fields, room = r->cap_fields;
    if (QSB_GROW(r->fields, cap, cap + 1) != 0 || QSB_GROW(r->field_cap, room, cap) != 0)
        return -1;
    r->cap_fields = cap;
    return 0;
}

static void on_field(void *s, size_t len, void *data)
{
    csv_reader *r = data;
    if (r->status != QSB_OK)
        return;
    if (r->nfields == 0)
        r->record_line = r->line;
    if (r->nfields == r->cap_fields && more_fields(r) != 0) {
        r->status = qsb_out_of_memory("CSV record");
        return;
    }
    size_t i = r->nfields;
    if (QSB_GROW(r->fields[i], r->field_cap[i], len + 1) != 0) {
        r->status = qsb_out_of_memory("CSV field");
        return;
    }
    if (len)
        memcpy(r->fields[i], s, len);
    r->fields[i][len] = '\0';
    r->nfields++;
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
        if (strcmp(r->fields[i], qsb_context_keys[QSB_CONTEXT_machine].key) == 0)
            r->machine_at = (long)i;
        if (strcmp(r->fields[i], QSB_OLD_MODES_COLUMN) == 0)
            qsb_warning("%s: column '%s' (an earlier qsortbench's speed modes) is accepted and "
                        "not read: its rows have no states", r->path, QSB_OLD_MODES_COLUMN);
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

/* The states text (states_text.h), refused when malformed; empty: none. */
static int csv_states(void *ctx, const qsb_column *c, qsb_row *row)
{
    const csv_field *f = ctx;
    if (*f->text == '\0')
        return QSB_OK;
    qsb_state_estimate s[QSB_STATES_MAX];
    const char *why;
    size_t n = qsb_states_parse(f->text, s, &why);
    if (n == 0)
        return qsb_error(QSB_EUSAGE, "%s:%zu: column '%s': '%s' is not a row's states: %s",
                         f->r->path, f->r->record_line, c->name, qsb_quote(f->text), why);
    if (!(row->states = malloc(n * sizeof *s)))
        return qsb_out_of_memory("CSV states");
    memcpy(row->states, s, n * sizeof *s);
    row->nstates = (uint8_t)n;
    return QSB_OK;
}

static int csv_unfit(void *ctx, const qsb_column *c, const char *why)
{
    const csv_field *f = ctx;
    return bad_field(f->r, c, f->text, why);
}

static const qsb_column_reader csv_columns = {
    csv_text, csv_count, csv_number, csv_flag, csv_seed, csv_samples, csv_units, csv_states,
    csv_unfit,
};

static void empty_context(qsb_context *ctx) /* what a CSV cannot say: unknown */
{
    memset(ctx, 0, sizeof *ctx);
    ctx->pinned_cpu = -1;
    ctx->load_average = ctx->precision_pct = ctx->budget_s = NAN;
    ctx->memory_bound_bytes = ctx->memory_peak_bytes = NAN;
    ctx->drift_ratios = ctx->drift_medians = NAN;
}

static void free_machine(machine_rows *m)
{
    if (!m)
        return;
    qsb_assembler_free(m->cells);
    qsb_results_free(&m->run);
    free(m->machine);
    free(m);
}

/* A new machine's rows, named in the context when the file has the column. */
static machine_rows *new_machine(const csv_reader *r, const char *name)
{
    machine_rows *m = calloc(1, sizeof *m);
    if (!m)
        return NULL;
    empty_context(&m->run.context);
    m->machine = strdup(name);
    m->cells = qsb_assembler_new(r->path, QSB_PLACES_CSV_LINES, r->view, &m->run);
    if (!m->machine || !m->cells ||
        (r->machine_at >= 0 && qsb_set_string(&m->run.context.machine, name) != 0)) {
        free_machine(m);
        return NULL;
    }
    return m;
}

/* The rows of the machine called name (appended when new); NULL when out of memory. */
static machine_rows *machine_of(csv_reader *r, const char *name)
{
    if (r->nmachines && strcmp(r->machines[r->last]->machine, name) == 0)
        return r->machines[r->last];
    for (r->last = 0; r->last < r->nmachines; r->last++)
        if (strcmp(r->machines[r->last]->machine, name) == 0)
            return r->machines[r->last];
    if (QSB_GROW(r->machines, r->cap_machines, r->nmachines + 1) != 0 ||
        !(r->machines[r->nmachines] = new_machine(r, name)))
        return NULL;
    r->last = r->nmachines++;
    return r->machines[r->last];
}

static int parse_row(const csv_reader *r, qsb_file_row *lr)
{
    int status = QSB_OK;
    for (size_t c = 0; c < QSB_COLUMN_COUNT && status == QSB_OK; c++) {
        if (r->column_at[c] < 0)
            continue; /* optional columns that are absent stay unknown */
        csv_field field = {r, r->fields[r->column_at[c]]};
        status = qsb_read_column(&csv_columns, &field, &qsb_columns[c], lr);
    }
    if (status == QSB_OK && lr->row.verified && lr->row.failure)
        status = qsb_error(QSB_EUSAGE, "%s:%zu: verified, yet a failure is given", r->path,
                           r->record_line);
    return status;
}

/* One data row, straight into its machine's cells. */
static int read_row(csv_reader *r)
{
    if (r->nfields != r->header_fields)
        return qsb_error(QSB_EUSAGE, "%s:%zu: %zu fields, but the header has %zu%s", r->path,
                         r->record_line, r->nfields, r->header_fields,
                         r->nfields < r->header_fields ? " (truncated?)" : "");
    machine_rows *m = machine_of(r, r->machine_at >= 0 ? r->fields[r->machine_at] : "");
    if (!m)
        return qsb_out_of_memory("results");
    qsb_file_row lr;
    qsb_file_row_init(&lr);
    int status = parse_row(r, &lr);
    if (status != QSB_OK) {
        qsb_file_row_free(&lr);
        return status;
    }
    return qsb_assembler_add(m->cells, &lr, r->record_line);
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

/* The CSV reader takes the text in pieces, in order: begin (NULL when out of memory), a feed
** per piece (QSB_OK, or the status of the first defect, reported), then end, which reads what
** is left and hands over the runs when `status` (of the feeding and the file's reading) is
** QSB_OK, and frees the reader in any case. `name` is the file's name as messages show it:
** qsb_read_results escapes the path once (qsb_quote_path), and every value taken from the
** text is escaped where it is quoted. */
static csv_reader *csv_begin(const char *name, qsb_rows_view view)
{
    csv_reader *r = calloc(1, sizeof *r);
    if (!r || csv_init(&r->parser, CSV_STRICT | CSV_STRICT_FINI) != 0) {
        free(r);
        return NULL;
    }
    r->path = name;
    r->view = view;
    r->status = QSB_OK;
    r->line = 1;
    r->machine_at = -1;
    return r;
}

static int csv_feed(csv_reader *r, const char *text, size_t len)
{
    size_t pos = 0;
    while (pos < len && r->status == QSB_OK) {
        const char *nl = memchr(text + pos, '\n', len - pos);
        size_t chunk = nl ? (size_t)(nl - (text + pos)) + 1 : len - pos;
        if (csv_parse(&r->parser, text + pos, chunk, on_field, on_record, r) != chunk &&
            r->status == QSB_OK)
            r->status = qsb_error(QSB_EUSAGE, "%s:%zu: malformed CSV (%s)", r->path, r->line,
                                  csv_strerror(csv_error(&r->parser)));
        pos += chunk;
        r->line += nl != NULL;
    }
    if (len > 0)
        r->ends_line = text[len - 1] == '\n';
    return r->status;
}

/* The end of the text: what libcsv still holds is the last record. */
static int feed_end(csv_reader *r)
{
    size_t last_line = r->line - r->ends_line;
    if (r->status == QSB_OK && csv_fini(&r->parser, on_field, on_record, r) != 0 &&
        r->status == QSB_OK)
        r->status = qsb_error(QSB_EUSAGE, "%s:%zu: malformed CSV at the end of the file (%s: "
                              "truncated?)", r->path, last_line,
                              csv_strerror(csv_error(&r->parser)));
    return r->status;
}

/* Each machine's cells finished in first appearance order; the first defect stops. */
static int finish_machines(csv_reader *r, qsb_results **runs, size_t *n)
{
    int status = QSB_OK;
    for (size_t g = 0; g < r->nmachines && status == QSB_OK; g++) {
        status = qsb_assembler_finish(r->machines[g]->cells);
        r->machines[g]->cells = NULL;
    }
    qsb_results *out = status == QSB_OK ? calloc(r->nmachines, sizeof *out) : NULL;
    if (status == QSB_OK && !out)
        status = qsb_out_of_memory("results");
    for (size_t g = 0; g < r->nmachines && status == QSB_OK; g++) {
        out[g] = r->machines[g]->run;
        memset(&r->machines[g]->run, 0, sizeof out[g]);
    }
    if (status == QSB_OK) {
        *runs = out;
        *n = r->nmachines;
    }
    return status;
}

static int csv_end(csv_reader *r, int status, qsb_results **runs, size_t *n)
{
    *runs = NULL;
    *n = 0;
    if (status == QSB_OK)
        status = feed_end(r);
    csv_free(&r->parser);
    free_fields(r);
    if (status == QSB_OK && !r->have_header)
        status = qsb_error(QSB_EUSAGE, "%s: empty file: no results", r->path);
    if (status == QSB_OK && r->nmachines == 0 && !machine_of(r, "")) /* a header alone */
        status = qsb_out_of_memory("results");
    if (status == QSB_OK)
        status = finish_machines(r, runs, n);
    for (size_t g = 0; g < r->nmachines; g++)
        free_machine(r->machines[g]);
    free(r->machines);
    free(r);
    return status;
}

/* ---- The entry points ---- */

/* ---- format detection, then the reading ---- */

/* What a first pass over a file finds, before a parser sees a byte of it. */
typedef struct {
    size_t seen;          /* bytes so far */
    unsigned char head[3]; /* the first three: a UTF-8 byte order mark (spreadsheets)? */
    bool nul;             /* a NUL would silently cut a field short in both parsers */
    size_t nul_line;      /* the line of the first NUL */
    int first, first_after_head; /* the first byte that is not blank, from the start and
                                  ** after the head; -1: none */
} survey;

static int survey_piece(void *ctx, const char *bytes, size_t len)
{
    survey *s = ctx;
    for (size_t i = 0; i < len; i++, s->seen++) {
        unsigned char c = (unsigned char)bytes[i];
        if (s->seen < sizeof s->head)
            s->head[s->seen] = c;
        s->nul |= c == '\0';
        s->nul_line += !s->nul && c == '\n';
        bool blank = c == ' ' || c == '\t' || c == '\r' || c == '\n';
        if (!blank && s->first < 0)
            s->first = c;
        if (!blank && s->first_after_head < 0 && s->seen >= sizeof s->head)
            s->first_after_head = c;
    }
    return QSB_OK;
}

static size_t bom_length(const survey *s)
{
    return s->seen >= 3 && memcmp(s->head, "\xEF\xBB\xBF", 3) == 0 ? 3 : 0;
}

/* The CSV text, piece by piece, past the byte order mark. */
typedef struct {
    csv_reader *reader;
    size_t skip; /* bytes of the mark not yet passed */
} csv_pieces;

static int csv_piece(void *ctx, const char *bytes, size_t len)
{
    csv_pieces *c = ctx;
    size_t skip = c->skip < len ? c->skip : len;
    c->skip -= skip;
    return csv_feed(c->reader, bytes + skip, len - skip);
}

static int read_csv(const char *path, const char *shown, size_t bom, qsb_rows_view view,
                    qsb_results **runs, size_t *n)
{
    csv_pieces c = {csv_begin(shown, view), bom};
    if (!c.reader)
        return qsb_out_of_memory("CSV parser");
    int status = qsb_read_input_pieces(path, "", NULL, csv_piece, &c);
    return csv_end(c.reader, status, runs, n);
}

/* JSON is read whole, its rows parsed one at a time (read_json.c). */
static int read_json(const char *path, const char *shown, qsb_rows_view view,
                     qsb_results **runs, size_t *n)
{
    char *text = NULL;
    size_t len = 0;
    int status = qsb_read_input_file(path, "", NULL, &text, &len);
    if (status == QSB_OK)
        status = qsb_read_json_fleet(shown, text, len, view, runs, n);
    free(text);
    return status;
}

/* A fleet's machines are told apart by name (compare --machines, the exports' keys): two of
** one name are refused, the second named. */
static int check_machine_names(const char *shown, const qsb_results *runs, size_t n)
{
    for (size_t j = 1; j < n; j++)
        for (size_t i = 0; i < j; i++)
            if (strcmp(qsb_machine_name(&runs[i].context), qsb_machine_name(&runs[j].context)) ==
                0)
                return qsb_error(QSB_EUSAGE, "%s: machines[%zu] has the name '%s' of "
                                 "machines[%zu]: the machines of a fleet need different names",
                                 shown, j, qsb_quote(qsb_machine_name(&runs[j].context)), i);
    return QSB_OK;
}

/* The checks of a whole fleet after its reading (of that status); on failure *runs is freed. */
static int check_fleet(const char *shown, int status, qsb_results **runs, size_t *n)
{
    if (status == QSB_OK)
        status = check_machine_names(shown, *runs, *n);
    if (status != QSB_OK && *runs) {
        for (size_t i = 0; i < *n; i++)
            qsb_results_free(&(*runs)[i]);
        free(*runs);
        *runs = NULL;
        *n = 0;
    }
    return status;
}

static int read_fleet(const char *path, qsb_rows_view view, qsb_results **runs, size_t *n)
{
    *runs = NULL;
    *n = 0;
    char shown[QSB_QUOTE_PATH_MAX + 1]; /* the path, escaped once for every message */
    snprintf(shown, sizeof shown, "%s", qsb_quote_path(path));
    survey s = {.nul_line = 1, .first = -1, .first_after_head = -1};
    int status = qsb_read_input_pieces(path, "", NULL, survey_piece, &s);
    if (status != QSB_OK)
        return status;
    size_t bom = bom_length(&s);
    int first = bom ? s.first_after_head : s.first;
    if (s.nul)
        return qsb_error(QSB_EUSAGE, "%s:%zu: a NUL byte: not a text results file", shown,
                         s.nul_line);
    if (first < 0)
        return qsb_error(QSB_EUSAGE, "%s: empty file: no results", shown);
    if (first == '{' || first == '[')
        status = read_json(path, shown, view, runs, n);
    else
        status = read_csv(path, shown, bom, view, runs, n);
    return check_fleet(shown, status, runs, n);
}

int qsb_read_fleet(const char *path, qsb_results **runs, size_t *n)
{
    return read_fleet(path, QSB_ROWS_FULL, runs, n);
}

/* One machine's results, its rows kept as view says. */
static int read_one(const char *path, qsb_rows_view view, qsb_results *out)
{
    qsb_results *runs = NULL;
    size_t n = 0;
    memset(out, 0, sizeof *out);
    int status = read_fleet(path, view, &runs, &n);
    if (status != QSB_OK)
        return status;
    if (n != 1) {
        status = qsb_error(QSB_EUSAGE, "%s: a fleet file of %zu machines (from merge): plot "
                           "it, or compare two of its machines with --machines A,B",
                           qsb_quote_path(path), n);
        for (size_t i = 0; i < n; i++)
            qsb_results_free(&runs[i]);
    } else {
        *out = runs[0];
    }
    free(runs);
    return status;
}

int qsb_read_results(const char *path, qsb_results *out)
{
    return read_one(path, QSB_ROWS_FULL, out);
}

int qsb_read_compare_results(const char *path, qsb_results *out)
{
    return read_one(path, QSB_ROWS_SLIM, out);
}
