/*
** The human table on stdout, in the layout of the 2021 cover letter:
**
**   SORTED
**     elements=    49152 (size= 4):  +52.47% ± 0.40 (msort=3654381.0 introsort=5571774.0)
**
** one line per cell and candidate; the delta is the paired delta of the run, the values in
** brackets each algorithm's median. "± h" is there when the delta's 95% interval [lo, hi]
** is known (5 units or more): h = max(delta - lo, hi - delta), so delta ± h covers the
** interval, which need not be symmetric. When the interval itself contains zero the line
** ends with "no significant change", and with "~noisy" when a row of the line is flagged
** noisy (an interval wider than the precision, or none). A failed row prints FAILED
** (algorithm: reason).
*/
#include "report.h"

#include <ctype.h>
#include <inttypes.h>
#include <math.h>
#include <string.h>

#include "diag.h"
#include "states_text.h"

/* Names (a plug-in's come from the command line) and strings of the results as the table
** shows them: escaped and cut like a quoted value (diag.h), never raw control bytes. */
static const char *shown(char buf[QSB_QUOTE_MAX + 1], const char *text)
{
    return qsb_escape(buf, QSB_QUOTE_MAX + 1, text, "\\");
}

static void print_header(FILE *out, const qsb_results *r)
{
    const qsb_context *c = &r->context;
    char a[QSB_QUOTE_MAX + 1], b[QSB_QUOTE_MAX + 1];
    fprintf(out, "qsortbench %s: baseline %s", shown(a, c->tool_version),
            shown(b, r->baseline ? r->baseline : "?"));
    for (size_t i = 1; r->ncells > 0 && i < r->cells[0].nrows; i++)
        fprintf(out, "%s%s", i == 1 ? ", candidates " : ",",
                shown(a, r->cells[0].rows[i].algorithm));
    fprintf(out, "; metric %s", shown(a, c->metric ? c->metric : "?"));
    if (c->tsc_hz > 0)
        fprintf(out, " (%s, TSC %.3f GHz)", shown(a, c->timer), c->tsc_hz / 1e9);
    else if (c->timer && strcmp(c->timer, "none") != 0)
        fprintf(out, " (%s)", shown(a, c->timer));
    char m[QSB_QUOTE_MAX + 1];
    fprintf(out, "; seed 0x%" PRIx64 "; mode %s; machine %s, %s\n", c->seed,
            shown(m, c->mode ? c->mode : "?"), shown(a, c->cpu_model ? c->cpu_model : "?"),
            shown(b, c->libc ? c->libc : "?"));
}

/* The name in capitals, then escaped (so "\x1b" stays lowercase). QSB_QUOTE_MAX + 1 bytes
** of the name are enough: that many escape to more than QSB_QUOTE_MAX characters, so the cut
** comes out the same. */
static void print_pattern_title(FILE *out, const char *pattern)
{
    char upper[QSB_QUOTE_MAX + 2], buf[QSB_QUOTE_MAX + 1];
    size_t n = 0;
    for (; pattern[n] && n < sizeof upper - 1; n++)
        upper[n] = (char)toupper((unsigned char)pattern[n]);
    upper[n] = '\0';
    fprintf(out, "\n%s\n", shown(buf, upper));
}

static int same_sign(double a, double b)
{
    return (a > 0 && b > 0) || (a < 0 && b < 0) || (a == 0 && b == 0);
}

static void print_published(FILE *out, const qsb_cell *cell, const qsb_row *row,
                            const qsb_reference *ref)
{
    const qsb_published_cell *pub = qsb_reference_find(ref, cell->pattern, cell->nelem,
                                                       cell->size);
    if (!pub)
        return;
    fprintf(out, "  [published %+.2f%%%s]", pub->delta_pct,
            isnan(row->delta_pct) || same_sign(row->delta_pct, pub->delta_pct)
                ? ""
                : ", sign differs");
}

static const qsb_row *failed_row(const qsb_row *base, const qsb_row *cand)
{
    if (!base->verified)
        return base;
    return cand && !cand->verified ? cand : NULL;
}

static bool interval_known(const qsb_row *row)
{
    return !isnan(row->delta_lo) && !isnan(row->delta_hi);
}

/* "+52.47%", and " ± 0.40" when the interval is known (± in UTF-8, whatever the locale:
** the tool never calls setlocale). */
static void print_delta(FILE *out, const qsb_row *cand)
{
    fprintf(out, " %+7.2f%%", cand->delta_pct);
    if (interval_known(cand))
        fprintf(out, " \xc2\xb1 %.2f", fmax(cand->delta_pct - cand->delta_lo,
                                          cand->delta_hi - cand->delta_pct));
}

