/*
** The cells of a run's later worker processes (worker_cells.h).
*/
#include "worker_cells.h"
#include "workers.h"

#include <float.h>
#include <math.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#include "state_needs.h"
#include "states.h"
#include "stats.h"

/* No stop for precision before this many workers: stopping at the first interval under the
** target picks the runs whose spread happened to come out small, and with 5 processes (4 df)
** that costs coverage, less from 10 processes on than from 5 (simulated:
** docs/results.md#why-precision-stop-10). */
#define PRECISE_MIN_PROCESSES (2 * QSB_MIN_UNITS)

/* The visits of cell c by workers in flight: those of every cell and those of chosen ones. */
static size_t pending_visits(const qsb_worker_tally *t, size_t c)
{
    return t->pending_all + (t->pending ? t->pending[c] : 0);
}

/* Seconds inside the timed sorts behind a cell's samples (each sample is one sort of a
** batch); 0 where the metric is not a time. */
static double cell_timed_s(const qsb_context *context, const qsb_cell *cell)
{
    bool cycles = qsb_same_text(context->metric, "cycles");
    double per_s = cycles ? context->tsc_hz : 1e9;
    if (!(per_s > 0) || qsb_same_text(context->metric, "comparisons"))
        return 0;
    double total = 0;
    for (size_t i = 0; i < cell->nrows; i++) {
        const qsb_row *row = &cell->rows[i];
        for (size_t k = 0; k < row->nsamples; k++)
            total += row->samples[k] * (double)(row->batch ? row->batch : 1);
    }
    return total / per_s;
}

/* Worker r's wall time, less its start, shared among its cells as their timed sorts were
** (the copies and checks of a visit grow with its sorts): what a visit of a cell costs, for
** choosing the cells of the processes after the minimum. The first worker also counted
** (the later ones take its counts: run.h, model), so its costs stand only until the
** second's are known. */
void qsb_tally_add_costs(qsb_worker_tally *t, size_t r, double wall_s, double start_s)
{
    const qsb_results *run = &t->runs[r].run;
    size_t ncells = r ? t->runs[0].run.ncells : run->ncells;
    if (r == 0) {
        t->cost_s = calloc(ncells ? ncells : 1, sizeof *t->cost_s);
        t->costed = calloc(ncells ? ncells : 1, sizeof *t->costed);
        t->cost_max_s = calloc(ncells ? ncells : 1, sizeof *t->cost_max_s);
        t->visits = calloc(ncells ? ncells : 1, sizeof *t->visits);
        t->pending = calloc(ncells ? ncells : 1, sizeof *t->pending);
    }
    if (!t->cost_s || !t->costed || !t->cost_max_s || !t->visits)
        return;
    if (r == 1) {
        memset(t->cost_s, 0, ncells * sizeof *t->cost_s);
        memset(t->costed, 0, ncells * sizeof *t->costed);
        memset(t->cost_max_s, 0, ncells * sizeof *t->cost_max_s);
    }
    double total = qsb_results_timed_s(run), spent = wall_s - start_s;
    for (size_t c = 0; c < ncells; c++) {
        if (t->where[r][c] == QSB_NO_CELL)
            continue;
        t->visits[c]++;
        if (total > 0 && spent > 0) {
            double cost = spent * cell_timed_s(&run->context, &run->cells[t->where[r][c]]) /
                          total;
            t->cost_s[c] += cost;
            t->cost_max_s[c] = fmax(t->cost_max_s[c], cost);
            t->costed[c]++;
        }
    }
}

