/*
** Fidelity: for every row of a reference file of tests/reference (comparator calls measured
** on the real code), generates the input with qsb_generate and checks, for every algorithm
** column that names a registry entry, the exact comparator-call count and a sorted result.
**   test_reference                        comparisons.csv (glibc)
**   test_reference comparisons-libc.csv   the other libcs (bsd, musl): test_reference_libc
**   test_reference PATH/FILE.csv          a file elsewhere (a name with a '/' is a path):
**                                         tests/reference/comparisons-introsort-2021.csv,
**                                         test_reference_introsort_2021
** `system` is checked only where it is the real msort (glibc <= 2.38, no ASan interceptor);
** there it is also compared call for call with msort on random inputs of this test's own.
*/
#include <csv.h>
#include <gnu/libc-version.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "counting.h"
#include "element.h"
#include "patterns.h"
#include "registry.h"

#define MAX_FIELDS 32
#define FIELD_BYTES 64
#define INPUT_COLUMNS 5 /* mode,seed,pattern,nelem,size; then one column per algorithm */

typedef struct {
    char fields[MAX_FIELDS][FIELD_BYTES];
    size_t nfields;
    char header[MAX_FIELDS][FIELD_BYTES];
    size_t ncolumns;
    int system_is_msort;
    unsigned long rows, counts_checked, columns_skipped;
} reader;

/* AddressSanitizer intercepts qsort_r and first runs the comparator over every adjacent pair
** (n - 1 more calls), so in an ASan build `system` is not the bare libc sort. */
#ifdef __SANITIZE_ADDRESS__
#define QSORT_R_INTERCEPTED 1
#else
#define QSORT_R_INTERCEPTED 0
#endif

static int glibc_at_most(int major, int minor)
{
    int have_major = 0, have_minor = 0;
    if (sscanf(gnu_get_libc_version(), "%d.%d", &have_major, &have_minor) != 2)
        return 0;
    return have_major < major || (have_major == major && have_minor <= minor);
}

static int is_sorted(const char *base, size_t n, size_t size)
{
    for (size_t i = 1; i < n; i++)
        if (qsb_key(base + (i - 1) * size, size) > qsb_key(base + i * size, size))
            return 0;
    return 1;
}

static uint64_t parse_number(const char *text)
{
    char *end;
    unsigned long long v = strtoull(text, &end, 0);
    CHECK_MSG(*text && !*end, "malformed number '%s' in the reference", text);
    return v;
}

static void check_cell(const reader *r, const qsb_algorithm *algo, const qsb_pattern *pattern,
                       qsb_mode mode, uint64_t seed, size_t n, size_t size, uint64_t expected)
{
    char *buf = malloc(n * size + 1);
    if (!CHECK(buf != NULL))
        return;
    qsb_generate(pattern, buf, n, size, seed, mode);
    uint64_t calls = qsb_count_comparisons(algo->sort, buf, n, size, qsb_comparator(size), NULL);
    CHECK_MSG(calls == expected, "row %lu %s %s n=%zu size=%zu: %" PRIu64 " calls, glibc %" PRIu64,
              r->rows, algo->name, pattern->name, n, size, calls, expected);
    CHECK_MSG(is_sorted(buf, n, size), "row %lu %s %s n=%zu size=%zu: not sorted", r->rows,
              algo->name, pattern->name, n, size);
    free(buf);
}

static void check_row(reader *r)
{
    r->rows++;
    int complete = r->nfields == r->ncolumns;
    CHECK_MSG(complete, "row %lu has %zu fields", r->rows, r->nfields);
    if (!complete)
        return;
    const char *mode_name = r->fields[0];
    qsb_mode mode = strcmp(mode_name, "compat") == 0 ? QSB_MODE_COMPAT_2021 : QSB_MODE_DEFAULT;
    CHECK_MSG(mode == QSB_MODE_COMPAT_2021 || strcmp(mode_name, "default") == 0,
              "row %lu: unknown mode '%s'", r->rows, mode_name);
    const qsb_pattern *pattern = qsb_pattern_find(r->fields[2]);
    CHECK_MSG(pattern != NULL, "row %lu: unknown pattern '%s'", r->rows, r->fields[2]);
    if (!pattern)
        return;
    uint64_t seed = parse_number(r->fields[1]);
    size_t n = parse_number(r->fields[3]);
    size_t size = parse_number(r->fields[4]);

    for (size_t c = INPUT_COLUMNS; c < r->ncolumns; c++) {
        const qsb_algorithm *algo = qsb_algorithm_find(r->header[c]);
        if (!algo || (strcmp(algo->name, "system") == 0 && !r->system_is_msort))
            continue;
        check_cell(r, algo, pattern, mode, seed, n, size, parse_number(r->fields[c]));
        r->counts_checked++;
    }
}

