/*
** The algorithm registry: sorted by name (so unique), every name well formed, every sort of
** sorts.h present once, lookups exact, and the declared properties of the entries as the
** algorithms spec describes them (`system` declares nothing).
*/
#include <string.h>

#include "check.h"
#include "registry.h"
#include "sorts.h"

/* Lowercase [a-z0-9.-], starting with a letter (the dot is for "msort-2.39"). */
static int well_formed_name(const char *name)
{
    if (!(*name >= 'a' && *name <= 'z'))
        return 0;
    for (const char *c = name; *c; c++)
        if (!((*c >= 'a' && *c <= 'z') || (*c >= '0' && *c <= '9') || *c == '-' || *c == '.'))
            return 0;
    return 1;
}

static void check_table_shape(void)
{
    const unsigned known = QSB_PROP_STABLE | QSB_PROP_ALLOCATES | QSB_PROP_NLOGN_WORST |
                           QSB_PROP_FALLBACK | QSB_PROP_UNKNOWN;
    CHECK(qsb_algorithm_count >= 9);
    for (size_t i = 0; i < qsb_algorithm_count; i++) {
        const qsb_algorithm *a = &qsb_algorithms[i];
        CHECK_MSG(well_formed_name(a->name), "name '%s'", a->name);
        CHECK_MSG(a->sort != NULL, "%s has no function", a->name);
        CHECK_MSG(a->summary && *a->summary && a->origin && *a->origin, "%s: empty text",
                  a->name);
        CHECK_MSG((a->properties & ~known) == 0, "%s: unknown property bits", a->name);
        if (i > 0)
            CHECK_MSG(strcmp(qsb_algorithms[i - 1].name, a->name) < 0,
                      "'%s' before '%s': the table is not sorted, or has a duplicate",
                      qsb_algorithms[i - 1].name, a->name);
    }
}

/* Complete: every sort of sorts.h has a row under its spec name, and no function has two.
** The introsort functions are named, not linked here, so this test builds without them. */
static void check_complete(void)
{
    static const char *const names[] = {"bsd",   "bsd-heapsort", "bsd-mergesort", "dietlibc",
                                         "heapsort",   "introsort", "introsort-2021",
                                         "introsort-final", "klibc", "llvm", "msort",
                                         "msort-2.39", "musl", "newlib", "openbsd", "quicksort",
                                         "stackmerge", "system"};
    for (size_t e = 0; e < sizeof names / sizeof names[0]; e++)
        CHECK_MSG(qsb_algorithm_find(names[e]) != NULL, "'%s' is missing", names[e]);
    for (size_t i = 0; i < qsb_algorithm_count; i++)
        for (size_t j = i + 1; j < qsb_algorithm_count; j++)
            CHECK_MSG(qsb_algorithms[i].sort != qsb_algorithms[j].sort, "'%s' and '%s' share "
                      "a function", qsb_algorithms[i].name, qsb_algorithms[j].name);
}

static void check_functions(void)
{
    static const struct {
        const char *name;
        qsb_sort_fn sort;
    } rows[] = {
        {"heapsort", qsb_heapsort},     {"msort", qsb_msort},         {"msort-2.39", qsb_msort_239},
        {"quicksort", qsb_quicksort},   {"system", qsb_system_qsort}, {"bsd", qsb_bsd},
        {"musl", qsb_musl},             {"stackmerge", qsb_stackmerge},
        {"llvm", qsb_llvm},             {"bsd-heapsort", qsb_bsd_heapsort},
        {"bsd-mergesort", qsb_bsd_mergesort}, {"dietlibc", qsb_dietlibc},
        {"klibc", qsb_klibc},           {"newlib", qsb_newlib},
        {"openbsd", qsb_openbsd},
    };
    for (size_t e = 0; e < sizeof rows / sizeof rows[0]; e++) {
        const qsb_algorithm *a = qsb_algorithm_find(rows[e].name);
        CHECK_MSG(a && a->sort == rows[e].sort, "'%s' does not run its function", rows[e].name);
    }
}

/* Only libbsd's mergesort refuses small elements (it threads pointers through pairs of them). */
static void check_min_sizes(void)
{
    for (size_t i = 0; i < qsb_algorithm_count; i++) {
        const qsb_algorithm *a = &qsb_algorithms[i];
        size_t expected = strcmp(a->name, "bsd-mergesort") == 0 ? sizeof(void *) / 2 : 0;
        CHECK_MSG(a->min_size == expected, "%s: min_size %zu", a->name, a->min_size);
    }
}

static void check_find(void)
{
    for (size_t i = 0; i < qsb_algorithm_count; i++)
        CHECK(qsb_algorithm_find(qsb_algorithms[i].name) == &qsb_algorithms[i]);
    CHECK(qsb_algorithm_find("") == NULL);
    CHECK(qsb_algorithm_find("nosuchsort") == NULL);
    CHECK(qsb_algorithm_find("msort-") == NULL);
    CHECK(qsb_algorithm_find("msor") == NULL);
    CHECK(qsb_algorithm_find("MSORT") == NULL); /* names are lowercase, matched exactly */
}

static unsigned properties_of(const char *name)
{
    const qsb_algorithm *a = qsb_algorithm_find(name);
    return a ? a->properties : ~0u;
}

static void check_declared_properties(void)
{
    const unsigned merge = QSB_PROP_STABLE | QSB_PROP_ALLOCATES | QSB_PROP_NLOGN_WORST |
                           QSB_PROP_FALLBACK;
    CHECK(properties_of("msort") == merge);
    CHECK(properties_of("msort-2.39") == merge);
    CHECK(properties_of("heapsort") == QSB_PROP_NLOGN_WORST);
    CHECK(properties_of("quicksort") == 0);
    CHECK(properties_of("introsort-2021") == 0); /* quadratic under the adversary, as committed */
    CHECK(properties_of("musl") == QSB_PROP_NLOGN_WORST);
    CHECK(properties_of("llvm") == QSB_PROP_NLOGN_WORST); /* the step budget's heapsort */
    CHECK(properties_of("bsd") == 0);
    CHECK(properties_of("stackmerge") == (QSB_PROP_STABLE | QSB_PROP_NLOGN_WORST));
    CHECK(properties_of("bsd-heapsort") == (QSB_PROP_ALLOCATES | QSB_PROP_NLOGN_WORST));
    CHECK(properties_of("bsd-mergesort") == (QSB_PROP_STABLE | QSB_PROP_ALLOCATES |
                                             QSB_PROP_NLOGN_WORST));
    CHECK(properties_of("dietlibc") == 0); /* random pivots, yet quadratic under the adversary */
    CHECK(properties_of("klibc") == 0);    /* combsort: no n log n bound */
    CHECK(properties_of("newlib") == 0);
    /* Its heapsort fallback mallocs one element, and bounds the worst case. */
    CHECK(properties_of("openbsd") == (QSB_PROP_ALLOCATES | QSB_PROP_NLOGN_WORST));
    CHECK(properties_of("system") == QSB_PROP_UNKNOWN); /* the host's libc: audit measures it */
    for (size_t i = 0; i < qsb_algorithm_count; i++)
        if (qsb_algorithms[i].properties & QSB_PROP_UNKNOWN)
            CHECK_MSG(qsb_algorithms[i].properties == QSB_PROP_UNKNOWN,
                      "%s: unknown, yet declares more", qsb_algorithms[i].name);
}

int main(void)
{
    check_table_shape();
    check_complete();
    check_functions();
    check_find();
    check_declared_properties();
    check_min_sizes();
    return check_done();
}
