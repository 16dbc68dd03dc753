/*
** merge.h: group by machine, check that the shards of each machine make one matrix exactly
** once, join their cells in matrix order.
*/
#include "merge.h"

#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "diag.h"

static const char *name_of(const qsb_merge_input *in)
{
    return qsb_machine_name(&in->run.context);
}

/* Machine name, then shard number, then file name: the order inputs are joined in. */
static int by_machine_shard(const void *pa, const void *pb)
{
    const qsb_merge_input *a = pa, *b = pb;
    int c = strcmp(name_of(a), name_of(b));
    if (c != 0)
        return c;
    uint32_t ka = a->run.context.shard_k, kb = b->run.context.shard_k;
    if (ka != kb)
        return (ka > kb) - (ka < kb);
    return strcmp(a->file, b->file);
}

static int same_matrix(const qsb_matrix *a, const qsb_matrix *b)
{
    if (a->n_nelem != b->n_nelem || a->n_sizes != b->n_sizes ||
        a->n_patterns != b->n_patterns || a->n_algos != b->n_algos)
        return 0;
    for (size_t i = 0; i < a->n_nelem; i++)
        if (a->nelem[i] != b->nelem[i])
            return 0;
    for (size_t i = 0; i < a->n_sizes; i++)
        if (a->sizes[i] != b->sizes[i])
            return 0;
    for (size_t i = 0; i < a->n_patterns; i++)
        if (strcmp(a->patterns[i], b->patterns[i]) != 0)
            return 0;
    for (size_t i = 0; i < a->n_algos; i++)
        if (strcmp(a->algos[i], b->algos[i]) != 0)
            return 0;
    return 1;
}

/* Does every input of the machine (in[0..n-1]) belong to in[0]'s matrix? */
static int check_one_matrix(const qsb_merge_input *in, size_t n)
{
    const qsb_context *c0 = &in[0].run.context;
    const char *m = qsb_quote(name_of(&in[0]));
    for (size_t i = 0; i < n; i++) {
        const qsb_context *c = &in[i].run.context;
        if (n > 1 && c->matrix.n_nelem == 0)
            return qsb_error(QSB_EUSAGE, "%s: no matrix record (a CSV file, or written before "
                             "shards): it can only be merged as the whole run of machine '%s', "
                             "alone; merge the JSON files of the shards",
                             in[i].file, m);
        if (c->seed != c0->seed)
            return qsb_error(QSB_EUSAGE, "machine '%s': different seeds within one matrix "
                             "(0x%" PRIx64 " in %s, 0x%" PRIx64 " in %s): give every shard "
                             "the same --seed", m, c0->seed, in[0].file, c->seed, in[i].file);
        if (!qsb_same_text(c->mode, c0->mode))
            return qsb_error(QSB_EUSAGE, "machine '%s': different input modes within one "
                             "matrix ('%s' in %s, '%s' in %s): give every shard the same "
                             "--compat", m, c0->mode ? c0->mode : "?", in[0].file,
                             c->mode ? c->mode : "?", in[i].file);
        if (!qsb_same_text(c->metric, c0->metric))
            return qsb_error(QSB_EUSAGE, "machine '%s': different metrics within one matrix "
                             "(%s in %s, %s in %s)", m, c0->metric ? c0->metric : "?",
                             in[0].file, c->metric ? c->metric : "?", in[i].file);
        if (!qsb_same_text(in[i].run.baseline, in[0].run.baseline) ||
            !same_matrix(&c->matrix, &c0->matrix))
            return qsb_error(QSB_EUSAGE, "machine '%s': %s and %s are shards of different "
                             "matrices (--nelem, --sizes, --patterns or --algos differ); give "
                             "runs of different machines different --machine names", m,
                             in[0].file, in[i].file);
    }
    return QSB_OK;
}

