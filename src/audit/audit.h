/*
** `qsortbench audit`: the properties the glibc qsort debate was about, measured for any sort
** function with the qsort_r signature (registry entries and plug-ins), never copied from the
** registry's declared property bits:
**
**   stability      (key, original index) records with many equal keys, several patterns,
**                  element sizes 1 to 64 (every copy mode, msort's indirect path);
**   allocation     malloc-family calls and the largest request made during one sort;
**   stack          deepest stack used, on a thread whose stack is pre-filled with a pattern;
**   worst case     comparisons on McIlroy's killer adversary (1999), per n log2 n;
**   broken cmp     behaviour under comparators that break the contract, with PROT_NONE
**                  guard pages flush against both ends of the array.
**
** Probes that may crash, hang or longjmp out of a sort run in a forked child (audit_child.c),
** so the tool survives whatever the sort does and leaks nothing. Every probe returns a status
** (QSB_OK, or QSB_ESYSTEM when it could not run at all); findings are data in the result.
*/
#ifndef QSB_AUDIT_H
#define QSB_AUDIT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "plugins.h"
#include "registry.h"
#include "run_context.h"

/* ---- what is audited, and how much ---- */

#define QSB_AUDIT_MAX_CASES 4

typedef struct {
    uint64_t stack_nelem[QSB_AUDIT_MAX_CASES];     /* n of the stack probe (4-byte random) */
    size_t stack_count;
    uint64_t adversary_nelem[QSB_AUDIT_MAX_CASES]; /* n of the killer adversary */
    size_t adversary_count;
    unsigned timeout_s;                            /* per child; past it: HANG */
    qsb_plugins *plugins; /* the set the subjects' plug-ins were resolved into, loaded in
                          ** every probe's child before the probe (plugins.h); NULL: none */
} qsb_audit_config;

typedef enum {
    QSB_AUDIT_FULL, /* the stack probe up to n = 8,388,608 */
    QSB_AUDIT_QUICK /* --quick: the stack probe up to n = 65,536; the same verdict logic */
} qsb_audit_depth;

/* The audit's sizes at that depth (the adversary at n = 1000, 10000, 100000 in both), no
** plug-ins. */
void qsb_audit_config_init(qsb_audit_config *config, qsb_audit_depth depth);

typedef struct {
    const char *name;    /* registry or plug-in name */
    const char *variant; /* NULL, or how the row differs ("malloc fails") */
    qsb_sort_fn sort;
    unsigned declared;   /* QSB_PROP_* bits the entry claims */
    bool has_declared;   /* false: nothing claimed (QSB_PROP_UNKNOWN), nothing to contradict */
    size_t min_size;     /* smaller elements are refused (registry.h), so never probed */
} qsb_audit_subject;

/* The registry entry; false when the name is unknown. */
bool qsb_audit_subject_from_registry(const char *name, qsb_audit_subject *out);

/* The "malloc fails" variant of an algorithm whose scratch comes through algorithms/alloc.h
** (msort: its quicksort fallback; msort-2.39: its heapsort fallback). Returns false when
** the algorithm has no such variant. */
bool qsb_audit_forced_fallback(const char *name, qsb_audit_subject *out);

/* ---- stability ---- */

typedef enum {
    QSB_STABLE_YES,      /* equal keys kept their order in every case */
    QSB_STABLE_NO,       /* some case reordered equal keys */
    QSB_STABLE_UNSORTED  /* some case was not even sorted (a broken sort) */
} qsb_stable_verdict;

typedef struct {
    qsb_stable_verdict verdict;
    unsigned cases;       /* sorts checked */
    unsigned unstable;    /* of which reordered equal keys */
    char detail[112];     /* the first case that decided the verdict, else "" */
    char outside[96];     /* the first case where the sort wrote outside its array (canary
                          ** zones either side), else "" */
    size_t min_size;      /* the smallest size probed from: the subject refuses smaller */
} qsb_stability_result;

