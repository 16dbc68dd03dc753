/*
** The one result structure's memory: freeing it, and the small builders the run and the
** readers use (see result.h); the walk that applies the time level (stats intervals.h) to its
** rows. Arrays grow one element at a time: a run has at most a few
** hundred cells and samples per row, and exact sizes keep every array safe to extend no
** matter who built it.
*/
#include "result.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "intervals.h"

/* Freed where a copy fails, and with the results; defined with what they free. */
static void context_free(qsb_context *c);
static void store_free(qsb_store *store);

int qsb_set_string(char **field, const char *value)
{
    char *copy = NULL;
    if (value && !(copy = strdup(value)))
        return -1;
    free(*field);
    *field = copy;
    return 0;
}

int qsb_row_init(qsb_row *row, const char *algorithm)
{
    memset(row, 0, sizeof *row);
    row->summary = (qsb_summary){NAN, NAN, NAN, NAN, NAN, NAN, NAN, 0};
    row->delta_pct = row->delta_lo = row->delta_hi = NAN;
    row->verified = true;
    return qsb_set_string(&row->algorithm, algorithm);
}

int qsb_row_add_sample(qsb_row *row, double value, uint32_t unit)
{
    double *grown = realloc(row->samples, (row->nsamples + 1) * sizeof *grown);
    if (!grown)
        return -1;
    row->samples = grown;
    uint32_t *units = realloc(row->units, (row->nsamples + 1) * sizeof *units);
    if (!units)
        return -1;
    row->units = units;
    grown[row->nsamples] = value;
    units[row->nsamples++] = unit;
    return 0;
}

size_t qsb_row_unit_count(const qsb_row *row)
{
    size_t count = 0;
    for (size_t i = 0; row->units && i < row->nsamples; i++)
        if (row->units[i] + (size_t)1 > count)
            count = row->units[i] + (size_t)1;
    return count;
}

int qsb_row_fail(qsb_row *row, const char *reason)
{
    row->verified = false;
    return qsb_set_string(&row->failure, reason);
}

void qsb_row_free(qsb_row *row)
{
    free(row->algorithm);
    free(row->samples);
    free(row->units);
    free(row->failure);
    free(row->states);
    memset(row, 0, sizeof *row);
}

/* stored: the cell's texts and arrays are in its results' store, freed with it. */
static void cell_free(qsb_cell *cell, bool stored)
{
    for (size_t i = 0; i < cell->nrows && !stored; i++)
        qsb_row_free(&cell->rows[i]); /* slim rows are only read: stored */
    free(cell->rows);
    if (!stored)
        free(cell->pattern);
    memset(cell, 0, sizeof *cell);
}

qsb_cell *qsb_results_add_cell(qsb_results *r, const char *pattern, uint64_t nelem,
                               uint64_t size, const char *const *algorithms, size_t nrows)
{
    qsb_cell cell = {.nelem = nelem,
                     .size = size,
                     .rows = calloc(nrows ? nrows : 1, sizeof(qsb_row)),
                     .nrows = nrows};
    int failed = !cell.rows || qsb_set_string(&cell.pattern, pattern) != 0;
    for (size_t i = 0; i < nrows && !failed; i++)
        failed = qsb_row_init(&cell.rows[i], algorithms[i]) != 0;
    qsb_cell *grown = failed ? NULL : realloc(r->cells, (r->ncells + 1) * sizeof *grown);
    if (!grown) {
        cell_free(&cell, false);
        return NULL;
    }
    r->cells = grown;
    r->cells[r->ncells] = cell;
    return &r->cells[r->ncells++];
}

