/*
** The head of a worker's command line (see worker_args.h).
*/
#include "worker_args.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "diag.h"

const char *const qsb_worker_options[] = {"sizes",   "patterns",  "algos",  "seed",
                                          "precision", "placement", "warmup", "pin",
                                          "batch",   "slowed",    "metric", "compat",
                                          "shard",   "machine"};
const size_t qsb_worker_option_count = sizeof qsb_worker_options / sizeof qsb_worker_options[0];

/* "--name=value", malloc'd. */
static char *option_word(const char *name, const char *value)
{
    size_t len = strlen(name) + strlen(value) + 4;
    char *word = malloc(len);
    if (word)
        snprintf(word, len, "--%s=%s", name, value);
    return word;
}

/* "49152:786432": the resolved counts. */
static char *nelem_list(const qsb_run_config *cfg)
{
    size_t len = cfg->n_nelem * 21 + 1, used = 0;
    char *text = malloc(len);
    for (size_t i = 0; text && i < cfg->n_nelem; i++)
        used += (size_t)snprintf(text + used, len - used, "%s%llu", i ? ":" : "",
                                 (unsigned long long)cfg->nelem[i]);
    return text;
}

int qsb_worker_argv_build(qsb_run_config *cfg, const char *const texts[])
{
    char **argv = calloc(qsb_worker_option_count + 4, sizeof *argv);
    char *nelem = nelem_list(cfg);
    size_t n = 0;
    bool ok = argv && nelem && (argv[n++] = strdup("run")) &&
              (argv[n++] = option_word("nelem", nelem));
    for (size_t i = 0; ok && i < qsb_worker_option_count; i++)
        if (texts[i])
            ok = (argv[n++] = option_word(qsb_worker_options[i], texts[i])) != NULL;
    if (ok && !cfg->reload)
        ok = (argv[n++] = strdup("--no-reload")) != NULL;
    free(nelem);
    cfg->worker.argv_head = argv;
    return ok ? QSB_OK : qsb_out_of_memory("worker command line");
}
