/*
** The audit's reporters (see audit.h): a text table for people, CSV (libcsv) and JSON (cJSON)
** with the same rows for programs. All three take their cell texts from the same functions of
** audit.c, so they cannot disagree.
**
** CSV: one header row, then a row per subject, columns
**   algorithm,variant,stable,stable_cases,stable_unstable_cases,stable_detail,allocates,
**   alloc_method,alloc_calls_small,alloc_calls_large,alloc_max_bytes,alloc_cases,
**   stack_bytes,stack_status,stack_cases,worst_case,worst_max_ratio,adversary_cases,
**   broken_<comparator> (one per comparator),broken_details,contradictions,notes
** where *_cases are "nelem[xsize]:value" items joined by ';'.
**
** JSON: {"schema_version": 1, "kind": "audit", "context": {...}, "rows": [...]}, each row
** holding the same facts as nested objects, every case in full.
*/
#include "audit.h"

#include <inttypes.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include <csv.h>
#include <cjson/cJSON.h>

#include "diag.h"
#include "json_write.h"
#include "run_context.h"
#include "version.h"

/* Short column heads of the broken comparators, in qsb_broken_comparator order. */
static const char *const broken_heads[QSB_BROKEN_COUNT] = {
    "random", "always-1", "always0", "always+1", "a-b", "intrans", "1%rev"};

/* A case's adversary cell: the ratio, "QUAD" past the limit, "fail" when the child died. */
static void adversary_cell(const qsb_adversary_case *c, char *buf, size_t len)
{
    if (c->failed)
        snprintf(buf, len, "fail");
    else if (c->quadratic)
        snprintf(buf, len, "QUAD");
    else
        snprintf(buf, len, "%.2f", c->ratio);
}

/* ---- text table ---- */

static void print_header(FILE *fp, const qsb_audit_config *config)
{
    fprintf(fp, "%-26s %-8s %-6s %10s %9s ", "algorithm", "stable", "alloc", "max-bytes",
            "stack-B");
    for (size_t i = 0; i < config->adversary_count; i++) {
        char head[24];
        snprintf(head, sizeof head, "n=%" PRIu64, config->adversary_nelem[i]);
        fprintf(fp, " %8s", head);
    }
    fprintf(fp, "  ");
    for (int i = 0; i < QSB_BROKEN_COUNT; i++)
        fprintf(fp, " %-9s", broken_heads[i]);
    fprintf(fp, "\n");
}

static void print_row(FILE *fp, const qsb_audit_row *row)
{
    char label[64], stack[24], bytes[24];
    qsb_audit_row_label(row, label, sizeof label);
    if (row->failure[0]) { /* nothing was measured past the failure */
        fprintf(fp, "%-26s FAILED (%s)\n", label, row->failure);
        return;
    }
    if (row->alloc.available)
        snprintf(bytes, sizeof bytes, "%" PRIu64, row->alloc.max_bytes);
    else
        snprintf(bytes, sizeof bytes, "n/a");
    fprintf(fp, "%-26s %-8s %-6s %10s %9s ", label, qsb_audit_stable_text(row),
            qsb_audit_allocates_text(row), bytes, qsb_audit_stack_text(row, stack, sizeof stack));
    for (size_t i = 0; i < row->adversary.ncases; i++) {
        char cell[24];
        adversary_cell(&row->adversary.cases[i], cell, sizeof cell);
        fprintf(fp, " %8s", cell);
    }
    fprintf(fp, "  ");
    for (int i = 0; i < QSB_BROKEN_COUNT; i++)
        fprintf(fp, " %-9s", qsb_broken_verdict_name(row->broken[i].verdict));
    fprintf(fp, "\n");
}

/* One line of the details block, which gets its heading before the first line. */
static void detail_line(FILE *fp, int *lines, const char *fmt, ...) QSB_PRINTF(3, 4);

static void detail_line(FILE *fp, int *lines, const char *fmt, ...)
{
    if ((*lines)++ == 0)
        fprintf(fp, "\nDetails:\n");
    va_list ap;
    va_start(ap, fmt);
    fprintf(fp, "  ");
    vfprintf(fp, fmt, ap);
    fprintf(fp, "\n");
    va_end(ap);
}

