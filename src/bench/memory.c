/*
** What a run may take of memory (see memory.h): n * size * buffers must not overflow, must be
** addressable and must stay within MemAvailable, so that a mistyped --nelem is one error line
** instead of an OOM kill or minutes of swapping; and the run's planned peak stays within its
** bound.
*/
#include "memory.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "diag.h"
#include "option_names.h"

#define DEFAULT_BOUND_SHARE 4                   /* a quarter of physical memory */
#define UNKNOWN_MEMORY_BOUND ((uint64_t)1 << 30) /* where /proc/meminfo says nothing */
#define BUFFERS_OF_PROCESS 4 /* the input, the work copy, the spare result, msort's scratch */
#define FITTING_STEP 1024    /* a count that fits is named in multiples of this */

/* The value of one "Key: N kB" line of /proc/meminfo, in bytes; 0 when absent. */
static uint64_t meminfo_bytes(const char *key)
{
    const char *path = getenv("QSB_MEMINFO");
    FILE *fp = fopen(path && *path ? path : "/proc/meminfo", "r");
    if (!fp)
        return 0;
    char line[256];
    unsigned long long kib = 0;
    size_t key_len = strlen(key);
    int found = 0;
    while (!found && fgets(line, sizeof line, fp))
        found = strncmp(line, key, key_len) == 0 && line[key_len] == ':' &&
                sscanf(line + key_len + 1, "%llu kB", &kib) == 1;
    fclose(fp);
    if (!found || kib > UINT64_MAX / 1024)
        return 0;
    return (uint64_t)kib * 1024;
}

uint64_t qsb_available_memory(void)
{
    return meminfo_bytes("MemAvailable");
}

/* Bytes of physical memory (MemTotal) the same way. */
static uint64_t physical_memory(void)
{
    return meminfo_bytes("MemTotal");
}

/* A quarter of physical memory; 1 GiB when it is unknown. */
static uint64_t default_memory_bound(void)
{
    uint64_t total = physical_memory();
    return total ? total / DEFAULT_BOUND_SHARE : UNKNOWN_MEMORY_BOUND;
}

void qsb_format_memory(uint64_t bytes, char *buf, size_t len)
{
    static const char *const units[] = {"bytes", "KiB", "MiB", "GiB", "TiB", "PiB", "EiB"};
    double value = (double)bytes;
    size_t unit = 0;
    while (value >= 1024 && unit + 1 < sizeof units / sizeof units[0]) {
        value /= 1024;
        unit++;
    }
    if (unit == 0)
        snprintf(buf, len, "%llu bytes", (unsigned long long)bytes);
    else
        snprintf(buf, len, "%.1f %s", value, units[unit]);
}

int qsb_check_fits(uint64_t nelem, uint64_t size, const char *what)
{
    if (size != 0 && nelem > SIZE_MAX / size)
        return qsb_usage_error("%s: %llu elements of %llu bytes do not fit in the address "
                               "space",
                               what, (unsigned long long)nelem, (unsigned long long)size);
    uint64_t bytes = nelem * size, available = qsb_available_memory();
    if (available != 0 && bytes > available) {
        char need[32], have[32];
        qsb_format_memory(bytes, need, sizeof need);
        qsb_format_memory(available, have, sizeof have);
        return qsb_usage_error("%s: %llu elements of %llu bytes need %s, more than the %s "
                               "of memory available",
                               what, (unsigned long long)nelem, (unsigned long long)size, need,
                               have);
    }
    return QSB_OK;
}

/* a + b, saturated: a matrix this large is refused, not wrapped around. */
static uint64_t add_sat(uint64_t a, uint64_t b)
{
    return a > UINT64_MAX - b ? UINT64_MAX : a + b;
}

static uint64_t mul_sat(uint64_t a, uint64_t b)
{
    return b && a > UINT64_MAX / b ? UINT64_MAX : a * b;
}

static uint64_t largest_of(const uint64_t *v, size_t n)
{
    uint64_t largest = 0;
    for (size_t i = 0; i < n; i++)
        largest = v[i] > largest ? v[i] : largest;
    return largest;
}

