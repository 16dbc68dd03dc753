/*
** The repetition policy, the batching rule and the remaining-time estimate (see adaptive.h).
** Pure: time comes in as an argument, nothing is read or printed.
*/
#include "adaptive.h"

#include <math.h>

#include "stats.h"

qsb_adaptive_policy qsb_adaptive_default_policy(void)
{
    qsb_adaptive_policy p = {QSB_ADAPTIVE_DEFAULT_PRECISION_PCT, QSB_ADAPTIVE_DEFAULT_MIN_REPS,
                             QSB_ADAPTIVE_DEFAULT_MAX_REPS, QSB_ADAPTIVE_DEFAULT_MAX_TIME_S};
    return p;
}

static bool all_equal(const double *x, size_t n)
{
    for (size_t i = 1; i < n; i++)
        if (x[i] != x[0])
            return false;
    return true;
}

int qsb_median_precision_pct(const double *x, size_t n, double *pct)
{
    *pct = INFINITY;
    if (n == 0)
        return 0;
    if (qsb_median_ci_rank(n) == 0) { /* too few samples for a 95% interval */
        if (all_equal(x, n) && x[0] > 0.0)
            *pct = 0.0;
        return 0;
    }
    qsb_summary s;
    if (qsb_summarize(x, n, &s) != 0)
        return -1;
    if (s.median_hi == s.median_lo)
        *pct = 0.0;
    else if (s.median > 0.0)
        *pct = (s.median_hi - s.median_lo) / 2.0 / s.median * 100.0;
    return 0;
}

static bool all_ratios_equal(const double *base, const double *cand, size_t n)
{
    for (size_t i = 1; i < n; i++)
        if (cand[i] * base[0] != cand[0] * base[i])
            return false;
    return true;
}

double qsb_ratio_precision_pct(const double *base, const double *cand, size_t n)
{
    double delta, lo, hi;
    if (n == 0 || qsb_paired_delta(base, cand, n, &delta, &lo, &hi) != 0)
        return INFINITY;
    double ratio = 1.0 + delta / 100.0;
    if (!(ratio > 0.0))
        return INFINITY;
    if (isnan(lo)) /* below 6 pairs: only identical ratios are known */
        return all_ratios_equal(base, cand, n) ? 0.0 : INFINITY;
    return (hi - lo) / 2.0 / ratio; /* lo and hi are in points: % of 1, made % of the ratio */
}

static int all_within_precision(const double *const *samples, size_t nalgos, bool paired,
                                size_t rounds, double target_pct, int *within)
{
    *within = 1;
    for (size_t a = 0; a < nalgos && *within; a++) {
        double pct;
        if (qsb_median_precision_pct(samples[a], rounds, &pct) != 0)
            return -1;
        *within = pct <= target_pct;
        if (*within && paired && a > 0)
            *within = qsb_ratio_precision_pct(samples[0], samples[a], rounds) <= target_pct;
    }
    return 0;
}

/* Is the budget spent, or would one more round of average length overrun it? */
static int budget_exhausted(const qsb_adaptive_policy *p, size_t rounds, double elapsed_s)
{
    if (p->max_time_s <= 0.0)
        return 0;
    double mean_round_s = rounds ? elapsed_s / (double)rounds : 0.0;
    return elapsed_s + mean_round_s > p->max_time_s;
}

int qsb_adaptive_decide(const qsb_adaptive_policy *policy, const double *const *samples,
                        size_t nalgos, bool paired, size_t rounds, double elapsed_s,
                        qsb_adaptive_decision *decision)
{
    decision->stop = false;
    decision->noisy = false;
    if (rounds < policy->min_reps || rounds == 0)
        return 0;
    int within;
    if (all_within_precision(samples, nalgos, paired, rounds, policy->precision_pct, &within) != 0)
        return -1;
    if (within) {
        decision->stop = true;
        return 0;
    }
    if ((policy->max_reps && rounds >= policy->max_reps) ||
        budget_exhausted(policy, rounds, elapsed_s)) {
        decision->stop = true;
        decision->noisy = true;
    }
    return 0;
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

/* Seconds per unit of work over the cells begun; 0 when none is. */
static double seconds_per_work(const qsb_cell_progress *cells, size_t n)
{
    double seconds = 0.0, work = 0.0;
    for (size_t i = 0; i < n; i++)
        if (cells[i].rounds > 0) {
            seconds += cells[i].rounds_s;
            work += cells[i].work * (double)cells[i].rounds;
        }
    return work > 0.0 ? seconds / work : 0.0;
}

static double cell_remaining(const qsb_cell_progress *c, const qsb_adaptive_policy *p,
                             double round_s)
{
    double rounds = (double)c->rounds;
    double to_min = fmax(0.0, (double)p->min_reps - rounds) * round_s;
    double left = to_min;
    if (p->max_time_s > 0.0)
        left = fmax(left, p->max_time_s - c->rounds_s);
    if (p->max_reps > 0)
        left = fmin(left, fmax(0.0, (double)p->max_reps - rounds) * round_s);
    else if (!(p->max_time_s > 0.0))
        left = to_min;
    return fmax(left, to_min);
}

double qsb_estimate_remaining(const qsb_cell_progress *cells, size_t n,
                              const qsb_adaptive_policy *policy)
{
    double per_work = seconds_per_work(cells, n);
    if (per_work <= 0.0)
        return -1.0;
    double left = 0.0;
    for (size_t i = 0; i < n; i++) {
        if (cells[i].done)
            continue;
        double round_s = cells[i].rounds > 0 ? cells[i].rounds_s / (double)cells[i].rounds
                                             : per_work * cells[i].work;
        left += cell_remaining(&cells[i], policy, round_s);
    }
    return left;
}