static void print_details(FILE *fp, const qsb_audit_row *rows, size_t count)
{
    int lines = 0;
    for (size_t r = 0; r < count; r++) {
        const qsb_audit_row *row = &rows[r];
        char label[64];
        qsb_audit_row_label(row, label, sizeof label);
        if (row->stability.detail[0])
            detail_line(fp, &lines, "%s: stable: %s", label, row->stability.detail);
        for (int i = 0; i < QSB_BROKEN_COUNT; i++) {
            const qsb_broken_result *b = &row->broken[i];
            if (b->verdict != QSB_BROKEN_OK)
                detail_line(fp, &lines, "%s: %s comparator: %s (%s)", label,
                            qsb_broken_comparator_names[i], qsb_broken_verdict_name(b->verdict),
                            b->detail);
        }
        if (row->contradictions[0])
            detail_line(fp, &lines, "%s: CONTRADICTS ITS DECLARED PROPERTIES: %s", label,
                        row->contradictions);
        if (row->notes[0])
            detail_line(fp, &lines, "%s: note: %s", label, row->notes);
    }
}

void qsb_audit_print_table_head(FILE *fp, const qsb_audit_config *config)
{
    fprintf(fp, "%-26s %-8s %-17s %9s  %-*s   %s\n", "", "", "allocation", "",
            (int)(9 * config->adversary_count), "adversary cmp/(n log2 n)",
            "broken comparators");
    print_header(fp, config);
}

void qsb_audit_print_table_row(FILE *fp, const qsb_audit_row *row)
{
    print_row(fp, row);
}

void qsb_audit_print_table_foot(FILE *fp, const qsb_audit_row *rows, size_t count,
                                const qsb_audit_config *config)
{
    const char *method = NULL;
    for (size_t r = 0; r < count && !method; r++)
        method = rows[r].alloc.method;
    fprintf(fp, "\nstable     (key, index) records with many equal keys: 11 element sizes 1-64, "
                "5 patterns, n 2-1500, aligned and base+1\n");
    fprintf(fp, "alloc      malloc-family calls during one sort (n 100 and 100000, 4- and "
                "40-byte); max-bytes: largest request; %s\n",
            method ? method : "");
    fprintf(fp, "stack-B    deepest stack below the caller's frame, random 4-byte elements, "
                "max over n =");
    for (size_t i = 0; i < config->stack_count; i++)
        fprintf(fp, " %" PRIu64, config->stack_nelem[i]);
    fprintf(fp, "\nn=...      McIlroy's killer adversary: comparisons / (n log2 n); QUAD: aborted "
                "past 10 n log2 n (quadratic)\n");
    fprintf(fp, "broken     4-byte ints between PROT_NONE guard pages: OK (same elements), "
                "LOST/DUP, OOB-below/OOB-above (guard fault), HANG (%us), CRASH\n",
            config->timeout_s);
    print_details(fp, rows, count);
}

/* ---- case lists shared by CSV ---- */

static void join_alloc_cases(const qsb_alloc_result *a, char *buf, size_t len)
{
    size_t used = 0;
    buf[0] = '\0';
    for (size_t i = 0; i < a->ncases && used < len; i++) {
        const qsb_alloc_case *c = &a->cases[i];
        used += (size_t)snprintf(buf + used, len - used,
                                 "%s%" PRIu64 "x%" PRIu64 ":%" PRIu64 "/%" PRIu64 "/%" PRIu64,
                                 i ? ";" : "", c->nelem, c->size, c->counts.allocations,
                                 c->counts.frees, c->counts.max_bytes);
    }
}