/* dst (initialised by qsb_row_init) takes src's values, with copies of its arrays and texts. */
static int row_copy(qsb_row *dst, const qsb_row *src)
{
    char *algorithm = dst->algorithm;
    *dst = *src;
    dst->algorithm = algorithm;
    dst->samples = NULL;
    dst->units = NULL;
    dst->failure = NULL;
    dst->states = NULL;
    size_t n = src->nsamples ? src->nsamples : 1;
    if (src->samples && !(dst->samples = malloc(n * sizeof *dst->samples)))
        return -1;
    if (src->units && !(dst->units = malloc(n * sizeof *dst->units)))
        return -1;
    if (src->states && !(dst->states = malloc(src->nstates * sizeof *dst->states)))
        return -1;
    if (src->samples)
        memcpy(dst->samples, src->samples, src->nsamples * sizeof *dst->samples);
    if (src->units)
        memcpy(dst->units, src->units, src->nsamples * sizeof *dst->units);
    if (src->states)
        memcpy(dst->states, src->states, src->nstates * sizeof *dst->states);
    return qsb_set_string(&dst->failure, src->failure);
}

static int cell_copy(qsb_results *dst, const qsb_cell *src)
{
    const char **names = malloc((src->nrows ? src->nrows : 1) * sizeof *names);
    for (size_t i = 0; names && i < src->nrows; i++)
        names[i] = src->rows[i].algorithm;
    qsb_cell *cell = names ? qsb_results_add_cell(dst, src->pattern, src->nelem, src->size,
                                                  names, src->nrows)
                           : NULL;
    free(names);
    int failed = !cell;
    for (size_t i = 0; i < src->nrows && !failed; i++)
        failed = row_copy(&cell->rows[i], &src->rows[i]) != 0;
    return failed ? -1 : 0;
}

int qsb_results_copy(qsb_results *dst, const qsb_results *src)
{
    memset(dst, 0, sizeof *dst);
    int failed = qsb_context_copy(&dst->context, &src->context) != 0;
    if (failed)
        memset(&dst->context, 0, sizeof dst->context); /* freed there already */
    failed = failed || qsb_set_string(&dst->baseline, src->baseline) != 0;
    for (size_t c = 0; c < src->ncells && !failed; c++)
        failed = cell_copy(dst, &src->cells[c]) != 0;
    if (failed)
        qsb_results_free(dst);
    return failed ? -1 : 0;
}

void qsb_results_drop_last_cell(qsb_results *r)
{
    if (r->ncells > 0)
        cell_free(&r->cells[--r->ncells], r->store != NULL);
}

const char *qsb_machine_name(const qsb_context *c)
{
    if (c->machine && *c->machine)
        return c->machine;
    return c->host && *c->host ? c->host : "unknown";
}

/* Frees what the matrix owns and zeroes it. */
static void matrix_free(qsb_matrix *m)
{
    for (size_t i = 0; i < m->n_patterns; i++)
        free(m->patterns[i]);
    for (size_t i = 0; i < m->n_algos; i++)
        free(m->algos[i]);
    free(m->patterns);
    free(m->algos);
    free(m->nelem);
    free(m->sizes);
    memset(m, 0, sizeof *m);
}

static char **copy_words(char *const *src, size_t n, int *failed)
{
    char **dst = calloc(n ? n : 1, sizeof *dst);
    for (size_t i = 0; dst && i < n; i++)
        if (!(dst[i] = strdup(src[i])))
            *failed = 1;
    if (!dst)
        *failed = 1;
    return dst;
}

static uint64_t *copy_u64(const uint64_t *src, size_t n, int *failed)
{
    uint64_t *dst = malloc((n ? n : 1) * sizeof *dst);
    if (dst && n)
        memcpy(dst, src, n * sizeof *dst);
    if (!dst)
        *failed = 1;
    return dst;
}

int qsb_matrix_copy(qsb_matrix *dst, const qsb_matrix *src)
{
    int failed = 0;
    memset(dst, 0, sizeof *dst);
    dst->nelem = copy_u64(src->nelem, src->n_nelem, &failed);
    dst->sizes = copy_u64(src->sizes, src->n_sizes, &failed);
    dst->n_nelem = src->n_nelem;
    dst->n_sizes = src->n_sizes;
    dst->patterns = copy_words(src->patterns, src->n_patterns, &failed);
    dst->n_patterns = dst->patterns ? src->n_patterns : 0;
    dst->algos = copy_words(src->algos, src->n_algos, &failed);
    dst->n_algos = dst->algos ? src->n_algos : 0;
    if (failed)
        matrix_free(dst);
    return failed ? -1 : 0;
}

