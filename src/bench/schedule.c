/*
** The run's schedule: which cells each sweep visits under the time budget (see schedule.h).
*/
#include "schedule.h"

#include <math.h>
#include <stdlib.h>

/* The cells below the minimum: every cell without a unit, and under a budget the others
** while the seconds left hold their visits (the budget holds even where the estimate that
** planned the minimum was short: plan.h). */
static size_t below_minimum(const qsb_schedule_policy *p, const qsb_cell_state *cells,
                            size_t n, double remaining_s, size_t *order)
{
    size_t count = 0;
    double left = remaining_s;
    for (size_t i = 0; i < n; i++) {
        bool due = cells[i].units < p->min_units;
        bool fits = cells[i].units == 0 || p->budget_s <= 0 || cells[i].visit_s <= left;
        if (due && fits) {
            order[count++] = i;
            left -= cells[i].units > 0 ? cells[i].visit_s : 0.0;
        }
    }
    return count;
}

static const qsb_cell_state *sort_cells; /* qsort's context: the order is built once a sweep */

static int widest_first(const void *pa, const void *pb)
{
    double a = sort_cells[*(const size_t *)pa].precision_pct;
    double b = sort_cells[*(const size_t *)pb].precision_pct;
    if (a != b)
        return (a < b) - (a > b);
    size_t ia = *(const size_t *)pa, ib = *(const size_t *)pb;
    return (ia > ib) - (ia < ib); /* ties in matrix order */
}

size_t qsb_schedule_sweep(const qsb_schedule_policy *p, const qsb_cell_state *cells, size_t n,
                          double remaining_s, size_t *order)
{
    size_t count = below_minimum(p, cells, n, remaining_s, order);
    if (count > 0 || p->budget_s <= 0)
        return count;
    size_t wanted = 0;
    for (size_t i = 0; i < n; i++)
        if (!(cells[i].precision_pct <= p->precision_pct) && cells[i].units < p->max_units)
            order[wanted++] = i;
    sort_cells = cells;
    qsort(order, wanted, sizeof *order, widest_first);
    double left = remaining_s;
    for (size_t k = 0; k < wanted; k++) {
        double cost = cells[order[k]].visit_s;
        if (cost <= left) { /* a cell too costly for what is left leaves room for cheaper ones */
            order[count++] = order[k];
            left -= cost;
        }
    }
    return count;
}

bool qsb_schedule_revisits(const qsb_schedule_policy *p)
{
    return p->min_units > 1 || p->budget_s > 0;
}

size_t qsb_reps_rounds_of_unit(size_t reps, size_t min_units, size_t unit)
{
    size_t units = reps < min_units ? reps : min_units;
    if (unit >= units)
        return 0;
    return reps / units + (unit < reps % units);
}

double qsb_schedule_minimum_s(const double *round_s, const double *first_s, size_t n,
                              size_t min_units, double slice_s)
{
    double total = 0;
    for (size_t i = 0; i < n; i++)
        total += first_s[i] + (double)min_units * fmax(slice_s, round_s[i]);
    return total;
}

unsigned long qsb_batch_count(double resolution, double one_sort, double min_sample)
{
    double target = fmax(QSB_BATCH_RESOLUTION_FACTOR * resolution, min_sample);
    double per_sort = one_sort > 0.0 ? one_sort : resolution;
    if (!(per_sort > 0.0) || !(target > per_sort))
        return 1;
    double batch = ceil(target / per_sort);
    return batch >= (double)QSB_BATCH_MAX ? QSB_BATCH_MAX : (unsigned long)batch;
}

bool qsb_sample_slowed(double fastest, size_t n, double sample, double pct)
{
    return pct > 0 && n >= QSB_SLOWED_MIN_SAMPLES && sample > fastest * (1 + pct / 100);
}
