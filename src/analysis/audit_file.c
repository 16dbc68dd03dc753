/*
** Reading an audit file's table back (see audit_file.h), with cJSON.
*/
#include "audit_file.h"

#include <cjson/cJSON.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "diag.h"

bool qsb_audit_file_is(const char *text)
{
    cJSON *root = cJSON_Parse(text);
    const cJSON *kind = cJSON_GetObjectItemCaseSensitive(root, "kind");
    bool is = cJSON_IsObject(root) && cJSON_IsString(kind) &&
              strcmp(kind->valuestring, "audit") == 0;
    cJSON_Delete(root);
    return is;
}

static const cJSON *member(const cJSON *o, const char *key)
{
    return cJSON_GetObjectItemCaseSensitive(o, key);
}

/* A string member, or "" when absent or null; NULL when of another type. */
static const char *text_of(const cJSON *o, const char *key)
{
    const cJSON *v = member(o, key);
    if (!v || cJSON_IsNull(v))
        return "";
    return cJSON_IsString(v) ? v->valuestring : NULL;
}

static char *format_number(const cJSON *v, const char *otherwise)
{
    char buf[64];
    if (cJSON_IsNumber(v))
        snprintf(buf, sizeof buf, "%.0f", v->valuedouble);
    else
        snprintf(buf, sizeof buf, "%s", otherwise);
    return strdup(buf);
}

/* "a; b" from a list of strings (contradictions). */
static char *joined(const cJSON *list, const char *sep)
{
    size_t len = 1;
    const cJSON *item;
    cJSON_ArrayForEach(item, list)
        len += (cJSON_IsString(item) ? strlen(item->valuestring) : 0) + strlen(sep);
    char *out = calloc(1, len);
    if (!out)
        return NULL;
    cJSON_ArrayForEach(item, list)
    {
        if (!cJSON_IsString(item))
            continue;
        if (out[0])
            strcat(out, sep);
        strcat(out, item->valuestring);
    }
    return out;
}

/* "random OK, always-1 OOB-above": each comparator's verdict, in the file's order. */
static char *broken_text(const cJSON *broken)
{
    size_t len = 1;
    const cJSON *c;
    cJSON_ArrayForEach(c, broken)
    {
        const char *v = text_of(c, "verdict");
        len += strlen(c->string ? c->string : "") + (v ? strlen(v) : 0) + 3;
    }
    char *out = calloc(1, len);
    if (!out)
        return NULL;
    cJSON_ArrayForEach(c, broken)
    {
        const char *v = text_of(c, "verdict");
        size_t used = strlen(out);
        snprintf(out + used, len - used, "%s%s %s", used ? ", " : "", c->string ? c->string : "",
                 v ? v : "?");
    }
    return out;
}

static char *label_of(const char *algorithm, const char *variant)
{
    size_t len = strlen(algorithm) + strlen(variant) + 4;
    char *out = malloc(len);
    if (out)
        snprintf(out, len, variant[0] ? "%s (%s)" : "%s%s", algorithm, variant);
    return out;
}

static char *worst_text(const cJSON *worst)
{
    const char *verdict = text_of(worst, "verdict");
    const cJSON *ratio = member(worst, "max_ratio");
    char buf[128];
    if (cJSON_IsNumber(ratio))
        snprintf(buf, sizeof buf, "%s (max %.2f)", verdict ? verdict : "?", ratio->valuedouble);
    else
        snprintf(buf, sizeof buf, "%s", verdict ? verdict : "?");
    return strdup(buf);
}

static char *stack_text(const cJSON *stack)
{
    const char *status = text_of(stack, "status");
    if (status && strcmp(status, "ok") != 0)
        return strdup(status);
    return format_number(member(stack, "max_bytes"), "n/a");
}

static void line_free(qsb_audit_line *l)
{
    free(l->label);
    free(l->stable);
    free(l->allocates);
    free(l->max_bytes);
    free(l->stack);
    free(l->worst_case);
    free(l->broken);
    free(l->contradictions);
}

/* One row; QSB_EUSAGE (reported) when algorithm is not a string. */
static int read_line(const char *name, size_t i, const cJSON *row, qsb_audit_line *l)
{
    const char *algorithm = text_of(row, "algorithm"), *variant = text_of(row, "variant");
    if (!cJSON_IsObject(row) || !algorithm || !algorithm[0] || !variant)
        return qsb_error(QSB_EUSAGE, "%s: rows[%zu]: no algorithm (an audit file from "
                         "`qsortbench audit --json`?)", name, i);
    const char *stable = text_of(member(row, "stable"), "verdict");
    const char *allocates = text_of(member(row, "allocates"), "verdict");
    l->label = label_of(algorithm, variant);
    l->stable = strdup(stable ? stable : "?");
    l->allocates = strdup(allocates ? allocates : "?");
    l->max_bytes = format_number(member(member(row, "allocates"), "max_bytes"), "n/a");
    l->stack = stack_text(member(row, "stack"));
    l->worst_case = worst_text(member(row, "worst_case"));
    l->broken = broken_text(member(row, "broken_comparators"));
    l->contradictions = joined(member(row, "contradictions"), "; ");
    bool ok = l->label && l->stable && l->allocates && l->max_bytes && l->stack &&
              l->worst_case && l->broken && l->contradictions;
    return ok ? QSB_OK : qsb_out_of_memory("audit file");
}

static int read_context(const cJSON *ctx, qsb_audit_file *out)
{
    const char *host = text_of(ctx, "host"), *date = text_of(ctx, "date");
    const char *version = text_of(ctx, "tool_version"), *cmd = text_of(ctx, "command_line");
    out->host = strdup(host ? host : "");
    out->date = strdup(date ? date : "");
    out->tool_version = strdup(version ? version : "");
    out->command_line = strdup(cmd ? cmd : "");
    return out->host && out->date && out->tool_version && out->command_line
               ? QSB_OK
               : qsb_out_of_memory("audit file");
}

int qsb_audit_file_parse(const char *name, const char *text, qsb_audit_file *out)
{
    memset(out, 0, sizeof *out);
    cJSON *root = cJSON_Parse(text);
    const cJSON *rows = member(root, "rows");
    int status = cJSON_IsArray(rows) ? QSB_OK
                                     : qsb_error(QSB_EUSAGE, "%s: not an audit file (no rows)",
                                                 name);
    size_t n = status == QSB_OK ? (size_t)cJSON_GetArraySize(rows) : 0;
    if (status == QSB_OK && n > 0 && !(out->lines = calloc(n, sizeof *out->lines)))
        status = qsb_out_of_memory("audit file");
    const cJSON *row;
    cJSON_ArrayForEach(row, rows)
    {
        if (status != QSB_OK)
            break;
        status = read_line(name, out->n, row, &out->lines[out->n]);
        out->n++;
    }
    if (status == QSB_OK)
        status = read_context(member(root, "context"), out);
    cJSON_Delete(root);
    if (status != QSB_OK)
        qsb_audit_file_free(out);
    return status;
}

void qsb_audit_file_free(qsb_audit_file *f)
{
    for (size_t i = 0; i < f->n; i++)
        line_free(&f->lines[i]);
    free(f->lines);
    free(f->host);
    free(f->date);
    free(f->tool_version);
    free(f->command_line);
    memset(f, 0, sizeof *f);
}
