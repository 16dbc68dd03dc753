/*
** The common part of the results readers (read_results.h): loading a file, telling CSV from
** JSON, strict number parsing, and assembling file rows into cells with the consistency
** checks both formats need.
*/
#include "read_results.h"

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "diag.h"
#include "infile.h"

int qsb_text_to_u64(const char *text, int hex_ok, uint64_t *out)
{
    int base = 10;
    if (hex_ok && (strncmp(text, "0x", 2) == 0 || strncmp(text, "0X", 2) == 0)) {
        base = 16;
        text += 2;
    }
    /* strtoull would accept blanks, a sign and its own prefix: allow digits only. */
    size_t len = strlen(text);
    if (len == 0 || strspn(text, base == 16 ? "0123456789abcdefABCDEF" : "0123456789") != len)
        return -1;
    errno = 0;
    unsigned long long v = strtoull(text, NULL, base);
    if (errno == ERANGE)
        return -1;
    *out = v;
    return 0;
}

int qsb_text_to_double(const char *text, double *out)
{
    /* strtod would also take "inf", "nan", hex floats and leading blanks. */
    size_t len = strlen(text);
    if (len == 0 || strspn(text, "0123456789+-.eE") != len)
        return -1;
    char *end;
    errno = 0;
    double v = strtod(text, &end); /* the tool never calls setlocale: '.' is the point */
    if (*end != '\0' || end == text || !isfinite(v))
        return -1;
    *out = v;
    return 0;
}

/* ---- grouping ---- */

typedef struct {
    const qsb_file_row *rows;
} group_ctx;

/* Orders row indices by cell, then algorithm, then position in the file. */
static int by_cell_algorithm(const void *pa, const void *pb, void *ctx)
{
    const qsb_file_row *rows = ((const group_ctx *)ctx)->rows;
    size_t ia = *(const size_t *)pa, ib = *(const size_t *)pb;
    const qsb_file_row *a = &rows[ia], *b = &rows[ib];
    int c = strcmp(a->pattern, b->pattern);
    if (c == 0)
        c = (a->nelem > b->nelem) - (a->nelem < b->nelem);
    if (c == 0)
        c = (a->size > b->size) - (a->size < b->size);
    if (c == 0)
        c = strcmp(a->row.algorithm, b->row.algorithm);
    return c ? c : (ia > ib) - (ia < ib);
}

static int same_cell(const qsb_file_row *a, const qsb_file_row *b)
{
    return strcmp(a->pattern, b->pattern) == 0 && a->nelem == b->nelem && a->size == b->size;
}

static int by_index(const void *pa, const void *pb)
{
    size_t a = *(const size_t *)pa, b = *(const size_t *)pb;
    return (a > b) - (a < b);
}

typedef struct {
    size_t first; /* position in the sorted index array */
    size_t count;
} group;

static int by_first_row(const void *pa, const void *pb, void *ctx)
{
    const size_t *order = ctx;
    size_t a = order[((const group *)pa)->first], b = order[((const group *)pb)->first];
    return (a > b) - (a < b);
}

static int check_agreement(const char *name, const qsb_file_row *rows, size_t n,
                           const char *metric, const char *baseline)
{
    for (size_t i = 0; i < n; i++) {
        const qsb_file_row *r = &rows[i];
        if (strcmp(r->metric, metric) != 0)
            return qsb_error(QSB_EUSAGE,
                             "%s%s: metric '%s' differs from '%s' of the rest of the file",
                             name, r->where, qsb_quote(r->metric), qsb_quote(metric));
        if (strcmp(r->baseline, baseline) != 0)
            return qsb_error(QSB_EUSAGE,
                             "%s%s: baseline '%s' differs from '%s' of the rest of the file",
                             name, r->where, qsb_quote(r->baseline), qsb_quote(baseline));
        if (r->has_samples && r->reps != r->row.nsamples)
            return qsb_error(QSB_EUSAGE, "%s%s: reps is %llu but there are %zu samples "
                             "(truncated?)", name, r->where, (unsigned long long)r->reps,
                             r->row.nsamples);
    }
    if (strcmp(metric, "cycles") != 0 && strcmp(metric, "ns") != 0 &&
        strcmp(metric, "comparisons") != 0)
        return qsb_error(QSB_EUSAGE, "%s%s: unknown metric '%s' (cycles, ns or comparisons)",
                         name, rows[0].where, qsb_quote(metric));
    return QSB_OK;
}

