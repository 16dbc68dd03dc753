/*
** The CSV results file (schema.h): one header row, then one row per (cell, algorithm), the
** columns of the schema's table that the CSV carries. Fields that need quoting (a comma, quote
** or line break; leading or trailing blanks) are written by libcsv's csv_fwrite, the rest as
** they are.
*/
#include "report.h"

#include <inttypes.h>
#include <stdbool.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include <csv.h>

#include "diag.h"
#include "schema.h"
#include "states_text.h"

static int needs_quotes(const char *text)
{
    size_t len = strlen(text);
    return strpbrk(text, ",\"\r\n") != NULL ||
           (len > 0 && (text[0] == ' ' || text[0] == '\t' || text[len - 1] == ' ' ||
                        text[len - 1] == '\t'));
}

/* A text field; NULL is an empty one. */
static void put_text(FILE *out, const char *text)
{
    if (!text)
        text = "";
    if (needs_quotes(text))
        csv_fwrite(out, text, strlen(text));
    else
        fputs(text, out);
}

/* The samples (round-trip precision), or their units, joined by ';'; malloc'd, NULL when out
** of memory. Unknown units give an empty field. */
static char *join_samples(const qsb_row *row, bool units)
{
    size_t cap = row->nsamples * 26 + 1; /* "%.17g" is at most 24 characters, plus ';' */
    char *text = malloc(cap);
    if (!text)
        return NULL;
    size_t used = 0;
    text[0] = '\0';
    for (size_t i = 0; i < row->nsamples && (!units || row->units); i++) {
        int n = units ? snprintf(text + used, cap - used, "%s%" PRIu32, i ? ";" : "",
                                 row->units[i])
                      : snprintf(text + used, cap - used, "%s%.17g", i ? ";" : "",
                                 row->samples[i]);
        used += n > 0 ? (size_t)n : 0;
    }
    return text;
}

/* One column's field of the row, without its separator. */
static void put_value(FILE *out, const qsb_column *c, qsb_file_row *fr, const char *joined,
                      const char *states)
{
    const void *field = qsb_column_field(c, fr);
    double d;
    switch (c->type) {
    case QSB_COL_TEXT: put_text(out, *(char *const *)field); return;
    case QSB_COL_STATES: put_text(out, states); return;
    case QSB_COL_U64:
    case QSB_COL_SIZE: fprintf(out, "%" PRIu64, *(const uint64_t *)field); return;
    case QSB_COL_UINT: fprintf(out, "%u", *(const unsigned *)field); return;
    case QSB_COL_DOUBLE:
        d = *(const double *)field;
        if (!isnan(d))
            fprintf(out, "%.17g", d);
        return;
    case QSB_COL_BOOL: fputs(*(const bool *)field ? "true" : "false", out); return;
    case QSB_COL_SEED: fprintf(out, "0x%" PRIx64, *(const uint64_t *)field); return;
    case QSB_COL_SAMPLES:
    case QSB_COL_UNITS: put_text(out, joined); return;
    }
}

/* machine: the fleet file's last column (NULL: a single-machine file, no such column). */
static int put_row(FILE *out, const qsb_results *r, const qsb_cell *cell, size_t index,
                   const char *machine)
{
    qsb_file_row fr;
    qsb_file_row_view(r, cell, index, &fr);
    char *samples = join_samples(&fr.row, false), *units = join_samples(&fr.row, true);
    char *states = qsb_states_format(fr.row.states, fr.row.nstates);
    if (!samples || !units || !states) {
        free(samples);
        free(units);
        free(states);
        return qsb_out_of_memory("CSV samples");
    }
    const char *sep = "";
    for (size_t i = 0; i < QSB_COLUMN_COUNT; i++) {
        const qsb_column *c = &qsb_columns[i];
        if (!c->csv)
            continue;
        fputs(sep, out);
        put_value(out, c, &fr, c->type == QSB_COL_UNITS ? units : samples, states);
        sep = ",";
    }
    if (machine) {
        fputc(',', out);
        put_text(out, machine);
    }
    fputc('\n', out);
    free(samples);
    free(units);
    free(states);
    return QSB_OK;
}

/* The header row: the CSV columns' names, and the fleet file's `machine` when asked. */
static void put_header(FILE *out, bool machine)
{
    const char *sep = "";
    for (size_t i = 0; i < QSB_COLUMN_COUNT; i++) {
        if (!qsb_columns[i].csv)
            continue;
        fprintf(out, "%s%s", sep, qsb_columns[i].name);
        sep = ",";
    }
    const char *column = qsb_context_keys[QSB_CONTEXT_machine].key;
    fprintf(out, "%s%s\n", machine ? "," : "", machine ? column : "");
}

int qsb_report_csv(FILE *out, const qsb_results *r)
{
    put_header(out, false);
    int status = QSB_OK;
    for (qsb_row_cursor at = {0}; status == QSB_OK && qsb_results_next_row(r, &at);)
        status = put_row(out, r, at.cell, at.i, NULL);
    return status;
}

int qsb_report_fleet_csv(FILE *out, const qsb_results *runs, size_t n)
{
    put_header(out, true);
    int status = QSB_OK;
    for (size_t m = 0; m < n && status == QSB_OK; m++) {
        const qsb_results *r = &runs[m];
        const char *name = qsb_machine_name(&r->context);
        for (qsb_row_cursor at = {0}; status == QSB_OK && qsb_results_next_row(r, &at);)
            status = put_row(out, r, at.cell, at.i, name);
    }
    return status;
}