static void join_stack_cases(const qsb_stack_result *s, char *buf, size_t len)
{
    static const char *const status[] = {"", "overflow", "failed"};
    size_t used = 0;
    buf[0] = '\0';
    for (size_t i = 0; i < s->ncases && used < len; i++) {
        const qsb_stack_case *c = &s->cases[i];
        if (c->status == QSB_STACK_OK)
            used += (size_t)snprintf(buf + used, len - used, "%s%" PRIu64 ":%" PRIu64,
                                     i ? ";" : "", c->nelem, c->bytes);
        else
            used += (size_t)snprintf(buf + used, len - used, "%s%" PRIu64 ":%s", i ? ";" : "",
                                     c->nelem, status[c->status]);
    }
}

static void join_adversary_cases(const qsb_adversary_result *a, char *buf, size_t len)
{
    size_t used = 0;
    buf[0] = '\0';
    for (size_t i = 0; i < a->ncases && used < len; i++) {
        const qsb_adversary_case *c = &a->cases[i];
        if (c->failed || c->quadratic)
            used += (size_t)snprintf(buf + used, len - used, "%s%" PRIu64 ":%s", i ? ";" : "",
                                     c->nelem, c->failed ? "failed" : "quadratic");
        else
            used += (size_t)snprintf(buf + used, len - used, "%s%" PRIu64 ":%" PRIu64,
                                     i ? ";" : "", c->nelem, c->comparisons);
    }
}

static void join_broken_details(const qsb_audit_row *row, char *buf, size_t len)
{
    size_t used = 0;
    buf[0] = '\0';
    for (int i = 0; i < QSB_BROKEN_COUNT && used < len; i++)
        if (row->broken[i].detail[0])
            used += (size_t)snprintf(buf + used, len - used, "%s%s: %s", used ? "; " : "",
                                     qsb_broken_comparator_names[i], row->broken[i].detail);
}

/* ---- CSV ---- */

typedef struct {
    FILE *fp;
    int fields; /* on this line so far */
    int failed;
} csv_line;

static void csv_text(csv_line *l, const char *text)
{
    if (l->fields++ && fputc(',', l->fp) == EOF)
        l->failed = 1;
    if (csv_fwrite(l->fp, text, strlen(text)) != 0)
        l->failed = 1;
}

static void csv_u64(csv_line *l, uint64_t v)
{
    char buf[24];
    snprintf(buf, sizeof buf, "%" PRIu64, v);
    csv_text(l, buf);
}

static void csv_end(csv_line *l)
{
    if (fputc('\n', l->fp) == EOF)
        l->failed = 1;
    l->fields = 0;
}

/* Writes the header; returns its column count. */
static size_t csv_header(csv_line *l)
{
    static const char *const head[] = {
        "algorithm", "variant", "stable", "stable_cases", "stable_unstable_cases",
        "stable_detail", "allocates", "alloc_method", "alloc_calls_small", "alloc_calls_large",
        "alloc_max_bytes", "alloc_cases", "stack_bytes", "stack_status", "stack_cases",
        "worst_case", "worst_max_ratio", "adversary_cases"};
    for (size_t i = 0; i < sizeof head / sizeof head[0]; i++)
        csv_text(l, head[i]);
    for (int i = 0; i < QSB_BROKEN_COUNT; i++) {
        char name[48];
        snprintf(name, sizeof name, "broken_%s", qsb_broken_comparator_names[i]);
        csv_text(l, name);
    }
    csv_text(l, "broken_details");
    csv_text(l, "contradictions");
    csv_text(l, "notes");
    csv_text(l, "failure");
    size_t columns = (size_t)l->fields;
    csv_end(l);
    return columns;
}

/* A failed row: its name, empty measurements, its failure. */
static void csv_failed_row(csv_line *l, const qsb_audit_row *row, size_t columns)
{
    csv_text(l, row->subject.name);
    csv_text(l, row->subject.variant ? row->subject.variant : "");
    for (size_t i = 2; i + 1 < columns; i++)
        csv_text(l, "");
    csv_text(l, row->failure);
    csv_end(l);
}

