/*
** The CSV results file (format at the top of result.h): one header row, then one row per
** (cell, algorithm). Fields that need quoting (a comma, quote or line break; leading or
** trailing blanks) are written by libcsv's csv_fwrite, the rest as they are.
*/
#include "report.h"

#include <inttypes.h>
#include <stdbool.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include <csv.h>

#include "diag.h"

static const char header[] =
    "pattern,nelem,size,algorithm,baseline,metric,reps,min,median,mean,stddev,delta_pct,"
    "comparisons,verified,cv,median_lo,median_hi,outliers,delta_lo,delta_hi,noisy,failure,"
    "mode,seed,samples,units";

static int needs_quotes(const char *text)
{
    size_t len = strlen(text);
    return strpbrk(text, ",\"\r\n") != NULL ||
           (len > 0 && (text[0] == ' ' || text[0] == '\t' || text[len - 1] == ' ' ||
                        text[len - 1] == '\t'));
}

/* One field and, unless it is the last of the row, its comma. */
static void put_text(FILE *out, const char *text, int last)
{
    if (!text)
        text = "";
    if (needs_quotes(text))
        csv_fwrite(out, text, strlen(text));
    else
        fputs(text, out);
    fputc(last ? '\n' : ',', out);
}

static void put_double(FILE *out, double value)
{
    if (!isnan(value))
        fprintf(out, "%.17g", value);
    fputc(',', out);
}

static void put_u64(FILE *out, uint64_t value)
{
    fprintf(out, "%" PRIu64 ",", value);
}

static void put_bool(FILE *out, bool value)
{
    fputs(value ? "true," : "false,", out);
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

/* machine: the fleet file's last column (NULL: a single-machine file, no such column). */
static int put_row(FILE *out, const qsb_results *r, const qsb_cell *cell, size_t index,
                   const char *machine)
{
    const qsb_row *row = &cell->rows[index];
    char *samples = join_samples(row, false), *units = join_samples(row, true);
    if (!samples || !units) {
        free(samples);
        free(units);
        return qsb_out_of_memory("CSV samples");
    }
    put_text(out, cell->pattern, 0);
    put_u64(out, cell->nelem);
    put_u64(out, cell->size);
    put_text(out, row->algorithm, 0);
    put_text(out, r->baseline, 0);
    put_text(out, r->context.metric, 0);
    put_u64(out, row->nsamples);
    put_double(out, row->summary.min);
    put_double(out, row->summary.median);
    put_double(out, row->summary.mean);
    put_double(out, row->summary.stddev);
    put_double(out, index == 0 ? NAN : row->delta_pct);
    put_u64(out, row->comparisons);
    put_bool(out, row->verified);
    put_double(out, row->summary.cv);
    put_double(out, row->summary.median_lo);
    put_double(out, row->summary.median_hi);
    put_u64(out, row->summary.outliers);
    put_double(out, index == 0 ? NAN : row->delta_lo);
    put_double(out, index == 0 ? NAN : row->delta_hi);
    put_bool(out, row->noisy);
    put_text(out, row->verified ? "" : row->failure, 0);
    put_text(out, r->context.mode, 0);
    fprintf(out, "0x%" PRIx64 ",", r->context.seed);
    put_text(out, samples, 0);
    put_text(out, units, !machine);
    if (machine)
        put_text(out, machine, 1);
    free(samples);
    free(units);
    return QSB_OK;
}

int qsb_report_csv(FILE *out, const qsb_results *r)
{
    fprintf(out, "%s\n", header);
    int status = QSB_OK;
    for (size_t c = 0; c < r->ncells && status == QSB_OK; c++)
        for (size_t i = 0; i < r->cells[c].nrows && status == QSB_OK; i++)
            status = put_row(out, r, &r->cells[c], i, NULL);
    return status;
}

int qsb_report_fleet_csv(FILE *out, const qsb_results *runs, size_t n)
{
    fprintf(out, "%s,machine\n", header);
    int status = QSB_OK;
    for (size_t m = 0; m < n && status == QSB_OK; m++) {
        const qsb_results *r = &runs[m];
        const char *name = qsb_machine_name(&r->context);
        for (size_t c = 0; c < r->ncells && status == QSB_OK; c++)
            for (size_t i = 0; i < r->cells[c].nrows && status == QSB_OK; i++)
                status = put_row(out, r, &r->cells[c], i, name);
    }
    return status;
}
