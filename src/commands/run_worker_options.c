/*
** The run's options of worker processes and shards (see run_option_texts.h): --processes,
** the options a run gives its workers (read with the protocol's table, worker_protocol.h),
** --jobs, and --shard K/N.
*/
#include <limits.h>
#include <sched.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cli.h"
#include "diag.h"
#include "result.h"
#include "run_option_texts.h"
#include "shard.h"

#define MAX_WORKER_SLICE_S 60.0
#define MAX_TSC_HZ 1e11 /* 100 GHz */

/* "--worker" and "--worker K", for messages: the option's name as the protocol spells it. */
static const char *named(char *buf, size_t len, const qsb_worker_option *o, const char *part)
{
    snprintf(buf, len, "--%s%s%s", o->name, part ? " " : "", part ? part : "");
    return buf;
}

/* The CELLS of --worker K:SLICE:CELLS: "3,7,12", ordinals (from 0) among the cells the run
** visits; the worker visits only those (workers.h: the processes after a run's minimum). */
static int select_worker_cells(qsb_run_config *cfg, const qsb_worker_option *o, const char *list)
{
    size_t cells = cfg->n_patterns * cfg->n_sizes * cfg->n_nelem;
    size_t visited = qsb_run_config_cells(cfg);
    unsigned char *chosen = calloc(visited ? visited : 1, 1);
    char what[64];
    if (!chosen)
        return qsb_out_of_memory(named(what, sizeof what, o, NULL));
    int status = QSB_OK;
    for (const char *p = list; status == QSB_OK && *p;) {
        char word[32];
        size_t len = strcspn(p, ",");
        uint64_t k = 0;
        if (len == 0 || len >= sizeof word)
            status = qsb_usage_error("%s: '%s' is not a list of cells",
                                     named(what, sizeof what, o, NULL), qsb_quote(list));
        else {
            memcpy(word, p, len);
            word[len] = '\0';
            status = qsb_parse_u64(word, named(what, sizeof what, o, "cell"), 0,
                                   visited ? visited - 1 : 0, 0, &k);
        }
        if (status == QSB_OK)
            chosen[k] = 1;
        p += len + (p[len] == ',');
    }
    if (status == QSB_OK && !*list)
        status = qsb_usage_error("%s: the list of cells is empty",
                                 named(what, sizeof what, o, NULL));
    if (status == QSB_OK && !cfg->in_shard) { /* no shard: every cell so far */
        cfg->in_shard = malloc(cells ? cells : 1);
        if (cfg->in_shard)
            memset(cfg->in_shard, 1, cells);
        else
            status = qsb_out_of_memory(named(what, sizeof what, o, NULL));
    }
    for (size_t m = 0, ordinal = 0; status == QSB_OK && m < cells; m++)
        if (cfg->in_shard[m])
            cfg->in_shard[m] = chosen[ordinal++];
    free(chosen);
    return status;
}

/* --worker K:SLICE[:CELLS] (workers.h). */
static int read_slot(qsb_run_config *cfg, const qsb_worker_option *o, const char *text)
{
    const char *colon = strchr(text, ':');
    char index[32], slice[64], what[64];
    if (!colon || (size_t)(colon - text) >= sizeof index)
        return qsb_usage_error("%s: '%s' is not K:SLICE", named(what, sizeof what, o, NULL),
                               qsb_quote(text));
    memcpy(index, text, (size_t)(colon - text));
    index[colon - text] = '\0';
    const char *cells = strchr(colon + 1, ':');
    size_t slice_len = cells ? (size_t)(cells - colon - 1) : strlen(colon + 1);
    if (slice_len >= sizeof slice)
        return qsb_usage_error("%s: '%s' is not K:SLICE", named(what, sizeof what, o, NULL),
                               qsb_quote(text));
    memcpy(slice, colon + 1, slice_len);
    slice[slice_len] = '\0';
    int status = qsb_parse_u64(index, named(what, sizeof what, o, "K"), 1, QSB_MAX_PROCESSES, 0,
                               &cfg->worker.index);
    if (status == QSB_OK)
        status = qsb_parse_positive(slice, named(what, sizeof what, o, "SLICE"),
                                    MAX_WORKER_SLICE_S, &cfg->worker.slice_s);
    return status == QSB_OK && cells ? select_worker_cells(cfg, o, cells + 1) : status;
}

/* One of a worker's own options other than --worker, into its field of cfg->worker. Those
** that only a worker can use need --worker (slot, the table's row of it) first. */
static int read_own(qsb_run_config *cfg, const qsb_worker_option *o, const qsb_worker_option *slot,
                    const char *text)
{
    void *at = (char *)&cfg->worker + o->field;
    char what[64], worker[64];
    named(what, sizeof what, o, NULL);
    if (o->value == QSB_WORKER_HZ)
        return qsb_parse_positive(text, what, MAX_TSC_HZ, at);
    if (cfg->worker.slice_s <= 0)
        return qsb_usage_error("%s is for worker processes (%s)", what,
                               named(worker, sizeof worker, slot, NULL));
    if (o->value == QSB_WORKER_FILE) {
        *(const char **)at = text;
        return QSB_OK;
    }
    uint64_t fd;
    int status = qsb_parse_u64(text, what, STDERR_FILENO + 1, INT_MAX, 0, &fd);
    *(int *)at = (int)fd;
    return status;
}

