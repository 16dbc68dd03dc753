/*
** The merge sorts without scratch memory: with the allocation forced to fail, msort runs the
** legacy quicksort and msort-2.39 runs heapsort, shown call for call and byte for byte against
** those entries run directly, and by the allocator hook's counters. Also the scratch rules
** around them: msort's stack below 1024 bytes, msort-2.39's up to 1024 inclusive, msort's
** quarter-of-physical-memory limit, one malloc and one free per sort, errno left alone.
*/
#include <errno.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "alloc.h"
#include "check.h"
#include "counting.h"
#include "element.h"
#include "patterns.h"
#include "sorts.h"

#define SEED UINT64_C(0xfa11bac)

typedef struct {
    uint64_t calls;
    qsb_scratch_stats stats;
    char *result; /* malloc'd: the sorted bytes */
} outcome;

/* Sorts the random input of (n, size) at a base offset by `offset` bytes. */
static outcome sort_random(qsb_sort_fn sort, size_t n, size_t size, size_t offset)
{
    outcome out = {0, {0, 0, 0}, NULL};
    char *buf = malloc(n * size + offset + 1);
    out.result = malloc(n * size + 1);
    if (!CHECK(buf && out.result)) {
        free(buf);
        return out;
    }
    char *base = buf + offset;
    qsb_generate(qsb_pattern_find("random"), base, n, size, SEED, QSB_MODE_DEFAULT);
    qsb_scratch_stats_reset();
    out.calls = qsb_count_comparisons(sort, base, n, size, qsb_comparator(size), NULL);
    qsb_scratch_stats_get(&out.stats);
    memcpy(out.result, base, n * size);
    free(buf);
    return out;
}

static int same_sort(const outcome *a, const outcome *b, size_t bytes)
{
    return a->calls == b->calls && memcmp(a->result, b->result, bytes) == 0;
}

/* With malloc failing, `merge` must behave exactly as `fallback` run directly. */
static void check_forced_fallback(qsb_sort_fn merge, qsb_sort_fn fallback, const char *what,
                                  size_t n, size_t size, size_t offset)
{
    outcome direct = sort_random(fallback, n, size, offset);
    outcome normal = sort_random(merge, n, size, offset);
    qsb_scratch_force_failure(1);
    outcome forced = sort_random(merge, n, size, offset);
    qsb_scratch_force_failure(0);

    CHECK_MSG(same_sort(&forced, &direct, n * size),
              "%s n=%zu size=%zu offset=%zu: %" PRIu64 " calls, fallback alone %" PRIu64, what,
              n, size, offset, forced.calls, direct.calls);
    CHECK_MSG(forced.stats.failures == 1 && forced.stats.allocations == 0,
              "%s n=%zu size=%zu: the hook saw %" PRIu64 " failures", what, n, size,
              forced.stats.failures);
    CHECK(normal.stats.allocations == 1 && normal.stats.frees == 1 && normal.stats.failures == 0);
    /* The merge sort and its fallback differ on random input: the check above has teeth. */
    CHECK_MSG(normal.calls != direct.calls, "%s n=%zu size=%zu: merge and fallback agree",
              what, n, size);
    free(direct.result);
    free(normal.result);
    free(forced.result);
}

static void check_fallbacks(void)
{
    static const size_t sizes[] = {1, 3, 4, 8, 12, 16, 24, 32, 40, 100};
    for (size_t i = 0; i < sizeof sizes / sizeof sizes[0]; i++) {
        size_t n = 2000;
        check_forced_fallback(qsb_msort, qsb_quicksort, "msort", n, sizes[i], 0);
        check_forced_fallback(qsb_msort, qsb_quicksort, "msort", n, sizes[i], 1);
        check_forced_fallback(qsb_msort_239, qsb_heapsort, "msort-2.39", n, sizes[i], 0);
        check_forced_fallback(qsb_msort_239, qsb_heapsort, "msort-2.39", n, sizes[i], 4);
    }
}

