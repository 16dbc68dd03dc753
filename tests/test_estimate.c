/*
** The run's estimate before its first sort (src/bench/estimate.h). What a unit of work costs
** is this machine's, so no figure is checked; what is: every cell gets a positive, finite
** round and a first visit at least as long (its counted sorts and input on top), cells of one
** pattern scale exactly by the shards' cost model (the probe is per pattern and algorithm,
** the sizes and counts are the model's), a plug-in (here: a sort outside the registry) is
** estimated too, and a shard estimates its own cells only.
*/
#include <math.h>
#include <stdlib.h>

#include "check.h"
#include "estimate.h"
#include "registry.h"
#include "run_binary.h"
#include "shard.h"

/* Not a registry entry: the estimate must not run it (estimate.c, built_in). */
static void outside_sort(void *base, size_t n, size_t size, qsb_compare cmp, void *arg)
{
    (void)base, (void)n, (void)size, (void)cmp, (void)arg;
    CHECK_MSG(0, "the estimate ran a sort from outside the registry");
}

static void test_cells(void)
{
    qsb_run_config cfg;
    const char *const options[] = {
        "--nelem", "1000:100000", "--sizes", "4,32", "--patterns", "sorted,random", NULL};
    CHECK(parse_run_config(&cfg, options) == 0);
    size_t cells = qsb_run_config_cells(&cfg);
    CHECK_EQ_U64(cells, 8);
    double round_s[8], first_s[8];
    qsb_sort_costs costs;
    CHECK(qsb_estimate_probe(&cfg, &costs) == 0);
    qsb_estimate_cells(&cfg, &costs, round_s, first_s);
    qsb_sort_costs_free(&costs);
    for (size_t c = 0; c < cells; c++)
        CHECK_MSG(round_s[c] > 0 && isfinite(round_s[c]) && first_s[c] >= round_s[c] &&
                      isfinite(first_s[c]),
                  "cell %zu: round %g, first %g", c, round_s[c], first_s[c]);
    /* Matrix order: pattern, size, count. Within a pattern, the model's ratios exactly. */
    for (size_t p = 0; p < 2; p++) {
        const double *r = round_s + 4 * p;
        double unit = r[0] / qsb_shard_cell_cost(1000, 4, 1);
        CHECK(fabs(r[1] / qsb_shard_cell_cost(100000, 4, 1) / unit - 1) < 1e-12);
        CHECK(fabs(r[2] / qsb_shard_cell_cost(1000, 32, 1) / unit - 1) < 1e-12);
        CHECK(fabs(r[3] / qsb_shard_cell_cost(100000, 32, 1) / unit - 1) < 1e-12);
    }
    qsb_run_config_free(&cfg);
}

static void test_plugin_and_shard(void)
{
    qsb_run_config cfg;
    const char *const options[] = {
        "--nelem", "1000:2000", "--sizes", "4", "--patterns", "random", "--shard", "2/2", NULL};
    CHECK(parse_run_config(&cfg, options) == 0);
    size_t cells = qsb_run_config_cells(&cfg);
    CHECK(cells >= 1 && cells < 2);
    qsb_algorithm *algos = cfg.algos; /* the candidate becomes a plug-in */
    qsb_algorithm saved = algos[1];
    algos[1].name = "mine";
    algos[1].sort = outside_sort;
    double round_s[2] = {0, 0}, first_s[2] = {0, 0};
    qsb_sort_costs costs;
    CHECK(qsb_estimate_probe(&cfg, &costs) == 0);
    qsb_estimate_cells(&cfg, &costs, round_s, first_s);
    qsb_sort_costs_free(&costs);
    CHECK(round_s[0] > 0 && first_s[0] >= round_s[0] && round_s[1] == 0);
    algos[1] = saved;
    qsb_run_config_free(&cfg);
}

int main(void)
{
    test_cells();
    test_plugin_and_shard();
    return check_done();
}
