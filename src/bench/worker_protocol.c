/*
** The worker protocol's table, and the command lines written from it (see worker_protocol.h).
*/
#include "worker_protocol.h"

#include <stdarg.h>
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

/* snprintf onto what is in buf already: used grows by what the text needs, whether or not
** it fits, so that a first pass with no room measures the words. */
static void put(char *buf, size_t len, size_t *used, const char *format, ...)
{
    va_list ap;
    va_start(ap, format);
    int n = vsnprintf(*used < len ? buf + *used : NULL, *used < len ? len - *used : 0, format,
                      ap);
    va_end(ap);
    *used += n > 0 ? (size_t)n : 0;
}

/* Writes the word of the worker's own option or output o into buf (from *used) and returns
** whether the worker is given one. */
static bool own_word(const qsb_worker_option *o, const qsb_worker_protocol *own,
                     const size_t *cells, size_t ncells, const char *json, char *buf,
                     size_t len, size_t *used)
{
    const void *at = (const char *)own + o->field;
    if (o->part == QSB_WORKER_OUT) {
        put(buf, len, used, "--%s", o->name);
        if (o->value == QSB_WORKER_FILE)
            put(buf, len, used, "=%s", json);
        else if (o->value == QSB_WORKER_GIVEN) /* no CSV file: the standard output */
            put(buf, len, used, "=-");
    } else if (o->value == QSB_WORKER_SLOT) {
        put(buf, len, used, "--%s=%llu:%.6g", o->name, (unsigned long long)own->index,
            own->slice_s);
        for (size_t i = 0; i < ncells; i++)
            put(buf, len, used, "%c%zu", i ? ',' : ':', cells[i]);
    } else if (o->value == QSB_WORKER_HZ && *(const double *)at > 0) {
        put(buf, len, used, "--%s=%.17g", o->name, *(const double *)at);
    } else if (o->value == QSB_WORKER_FD && *(const int *)at >= 0) {
        put(buf, len, used, "--%s=%d", o->name, *(const int *)at);
    } else if (o->value == QSB_WORKER_FILE && *(const char *const *)at) {
        put(buf, len, used, "--%s=%s", o->name, *(const char *const *)at);
    } else {
        return false;
    }
    return true;
}

/* The worker's words after the head into text (from *used), each ended by its zero, their
** starts into starts[]; returns how many. With no room, only measures. */
static size_t own_words(const qsb_worker_protocol *own, const size_t *cells, size_t ncells,
                        const char *json, char *text, size_t len, size_t *used,
                        size_t *starts)
{
    size_t n = 0;
    for (const qsb_worker_option *o = qsb_worker_options; o->name; o++) {
        size_t start = *used;
        if (o->part == QSB_WORKER_HEAD ||
            !own_word(o, own, cells, ncells, json, text, len, used))
            continue;
        *used += 1; /* the zero vsnprintf wrote after the word */
        if (starts)
            starts[n] = start;
        n++;
    }
    return n;
}

char **qsb_worker_argv(const char *exe, char *const *head, const qsb_worker_protocol *own,
                       const size_t *cells, size_t ncells, const char *json_path)
{
    size_t heads = 0, bytes = 0;
    while (head[heads])
        heads++;
    size_t words = own_words(own, cells, ncells, json_path, NULL, 0, &bytes, NULL);
    size_t slots = 1 + heads + words + 1;
    char **argv = malloc(slots * sizeof *argv + bytes);
    if (!argv)
        return NULL;
    char *text = (char *)(argv + slots);
    size_t starts[QSB_WORKER_OPTIONS_MAX], used = 0;
    own_words(own, cells, ncells, json_path, text, bytes, &used, starts);
    size_t n = 0;
    argv[n++] = (char *)exe;
    for (size_t i = 0; i < heads; i++)
        argv[n++] = head[i];
    for (size_t i = 0; i < words; i++)
        argv[n++] = text + starts[i];
    argv[n] = NULL;
    return argv;
}