/* Scratch on the stack: no allocation attempted, so a failing malloc changes nothing. */
static void check_stack_scratch(qsb_sort_fn sort, const char *what, size_t n, size_t size,
                                int expect_stack)
{
    outcome normal = sort_random(sort, n, size, 0);
    qsb_scratch_force_failure(1);
    outcome forced = sort_random(sort, n, size, 0);
    qsb_scratch_force_failure(0);
    uint64_t attempts = normal.stats.allocations + normal.stats.failures;
    CHECK_MSG(attempts == (expect_stack ? 0u : 1u), "%s n=%zu size=%zu: %" PRIu64
              " allocations, expected %s", what, n, size, attempts,
              expect_stack ? "the stack" : "one malloc");
    CHECK_MSG(same_sort(&normal, &forced, n * size) == expect_stack,
              "%s n=%zu size=%zu: forced failure %s", what, n, size,
              expect_stack ? "changed the sort" : "changed nothing");
    free(normal.result);
    free(forced.result);
}

static void check_stack_limits(void)
{
    /* 1023 and 1024 bytes: glibc <= 2.38 takes the stack below 1024, 2.39 up to 1024. */
    check_stack_scratch(qsb_msort, "msort", 1023, 1, 1);
    check_stack_scratch(qsb_msort, "msort", 256, 4, 0);
    check_stack_scratch(qsb_msort_239, "msort-2.39", 256, 4, 1);
    check_stack_scratch(qsb_msort_239, "msort-2.39", 257, 4, 0);
    /* Indirect (40-byte elements): 2 n pointers + 40 bytes. */
    check_stack_scratch(qsb_msort, "msort", 61, 40, 1);  /* 1016 bytes */
    check_stack_scratch(qsb_msort, "msort", 62, 40, 0);  /* 1032 bytes */
    check_stack_scratch(qsb_msort_239, "msort-2.39", 61, 40, 1);
    check_stack_scratch(qsb_msort_239, "msort-2.39", 62, 40, 0);
}

/* Above a quarter of the physical memory msort does not even try malloc. */
static void check_phys_limit(void)
{
    const size_t n = 20000, size = 4; /* 80,000 bytes: about 20 pages */
    outcome direct = sort_random(qsb_quicksort, n, size, 0);
    qsb_scratch_override_phys_pages(16); /* a quarter: 4 pages */
    CHECK(qsb_scratch_exceeds_phys_limit(n * size));
    CHECK(!qsb_scratch_exceeds_phys_limit(1024));
    outcome limited = sort_random(qsb_msort, n, size, 0);
    outcome limited_239 = sort_random(qsb_msort_239, n, size, 0);
    qsb_scratch_override_phys_pages(0);

    CHECK(same_sort(&limited, &direct, n * size));
    CHECK(limited.stats.allocations == 0 && limited.stats.failures == 0);
    CHECK(limited_239.stats.allocations == 1); /* 2.39 dropped the rule */
    CHECK(!qsb_scratch_exceeds_phys_limit(n * size)); /* this machine has more than 320 KB */
    free(direct.result);
    free(limited.result);
    free(limited_239.result);
}

/* glibc's qsort never changes errno, even when its malloc fails. */
static void check_errno_kept(void)
{
    for (int fail = 0; fail <= 1; fail++) {
        qsb_scratch_force_failure(fail);
        errno = EDOM;
        outcome a = sort_random(qsb_msort, 5000, 8, 0);
        CHECK(errno == EDOM);
        outcome b = sort_random(qsb_msort_239, 5000, 8, 0);
        CHECK(errno == EDOM);
        qsb_scratch_force_failure(0);
        free(a.result);
        free(b.result);
    }
}

int main(void)
{
    check_fallbacks();
    check_stack_limits();
    check_phys_limit();
    check_errno_kept();
    return check_done();
}