/* Sizes below min_size (0: none) are left out, as the sort refuses them. */
int qsb_audit_stability(qsb_sort_fn sort, size_t min_size, qsb_stability_result *out);

/* ---- allocation ---- */

typedef struct {
    uint64_t allocations; /* malloc, calloc, realloc, memalign-family calls */
    uint64_t frees;       /* free calls with a non-NULL pointer */
    uint64_t max_bytes;   /* largest single request */
} qsb_alloc_counts;

/* Counting is a process-wide switch, on only around the audited sort, in a process that has
** libqsb_alloc_probe.so preloaded (the audit's own, never a benchmark's). Built with ASan the
** allocator is ASan's, and the counts come from its malloc/free hooks (realloc is then one
** allocation and one free). Returns false, with *method saying why, when neither works. */
bool qsb_alloc_counting_available(const char **method);

/* The path of libqsb_alloc_probe.so (beside the sorts' shared object), for the audit to run
** itself again with it preloaded; false when there is none (sanitized builds count in
** process). */
bool qsb_alloc_probe_path(char *buf, size_t len);
void qsb_alloc_counting_begin(void);
void qsb_alloc_counting_end(qsb_alloc_counts *out);

typedef struct {
    uint64_t nelem, size;
    qsb_alloc_counts counts;
} qsb_alloc_case;

typedef struct {
    bool available;
    const char *method;                     /* how counted, or why not */
    qsb_alloc_case cases[QSB_AUDIT_MAX_CASES]; /* small and large, 4- and 40-byte */
    size_t ncases;
    bool allocates;                         /* some case allocated */
    uint64_t max_bytes;                     /* over every case */
} qsb_alloc_result;

int qsb_audit_alloc(qsb_sort_fn sort, qsb_alloc_result *out);

/* ---- stack ---- */

typedef enum {
    QSB_STACK_OK,
    QSB_STACK_OVERFLOW, /* the sort ran past the probe's stack (SIGSEGV on its guard) */
    QSB_STACK_FAILED    /* crashed otherwise, hung, or the probe could not run */
} qsb_stack_status;

typedef struct {
    uint64_t nelem;
    uint64_t bytes;     /* below the caller's frame, measured to the byte */
    qsb_stack_status status;
} qsb_stack_case;

typedef struct {
    qsb_stack_case cases[QSB_AUDIT_MAX_CASES];
    size_t ncases;
    uint64_t max_bytes;
    qsb_stack_status status; /* the worst case's */
    uint64_t probe_bytes;    /* size of the probe's stack */
} qsb_stack_result;

int qsb_audit_stack(qsb_sort_fn sort, const qsb_audit_config *config, qsb_stack_result *out);

/* One measurement in this process (tests): the deepest stack `sort` uses on random 4-byte
** elements, or UINT64_MAX when the probe could not be set up. Not protected against a
** crashing sort. */
uint64_t qsb_stack_depth(qsb_sort_fn sort, size_t nelem);

/* ---- worst case: McIlroy's killer adversary ---- */

/* Runs `sort` on n 4-byte elements against the adversary, in this process. Past `limit`
** comparisons it longjmps out of the comparator (anything the sort allocated leaks: the
** audit calls it in a child). Writes the comparator calls made (limit + 1 when aborted) and,
** when `values` is not NULL, the n values of an input that replays the same comparisons
** on a deterministic sort. Returns true when it aborted. */
bool qsb_adversary_run(qsb_sort_fn sort, size_t n, uint64_t limit, uint64_t *calls,
                       uint32_t *values);

/* 10 n log2 n: the comparisons after which the audit calls a sort quadratic. */
uint64_t qsb_adversary_limit(size_t n);

typedef struct {
    uint64_t nelem;
    uint64_t comparisons;
    double ratio;        /* comparisons / (n log2 n) */
    bool quadratic;      /* aborted past qsb_adversary_limit(n) */
    bool failed;         /* the child crashed or hung */
} qsb_adversary_case;

