/*
** The audit (audit.h, audit_run.h): of one subject, the configuration, the subjects (registry
** entries and the "malloc fails" variants of the merge sorts), every probe in turn, and the
** comparison of what was measured with what the registry declares; the reporters; the audit
** as a whole.
*/
#include "audit.h"

#include <cjson/cJSON.h>
#include <csv.h>
#include <inttypes.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "alloc.h"
#include "audit_run.h"
#include "canary.h"
#include "comparator.h"
#include "diag.h"
#include "json_write.h"
#include "outfile.h"
#include "plugins.h"
#include "run_context.h"
#include "version.h"

/* ---- The audit of one subject ---- */

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

/* Whether the subject allocates: "yes", "no", or "n/a" where allocations cannot be counted. */
static const char *allocates_text(const qsb_audit_row *row)
{
    if (!row->alloc.available)
        return "n/a";
    return row->alloc.allocates ? "yes" : "no";
}

/* The deepest stack in bytes, or what kept it from being measured; written into buf. */
static const char *stack_text(const qsb_audit_row *row, char *buf, size_t len)
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

/* The subject's name as the rows show it, with its variant: "msort (malloc fails)". */
static void row_label(const qsb_audit_row *row, char *buf, size_t len)
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
    row_label(row, label, sizeof label);
    if (row->failure[0]) {
        qsb_error(QSB_FINDING, "audit: %s: %s", label, row->failure);
        return QSB_OK;
    }
    compare_with_declared(row);
    if (row->contradictions[0])
        qsb_warning("MEASUREMENT CONTRADICTS THE REGISTRY: %s: %s", label, row->contradictions);
    return QSB_OK;
}

/* ---- The reporters: a text table for people, CSV (libcsv) and JSON (cJSON) with the same
** rows for programs. All three take their cell texts from the same functions (above), so they
** cannot disagree.
**
** CSV: one header row, then a row per subject, columns
**   algorithm,variant,stable,stable_cases,stable_unstable_cases,stable_detail,allocates,
**   alloc_method,alloc_calls_small,alloc_calls_large,alloc_max_bytes,alloc_cases,
**   stack_bytes,stack_status,stack_cases,worst_case,worst_max_ratio,adversary_cases,
**   broken_<comparator> (one per comparator),broken_details,contradictions,notes
** where *_cases are "nelem[xsize]:value" items joined by ';'.
**
** JSON: {"schema_version": 1, "kind": "audit", "context": {...}, "rows": [...]}, each row
** holding the same facts as nested objects, every case in full.** ---- */

/* Short column heads of the broken comparators, in qsb_broken_comparator order. */
static const char *const broken_heads[QSB_BROKEN_COUNT] = {
    "random", "always-1", "always0", "always+1", "a-b", "intrans", "1%rev"};

/* A case's adversary cell: the ratio, "QUAD" past the limit, "fail" when the child died. */
static void adversary_cell(const qsb_adversary_case *c, char *buf, size_t len)
{
    if (c->failed)
        snprintf(buf, len, "fail");
    else if (c->quadratic)
        snprintf(buf, len, "QUAD");
    else
        snprintf(buf, len, "%.2f", c->ratio);
}

/* ---- text table ---- */

static void print_header(FILE *fp, const qsb_audit_config *config)
{
    fprintf(fp, "%-26s %-8s %-6s %10s %9s ", "algorithm", "stable", "alloc", "max-bytes",
            "stack-B");
    for (size_t i = 0; i < config->adversary_count; i++) {
        char head[24];
        snprintf(head, sizeof head, "n=%" PRIu64, config->adversary_nelem[i]);
        fprintf(fp, " %8s", head);
    }
    fprintf(fp, "  ");
    for (int i = 0; i < QSB_BROKEN_COUNT; i++)
        fprintf(fp, " %-9s", broken_heads[i]);
    fprintf(fp, "\n");
}