/* Shards 1..N, each exactly once (a whole run is 1/1). */
static int check_shards(const qsb_merge_input *in, size_t n)
{
    const char *m = qsb_quote(name_of(&in[0]));
    uint32_t total = in[0].run.context.shard_n ? in[0].run.context.shard_n : 1;
    for (size_t i = 0; i < n; i++) {
        const qsb_context *c = &in[i].run.context;
        uint32_t ni = c->shard_n ? c->shard_n : 1, ki = c->shard_n ? c->shard_k : 1;
        if (ni != total)
            return qsb_error(QSB_EUSAGE, "machine '%s': %s is shard %u/%u but %s is of %u "
                             "shards: the shards of one matrix share N", m, in[i].file,
                             (unsigned)ki, (unsigned)ni, in[0].file, (unsigned)total);
        if (i > 0) {
            const qsb_context *p = &in[i - 1].run.context;
            uint32_t kp = p->shard_n ? p->shard_k : 1;
            if (kp == ki)
                return qsb_error(QSB_EUSAGE, "machine '%s': duplicate cells: shard %u/%u is "
                                 "in both %s and %s", m, (unsigned)ki, (unsigned)total,
                                 in[i - 1].file, in[i].file);
        }
    }
    if (n == total)
        return QSB_OK;
    char missing[512] = "";
    size_t used = 0, count = 0, j = 0;
    for (uint32_t k = 1; k <= total; k++) {
        while (j < n && (in[j].run.context.shard_n ? in[j].run.context.shard_k : 1) < k)
            j++;
        if (j < n && (in[j].run.context.shard_n ? in[j].run.context.shard_k : 1) == k)
            continue;
        count++;
        if (used < sizeof missing - 24)
            used += (size_t)snprintf(missing + used, sizeof missing - used, "%s%u/%u",
                                     count > 1 ? ", " : "", (unsigned)k, (unsigned)total);
        else if (used < sizeof missing - 4)
            used += (size_t)snprintf(missing + used, sizeof missing - used, ", ...");
    }
    return qsb_error(QSB_EUSAGE, "machine '%s': %zu missing shard(s): %s", m, count, missing);
}

/* The cell's index in the matrix (pattern, size, count order), or SIZE_MAX. */
static size_t matrix_index(const qsb_matrix *x, const qsb_cell *cell)
{
    size_t p = 0, z = 0, e = 0;
    while (p < x->n_patterns && strcmp(x->patterns[p], cell->pattern) != 0)
        p++;
    while (z < x->n_sizes && x->sizes[z] != cell->size)
        z++;
    while (e < x->n_nelem && x->nelem[e] != cell->nelem)
        e++;
    if (p == x->n_patterns || z == x->n_sizes || e == x->n_nelem)
        return SIZE_MAX;
    return (p * x->n_sizes + z) * x->n_nelem + e;
}

/* A run's id as its 64 bits; false when it is not 16 hex digits (or absent). */
static bool run_id_bits(const char *id, uint64_t *bits)
{
    if (!id || strlen(id) != 16 || strspn(id, "0123456789abcdef") != 16)
        return false;
    *bits = strtoull(id, NULL, 16);
    return true;
}

int qsb_merged_run_id(const qsb_merge_input *in, size_t n, qsb_context *out)
{
    uint64_t sum = 0;
    for (size_t i = 0; i < n; i++) {
        uint64_t bits;
        if (!run_id_bits(in[i].run.context.run_id, &bits))
            return qsb_set_string(&out->run_id, NULL);
        sum ^= bits;
    }
    char text[17];
    snprintf(text, sizeof text, "%016llx", (unsigned long long)sum);
    return qsb_set_string(&out->run_id, text);
}

