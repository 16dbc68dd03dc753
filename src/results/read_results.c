/*
** The results readers' entry points (read_results.h): loading a file and telling CSV from JSON
** (the readers' shared part: assemble.h).
*/
#include "read_results.h"

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "assemble.h"
#include "diag.h"
#include "infile.h"

/* ---- format detection, then the reading ---- */

/* What a first pass over a file finds, before a parser sees a byte of it. */
typedef struct {
    size_t seen;          /* bytes so far */
    unsigned char head[3]; /* the first three: a UTF-8 byte order mark (spreadsheets)? */
    bool nul;             /* a NUL would silently cut a field short in both parsers */
    size_t nul_line;      /* the line of the first NUL */
    int first, first_after_head; /* the first byte that is not blank, from the start and
                                  ** after the head; -1: none */
} survey;

static int survey_piece(void *ctx, const char *bytes, size_t len)
{
    survey *s = ctx;
    for (size_t i = 0; i < len; i++, s->seen++) {
        unsigned char c = (unsigned char)bytes[i];
        if (s->seen < sizeof s->head)
            s->head[s->seen] = c;
        s->nul |= c == '\0';
        s->nul_line += !s->nul && c == '\n';
        bool blank = c == ' ' || c == '\t' || c == '\r' || c == '\n';
        if (!blank && s->first < 0)
            s->first = c;
        if (!blank && s->first_after_head < 0 && s->seen >= sizeof s->head)
            s->first_after_head = c;
    }
    return QSB_OK;
}

static size_t bom_length(const survey *s)
{
    return s->seen >= 3 && memcmp(s->head, "\xEF\xBB\xBF", 3) == 0 ? 3 : 0;
}

/* The CSV text, piece by piece, past the byte order mark. */
typedef struct {
    qsb_csv_reader *reader;
    size_t skip; /* bytes of the mark not yet passed */
} csv_pieces;

static int csv_piece(void *ctx, const char *bytes, size_t len)
{
    csv_pieces *c = ctx;
    size_t skip = c->skip < len ? c->skip : len;
    c->skip -= skip;
    return qsb_csv_feed(c->reader, bytes + skip, len - skip);
}

static int read_csv(const char *path, const char *shown, size_t bom, qsb_rows_view view,
                    qsb_results **runs, size_t *n)
{
    csv_pieces c = {qsb_csv_begin(shown, view), bom};
    if (!c.reader)
        return qsb_out_of_memory("CSV parser");
    int status = qsb_read_input_pieces(path, "", NULL, csv_piece, &c);
    return qsb_csv_end(c.reader, status, runs, n);
}

/* JSON is read whole, its rows parsed one at a time (read_json.c). */
static int read_json(const char *path, const char *shown, qsb_rows_view view,
                     qsb_results **runs, size_t *n)
{
    char *text = NULL;
    size_t len = 0;
    int status = qsb_read_input_file(path, "", NULL, &text, &len);
    if (status == QSB_OK)
        status = qsb_read_json_fleet(shown, text, len, view, runs, n);
    free(text);
    return status;
}

/* A fleet's machines are told apart by name (compare --machines, the exports' keys): two of
** one name are refused, the second named. */
static int check_machine_names(const char *shown, const qsb_results *runs, size_t n)
{
    for (size_t j = 1; j < n; j++)
        for (size_t i = 0; i < j; i++)
            if (strcmp(qsb_machine_name(&runs[i].context), qsb_machine_name(&runs[j].context)) ==
                0)
                return qsb_error(QSB_EUSAGE, "%s: machines[%zu] has the name '%s' of "
                                 "machines[%zu]: the machines of a fleet need different names",
                                 shown, j, qsb_quote(qsb_machine_name(&runs[j].context)), i);
    return QSB_OK;
}

/* The checks of a whole fleet after its reading (of that status); on failure *runs is freed. */
static int check_fleet(const char *shown, int status, qsb_results **runs, size_t *n)
{
    if (status == QSB_OK)
        status = check_machine_names(shown, *runs, *n);
    if (status != QSB_OK && *runs) {
        for (size_t i = 0; i < *n; i++)
            qsb_results_free(&(*runs)[i]);
        free(*runs);
        *runs = NULL;
        *n = 0;
    }
    return status;
}

static int read_fleet(const char *path, qsb_rows_view view, qsb_results **runs, size_t *n)
{
    *runs = NULL;
    *n = 0;
    char shown[QSB_QUOTE_PATH_MAX + 1]; /* the path, escaped once for every message */
    snprintf(shown, sizeof shown, "%s", qsb_quote_path(path));
    survey s = {.nul_line = 1, .first = -1, .first_after_head = -1};
    int status = qsb_read_input_pieces(path, "", NULL, survey_piece, &s);
    if (status != QSB_OK)
        return status;
    size_t bom = bom_length(&s);
    int first = bom ? s.first_after_head : s.first;
    if (s.nul)
        return qsb_error(QSB_EUSAGE, "%s:%zu: a NUL byte: not a text results file", shown,
                         s.nul_line);
    if (first < 0)
        return qsb_error(QSB_EUSAGE, "%s: empty file: no results", shown);
    if (first == '{' || first == '[')
        status = read_json(path, shown, view, runs, n);
    else
        status = read_csv(path, shown, bom, view, runs, n);
    return check_fleet(shown, status, runs, n);
}

int qsb_read_fleet(const char *path, qsb_results **runs, size_t *n)
{
    return read_fleet(path, QSB_ROWS_FULL, runs, n);
}

/* One machine's results, its rows kept as view says. */
static int read_one(const char *path, qsb_rows_view view, qsb_results *out)
{
    qsb_results *runs = NULL;
    size_t n = 0;
    memset(out, 0, sizeof *out);
    int status = read_fleet(path, view, &runs, &n);
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

int qsb_read_results(const char *path, qsb_results *out)
{
    return read_one(path, QSB_ROWS_FULL, out);
}

int qsb_read_compare_results(const char *path, qsb_results *out)
{
    return read_one(path, QSB_ROWS_SLIM, out);
}