/* Sorted order of the rows, split into groups of one cell each; rejects duplicate rows. */
static int group_rows(const char *name, const qsb_file_row *rows, size_t n, size_t *order,
                      group *groups, size_t *ngroups)
{
    for (size_t i = 0; i < n; i++)
        order[i] = i;
    group_ctx ctx = {rows};
    qsort_r(order, n, sizeof *order, by_cell_algorithm, &ctx);
    size_t g = 0;
    for (size_t i = 0; i < n; i++) {
        const qsb_file_row *r = &rows[order[i]];
        if (i > 0 && same_cell(&rows[order[i - 1]], r)) {
            if (strcmp(rows[order[i - 1]].row.algorithm, r->row.algorithm) == 0)
                return qsb_error(QSB_EUSAGE, "%s%s: a second row for %s/%llu/%llu/%s",
                                 name, r->where, qsb_quote(r->pattern),
                                 (unsigned long long)r->nelem, (unsigned long long)r->size,
                                 qsb_quote(r->row.algorithm));
            groups[g - 1].count++;
        } else {
            groups[g].first = i;
            groups[g].count = 1;
            g++;
        }
    }
    *ngroups = g;
    return QSB_OK;
}

/* Moves one group's rows into a cell: file order, the baseline row rotated to the front. */
static int build_cell(const char *name, qsb_file_row *rows, size_t *members, size_t count,
                      const char *baseline, qsb_cell *cell)
{
    qsort(members, count, sizeof *members, by_index);
    size_t base_pos = count;
    for (size_t j = 0; j < count; j++)
        if (strcmp(rows[members[j]].row.algorithm, baseline) == 0)
            base_pos = j;
    if (base_pos == count) {
        const qsb_file_row *r = &rows[members[0]];
        return qsb_error(QSB_EUSAGE, "%s%s: cell %s/%llu/%llu has no row of the baseline '%s'",
                         name, r->where, qsb_quote(r->pattern), (unsigned long long)r->nelem,
                         (unsigned long long)r->size, qsb_quote(baseline));
    }
    cell->rows = calloc(count, sizeof *cell->rows);
    if (!cell->rows)
        return qsb_out_of_memory("results");
    cell->nrows = count;
    qsb_file_row *first = &rows[members[0]];
    cell->pattern = first->pattern;
    cell->nelem = first->nelem;
    cell->size = first->size;
    first->pattern = NULL;
    size_t k = 0;
    cell->rows[k++] = rows[members[base_pos]].row;
    for (size_t j = 0; j < count; j++)
        if (j != base_pos)
            cell->rows[k++] = rows[members[j]].row;
    for (size_t j = 0; j < count; j++)
        memset(&rows[members[j]].row, 0, sizeof rows[members[j]].row);
    return QSB_OK;
}

static char *take(char **s)
{
    char *t = *s;
    *s = NULL;
    return t;
}

static int fill_context_from_rows(qsb_file_row *rows, qsb_results *out)
{
    qsb_context *c = &out->context;
    if (!out->baseline)
        out->baseline = take(&rows[0].baseline);
    if (!c->metric)
        c->metric = take(&rows[0].metric);
    if (!c->mode && rows[0].mode)
        c->mode = take(&rows[0].mode);
    if (!c->seed && rows[0].has_seed)
        c->seed = rows[0].seed;
    c->incomplete |= rows[0].incomplete; /* every row of a file carries the run's flag */
    return QSB_OK;
}