typedef struct {
    qsb_adversary_case cases[QSB_AUDIT_MAX_CASES];
    size_t ncases;
    bool quadratic;      /* some n went past the limit */
    bool failed;         /* some child crashed or hung */
    double max_ratio;    /* over the cases that finished */
} qsb_adversary_result;

int qsb_audit_adversary(qsb_sort_fn sort, const qsb_audit_config *config,
                        qsb_adversary_result *out);

/* ---- broken comparators ---- */

typedef enum {
    QSB_BROKEN_RANDOM,        /* random answers */
    QSB_BROKEN_ALWAYS_LESS,   /* always -1 */
    QSB_BROKEN_ALWAYS_EQUAL,  /* always 0 */
    QSB_BROKEN_ALWAYS_GREATER,/* always +1 */
    QSB_BROKEN_SUBTRACTION,   /* a - b on ints: overflows on INT_MIN and 0 (Qualys, 2024) */
    QSB_BROKEN_INTRANSITIVE,  /* rock-paper-scissors on value mod 3 */
    QSB_BROKEN_REVERSED_1PCT, /* correct, but 1% of the answers reversed */
    QSB_BROKEN_COUNT
} qsb_broken_comparator;

typedef enum {
    QSB_BROKEN_OK,            /* same elements, any order, in every case */
    QSB_BROKEN_LOST,          /* the multiset changed: elements lost or duplicated */
    QSB_BROKEN_OOB_BELOW,     /* touched the guard page below the array */
    QSB_BROKEN_OOB_ABOVE,     /* touched the guard page above the array */
    QSB_BROKEN_HANG,          /* past the time limit */
    QSB_BROKEN_CRASH,         /* any other fatal signal */
    QSB_BROKEN_NOT_RUN        /* the child could not be started */
} qsb_broken_verdict;

extern const char *const qsb_broken_comparator_names[QSB_BROKEN_COUNT]; /* "random", ... */
const char *qsb_broken_verdict_name(qsb_broken_verdict v);               /* "OK", "OOB-below" */

typedef struct {
    qsb_broken_verdict verdict;
    char detail[192];   /* the case that decided the verdict, else "" */
} qsb_broken_result;

/* One comparator, every input, both guard placements, in one child (which loads plugins
** first, as qsb_run_in_child). */
int qsb_audit_broken_one(qsb_sort_fn sort, qsb_plugins *plugins, qsb_broken_comparator which,
                         unsigned timeout_s, qsb_broken_result *out);
int qsb_audit_broken(qsb_sort_fn sort, qsb_plugins *plugins, unsigned timeout_s,
                     qsb_broken_result out[QSB_BROKEN_COUNT]);

/* ---- one row per subject ---- */

typedef struct {
    qsb_audit_subject subject;
    qsb_stability_result stability;
    qsb_alloc_result alloc;
    qsb_stack_result stack;
    qsb_adversary_result adversary;
    qsb_broken_result broken[QSB_BROKEN_COUNT];
    char contradictions[256]; /* a declared claim the measurement disproves, "" when none */
    char notes[256];          /* a property measured though not declared, "" when none */
    char failure[128];        /* "" when every probe ran; else how the subject ended a probe
                              ** given a correct comparator ("crashed: signal 11 in its first
                              ** sort"), and the probes after it were not run */
} qsb_audit_row;

/* Every probe on one subject, each in a child process, then the comparison with its declared
** bits. First the subject sorts one small array (the audit's time limit): a subject that
** crashes, hangs, exits or writes outside that array fails the row at once; the stability
** and allocation probes follow in children of their own, and a subject that ends one of them
** so fails the row there. A claim is a set STABLE or NLOGN_WORST bit, or an unset ALLOCATES
** bit (in place); a measurement that disproves one is a contradiction, printed as a warning.
** A property that holds without being claimed is only noted. */
int qsb_audit_run_row(const qsb_audit_subject *subject, const qsb_audit_config *config,
                      qsb_audit_row *row);

