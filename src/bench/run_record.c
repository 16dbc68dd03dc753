/*
** A run's context (see run_record.h).
*/
#include "run_record.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "auto_nelem.h"
#include "diag.h"
#include "machine.h"
#include "option_names.h"
#include "run_context.h"
#include "version.h"

bool qsb_release_build(void)
{
    return strcmp(QSB_BUILD_TYPE, "Release") == 0 ||
           strcmp(QSB_BUILD_TYPE, "RelWithDebInfo") == 0;
}

static int set_strings(const char *const values[], char **const fields[], size_t n)
{
    for (size_t i = 0; i < n; i++)
        if (qsb_set_string(fields[i], values[i]) != 0)
            return qsb_out_of_memory("context");
    return QSB_OK;
}

/* The machine's state and the repetition rules. */
static int fill_noise_context(qsb_context *c, const qsb_run_config *cfg, const qsb_run_plan *plan,
                              const qsb_placement *placement, double load_average)
{
    char governor[64], turbo[16], repetitions[384], warmup[32], where[256], counts[600];
    qsb_cpu_governor(governor, sizeof governor);
    qsb_turbo_state(turbo, sizeof turbo);
    c->load_average = load_average >= 0 ? load_average : NAN;
    c->pinned_cpu = cfg->pin_cpu;
    c->release_build = qsb_release_build();
    c->sanitized = QSB_SANITIZED;
    c->precision_pct = cfg->precision_pct;
    c->budget_s = plan->budget_s > 0 ? plan->budget_s : NAN;
    c->drift_ratios = c->drift_medians = NAN; /* known when the run ends (run.c) */
    qsb_placement_describe(placement, where, sizeof where);
    qsb_plan_describe(cfg, plan, repetitions, sizeof repetitions);
    if (cfg->warmup == QSB_WARMUP_AUTO)
        snprintf(warmup, sizeof warmup, "auto");
    else
        snprintf(warmup, sizeof warmup, "%llu", (unsigned long long)cfg->warmup);
    snprintf(counts, sizeof counts, "given (--" QSB_OPT_NELEM ")");
    if (cfg->nelem_source != QSB_NELEM_GIVEN) { /* the run's first line's words */
        char why[512];
        qsb_auto_nelem_describe(cfg, why, sizeof why);
        snprintf(counts, sizeof counts, "--" QSB_OPT_NELEM " auto: %s", why);
    }
    c->memory_bound_bytes = (double)plan->memory.bound;
    c->memory_peak_bytes = (double)plan->memory.peak;
    const char *const values[] = {governor, turbo, repetitions, warmup, counts, where};
    char **const fields[] = {&c->governor, &c->turbo, &c->repetitions, &c->warmup,
                             &c->nelem_source, &c->placement};
    return set_strings(values, fields, sizeof fields / sizeof fields[0]);
}

/* The machine's name, the shard and the whole matrix (result.h fleet fields). */
static int fill_matrix(qsb_context *c, const qsb_run_config *cfg)
{
    qsb_matrix m;
    memset(&m, 0, sizeof m);
    m.nelem = cfg->nelem;
    m.n_nelem = cfg->n_nelem;
    m.sizes = cfg->sizes;
    m.n_sizes = cfg->n_sizes;
    char **patterns = calloc(cfg->n_patterns ? cfg->n_patterns : 1, sizeof *patterns);
    char **algos = calloc(cfg->n_algos ? cfg->n_algos : 1, sizeof *algos);
    int status = patterns && algos ? QSB_OK : qsb_out_of_memory("context");
    for (size_t i = 0; status == QSB_OK && i < cfg->n_patterns; i++)
        patterns[i] = (char *)cfg->patterns[i]->name; /* borrowed: copied below */
    for (size_t i = 0; status == QSB_OK && i < cfg->n_algos; i++)
        algos[i] = (char *)cfg->algos[i].name;
    m.patterns = patterns;
    m.n_patterns = cfg->n_patterns;
    m.algos = algos;
    m.n_algos = cfg->n_algos;
    if (status == QSB_OK && qsb_matrix_copy(&c->matrix, &m) != 0)
        status = qsb_out_of_memory("context");
    free(patterns);
    free(algos);
    c->shard_k = cfg->shard_k;
    c->shard_n = cfg->shard_n;
    if (status == QSB_OK && qsb_set_string(&c->machine, cfg->machine ? cfg->machine
                                                                   : c->host) != 0)
        status = qsb_out_of_memory("context");
    return status;
}

int qsb_run_record_context(qsb_results *r, const qsb_run_config *cfg, const qsb_run_plan *plan,
                           const qsb_placement *placement, const qsb_timer *timer,
                           const struct tm *utc, double load_average)
{
    qsb_context *c = &r->context;
    qsb_run_context where;
    qsb_run_context_gather(&where, utc);
    memcpy(c->cache_bytes, where.cache_bytes, sizeof c->cache_bytes);
    c->seed = cfg->seed;
    c->tsc_hz = timer ? timer->tsc_hz : 0;
    c->timer_resolution_ns = timer ? timer->resolution_ns : 0;
    const char *const values[] = {
        QSB_VERSION, where.date, where.host, where.cpu_model, where.caches, where.libc,
        QSB_COMPILER, QSB_BUILD_FLAGS, QSB_BUILD_TYPE, timer ? timer->name : "none",
        qsb_metric_name(cfg->metric),
        cfg->mode == QSB_MODE_COMPAT_2021 ? QSB_COMPAT_2021_NAME : "default",
        cfg->command_line, where.run_id, cfg->algos[0].name};
    char **const fields[] = {
        &c->tool_version, &c->date,     &c->host,       &c->cpu_model,    &c->caches,
        &c->libc,         &c->compiler, &c->build_flags, &c->build_type,  &c->timer,
        &c->metric,       &c->mode,     &c->command_line, &c->run_id,      &r->baseline};
    int status = set_strings(values, fields, sizeof fields / sizeof fields[0]);
    if (status == QSB_OK)
        status = fill_matrix(c, cfg);
    return status == QSB_OK ? fill_noise_context(c, cfg, plan, placement, load_average) : status;
}
