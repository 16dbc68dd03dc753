/*
** Rows grouped into cells as the readers parse them (assemble.h, qsb_assembler), full or slim
** (result.h qsb_slim_row: what compare reads of a row, packed into one block of the store, and
** given back as a qsb_row view), and the strict parsing of the files' fields. A large file's rows
** never exist as one flat array: each row goes straight into its cell, with only its qsb_row or
** its slim row kept; the run's baseline, metric and mode are kept once. The cells' and rows' texts
** and arrays go into the results' store (result.h), each pattern and algorithm name once. The
** checks of the whole file (agreement, duplicates, a baseline row in every cell) are decided as
** rows come and reported at the end, in the order a reader of the finished file would name them.
*/
#include "assemble.h"

#include <errno.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "diag.h"
#include "grow.h"

/* ---- slim rows: what compare reads of a row, packed into one block of the store ---- */

/* Holding a file of millions of rows in under three times its size rests on this size. */
_Static_assert(sizeof(qsb_slim_row) == 40, "a slim row is 40 bytes");
_Static_assert(sizeof(qsb_cell) == 40, "a cell is 40 bytes");

/* The block's parts in order: samples, states, units, failure (the doubles first, so that
** each part is aligned for its type). */
typedef struct {
    size_t samples, states, units, failure;
} block_sizes;

static block_sizes sizes_of(const qsb_row *row)
{
    size_t n = row->samples ? row->nsamples : 0;
    return (block_sizes){n * sizeof(double), row->nstates * sizeof(qsb_state_estimate),
                         row->units ? n * sizeof(uint32_t) : 0,
                         row->failure ? strlen(row->failure) + 1 : 0};
}

/* A part of the block; an absent one (NULL, 0 bytes) copies nothing. */
static void copy_part(char *to, const void *from, size_t bytes)
{
    if (bytes)
        memcpy(to, from, bytes);
}

/* The slim form of row, its arrays and texts copied into one block of the store (the
** algorithm's text is kept as given: the caller stores names once). 0, or -1 when out of
** memory. */
static int slim_row_pack(qsb_store **store, const qsb_row *row, qsb_slim_row *out)
{
    block_sizes z = sizes_of(row);
    size_t bytes = z.samples + z.states + z.units + z.failure;
    *out = (qsb_slim_row){.algorithm = row->algorithm,
                          .median = row->summary.median,
                          .comparisons = row->comparisons,
                          /* below 2^32: the readers' size cap */
                          .nsamples = row->samples ? (uint32_t)row->nsamples : 0,
                          .verified = row->verified,
                          .has_units = row->units != NULL,
                          .has_failure = row->failure != NULL,
                          .nstates = row->nstates};
    if (bytes == 0)
        return 0;
    char *block = qsb_store_alloc(store, bytes);
    if (!block)
        return -1;
    copy_part(block, row->samples, z.samples);
    copy_part(block + z.samples, row->states, z.states);
    copy_part(block + z.samples + z.states, row->units, z.units);
    copy_part(block + z.samples + z.states + z.units, row->failure, z.failure);
    out->block = block;
    return 0;
}

void qsb_slim_row_view(const qsb_slim_row *slim, qsb_row *row)
{
    const char *at = slim->block;
    size_t n = slim->nsamples;
    double nan = NAN;
    *row = (qsb_row){.algorithm = (char *)slim->algorithm,
                     .nsamples = n,
                     .summary = {nan, slim->median, nan, nan, nan, nan, nan, 0},
                     .delta_pct = nan,
                     .delta_lo = nan,
                     .delta_hi = nan,
                     .comparisons = slim->comparisons,
                     .verified = slim->verified};
    if (!at)
        return;
    row->samples = n ? (double *)at : NULL;
    at += n * sizeof(double);
    row->states = slim->nstates ? (qsb_state_estimate *)at : NULL;
    row->nstates = slim->nstates;
    at += slim->nstates * sizeof(qsb_state_estimate);
    row->units = slim->has_units ? (uint32_t *)at : NULL;
    at += slim->has_units ? n * sizeof(uint32_t) : 0;
    row->failure = slim->has_failure ? (char *)at : NULL;
}

/* ---- the fields' numbers ---- */

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

