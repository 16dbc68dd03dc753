/*
** The broken-comparator probe (see audit.h). For each comparator that breaks the qsort
** contract, one child process sorts a set of int arrays, each placed twice in a fresh
** mapping with PROT_NONE guard pages: once flush against the lower guard (an access below
** the array faults on its first element too far), once flush against the upper guard. The
** verdict is the worst thing seen: a guard fault (OUT OF BOUNDS), any other fatal signal
** (CRASH), the time limit (HANG), a changed multiset (LOST/DUPLICATED), else OK (same
** elements, in whatever order).
**
** The Qualys case (January 2024): `return *a - *b` on ints overflows when INT_MIN meets 0,
** so INT_MIN and 0 are each "less" than the other. Its inputs are zeros with one INT_MIN at
** various places, and zeros with many INT_MINs. The other comparators sort random, ascending
** and descending non-negative ints.
*/
#include "audit.h"

#include <limits.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include "diag.h"
#include "element.h"
#include "rng.h"

const char *const qsb_broken_comparator_names[QSB_BROKEN_COUNT] = {
    "random", "always-less", "always-equal", "always-greater", "subtraction",
    "intransitive", "reversed-1pct"};

const char *qsb_broken_verdict_name(qsb_broken_verdict v)
{
    static const char *const names[] = {"OK",   "LOST/DUP", "OOB-below", "OOB-above",
                                        "HANG", "CRASH",    "not-run"};
    return names[v];
}

/* ---- the comparators; arg is a qsb_rng for the two that need chance ---- */

static int read_int(const void *p)
{
    int v;
    memcpy(&v, p, sizeof v);
    return v;
}

static int compare_correctly(const void *a, const void *b)
{
    int x = read_int(a), y = read_int(b);
    return (x > y) - (x < y);
}

/* Comparators read their arguments, even those whose answer ignores them: a sort that hands
** over a pointer outside the array must touch the guard, as it would with any real one. */
static void touch(const void *a, const void *b)
{
    volatile int sink = read_int(a) ^ read_int(b);
    (void)sink;
}

static int compare_random(const void *a, const void *b, void *rng)
{
    touch(a, b);
    return (int)(qsb_rng_next31(rng) % 3) - 1;
}

static int compare_always_less(const void *a, const void *b, void *arg)
{
    (void)arg;
    touch(a, b);
    return -1;
}

static int compare_always_equal(const void *a, const void *b, void *arg)
{
    (void)arg;
    touch(a, b);
    return 0;
}

static int compare_always_greater(const void *a, const void *b, void *arg)
{
    (void)arg;
    touch(a, b);
    return 1;
}

/* The broken idiom itself. Computed in unsigned arithmetic and converted back (gcc defines
** that conversion as wrapping), so this file has no undefined behaviour of its own. */
static int compare_subtraction(const void *a, const void *b, void *arg)
{
    (void)arg;
    return (int)((unsigned)read_int(a) - (unsigned)read_int(b));
}

/* Rock-paper-scissors on the value mod 3: each class beats the next, so a < b < c < a. */
static int compare_intransitive(const void *a, const void *b, void *arg)
{
    (void)arg;
    int x = read_int(a), y = read_int(b);
    int cx = x % 3, cy = y % 3;
    if (cx == cy)
        return (x > y) - (x < y);
    return (cx + 1) % 3 == cy ? -1 : 1;
}

static int compare_reversed_1pct(const void *a, const void *b, void *rng)
{
    int answer = compare_correctly(a, b);
    return qsb_rng_next31(rng) % 100 == 0 ? -answer : answer;
}

static const qsb_compare broken_comparators[QSB_BROKEN_COUNT] = {
    compare_random,      compare_always_less,  compare_always_equal, compare_always_greater,
    compare_subtraction, compare_intransitive, compare_reversed_1pct};

/* ---- inputs ---- */

typedef enum { INPUT_RANDOM, INPUT_ASCENDING, INPUT_DESCENDING, INPUT_ONE_INT_MIN,
               INPUT_MANY_INT_MIN } input_kind;

typedef struct {
    input_kind kind;
    size_t n;
    size_t position; /* INPUT_ONE_INT_MIN: where INT_MIN sits */
} input_case;

static void make_input(const input_case *c, int *out, uint64_t seed)
{
    qsb_rng rng;
    qsb_rng_seed(&rng, seed);
    for (size_t i = 0; i < c->n; i++) {
        switch (c->kind) {
        case INPUT_RANDOM:
            out[i] = (int)qsb_rng_next31(&rng);
            break;
        case INPUT_ASCENDING:
            out[i] = (int)i;
            break;
        case INPUT_DESCENDING:
            out[i] = (int)(c->n - i);
            break;
        case INPUT_ONE_INT_MIN:
            out[i] = i == c->position ? INT_MIN : 0;
            break;
        case INPUT_MANY_INT_MIN:
            out[i] = qsb_rng_next31(&rng) % 8 == 0 ? INT_MIN : 0;
            break;
        }
    }
}