/* Once the rows agree, their copies of the run's baseline, metric and mode say nothing the
** first row does not: freed before the cells are built (a large file's peak memory). */
static void drop_agreed_copies(qsb_file_row *rows, size_t n)
{
    for (size_t i = 1; i < n; i++) {
        free(take(&rows[i].baseline));
        free(take(&rows[i].metric));
        free(take(&rows[i].mode));
    }
}

static void results_clear(qsb_results *out)
{
    qsb_results_free(out);
    memset(out, 0, sizeof *out);
}

int qsb_results_assemble(const char *name, qsb_file_row *rows, size_t n, qsb_results *out)
{
    size_t *order = NULL;
    group *groups = NULL;
    size_t ngroups = 0;
    int status;
    if (n == 0) {
        status = qsb_error(QSB_EUSAGE, "%s: no result rows", name);
        goto done;
    }
    status = check_agreement(name, rows, n, out->context.metric ? out->context.metric
                                                                : rows[0].metric,
                             out->baseline ? out->baseline : rows[0].baseline);
    if (status != QSB_OK)
        goto done;
    drop_agreed_copies(rows, n);
    order = malloc(n * sizeof *order);
    groups = malloc(n * sizeof *groups);
    if (!order || !groups) {
        status = qsb_out_of_memory("results");
        goto done;
    }
    status = group_rows(name, rows, n, order, groups, &ngroups);
    if (status != QSB_OK)
        goto done;
    qsort_r(groups, ngroups, sizeof *groups, by_first_row, order);
    fill_context_from_rows(rows, out);
    out->cells = calloc(ngroups, sizeof *out->cells);
    if (!out->cells) {
        status = qsb_out_of_memory("results");
        goto done;
    }
    for (size_t g = 0; g < ngroups && status == QSB_OK; g++) {
        status = build_cell(name, rows, order + groups[g].first, groups[g].count,
                            out->baseline, &out->cells[g]);
        if (status == QSB_OK)
            out->ncells = g + 1;
    }
done:
    free(order);
    free(groups);
    qsb_file_rows_free(rows, n);
    if (status != QSB_OK)
        results_clear(out);
    return status;
}

/* ---- loading and format detection ---- */

static size_t line_of(const char *text, size_t offset)
{
    size_t line = 1;
    for (size_t i = 0; i < offset; i++)
        line += text[i] == '\n';
    return line;
}

int qsb_read_fleet(const char *path, qsb_results **runs, size_t *n)
{
    *runs = NULL;
    *n = 0;
    char shown[QSB_QUOTE_PATH_MAX + 1]; /* the path, escaped once for every message */
    snprintf(shown, sizeof shown, "%s", qsb_quote_path(path));
    char *text = NULL;
    size_t len = 0;
    int status = qsb_read_input_file(path, "", NULL, &text, &len);
    if (status != QSB_OK)
        return status;
    /* A NUL would silently cut a field short in both parsers. */
    const char *nul = memchr(text, '\0', len);
    size_t bom = len >= 3 && memcmp(text, "\xEF\xBB\xBF", 3) == 0 ? 3 : 0; /* spreadsheets */
    size_t start = bom;
    while (start < len && strchr(" \t\r\n", text[start]))
        start++;
    if (nul)
        status = qsb_error(QSB_EUSAGE, "%s:%zu: a NUL byte: not a text results file", shown,
                           line_of(text, (size_t)(nul - text)));
    else if (start == len)
        status = qsb_error(QSB_EUSAGE, "%s: empty file: no results", shown);
    else if (text[start] == '{' || text[start] == '[')
        status = qsb_read_json_fleet(shown, text, len, runs, n);
    else
        status = qsb_read_csv_fleet(shown, text + bom, len - bom, runs, n);
    free(text);
    return status;
}

int qsb_read_results(const char *path, qsb_results *out)
{
    qsb_results *runs = NULL;
    size_t n = 0;
    memset(out, 0, sizeof *out);
    int status = qsb_read_fleet(path, &runs, &n);
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