static void print_row(FILE *fp, const qsb_audit_row *row)
{
    char label[64], stack[24], bytes[24];
    row_label(row, label, sizeof label);
    if (row->failure[0]) { /* nothing was measured past the failure */
        fprintf(fp, "%-26s FAILED (%s)\n", label, row->failure);
        return;
    }
    if (row->alloc.available)
        snprintf(bytes, sizeof bytes, "%" PRIu64, row->alloc.max_bytes);
    else
        snprintf(bytes, sizeof bytes, "n/a");
    fprintf(fp, "%-26s %-8s %-6s %10s %9s ", label, qsb_audit_stable_text(row),
            allocates_text(row), bytes, stack_text(row, stack, sizeof stack));
    for (size_t i = 0; i < row->adversary.ncases; i++) {
        char cell[24];
        adversary_cell(&row->adversary.cases[i], cell, sizeof cell);
        fprintf(fp, " %8s", cell);
    }
    fprintf(fp, "  ");
    for (int i = 0; i < QSB_BROKEN_COUNT; i++)
        fprintf(fp, " %-9s", qsb_broken_verdict_name(row->broken[i].verdict));
    fprintf(fp, "\n");
}

/* One line of the details block, which gets its heading before the first line. */
static void detail_line(FILE *fp, int *lines, const char *fmt, ...) QSB_PRINTF(3, 4);

static void detail_line(FILE *fp, int *lines, const char *fmt, ...)
{
    if ((*lines)++ == 0)
        fprintf(fp, "\nDetails:\n");
    va_list ap;
    va_start(ap, fmt);
    fprintf(fp, "  ");
    vfprintf(fp, fmt, ap);
    fprintf(fp, "\n");
    va_end(ap);
}

static void print_details(FILE *fp, const qsb_audit_row *rows, size_t count)
{
    int lines = 0;
    for (size_t r = 0; r < count; r++) {
        const qsb_audit_row *row = &rows[r];
        char label[64];
        row_label(row, label, sizeof label);
        if (row->stability.detail[0])
            detail_line(fp, &lines, "%s: stable: %s", label, row->stability.detail);
        for (int i = 0; i < QSB_BROKEN_COUNT; i++) {
            const qsb_broken_result *b = &row->broken[i];
            if (b->verdict != QSB_BROKEN_OK)
                detail_line(fp, &lines, "%s: %s comparator: %s (%s)", label,
                            qsb_broken_comparator_names[i], qsb_broken_verdict_name(b->verdict),
                            b->detail);
        }
        if (row->contradictions[0])
            detail_line(fp, &lines, "%s: CONTRADICTS ITS DECLARED PROPERTIES: %s", label,
                        row->contradictions);
        if (row->notes[0])
            detail_line(fp, &lines, "%s: note: %s", label, row->notes);
    }
}

/* The text table in three parts, so rows can be printed as they are measured: the head, */
static void print_table_head(FILE *fp, const qsb_audit_config *config)
{
    fprintf(fp, "%-26s %-8s %-17s %9s  %-*s   %s\n", "", "", "allocation", "",
            (int)(9 * config->adversary_count), "adversary cmp/(n log2 n)",
            "broken comparators");
    print_header(fp, config);
}

/* a row, */
static void print_table_row(FILE *fp, const qsb_audit_row *row)
{
    print_row(fp, row);
}

/* and the foot. */
static void print_table_foot(FILE *fp, const qsb_audit_row *rows, size_t count,
                             const qsb_audit_config *config)
{
    const char *method = NULL;
    for (size_t r = 0; r < count && !method; r++)
        method = rows[r].alloc.method;
    fprintf(fp, "\nstable     (key, index) records with many equal keys: 11 element sizes 1-64, "
                "5 patterns, n 2-1500, aligned and base+1\n");
    fprintf(fp, "alloc      malloc-family calls during one sort (n 100 and 100000, 4- and "
                "40-byte); max-bytes: largest request; %s\n",
            method ? method : "");
    fprintf(fp, "stack-B    deepest stack below the caller's frame, random 4-byte elements, "
                "max over n =");
    for (size_t i = 0; i < config->stack_count; i++)
        fprintf(fp, " %" PRIu64, config->stack_nelem[i]);
    fprintf(fp, "\nn=...      McIlroy's killer adversary: comparisons / (n log2 n); QUAD: aborted "
                "past 10 n log2 n (quadratic)\n");
    fprintf(fp, "broken     4-byte ints between PROT_NONE guard pages: OK (same elements), "
                "LOST/DUP, OOB-below/OOB-above (guard fault), HANG (%us), CRASH\n",
            config->timeout_s);
    print_details(fp, rows, count);
}

