/*
** The audit's verdicts on the registry, at small sizes: msort and msort-2.39 stable and
** allocating, introsort unstable, in place and with a bounded stack, quicksort out of bounds
** under the Qualys comparator and introsort-final safe under it, the killer adversary
** driving quicksort (and the committed introsort) past 10 n log2 n but not introsort-final;
** the other libcs' entries as their `list` lines declare them;
** plus the probes' own machinery (allocation counting, adversary replay, child runner,
** reporters). Passes in ASan builds too: allocation counts come from ASan's hooks there.
*/
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <cjson/cJSON.h>

#include "audit.h"
#include "check.h"
#include "diag.h"
#include "machine.h"

static qsb_sort_fn sort_of(const char *name)
{
    const qsb_algorithm *a = qsb_algorithm_find(name);
    if (!a) {
        fprintf(stderr, "registry has no '%s'\n", name);
        exit(1);
    }
    return a->sort;
}

static void test_stability(void)
{
    static const char *const stable[] = {"msort", "msort-2.39"};
    static const char *const unstable[] = {"introsort", "introsort-final", "quicksort",
                                           "heapsort"};
    qsb_stability_result r;
    for (size_t i = 0; i < 2; i++) {
        CHECK(qsb_audit_stability(sort_of(stable[i]), 0, &r) == QSB_OK);
        CHECK_MSG(r.verdict == QSB_STABLE_YES, "%s: %s", stable[i], r.detail);
        CHECK(r.cases > 500 && r.unstable == 0);
    }
    for (size_t i = 0; i < 4; i++) {
        CHECK(qsb_audit_stability(sort_of(unstable[i]), 0, &r) == QSB_OK);
        CHECK_MSG(r.verdict == QSB_STABLE_NO, "%s: verdict %d", unstable[i], (int)r.verdict);
        CHECK(r.unstable > 0 && r.detail[0] != '\0');
    }
    /* Forced off its scratch, msort runs the quicksort (above its 1024-byte stack buffer). */
    qsb_audit_subject forced;
    CHECK(qsb_audit_forced_fallback("msort", &forced));
    CHECK(qsb_audit_stability(forced.sort, 0, &r) == QSB_OK);
    CHECK(r.verdict == QSB_STABLE_NO);
    CHECK(!qsb_audit_forced_fallback("introsort", &forced));
}

static void test_alloc_counting(void)
{
    const char *method;
    if (!qsb_alloc_counting_available(&method)) {
        printf("allocation counting unavailable (%s): counting checks skipped\n", method);
        return;
    }
    qsb_alloc_counts c;
    qsb_alloc_counting_begin();
    void *volatile p = malloc(123);
    void *volatile q = calloc(10, 100);
    free(p);
    free(q);
    qsb_alloc_counting_end(&c);
    CHECK_EQ_U64(c.allocations, 2);
    CHECK_EQ_U64(c.frees, 2);
    CHECK_EQ_U64(c.max_bytes, 1000);

    p = malloc(5); /* outside the window: not counted */
    free(p);
    qsb_alloc_counts after;
    qsb_alloc_counting_begin();
    qsb_alloc_counting_end(&after);
    CHECK_EQ_U64(after.allocations, 0);
}

static void test_alloc_verdicts(void)
{
    qsb_alloc_result r;
    CHECK(qsb_audit_alloc(sort_of("msort"), &r) == QSB_OK);
    if (!r.available)
        return;
    CHECK(r.allocates);
    CHECK_EQ_U64(r.cases[0].counts.allocations, 0);      /* 100 x 4 bytes: stack scratch */
    CHECK_EQ_U64(r.cases[1].counts.allocations, 1);      /* 100000 x 4: one malloc */
    CHECK_EQ_U64(r.cases[1].counts.max_bytes, 400000);
    CHECK_EQ_U64(r.cases[1].counts.frees, 1);
    CHECK_EQ_U64(r.cases[3].counts.max_bytes, 2 * 100000 * sizeof(void *) + 40); /* indirect */

    CHECK(qsb_audit_alloc(sort_of("msort-2.39"), &r) == QSB_OK);
    CHECK(r.allocates && r.max_bytes >= 400000);

    static const char *const in_place[] = {"introsort", "introsort-final", "quicksort",
                                           "heapsort"};
    for (size_t i = 0; i < 4; i++) {
        CHECK(qsb_audit_alloc(sort_of(in_place[i]), &r) == QSB_OK);
        CHECK_MSG(!r.allocates, "%s allocated", in_place[i]);
    }
    qsb_audit_subject forced;
    CHECK(qsb_audit_forced_fallback("msort", &forced));
    CHECK(qsb_audit_alloc(forced.sort, &r) == QSB_OK);
    CHECK(!r.allocates);

    /* glibc <= 2.38's qsort_r is msort: it allocates inside libc, and the probe sees it. */
    if (qsb_libc_is_glibc_at_most(2, 38)) {
        CHECK(qsb_audit_alloc(sort_of("system"), &r) == QSB_OK);
        CHECK(r.allocates);
        CHECK(r.cases[1].counts.max_bytes >= 400000);
    }
}