/* The half-width, % of the middle value, of the interval the pooled row will have (pool.h:
** a delta's t interval over the processes; a median's, from 6 processes the order-statistic
** interval of the processes' medians, with 5 the t interval) over the workers that visited
** the first worker's cell c: row i's median, or its delta; INFINITY when there is none. The
** same interval as the files', so that the run stops narrowing a cell when what it reports
** meets --precision. */
static double spread_pct(const qsb_worker_tally *t, size_t c, size_t i, bool delta)
{
    double *values = malloc(t->n * sizeof *values);
    uint32_t *units = malloc(t->n * sizeof *units);
    double pct = INFINITY, lo = NAN, hi = NAN;
    size_t n = 0;
    for (size_t r = 0; values && units && r < t->n; r++) {
        if (t->where[r][c] == QSB_NO_CELL)
            continue;
        const qsb_row *row = &t->runs[r].run.cells[t->where[r][c]].rows[i];
        values[n] = delta ? 1.0 + row->delta_pct / 100.0 : row->summary.median;
        units[n++] = (uint32_t)r;
    }
    if (values && units && !delta &&
        qsb_unit_median_order_interval(values, units, n, &lo, &hi) == 0 && isfinite(lo) &&
        isfinite(hi)) {
        qsb_sort_doubles(values, n); /* one value per process: their median */
        double middle = qsb_median_of_sorted(values, n);
        pct = fmax(middle - lo, hi - middle) / middle * 100.0;
    } else if (values && units) {
        qsb_unit_spread s = {0, NAN, NAN};
        if (qsb_unit_spread_of(values, units, n, &s) == 0)
            pct = qsb_unit_precision_pct(&s);
    }
    free(values);
    free(units);
    return isfinite(pct) && pct >= 0 ? pct : INFINITY;
}

/* Row i's paired ratio (1 + delta) in each process that visited cell c, in the processes'
** order (as the baseline's speeds are taken); returns how many. */
static size_t candidate_ratios(const qsb_worker_tally *t, size_t c, size_t i, double *x)
{
    size_t m = 0;
    for (size_t r = 0; r < t->n; r++)
        if (t->where[r][c] != QSB_NO_CELL)
            x[m++] = 1.0 + t->runs[r].run.cells[t->where[r][c]].rows[i].delta_pct / 100.0;
    return m;
}

/* Where the baseline's processes at cell c ran at separated speeds (states.h), the widest
** t interval of a state of 3 processes or more (the baseline's speed, each candidate's delta),
** % of the estimate, as pool.c judges a row with states; NAN when the cell shows no states. */
static double states_spread_pct(const qsb_worker_tally *t, size_t c)
{
    const qsb_cell *cell = &t->runs[0].run.cells[c];
    double *speed = malloc(t->n * sizeof *speed), *x = malloc(t->n * sizeof *x);
    double widest = NAN;
    size_t n = 0;
    qsb_states s = {0};
    for (size_t r = 0; speed && x && r < t->n; r++)
        if (t->where[r][c] != QSB_NO_CELL)
            speed[n++] = t->runs[r].run.cells[t->where[r][c]].rows[0].summary.median;
    if (speed && x && cell->rows[0].verified && qsb_states_of_medians(speed, n, &s) == 0 &&
        s.count > 0) {
        widest = qsb_states_widest_pct(&s, speed, speed, n);
        for (size_t i = 1; i < cell->nrows; i++) {
            if (!cell->rows[i].verified)
                continue;
            candidate_ratios(t, c, i, x);
            widest = fmax(widest, qsb_states_widest_pct(&s, speed, x, n));
        }
    }
    free(speed);
    free(x);
    return widest;
}

/* The half-width, % of the estimate, of each state's interval of values (a unit each), widened
** into half[k]. */
static void widen_state_halves(const qsb_states *s, const double *speed, const double *values,
                               const uint32_t *units, size_t n, double *half)
{
    qsb_state_estimate e[QSB_STATES_MAX];
    if (qsb_state_estimates(s, speed, values, NULL, units, n, e) != 0)
        return;
    for (size_t k = 0; k < s->count; k++) {
        double m = e[k].median;
        if (isfinite(e[k].median_lo) && isfinite(e[k].median_hi) && m > 0)
            half[k] = fmax(half[k], fmax(m - e[k].median_lo, e[k].median_hi - m) / m * 100.0);
        else
            half[k] = INFINITY; /* too few for an interval */
    }
}