/* ---- case lists shared by CSV ---- */

static void join_alloc_cases(const qsb_alloc_result *a, char *buf, size_t len)
{
    size_t used = 0;
    buf[0] = '\0';
    for (size_t i = 0; i < a->ncases && used < len; i++) {
        const qsb_alloc_case *c = &a->cases[i];
        used += (size_t)snprintf(buf + used, len - used,
                                 "%s%" PRIu64 "x%" PRIu64 ":%" PRIu64 "/%" PRIu64 "/%" PRIu64,
                                 i ? ";" : "", c->nelem, c->size, c->counts.allocations,
                                 c->counts.frees, c->counts.max_bytes);
    }
}

static void join_stack_cases(const qsb_stack_result *s, char *buf, size_t len)
{
    static const char *const status[] = {"", "overflow", "failed"};
    size_t used = 0;
    buf[0] = '\0';
    for (size_t i = 0; i < s->ncases && used < len; i++) {
        const qsb_stack_case *c = &s->cases[i];
        if (c->status == QSB_STACK_OK)
            used += (size_t)snprintf(buf + used, len - used, "%s%" PRIu64 ":%" PRIu64,
                                     i ? ";" : "", c->nelem, c->bytes);
        else
            used += (size_t)snprintf(buf + used, len - used, "%s%" PRIu64 ":%s", i ? ";" : "",
                                     c->nelem, status[c->status]);
    }
}

static void join_adversary_cases(const qsb_adversary_result *a, char *buf, size_t len)
{
    size_t used = 0;
    buf[0] = '\0';
    for (size_t i = 0; i < a->ncases && used < len; i++) {
        const qsb_adversary_case *c = &a->cases[i];
        if (c->failed || c->quadratic)
            used += (size_t)snprintf(buf + used, len - used, "%s%" PRIu64 ":%s", i ? ";" : "",
                                     c->nelem, c->failed ? "failed" : "quadratic");
        else
            used += (size_t)snprintf(buf + used, len - used, "%s%" PRIu64 ":%" PRIu64,
                                     i ? ";" : "", c->nelem, c->comparisons);
    }
}

static void join_broken_details(const qsb_audit_row *row, char *buf, size_t len)
{
    size_t used = 0;
    buf[0] = '\0';
    for (int i = 0; i < QSB_BROKEN_COUNT && used < len; i++)
        if (row->broken[i].detail[0])
            used += (size_t)snprintf(buf + used, len - used, "%s%s: %s", used ? "; " : "",
                                     qsb_broken_comparator_names[i], row->broken[i].detail);
}

/* ---- CSV ---- */

typedef struct {
    FILE *fp;
    int fields; /* on this line so far */
    int failed;
} csv_line;

static void csv_text(csv_line *l, const char *text)
{
    if (l->fields++ && fputc(',', l->fp) == EOF)
        l->failed = 1;
    if (csv_fwrite(l->fp, text, strlen(text)) != 0)
        l->failed = 1;
}

static void csv_u64(csv_line *l, uint64_t v)
{
    char buf[24];
    snprintf(buf, sizeof buf, "%" PRIu64, v);
    csv_text(l, buf);
}

static void csv_end(csv_line *l)
{
    if (fputc('\n', l->fp) == EOF)
        l->failed = 1;
    l->fields = 0;
}

/* Writes the header; returns its column count. */
static size_t csv_header(csv_line *l)
{
    static const char *const head[] = {
        "algorithm", "variant", "stable", "stable_cases", "stable_unstable_cases",
        "stable_detail", "allocates", "alloc_method", "alloc_calls_small", "alloc_calls_large",
        "alloc_max_bytes", "alloc_cases", "stack_bytes", "stack_status", "stack_cases",
        "worst_case", "worst_max_ratio", "adversary_cases"};
    for (size_t i = 0; i < sizeof head / sizeof head[0]; i++)
        csv_text(l, head[i]);
    for (int i = 0; i < QSB_BROKEN_COUNT; i++) {
        char name[48];
        snprintf(name, sizeof name, "broken_%s", qsb_broken_comparator_names[i]);
        csv_text(l, name);
    }
    csv_text(l, "broken_details");
    csv_text(l, "contradictions");
    csv_text(l, "notes");
    csv_text(l, "failure");
    size_t columns = (size_t)l->fields;
    csv_end(l);
    return columns;
}