static void test_stack(void)
{
    uint64_t intro_small = qsb_stack_depth(sort_of("introsort"), 1000);
    uint64_t intro_large = qsb_stack_depth(sort_of("introsort"), 200000);
    CHECK(intro_small != UINT64_MAX && intro_large != UINT64_MAX);
    CHECK(intro_small > 0);
    /* An explicit stack of 64 nodes: the same bounded use at any n (ASan adds redzones). */
    CHECK_MSG(intro_large < 16 * 1024, "introsort used %llu bytes",
              (unsigned long long)intro_large);
    CHECK(intro_large <= intro_small + 256);

    /* msort's 1020-byte scratch for 255 4-byte elements is on the stack. */
    uint64_t msort_small = qsb_stack_depth(sort_of("msort"), 255);
    CHECK_MSG(msort_small > 1020, "msort used %llu bytes", (unsigned long long)msort_small);
    /* heapsort has no scratch at all: msort's shows as 1020 more bytes (with or without
    ** ASan's redzones, which both pay). */
    uint64_t heap = qsb_stack_depth(sort_of("heapsort"), 255);
    CHECK_MSG(heap > 0 && heap + 1020 <= msort_small, "heapsort %llu, msort %llu",
              (unsigned long long)heap, (unsigned long long)msort_small);

    /* The same through the child runner. */
    qsb_audit_config config;
    qsb_audit_config_init(&config, QSB_AUDIT_QUICK);
    config.stack_nelem[0] = 255;
    config.stack_nelem[1] = 4096;
    config.stack_count = 2;
    qsb_stack_result r;
    CHECK(qsb_audit_stack(sort_of("msort"), &config, &r) == QSB_OK);
    CHECK(r.status == QSB_STACK_OK && r.ncases == 2);
    CHECK_EQ_U64(r.cases[0].bytes, msort_small);
    CHECK(r.max_bytes >= r.cases[1].bytes);
}

/* Counts comparisons on plain uint32 keys: the replay of an adversary's input. */
static int compare_u32(const void *a, const void *b, void *calls)
{
    uint32_t x, y;
    memcpy(&x, a, sizeof x);
    memcpy(&y, b, sizeof y);
    ++*(uint64_t *)calls;
    return (x > y) - (x < y);
}

static void check_replay(const char *name, size_t n)
{
    uint32_t *values = malloc(n * sizeof *values);
    uint64_t calls = 0, replayed = 0;
    CHECK(!qsb_adversary_run(sort_of(name), n, UINT64_MAX, &calls, values));
    sort_of(name)(values, n, sizeof *values, compare_u32, &replayed);
    CHECK_MSG(calls == replayed, "%s n=%zu: adversary %llu, replay %llu", name, n,
              (unsigned long long)calls, (unsigned long long)replayed);
    for (size_t i = 1; i < n; i++)
        CHECK(values[i - 1] < values[i]); /* distinct values, now sorted */
    free(values);
}

static void test_adversary(void)
{
    check_replay("quicksort", 300);
    check_replay("introsort-final", 300);
    check_replay("heapsort", 300);

    /* quicksort goes quadratic: n^2/4 comparisons, past the limit at n = 1000. */
    uint64_t calls;
    CHECK(!qsb_adversary_run(sort_of("quicksort"), 400, UINT64_MAX, &calls, NULL));
    CHECK(calls > 400 * 400 / 5);
    CHECK(qsb_adversary_run(sort_of("quicksort"), 1000, qsb_adversary_limit(1000), &calls,
                            NULL));
    CHECK_EQ_U64(calls, qsb_adversary_limit(1000) + 1);

    qsb_audit_config config;
    qsb_audit_config_init(&config, QSB_AUDIT_QUICK);
    config.adversary_nelem[0] = 1000;
    config.adversary_nelem[1] = 10000;
    config.adversary_count = 2;
    qsb_adversary_result r;
    CHECK(qsb_audit_adversary(sort_of("quicksort"), &config, &r) == QSB_OK);
    CHECK(r.quadratic && !r.failed && r.cases[0].quadratic && r.cases[1].quadratic);
    CHECK(qsb_audit_adversary(sort_of("introsort"), &config, &r) == QSB_OK);
    CHECK(r.quadratic); /* its depth limit only counts pushes: the adversary never pushes */
    CHECK(qsb_audit_adversary(sort_of("introsort-final"), &config, &r) == QSB_OK);
    CHECK(!r.quadratic && !r.failed);
    CHECK(r.max_ratio > 1 && r.max_ratio < 10);
    /* msort leaks nothing here: an abort would happen in the child. */
    CHECK(qsb_audit_adversary(sort_of("msort"), &config, &r) == QSB_OK);
    CHECK(!r.quadratic && r.max_ratio < 1.0 + 1e-9);
}

