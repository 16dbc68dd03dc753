/*
** The audit of one subject (see audit.h): the configuration, the subjects (registry entries
** and the "malloc fails" variants of the merge sorts), every probe in turn, and the
** comparison of what was measured with what the registry declares.
*/
#include "audit.h"

#include <stdio.h>
#include <string.h>

#include "alloc.h"
#include "canary.h"
#include "comparator.h"
#include "diag.h"

#define BROKEN_TIMEOUT_S 5 /* a child sorts ~100 arrays of <= 1000 ints: milliseconds */
#define PROBE_TIMEOUT_S 120 /* stability: ~800 sorts of <= 1500 records; allocation: 100,000
                            ** elements; a quadratic sort in a sanitized build takes seconds */
#define FIRST_SORT_NELEM 1000
#define FAILURE_BYTES sizeof((qsb_audit_row *)NULL)->failure

void qsb_audit_config_init(qsb_audit_config *config, qsb_audit_depth depth)
{
    bool quick = depth == QSB_AUDIT_QUICK;
    static const uint64_t stack_full[] = {255, 65536, 8388608};
    static const uint64_t stack_quick[] = {255, 65536};
    static const uint64_t adversary[] = {1000, 10000, 100000};
    *config = (qsb_audit_config){0};
    /* 255 4-byte elements: msort's scratch (1020 bytes) is still on the stack. */
    const uint64_t *stack = quick ? stack_quick : stack_full;
    config->stack_count = quick ? 2 : 3;
    memcpy(config->stack_nelem, stack, config->stack_count * sizeof *stack);
    config->adversary_count = 3;
    memcpy(config->adversary_nelem, adversary, sizeof adversary);
    config->timeout_s = BROKEN_TIMEOUT_S;
}

bool qsb_audit_subject_from_registry(const char *name, qsb_audit_subject *out)
{
    const qsb_algorithm *a = qsb_algorithm_find(name);
    if (!a)
        return false;
    *out = (qsb_audit_subject){a->name, NULL, a->sort, a->properties,
                                   !(a->properties & QSB_PROP_UNKNOWN), a->min_size};
    return true;
}

/* ---- "malloc fails": the merge sorts with their scratch allocation forced to fail ---- */

static qsb_sort_fn msort_normal, msort_239_normal;

static void sort_with_failing_malloc(qsb_sort_fn sort, void *base, size_t n, size_t size,
                                     qsb_compare cmp, void *arg)
{
    qsb_scratch_force_failure(1);
    sort(base, n, size, cmp, arg);
    qsb_scratch_force_failure(0);
}

static void msort_malloc_fails(void *base, size_t n, size_t size,
                               qsb_compare cmp, void *arg)
{
    sort_with_failing_malloc(msort_normal, base, n, size, cmp, arg);
}

static void msort_239_malloc_fails(void *base, size_t n, size_t size,
                                   qsb_compare cmp, void *arg)
{
    sort_with_failing_malloc(msort_239_normal, base, n, size, cmp, arg);
}

bool qsb_audit_forced_fallback(const char *name, qsb_audit_subject *out)
{
    /* The algorithms whose scratch comes through algorithms/alloc.h. */
    static const struct {
        const char *name;
        qsb_sort_fn *normal;
        qsb_sort_fn forced;
    } variants[] = {{"msort", &msort_normal, msort_malloc_fails},
                    {"msort-2.39", &msort_239_normal, msort_239_malloc_fails}};
    for (size_t i = 0; i < sizeof variants / sizeof variants[0]; i++) {
        const qsb_algorithm *a = qsb_algorithm_find(variants[i].name);
        if (!a || strcmp(name, a->name) != 0)
            continue;
        *variants[i].normal = a->sort;
        /* The declared bits describe the normal path, so this row has nothing to contradict. */
        *out = (qsb_audit_subject){a->name, "malloc fails", variants[i].forced, 0, false,
                                   a->min_size};
        return true;
    }
    return false;
}

/* ---- cell texts ---- */

const char *qsb_audit_stable_text(const qsb_audit_row *row)
{
    static const char *const texts[] = {"yes", "no", "UNSORTED"};
    return texts[row->stability.verdict];
}

const char *qsb_audit_allocates_text(const qsb_audit_row *row)
{
    if (!row->alloc.available)
        return "n/a";
    return row->alloc.allocates ? "yes" : "no";
}

const char *qsb_audit_stack_text(const qsb_audit_row *row, char *buf, size_t len)
{
    if (row->stack.status == QSB_STACK_OVERFLOW)
        snprintf(buf, len, "overflow");
    else if (row->stack.status == QSB_STACK_FAILED)
        snprintf(buf, len, "failed");
    else
        snprintf(buf, len, "%llu", (unsigned long long)row->stack.max_bytes);
    return buf;
}

const char *qsb_audit_worst_text(const qsb_audit_row *row)
{
    if (row->adversary.quadratic)
        return "quadratic";
    if (row->adversary.failed)
        return "failed";
    return "nlogn";
}

void qsb_audit_row_label(const qsb_audit_row *row, char *buf, size_t len)
{
    if (row->subject.variant)
        snprintf(buf, len, "%s (%s)", row->subject.name, row->subject.variant);
    else
        snprintf(buf, len, "%s", row->subject.name);
}

/* ---- measured against declared ---- */

static void append(char *buf, size_t len, const char *text)
{
    size_t used = strlen(buf);
    snprintf(buf + used, len - used, "%s%s", used ? "; " : "", text);
}

