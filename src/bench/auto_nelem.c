/*
** --nelem auto fitted to the run (see auto_nelem.h).
*/
#include "auto_nelem.h"

#include <stdio.h>
#include <stdlib.h>

#include "diag.h"
#include "machine.h"
#include "plan.h"

/* Does the run, with its counts as they are now, keep its minimum within its budget? */
static bool fits_budget(const qsb_run_config *cfg, const qsb_sort_costs *costs, double budget_s)
{
    size_t cells = qsb_run_config_cells(cfg);
    double *round_s = malloc((cells ? cells : 1) * sizeof *round_s);
    double *first_s = malloc((cells ? cells : 1) * sizeof *first_s);
    bool fits = true; /* out of memory: the plan will say so */
    if (round_s && first_s) {
        qsb_run_plan plan;
        qsb_estimate_cells(cfg, costs, round_s, first_s);
        qsb_plan_from_costs(cfg, round_s, first_s, cells, &plan);
        fits = plan.minimum_s <= QSB_AUTO_NELEM_BUDGET_SHARE * budget_s;
    }
    free(round_s);
    free(first_s);
    return fits;
}

static bool fits_memory(const qsb_run_config *cfg, unsigned plug_ins)
{
    qsb_memory_plan m;
    qsb_memory_plan_run(cfg, plug_ins, &m);
    return qsb_memory_fits_whole(&m);
}

/* Whether the counts must fit a budget (the costs are then probed): a run that spends one,
** not --reps, --processes N, exact counts or a worker. */
static bool fits_timed(const qsb_run_config *cfg)
{
    return cfg->metric != QSB_METRIC_COMPARISONS && !cfg->reps && cfg->processes <= 1 &&
           cfg->worker.slice_s <= 0;
}

void qsb_auto_nelem_fit_costs(qsb_run_config *cfg, unsigned plug_ins,
                              const qsb_sort_costs *costs)
{
    qsb_nelem_choice *c = &cfg->nelem_choice;
    if (cfg->nelem_source == QSB_NELEM_GIVEN || cfg->n_nelem == 0)
        return;
    uint64_t *largest = &cfg->nelem[cfg->n_nelem - 1];
    uint64_t floor = cfg->n_nelem > 1 ? 2 * cfg->nelem[cfg->n_nelem - 2] : 1;
    c->budget_s = cfg->budget_s > 0 ? cfg->budget_s : QSB_AUTO_BUDGET_MAX_S;
    bool timed = fits_timed(cfg);
    for (;;) {
        bool memory = fits_memory(cfg, plug_ins);
        if ((memory && (!timed || fits_budget(cfg, costs, c->budget_s))) ||
            *largest / 2 < floor)
            return;
        c->for_memory = !memory;
        *largest /= 2;
        c->halvings++;
    }
}

int qsb_auto_nelem_fit(qsb_run_config *cfg, unsigned plug_ins)
{
    if (cfg->nelem_source == QSB_NELEM_GIVEN)
        return QSB_OK;
    qsb_sort_costs costs = {NULL, 0};
    int status = fits_timed(cfg) ? qsb_estimate_probe(cfg, &costs) : QSB_OK;
    if (status == QSB_OK)
        qsb_auto_nelem_fit_costs(cfg, plug_ins, &costs);
    qsb_sort_costs_free(&costs);
    return status;
}

/* "8,388,608": a count as people read it. */
static void group_digits(uint64_t n, char *buf, size_t len)
{
    char digits[24];
    int count = snprintf(digits, sizeof digits, "%llu", (unsigned long long)n);
    size_t used = 0;
    for (int i = 0; i < count && used + 1 < len; i++) {
        if (i > 0 && (count - i) % 3 == 0 && used + 2 < len)
            buf[used++] = ',';
        buf[used++] = digits[i];
    }
    buf[used] = '\0';
}

/* " halved 2 times to fit the budget of 300 s" (or once), or "" when not halved. */
static void halving_reason(const qsb_nelem_choice *c, char *buf, size_t len)
{
    buf[0] = '\0';
    if (c->halvings == 0)
        return;
    char budget[32] = "", times[32] = "once";
    if (!c->for_memory)
        snprintf(budget, sizeof budget, " of %.0f s", c->budget_s);
    if (c->halvings > 1)
        snprintf(times, sizeof times, "%u times", c->halvings);
    snprintf(buf, len, " halved %s to fit the %s%s", times,
             c->for_memory ? "memory bound" : "budget", budget);
}

/* Why the largest of the cache levels' counts is what it is. */
static void largest_reason(const qsb_run_config *cfg, char *buf, size_t len)
{
    const qsb_nelem_choice *c = &cfg->nelem_choice;
    char whole[32], halved[96];
    group_digits(c->cache_bytes[cfg->n_nelem - 1] / 8, whole, sizeof whole);
    halving_reason(c, halved, sizeof halved);
    if (c->capped && c->halvings == 0)
        snprintf(buf, len, " (the cover letter's; its size / 8 would be %s)", whole);
    else
        snprintf(buf, len, " (%s%s)", c->capped ? "the cover letter's 8,388,608" : "its size / 8",
                 halved);
}

/* "no cache sizes in sysfs: the seed's 49,152, 786,432, 8,388,608". */
static void describe_fallback(const qsb_run_config *cfg, char *buf, size_t len)
{
    size_t used = (size_t)snprintf(buf, len, "no cache sizes in sysfs: the seed's");
    for (size_t i = 0; i < cfg->n_nelem && used < len; i++) {
        char count[32];
        group_digits(cfg->nelem[i], count, sizeof count);
        int n = snprintf(buf + used, len - used, "%s %s", i ? "," : "", count);
        used += n > 0 ? (size_t)n : 0;
    }
    char halved[96];
    halving_reason(&cfg->nelem_choice, halved, sizeof halved);
    if (used < len && halved[0])
        snprintf(buf + used, len - used, " (the last%s)", halved);
}

void qsb_auto_nelem_describe(const qsb_run_config *cfg, char *buf, size_t len)
{
    static const char *const names[] = {"L1d", "L2", "L3"};
    const qsb_nelem_choice *c = &cfg->nelem_choice;
    if (cfg->nelem_source == QSB_NELEM_FALLBACK) {
        describe_fallback(cfg, buf, len);
        return;
    }
    size_t used = 0;
    buf[0] = '\0';
    for (size_t i = 0; i < cfg->n_nelem && used < len; i++) {
        char count[32], size[32], reason[192] = "";
        group_digits(cfg->nelem[i], count, sizeof count);
        qsb_format_bytes(c->cache_bytes[i], size, sizeof size);
        if (i + 1 == cfg->n_nelem)
            largest_reason(cfg, reason, sizeof reason);
        int n = snprintf(buf + used, len - used, "%s%s %s: %s%s", i ? "; " : "",
                         names[c->level[i] < 3 ? c->level[i] : 2], size, count, reason);
        used += n > 0 ? (size_t)n : 0;
    }
}