/* A failed row: its name, empty measurements, its failure. */
static void csv_failed_row(csv_line *l, const qsb_audit_row *row, size_t columns)
{
    csv_text(l, row->subject.name);
    csv_text(l, row->subject.variant ? row->subject.variant : "");
    for (size_t i = 2; i + 1 < columns; i++)
        csv_text(l, "");
    csv_text(l, row->failure);
    csv_end(l);
}

static void csv_row(csv_line *l, const qsb_audit_row *row)
{
    char buf[1024];
    csv_text(l, row->subject.name);
    csv_text(l, row->subject.variant ? row->subject.variant : "");
    csv_text(l, qsb_audit_stable_text(row));
    csv_u64(l, row->stability.cases);
    csv_u64(l, row->stability.unstable);
    csv_text(l, row->stability.detail);

    const qsb_alloc_result *a = &row->alloc;
    csv_text(l, allocates_text(row));
    csv_text(l, a->method ? a->method : "");
    if (a->available && a->ncases >= 2) {
        csv_u64(l, a->cases[0].counts.allocations);
        csv_u64(l, a->cases[1].counts.allocations);
        csv_u64(l, a->max_bytes);
    } else {
        csv_text(l, "");
        csv_text(l, "");
        csv_text(l, "");
    }
    join_alloc_cases(a, buf, sizeof buf);
    csv_text(l, buf);

    csv_text(l, stack_text(row, buf, sizeof buf));
    csv_text(l, row->stack.status == QSB_STACK_OK         ? "ok"
                : row->stack.status == QSB_STACK_OVERFLOW ? "overflow"
                                                          : "failed");
    join_stack_cases(&row->stack, buf, sizeof buf);
    csv_text(l, buf);

    csv_text(l, qsb_audit_worst_text(row));
    if (row->adversary.max_ratio > 0) /* 0: no n finished below the limit */
        snprintf(buf, sizeof buf, "%.4f", row->adversary.max_ratio);
    else
        buf[0] = '\0';
    csv_text(l, buf);
    join_adversary_cases(&row->adversary, buf, sizeof buf);
    csv_text(l, buf);

    for (int i = 0; i < QSB_BROKEN_COUNT; i++)
        csv_text(l, qsb_broken_verdict_name(row->broken[i].verdict));
    join_broken_details(row, buf, sizeof buf);
    csv_text(l, buf);
    csv_text(l, row->contradictions);
    csv_text(l, row->notes);
    csv_text(l, "");
    csv_end(l);
}

int qsb_audit_write_csv(FILE *fp, const qsb_audit_row *rows, size_t count)
{
    csv_line line = {fp, 0, 0};
    size_t columns = csv_header(&line);
    for (size_t i = 0; i < count; i++)
        if (rows[i].failure[0])
            csv_failed_row(&line, &rows[i], columns);
        else
            csv_row(&line, &rows[i]);
    return line.failed ? qsb_error(QSB_ESYSTEM, "audit: cannot write the CSV file") : QSB_OK;
}

/* ---- JSON ---- */

/* cJSON's constructors return NULL when out of memory; one flag collects that. */
typedef struct {
    bool failed;
} builder;

static cJSON *add(builder *b, cJSON *object, const char *name, cJSON *item)
{
    if (!item || !object || !cJSON_AddItemToObject(object, name, item)) {
        cJSON_Delete(item);
        b->failed = true;
        return NULL;
    }
    return item;
}

static void push(builder *b, cJSON *array, cJSON *item)
{
    if (!item || !array || !cJSON_AddItemToArray(array, item)) {
        cJSON_Delete(item);
        b->failed = true;
    }
}

static cJSON *number(uint64_t v)
{
    return cJSON_CreateNumber((double)v); /* counts and bytes stay far below 2^53 */
}

static void add_string_list(builder *b, cJSON *object, const char *name, const char *joined)
{
    /* "a; b; c" into ["a", "b", "c"] */
    cJSON *list = add(b, object, name, cJSON_CreateArray());
    char *copy = strdup(joined);
    if (!copy) {
        b->failed = true;
        return;
    }
    for (char *item = copy; *item;) {
        char *end = strstr(item, "; ");
        if (end)
            *end = '\0';
        push(b, list, cJSON_CreateString(item));
        item = end ? end + 2 : item + strlen(item);
    }
    free(copy);
}