#define CONTEXT_STRINGS(c)                                                                   \
    &(c)->tool_version, &(c)->date, &(c)->host, &(c)->cpu_model, &(c)->caches, &(c)->libc,   \
        &(c)->compiler, &(c)->build_flags, &(c)->build_type, &(c)->timer, &(c)->metric,      \
        &(c)->mode, &(c)->command_line, &(c)->run_id, &(c)->governor, &(c)->turbo, &(c)->repetitions,      \
        &(c)->warmup, &(c)->nelem_source, &(c)->placement, &(c)->machine

void qsb_time_split_add(qsb_time_split *sum, const qsb_time_split *part)
{
    if (!(part->wall_s > 0)) {
        sum->wall_s = NAN; /* and stays unknown: NAN + x is NAN */
        return;
    }
    double *to[] = {&sum->wall_s, &sum->timed_s, &sum->counted_s, &sum->warmup_s,
                    &sum->retaken_s, &sum->inputs_s, &sum->copies_s, &sum->checks_s};
    const double from[] = {part->wall_s, part->timed_s, part->counted_s, part->warmup_s,
                           part->retaken_s, part->inputs_s, part->copies_s, part->checks_s};
    for (size_t i = 0; i < sizeof to / sizeof to[0]; i++)
        *to[i] += from[i];
}

int qsb_context_copy(qsb_context *dst, const qsb_context *src)
{
    *dst = *src;
    memset(&dst->matrix, 0, sizeof dst->matrix);
    char **to[] = {CONTEXT_STRINGS(dst)};
    const char *from[sizeof to / sizeof to[0]];
    for (size_t i = 0; i < sizeof to / sizeof to[0]; i++) {
        from[i] = *to[i];
        *to[i] = NULL;
    }
    int failed = 0;
    for (size_t i = 0; i < sizeof to / sizeof to[0] && !failed; i++)
        failed = qsb_set_string(to[i], from[i]) != 0;
    if (failed || qsb_matrix_copy(&dst->matrix, &src->matrix) != 0) {
        context_free(dst);
        return -1;
    }
    return 0;
}

static void context_free(qsb_context *c)
{
    matrix_free(&c->matrix);
    char **strings[] = {CONTEXT_STRINGS(c)};
    for (size_t i = 0; i < sizeof strings / sizeof strings[0]; i++)
        free(*strings[i]);
    memset(c, 0, sizeof *c);
}

void qsb_results_free(qsb_results *r)
{
    if (!r)
        return;
    while (r->ncells > 0)
        qsb_results_drop_last_cell(r);
    free(r->cells);
    free(r->baseline);
    store_free(r->store);
    context_free(&r->context);
    memset(r, 0, sizeof *r);
}

/* ---- the store ---- */

/* A block's usual room: large enough that its malloc is rare, small enough that the last
** block's unused part is nothing beside a file that needs many. */
#define STORE_BLOCK ((size_t)1 << 20)

struct qsb_store {
    qsb_store *next;   /* the blocks filled before this one */
    size_t used, size; /* bytes of data */
    double data[];     /* doubles are the strictest alignment kept: samples */
};

void *qsb_store_alloc(qsb_store **store, size_t size)
{
    size_t need = (size + sizeof(double) - 1) / sizeof(double) * sizeof(double);
    qsb_store *s = *store;
    if (need < size)
        return NULL;
    if (!s || s->size - s->used < need) {
        size_t room = need > STORE_BLOCK ? need : STORE_BLOCK;
        if (room > SIZE_MAX - sizeof *s || !(s = malloc(sizeof *s + room)))
            return NULL;
        *s = (qsb_store){*store, 0, room};
        *store = s;
    }
    void *p = (char *)s->data + s->used;
    s->used += need;
    return p;
}

