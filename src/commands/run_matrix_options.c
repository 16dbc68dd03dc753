/*
** The run's matrix from its options (see run_option_texts.h): the element counts (a list, or
** "auto" from the machine's caches), the element sizes, the patterns, the algorithms and the
** metric, each list checked for unknown names and repeats.
*/
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "cover_letter.h"
#include "diag.h"
#include "machine.h"
#include "plugins.h"
#include "run_option_texts.h"
#include "timing.h"

#define MAX_NELEM (UINT64_C(1) << 40) /* a typo guard; memory.h decides what fits */
#define MAX_SIZE (UINT64_C(1) << 20)

static int reject_repeated_numbers(const uint64_t *v, size_t n, const char *what)
{
    for (size_t i = 0; i < n; i++)
        for (size_t j = 0; j < i; j++)
            if (v[i] == v[j])
                return qsb_usage_error("%s: %llu is listed twice", what,
                                       (unsigned long long)v[i]);
    return QSB_OK;
}

/* The caches' counts (machine.h), one per level; a level of the same count as the one
** before it (rare) would make identical cells and is left out. */
static size_t auto_counts(const qsb_caches *caches, qsb_nelem_choice *choice, uint64_t kept[3])
{
    uint64_t counts[3];
    size_t n = qsb_auto_nelem(caches, counts), count = 0;
    for (size_t i = 0, level = 0; i < n; i++, level++) {
        while (!caches->level[level].total_bytes)
            level++;
        if (count > 0 && counts[i] == kept[count - 1])
            continue;
        choice->level[count] = (unsigned)level;
        choice->cache_bytes[count] = caches->level[level].total_bytes;
        choice->capped = qsb_auto_nelem_capped(caches, (int)level);
        kept[count++] = counts[i];
    }
    return count;
}

static int resolve_auto_nelem(qsb_run_config *cfg)
{
    qsb_caches caches;
    uint64_t counts[3];
    size_t n = qsb_read_caches(qsb_sysfs_cpu_root(), &caches) == 0
                   ? auto_counts(&caches, &cfg->nelem_choice, counts)
                   : 0;
    if (n == 0) { /* the run warns when it starts: a usage error stays one line */
        cfg->nelem_source = QSB_NELEM_FALLBACK;
        return qsb_parse_u64_list(QSB_FALLBACK_NELEM, ':', "--nelem", 1, MAX_NELEM,
                                  &cfg->nelem, &cfg->n_nelem);
    }
    cfg->nelem_source = QSB_NELEM_SYSFS;
    cfg->nelem = malloc(n * sizeof *cfg->nelem);
    if (!cfg->nelem)
        return qsb_out_of_memory("--nelem");
    memcpy(cfg->nelem, counts, n * sizeof *cfg->nelem);
    cfg->n_nelem = n;
    return QSB_OK;
}

int qsb_run_resolve_nelem(qsb_run_config *cfg, const char *text)
{
    if (!text || strcmp(text, "auto") == 0)
        return resolve_auto_nelem(cfg);
    int status = qsb_parse_u64_list(text, ':', "--nelem", 1, MAX_NELEM, &cfg->nelem,
                                    &cfg->n_nelem);
    return status != QSB_OK ? status
                            : reject_repeated_numbers(cfg->nelem, cfg->n_nelem, "--nelem");
}

int qsb_run_resolve_sizes(qsb_run_config *cfg, const char *text)
{
    int status = qsb_parse_u64_list(text ? text : QSB_RUN_DEFAULT_SIZES, ',', "--sizes", 1,
                                    MAX_SIZE, &cfg->sizes, &cfg->n_sizes);
    return status != QSB_OK ? status
                            : reject_repeated_numbers(cfg->sizes, cfg->n_sizes, "--sizes");
}

/* "a, b, c" from a table of names, for error messages. */
static void join_names(char *buf, size_t len, const char *(*name_at)(size_t), size_t count)
{
    size_t used = 0;
    buf[0] = '\0';
    for (size_t i = 0; i < count && used < len; i++) {
        int n = snprintf(buf + used, len - used, "%s%s", i ? ", " : "", name_at(i));
        used += n > 0 ? (size_t)n : 0;
    }
}

static const char *pattern_name_at(size_t i)
{
    return qsb_patterns[i].name;
}

static int use_seed_patterns(qsb_run_config *cfg, bool all)
{
    cfg->patterns = malloc(qsb_pattern_count * sizeof *cfg->patterns);
    if (!cfg->patterns)
        return qsb_out_of_memory("--patterns");
    for (size_t i = 0; i < qsb_pattern_count; i++)
        if (all || qsb_patterns[i].seed_pattern)
            cfg->patterns[cfg->n_patterns++] = &qsb_patterns[i];
    return QSB_OK;
}

