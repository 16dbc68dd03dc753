/*
** The audit as a whole (audit_run.h).
*/
#include "audit_run.h"

#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "diag.h"
#include "version.h"

/* Room for the subjects of n algorithms (each may bring a variant). QSB_OK, or QSB_ESYSTEM
** (reported) when out of memory. */
static int subjects_init(qsb_audit_subjects *s, size_t n)
{
    s->count = 0;
    s->capacity = 2 * n; /* room for every variant */
    s->items = malloc((s->capacity ? s->capacity : 1) * sizeof *s->items);
    return s->items ? QSB_OK : qsb_out_of_memory("audit rows");
}

static bool has_subject(const qsb_audit_subjects *s, const char *name)
{
    for (size_t i = 0; i < s->count; i++)
        if (!s->items[i].variant && strcmp(s->items[i].name, name) == 0)
            return true;
    return false;
}

/* Adds an algorithm (a registry entry or a plug-in), then its "malloc fails" variant when it
** has one. QSB_EUSAGE (reported) when it was added already. Plug-ins and `system` declare
** nothing, so nothing they do can contradict a claim. */
static int subjects_add(qsb_audit_subjects *s, const qsb_algorithm *algorithm)
{
    qsb_audit_subject subject = {
        .name = algorithm->name,
        .variant = NULL,
        .sort = algorithm->sort,
        .declared = algorithm->properties,
        .has_declared = !(algorithm->properties & QSB_PROP_UNKNOWN),
        .min_size = algorithm->min_size,
    };
    if (has_subject(s, subject.name))
        return qsb_usage_error("--algos: '%s' is listed twice", qsb_quote(subject.name));
    if (s->count + 2 > s->capacity)
        return qsb_error(QSB_ESYSTEM, "audit rows: more subjects than room was made for");
    s->items[s->count++] = subject;
    qsb_audit_subject forced;
    if (qsb_audit_forced_fallback(subject.name, &forced))
        s->items[s->count++] = forced;
    return QSB_OK;
}

int qsb_audit_subjects_select(qsb_audit_subjects *s, qsb_plugins *plugins,
                              const char *const *names, size_t n)
{
    size_t count = names ? n : qsb_algorithm_count;
    int status = subjects_init(s, count);
    for (size_t i = 0; i < count && status == QSB_OK; i++) {
        qsb_algorithm a;
        status = qsb_plugins_resolve(plugins, names ? names[i] : qsb_algorithms[i].name, &a);
        if (status == QSB_OK)
            status = subjects_add(s, &a);
    }
    return status;
}

void qsb_audit_subjects_free(qsb_audit_subjects *s)
{
    free(s->items);
    memset(s, 0, sizeof *s);
}

void qsb_audit_result_begin(qsb_audit_result *r, qsb_audit_depth depth)
{
    memset(r, 0, sizeof *r);
    qsb_audit_config_init(&r->config, depth);
    time_t now = time(NULL);
    gmtime_r(&now, &r->started);
}

static size_t failed_rows(const qsb_audit_row *rows, size_t count)
{
    size_t failed = 0;
    for (size_t i = 0; i < count; i++)
        failed += rows[i].failure[0] != '\0';
    return failed;
}

int qsb_audit_run(const qsb_audit_subjects *s, qsb_plugins *plugins, FILE *table,
                  qsb_audit_result *r)
{
    r->config.plugins = plugins;
    if (QSB_SANITIZED)
        qsb_warning("sanitized build: stack depths include ASan's redzones, allocations are "
                    "counted through ASan's hooks, and 'system' runs through ASan's qsort_r "
                    "interceptor (n-1 extra comparator calls); audit a normal build for the "
                    "real figures");
    if (!(r->rows = calloc(s->count ? s->count : 1, sizeof *r->rows)))
        return qsb_out_of_memory("audit rows");
    qsb_audit_print_table_head(table, &r->config);
    int status = QSB_OK;
    for (; r->count < s->count && status == QSB_OK; r->count++) {
        qsb_audit_row *row = &r->rows[r->count];
        status = qsb_audit_run_row(&s->items[r->count], &r->config, row);
        if (status == QSB_OK) {
            qsb_audit_print_table_row(table, row);
            fflush(table);
        }
    }
    if (status != QSB_OK)
        return status;
    qsb_audit_print_table_foot(table, r->rows, r->count, &r->config);
    return failed_rows(r->rows, r->count) ? QSB_FINDING : QSB_OK;
}

int qsb_audit_write(FILE *csv, FILE *json, const qsb_audit_result *r, const char *command_line)
{
    qsb_run_context where;
    qsb_run_context_gather(&where, &r->started);
    int status = csv ? qsb_audit_write_csv(csv, r->rows, r->count) : QSB_OK;
    if (status == QSB_OK && json)
        status = qsb_audit_write_json(json, r->rows, r->count, &r->config, &where,
                                      command_line);
    return status;
}

void qsb_audit_result_free(qsb_audit_result *r)
{
    free(r->rows);
    r->rows = NULL;
    r->count = 0;
}

#define PROBE_MARK "QSB_AUDIT_PROBE" /* set in the audit run again with the probe */

void qsb_audit_exec_with_probe(int argc, char **argv)
{
    const char *method;
    char probe[4096];
    if (getenv(PROBE_MARK) || qsb_alloc_counting_available(&method) ||
        !qsb_alloc_probe_path(probe, sizeof probe))
        return;
    const char *preload = getenv("LD_PRELOAD");
    size_t len = strlen(probe) + (preload ? strlen(preload) + 1 : 0) + 1;
    char *value = malloc(len);
    char **args = malloc(((size_t)argc + 2) * sizeof *args);
    if (value && args) {
        snprintf(value, len, "%s%s%s", probe, preload ? ":" : "", preload ? preload : "");
        args[0] = "qsortbench";
        for (int i = 0; i < argc; i++)
            args[i + 1] = argv[i];
        args[argc + 1] = NULL;
        if (setenv("LD_PRELOAD", value, 1) == 0 && setenv(PROBE_MARK, "1", 1) == 0) {
            fflush(NULL);
            execv("/proc/self/exe", args);
        }
    }
    free(value);
    free(args);
}