/* A worker's own options, read with the protocol's table in its order: --worker first. */
static int read_protocol(qsb_run_config *cfg, const qsb_run_option_texts *t)
{
    int status = QSB_OK;
    const qsb_worker_option *slot = NULL;
    for (size_t i = 0; status == QSB_OK && qsb_worker_options[i].name; i++) {
        const qsb_worker_option *o = &qsb_worker_options[i];
        if (o->value == QSB_WORKER_SLOT)
            slot = o;
        if (o->part != QSB_WORKER_OWN || !t->protocol[i])
            continue;
        status = o->value == QSB_WORKER_SLOT ? read_slot(cfg, o, t->protocol[i])
                                             : read_own(cfg, o, slot, t->protocol[i]);
    }
    return status;
}

/* --processes N (workers.h) and a worker's own options. One process where several cannot
** differ or cannot be pooled: exact counts, and --reps, which fixes the rounds of one
** process. */
int qsb_run_resolve_processes(qsb_run_config *cfg, const qsb_run_option_texts *t)
{
    int status = QSB_OK;
    if (t->text[OPT_PROCESSES])
        status = qsb_parse_u64(t->text[OPT_PROCESSES], "--processes", 1, QSB_MAX_PROCESSES, 0,
                               &cfg->processes);
    if (status == QSB_OK && cfg->processes > 1 && cfg->reps)
        status = qsb_usage_error("--reps fixes the rounds of one process: give --processes 1 "
                                 "or --budget");
    if (status == QSB_OK)
        status = read_protocol(cfg, t);
    if (cfg->reps || cfg->metric == QSB_METRIC_COMPARISONS || cfg->worker.slice_s > 0)
        cfg->processes = 1;
    return status;
}

/* --shard K/N: after the lists, which it splits (shard.h). */
int qsb_run_resolve_shard(qsb_run_config *cfg, const char *text)
{
    if (!text)
        return QSB_OK;
    const char *slash = strchr(text, '/');
    char k_text[32];
    uint64_t k = 0, n = 0;
    if (!slash || (size_t)(slash - text) >= sizeof k_text)
        return qsb_usage_error("--shard: '%s' is not K/N (e.g. 2/4: the second of four "
                               "parts)", qsb_quote(text));
    memcpy(k_text, text, (size_t)(slash - text));
    k_text[slash - text] = '\0';
    int status = qsb_parse_u64(slash + 1, "--shard N", 1, QSB_MAX_SHARDS, 0, &n);
    if (status == QSB_OK)
        status = qsb_parse_u64(k_text, "--shard K", 1, n, 0, &k);
    if (status != QSB_OK)
        return status;
    size_t cells = cfg->n_patterns * cfg->n_sizes * cfg->n_nelem;
    if (n > cells)
        return qsb_usage_error("--shard %s: the matrix has only %zu cells; use at most %zu "
                               "shards", qsb_quote(text), cells, cells);
    cfg->in_shard = malloc(cells ? cells : 1);
    if (!cfg->in_shard)
        return qsb_out_of_memory("--shard");
    size_t count = qsb_shard_cells(cfg->nelem, cfg->n_nelem, cfg->sizes, cfg->n_sizes,
                                   cfg->n_patterns, cfg->n_algos, (uint32_t)k, (uint32_t)n,
                                   cfg->in_shard);
    if (count == SIZE_MAX)
        return qsb_out_of_memory("--shard");
    cfg->shard_k = (uint32_t)k;
    cfg->shard_n = (uint32_t)n;
    return QSB_OK;
}

/* The CPUs this process may use (its affinity); 1 when it cannot tell. */
static size_t usable_cpus(void)
{
    cpu_set_t allowed;
    CPU_ZERO(&allowed);
    if (sched_getaffinity(0, sizeof allowed, &allowed) != 0)
        return 1;
    int n = CPU_COUNT(&allowed);
    return n > 0 ? (size_t)n : 1;
}

/* auto: one per CPU this process may use (side by side, each worker has one to itself); N
** above that is warned of, since workers sharing a CPU measure each other; a pinned run has
** one CPU. One process (--processes 1, --reps, a worker) runs no workers at all. */
int qsb_run_resolve_jobs(qsb_run_config *cfg, const char *given)
{
    const char *text = given ? given : QSB_JOBS_DEFAULT;
    size_t cpus = usable_cpus();
    uint64_t jobs = 1;
    int status = QSB_OK;
    if (strcmp(text, "auto") == 0)
        jobs = cpus;
    else
        status = qsb_parse_u64(text, "--jobs", 1, QSB_MAX_JOBS, 0, &jobs);
    if (status != QSB_OK)
        return status;
    if (jobs > 1 && cfg->pin_cpu >= 0) {
        if (given)
            return qsb_usage_error("--jobs %s with --pin: the workers would share the one CPU; "
                                   "give --jobs 1 or no --pin", qsb_quote(text));
        jobs = 1;
    }
    if (jobs > cpus && cfg->processes != 1)
        qsb_warning("--jobs %s: this process may use %zu CPU%s, so its workers share them and "
                    "slow each other; --jobs auto runs one per CPU",
                    qsb_quote(text), cpus, cpus == 1 ? "" : "s");
    if (jobs > QSB_MAX_JOBS)
        jobs = QSB_MAX_JOBS;
    cfg->jobs = cfg->processes == 1 ? 1 : jobs;
    return QSB_OK;
}
