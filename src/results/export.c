/*
** The table of export formats and what they share (see export.h).
*/
#include "export.h"

#include <inttypes.h>
#include <string.h>

#include "diag.h"
#include "export_dashboards.h"
#include "export_gbench.h"

/* Google Benchmark's JSON describes one machine: a fleet is exported machine by machine. */
static int write_gbench(FILE *fp, const qsb_results *runs, size_t n)
{
    if (n != 1)
        return qsb_error(QSB_EUSAGE, "--export gbench: a fleet file holds %zu machines and "
                         "Google Benchmark's JSON describes one; use bmf or "
                         "github-action-benchmark, or export each machine's file", n);
    return qsb_export_gbench(fp, &runs[0]);
}

const qsb_export_format qsb_export_formats[] = {
    {"gbench", "Google Benchmark's JSON (ALGO/PATTERN/NELEM/SIZE rows, times in ns)",
     qsb_export_gbench_check, write_gbench},
    {"bmf", "Bencher Metric Format (PATTERN/NELEM/SIZE/ALGO: median and delta, intervals)",
     NULL, qsb_export_bmf},
    {"github-action-benchmark",
     "github-action-benchmark's customSmallerIsBetter JSON (medians, ranges)", NULL,
     qsb_export_github_action},
    {NULL, NULL, NULL, NULL},
};

const qsb_export_format *qsb_export_find(const char *name)
{
    for (const qsb_export_format *f = qsb_export_formats; f->name; f++)
        if (strcmp(f->name, name) == 0)
            return f;
    return NULL;
}

const char *qsb_export_names(void)
{
    static char names[128];
    if (names[0])
        return names;
    size_t count = 0, len = 0;
    while (qsb_export_formats[count].name)
        count++;
    for (size_t i = 0; i < count && len < sizeof names; i++)
        len += (size_t)snprintf(names + len, sizeof names - len, "%s%s",
                                i == 0 ? "" : i + 1 == count ? " or " : ", ",
                                qsb_export_formats[i].name);
    return names;
}

int qsb_export_parse(const char *value, const qsb_export_format **format, const char **path)
{
    const char *eq = strchr(value, '=');
    char name[64];
    size_t len = eq ? (size_t)(eq - value) : 0;
    if (!eq || len >= sizeof name)
        return qsb_usage_error("--export: '%s' is not a format and file: use --export "
                               "FORMAT=FILE, FORMAT %s", qsb_quote_path(value),
                               qsb_export_names());
    memcpy(name, value, len);
    name[len] = '\0';
    if (!(*format = qsb_export_find(name)))
        return qsb_usage_error("--export: unknown format '%s' (%s)", qsb_quote(name),
                               qsb_export_names());
    *path = eq + 1;
    if (**path == '\0')
        return qsb_usage_error("--export: no file after '%s='", name);
    return QSB_OK;
}

void qsb_export_name(char *buf, size_t len, const qsb_cell *cell, const qsb_row *row,
                     const char *machine)
{
    int n = snprintf(buf, len, "%s/%" PRIu64 "/%" PRIu64 "/%s", cell->pattern, cell->nelem,
                     cell->size, row->algorithm);
    if (machine && n >= 0 && (size_t)n < len)
        snprintf(buf + n, len - (size_t)n, "@%s", machine);
}