/* ---- an open-addressing table of indices (0: an empty slot, else index + 1) ---- */

typedef struct {
    size_t *slot;
    size_t mask; /* slots - 1, a power of two less one */
    size_t used;
} index_table;

typedef uint64_t (*hash_fn)(const void *ctx, size_t index);

static int table_init(index_table *t)
{
    t->mask = 1023;
    t->used = 0;
    t->slot = calloc(t->mask + 1, sizeof *t->slot);
    return t->slot ? 0 : -1;
}

/* Doubles the table when half full: probes stay short. */
static int table_grow(index_table *t, hash_fn hash, const void *ctx)
{
    if (2 * (t->used + 1) <= t->mask + 1)
        return 0;
    size_t mask = 2 * t->mask + 1;
    size_t *slot = calloc(mask + 1, sizeof *slot);
    if (!slot)
        return -1;
    for (size_t i = 0; i <= t->mask; i++) {
        if (!t->slot[i])
            continue;
        size_t at = (size_t)hash(ctx, t->slot[i] - 1) & mask;
        while (slot[at])
            at = (at + 1) & mask;
        slot[at] = t->slot[i];
    }
    free(t->slot);
    t->slot = slot;
    t->mask = mask;
    return 0;
}

static uint64_t hash_text(uint64_t h, const char *s)
{
    for (; *s; s++)
        h = (h ^ (unsigned char)*s) * 0x100000001b3u; /* FNV-1a */
    return h;
}

static uint64_t hash_u64(uint64_t h, uint64_t v)
{
    h ^= v + 0x9e3779b97f4a7c15u + (h << 6) + (h >> 2);
    return h * 0xff51afd7ed558ccdu;
}

/* ---- the assembler ---- */

typedef enum { AGREE_OK, AGREE_METRIC, AGREE_BASELINE, AGREE_REPS } agree_kind;

struct qsb_assembler {
    const char *name;
    qsb_row_places places;  /* CSV lines or JSON results indices */
    qsb_rows_view view;     /* rows kept in full or slim */
    qsb_results *out;       /* the cells are built in it */
    size_t cap_cells;
    size_t *first_place;    /* each cell's first row, where its messages point */
    index_table cells;      /* (pattern, nelem, size) -> cell */
    index_table rows;       /* (cell, algorithm) -> cell: a second row is a duplicate */
    char **names;           /* the patterns and algorithms stored so far, each once */
    size_t nnames, cap_names;
    index_table by_name;    /* name -> its index in names */
    size_t nrows;
    size_t place0;          /* the first row's place */
    char *metric, *baseline; /* what every row must say: the context's, else the first row's */
    agree_kind agree;       /* the first row that disagrees (file order) */
    size_t agree_place;
    char *agree_text;
    uint64_t agree_reps;
    size_t agree_samples;
    bool dup;               /* the duplicate a sorted reading meets first: the least key */
    size_t dup_cell, dup_row, dup_place;
    int status;             /* QSB_ESYSTEM once out of memory (reported) */
};

/* Row positions of the rows table: cell index and row index, packed. */
#define ROW_SHIFT 32

static void place_text(const qsb_assembler *a, size_t place, char *buf, size_t size)
{
    if (a->places == QSB_PLACES_JSON_RESULTS)
        snprintf(buf, size, ": results[%zu]", place);
    else
        snprintf(buf, size, ":%zu", place);
}

static uint64_t cell_key_hash(const char *pattern, uint64_t nelem, uint64_t size)
{
    return hash_u64(hash_u64(hash_text(0xcbf29ce484222325u, pattern), nelem), size);
}

static uint64_t hash_cell(const void *ctx, size_t index)
{
    const qsb_cell *c = &((const qsb_assembler *)ctx)->out->cells[index];
    return cell_key_hash(c->pattern, c->nelem, c->size);
}

static uint64_t hash_name(const void *ctx, size_t index)
{
    return hash_text(0xcbf29ce484222325u, ((const qsb_assembler *)ctx)->names[index]);
}

static uint64_t row_key_hash(size_t cell, const char *algorithm)
{
    return hash_text(hash_u64(0xcbf29ce484222325u, cell), algorithm);
}