static void csv_row(csv_line *l, const qsb_audit_row *row)
{
    char buf[1024];
    csv_text(l, row->subject.name);
    csv_text(l, row->subject.variant ? row->subject.variant : "");
    csv_text(l, qsb_audit_stable_text(row));
    csv_u64(l, row->stability.cases);
    csv_u64(l, row->stability.unstable);
    csv_text(l, row->stability.detail);

    const qsb_alloc_result *a = &row->alloc;
    csv_text(l, qsb_audit_allocates_text(row));
    csv_text(l, a->method ? a->method : "");
    if (a->available && a->ncases >= 2) {
        csv_u64(l, a->cases[0].counts.allocations);
        csv_u64(l, a->cases[1].counts.allocations);
        csv_u64(l, a->max_bytes);
    } else {
        csv_text(l, "");
        csv_text(l, "");
        csv_text(l, "");
    }
    join_alloc_cases(a, buf, sizeof buf);
    csv_text(l, buf);

    csv_text(l, qsb_audit_stack_text(row, buf, sizeof buf));
    csv_text(l, row->stack.status == QSB_STACK_OK         ? "ok"
                : row->stack.status == QSB_STACK_OVERFLOW ? "overflow"
                                                          : "failed");
    join_stack_cases(&row->stack, buf, sizeof buf);
    csv_text(l, buf);

    csv_text(l, qsb_audit_worst_text(row));
    if (row->adversary.max_ratio > 0) /* 0: no n finished below the limit */
        snprintf(buf, sizeof buf, "%.4f", row->adversary.max_ratio);
    else
        buf[0] = '\0';
    csv_text(l, buf);
    join_adversary_cases(&row->adversary, buf, sizeof buf);
    csv_text(l, buf);

    for (int i = 0; i < QSB_BROKEN_COUNT; i++)
        csv_text(l, qsb_broken_verdict_name(row->broken[i].verdict));
    join_broken_details(row, buf, sizeof buf);
    csv_text(l, buf);
    csv_text(l, row->contradictions);
    csv_text(l, row->notes);
    csv_text(l, "");
    csv_end(l);
}

int qsb_audit_write_csv(FILE *fp, const qsb_audit_row *rows, size_t count)
{
    csv_line line = {fp, 0, 0};
    size_t columns = csv_header(&line);
    for (size_t i = 0; i < count; i++)
        if (rows[i].failure[0])
            csv_failed_row(&line, &rows[i], columns);
        else
            csv_row(&line, &rows[i]);
    return line.failed ? qsb_error(QSB_ESYSTEM, "audit: cannot write the CSV file") : QSB_OK;
}

/* ---- JSON ---- */

/* cJSON's constructors return NULL when out of memory; one flag collects that. */
typedef struct {
    bool failed;
} builder;

static cJSON *add(builder *b, cJSON *object, const char *name, cJSON *item)
{
    if (!item || !object || !cJSON_AddItemToObject(object, name, item)) {
        cJSON_Delete(item);
        b->failed = true;
        return NULL;
    }
    return item;
}

static void push(builder *b, cJSON *array, cJSON *item)
{
    if (!item || !array || !cJSON_AddItemToArray(array, item)) {
        cJSON_Delete(item);
        b->failed = true;
    }
}

static cJSON *number(uint64_t v)
{
    return cJSON_CreateNumber((double)v); /* counts and bytes stay far below 2^53 */
}

static void add_string_list(builder *b, cJSON *object, const char *name, const char *joined)
{
    /* "a; b; c" into ["a", "b", "c"] */
    cJSON *list = add(b, object, name, cJSON_CreateArray());
    char *copy = strdup(joined);
    if (!copy) {
        b->failed = true;
        return;
    }
    for (char *item = copy; *item;) {
        char *end = strstr(item, "; ");
        if (end)
            *end = '\0';
        push(b, list, cJSON_CreateString(item));
        item = end ? end + 2 : item + strlen(item);
    }
    free(copy);
}