static cJSON *context_json(builder *b, const qsb_audit_config *config, const qsb_audit_row *rows,
                           size_t count, const qsb_run_context *where,
                           const char *command_line)
{
    cJSON *o = cJSON_CreateObject();
    add(b, o, "tool_version", cJSON_CreateString(QSB_VERSION));
    add(b, o, "date", cJSON_CreateString(where->date));
    add(b, o, "host", cJSON_CreateString(where->host));
    add(b, o, "cpu_model", cJSON_CreateString(where->cpu_model));
    add(b, o, "libc", cJSON_CreateString(where->libc));
    add(b, o, "compiler", cJSON_CreateString(QSB_COMPILER));
    add(b, o, "build_type", cJSON_CreateString(QSB_BUILD_TYPE));
    add(b, o, "build_flags", cJSON_CreateString(QSB_BUILD_FLAGS));
    add(b, o, "sanitized", cJSON_CreateBool(QSB_SANITIZED));
    add(b, o, "alloc_method", cJSON_CreateString(count && rows[0].alloc.method
                                                     ? rows[0].alloc.method : ""));
    cJSON *stack = add(b, o, "stack_nelem", cJSON_CreateArray());
    for (size_t i = 0; i < config->stack_count; i++)
        push(b, stack, number(config->stack_nelem[i]));
    cJSON *adv = add(b, o, "adversary_nelem", cJSON_CreateArray());
    for (size_t i = 0; i < config->adversary_count; i++)
        push(b, adv, number(config->adversary_nelem[i]));
    add(b, o, "adversary_limit", cJSON_CreateString("10 n log2 n comparisons"));
    add(b, o, "broken_timeout_s", number(config->timeout_s));
    add(b, o, "command_line", cJSON_CreateString(command_line ? command_line : ""));
    return o;
}

static void stability_json(builder *b, cJSON *row_o, const qsb_audit_row *row)
{
    cJSON *o = add(b, row_o, "stable", cJSON_CreateObject());
    add(b, o, "verdict", cJSON_CreateString(qsb_audit_stable_text(row)));
    add(b, o, "cases", number(row->stability.cases));
    add(b, o, "unstable_cases", number(row->stability.unstable));
    add(b, o, "detail", cJSON_CreateString(row->stability.detail));
}

static void alloc_json(builder *b, cJSON *row_o, const qsb_audit_row *row)
{
    const qsb_alloc_result *a = &row->alloc;
    cJSON *o = add(b, row_o, "allocates", cJSON_CreateObject());
    add(b, o, "verdict", cJSON_CreateString(allocates_text(row)));
    add(b, o, "method", cJSON_CreateString(a->method ? a->method : ""));
    add(b, o, "max_bytes", a->available ? number(a->max_bytes) : cJSON_CreateNull());
    cJSON *cases = add(b, o, "cases", cJSON_CreateArray());
    for (size_t i = 0; i < a->ncases; i++) {
        cJSON *c = cJSON_CreateObject();
        add(b, c, "nelem", number(a->cases[i].nelem));
        add(b, c, "size", number(a->cases[i].size));
        add(b, c, "allocations", number(a->cases[i].counts.allocations));
        add(b, c, "frees", number(a->cases[i].counts.frees));
        add(b, c, "max_bytes", number(a->cases[i].counts.max_bytes));
        push(b, cases, c);
    }
}

static void stack_json(builder *b, cJSON *row_o, const qsb_audit_row *row)
{
    static const char *const status[] = {"ok", "overflow", "failed"};
    const qsb_stack_result *s = &row->stack;
    cJSON *o = add(b, row_o, "stack", cJSON_CreateObject());
    add(b, o, "status", cJSON_CreateString(status[s->status]));
    add(b, o, "max_bytes", number(s->max_bytes));
    add(b, o, "probe_stack_bytes", number(s->probe_bytes));
    cJSON *cases = add(b, o, "cases", cJSON_CreateArray());
    for (size_t i = 0; i < s->ncases; i++) {
        cJSON *c = cJSON_CreateObject();
        add(b, c, "nelem", number(s->cases[i].nelem));
        add(b, c, "size", number(4));
        add(b, c, "status", cJSON_CreateString(status[s->cases[i].status]));
        add(b, c, "bytes", s->cases[i].status == QSB_STACK_OK ? number(s->cases[i].bytes)
                                                               : cJSON_CreateNull());
        push(b, cases, c);
    }
}