static uint64_t hash_row(const void *ctx, size_t packed)
{
    const qsb_assembler *a = ctx;
    size_t cell = packed >> ROW_SHIFT, row = packed & (((size_t)1 << ROW_SHIFT) - 1);
    return row_key_hash(cell, qsb_cell_algorithm(&a->out->cells[cell], row));
}

qsb_assembler *qsb_assembler_new(const char *name, qsb_row_places places, qsb_rows_view view,
                                 qsb_results *out)
{
    qsb_assembler *a = calloc(1, sizeof *a);
    if (!a)
        return NULL;
    a->name = name;
    a->places = places;
    a->view = view;
    a->out = out;
    if (table_init(&a->cells) != 0 || table_init(&a->rows) != 0 ||
        table_init(&a->by_name) != 0) {
        qsb_assembler_free(a);
        return NULL;
    }
    return a;
}

void qsb_assembler_free(qsb_assembler *a)
{
    if (!a)
        return;
    free(a->first_place);
    free(a->cells.slot);
    free(a->rows.slot);
    free(a->by_name.slot);
    free(a->names);
    free(a->metric);
    free(a->baseline);
    free(a->agree_text);
    free(a);
}

static int out_of_memory(qsb_assembler *a)
{
    if (a->status == QSB_OK)
        a->status = qsb_out_of_memory("results");
    return a->status;
}

static char *take(char **s)
{
    char *t = *s;
    *s = NULL;
    return t;
}

/* The first row sets what the others must agree with (unless the context said it) and the
** run's fields the context lacks. */
static void first_row(qsb_assembler *a, qsb_file_row *fr, size_t place)
{
    qsb_results *out = a->out;
    qsb_context *c = &out->context;
    a->place0 = place;
    a->metric = take(c->metric ? &c->metric : &fr->metric);
    a->baseline = take(out->baseline ? &out->baseline : &fr->baseline);
    if (fr->mode && !c->mode)
        c->mode = take(&fr->mode);
    if (fr->run_id && !c->run_id)
        c->run_id = take(&fr->run_id);
    if (!c->seed && fr->has_seed)
        c->seed = fr->seed;
    c->incomplete |= fr->incomplete; /* every row of a file carries the run's flag */
}

/* Remembers the first row (in file order) that disagrees with the rest. */
static void check_agreement(qsb_assembler *a, const qsb_file_row *fr, size_t place)
{
    if (a->agree != AGREE_OK)
        return;
    /* NULL: the first row's own, taken as the reference. */
    const char *text = NULL;
    if (fr->metric && strcmp(fr->metric, a->metric) != 0) {
        a->agree = AGREE_METRIC;
        text = fr->metric;
    } else if (fr->baseline && strcmp(fr->baseline, a->baseline) != 0) {
        a->agree = AGREE_BASELINE;
        text = fr->baseline;
    } else if (fr->has_samples && fr->reps != fr->row.nsamples) {
        a->agree = AGREE_REPS;
    }
    if (a->agree == AGREE_OK)
        return;
    a->agree_place = place;
    a->agree_reps = fr->reps;
    a->agree_samples = fr->row.nsamples;
    if (text && !(a->agree_text = strdup(text)))
        out_of_memory(a);
}

/* A copy of text in the results' store; NULL when out of memory. */
static char *store_text(qsb_assembler *a, const char *text)
{
    size_t len = strlen(text) + 1;
    char *copy = qsb_store_alloc(&a->out->store, len);
    return copy ? memcpy(copy, text, len) : NULL;
}

/* The stored copy of a pattern or algorithm name, stored when new (a file has a handful of
** each, so most rows add nothing); NULL when out of memory. */
static char *stored_name(qsb_assembler *a, const char *name)
{
    if (table_grow(&a->by_name, hash_name, a) != 0)
        return NULL;
    size_t at = (size_t)hash_text(0xcbf29ce484222325u, name) & a->by_name.mask;
    for (; a->by_name.slot[at]; at = (at + 1) & a->by_name.mask)
        if (strcmp(a->names[a->by_name.slot[at] - 1], name) == 0)
            return a->names[a->by_name.slot[at] - 1];
    if (QSB_GROW(a->names, a->cap_names, a->nnames + 1) != 0)
        return NULL;
    char *copy = store_text(a, name);
    if (!copy)
        return NULL;
    a->names[a->nnames++] = copy;
    a->by_name.slot[at] = a->nnames;
    a->by_name.used++;
    return copy;
}

