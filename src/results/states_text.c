/*
** The states text of a row (states_text.h): written and parsed in one place, and checked
** there, so that the CSV and JSON readers refuse the same malformed states.
*/
#include "states_text.h"

#include <errno.h>
#include <math.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define SHARE_ROUNDING 0.005 /* half the last decimal of a written share */

char *qsb_states_format(const qsb_state_estimate *s, size_t n)
{
    char *text = NULL;
    size_t len = 0;
    FILE *fp = open_memstream(&text, &len);
    for (size_t k = 0; fp && k < n; k++) {
        fprintf(fp, "%s%.2f(%u)@%.1f", k ? ";" : "", s[k].share, (unsigned)s[k].processes,
                s[k].median);
        if (isfinite(s[k].delta_pct))
            fprintf(fp, "/%+.2f", s[k].delta_pct);
        if (isfinite(s[k].delta_pct) && isfinite(s[k].delta_lo) && isfinite(s[k].delta_hi))
            fprintf(fp, "[%+.2f,%+.2f]", s[k].delta_lo, s[k].delta_hi);
    }
    if (!fp || fclose(fp) != 0) {
        free(text);
        return NULL;
    }
    return text;
}

/* A finite number at *p, *p moved past it. */
static bool number_at(const char **p, double *out)
{
    char *stop;
    errno = 0;
    *out = strtod(*p, &stop);
    if (stop == *p || errno || !isfinite(*out))
        return false;
    *p = stop;
    return true;
}

static bool expect(const char **p, char c)
{
    if (**p != c)
        return false;
    (*p)++;
    return true;
}

/* One STATE at *p; false when it is not one. */
static bool parse_state(const char **p, qsb_state_estimate *e)
{
    double processes;
    *e = (qsb_state_estimate){0, NAN, NAN, NAN, NAN, NAN, NAN, NAN, {0, NAN, NAN}};
    if (!number_at(p, &e->share) || !expect(p, '(') || !number_at(p, &processes) ||
        !expect(p, ')') || !expect(p, '@') || !number_at(p, &e->median))
        return false;
    if (processes < 0 || processes > UINT32_MAX || processes != floor(processes))
        return false;
    e->processes = (uint32_t)processes;
    if (!expect(p, '/'))
        return true;
    if (!number_at(p, &e->delta_pct))
        return false;
    if (!expect(p, '['))
        return true;
    return number_at(p, &e->delta_lo) && expect(p, ',') && number_at(p, &e->delta_hi) &&
           expect(p, ']');
}

size_t qsb_states_parse(const char *text, qsb_state_estimate *out, const char **why)
{
    const char *p = text;
    size_t n = 0;
    *why = NULL;
    do {
        if (n == QSB_STATES_MAX) {
            *why = "more states than a row can have";
            return 0;
        }
        if (!parse_state(&p, &out[n++]) || (*p != '\0' && *p != ';')) {
            *why = "not SHARE(PROCESSES)@MEDIAN[/DELTA[[LO,HI]]] joined by ';'";
            return 0;
        }
    } while (*p++ == ';');
    size_t fault;
    if ((*why = qsb_states_check(out, n, &fault)) != NULL)
        return 0;
    return n;
}

int qsb_states_round(qsb_state_estimate *s, size_t n)
{
    char *text = qsb_states_format(s, n);
    const char *p = text;
    for (size_t k = 0; text && k < n; k++) {
        parse_state(&p, &s[k]);
        p += *p == ';';
    }
    bool made = text != NULL;
    free(text);
    return made ? 0 : -1;
}

/* Why state e is not well formed, paired (with deltas) as the first state is; NULL when it is. */
static const char *state_fault(const qsb_state_estimate *e, const qsb_state_estimate *first)
{
    if (e->processes == 0)
        return "a state of 0 processes";
    if (!(e->share > 0 && e->share <= 1))
        return "a share outside (0, 1]";
    if (!(e->median > 0) || !isfinite(e->median))
        return "a median that is not a positive number";
    if (isfinite(e->delta_pct) != isfinite(first->delta_pct))
        return "deltas given for some states only";
    if (isfinite(e->delta_lo) != isfinite(e->delta_hi))
        return "an interval with one bound";
    if (isfinite(e->delta_lo) && !(e->delta_lo <= e->delta_pct && e->delta_pct <= e->delta_hi))
        return "an interval that does not hold its delta";
    return NULL;
}