static void compare_with_declared(qsb_audit_row *row)
{
    const qsb_audit_subject *s = &row->subject;
    row->contradictions[0] = row->notes[0] = '\0';
    if (row->stability.verdict == QSB_STABLE_UNSORTED)
        append(row->contradictions, sizeof row->contradictions, "sorts incorrectly");
    if (!s->has_declared)
        return;
    int stable = row->stability.verdict == QSB_STABLE_YES;
    int claims_stable = (s->declared & QSB_PROP_STABLE) != 0;
    if (claims_stable && row->stability.verdict == QSB_STABLE_NO)
        append(row->contradictions, sizeof row->contradictions,
               "declared stable, measured unstable");
    if (!claims_stable && stable)
        append(row->notes, sizeof row->notes, "stable in every case, though not declared");

    int claims_in_place = (s->declared & QSB_PROP_ALLOCATES) == 0;
    if (row->alloc.available && claims_in_place && row->alloc.allocates)
        append(row->contradictions, sizeof row->contradictions,
               "declared in place, measured allocating");
    if (row->alloc.available && !claims_in_place && !row->alloc.allocates)
        append(row->notes, sizeof row->notes, "declared allocating, never allocated here");

    int claims_nlogn = (s->declared & QSB_PROP_NLOGN_WORST) != 0;
    if (claims_nlogn && row->adversary.quadratic)
        append(row->contradictions, sizeof row->contradictions,
               "declared n log n worst case, the adversary drove it quadratic");
    if (!claims_nlogn && !row->adversary.quadratic && !row->adversary.failed)
        append(row->notes, sizeof row->notes,
               "not declared n log n, yet the adversary did not drive it quadratic");
}

/* ---- the probes in children ---- */

/* The subject sorts 1000 random ints once, inside canary zones: does it come back, and
** within the array? result: the row's failure text, set when it wrote outside. */
static int first_sort(qsb_sort_fn sort, void *result)
{
    const size_t used = FIRST_SORT_NELEM * sizeof(int);
    size_t zone = qsb_canary_zone(sizeof(int));
    int *a = qsb_canary_alloc(used, zone);
    if (!a)
        return qsb_out_of_memory("first sort");
    uint32_t x = 2463534242u; /* xorshift32: any fixed scramble will do */
    for (size_t i = 0; i < FIRST_SORT_NELEM; i++) {
        x ^= x << 13, x ^= x >> 17, x ^= x << 5;
        a[i] = (int)(x >> 1);
    }
    qsb_canary_arm(a, used, zone);
    sort(a, FIRST_SORT_NELEM, sizeof(int), qsb_comparator(sizeof(int)), NULL);
    bool below;
    if (!qsb_canary_intact(a, used, zone, &below))
        snprintf(result, FAILURE_BYTES, "wrote outside the array: %s in its first sort",
                 below ? "before its start" : "past its end");
    qsb_canary_free(a, zone);
    return QSB_OK;
}

/* The subject's min_size reaches the child in the result (set before the probe, which forks). */
static int stability_probe(qsb_sort_fn sort, void *result)
{
    qsb_stability_result *r = result;
    return qsb_audit_stability(sort, r->min_size, r);
}

static int alloc_probe(qsb_sort_fn sort, void *result)
{
    return qsb_audit_alloc(sort, result);
}

/* Runs one probe of the row in a child; a subject that does not come back from it fails the
** row, its failure naming the probe. */
static int probe_row(qsb_audit_row *row, qsb_plugins *plugins, const char *name,
                     qsb_probe_fn probe, void *result, size_t bytes, unsigned timeout_s)
{
    char how[96];
    const qsb_probe_call call = {probe, row->subject.sort, result, bytes, timeout_s};
    int status = qsb_probe_in_child(plugins, &call, how, sizeof how);
    if (status == QSB_OK && how[0])
        snprintf(row->failure, sizeof row->failure, "%s in %s", how, name);
    return status;
}

/* Every probe, until the subject fails one given a correct comparator. */
static int measure_row(qsb_audit_row *row, const qsb_audit_config *config)
{
    qsb_sort_fn sort = row->subject.sort;
    int status = probe_row(row, config->plugins, "its first sort", first_sort, row->failure,
                           sizeof row->failure, config->timeout_s);
    row->stability.min_size = row->subject.min_size;
    if (status == QSB_OK && !row->failure[0])
        status = probe_row(row, config->plugins, "the stability probe", stability_probe,
                           &row->stability, sizeof row->stability, PROBE_TIMEOUT_S);
    if (status == QSB_OK && !row->failure[0] && row->stability.outside[0])
        snprintf(row->failure, sizeof row->failure, "%s in the stability probe",
                 row->stability.outside);
    if (status == QSB_OK && !row->failure[0])
        status = probe_row(row, config->plugins, "the allocation probe", alloc_probe,
                           &row->alloc, sizeof row->alloc, PROBE_TIMEOUT_S);
    if (status != QSB_OK || row->failure[0])
        return status;
    status = qsb_audit_stack(sort, config, &row->stack);
    if (status == QSB_OK)
        status = qsb_audit_adversary(sort, config, &row->adversary);
    if (status == QSB_OK)
        status = qsb_audit_broken(sort, config->plugins, config->timeout_s, row->broken);
    return status;
}

int qsb_audit_run_row(const qsb_audit_subject *subject, const qsb_audit_config *config,
                      qsb_audit_row *row)
{
    memset(row, 0, sizeof *row);
    row->subject = *subject;
    int status = measure_row(row, config);
    if (status != QSB_OK)
        return status;
    char label[64];
    qsb_audit_row_label(row, label, sizeof label);
    if (row->failure[0]) {
        qsb_error(QSB_FINDING, "audit: %s: %s", label, row->failure);
        return QSB_OK;
    }
    compare_with_declared(row);
    if (row->contradictions[0])
        qsb_warning("MEASUREMENT CONTRADICTS THE REGISTRY: %s: %s", label, row->contradictions);
    return QSB_OK;
}