/* Every cell's input once: the cells of the run (its shard's). */
static uint64_t inputs_bytes(const qsb_run_config *cfg)
{
    uint64_t total = 0;
    for (qsb_cell_cursor at = {0}; qsb_run_config_next_cell(cfg, &at);)
        total = add_sat(total, mul_sat(cfg->nelem[at.nelem], cfg->sizes[at.size]));
    return total;
}

static bool with_workers(const qsb_run_config *cfg)
{
    return cfg->processes != 1;
}

void qsb_memory_plan_run(const qsb_run_config *cfg, unsigned plug_ins, qsb_memory_plan *m)
{
    uint64_t largest = mul_sat(largest_of(cfg->nelem, cfg->n_nelem),
                               largest_of(cfg->sizes, cfg->n_sizes));
    memset(m, 0, sizeof *m);
    m->bound_given = cfg->memory_bytes > 0;
    m->bound = m->bound_given ? cfg->memory_bytes : default_memory_bound();
    m->inputs = inputs_bytes(cfg);
    /* Its buffers (run.c): the input, the work copy, the spare result, msort's
    ** scratch, and one per plug-in; a one-process run keeps inputs between visits (run.c). */
    m->buffers = BUFFERS_OF_PROCESS + plug_ins;
    m->base = QSB_PROCESS_BASE_BYTES;
    if (!with_workers(cfg))
        m->base += m->inputs < QSB_KEPT_INPUTS_BYTES ? m->inputs : QSB_KEPT_INPUTS_BYTES;
    m->per_process = add_sat(mul_sat(largest, m->buffers), m->base);
    m->at_once = with_workers(cfg) && cfg->jobs > 1 ? cfg->jobs : 1;
    uint64_t processes = mul_sat(m->per_process, m->at_once);
    uint64_t left = processes < m->bound ? m->bound - processes : 0;
    m->shared = with_workers(cfg) ? (m->inputs < left ? m->inputs : left) : 0;
    m->peak = add_sat(processes, m->shared);
}

bool qsb_memory_fits_whole(const qsb_memory_plan *m)
{
    uint64_t shared = m->shared ? m->inputs : 0;
    return add_sat(mul_sat(m->per_process, m->at_once), shared) <= m->bound;
}

/* The largest count, in steps of FITTING_STEP, whose processes' buffers fit in the bound at
** the largest element size. */
static uint64_t fitting_count(const qsb_run_config *cfg, const qsb_memory_plan *m)
{
    uint64_t per_process = m->bound / m->at_once;
    uint64_t size = largest_of(cfg->sizes, cfg->n_sizes);
    if (per_process <= m->base || size == 0)
        return 0;
    return (per_process - m->base) / size / m->buffers / FITTING_STEP * FITTING_STEP;
}

int qsb_memory_check(const qsb_run_config *cfg, const qsb_memory_plan *m)
{
    uint64_t processes = mul_sat(m->per_process, m->at_once);
    if (processes <= m->bound)
        return QSB_OK;
    char need[32], bound[32], at_once[48] = "";
    qsb_format_memory(processes, need, sizeof need);
    qsb_format_memory(m->bound, bound, sizeof bound);
    if (m->at_once > 1)
        snprintf(at_once, sizeof at_once, " (%llu processes at once)",
                 (unsigned long long)m->at_once);
    uint64_t fits = fitting_count(cfg, m);
    return qsb_usage_error("--" QSB_OPT_NELEM ": the run's measuring processes need about "
                           "%s%s, beyond its memory bound of %s (%s); the largest count that "
                           "fits with --" QSB_OPT_SIZES " up to %llu: %llu",
                           need, at_once, bound,
                           m->bound_given ? "--" QSB_OPT_MEMORY
                                          : "a quarter of this machine's; --" QSB_OPT_MEMORY
                                            " to change it",
                           (unsigned long long)largest_of(cfg->sizes, cfg->n_sizes),
                           (unsigned long long)fits);
}