static void adversary_json(builder *b, cJSON *row_o, const qsb_audit_row *row)
{
    const qsb_adversary_result *a = &row->adversary;
    cJSON *o = add(b, row_o, "worst_case", cJSON_CreateObject());
    add(b, o, "verdict", cJSON_CreateString(qsb_audit_worst_text(row)));
    add(b, o, "max_ratio",
        a->max_ratio > 0 ? cJSON_CreateNumber(a->max_ratio) : cJSON_CreateNull());
    cJSON *cases = add(b, o, "cases", cJSON_CreateArray());
    for (size_t i = 0; i < a->ncases; i++) {
        const qsb_adversary_case *ac = &a->cases[i];
        cJSON *c = cJSON_CreateObject();
        add(b, c, "nelem", number(ac->nelem));
        add(b, c, "comparisons", number(ac->comparisons));
        add(b, c, "limit", number(qsb_adversary_limit((size_t)ac->nelem)));
        add(b, c, "ratio", ac->failed ? cJSON_CreateNull() : cJSON_CreateNumber(ac->ratio));
        add(b, c, "quadratic", cJSON_CreateBool(ac->quadratic));
        add(b, c, "failed", cJSON_CreateBool(ac->failed));
        push(b, cases, c);
    }
}

static void broken_json(builder *b, cJSON *row_o, const qsb_audit_row *row)
{
    cJSON *o = add(b, row_o, "broken_comparators", cJSON_CreateObject());
    for (int i = 0; i < QSB_BROKEN_COUNT; i++) {
        cJSON *c = add(b, o, qsb_broken_comparator_names[i], cJSON_CreateObject());
        add(b, c, "verdict", cJSON_CreateString(qsb_broken_verdict_name(row->broken[i].verdict)));
        add(b, c, "detail", cJSON_CreateString(row->broken[i].detail));
    }
}

static cJSON *row_json(builder *b, const qsb_audit_row *row)
{
    cJSON *o = cJSON_CreateObject();
    add(b, o, "algorithm", cJSON_CreateString(row->subject.name));
    add(b, o, "variant", row->subject.variant ? cJSON_CreateString(row->subject.variant)
                                              : cJSON_CreateNull());
    if (row->subject.has_declared) {
        cJSON *d = add(b, o, "declared", cJSON_CreateObject());
        add(b, d, "stable", cJSON_CreateBool(row->subject.declared & QSB_PROP_STABLE));
        add(b, d, "allocates", cJSON_CreateBool(row->subject.declared & QSB_PROP_ALLOCATES));
        add(b, d, "nlogn_worst", cJSON_CreateBool(row->subject.declared & QSB_PROP_NLOGN_WORST));
    } else {
        add(b, o, "declared", cJSON_CreateNull());
    }
    add(b, o, "failure", row->failure[0] ? cJSON_CreateString(row->failure) : cJSON_CreateNull());
    if (row->failure[0]) /* nothing was measured past the failure */
        return o;
    stability_json(b, o, row);
    alloc_json(b, o, row);
    stack_json(b, o, row);
    adversary_json(b, o, row);
    broken_json(b, o, row);
    add_string_list(b, o, "contradictions", row->contradictions);
    add_string_list(b, o, "notes", row->notes);
    return o;
}

int qsb_audit_write_json(FILE *fp, const qsb_audit_row *rows, size_t count,
                         const qsb_audit_config *config, const qsb_run_context *where,
                         const char *command_line)
{
    builder b = {false};
    cJSON *root = cJSON_CreateObject();
    add(&b, root, "schema_version", cJSON_CreateNumber(1));
    add(&b, root, "kind", cJSON_CreateString("audit"));
    add(&b, root, "context", context_json(&b, config, rows, count, where, command_line));
    cJSON *list = add(&b, root, "rows", cJSON_CreateArray());
    for (size_t i = 0; i < count; i++)
        push(&b, list, row_json(&b, &rows[i]));
    return b.failed ? qsb_json_abandon(root, "audit JSON")
                    : qsb_json_print(fp, root, "audit JSON");
}

