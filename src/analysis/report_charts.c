/*
** What every section of the report's page uses (report_charts.h): text HTML-escaped, and the
** charts inlined, gnuplot's SVG files read back, their XML prolog dropped and their ids
** prefixed so that several charts live in one page.
*/
#include "report_charts.h"

#include <errno.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "diag.h"

#define CHART_MAX_BYTES ((size_t)16 << 20) /* far above any chart gnuplot writes here */

/* The whole file, or NULL (reported). */
static char *slurp(const char *path)
{
    FILE *fp = fopen(path, "rb");
    if (!fp) {
        qsb_error(QSB_ESYSTEM, "cannot read the chart '%s': %s", qsb_quote_path(path),
                  strerror(errno));
        return NULL;
    }
    char *text = malloc(CHART_MAX_BYTES + 1);
    size_t len = text ? fread(text, 1, CHART_MAX_BYTES, fp) : 0;
    fclose(fp);
    if (text)
        text[len] = '\0';
    else
        qsb_out_of_memory("report chart");
    return text;
}

/* The chart's own width in pixels (its svg element's width attribute); 0 when not found. */
static unsigned svg_width(const char *svg)
{
    const char *tag = strstr(svg, "<svg");
    const char *end = tag ? strchr(tag, '>') : NULL;
    const char *w = tag ? strstr(tag, "width=\"") : NULL;
    return w && end && w < end ? (unsigned)strtoul(w + 7, NULL, 10) : 0;
}

/* The SVG element, its ids made unique in the page ("c3-gpPt0"), the XML prolog dropped. */
static void put_svg(FILE *out, const char *svg, unsigned chart)
{
    static const char *const refs[] = {"id='", "id=\"", "href='#", "href=\"#", "url(#"};
    const char *p = strstr(svg, "<svg");
    if (!p)
        return;
    while (*p) {
        size_t k = 0, nrefs = sizeof refs / sizeof refs[0];
        while (k < nrefs && strncmp(p, refs[k], strlen(refs[k])) != 0)
            k++;
        if (k == nrefs) {
            fputc(*p++, out);
            continue;
        }
        fprintf(out, "%sc%u-", refs[k], chart);
        p += strlen(refs[k]);
    }
}

int qsb_chart_dir_open(qsb_chart_dir *d)
{
    memset(d, 0, sizeof *d);
    const char *base = getenv("TMPDIR");
    if (!base || !base[0])
        base = "/tmp";
    int n = snprintf(d->dir, sizeof d->dir, "%s/qsortbench-report-XXXXXX", base);
    if (n < 0 || (size_t)n >= sizeof d->dir || !mkdtemp(d->dir))
        return qsb_error(QSB_ESYSTEM, "cannot make a temporary directory under '%s': %s",
                         qsb_quote_path(base), strerror(errno));
    if (!(d->stream = open_memstream(&d->list, &d->list_len))) {
        rmdir(d->dir);
        return qsb_out_of_memory("report charts");
    }
    return QSB_OK;
}

/* What a chart shows, from its name (plot.h: <stem>-deltas-<candidate>, -scaling,
** -comparisons; the trend section: trend-<n>). */
static const char *caption(const char *path)
{
    static const struct {
        const char *part, *text;
    } captions[] = {
        {"-deltas-", "The paired delta of the candidate against the baseline, per cell, with "
                     "its 95% interval; hatched bars: noisy."},
        {"-scaling.", "The median per element against the element count (log scale); dashed "
                      "lines: where the L1d, L2 and L3 caches hold that many elements."},
        {"-comparisons.", "Comparator calls / (n log2 n) of one sort, per cell."},
        {"/trend-", "The paired delta of each candidate against the baseline, run by run in "
                    "commit order, with its 95% interval; open marks: runs whose processes "
                    "ran at separated speeds; dashed lines: the steps history detect finds."},
    };
    const char *base = strrchr(path, '/');
    for (size_t i = 0; i < sizeof captions / sizeof captions[0]; i++)
        if (strstr(base ? base : path, captions[i].part))
            return captions[i].text;
    return "";
}

int qsb_chart_dir_inline(FILE *out, qsb_chart_dir *d, unsigned *chart_no)
{
    fclose(d->stream);
    d->stream = NULL;
    int status = QSB_OK;
    for (char *line = d->list; line && *line;) {
        char *end = strchr(line, '\n');
        if (end)
            *end = '\0';
        char *svg = status == QSB_OK ? slurp(line) : NULL;
        if (svg) {
            /* As wide as the chart was drawn, the window allowing: a chart of many panels
            ** may be wider than the text, never wider than the window. */
            unsigned width = svg_width(svg);
            fprintf(out, "<figure class=\"chart\" style=\"width:min(calc(100vw - 3rem), %upx)\">\n",
                    width ? width : 1000);
            put_svg(out, svg, (*chart_no)++);
            fprintf(out, "\n<figcaption>%s</figcaption>\n</figure>\n", caption(line));
            free(svg);
        } else {
            status = QSB_ESYSTEM;
        }
        unlink(line);
        line = end ? end + 1 : NULL;
    }
    free(d->list);
    rmdir(d->dir);
    return status;
}

void qsb_html_text(FILE *out, const char *text)
{
    for (const unsigned char *p = (const unsigned char *)(text ? text : ""); *p; p++) {
        switch (*p) {
        case '&': fputs("&amp;", out); break;
        case '<': fputs("&lt;", out); break;
        case '>': fputs("&gt;", out); break;
        case '"': fputs("&quot;", out); break;
        case '\'': fputs("&#39;", out); break;
        default:
            if ((*p < 0x20 && *p != '\t' && *p != '\n') || *p == 0x7f)
                fputs("&#xFFFD;", out);
            else
                fputc(*p, out);
        }
    }
}

void qsb_html_cell(FILE *out, const char *pattern, uint64_t nelem, uint64_t size)
{
    qsb_html_text(out, pattern);
    fprintf(out, " %" PRIu64 " &times; %" PRIu64, nelem, size);
}