void qsb_store_join(qsb_store **into, qsb_store **from)
{
    qsb_store *last = *from;
    if (!last)
        return;
    while (last->next)
        last = last->next;
    last->next = *into;
    *into = *from;
    *from = NULL;
}

static void store_free(qsb_store *store)
{
    while (store) {
        qsb_store *next = store->next;
        free(store);
        store = next;
    }
}

/* The half-width of [lo, hi] around x in % of x; INFINITY when unknown. */
static double half_width_pct(double x, double lo, double hi)
{
    double h = fmax(x - lo, hi - x) / x * 100.0;
    return isfinite(h) && x > 0 ? h : INFINITY;
}

double qsb_row_interval_pct(const qsb_cell *cell, size_t i)
{
    const qsb_row *row = &cell->rows[i];
    const qsb_summary *sum = &row->summary;
    double pct = half_width_pct(sum->median, sum->median_lo, sum->median_hi);
    if (i > 0 && cell->rows[0].verified)
        pct = fmax(pct, half_width_pct(100.0 + row->delta_pct, 100.0 + row->delta_lo,
                                       100.0 + row->delta_hi));
    return pct;
}

bool qsb_same_text(const char *a, const char *b)
{
    return (!a && !b) || (a && b && strcmp(a, b) == 0);
}

const qsb_cell *qsb_results_find_cell(const qsb_results *r, const qsb_cell *like)
{
    for (size_t c = 0; c < r->ncells; c++) {
        const qsb_cell *cell = &r->cells[c];
        if (strcmp(cell->pattern, like->pattern) == 0 && cell->nelem == like->nelem &&
            cell->size == like->size)
            return cell;
    }
    return NULL;
}

bool qsb_results_next_row(const qsb_results *r, qsb_row_cursor *at)
{
    if (at->row)
        at->i++;
    for (; at->c < r->ncells; at->c++, at->i = 0)
        if (at->i < r->cells[at->c].nrows) {
            at->cell = &r->cells[at->c];
            at->row = &at->cell->rows[at->i];
            return true;
        }
    return false;
}

size_t qsb_results_row_count(const qsb_results *r)
{
    size_t n = 0;
    for (size_t c = 0; c < r->ncells; c++)
        n += r->cells[c].nrows;
    return n;
}

/* The time level's widening of one row: its median's interval by fm, its delta's by fr. */
static void widen_row(qsb_row *row, double fm, double fr)
{
    qsb_widen_interval(row->summary.median, &row->summary.median_lo, &row->summary.median_hi,
                       fm);
    qsb_widen_delta(row->delta_pct, &row->delta_lo, &row->delta_hi, fr);
}

int qsb_widen_for_time(qsb_results *r)
{
    qsb_time_level level = {0};
    for (size_t c = 0; c < r->ncells; c++) {
        const qsb_cell *cell = &r->cells[c];
        const qsb_row *base = &cell->rows[0];
        for (size_t i = 0; i < cell->nrows; i++) {
            const qsb_row *row = &cell->rows[i];
            if (!row->verified)
                continue;
            if (qsb_time_level_add_row(&level, row->samples, row->units, row->nsamples) != 0 ||
                (i > 0 && base->verified &&
                 qsb_time_level_add_pair(&level, base->samples, base->nsamples, row->samples,
                                         row->units, row->nsamples) != 0))
                return -1;
        }
    }
    r->context.drift_ratios = qsb_drift_factor(&level.ratios);
    r->context.drift_medians = qsb_drift_factor(&level.medians);
    for (size_t c = 0; c < r->ncells; c++)
        for (size_t i = 0; i < r->cells[c].nrows; i++)
            widen_row(&r->cells[c].rows[i], r->context.drift_medians, r->context.drift_ratios);
    return 0;
}

const char *qsb_cell_algorithm(const qsb_cell *cell, size_t i)
{
    return cell->slim_rows ? cell->slim[i].algorithm : cell->rows[i].algorithm;
}