/* ---- The audit as a whole ---- */

/* The subjects of an audit, in the order their rows are measured. */
typedef struct {
    qsb_audit_subject *items;
    size_t count;
    size_t capacity;
} audit_subjects;

/* Room for the subjects of n algorithms (each may bring a variant). QSB_OK, or QSB_ESYSTEM
** (reported) when out of memory. */
static int subjects_init(audit_subjects *s, size_t n)
{
    s->count = 0;
    s->capacity = 2 * n; /* room for every variant */
    s->items = malloc((s->capacity ? s->capacity : 1) * sizeof *s->items);
    return s->items ? QSB_OK : qsb_out_of_memory("audit rows");
}

static bool has_subject(const audit_subjects *s, const char *name)
{
    for (size_t i = 0; i < s->count; i++)
        if (!s->items[i].variant && strcmp(s->items[i].name, name) == 0)
            return true;
    return false;
}

/* Adds an algorithm (a registry entry or a plug-in), then its "malloc fails" variant when it
** has one. QSB_EUSAGE (reported) when it was added already. Plug-ins and `system` declare
** nothing, so nothing they do can contradict a claim. */
static int subjects_add(audit_subjects *s, const qsb_algorithm *algorithm)
{
    qsb_audit_subject subject = {
        .name = algorithm->name,
        .variant = NULL,
        .sort = algorithm->sort,
        .declared = algorithm->properties,
        .has_declared = !(algorithm->properties & QSB_PROP_UNKNOWN),
        .min_size = algorithm->min_size,
    };
    if (has_subject(s, subject.name))
        return qsb_usage_error("--algos: '%s' is listed twice", qsb_quote(subject.name));
    if (s->count + 2 > s->capacity)
        return qsb_error(QSB_ESYSTEM, "audit rows: more subjects than room was made for");
    s->items[s->count++] = subject;
    qsb_audit_subject forced;
    if (qsb_audit_forced_fallback(subject.name, &forced))
        s->items[s->count++] = forced;
    return QSB_OK;
}

/* The subjects of names[0..n-1] (NULL: the whole registry), each resolved through plugins
** (plugins.h: a plug-in is checked in a child, not loaded here) and added in turn. QSB_OK or
** an error (reported). */
static int subjects_select(audit_subjects *s, qsb_plugins *plugins, const char *const *names,
                           size_t n)
{
    size_t count = names ? n : qsb_algorithm_count;
    int status = subjects_init(s, count);
    for (size_t i = 0; i < count && status == QSB_OK; i++) {
        qsb_algorithm a;
        status = qsb_plugins_resolve(plugins, names ? names[i] : qsb_algorithms[i].name, &a);
        if (status == QSB_OK)
            status = subjects_add(s, &a);
    }
    return status;
}

/* An audit in progress: its subjects, the set of plug-ins they were resolved into, and the
** rows measured so far with what the files record beside them. */
typedef struct {
    const qsb_audit_request *request;
    audit_subjects subjects;
    qsb_plugins *plugins;
    qsb_audit_config config;
    struct tm started;   /* when the audit began (UTC), for the files' context */
    qsb_audit_row *rows; /* one per subject */
    size_t count;
} audit_job;

static size_t failed_rows(const qsb_audit_row *rows, size_t count)
{
    size_t failed = 0;
    for (size_t i = 0; i < count; i++)
        failed += rows[i].failure[0] != '\0';
    return failed;
}