static void test_broken(void)
{
    qsb_broken_result r;
    CHECK(qsb_audit_broken_one(sort_of("quicksort"), NULL, QSB_BROKEN_SUBTRACTION, 10, &r) ==
          QSB_OK);
    CHECK_MSG(r.verdict == QSB_BROKEN_OOB_BELOW, "quicksort: %s (%s)",
              qsb_broken_verdict_name(r.verdict), r.detail);
    CHECK(strstr(r.detail, "INT_MIN") != NULL);

    qsb_broken_result all[QSB_BROKEN_COUNT];
    CHECK(qsb_audit_broken(sort_of("introsort-final"), NULL, 10, all) == QSB_OK);
    for (int i = 0; i < QSB_BROKEN_COUNT; i++)
        CHECK_MSG(all[i].verdict == QSB_BROKEN_OK || all[i].verdict == QSB_BROKEN_LOST,
                  "introsort-final, %s: %s (%s)", qsb_broken_comparator_names[i],
                  qsb_broken_verdict_name(all[i].verdict), all[i].detail);
    CHECK(all[QSB_BROKEN_SUBTRACTION].verdict == QSB_BROKEN_OK);

    CHECK(qsb_audit_broken(sort_of("msort"), NULL, 10, all) == QSB_OK);
    for (int i = 0; i < QSB_BROKEN_COUNT; i++)
        CHECK_MSG(all[i].verdict == QSB_BROKEN_OK, "msort, %s: %s",
                  qsb_broken_comparator_names[i], qsb_broken_verdict_name(all[i].verdict));

    /* msort without memory is the quicksort again, from 256 elements on. */
    qsb_audit_subject forced;
    CHECK(qsb_audit_forced_fallback("msort", &forced));
    CHECK(qsb_audit_broken_one(forced.sort, NULL, QSB_BROKEN_SUBTRACTION, 10, &r) == QSB_OK);
    CHECK(r.verdict == QSB_BROKEN_OOB_BELOW);
    CHECK(qsb_audit_forced_fallback("msort-2.39", &forced));
    CHECK(qsb_audit_broken_one(forced.sort, NULL, QSB_BROKEN_SUBTRACTION, 10, &r) == QSB_OK);
    CHECK(r.verdict == QSB_BROKEN_OK);
}

static int child_exits_7(void *ctx)
{
    (void)ctx;
    return 7;
}

static int child_spins(void *ctx)
{
    volatile int *stop = ctx;
    while (!*stop)
        continue;
    return 0;
}

static void test_child_runner(void)
{
    qsb_child_outcome o;
    CHECK(qsb_run_in_child(NULL, child_exits_7, NULL, 5, &o) == QSB_OK);
    CHECK(o.kind == QSB_CHILD_EXITED && o.code == 7);
    volatile int stop = 0;
    CHECK(qsb_run_in_child(NULL, child_spins, (void *)&stop, 1, &o) == QSB_OK);
    CHECK(o.kind == QSB_CHILD_TIMEOUT);
}

/* The other libcs' entries: what the audit measures is what their `list` lines declare. klibc
** declares no n log n bound (its last passes are bubble sort), though the adversary, which
** decides values against a quicksort's pivot, does not drive it past 10 n log2 n. openbsd
** declares its heapsort's malloc, which the allocation probe's random input never reaches
** (the adversary's does). */
static void test_other_libcs(void)
{
    static const char *const names[] = {"bsd-heapsort", "bsd-mergesort", "dietlibc", "klibc",
                                        "newlib", "openbsd"};
    qsb_audit_config config;
    qsb_audit_config_init(&config, QSB_AUDIT_QUICK);
    config.adversary_nelem[0] = 1000;
    config.adversary_count = 1;
    const char *method;
    bool counting = qsb_alloc_counting_available(&method);
    for (size_t i = 0; i < sizeof names / sizeof names[0]; i++) {
        const qsb_algorithm *a = qsb_algorithm_find(names[i]);
        if (!a) {
            CHECK_MSG(0, "registry has no '%s'", names[i]);
            continue;
        }
        qsb_stability_result stability;
        CHECK(qsb_audit_stability(a->sort, a->min_size, &stability) == QSB_OK);
        CHECK_MSG(stability.verdict ==
                      ((a->properties & QSB_PROP_STABLE) ? QSB_STABLE_YES : QSB_STABLE_NO),
                  "%s: stability verdict %d (%s)", a->name, (int)stability.verdict,
                  stability.detail);
        if (counting) {
            qsb_alloc_result alloc;
            CHECK(qsb_audit_alloc(a->sort, &alloc) == QSB_OK);
            bool allocation_expected = (a->properties & QSB_PROP_ALLOCATES) &&
                                       strcmp(a->name, "openbsd") != 0;
            CHECK_MSG(alloc.allocates == allocation_expected,
                      "%s: allocates %d", a->name, (int)alloc.allocates);
        }
        qsb_adversary_result adversary;
        CHECK(qsb_audit_adversary(a->sort, &config, &adversary) == QSB_OK);
        bool quadratic_expected = !(a->properties & QSB_PROP_NLOGN_WORST) &&
                                  strcmp(a->name, "klibc") != 0;
        CHECK_MSG(adversary.quadratic == quadratic_expected, "%s: adversary %s", a->name,
                  adversary.quadratic ? "quadratic" : "not quadratic");
    }
}

