/*
** --nelem auto fitted to the run (src/bench/auto_nelem.h), on sysfs and /proc/meminfo fixtures
** with made-up sort costs, so that nothing depends on this machine: a 2-vCPU VM's slice of a
** 300 MiB shared L3 and a 1 GiB-L3 server get the cover letter's 8,388,608 and say so; a
** machine without an L3 fits its L2; a slow machine halves the largest count until the
** minimum of 5 worker processes fits in 85% of the 5-minute budget (and the count before the
** last halving did not); a machine whose memory is smaller than the matrix halves it until
** its buffers and inputs fit a quarter of it; --reps and --processes N leave the budget alone;
** the words of the run's first line.
*/
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "auto_nelem.h"
#include "check.h"
#include "estimate.h"
#include "plan.h"
#include "run_binary.h"

#define SYSFS QSB_SOURCE_DIR "/tests/fixtures/sysfs/"
#define MEMINFO QSB_SOURCE_DIR "/tests/fixtures/meminfo/"

/* A default run's configuration on the fixture machine, as parsed with --reps 1 (which fits
** no budget, so that the host's speed plays no part) on a machine of ample memory, then made
** a budget-spending run on a machine of the fixture's memory. */
static void default_config(qsb_run_config *cfg, const char *sysfs, const char *meminfo)
{
    const char *const options[] = {"--reps", "1", NULL};
    setenv("QSB_SYSFS_CPU_ROOT", sysfs, 1);
    setenv("QSB_MEMINFO", MEMINFO "vm-23g", 1); /* whose memory fits every matrix here */
    CHECK(parse_run_config(cfg, options) == 0);
    setenv("QSB_MEMINFO", meminfo, 1);
    cfg->reps = 0;
    cfg->processes = 0;
    cfg->nelem_choice.halvings = 0;
}

/* Sort costs of seconds per unit of work, the same for every pattern. */
static qsb_sort_costs costs_of(double per_work, double store[8])
{
    for (size_t p = 0; p < 8; p++)
        store[p] = per_work;
    return (qsb_sort_costs){store, 8};
}

/* The plan's minimum of the config's run at these costs. */
static double minimum_s(const qsb_run_config *cfg, const qsb_sort_costs *costs)
{
    size_t cells = qsb_run_config_cells(cfg);
    double *round_s = malloc(cells * sizeof *round_s), *first_s = malloc(cells * sizeof *first_s);
    qsb_run_plan plan;
    memset(&plan, 0, sizeof plan);
    qsb_estimate_cells(cfg, costs, round_s, first_s);
    qsb_plan_from_costs(cfg, round_s, first_s, cells, &plan);
    free(round_s);
    free(first_s);
    return plan.minimum_s;
}

static void check_counts(const qsb_run_config *cfg, const uint64_t *want, size_t n)
{
    CHECK_EQ_U64(cfg->n_nelem, n);
    for (size_t i = 0; i < n && i < cfg->n_nelem; i++)
        CHECK_EQ_U64(cfg->nelem[i], want[i]);
}

static void check_words(const qsb_run_config *cfg, const char *want)
{
    char text[512];
    qsb_auto_nelem_describe(cfg, text, sizeof text);
    CHECK_MSG(strstr(text, want) != NULL, "no '%s' in '%s'", want, text);
}

/* Fixture machines on a fast host: the caches' counts, the L3 at most the cover letter's. */
static const struct {
    const char *sysfs;
    size_t n;
    uint64_t counts[3];
    const char *words;
} machines[] = {
    {"vm-xeon-300m", 3, {12288, 524288, 8388608},
     "L1d 96 KiB: 12,288; L2 4 MiB: 524,288; L3 300 MiB: 8,388,608 (the cover letter's; its "
     "size / 8 would be 39,321,600)"},
    {"server-1g-l3", 3, {24576, 1048576, 8388608},
     "L3 1 GiB: 8,388,608 (the cover letter's; its size / 8 would be 134,217,728)"},
    {"no-l3", 2, {16384, 131072, 0}, "L1d 128 KiB: 16,384; L2 1 MiB: 131,072 (its size / 8)"},
};