/* Every probe on every subject into the job's rows, the table on `table`: its head, each row
** as it is measured, its foot. Every probe's child loads the job's plug-ins; this process
** never does. QSB_OK, QSB_FINDING when a subject ended a probe given a correct comparator
** (reported as its row ended), or an error (reported) that ended the audit. */
static int probe_subjects(audit_job *job, FILE *table)
{
    job->config.plugins = job->plugins;
    if (QSB_SANITIZED)
        qsb_warning("sanitized build: stack depths include ASan's redzones, allocations are "
                    "counted through ASan's hooks, and 'system' runs through ASan's qsort_r "
                    "interceptor (n-1 extra comparator calls); audit a normal build for the "
                    "real figures");
    const audit_subjects *s = &job->subjects;
    if (!(job->rows = calloc(s->count ? s->count : 1, sizeof *job->rows)))
        return qsb_out_of_memory("audit rows");
    print_table_head(table, &job->config);
    int status = QSB_OK;
    for (; job->count < s->count && status == QSB_OK; job->count++) {
        qsb_audit_row *row = &job->rows[job->count];
        status = qsb_audit_run_row(&s->items[job->count], &job->config, row);
        if (status == QSB_OK) {
            print_table_row(table, row);
            fflush(table);
        }
    }
    if (status != QSB_OK)
        return status;
    print_table_foot(table, job->rows, job->count, &job->config);
    return failed_rows(job->rows, job->count) ? QSB_FINDING : QSB_OK;
}

enum { OUT_CSV, OUT_JSON, OUT_COUNT };

/* The audit between its opened files: both written (a subject that FAILED too) or neither.
** When a file takes stdout ("-", /dev/stdout...), the table goes to stderr so the file stays
** parseable. */
static int audit_into(const qsb_outputs *files, void *arg)
{
    audit_job *job = arg;
    int status = probe_subjects(job, qsb_outputs_text_stream(files));
    if (status != QSB_OK && status != QSB_FINDING)
        return status;
    qsb_run_context where;
    qsb_run_context_gather(&where, &job->started);
    FILE *csv = files->file[OUT_CSV].fp, *json = files->file[OUT_JSON].fp;
    int write_status = csv ? qsb_audit_write_csv(csv, job->rows, job->count) : QSB_OK;
    if (write_status == QSB_OK && json)
        write_status = qsb_audit_write_json(json, job->rows, job->count, &job->config, &where,
                                            job->request->command_line);
    return write_status != QSB_OK ? write_status : status;
}

/* The audit with its files, opened first; none may be the library of a plug-in audited. */
static int audit_with_files(audit_job *job)
{
    const char *libraries[QSB_PLUGIN_MAX];
    const qsb_file_group read = {"the plug-in", QSB_FILES_READ, libraries,
                                 qsb_plugins_libraries(job->plugins, libraries)};
    const qsb_output_spec paths[OUT_COUNT] = {job->request->csv, job->request->json};
    return qsb_with_outputs(paths, OUT_COUNT, &read, 1, audit_into, job);
}

int qsb_audit(const qsb_audit_request *request)
{
    audit_job job = {.request = request, .plugins = qsb_plugins_new()};
    qsb_audit_config_init(&job.config, request->depth);
    time_t now = time(NULL);
    gmtime_r(&now, &job.started);
    int status = job.plugins ? subjects_select(&job.subjects, job.plugins, request->names,
                                               request->n_names)
                             : QSB_ESYSTEM;
    if (status == QSB_OK)
        status = audit_with_files(&job);
    free(job.rows);
    free(job.subjects.items);
    qsb_plugins_free(job.plugins); /* last: the rows name its plug-ins */
    return status;
}

#define PROBE_MARK "QSB_AUDIT_PROBE" /* set in the audit run again with the probe */

void qsb_audit_exec_with_probe(int argc, char **argv)
{
    const char *method;
    char probe[4096];
    if (getenv(PROBE_MARK) || qsb_alloc_counting_available(&method) ||
        !qsb_alloc_probe_path(probe, sizeof probe))
        return;
    const char *preload = getenv("LD_PRELOAD");
    size_t len = strlen(probe) + (preload ? strlen(preload) + 1 : 0) + 1;
    char *value = malloc(len);
    char **args = malloc(((size_t)argc + 2) * sizeof *args);
    if (value && args) {
        snprintf(value, len, "%s%s%s", probe, preload ? ":" : "", preload ? preload : "");
        args[0] = "qsortbench";
        for (int i = 0; i < argc; i++)
            args[i + 1] = argv[i];
        args[argc + 1] = NULL;
        if (setenv("LD_PRELOAD", value, 1) == 0 && setenv(PROBE_MARK, "1", 1) == 0) {
            fflush(NULL);
            execv("/proc/self/exe", args);
        }
    }
    free(value);
    free(args);
}
