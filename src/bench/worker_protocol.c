/*
** The worker protocol's table, and the command lines written from it (see worker_protocol.h).
*/
#include "worker_protocol.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "diag.h"

#define OWN(value, field, arg, help) \
    QSB_WORKER_OWN, value, offsetof(qsb_worker_protocol, field), arg, help

const qsb_worker_option qsb_worker_options[] = {
    {"nelem", QSB_WORKER_HEAD, QSB_WORKER_COUNTS, 0, NULL, NULL},
    {"sizes", QSB_WORKER_HEAD, QSB_WORKER_GIVEN, 0, NULL, NULL},
    {"patterns", QSB_WORKER_HEAD, QSB_WORKER_GIVEN, 0, NULL, NULL},
    {"algos", QSB_WORKER_HEAD, QSB_WORKER_GIVEN, 0, NULL, NULL},
    {"seed", QSB_WORKER_HEAD, QSB_WORKER_GIVEN, 0, NULL, NULL},
    {"precision", QSB_WORKER_HEAD, QSB_WORKER_GIVEN, 0, NULL, NULL},
    {"placement", QSB_WORKER_HEAD, QSB_WORKER_GIVEN, 0, NULL, NULL},
    {"warmup", QSB_WORKER_HEAD, QSB_WORKER_GIVEN, 0, NULL, NULL},
    {"pin", QSB_WORKER_HEAD, QSB_WORKER_GIVEN, 0, NULL, NULL},
    {"batch", QSB_WORKER_HEAD, QSB_WORKER_GIVEN, 0, NULL, NULL},
    {"slowed", QSB_WORKER_HEAD, QSB_WORKER_GIVEN, 0, NULL, NULL},
    {"metric", QSB_WORKER_HEAD, QSB_WORKER_GIVEN, 0, NULL, NULL},
    {"compat", QSB_WORKER_HEAD, QSB_WORKER_GIVEN, 0, NULL, NULL},
    {"shard", QSB_WORKER_HEAD, QSB_WORKER_GIVEN, 0, NULL, NULL},
    {"machine", QSB_WORKER_HEAD, QSB_WORKER_GIVEN, 0, NULL, NULL},
    {"no-reload", QSB_WORKER_HEAD, QSB_WORKER_FLAG, 0, NULL, NULL},
    {"worker", OWN(QSB_WORKER_SLOT, index, "K:SLICE[:CELLS]",
                   "(internal) be worker process K of a run: visit every cell (or the CELLS, "
                   "e.g. 0,4,7: ordinals among the run's cells) once with SLICE seconds of "
                   "rounds")},
    {"tsc-hz", OWN(QSB_WORKER_HZ, tsc_hz, "HZ",
                   "(internal) a worker process's TSC frequency, calibrated by its run")},
    {"inputs-fd", OWN(QSB_WORKER_FD, inputs_fd, "FD",
                      "(internal) a worker process's inputs, generated once by its run")},
    {"model", OWN(QSB_WORKER_FILE, model_path, "FILE",
                  "(internal) a later worker process's model: its run's first worker's "
                  "results, whose exact counts and batches it takes instead of counting")},
    {"visit-fd", OWN(QSB_WORKER_FD, visit_fd, "FD",
                     "(internal) where a worker process records its visits for its run")},
    {"quiet", QSB_WORKER_OUT, QSB_WORKER_FLAG, 0, NULL, NULL},
    {"csv", QSB_WORKER_OUT, QSB_WORKER_GIVEN, 0, NULL, NULL},
    {"json", QSB_WORKER_OUT, QSB_WORKER_FILE, 0, NULL, NULL},
    {NULL, 0, 0, 0, NULL, NULL},
};

const char *qsb_worker_option_name(size_t field)
{
    const qsb_worker_option *o = qsb_worker_options;
    while (o->name && !(o->part == QSB_WORKER_OWN && o->field == field))
        o++;
    return o->name;
}

