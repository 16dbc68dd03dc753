/*
** The run's configuration: names of its enums, the cells it visits, freeing it (run_config.h).
** Parsing it from the command line is the commands' part (commands/run_options.c).
*/
#include "run_config.h"

#include <stdlib.h>
#include <string.h>

static const char *const metric_names[] = {
    [QSB_METRIC_CYCLES] = "cycles",
    [QSB_METRIC_NS] = "ns",
    [QSB_METRIC_COMPARISONS] = "comparisons",
};

const char *qsb_metric_name(qsb_metric metric)
{
    return metric_names[metric];
}

size_t qsb_run_config_cells(const qsb_run_config *cfg)
{
    size_t cells = cfg->n_patterns * cfg->n_sizes * cfg->n_nelem, count = 0;
    if (!cfg->in_shard)
        return cells;
    for (size_t i = 0; i < cells; i++)
        count += cfg->in_shard[i] != 0;
    return count;
}

bool qsb_run_config_next_cell(const qsb_run_config *cfg, qsb_cell_cursor *at)
{
    size_t cells = cfg->n_patterns * cfg->n_sizes * cfg->n_nelem;
    while (at->next < cells && cfg->in_shard && !cfg->in_shard[at->next])
        at->next++;
    if (at->next >= cells)
        return false;
    at->nelem = at->next % cfg->n_nelem;
    at->size = at->next / cfg->n_nelem % cfg->n_sizes;
    at->pattern = at->next / (cfg->n_nelem * cfg->n_sizes);
    at->next++;
    return true;
}

void qsb_run_config_free(qsb_run_config *cfg)
{
    free(cfg->nelem);
    free(cfg->sizes);
    free(cfg->patterns);
    free(cfg->algos);
    free(cfg->command_line);
    free(cfg->in_shard);
    for (size_t i = 0; cfg->worker.argv_head && cfg->worker.argv_head[i]; i++)
        free(cfg->worker.argv_head[i]);
    free(cfg->worker.argv_head);
    memset(cfg, 0, sizeof *cfg);
}