/* The row's texts and arrays replaced by copies in the store (fr keeps the originals, for
** qsb_file_row_free): samples, states and units in one block. False when out of memory. */
static bool store_row(qsb_assembler *a, qsb_row *row)
{
    size_t n = row->nsamples, ns = row->states ? row->nstates : 0;
    const double *samples = row->samples;
    const qsb_state_estimate *states = row->states;
    const uint32_t *units = row->units;
    if (!(row->algorithm = stored_name(a, row->algorithm)) ||
        (row->failure && !(row->failure = store_text(a, row->failure))))
        return false;
    if (!samples && !units && !states)
        return true;
    size_t bytes = n * sizeof *samples + ns * sizeof *states + (units ? n * sizeof *units : 0);
    double *block = n <= SIZE_MAX / (2 * (sizeof *samples + sizeof *units))
                        ? qsb_store_alloc(&a->out->store, bytes ? bytes : 1)
                        : NULL;
    if (!block)
        return false;
    row->samples = samples ? block : NULL;
    row->states = states ? (qsb_state_estimate *)(block + n) : NULL;
    row->units = units ? (uint32_t *)((qsb_state_estimate *)(block + n) + ns) : NULL;
    if (samples && n)
        memcpy(row->samples, samples, n * sizeof *samples);
    if (states)
        memcpy(row->states, states, ns * sizeof *states);
    if (units && n)
        memcpy(row->units, units, n * sizeof *units);
    return true;
}

/* The row appended to the cell, in full or slim: its texts and arrays in the store. False
** when out of memory. */
static bool keep_row(qsb_assembler *a, qsb_cell *cell, const qsb_row *row)
{
    if (a->view == QSB_ROWS_FULL) {
        cell->rows[cell->nrows] = *row;
        return store_row(a, &cell->rows[cell->nrows]);
    }
    qsb_row named = *row;
    return (named.algorithm = stored_name(a, row->algorithm)) &&
           slim_row_pack(&a->out->store, &named, &cell->slim[cell->nrows]) == 0;
}

/* The cell of the row's key, appended when new; SIZE_MAX when out of memory. */
static size_t find_cell(qsb_assembler *a, qsb_file_row *fr, size_t place)
{
    qsb_results *out = a->out;
    if (table_grow(&a->cells, hash_cell, a) != 0)
        return SIZE_MAX;
    size_t at = (size_t)cell_key_hash(fr->pattern, fr->nelem, fr->size) & a->cells.mask;
    for (; a->cells.slot[at]; at = (at + 1) & a->cells.mask) {
        const qsb_cell *c = &out->cells[a->cells.slot[at] - 1];
        if (c->nelem == fr->nelem && c->size == fr->size && strcmp(c->pattern, fr->pattern) == 0)
            return a->cells.slot[at] - 1;
    }
    size_t cap = a->cap_cells, places = a->cap_cells; /* the two grow alike */
    if (QSB_GROW(out->cells, cap, out->ncells + 1) != 0 ||
        QSB_GROW(a->first_place, places, cap) != 0)
        return SIZE_MAX;
    a->cap_cells = cap;
    char *pattern = stored_name(a, fr->pattern);
    if (!pattern)
        return SIZE_MAX;
    size_t index = out->ncells++;
    out->cells[index] = (qsb_cell){.pattern = pattern,
                                   .nelem = fr->nelem,
                                   .size = fr->size,
                                   .slim_rows = a->view == QSB_ROWS_SLIM};
    a->first_place[index] = place;
    a->cells.slot[at] = index + 1;
    a->cells.used++;
    return index;
}

/* Cells grow their rows one at a time up to ROWS_EXACT (most cells have a few rows: no room is
** left unused while the file is read, which for a file of millions of rows is most of what it
** costs), then by doubling (a cell of many rows is not copied quadratically). The room is
** implied by the count, so nothing more is kept per cell. */
#define ROWS_EXACT 16