const char *qsb_states_check(const qsb_state_estimate *s, size_t n, size_t *fault)
{
    *fault = n;
    if (n < 2 || n > QSB_STATES_MAX)
        return "not 2 to 8 states";
    double sum = 0;
    for (size_t k = 0; k < n; k++) {
        const char *why = state_fault(&s[k], &s[0]);
        if (why) {
            *fault = k;
            return why;
        }
        sum += s[k].share;
    }
    if (fabs(sum - 1.0) > SHARE_ROUNDING * (double)n + 1e-9)
        return "shares that do not sum to 1";
    return NULL;
}

size_t qsb_states_summary(const qsb_results *r, size_t index, char *buf, size_t len)
{
    size_t rows = 0, with_states = 0, most = 0, at_most = 0;
    double share[QSB_STATES_MAX] = {0};
    const char *name = NULL;
    for (size_t c = 0; c < r->ncells; c++) {
        const qsb_cell *cell = &r->cells[c];
        if (index >= cell->nrows || !cell->rows[index].verified)
            continue;
        const qsb_row *row = &cell->rows[index];
        name = row->algorithm;
        rows++;
        if (!row->states || (index > 0 && cell->rows[0].states))
            continue; /* none, or its baseline's speeds */
        const qsb_state_estimate *s = row->states;
        size_t n = row->nstates;
        with_states++;
        if (n > most) {
            most = n;
            at_most = 0;
            memset(share, 0, sizeof share);
        }
        if (n == most) {
            at_most++;
            for (size_t k = 0; k < n; k++)
                share[k] += s[k].share;
        }
    }
    if (len > 0)
        buf[0] = '\0';
    if (with_states == 0 || len == 0)
        return 0;
    size_t used = (size_t)snprintf(buf, len, "%s ran at %zu speeds in this run's processes (", name,
                                   most);
    for (size_t k = 0; k < most && used < len; k++)
        used += (size_t)snprintf(buf + used, len - used, "%s%.0f%%", k ? " / " : "",
                                 share[k] / (double)at_most * 100.0);
    if (used < len)
        snprintf(buf + used, len - used, ") in %zu of its %zu rows; those rows are given per "
                 "speed", with_states, rows);
    return with_states;
}

size_t qsb_states_delta_summary(const qsb_results *r, size_t index, char *buf, size_t len)
{
    size_t tested = 0, differs = 0;
    const char *name = NULL, *base = NULL;
    for (size_t c = 0; c < r->ncells && index > 0; c++) {
        const qsb_cell *cell = &r->cells[c];
        if (index >= cell->nrows || cell->rows[index].states_delta == QSB_STATES_DELTA_UNTESTED)
            continue;
        name = cell->rows[index].algorithm;
        base = cell->rows[0].algorithm;
        tested++;
        differs += cell->rows[index].states_delta == QSB_STATES_DELTA_DIFFERS;
    }
    if (len > 0)
        buf[0] = '\0';
    if (tested == 0 || len == 0)
        return 0;
    if (differs == 0)
        snprintf(buf, len, "%s's delta against %s is the same at each of %s's speeds in the %zu "
                 "rows tested, as far as Welch's test at %g%% sees: its mixture is the figure to "
                 "read", name, base, base, tested, QSB_STATES_DELTA_ALPHA * 100);
    else
        snprintf(buf, len, "%s's delta against %s differs between %s's speeds in %zu of the %zu "
                 "rows tested (Welch's test at %g%%): in those rows its mixture moves with the "
                 "speeds' shares from run to run, so read the delta per speed",
                 name, base, base, differs, tested, QSB_STATES_DELTA_ALPHA * 100);
    return tested;
}

size_t qsb_states_words(const qsb_state_estimate *s, size_t n, char *buf, size_t len)
{
    size_t used = 0;
    if (len > 0)
        buf[0] = '\0';
    for (size_t k = 0; k < n && used < len; k++) {
        used += (size_t)snprintf(buf + used, len - used, "%s%.0f%% ", k ? " / " : "states ",
                                 s[k].share * 100.0);
        if (used >= len)
            break;
        if (!isfinite(s[k].delta_pct))
            used += (size_t)snprintf(buf + used, len - used, "%.0f", s[k].median);
        else if (!isfinite(s[k].delta_lo))
            used += (size_t)snprintf(buf + used, len - used, "%+.1f%% too few", s[k].delta_pct);
        else
            used += (size_t)snprintf(buf + used, len - used, "%+.1f%% \xc2\xb1%.1f", s[k].delta_pct,
                                     fmax(s[k].delta_hi - s[k].delta_pct,
                                          s[k].delta_pct - s[k].delta_lo));
    }
    return n;
}