static cJSON *context_json(builder *b, const qsb_audit_config *config, const qsb_audit_row *rows,
                           size_t count, const qsb_run_context *where,
                           const char *command_line)
{
    cJSON *o = cJSON_CreateObject();
    add(b, o, "tool_version", cJSON_CreateString(QSB_VERSION));
    add(b, o, "date", cJSON_CreateString(where->date));
    add(b, o, "host", cJSON_CreateString(where->host));
    add(b, o, "cpu_model", cJSON_CreateString(where->cpu_model));
    add(b, o, "libc", cJSON_CreateString(where->libc));
    add(b, o, "compiler", cJSON_CreateString(QSB_COMPILER));
    add(b, o, "build_type", cJSON_CreateString(QSB_BUILD_TYPE));
    add(b, o, "build_flags", cJSON_CreateString(QSB_BUILD_FLAGS));
    add(b, o, "sanitized", cJSON_CreateBool(QSB_SANITIZED));
    add(b, o, "alloc_method", cJSON_CreateString(count && rows[0].alloc.method
                                                     ? rows[0].alloc.method : ""));
    cJSON *stack = add(b, o, "stack_nelem", cJSON_CreateArray());
    for (size_t i = 0; i < config->stack_count; i++)
        push(b, stack, number(config->stack_nelem[i]));
    cJSON *adv = add(b, o, "adversary_nelem", cJSON_CreateArray());
    for (size_t i = 0; i < config->adversary_count; i++)
        push(b, adv, number(config->adversary_nelem[i]));
    add(b, o, "adversary_limit", cJSON_CreateString("10 n log2 n comparisons"));
    add(b, o, "broken_timeout_s", number(config->timeout_s));
    add(b, o, "command_line", cJSON_CreateString(command_line ? command_line : ""));
    return o;
}

static void stability_json(builder *b, cJSON *row_o, const qsb_audit_row *row)
{
    cJSON *o = add(b, row_o, "stable", cJSON_CreateObject());
    add(b, o, "verdict", cJSON_CreateString(qsb_audit_stable_text(row)));
    add(b, o, "cases", number(row->stability.cases));
    add(b, o, "unstable_cases", number(row->stability.unstable));
    add(b, o, "detail", cJSON_CreateString(row->stability.detail));
}

static void alloc_json(builder *b, cJSON *row_o, const qsb_audit_row *row)
{
    const qsb_alloc_result *a = &row->alloc;
    cJSON *o = add(b, row_o, "allocates", cJSON_CreateObject());
    add(b, o, "verdict", cJSON_CreateString(qsb_audit_allocates_text(row)));
    add(b, o, "method", cJSON_CreateString(a->method ? a->method : ""));
    add(b, o, "max_bytes", a->available ? number(a->max_bytes) : cJSON_CreateNull());
    cJSON *cases = add(b, o, "cases", cJSON_CreateArray());
    for (size_t i = 0; i < a->ncases; i++) {
        cJSON *c = cJSON_CreateObject();
        add(b, c, "nelem", number(a->cases[i].nelem));
        add(b, c, "size", number(a->cases[i].size));
        add(b, c, "allocations", number(a->cases[i].counts.allocations));
        add(b, c, "frees", number(a->cases[i].counts.frees));
        add(b, c, "max_bytes", number(a->cases[i].counts.max_bytes));
        push(b, cases, c);
    }
}

static void stack_json(builder *b, cJSON *row_o, const qsb_audit_row *row)
{
    static const char *const status[] = {"ok", "overflow", "failed"};
    const qsb_stack_result *s = &row->stack;
    cJSON *o = add(b, row_o, "stack", cJSON_CreateObject());
    add(b, o, "status", cJSON_CreateString(status[s->status]));
    add(b, o, "max_bytes", number(s->max_bytes));
    add(b, o, "probe_stack_bytes", number(s->probe_bytes));
    cJSON *cases = add(b, o, "cases", cJSON_CreateArray());
    for (size_t i = 0; i < s->ncases; i++) {
        cJSON *c = cJSON_CreateObject();
        add(b, c, "nelem", number(s->cases[i].nelem));
        add(b, c, "size", number(4));
        add(b, c, "status", cJSON_CreateString(status[s->cases[i].status]));
        add(b, c, "bytes", s->cases[i].status == QSB_STACK_OK ? number(s->cases[i].bytes)
                                                               : cJSON_CreateNull());
        push(b, cases, c);
    }
}

