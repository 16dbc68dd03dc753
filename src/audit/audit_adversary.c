/*
** The worst-case probe (see audit.h): M. D. McIlroy's "A Killer Adversary for Quicksort"
** (Software: Practice and Experience, 1999), written from the paper's idea.
**
** The elements are the indices 0..n-1; the comparator answers through a table of values
** that it decides lazily. Every value starts as "gas" (greater than any decided value, and
** equal to nothing). When two gas elements meet, one is frozen to the next "solid" value,
** preferring to freeze the current pivot candidate: the gas element most recently compared,
** which is what a quicksort keeps comparing against. The pivot thus ends up among the
** smallest values and every partition is lopsided, so any deterministic quicksort-style sort
** goes quadratic; a merge sort or heapsort stays near n log2 n, whatever the adversary does.
** Every answer is consistent with the final values, so they are an input that replays the
** same run.
**
** The comparator longjmps out of the sort past the limit (10 n log2 n calls): anything the
** sort allocated leaks, so the audit runs each n in a child process.
*/
#include "audit.h"

#include <math.h>
#include <setjmp.h>
#include <stdlib.h>
#include <string.h>

#include "diag.h"

#define GAS UINT32_MAX
#define ADVERSARY_TIMEOUT_S 120

typedef struct {
    uint32_t *value;     /* per element: its solid value, or GAS */
    uint32_t next_solid; /* the value the next frozen element gets */
    uint32_t candidate;  /* the gas element seen last: the likely pivot */
    uint64_t calls;
    uint64_t limit;
    jmp_buf abort;
} adversary;

static void freeze(adversary *adv, uint32_t element)
{
    adv->value[element] = adv->next_solid++;
}

static int adversary_compare(const void *pa, const void *pb, void *arg)
{
    adversary *adv = arg;
    uint32_t a, b;
    memcpy(&a, pa, sizeof a);
    memcpy(&b, pb, sizeof b);
    if (++adv->calls > adv->limit)
        longjmp(adv->abort, 1);
    if (adv->value[a] == GAS && adv->value[b] == GAS)
        freeze(adv, a == adv->candidate ? a : b);
    if (adv->value[a] == GAS)
        adv->candidate = a;
    else if (adv->value[b] == GAS)
        adv->candidate = b;
    uint32_t va = adv->value[a], vb = adv->value[b];
    return (va > vb) - (va < vb);
}

uint64_t qsb_adversary_limit(size_t n)
{
    return n < 2 ? 0 : (uint64_t)(10.0 * (double)n * log2((double)n));
}

bool qsb_adversary_run(qsb_sort_fn sort, size_t n, uint64_t limit, uint64_t *calls,
                       uint32_t *values)
{
    /* On the heap, not in this frame: longjmp leaves locals changed since setjmp
    ** indeterminate. */
    adversary *adv = calloc(1, sizeof *adv);
    uint32_t *elements = malloc((n ? n : 1) * sizeof *elements);
    if (adv)
        adv->value = malloc((n ? n : 1) * sizeof *adv->value);
    if (!adv || !elements || !adv->value) {
        *calls = 0;
        free(elements);
        if (adv)
            free(adv->value);
        free(adv);
        return false;
    }
    for (size_t i = 0; i < n; i++) {
        elements[i] = (uint32_t)i;
        adv->value[i] = GAS;
    }
    adv->limit = limit;
    bool aborted = true;
    if (setjmp(adv->abort) == 0) {
        sort(elements, n, sizeof *elements, adversary_compare, adv);
        aborted = false;
    }
    *calls = adv->calls;
    /* Elements still gas never met each other: any distinct values above the solid ones
    ** replay the same answers. */
    for (size_t i = 0; values && i < n; i++)
        values[i] = adv->value[i] == GAS ? adv->next_solid++ : adv->value[i];
    free(adv->value);
    free(adv);
    free(elements);
    return aborted;
}

/* What the probe in the child is given (n) and finds. */
typedef struct {
    size_t n;
    uint64_t calls;
    int aborted;
} adversary_report;

static int adversary_probe(qsb_sort_fn sort, void *result)
{
    adversary_report *r = result;
    r->aborted = qsb_adversary_run(sort, r->n, qsb_adversary_limit(r->n), &r->calls, NULL);
    return 0;
}

int qsb_audit_adversary(qsb_sort_fn sort, const qsb_audit_config *config,
                        qsb_adversary_result *out)
{
    *out = (qsb_adversary_result){0};
    int status = QSB_OK;
    for (size_t i = 0; i < config->adversary_count && status == QSB_OK; i++) {
        qsb_adversary_case *c = &out->cases[out->ncases++];
        adversary_report report = {(size_t)config->adversary_nelem[i], 0, 0};
        const qsb_probe_call call = {adversary_probe, sort, &report, sizeof report,
                                     ADVERSARY_TIMEOUT_S};
        qsb_child_outcome outcome = {.kind = QSB_CHILD_SIGNALED};
        c->nelem = config->adversary_nelem[i];
        status = qsb_run_probe(config->plugins, &call, &outcome);
        c->failed = !(outcome.kind == QSB_CHILD_EXITED && outcome.code == 0);
        c->comparisons = report.calls;
        c->quadratic = !c->failed && report.aborted;
        double nlogn = (double)c->nelem * log2((double)c->nelem);
        c->ratio = nlogn > 0 ? (double)c->comparisons / nlogn : 0;
        out->quadratic |= c->quadratic;
        out->failed |= c->failed;
        if (!c->failed && !c->quadratic && c->ratio > out->max_ratio)
            out->max_ratio = c->ratio;
    }
    return status;
}