/* The cell's rows, full or slim, as bytes of row_size each. */
static void *rows_of(const qsb_cell *cell)
{
    return cell->slim_rows ? (void *)cell->slim : (void *)cell->rows;
}

static void set_rows(qsb_cell *cell, void *rows)
{
    if (cell->slim_rows)
        cell->slim = rows;
    else
        cell->rows = rows;
}

static size_t row_size(const qsb_assembler *a)
{
    return a->view == QSB_ROWS_SLIM ? sizeof(qsb_slim_row) : sizeof(qsb_row);
}

static int room_for_row(const qsb_assembler *a, qsb_cell *cell)
{
    size_t n = cell->nrows;
    if (n >= ROWS_EXACT && (n & (n - 1)) != 0)
        return 0;
    size_t cap = n < ROWS_EXACT ? n + 1 : 2 * n;
    void *grown = realloc(rows_of(cell), cap * row_size(a));
    if (!grown)
        return -1;
    set_rows(cell, grown);
    return 0;
}

static int key_order(const qsb_assembler *a, size_t cell_x, size_t row_x, size_t cell_y,
                     size_t row_y)
{
    const qsb_cell *x = &a->out->cells[cell_x], *y = &a->out->cells[cell_y];
    int c = strcmp(x->pattern, y->pattern);
    if (c == 0)
        c = (x->nelem > y->nelem) - (x->nelem < y->nelem);
    if (c == 0)
        c = (x->size > y->size) - (x->size < y->size);
    return c ? c : strcmp(qsb_cell_algorithm(x, row_x), qsb_cell_algorithm(y, row_y));
}

/* A second row of a (cell, algorithm): the one of the least key is reported, as an ordered
** reading of the whole file would meet it first. */
static void note_duplicate(qsb_assembler *a, size_t cell, size_t row, size_t place)
{
    if (a->dup && key_order(a, cell, row, a->dup_cell, a->dup_row) >= 0)
        return;
    a->dup = true;
    a->dup_cell = cell;
    a->dup_row = row;
    a->dup_place = place;
}

/* The row's algorithm in its cell: true when new (then recorded). */
static int new_algorithm(qsb_assembler *a, size_t cell, const char *algorithm, size_t place,
                         bool *fresh)
{
    if (table_grow(&a->rows, hash_row, a) != 0)
        return -1;
    size_t at = (size_t)row_key_hash(cell, algorithm) & a->rows.mask;
    const qsb_cell *c = &a->out->cells[cell];
    for (; a->rows.slot[at]; at = (at + 1) & a->rows.mask) {
        size_t packed = a->rows.slot[at] - 1, row = packed & (((size_t)1 << ROW_SHIFT) - 1);
        if ((packed >> ROW_SHIFT) == cell &&
            strcmp(qsb_cell_algorithm(c, row), algorithm) == 0) {
            note_duplicate(a, cell, row, place);
            *fresh = false;
            return 0;
        }
    }
    a->rows.slot[at] = ((cell << ROW_SHIFT) | c->nrows) + 1;
    a->rows.used++;
    *fresh = true;
    return 0;
}

int qsb_assembler_add(qsb_assembler *a, qsb_file_row *fr, size_t place)
{
    if (a->status == QSB_OK && a->nrows == 0)
        first_row(a, fr, place);
    if (a->status == QSB_OK)
        check_agreement(a, fr, place);
    size_t cell = a->status == QSB_OK ? find_cell(a, fr, place) : SIZE_MAX;
    bool fresh = false;
    if (a->status == QSB_OK &&
        (cell == SIZE_MAX || a->out->cells[cell].nrows >= ((size_t)1 << ROW_SHIFT) - 1 ||
         new_algorithm(a, cell, fr->row.algorithm, place, &fresh) != 0 ||
         (fresh && room_for_row(a, &a->out->cells[cell]) != 0)))
        out_of_memory(a);
    if (a->status == QSB_OK && fresh) {
        if (keep_row(a, &a->out->cells[cell], &fr->row))
            a->out->cells[cell].nrows++;
        else
            out_of_memory(a);
    }
    a->nrows++;
    qsb_file_row_free(fr);
    return a->status;
}

/* ---- the end: the checks in a fixed order, then the cells' final shape ---- */

