/*
** bench_msort: our msort against this machine's qsort_r (on glibc <= 2.38 the same algorithm),
** for the speed target "msort within +-3% of system". Not a ctest test: run it by hand on an
** otherwise idle machine, once per build: the default Release (-O3), and the libc's flags
** (-DQSB_LIBC_FLAGS=ON, at -O2 as Debian builds its libc) for the like-for-like figure:
**
**   bench_msort [NELEM [REPS [ALGO]]]     (defaults: 786432, 15, msort)
**
** Per cell (seed pattern x size 4, 8, 32): REPS rounds; in each round both sorts run once, in
** alternating order, each on a fresh copy of the input made outside the timed interval
** (clock_gettime(CLOCK_MONOTONIC_RAW)). Reported: the median over rounds of the paired ratio
** ALGO_i / system_i - 1 (the machine drifts over seconds; only neighbours compare well), its
** range, and each side's median time. The outputs must agree (the same bytes for a stable ALGO).
*/
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "cli.h"
#include "diag.h"
#include "element.h"
#include "patterns.h"
#include "registry.h"

#define MAX_REPS 1001

typedef struct {
    const qsb_algorithm *algo[2]; /* [0] the candidate, [1] system */
    size_t n, size, reps;
    char *input, *work[2];
    double ns[2][MAX_REPS];
} bench;

static double now_ns(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC_RAW, &t);
    return (double)t.tv_sec * 1e9 + (double)t.tv_nsec;
}

static int compare_doubles(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

static double median(double *x, size_t n) /* sorts x */
{
    qsort(x, n, sizeof *x, compare_doubles);
    return n % 2 ? x[n / 2] : (x[n / 2 - 1] + x[n / 2]) / 2;
}

static double time_sort(bench *b, int which)
{
    memcpy(b->work[which], b->input, b->n * b->size);
    qsb_compare cmp = qsb_comparator(b->size);
    double start = now_ns();
    b->algo[which]->sort(b->work[which], b->n, b->size, cmp, NULL);
    return now_ns() - start;
}

/* Stable sorts give the very same bytes; others at least the same key sequence. */
static int results_agree(const bench *b)
{
    if (b->algo[0]->properties & QSB_PROP_STABLE)
        return memcmp(b->work[0], b->work[1], b->n * b->size) == 0;
    for (size_t i = 0; i < b->n; i++)
        if (qsb_key(b->work[0] + i * b->size, b->size) != qsb_key(b->work[1] + i * b->size, b->size))
            return 0;
    return 1;
}

static int run_cell(bench *b, const qsb_pattern *pattern)
{
    qsb_generate(pattern, b->input, b->n, b->size, QSB_DEFAULT_SEED, QSB_MODE_DEFAULT);
    double ratio[MAX_REPS];
    for (size_t r = 0; r < b->reps; r++) {
        int first = (int)(r % 2); /* alternate which sort runs first */
        b->ns[first][r] = time_sort(b, first);
        b->ns[!first][r] = time_sort(b, !first);
        ratio[r] = b->ns[0][r] / b->ns[1][r];
    }
    if (!results_agree(b))
        return qsb_error(QSB_FINDING, "%s and system disagree on %s, size %zu",
                         b->algo[0]->name, pattern->name, b->size);
    double med = median(ratio, b->reps);
    printf("%-13s %4zu %+8.2f%% [%+7.2f%%, %+7.2f%%] %12.0f %12.0f\n", pattern->name, b->size,
           (med - 1) * 100, (ratio[0] - 1) * 100, (ratio[b->reps - 1] - 1) * 100,
           median(b->ns[0], b->reps), median(b->ns[1], b->reps));
    fflush(stdout);
    return QSB_OK;
}

static int parse_args(int argc, char **argv, bench *b)
{
    uint64_t n = 786432, reps = 15;
    const char *name = "msort";
    if (argc > 4)
        return qsb_usage_error("usage: bench_msort [NELEM [REPS [ALGO]]]");
    if (argc > 1 && qsb_parse_u64(argv[1], "NELEM", 1, UINT64_C(1) << 28, 0, &n) != QSB_OK)
        return QSB_EUSAGE;
    if (argc > 2 && qsb_parse_u64(argv[2], "REPS", 1, MAX_REPS, 0, &reps) != QSB_OK)
        return QSB_EUSAGE;
    if (argc > 3)
        name = argv[3];
    b->algo[0] = qsb_algorithm_find(name);
    b->algo[1] = qsb_algorithm_find("system");
    if (!b->algo[0])
        return qsb_usage_error("unknown algorithm '%s'", name);
    b->n = n;
    b->reps = reps;
    return QSB_OK;
}

int main(int argc, char **argv)
{
    static const size_t sizes[] = {4, 8, 32};
    static bench b;
    int status = parse_args(argc, argv, &b);
    if (status != QSB_OK)
        return status;
    size_t bytes = b.n * 32;
    b.input = malloc(bytes);
    b.work[0] = malloc(bytes);
    b.work[1] = malloc(bytes);
    if (!b.input || !b.work[0] || !b.work[1]) {
        status = qsb_out_of_memory("bench buffers");
        goto out;
    }
    printf("%s vs system, %zu elements, %zu paired rounds (CLOCK_MONOTONIC_RAW, ns)\n",
           b.algo[0]->name, b.n, b.reps);
    printf("%-13s %4s %9s %20s %12s %12s\n", "pattern", "size", "delta", "range", b.algo[0]->name,
           "system");
    for (size_t p = 0; p < qsb_pattern_count && status == QSB_OK; p++) {
        if (!qsb_patterns[p].seed_pattern)
            continue;
        for (size_t s = 0; s < sizeof sizes / sizeof sizes[0] && status == QSB_OK; s++) {
            b.size = sizes[s];
            status = run_cell(&b, &qsb_patterns[p]);
        }
    }
out:
    free(b.input);
    free(b.work[0]);
    free(b.work[1]);
    return status;
}
