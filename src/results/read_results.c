/*
** The common part of the results readers (read_results.h): loading a file, telling CSV from
** JSON, strict number parsing (the rows' assembly into cells: assemble.c).
*/
#include "read_results.h"

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "diag.h"
#include "infile.h"

int qsb_text_to_u64(const char *text, int hex_ok, uint64_t *out)
{
    int base = 10;
    if (hex_ok && (strncmp(text, "0x", 2) == 0 || strncmp(text, "0X", 2) == 0)) {
        base = 16;
        text += 2;
    }
    /* strtoull would accept blanks, a sign and its own prefix: allow digits only. */
    size_t len = strlen(text);
    if (len == 0 || strspn(text, base == 16 ? "0123456789abcdefABCDEF" : "0123456789") != len)
        return -1;
    errno = 0;
    unsigned long long v = strtoull(text, NULL, base);
    if (errno == ERANGE)
        return -1;
    *out = v;
    return 0;
}

int qsb_text_to_double(const char *text, double *out)
{
    /* strtod would also take "inf", "nan", hex floats and leading blanks. */
    size_t len = strlen(text);
    if (len == 0 || strspn(text, "0123456789+-.eE") != len)
        return -1;
    char *end;
    errno = 0;
    double v = strtod(text, &end); /* the tool never calls setlocale: '.' is the point */
    if (*end != '\0' || end == text || !isfinite(v))
        return -1;
    *out = v;
    return 0;
}

/* ---- loading and format detection ---- */

static size_t line_of(const char *text, size_t offset)
{
    size_t line = 1;
    for (size_t i = 0; i < offset; i++)
        line += text[i] == '\n';
    return line;
}

int qsb_read_fleet(const char *path, qsb_results **runs, size_t *n)
{
    *runs = NULL;
    *n = 0;
    char shown[QSB_QUOTE_PATH_MAX + 1]; /* the path, escaped once for every message */
    snprintf(shown, sizeof shown, "%s", qsb_quote_path(path));
    char *text = NULL;
    size_t len = 0;
    int status = qsb_read_input_file(path, "", NULL, &text, &len);
    if (status != QSB_OK)
        return status;
    /* A NUL would silently cut a field short in both parsers. */
    const char *nul = memchr(text, '\0', len);
    size_t bom = len >= 3 && memcmp(text, "\xEF\xBB\xBF", 3) == 0 ? 3 : 0; /* spreadsheets */
    size_t start = bom;
    while (start < len && strchr(" \t\r\n", text[start]))
        start++;
    if (nul)
        status = qsb_error(QSB_EUSAGE, "%s:%zu: a NUL byte: not a text results file", shown,
                           line_of(text, (size_t)(nul - text)));
    else if (start == len)
        status = qsb_error(QSB_EUSAGE, "%s: empty file: no results", shown);
    else if (text[start] == '{' || text[start] == '[')
        status = qsb_read_json_fleet(shown, text, len, runs, n);
    else
        status = qsb_read_csv_fleet(shown, text + bom, len - bom, runs, n);
    free(text);
    return status;
}

int qsb_read_results(const char *path, qsb_results *out)
{
    qsb_results *runs = NULL;
    size_t n = 0;
    memset(out, 0, sizeof *out);
    int status = qsb_read_fleet(path, &runs, &n);
    if (status != QSB_OK)
        return status;
    if (n != 1) {
        status = qsb_error(QSB_EUSAGE, "%s: a fleet file of %zu machines (from merge): plot "
                           "it, or compare two of its machines with --machines A,B",
                           qsb_quote_path(path), n);
        for (size_t i = 0; i < n; i++)
            qsb_results_free(&runs[i]);
    } else {
        *out = runs[0];
    }
    free(runs);
    return status;
}