static void describe_input(const input_case *c, char *buf, size_t len)
{
    static const char *const kinds[] = {"random", "ascending", "descending", "", "zeros and ~1/8 INT_MIN"};
    if (c->kind == INPUT_ONE_INT_MIN)
        snprintf(buf, len, "n=%zu zeros, INT_MIN at %zu", c->n, c->position);
    else
        snprintf(buf, len, "n=%zu %s", c->n, kinds[c->kind]);
}

static int placed_before(const input_case *cases, size_t count, size_t position)
{
    for (size_t i = 0; i < count; i++)
        if (cases[i].position == position)
            return 1;
    return 0;
}

/* The inputs of one comparator, in the order the child runs them (small first, so the
** reported case is the smallest that shows the problem). Returns how many. */
static size_t list_inputs(qsb_broken_comparator which, input_case *out, size_t room)
{
    static const size_t counts[] = {2, 3, 4, 5, 8, 13, 32, 100, 1000};
    const size_t ncounts = sizeof counts / sizeof counts[0];
    size_t k = 0;
    for (size_t i = 0; i < ncounts; i++) {
        size_t n = counts[i];
        if (which == QSB_BROKEN_SUBTRACTION) {
            const size_t first = k, places[] = {0, 1, n / 2, n - 2, n - 1};
            for (size_t p = 0; p < 5 && k < room; p++)
                if (!placed_before(out + first, k - first, places[p]))
                    out[k++] = (input_case){INPUT_ONE_INT_MIN, n, places[p]};
            if (n >= 8 && k < room)
                out[k++] = (input_case){INPUT_MANY_INT_MIN, n, 0};
        } else {
            for (int kind = INPUT_RANDOM; kind <= INPUT_DESCENDING && k < room; kind++)
                out[k++] = (input_case){(input_kind)kind, n, 0};
        }
    }
    return k;
}

/* ---- the child ---- */

typedef struct {
    int lost;              /* some case changed the multiset */
    char lost_case[112];   /* the first such case */
    char current[112];     /* the case running now: what a fault or hang interrupted */
    uintptr_t base;        /* its array */
    size_t bytes;
} broken_report;           /* shared with the parent */

typedef struct {
    qsb_sort_fn sort;
    qsb_broken_comparator which;
    broken_report *report;
} broken_child;

static int same_multiset(int *before, int *after, size_t n)
{
    qsort(before, n, sizeof *before, compare_correctly);
    qsort(after, n, sizeof *after, compare_correctly);
    return memcmp(before, after, n * sizeof *before) == 0;
}