static void test_machines(void)
{
    double store[8];
    qsb_sort_costs fast = costs_of(1e-9, store);
    for (size_t m = 0; m < sizeof machines / sizeof machines[0]; m++) {
        char sysfs[512];
        snprintf(sysfs, sizeof sysfs, "%s%s", SYSFS, machines[m].sysfs);
        qsb_run_config cfg;
        default_config(&cfg, sysfs, MEMINFO "vm-23g");
        qsb_auto_nelem_fit_costs(&cfg, 0, &fast);
        check_counts(&cfg, machines[m].counts, machines[m].n);
        CHECK(cfg.nelem_choice.halvings == 0);
        check_words(&cfg, machines[m].words);
        qsb_run_config_free(&cfg);
    }
}

/* A machine 20 times slower than the fast one: the L3 count halves until the minimum fits. */
static void test_slow_machine(void)
{
    qsb_run_config cfg;
    double store[8];
    qsb_sort_costs slow = costs_of(2e-8, store);
    default_config(&cfg, SYSFS "vm-xeon-300m", MEMINFO "vm-23g");
    qsb_auto_nelem_fit_costs(&cfg, 0, &slow);
    unsigned halvings = cfg.nelem_choice.halvings;
    CHECK(halvings >= 1 && !cfg.nelem_choice.for_memory);
    CHECK_EQ_U64(cfg.nelem[2], UINT64_C(8388608) >> halvings);
    double budget = QSB_AUTO_NELEM_BUDGET_SHARE * QSB_AUTO_BUDGET_MAX_S;
    CHECK_MSG(minimum_s(&cfg, &slow) <= budget, "minimum %g s", minimum_s(&cfg, &slow));
    cfg.nelem[2] *= 2; /* one halving fewer did not fit */
    CHECK_MSG(minimum_s(&cfg, &slow) > budget, "minimum %g s", minimum_s(&cfg, &slow));
    cfg.nelem[2] /= 2;
    char want[128], times[32] = "once";
    if (halvings > 1)
        snprintf(times, sizeof times, "%u times", halvings);
    snprintf(want, sizeof want, "(the cover letter's 8,388,608 halved %s to fit the budget of "
                                "300 s)",
             times);
    check_words(&cfg, want);
    qsb_run_config_free(&cfg);

    /* An explicit budget is the one fitted to; --reps or --processes N fit none. */
    default_config(&cfg, SYSFS "vm-xeon-300m", MEMINFO "vm-23g");
    cfg.budget_s = 1200; /* --budget 20m */
    qsb_auto_nelem_fit_costs(&cfg, 0, &slow);
    CHECK(cfg.nelem_choice.halvings < halvings);
    qsb_run_config_free(&cfg);
    default_config(&cfg, SYSFS "vm-xeon-300m", MEMINFO "vm-23g");
    cfg.processes = 3;
    qsb_auto_nelem_fit_costs(&cfg, 0, &slow);
    CHECK_EQ_U64(cfg.nelem[2], 8388608);
    qsb_run_config_free(&cfg);
}

/* 2 GiB of memory: a bound of 512 MiB, which the default matrix's buffers pass. */
static void test_small_memory(void)
{
    qsb_run_config cfg;
    double store[8];
    qsb_sort_costs fast = costs_of(1e-9, store);
    default_config(&cfg, SYSFS "vm-xeon-300m", MEMINFO "small-2g");
    qsb_memory_plan m;
    qsb_memory_plan_run(&cfg, 0, &m);
    CHECK_EQ_U64(m.bound, UINT64_C(512) << 20);
    CHECK(!qsb_memory_fits_whole(&m));
    qsb_auto_nelem_fit_costs(&cfg, 0, &fast);
    CHECK(cfg.nelem_choice.halvings >= 1 && cfg.nelem_choice.for_memory);
    qsb_memory_plan_run(&cfg, 0, &m);
    CHECK_MSG(qsb_memory_fits_whole(&m) && m.peak <= m.bound, "peak %llu of %llu",
              (unsigned long long)m.peak, (unsigned long long)m.bound);
    CHECK(qsb_memory_check(&cfg, &m) == 0);
    cfg.nelem[2] *= 2;
    qsb_memory_plan_run(&cfg, 0, &m);
    CHECK(!qsb_memory_fits_whole(&m));
    cfg.nelem[2] /= 2;
    check_words(&cfg, "to fit the memory bound)");
    qsb_run_config_free(&cfg);
}

int main(void)
{
    test_machines();
    test_slow_machine();
    test_small_memory();
    return check_done();
}