int qsb_run_resolve_patterns(qsb_run_config *cfg, const char *text)
{
    if (!text || strcmp(text, "all") == 0)
        return use_seed_patterns(cfg, text != NULL);
    char **words;
    size_t n;
    int status = qsb_split_words(text, "--patterns", &words, &n);
    if (status != QSB_OK)
        return status;
    cfg->patterns = malloc(n * sizeof *cfg->patterns);
    if (!cfg->patterns)
        status = qsb_out_of_memory("--patterns");
    for (size_t i = 0; i < n && status == QSB_OK; i++) {
        const qsb_pattern *p = qsb_pattern_find(words[i]);
        for (size_t j = 0; p && j < i; j++)
            if (cfg->patterns[j] == p)
                status = qsb_usage_error("--patterns: '%s' is listed twice", p->name);
        if (!p) {
            char valid[512];
            join_names(valid, sizeof valid, pattern_name_at, qsb_pattern_count);
            status = qsb_usage_error("--patterns: unknown pattern '%s' (valid: %s, all)",
                                     qsb_quote(words[i]), valid);
        }
        if (status == QSB_OK)
            cfg->patterns[cfg->n_patterns++] = p;
    }
    free(words);
    return status;
}

/* Without --algos: the default pair, or the cover letter's when its table is the reference. */
static const char *default_algos(const char *reference)
{
    bool cover_letter = reference && strcmp(reference, QSB_COVER_LETTER_NAME) == 0;
    return cover_letter ? QSB_RUN_COVER_LETTER_ALGOS : QSB_RUN_DEFAULT_ALGOS;
}

/* An entry that refuses some of the run's sizes (registry.h: min_size) is a usage error, not a
** failed row: the real code fails on them by design. */
static int check_sizes_accepted(const qsb_run_config *cfg, const qsb_algorithm *a)
{
    for (size_t i = 0; i < cfg->n_sizes; i++)
        if (cfg->sizes[i] < a->min_size)
            return qsb_usage_error("--algos: %s sorts elements of %zu bytes or more (as the real "
                                   "code, which fails with EINVAL below), but --sizes has %llu; "
                                   "leave it out, or use sizes of %zu bytes or more", a->name,
                                   a->min_size, (unsigned long long)cfg->sizes[i], a->min_size);
    return QSB_OK;
}

int qsb_run_resolve_algos(qsb_run_config *cfg, qsb_plugins *plugins, const char *text,
                          const char *reference)
{
    char **words;
    size_t n;
    int status = qsb_split_words(text ? text : default_algos(reference), "--algos", &words, &n);
    if (status != QSB_OK)
        return status;
    cfg->algos = malloc(n * sizeof *cfg->algos);
    if (!cfg->algos)
        status = qsb_out_of_memory("--algos");
    for (size_t i = 0; i < n && status == QSB_OK; i++) {
        qsb_algorithm a; /* a registry entry or a plug-in (plugins.h) */
        status = qsb_plugins_resolve(plugins, words[i], &a);
        for (size_t j = 0; status == QSB_OK && j < i; j++)
            if (strcmp(cfg->algos[j].name, a.name) == 0)
                status = qsb_usage_error("--algos: '%s' is listed twice", qsb_quote(a.name));
        if (status == QSB_OK)
            status = check_sizes_accepted(cfg, &a);
        if (status == QSB_OK)
            cfg->algos[cfg->n_algos++] = a;
    }
    free(words);
    return status;
}

int qsb_run_resolve_metric(qsb_run_config *cfg, const char *text)
{
    bool tsc = qsb_tsc_invariant() != 0;
    if (!text) {
        cfg->metric = tsc ? QSB_METRIC_CYCLES : QSB_METRIC_NS;
        return QSB_OK;
    }
    for (int i = QSB_METRIC_CYCLES; i <= QSB_METRIC_COMPARISONS; i++) {
        if (strcmp(text, qsb_metric_name((qsb_metric)i)) == 0) {
            cfg->metric = (qsb_metric)i;
            if (cfg->metric == QSB_METRIC_CYCLES && !tsc)
                return qsb_usage_error("--metric cycles: this CPU has no invariant TSC; use "
                                       "--metric ns");
            return QSB_OK;
        }
    }
    return qsb_usage_error("--metric: unknown metric '%s' (valid: cycles, ns, comparisons)",
                           qsb_quote(text));
}