/* "--name=value", or "--name" for a flag (value NULL), malloc'd. */
static char *option_word(const char *name, const char *value)
{
    size_t len = strlen(name) + (value ? strlen(value) : 0) + 4;
    char *word = malloc(len);
    if (word)
        snprintf(word, len, "--%s%s%s", name, value ? "=" : "", value ? value : "");
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

/* The head's word of option o (malloc'd) into *word, which stays NULL where the run has none
** to pass on; false when out of memory. */
static bool head_word(const qsb_run_config *cfg, const qsb_worker_option *o, const char *text,
                      char **word)
{
    *word = NULL;
    if (o->value == QSB_WORKER_COUNTS) {
        char *nelem = nelem_list(cfg);
        *word = nelem ? option_word(o->name, nelem) : NULL;
        free(nelem);
    } else if (o->value == QSB_WORKER_FLAG && !cfg->reload) {
        *word = option_word(o->name, NULL);
    } else if (o->value == QSB_WORKER_GIVEN && text) {
        *word = option_word(o->name, text);
    } else {
        return true;
    }
    return *word != NULL;
}

int qsb_worker_argv_build(qsb_run_config *cfg, const char *const texts[])
{
    size_t n = 0, count = 0;
    while (qsb_worker_options[count].name)
        count++;
    char **argv = calloc(count + 2, sizeof *argv);
    bool ok = argv && (argv[n++] = strdup("run"));
    for (size_t i = 0; ok && qsb_worker_options[i].part == QSB_WORKER_HEAD; i++) {
        ok = head_word(cfg, &qsb_worker_options[i], texts[i], &argv[n]);
        n += argv[n] != NULL;
    }
    cfg->worker.argv_head = argv;
    return ok ? QSB_OK : qsb_out_of_memory("worker command line");
}

/* The word of the worker's own option or output o at buf (room bytes): its length, or 0
** where the worker is given none. */
static size_t own_word(const qsb_worker_option *o, const qsb_worker_protocol *own,
                       const size_t *cells, size_t ncells, const char *json, char *buf,
                       size_t room)
{
    const void *at = (const char *)own + o->field;
    int n = 0;
    if (o->part == QSB_WORKER_OUT) /* no CSV file: the standard output */
        n = snprintf(buf, room, "--%s%s%s", o->name, o->value == QSB_WORKER_FLAG ? "" : "=",
                     o->value == QSB_WORKER_FILE ? json : o->value == QSB_WORKER_FLAG ? "" : "-");
    else if (o->value == QSB_WORKER_SLOT)
        n = snprintf(buf, room, "--%s=%llu:%.6g", o->name, (unsigned long long)own->index,
                     own->slice_s);
    else if (o->value == QSB_WORKER_HZ && *(const double *)at > 0)
        n = snprintf(buf, room, "--%s=%.17g", o->name, *(const double *)at);
    else if (o->value == QSB_WORKER_FD && *(const int *)at >= 0)
        n = snprintf(buf, room, "--%s=%d", o->name, *(const int *)at);
    else if (o->value == QSB_WORKER_FILE && *(const char *const *)at)
        n = snprintf(buf, room, "--%s=%s", o->name, *(const char *const *)at);
    for (size_t i = 0; o->value == QSB_WORKER_SLOT && i < ncells; i++)
        n += snprintf(buf + n, room - (size_t)n, "%c%zu", i ? ',' : ':', cells[i]);
    return n > 0 ? (size_t)n : 0;
}

char **qsb_worker_argv(const char *exe, char *const *head, const qsb_worker_protocol *own,
                       const size_t *cells, size_t ncells, const char *json_path)
{
    size_t heads = 0, rows = 0, bytes = ncells * 21 + strlen(json_path);
    bytes += own->model_path ? strlen(own->model_path) : 0;
    while (head[heads])
        heads++;
    for (; qsb_worker_options[rows].name; rows++) /* a word of each row, numbers included */
        bytes += strlen(qsb_worker_options[rows].name) + 48;
    size_t slots = 2 + heads + rows;
    char **argv = malloc(slots * sizeof *argv + bytes);
    if (!argv)
        return NULL;
    char *text = (char *)(argv + slots);
    size_t n = 0, used = 0;
    argv[n++] = (char *)exe;
    for (size_t i = 0; i < heads; i++)
        argv[n++] = head[i];
    for (const qsb_worker_option *o = qsb_worker_options; o->name; o++) {
        size_t len = o->part == QSB_WORKER_HEAD
                         ? 0
                         : own_word(o, own, cells, ncells, json_path, text + used, bytes - used);
        if (len) {
            argv[n++] = text + used;
            used += len + 1;
        }
    }
    argv[n] = NULL;
    return argv;
}