static int report_agreement(const qsb_assembler *a)
{
    char where[48];
    place_text(a, a->agree_place, where, sizeof where);
    if (a->agree == AGREE_METRIC)
        return qsb_error(QSB_EUSAGE,
                         "%s%s: metric '%s' differs from '%s' of the rest of the file",
                         a->name, where, qsb_quote(a->agree_text), qsb_quote(a->metric));
    if (a->agree == AGREE_BASELINE)
        return qsb_error(QSB_EUSAGE,
                         "%s%s: baseline '%s' differs from '%s' of the rest of the file",
                         a->name, where, qsb_quote(a->agree_text), qsb_quote(a->baseline));
    return qsb_error(QSB_EUSAGE, "%s%s: reps is %llu but there are %zu samples (truncated?)",
                     a->name, where, (unsigned long long)a->agree_reps, a->agree_samples);
}

static int report_duplicate(const qsb_assembler *a)
{
    const qsb_cell *c = &a->out->cells[a->dup_cell];
    char where[48];
    place_text(a, a->dup_place, where, sizeof where);
    return qsb_error(QSB_EUSAGE, "%s%s: a second row for %s/%llu/%llu/%s", a->name, where,
                     qsb_quote(c->pattern), (unsigned long long)c->nelem,
                     (unsigned long long)c->size, qsb_quote(qsb_cell_algorithm(c, a->dup_row)));
}

static int check_file(const qsb_assembler *a)
{
    char where[48];
    place_text(a, a->place0, where, sizeof where);
    if (a->nrows == 0)
        return qsb_error(QSB_EUSAGE, "%s: no result rows", a->name);
    if (a->agree != AGREE_OK)
        return report_agreement(a);
    if (strcmp(a->metric, "cycles") != 0 && strcmp(a->metric, "ns") != 0 &&
        strcmp(a->metric, "comparisons") != 0)
        return qsb_error(QSB_EUSAGE, "%s%s: unknown metric '%s' (cycles, ns or comparisons)",
                         a->name, where, qsb_quote(a->metric));
    return a->dup ? report_duplicate(a) : QSB_OK;
}

/* The baseline's row first, the others in file order; its rows array exactly as long as
** the rows (result.c's builders extend arrays one element at a time). */
static int finish_cell(const qsb_assembler *a, size_t index)
{
    qsb_cell *cell = &a->out->cells[index];
    size_t base = 0;
    while (base < cell->nrows && strcmp(qsb_cell_algorithm(cell, base), a->baseline) != 0)
        base++;
    if (base == cell->nrows) {
        char where[48];
        place_text(a, a->first_place[index], where, sizeof where);
        return qsb_error(QSB_EUSAGE, "%s%s: cell %s/%llu/%llu has no row of the baseline '%s'",
                         a->name, where, qsb_quote(cell->pattern),
                         (unsigned long long)cell->nelem, (unsigned long long)cell->size,
                         qsb_quote(a->baseline));
    }
    size_t size = row_size(a);
    unsigned char *at = rows_of(cell), row[sizeof(qsb_row)];
    memcpy(row, at + base * size, size);
    memmove(at + size, at, base * size);
    memcpy(at, row, size);
    void *exact = realloc(at, cell->nrows * size);
    if (exact) /* a smaller block: failing keeps the larger */
        set_rows(cell, exact);
    return QSB_OK;
}

static void results_clear(qsb_results *out)
{
    qsb_results_free(out);
    memset(out, 0, sizeof *out);
}

int qsb_assembler_finish(qsb_assembler *a)
{
    qsb_results *out = a->out;
    int status = a->status != QSB_OK ? a->status : check_file(a);
    for (size_t c = 0; c < out->ncells && status == QSB_OK; c++)
        status = finish_cell(a, c);
    if (status == QSB_OK) {
        out->baseline = take(&a->baseline);
        out->context.metric = take(&a->metric);
        qsb_cell *exact = realloc(out->cells, (out->ncells ? out->ncells : 1) * sizeof *exact);
        out->cells = exact ? exact : out->cells;
    }
    qsb_assembler_free(a);
    if (status != QSB_OK)
        results_clear(out);
    return status;
}