static void take_header(reader *r)
{
    memcpy(r->header, r->fields, sizeof r->header);
    r->ncolumns = r->nfields;
    CHECK(r->ncolumns > INPUT_COLUMNS && strcmp(r->header[0], "mode") == 0 &&
          strcmp(r->header[4], "size") == 0);
    for (size_t c = INPUT_COLUMNS; c < r->ncolumns; c++) {
        const char *name = r->header[c];
        if (!qsb_algorithm_find(name)) {
            printf("column %s: not in the registry, skipped\n", name);
            r->columns_skipped++;
        } else if (strcmp(name, "system") == 0 && !r->system_is_msort) {
            printf("column system: %s, skipped\n", QSORT_R_INTERCEPTED
                   ? "ASan intercepts qsort_r" : "this libc is not glibc <= 2.38");
        }
    }
}

static void on_field(void *text, size_t len, void *data)
{
    reader *r = data;
    if (!CHECK(r->nfields < MAX_FIELDS && len < FIELD_BYTES))
        return;
    memcpy(r->fields[r->nfields], text, len);
    r->fields[r->nfields][len] = '\0';
    r->nfields++;
}

static void on_row_end(int terminator, void *data)
{
    reader *r = data;
    (void)terminator;
    if (r->ncolumns == 0)
        take_header(r);
    else
        check_row(r);
    r->nfields = 0;
}

static void check_reference_file(reader *r, const char *name)
{
    char path[4096];
    if (strchr(name, '/'))
        snprintf(path, sizeof path, "%s", name);
    else
        snprintf(path, sizeof path, "%s/%s", QSB_REFERENCE_DIR, name);
    FILE *fp = fopen(path, "rb");
    CHECK_MSG(fp != NULL, "cannot open %s", path);
    if (!fp)
        return;
    struct csv_parser parser;
    CHECK(csv_init(&parser, CSV_STRICT | CSV_APPEND_NULL) == 0);
    char buf[4096];
    size_t got;
    while ((got = fread(buf, 1, sizeof buf, fp)) > 0)
        CHECK(csv_parse(&parser, buf, got, on_field, on_row_end, r) == got);
    CHECK(csv_fini(&parser, on_field, on_row_end, r) == 0);
    csv_free(&parser);
    fclose(fp);
    printf("%lu reference rows, %lu counts checked, %lu columns skipped\n", r->rows,
           r->counts_checked, r->columns_skipped);
    CHECK(r->rows >= 500);
}

/* On glibc <= 2.38 the libc qsort_r is msort: equal calls on inputs the reference lacks,
** on either side of the 1024-byte stack limit, direct and indirect, aligned or not. */
static void check_system_equals_msort(void)
{
    static const size_t lengths[] = {2, 9, 100, 255, 256, 257, 1000, 3000};
    static const size_t sizes[] = {1, 2, 3, 4, 8, 12, 16, 24, 32, 33, 48, 100};
    static const size_t offsets[] = {0, 1, 4};
    const qsb_pattern *random = qsb_pattern_find("random");
    const qsb_sort_fn msort = qsb_algorithm_find("msort")->sort;
    const qsb_sort_fn system_sort = qsb_algorithm_find("system")->sort;
    uint64_t seed = 12345;
    unsigned long cases = 0;

    for (size_t li = 0; li < sizeof lengths / sizeof lengths[0]; li++)
        for (size_t si = 0; si < sizeof sizes / sizeof sizes[0]; si++)
            for (size_t oi = 0; oi < sizeof offsets / sizeof offsets[0]; oi++) {
                size_t n = lengths[li], size = sizes[si], bytes = n * size;
                char *a = malloc(bytes + 8), *b = malloc(bytes + 8);
                if (!CHECK(a && b)) {
                    free(a), free(b);
                    return;
                }
                char *pa = a + offsets[oi], *pb = b + offsets[oi];
                qsb_generate(random, pa, n, size, seed++, QSB_MODE_DEFAULT);
                memcpy(pb, pa, bytes);
                qsb_compare cmp = qsb_comparator(size);
                uint64_t ours = qsb_count_comparisons(msort, pa, n, size, cmp, NULL);
                uint64_t libc = qsb_count_comparisons(system_sort, pb, n, size, cmp, NULL);
                CHECK_MSG(ours == libc, "n=%zu size=%zu offset=%zu: msort %" PRIu64
                          " calls, system %" PRIu64, n, size, offsets[oi], ours, libc);
                CHECK_MSG(memcmp(pa, pb, bytes) == 0, "n=%zu size=%zu: different results", n,
                          size); /* both stable: the very same bytes */
                free(a);
                free(b);
                cases++;
            }
    printf("system vs msort: %lu random inputs compared\n", cases);
}

int main(int argc, char **argv)
{
    static reader r;
    const char *name = argc > 1 ? argv[1] : "comparisons.csv";
    r.system_is_msort = glibc_at_most(2, 38) && !QSORT_R_INTERCEPTED;
    check_reference_file(&r, name);
    if (argc > 1) /* another libc's file: `system` is not its sort */
        return check_done();
    if (r.system_is_msort)
        check_system_equals_msort();
    else
        printf("system not compared with msort (libc %s%s)\n", gnu_get_libc_version(),
               QSORT_R_INTERCEPTED ? ", qsort_r intercepted by ASan" : "");
    return check_done();
}