/* Cell c's states (of its baseline's speeds): the processes of each, and what each would need
** for the precision (state_needs.h) from its widest interval over the rows. Returns how many
** states (0: none, or out of memory). */
static size_t cell_state_needs(const qsb_worker_tally *t, size_t c, double precision_pct,
                               size_t *got, size_t *need)
{
    const qsb_cell *cell = &t->runs[0].run.cells[c];
    double *speed = malloc(t->n * sizeof *speed), *x = malloc(t->n * sizeof *x);
    uint32_t *units = malloc(t->n * sizeof *units);
    double half[QSB_STATES_MAX] = {0};
    size_t n = 0;
    qsb_states s = {0};
    for (size_t r = 0; speed && x && units && r < t->n; r++)
        if (t->where[r][c] != QSB_NO_CELL) {
            units[n] = (uint32_t)n;
            speed[n++] = t->runs[r].run.cells[t->where[r][c]].rows[0].summary.median;
        }
    if (speed && x && units && cell->rows[0].verified &&
        qsb_states_of_medians(speed, n, &s) == 0 && s.count > 0) {
        widen_state_halves(&s, speed, speed, units, n, half);
        for (size_t i = 1; i < cell->nrows; i++) {
            if (!cell->rows[i].verified)
                continue;
            candidate_ratios(t, c, i, x);
            widen_state_halves(&s, speed, x, units, n, half);
        }
        for (size_t k = 0; k < s.count; k++) {
            got[k] = s.units[k];
            need[k] = qsb_state_need(s.units[k], isfinite(half[k]) ? half[k] : NAN,
                                     precision_pct);
        }
    }
    free(speed);
    free(x);
    free(units);
    return speed && x && units ? s.count : 0;
}

size_t qsb_tally_state_needs(const qsb_worker_tally *t, double precision_pct, size_t *got,
                             size_t *need)
{
    size_t count = 0, ncells = t->n ? t->runs[0].run.ncells : 0;
    double most = -1; /* any cell with states; the furthest from the target first */
    for (size_t c = 0; precision_pct > 0 && c < ncells; c++) {
        size_t g[QSB_STATES_MAX], k[QSB_STATES_MAX];
        size_t states = cell_state_needs(t, c, precision_pct, g, k);
        double far = states ? qsb_tally_cell_need(t, c, precision_pct) : 0;
        if (states && far > most) {
            most = far;
            count = states;
            memcpy(got, g, states * sizeof *g);
            memcpy(need, k, states * sizeof *k);
        }
    }
    return count;
}

/* How far cell c of the first worker is from the precision target: its widest interval over
** the target (> 1: wider), its states' where it shows states; 0 when it needs no more
** processes: every verified interval within the target, from PRECISE_MIN_PROCESSES visits on
** (failed rows have nothing to narrow).
** Without a target (0: a gate spends its budget), its widest interval. */
double qsb_tally_cell_need(const qsb_worker_tally *t, size_t c, double precision_pct)
{
    const qsb_cell *cell = &t->runs[0].run.cells[c];
    size_t visits = pending_visits(t, c); /* those in flight will come: count them */
    for (size_t r = 0; r < t->n; r++)
        visits += t->where[r][c] != QSB_NO_CELL;
    double widest = 0;
    bool verified = false;
    for (size_t i = 0; i < cell->nrows; i++) {
        if (!cell->rows[i].verified)
            continue;
        verified = true;
        widest = fmax(widest, spread_pct(t, c, i, false));
        if (i > 0)
            widest = fmax(widest, spread_pct(t, c, i, true));
    }
    if (!verified)
        return 0;
    double by_states = states_spread_pct(t, c);
    if (!isnan(by_states))
        widest = by_states;
    if (!(precision_pct > 0))
        return fmax(widest, DBL_MIN);
    double need = widest / precision_pct;
    return need <= 1 && visits >= PRECISE_MIN_PROCESSES ? 0 : fmax(need, DBL_MIN);
}