/* Sorts one input against one guard; returns 0, or 1 when the probe could not run. */
static int run_placed(const broken_child *c, const input_case *in, uint64_t seed,
                      int against_upper, int *input)
{
    const size_t page = (size_t)sysconf(_SC_PAGESIZE);
    const size_t bytes = in->n * sizeof(int);
    const size_t data_pages = (bytes + page - 1) / page;
    const size_t total = (data_pages + 2) * page;
    char *map = mmap(NULL, total, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    if (map == MAP_FAILED)
        return 1;
    char *lower_guard = map, *upper_guard = map + (data_pages + 1) * page;
    int *kept = malloc(bytes);
    if (!kept || mprotect(lower_guard, page, PROT_NONE) != 0 ||
        mprotect(upper_guard, page, PROT_NONE) != 0) {
        free(kept);
        munmap(map, total);
        return 1;
    }
    int *base = (int *)(against_upper ? upper_guard - bytes : lower_guard + page);
    memcpy(base, input, bytes);
    memcpy(kept, input, bytes);

    describe_input(in, c->report->current, sizeof c->report->current);
    size_t len = strlen(c->report->current);
    snprintf(c->report->current + len, sizeof c->report->current - len,
             ", array flush with the %s guard", against_upper ? "upper" : "lower");
    c->report->base = (uintptr_t)base;
    c->report->bytes = bytes;
    qsb_child_set_guards(lower_guard, page, upper_guard, page);

    qsb_rng rng;
    qsb_rng_seed(&rng, seed);
    c->sort(base, in->n, sizeof(int), broken_comparators[c->which], &rng);

    qsb_child_set_guards(NULL, 0, NULL, 0);
    if (!same_multiset(kept, base, in->n) && !c->report->lost) {
        c->report->lost = 1;
        memcpy(c->report->lost_case, c->report->current, sizeof c->report->lost_case);
    }
    free(kept);
    munmap(map, total);
    return 0;
}

static int broken_child_main(void *ctx)
{
    const broken_child *c = ctx;
    input_case inputs[64];
    size_t count = list_inputs(c->which, inputs, sizeof inputs / sizeof inputs[0]);
    int *input = malloc(1000 * sizeof *input + sizeof *input);
    if (!input)
        return 1;
    int failed = 0;
    for (size_t i = 0; i < count && !failed; i++) {
        uint64_t seed = QSB_DEFAULT_SEED + i;
        make_input(&inputs[i], input, seed);
        failed = run_placed(c, &inputs[i], seed, 0, input) ||
                 run_placed(c, &inputs[i], seed, 1, input);
    }
    free(input);
    return failed;
}

/* "12 bytes below the array", from the fault address and the case's array. */
static void describe_fault(uintptr_t address, const broken_report *report, char *buf,
                           size_t len)
{
    uintptr_t end = report->base + report->bytes;
    if (address < report->base)
        snprintf(buf, len, "access %ju bytes below the array",
                 (uintmax_t)(report->base - address));
    else if (address >= end)
        snprintf(buf, len, "access %ju bytes past its end", (uintmax_t)(address - end));
    else
        snprintf(buf, len, "access inside the array");
}

static void classify(const qsb_child_outcome *o, const broken_report *report,
                     qsb_broken_result *out)
{
    char fault[64] = "";
    if (o->faulted && o->fault_wild)
        snprintf(fault, sizeof fault, "wild access (non-canonical address)");
    else if (o->faulted)
        describe_fault(o->fault_address, report, fault, sizeof fault);
    switch (o->kind) {
    case QSB_CHILD_GUARD_BELOW:
    case QSB_CHILD_GUARD_ABOVE:
        out->verdict = o->kind == QSB_CHILD_GUARD_BELOW ? QSB_BROKEN_OOB_BELOW
                                                         : QSB_BROKEN_OOB_ABOVE;
        snprintf(out->detail, sizeof out->detail, "%s: %s", report->current, fault);
        return;
    case QSB_CHILD_TIMEOUT:
        out->verdict = QSB_BROKEN_HANG;
        snprintf(out->detail, sizeof out->detail, "%s", report->current);
        return;
    case QSB_CHILD_SIGNALED:
        out->verdict = QSB_BROKEN_CRASH;
        snprintf(out->detail, sizeof out->detail, "%s: signal %d%s%s", report->current,
                 o->code, fault[0] ? ", " : "", fault);
        return;
    case QSB_CHILD_QUIT: /* the sort itself called exit() */
        out->verdict = QSB_BROKEN_CRASH;
        snprintf(out->detail, sizeof out->detail, "%s: exit status %d", report->current,
                 o->code);
        return;
    case QSB_CHILD_EXITED:
        break;
    }
    if (o->code == 0) {
        out->verdict = report->lost ? QSB_BROKEN_LOST : QSB_BROKEN_OK;
        snprintf(out->detail, sizeof out->detail, "%s", report->lost ? report->lost_case : "");
    } else {
        out->verdict = QSB_BROKEN_NOT_RUN;
        snprintf(out->detail, sizeof out->detail, "the probe could not map its guard pages");
    }
}

int qsb_audit_broken_one(qsb_sort_fn sort, qsb_plugins *plugins, qsb_broken_comparator which,
                         unsigned timeout_s, qsb_broken_result *out)
{
    broken_report *report = qsb_shared_alloc(sizeof *report);
    if (!report)
        return qsb_out_of_memory("broken-comparator probe");
    broken_child ctx = {sort, which, report};
    qsb_child_outcome outcome;
    int status = qsb_run_in_child(plugins, broken_child_main, &ctx, timeout_s, &outcome);
    if (status == QSB_OK)
        classify(&outcome, report, out);
    else
        *out = (qsb_broken_result){QSB_BROKEN_NOT_RUN, "fork failed"};
    qsb_shared_free(report, sizeof *report);
    return status;
}

int qsb_audit_broken(qsb_sort_fn sort, qsb_plugins *plugins, unsigned timeout_s,
                     qsb_broken_result out[QSB_BROKEN_COUNT])
{
    for (int i = 0; i < QSB_BROKEN_COUNT; i++) {
        int status = qsb_audit_broken_one(sort, plugins, (qsb_broken_comparator)i, timeout_s,
                                          &out[i]);
        if (status != QSB_OK)
            return status;
    }
    return QSB_OK;
}
