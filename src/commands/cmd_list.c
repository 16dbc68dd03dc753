/*
** `qsortbench list`: the algorithm registry and the input patterns, one per line, straight
** from their tables.
*/
#include <stdio.h>

#include "commands.h"
#include "diag.h"
#include "patterns.h"
#include "registry.h"

static const qsb_command_spec list_spec = {
    "list", "", "Print the algorithm registry and the input patterns, one per line.", NULL,
    "0 success, 2 for bad arguments."};
static const qsb_command_spec *const list_specs[] = {&list_spec, NULL};

static int ignore_option(void *ctx, int index, const char *arg)
{
    (void)ctx, (void)index, (void)arg;
    return QSB_OK;
}

static void print_properties(unsigned p)
{
    if (p & QSB_PROP_UNKNOWN) { /* the same width as the declared columns below */
        printf("[%-37s]", "properties unknown: measured by audit");
        return;
    }
    printf("[%s %s %s%s]", p & QSB_PROP_STABLE ? "stable  " : "unstable",
           p & QSB_PROP_ALLOCATES ? "allocates" : "in-place ",
           p & QSB_PROP_NLOGN_WORST ? "nlogn    " : "quadratic",
           p & QSB_PROP_FALLBACK ? " fallback" : "         ");
}

static int list_main(int argc, char **argv)
{
    int first;
    int status = qsb_parse_options(&list_spec, argc, argv, ignore_option, NULL, &first);
    if (status != QSB_OK)
        return status == QSB_HELP_SHOWN ? QSB_OK : status;
    if (first < argc)
        return qsb_usage_error("list takes no operands ('%s')", qsb_quote(argv[first]));

    printf("Algorithms (declared properties; `qsortbench audit` measures them):\n");
    for (size_t i = 0; i < qsb_algorithm_count; i++) {
        const qsb_algorithm *a = &qsb_algorithms[i];
        printf("  %-16s ", a->name);
        print_properties(a->properties);
        printf(" %s (%s)\n", a->summary, a->origin);
    }
    printf("\nPatterns:\n");
    for (size_t i = 0; i < qsb_pattern_count; i++)
        printf("  %-16s %s%s\n", qsb_patterns[i].name, qsb_patterns[i].summary,
               qsb_patterns[i].seed_pattern ? " (seed pattern)" : "");
    return QSB_OK;
}

/* The command's row of the tool's table (main.c). */
const qsb_command qsb_list_command = {
    .name = "list",
    .run = list_main,
    .summary = "the algorithm registry and the input patterns",
    .specs = list_specs,
};