typedef struct {
    size_t cell;
    double gain; /* how much one more visit narrows its intervals, per second of the visit */
} cell_gain;

static int by_gain_descending(const void *a, const void *b)
{
    double x = ((const cell_gain *)a)->gain, y = ((const cell_gain *)b)->gain;
    return (x < y) - (x > y);
}

/* The cells of the next process after the minimum (the first worker's indexes, in cells[]):
** every cell that still needs processes while the time left holds them all and the process's
** start; else, for the run's last processes, those that fit, where a visit narrows the
** intervals most for its time first. Returns how many (0: no process).
**
** Why every open cell and not only the widest: what a process sees is not independent of when
** it ran. msort's large cells switch between speeds
** (docs/results.md#calibration-time-level-over-processes) with a state of the machine that
** holds for tens of seconds, so processes close in time agree. Sending the later processes
** to the widest cells alone (or to the cells where a visit narrowed most) gave them tens of
** processes from one stretch of the run, too narrow an interval for the next run: fewer rows
** agreed between runs than with a cell's processes spread over the run
** (docs/results.md#why-visit-every-cell). The gain of a visit of a cell is taken as w / (n c):
** its widest interval against the target over its processes so far and the visit's cost (a
** half-width narrows about w / 2n per process). */
size_t qsb_tally_choose_cells(const qsb_worker_tally *t, double precision_pct, double start_s,
                              double left_s, size_t *cells)
{
    size_t ncells = t->runs[0].run.ncells, open = 0, chosen = 0;
    cell_gain *order = malloc((ncells ? ncells : 1) * sizeof *order);
    if (!order || !t->cost_s || !t->costed || !t->cost_max_s || !t->visits)
        goto done;
    double all_s = start_s;
    for (size_t c = 0; c < ncells; c++) {
        double need = qsb_tally_cell_need(t, c, precision_pct);
        double cost = t->costed[c] ? t->cost_s[c] / (double)t->costed[c] : 0;
        if (need > 0 && cost > 0) {
            double had = (double)(t->visits[c] + pending_visits(t, c));
            order[open++] = (cell_gain){c, need / (had * cost)};
            all_s += t->cost_max_s[c];
        }
    }
    if (all_s > left_s) /* the last processes: the cells that fit, best first */
        qsort(order, open, sizeof *order, by_gain_descending);
    double spend = start_s; /* at the longest a visit took: the budget is a bound */
    for (size_t k = 0; k < open; k++) {
        double cost = t->cost_max_s[order[k].cell];
        if (spend + cost <= left_s) {
            cells[chosen++] = order[k].cell;
            spend += cost;
        }
    }
done:
    free(order);
    return chosen;
}

void qsb_tally_pending(qsb_worker_tally *t, const size_t *cells, size_t ncells, int by)
{
    if (!cells) {
        t->pending_all = by > 0 ? t->pending_all + 1 : t->pending_all - (t->pending_all > 0);
        return;
    }
    for (size_t i = 0; t->pending && i < ncells; i++)
        t->pending[cells[i]] = by > 0 ? t->pending[cells[i]] + 1
                                      : t->pending[cells[i]] - (t->pending[cells[i]] > 0);
}

void qsb_tally_free(qsb_worker_tally *t)
{
    for (size_t r = 0; r < t->n; r++)
        qsb_results_free(&t->runs[r].run);
    free(t->runs);
    free(t->cost_s);
    free(t->costed);
    free(t->cost_max_s);
    free(t->visits);
    free(t->pending);
}

double qsb_results_timed_s(const qsb_results *r)
{
    double total = 0;
    for (size_t c = 0; c < r->ncells; c++)
        total += cell_timed_s(&r->context, &r->cells[c]);
    return total;
}
