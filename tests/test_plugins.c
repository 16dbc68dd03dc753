/*
** The set of plug-ins (src/plugins/plugins.h) as its owner sees it, with the example plug-in
** (tests/plugin_example.c, its path in argv[1]): what a set holds belongs to it alone (two sets
** at once, one freed while the other sorts on), resolution without a set takes registry names
** only, a set lists the libraries no output may replace, its plug-ins are loaded only when
** asked (the direct function appears then), and a qsort-signature plug-in still receives the
** comparator's argument through the adapter.
*/
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "diag.h"
#include "plugins.h"

#define N 1000

static int count_ints(const void *a, const void *b, void *calls)
{
    ++*(size_t *)calls;
    int x = *(const int *)a, y = *(const int *)b;
    return (x > y) - (x < y);
}

/* Does sort put a scrambled array in order, calling the comparator with its argument? */
static int sorts_correctly(qsb_sort_fn sort)
{
    int a[N];
    size_t calls = 0;
    for (size_t i = 0; i < N; i++)
        a[i] = (int)((i * 7919u) % N);
    sort(a, N, sizeof a[0], count_ints, &calls);
    for (size_t i = 0; i < N; i++)
        if (a[i] != (int)i)
            return 0;
    return calls >= N - 1;
}

static char *spec(const char *name, const char *path, const char *rest)
{
    size_t len = strlen(name) + strlen(path) + strlen(rest) + 3;
    char *text = malloc(len);
    if (text)
        snprintf(text, len, "%s=%s:%s", name, path, rest);
    return text;
}

static void test_without_a_set(const char *path)
{
    qsb_algorithm a;
    char *entry = spec("p", path, "plain_introsort");
    CHECK_EQ_U64(qsb_plugins_resolve(NULL, "msort", &a), QSB_OK);
    CHECK(strcmp(a.name, "msort") == 0 && !qsb_plugins_has(NULL, a.sort));
    CHECK_EQ_U64(qsb_plugins_resolve(NULL, entry, &a), QSB_EUSAGE);
    const char *libraries[QSB_PLUGIN_MAX];
    CHECK_EQ_U64(qsb_plugins_libraries(NULL, libraries), 0);
    CHECK_EQ_U64(qsb_plugins_load(NULL), QSB_OK);
    free(entry);
}

static void test_two_sets(const char *path)
{
    qsb_plugins *first = qsb_plugins_new(), *second = qsb_plugins_new();
    char *a_spec = spec("a", path, "plain_introsort");
    char *b_spec = spec("b", path, "introsort_qsort:qsort");
    char *c_spec = spec("c", path, "plain_introsort");
    qsb_algorithm a, b, c, msort;
    CHECK(first && second && a_spec && b_spec && c_spec);
    CHECK_EQ_U64(qsb_plugins_resolve(first, a_spec, &a), QSB_OK);
    CHECK_EQ_U64(qsb_plugins_resolve(first, "msort", &msort), QSB_OK);
    CHECK_EQ_U64(qsb_plugins_resolve(second, b_spec, &b), QSB_OK);
    CHECK_EQ_U64(qsb_plugins_resolve(second, c_spec, &c), QSB_OK);
    CHECK(a.sort != b.sort && a.sort != c.sort && b.sort != c.sort);
    CHECK(strcmp(a.origin, "plug-in") == 0 && (a.properties & QSB_PROP_UNKNOWN));
    CHECK(qsb_plugins_has(first, a.sort) && !qsb_plugins_has(first, c.sort));
    CHECK(qsb_plugins_has(second, b.sort) && !qsb_plugins_has(second, a.sort));
    CHECK(!qsb_plugins_has(first, msort.sort));

    const char *libraries[QSB_PLUGIN_MAX], *object, *symbol;
    CHECK_EQ_U64(qsb_plugins_libraries(first, libraries), 1);
    CHECK(strcmp(libraries[0], path) == 0);
    CHECK(qsb_plugins_object(first, a.sort, &object, &symbol) &&
          strcmp(symbol, "plain_introsort") == 0 && strcmp(object, path) == 0);
    CHECK(!qsb_plugins_object(second, b.sort, &object, &symbol)); /* qsort's signature */

    CHECK(qsb_plugins_direct(first, a.sort) == a.sort); /* not loaded yet */
    CHECK_EQ_U64(qsb_plugins_load(first), QSB_OK);
    CHECK_EQ_U64(qsb_plugins_load(second), QSB_OK);
    CHECK(qsb_plugins_direct(first, a.sort) != a.sort);
    CHECK(qsb_plugins_direct(second, b.sort) == b.sort); /* only through its adapter */
    CHECK(sorts_correctly(a.sort) && sorts_correctly(qsb_plugins_direct(first, a.sort)));
    CHECK(sorts_correctly(b.sort) && sorts_correctly(c.sort));

    qsb_plugins_free(first); /* the second set's plug-ins are its own */
    CHECK(sorts_correctly(b.sort) && sorts_correctly(c.sort));
    qsb_plugins *third = qsb_plugins_new();
    qsb_algorithm again;
    CHECK(third && qsb_plugins_resolve(third, a_spec, &again) == QSB_OK);
    CHECK(qsb_plugins_has(third, again.sort) && !qsb_plugins_has(second, again.sort));
    CHECK(sorts_correctly(again.sort)); /* loaded at its first call */
    qsb_plugins_free(third);
    qsb_plugins_free(second);
    free(a_spec);
    free(b_spec);
    free(c_spec);
}

int main(int argc, char **argv)
{
    if (argc != 2 || !strchr(argv[1], '/')) {
        fprintf(stderr, "usage: test_plugins /PATH/TO/plugin_example.so\n");
        return 2;
    }
    test_without_a_set(argv[1]);
    test_two_sets(argv[1]);
    return check_done();
}