/* "  states 57% -23.1% ±1.8 / 43% -41.0% ±2.2" (a candidate's deltas per state) or "  msort
** states 57% 2010345 / 43% 2931002" (the baseline's medians): the cell's processes ran at
** separated speeds (pool.h). Nothing for a row without states. */
static void print_states(FILE *out, const qsb_row *row)
{
    char words[512], a[QSB_QUOTE_MAX + 1];
    if (qsb_states_words(row->states, row->nstates, words, sizeof words) == 0)
        return;
    if (isnan(row->delta_pct))
        fprintf(out, "  %s %s", shown(a, row->algorithm), words);
    else
        fprintf(out, "  %s", words);
}

/* One line: the candidate against the baseline (cand NULL when the run has no candidate). */
static void print_line(FILE *out, const qsb_cell *cell, const qsb_row *cand,
                       const qsb_reference *ref)
{
    const qsb_row *base = &cell->rows[0];
    fprintf(out, "  elements=%9" PRIu64 " (size=%2" PRIu64 "):", cell->nelem, cell->size);
    const qsb_row *failed = failed_row(base, cand);
    char a[QSB_QUOTE_MAX + 1], b[QSB_QUOTE_MAX + 1];
    if (failed) {
        fprintf(out, " FAILED (%s: %s)\n", shown(a, failed->algorithm),
                shown(b, failed->failure ? failed->failure : "wrong result"));
        return;
    }
    if (cand && isnan(cand->delta_pct))
        fprintf(out, " %7s ", "n/a");
    else if (cand)
        print_delta(out, cand);
    fprintf(out, " (%s=%.1f", shown(a, base->algorithm), base->summary.median);
    if (cand)
        fprintf(out, " %s=%.1f", shown(a, cand->algorithm), cand->summary.median);
    fputc(')', out);
    if (cand && interval_known(cand) && cand->delta_lo <= 0 && cand->delta_hi >= 0)
        fputs("  no significant change", out);
    if ((cand && cand->noisy) || base->noisy)
        fputs("  ~noisy", out);
    print_states(out, cand && cand->states ? cand : base);
    if (cand && ref)
        print_published(out, cell, cand, ref);
    fputc('\n', out);
}

void qsb_reference_agreement(const qsb_results *r, size_t candidate, const qsb_reference *ref,
                             size_t *agree, size_t *compared)
{
    *agree = *compared = 0;
    for (size_t c = 0; c < r->ncells; c++) {
        const qsb_cell *cell = &r->cells[c];
        if (candidate >= cell->nrows)
            continue;
        const qsb_row *row = &cell->rows[candidate];
        const qsb_published_cell *pub = qsb_reference_find(ref, cell->pattern, cell->nelem,
                                                           cell->size);
        if (!pub || failed_row(&cell->rows[0], row) || isnan(row->delta_pct))
            continue;
        (*compared)++;
        *agree += same_sign(row->delta_pct, pub->delta_pct);
    }
}

static void print_agreement(FILE *out, const qsb_results *r, const qsb_reference *ref)
{
    size_t ncands = r->ncells > 0 ? r->cells[0].nrows : 0;
    char a[QSB_QUOTE_MAX + 1], b[QSB_QUOTE_MAX + 1];
    fputc('\n', out);
    for (size_t i = 1; i < ncands; i++) {
        size_t agree, compared;
        qsb_reference_agreement(r, i, ref, &agree, &compared);
        if (compared == 0) {
            fprintf(out, "%s vs %s: no cell of this run is in the published table (%s)\n",
                    shown(a, r->cells[0].rows[i].algorithm), shown(b, r->baseline), ref->name);
            continue;
        }
        fprintf(out, "%s vs %s: the sign agrees with the published delta (%s) in %zu of %zu "
                     "cells (%zu published)\n",
                shown(a, r->cells[0].rows[i].algorithm), shown(b, r->baseline), ref->name, agree,
                compared, ref->ncells);
    }
}

int qsb_report_table(FILE *out, const qsb_results *r, const qsb_reference *ref)
{
    print_header(out, r);
    for (size_t c = 0; c < r->ncells; c++) {
        const qsb_cell *cell = &r->cells[c];
        if (c == 0 || strcmp(cell->pattern, r->cells[c - 1].pattern) != 0)
            print_pattern_title(out, cell->pattern);
        if (cell->nrows == 1)
            print_line(out, cell, NULL, ref);
        for (size_t i = 1; i < cell->nrows; i++)
            print_line(out, cell, &cell->rows[i], ref);
    }
    if (ref)
        print_agreement(out, r, ref);
    if (r->context.incomplete)
        fprintf(out, "\n(interrupted: %zu finished cells above)\n", r->ncells);
    return QSB_OK;
}