/* One whole row, and the reporters on it: the CSV's columns line up with its header and the
** JSON reads back with the same verdicts. */
static void test_row_and_reports(void)
{
    qsb_audit_config config;
    qsb_audit_config_init(&config, QSB_AUDIT_QUICK);
    config.stack_nelem[0] = 1000;
    config.stack_count = 1;
    config.adversary_nelem[0] = 1000;
    config.adversary_count = 1;
    qsb_audit_subject subject;
    CHECK(qsb_audit_subject_from_registry("introsort", &subject));
    /* Declare what glibc promised for it, so the audit must contradict the declaration. */
    subject.declared |= QSB_PROP_NLOGN_WORST;
    qsb_audit_subject unknown;
    CHECK(!qsb_audit_subject_from_registry("no-such-sort", &unknown));
    qsb_audit_row row;
    CHECK(qsb_audit_run_row(&subject, &config, &row) == QSB_OK);
    CHECK(strcmp(qsb_audit_stable_text(&row), "no") == 0);
    CHECK(strcmp(qsb_audit_worst_text(&row), "quadratic") == 0);
    CHECK(strstr(row.contradictions, "quadratic") != NULL);
    CHECK(row.broken[QSB_BROKEN_SUBTRACTION].verdict == QSB_BROKEN_OOB_BELOW);

    FILE *csv = tmpfile();
    CHECK(qsb_audit_write_csv(csv, &row, 1) == QSB_OK);
    rewind(csv);
    char header[2048], line[4096];
    CHECK(fgets(header, sizeof header, csv) != NULL);
    CHECK(fgets(line, sizeof line, csv) != NULL);
    CHECK(strncmp(header, "\"algorithm\",\"variant\",\"stable\"", 30) == 0);
    CHECK(strncmp(line, "\"introsort\",\"\",\"no\"", 19) == 0);
    fclose(csv);

    FILE *json = tmpfile();
    time_t now = time(NULL);
    struct tm utc;
    gmtime_r(&now, &utc);
    qsb_run_context where;
    qsb_run_context_gather(&where, &utc);
    CHECK(qsb_audit_write_json(json, &row, 1, &config, &where, "qsortbench audit") == QSB_OK);
    long len = ftell(json);
    rewind(json);
    char *text = calloc(1, (size_t)len + 1);
    CHECK(fread(text, 1, (size_t)len, json) == (size_t)len);
    fclose(json);
    cJSON *root = cJSON_Parse(text);
    CHECK(root != NULL);
    cJSON *r0 = cJSON_GetArrayItem(cJSON_GetObjectItem(root, "rows"), 0);
    CHECK(strcmp(cJSON_GetStringValue(cJSON_GetObjectItem(r0, "algorithm")), "introsort") == 0);
    cJSON *worst = cJSON_GetObjectItem(r0, "worst_case");
    CHECK(strcmp(cJSON_GetStringValue(cJSON_GetObjectItem(worst, "verdict")), "quadratic") == 0);
    cJSON *broken = cJSON_GetObjectItem(r0, "broken_comparators");
    cJSON *sub = cJSON_GetObjectItem(broken, "subtraction");
    CHECK(strcmp(cJSON_GetStringValue(cJSON_GetObjectItem(sub, "verdict")), "OOB-below") == 0);
    CHECK(cJSON_GetArraySize(cJSON_GetObjectItem(r0, "contradictions")) == 1);
    cJSON_Delete(root);
    free(text);
}

int main(void)
{
    test_child_runner();
    test_stability();
    test_alloc_counting();
    test_alloc_verdicts();
    test_stack();
    test_adversary();
    test_broken();
    test_row_and_reports();
    test_other_libcs();
    return check_done();
}