/* Cell texts shared by the reporters, so the table, CSV and JSON say the same thing (audit.c
** has the others). */
const char *qsb_audit_stable_text(const qsb_audit_row *row);    /* "yes", "no", "UNSORTED" */
const char *qsb_audit_worst_text(const qsb_audit_row *row);     /* "nlogn", "quadratic", ... */

/* ---- reporters (audit.c) ---- */

int qsb_audit_write_csv(FILE *fp, const qsb_audit_row *rows, size_t count);
/* The JSON's context: where (run_context.h) and the command line. */
int qsb_audit_write_json(FILE *fp, const qsb_audit_row *rows, size_t count,
                         const qsb_audit_config *config, const qsb_run_context *where,
                         const char *command_line);

/* ---- the child runner (audit_child.c) ---- */

typedef enum {
    QSB_CHILD_EXITED,      /* code holds the exit status */
    QSB_CHILD_GUARD_BELOW, /* faulted on the registered lower guard */
    QSB_CHILD_GUARD_ABOVE, /* faulted on the registered upper guard */
    QSB_CHILD_TIMEOUT,     /* killed at the time limit */
    QSB_CHILD_SIGNALED,    /* died of signal `code` */
    QSB_CHILD_QUIT         /* exited (status `code`) from inside the probe: the sort called
                           ** exit() */
} qsb_child_kind;

typedef struct {
    qsb_child_kind kind;
    int code;
    bool faulted;            /* died of (or left on) a SIGSEGV/SIGBUS the handler saw */
    uintptr_t fault_address; /* its address */
    bool fault_wild;         /* an address the CPU refuses outright (non-canonical): the
                             ** kernel reports no address for it */
} qsb_child_outcome;

/* Runs fn(ctx) in a forked child, whose exit status is fn's return value (0..99); memory
** the child must report goes through qsb_shared_alloc(). The child first loads the plug-ins
** of the set (plugins.h; NULL: none), so that their code runs in children only and not
** inside a probe's measures; a library that fails to load ends the child with that status.
** Returns QSB_ESYSTEM when fork fails. */
int qsb_run_in_child(qsb_plugins *plugins, int (*fn)(void *ctx), void *ctx, unsigned timeout_s,
                     qsb_child_outcome *out);

/* Called in the child: faults inside these ranges end the child as GUARD_BELOW/ABOVE.
** NULL clears a range. */
void qsb_child_set_guards(const void *below, size_t below_len, const void *above,
                          size_t above_len);

/* A probe that measures `sort` into *result, returning QSB_OK or an error it reported. */
typedef int (*qsb_probe_fn)(qsb_sort_fn sort, void *result);

/* One probe of a sort, to run in a child: probe(sort, result) within the time limit; result
** (`bytes` of it) holds what the probe is given and what it finds. */
typedef struct {
    qsb_probe_fn probe;
    qsb_sort_fn sort;
    void *result;
    size_t bytes;
    unsigned timeout_s;
} qsb_probe_call;

/* Runs the probe in a child, the plug-ins of the set loaded there first (qsb_run_in_child):
** its result in memory shared with the child, copied back whatever the outcome (a probe
** writes what it has found as it goes); how the child ended in *outcome (its exit status the
** probe's return). QSB_ESYSTEM when no child could run. */
int qsb_run_probe(qsb_plugins *plugins, const qsb_probe_call *call, qsb_child_outcome *outcome);

/* qsb_run_probe for a probe that returns QSB_OK or an error it reported: when it returned, its
** result is copied back, failure is "" and its status is returned; when the child crashed,
** hung or exited from inside the sort, result is untouched and failure says how
** (audit_child.c), with QSB_OK. */
int qsb_probe_in_child(qsb_plugins *plugins, const qsb_probe_call *call, char *failure,
                       size_t failure_len);

void *qsb_shared_alloc(size_t bytes); /* MAP_SHARED anonymous, zeroed; NULL on failure */
void qsb_shared_free(void *p, size_t bytes);

#endif
