/*
** Rows of two results matched by key, the checks of two results before a comparison, the
** drift factors of a run (compare_match.h), and the context fields in which two runs differ
** (compare.h).
*/
#include "compare_match.h"

#include <stdlib.h>
#include <string.h>

#include "compare.h"
#include "diag.h"

static int compare_keys(const qsb_cell *ca, const char *ra, const qsb_cell *cb, const char *rb)
{
    int c = strcmp(ca->pattern, cb->pattern);
    if (c == 0)
        c = (ca->nelem > cb->nelem) - (ca->nelem < cb->nelem);
    if (c == 0)
        c = (ca->size > cb->size) - (ca->size < cb->size);
    return c ? c : strcmp(ra, rb);
}

/* qsort/bsearch order of row references: pattern, nelem, size, algorithm. */
static int row_ref_order(const void *pa, const void *pb)
{
    const qsb_row_ref *a = pa, *b = pb;
    return compare_keys(a->cell, a->algorithm, b->cell, b->algorithm);
}

size_t compare_row_count(const qsb_results *r)
{
    size_t n = 0;
    for (size_t c = 0; c < r->ncells; c++)
        n += r->cells[c].nrows;
    return n;
}

qsb_row_ref *compare_row_index(const qsb_results *r, size_t *n)
{
    *n = compare_row_count(r);
    qsb_row_ref *refs = malloc((*n ? *n : 1) * sizeof *refs);
    if (!refs)
        return NULL;
    size_t k = 0;
    for (size_t c = 0; c < r->ncells; c++)
        for (size_t i = 0; i < r->cells[c].nrows; i++)
            refs[k++] = (qsb_row_ref){&r->cells[c], qsb_cell_algorithm(&r->cells[c], i), i,
                                      false};
    qsort(refs, *n, sizeof *refs, row_ref_order);
    return refs;
}

qsb_row_ref *compare_find_row(qsb_row_ref *refs, size_t n, const qsb_cell *cell, size_t i)
{
    qsb_row_ref key = {cell, qsb_cell_algorithm(cell, i), i, false};
    return n ? bsearch(&key, refs, n, sizeof *refs, row_ref_order) : NULL;
}

int compare_check_metrics(const qsb_results *base, const qsb_results *cand)
{
    const char *mb = base->context.metric, *mn = cand->context.metric;
    if (!mb || !mn || strcmp(mb, mn) != 0)
        return qsb_error(QSB_EUSAGE,
                         "the files measure different metrics (BASE: %s, NEW: %s): compare "
                         "runs made with the same --metric",
                         qsb_quote(mb ? mb : "none"), qsb_quote(mn ? mn : "none"));
    return QSB_OK;
}

double compare_drift(const qsb_context *c, bool ratios)
{
    double f = ratios ? c->drift_ratios : c->drift_medians;
    return f >= 1.0 ? f : 1.0;
}

/* ---- the runs' contexts ---- */

static bool strings_differ(const char *a, const char *b)
{
    return a && b && *a && *b && strcmp(a, b) != 0; /* unknown on a side: no difference */
}

size_t qsb_context_differences(const qsb_context *a, const qsb_context *b,
                               const char *names[QSB_CONTEXT_COMPARED])
{
    size_t n = 0;
    if (strings_differ(a->host, b->host))
        names[n++] = "host";
    if (strings_differ(a->cpu_model, b->cpu_model))
        names[n++] = "cpu_model";
    if (strings_differ(a->build_flags, b->build_flags))
        names[n++] = "build_flags";
    if (strings_differ(a->build_type, b->build_type))
        names[n++] = "build_type";
    if (a->seed != b->seed)
        names[n++] = "seed";
    if (strings_differ(a->mode, b->mode))
        names[n++] = "mode";
    if (strings_differ(a->metric, b->metric))
        names[n++] = "metric";
    if (strings_differ(a->placement, b->placement))
        names[n++] = "placement";
    if (strings_differ(a->tool_version, b->tool_version))
        names[n++] = "tool_version";
    return n;
}