static void adversary_json(builder *b, cJSON *row_o, const qsb_audit_row *row)
{
    const qsb_adversary_result *a = &row->adversary;
    cJSON *o = add(b, row_o, "worst_case", cJSON_CreateObject());
    add(b, o, "verdict", cJSON_CreateString(qsb_audit_worst_text(row)));
    add(b, o, "max_ratio", a->max_ratio > 0 ? cJSON_CreateNumber(a->max_ratio) : cJSON_CreateNull());
    cJSON *cases = add(b, o, "cases", cJSON_CreateArray());
    for (size_t i = 0; i < a->ncases; i++) {
        const qsb_adversary_case *ac = &a->cases[i];
        cJSON *c = cJSON_CreateObject();
        add(b, c, "nelem", number(ac->nelem));
        add(b, c, "comparisons", number(ac->comparisons));
        add(b, c, "limit", number(qsb_adversary_limit((size_t)ac->nelem)));
        add(b, c, "ratio", ac->failed ? cJSON_CreateNull() : cJSON_CreateNumber(ac->ratio));
        add(b, c, "quadratic", cJSON_CreateBool(ac->quadratic));
        add(b, c, "failed", cJSON_CreateBool(ac->failed));
        push(b, cases, c);
    }
}

static void broken_json(builder *b, cJSON *row_o, const qsb_audit_row *row)
{
    cJSON *o = add(b, row_o, "broken_comparators", cJSON_CreateObject());
    for (int i = 0; i < QSB_BROKEN_COUNT; i++) {
        cJSON *c = add(b, o, qsb_broken_comparator_names[i], cJSON_CreateObject());
        add(b, c, "verdict", cJSON_CreateString(qsb_broken_verdict_name(row->broken[i].verdict)));
        add(b, c, "detail", cJSON_CreateString(row->broken[i].detail));
    }
}

static cJSON *row_json(builder *b, const qsb_audit_row *row)
{
    cJSON *o = cJSON_CreateObject();
    add(b, o, "algorithm", cJSON_CreateString(row->subject.name));
    add(b, o, "variant", row->subject.variant ? cJSON_CreateString(row->subject.variant)
                                              : cJSON_CreateNull());
    if (row->subject.has_declared) {
        cJSON *d = add(b, o, "declared", cJSON_CreateObject());
        add(b, d, "stable", cJSON_CreateBool(row->subject.declared & QSB_PROP_STABLE));
        add(b, d, "allocates", cJSON_CreateBool(row->subject.declared & QSB_PROP_ALLOCATES));
        add(b, d, "nlogn_worst", cJSON_CreateBool(row->subject.declared & QSB_PROP_NLOGN_WORST));
    } else {
        add(b, o, "declared", cJSON_CreateNull());
    }
    add(b, o, "failure", row->failure[0] ? cJSON_CreateString(row->failure) : cJSON_CreateNull());
    if (row->failure[0]) /* nothing was measured past the failure */
        return o;
    stability_json(b, o, row);
    alloc_json(b, o, row);
    stack_json(b, o, row);
    adversary_json(b, o, row);
    broken_json(b, o, row);
    add_string_list(b, o, "contradictions", row->contradictions);
    add_string_list(b, o, "notes", row->notes);
    return o;
}

int qsb_audit_write_json(FILE *fp, const qsb_audit_row *rows, size_t count,
                         const qsb_audit_config *config, const qsb_run_context *where,
                         const char *command_line)
{
    builder b = {false};
    cJSON *root = cJSON_CreateObject();
    add(&b, root, "schema_version", cJSON_CreateNumber(1));
    add(&b, root, "kind", cJSON_CreateString("audit"));
    add(&b, root, "context", context_json(&b, config, rows, count, where, command_line));
    cJSON *list = add(&b, root, "rows", cJSON_CreateArray());
    for (size_t i = 0; i < count; i++)
        push(&b, list, row_json(&b, &rows[i]));
    return b.failed ? qsb_json_abandon(root, "audit JSON")
                    : qsb_json_print(fp, root, "audit JSON");
}