/* Joins the machine's shards into *out (their cells are moved; the shards stay freeable). */
static int join_machine(qsb_merge_input *in, size_t n, qsb_results *out)
{
    memset(out, 0, sizeof *out);
    if (n == 1 && in[0].run.context.shard_n == 0) { /* a whole run: as it is */
        *out = in[0].run;
        memset(&in[0].run, 0, sizeof in[0].run);
        return QSB_OK;
    }
    const qsb_matrix *x = &in[0].run.context.matrix;
    const char *m = qsb_quote(name_of(&in[0]));
    size_t cells = x->n_patterns * x->n_sizes * x->n_nelem;
    qsb_cell **slot = calloc(cells ? cells : 1, sizeof *slot);
    const char **from = calloc(cells ? cells : 1, sizeof *from);
    int status = slot && from ? QSB_OK : qsb_out_of_memory("merge");
    for (size_t i = 0; i < n && status == QSB_OK; i++)
        for (size_t c = 0; c < in[i].run.ncells && status == QSB_OK; c++) {
            qsb_cell *cell = &in[i].run.cells[c];
            size_t at = matrix_index(x, cell);
            if (at == SIZE_MAX)
                status = qsb_error(QSB_EUSAGE, "%s: cell %s n=%" PRIu64 " size=%" PRIu64
                                   " is not in its own matrix record", in[i].file,
                                   qsb_quote(cell->pattern), cell->nelem, cell->size);
            else if (slot[at])
                status = qsb_error(QSB_EUSAGE, "machine '%s': duplicate cell %s n=%" PRIu64
                                   " size=%" PRIu64 " in both %s and %s", m,
                                   qsb_quote(cell->pattern), cell->nelem, cell->size,
                                   from[at], in[i].file);
            else {
                slot[at] = cell;
                from[at] = in[i].file;
            }
        }
    if (status == QSB_OK && (qsb_context_copy(&out->context, &in[0].run.context) != 0 ||
                             qsb_merged_run_id(in, n, &out->context) != 0))
        status = qsb_out_of_memory("merge");
    if (status == QSB_OK && qsb_set_string(&out->baseline, in[0].run.baseline) != 0)
        status = qsb_out_of_memory("merge");
    size_t kept = 0;
    for (size_t at = 0; at < cells; at++)
        kept += slot && slot[at] != NULL;
    if (status == QSB_OK && !(out->cells = calloc(kept ? kept : 1, sizeof *out->cells)))
        status = qsb_out_of_memory("merge");
    if (status == QSB_OK) {
        out->context.shard_k = out->context.shard_n = 0;
        memset(&out->context.time, 0, sizeof out->context.time);
        for (size_t i = 0; i < n; i++) {
            const qsb_context *c = &in[i].run.context;
            out->context.incomplete |= c->incomplete;
            qsb_time_split_add(&out->context.time, &c->time);
            /* each shard widened its own rows; tests over the whole take the widest */
            out->context.drift_ratios = fmax(out->context.drift_ratios, c->drift_ratios);
            out->context.drift_medians = fmax(out->context.drift_medians, c->drift_medians);
        }
        for (size_t at = 0; at < cells; at++)
            if (slot[at]) { /* moved: the shard keeps an empty cell */
                out->cells[out->ncells++] = *slot[at];
                memset(slot[at], 0, sizeof *slot[at]);
            }
        for (size_t i = 0; i < n; i++) /* and the texts and arrays the cells point into */
            qsb_store_join(&out->store, &in[i].run.store);
    }
    free(slot);
    free(from);
    if (status != QSB_OK) {
        qsb_results_free(out);
        memset(out, 0, sizeof *out);
    }
    return status;
}

int qsb_merge(qsb_merge_input *in, size_t n, qsb_results **out, size_t *nout)
{
    *out = NULL;
    *nout = 0;
    for (size_t i = 0; i < n; i++)
        for (size_t j = 0; j < n && in[i].run.context.matrix.n_nelem == 0; j++)
            if (in[j].run.context.shard_n) {
                int status = qsb_error(QSB_EUSAGE, "%s has no shard or matrix record (a CSV "
                                       "file, or written before shards), so it cannot join "
                                       "the shards of %s: merge the shards' JSON files (a "
                                       "CSV input must be a whole run)", in[i].file,
                                       in[j].file);
                for (size_t k = 0; k < n; k++)
                    qsb_results_free(&in[k].run);
                return status;
            }
    qsort(in, n, sizeof *in, by_machine_shard);
    qsb_results *machines = calloc(n ? n : 1, sizeof *machines);
    int status = machines ? QSB_OK : qsb_out_of_memory("merge");
    size_t count = 0;
    for (size_t i = 0; i < n && status == QSB_OK;) {
        size_t j = i + 1;
        while (j < n && strcmp(name_of(&in[i]), name_of(&in[j])) == 0)
            j++;
        status = check_one_matrix(in + i, j - i);
        if (status == QSB_OK)
            status = check_shards(in + i, j - i);
        if (status == QSB_OK)
            status = join_machine(in + i, j - i, &machines[count]);
        if (status == QSB_OK)
            count++;
        i = j;
    }
    for (size_t i = 0; i < n; i++)
        qsb_results_free(&in[i].run);
    if (status != QSB_OK) {
        for (size_t i = 0; i < count; i++)
            qsb_results_free(&machines[i]);
        free(machines);
        return status;
    }
    *out = machines;
    *nout = count;
    return QSB_OK;
}
