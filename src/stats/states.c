/*
** States of a row's units: split at the widest gap, tested against one normal population by
** Monte Carlo, then estimated state by state (states.h).
*/
#include "states.h"

#include <math.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#include "stats.h"

/* ---- the separation test ---- */

static uint64_t next_random(uint64_t *state)
{
    uint64_t z = (*state += UINT64_C(0x9e3779b97f4a7c15));
    z = (z ^ (z >> 30)) * UINT64_C(0xbf58476d1ce4e5b9);
    z = (z ^ (z >> 27)) * UINT64_C(0x94d049bb133111eb);
    return z ^ (z >> 31);
}

/* A standard normal draw (Box-Muller; the uniforms in (0, 1]). */
static double next_normal(uint64_t *state)
{
    double u1 = ((double)(next_random(state) >> 11) + 1.0) / 9007199254740992.0;
    double u2 = (double)(next_random(state) >> 11) / 9007199254740992.0;
    return sqrt(-2.0 * log(u1)) * cos(2.0 * M_PI * u2);
}

typedef struct {
    size_t split;   /* first index of the upper side; 0 when no admissible split */
    double gap;     /* x[split] - x[split - 1] */
    double apart;   /* the sides' means apart in standard errors (pooled sd) */
    double spacing; /* the gap over the median spacing of neighbouring units */
} widest_split;

/* The sum of squared deviations of x[0..n) from their mean, *mean their mean. */
static double sum_of_squares(const double *x, size_t n, double *mean)
{
    double m = 0, ss = 0;
    for (size_t i = 0; i < n; i++)
        m += x[i];
    m /= (double)n;
    for (size_t i = 0; i < n; i++)
        ss += (x[i] - m) * (x[i] - m);
    *mean = m;
    return ss;
}

/* x over y, INFINITY when y is 0 and x is not. */
static double ratio_of(double x, double y)
{
    return y > 0 ? x / y : (x > 0 ? INFINITY : 0);
}

/* The widest gap of sorted x[0..n) with min_side values on each side (the first of equal
** ones) and its two scores: the difference of the sides' means over its standard error,
** (m1 - m0) / (s * sqrt(1/k + 1/(n - k))), which sees two groups; and the gap over the median
** of the n - 1 spacings x[i+1] - x[i], which sees several tight groups whose sides, taken
** whole, scatter as widely as one population would. scratch holds n doubles. */
static widest_split widest_gap_of(const double *x, size_t n, size_t min_side, double *scratch)
{
    widest_split w = {0, 0, 0, 0};
    for (size_t k = min_side; k + min_side <= n; k++)
        if (w.split == 0 || x[k] - x[k - 1] > w.gap) {
            w.split = k;
            w.gap = x[k] - x[k - 1];
        }
    if (w.split == 0)
        return w;
    size_t k = w.split;
    double m0, m1;
    double ss = sum_of_squares(x, k, &m0) + sum_of_squares(x + k, n - k, &m1);
    w.apart = ratio_of(m1 - m0, sqrt(ss / (double)(n - 2) * (1.0 / (double)k +
                                                            1.0 / (double)(n - k))));
    for (size_t i = 0; i + 1 < n; i++)
        scratch[i] = x[i + 1] - x[i];
    qsb_sort_doubles(scratch, n - 1);
    w.spacing = ratio_of(w.gap, qsb_median_of_sorted(scratch, n - 1));
    return w;
}

/* The null scores of n units split with min_side on each side: QSB_STATES_NULL_DRAWS sets of
** n normal draws from QSB_STATES_SEED, split at their widest gap, each score sorted. They
** depend on n and min_side alone, and a compare of millions of rows asks the test of every
** row thrice: each pair's are drawn once in a process, in one of NULL_SLOTS slots (n modulo
** the slots; a row of another pair in the slot draws its own anew). Static, not allocated:
** the test cannot fail. */
#define NULL_SLOTS 64
typedef struct {
    size_t n, min_side; /* n 0: not drawn */
    double apart[QSB_STATES_NULL_DRAWS], spacing[QSB_STATES_NULL_DRAWS];
} null_scores;
static null_scores null_cache[NULL_SLOTS];

static const null_scores *null_scores_of(size_t n, size_t min_side, double *scratch)
{
    null_scores *z = &null_cache[n % NULL_SLOTS];
    if (z->n == n && z->min_side == min_side)
        return z;
    uint64_t state = QSB_STATES_SEED;
    for (size_t d = 0; d < QSB_STATES_NULL_DRAWS; d++) {
        for (size_t i = 0; i < n; i++)
            scratch[i] = next_normal(&state);
        qsb_sort_doubles(scratch, n);
        widest_split null = widest_gap_of(scratch, n, min_side, scratch + n);
        z->apart[d] = null.apart;
        z->spacing[d] = null.spacing;
    }
    qsb_sort_doubles(z->apart, QSB_STATES_NULL_DRAWS);
    qsb_sort_doubles(z->spacing, QSB_STATES_NULL_DRAWS);
    z->n = n;
    z->min_side = min_side;
    return z;
}

/* How many of the sorted scores are at or above v. */
static size_t at_or_above(const double *sorted, double v)
{
    size_t lo = 0, hi = QSB_STATES_NULL_DRAWS;
    while (lo < hi) {
        size_t mid = lo + (hi - lo) / 2;
        if (sorted[mid] < v)
            lo = mid + 1;
        else
            hi = mid;
    }
    return QSB_STATES_NULL_DRAWS - lo;
}

/* Whether the split w of n units is rare among n normal draws split the same way: either
** score's Monte Carlo p-value, (1 + draws at or above it) / (1 + all draws), under half of
** QSB_STATES_ALPHA (Bonferroni over the two). scratch holds 2n doubles. */
static bool split_is_rare(const widest_split *w, size_t n, size_t min_side, double *scratch)
{
    const null_scores *z = null_scores_of(n, min_side, scratch);
    double limit = QSB_STATES_ALPHA / 2 * (QSB_STATES_NULL_DRAWS + 1) - 1; /* at or above: not rare */
    return !((double)at_or_above(z->apart, w->apart) >= limit &&
             (double)at_or_above(z->spacing, w->spacing) >= limit);
}

/* Splits sorted logs x[0..n) recursively, each state at least min_side values, adding each
** accepted split's log bound to bounds[*count - 1] (*count counts states, at most
** QSB_STATES_MAX). scratch holds 2n doubles. */
static void split_states(const double *x, size_t n, size_t min_side, double *scratch,
                         double *bounds, size_t *count)
{
    if (*count >= QSB_STATES_MAX || n < 2 * min_side)
        return;
    widest_split w = widest_gap_of(x, n, min_side, scratch);
    if (w.split == 0 || w.gap < QSB_STATE_MIN_GAP || !split_is_rare(&w, n, min_side, scratch))
        return;
    bounds[(*count)++ - 1] = (x[w.split - 1] + x[w.split]) / 2.0;
    split_states(x, w.split, min_side, scratch, bounds, count);
    split_states(x + w.split, n - w.split, min_side, scratch, bounds, count);
}

/* The fewest units a state of a row of u units holds: QSB_STATE_MIN_UNITS, and at least
** QSB_STATE_MIN_SHARE of them. A busy host slows a few processes by chance; they are
** outliers, not a speed the host keeps, and a group of them would read as a state. */
static size_t min_state_units(size_t u)
{
    size_t share = (size_t)ceil(QSB_STATE_MIN_SHARE * (double)u - 1e-9);
    return share > QSB_STATE_MIN_UNITS ? share : QSB_STATE_MIN_UNITS;
}

/* The slowed units (qsb_states.slowed) of sorted logs g[0..n), the slowest group: none
** where they are as many as a state holds (min_side), or the group too small for a spread.
** scratch holds n doubles. */
static size_t slowed_units(const double *g, size_t n, size_t min_side, double *scratch)
{
    if (n < 2 * QSB_STATE_MIN_UNITS)
        return 0;
    double m = qsb_median_of_sorted(g, n);
    double limit = m + fmax(QSB_STATE_MIN_GAP,
                            QSB_SLOWED_SPREADS * qsb_robust_sd(g, n, m, scratch));
    size_t slowed = 0;
    while (slowed < n && g[n - 1 - slowed] > limit)
        slowed++;
    return slowed < min_side ? slowed : 0;
}

static int compare_doubles(const void *pa, const void *pb)
{
    double a = *(const double *)pa, b = *(const double *)pb;
    return (a > b) - (a < b);
}

int qsb_states_of_medians(const double *medians, size_t u, qsb_states *out)
{
    memset(out, 0, sizeof *out);
    size_t min_side = min_state_units(u);
    if (u < 2 * min_side)
        return 0;
    double *x = malloc(3 * u * sizeof *x);
    if (!x)
        return -1;
    for (size_t i = 0; i < u; i++) {
        if (!(medians[i] > 0) || !isfinite(medians[i])) {
            free(x);
            return 0;
        }
        x[i] = log(medians[i]);
    }
    qsb_sort_doubles(x, u);
    double bounds[QSB_STATES_MAX];
    size_t count = 1;
    split_states(x, u, min_side, x + u, bounds, &count);
    if (count > 1) {
        qsort(bounds, count - 1, sizeof *bounds, compare_doubles);
        out->count = count;
        for (size_t k = 0; k + 1 < count; k++)
            out->bound[k] = exp(bounds[k]);
        for (size_t i = 0; i < u; i++)
            out->units[qsb_state_index(out, medians[i])]++;
    }
    size_t slowest = count > 1 ? out->units[count - 1] : u;
    out->slowed = slowed_units(x + u - slowest, slowest, min_side, x + u);
    free(x);
    return 0;
}

size_t qsb_state_index(const qsb_states *s, double median)
{
    size_t k = 0;
    while (k + 1 < s->count && !(median < s->bound[k]))
        k++;
    return k;
}

double qsb_states_widest_pct(const qsb_states *s, const double *speed, const double *x, size_t u)
{
    double widest = 0;
    for (size_t state = 0; state < s->count; state++) {
        size_t k = 0;
        double mean = 0, ss = 0;
        for (size_t j = 0; j < u; j++)
            if (qsb_state_index(s, speed[j]) == state) {
                if (!(x[j] > 0) || !isfinite(x[j]))
                    return INFINITY;
                mean += log(x[j]);
                k++;
            }
        if (k < QSB_STATE_MIN_UNITS)
            continue;
        mean /= (double)k;
        for (size_t j = 0; j < u; j++)
            if (qsb_state_index(s, speed[j]) == state)
                ss += (log(x[j]) - mean) * (log(x[j]) - mean);
        double h = qsb_t_quantile(0.975, (double)(k - 1)) * sqrt(ss / (double)(k - 1) / (double)k);
        widest = fmax(widest, expm1(h) * 100.0);
    }
    return widest;
}

/* ---- per unit ---- */

typedef struct {
    uint32_t unit;
    size_t index;
} unit_sample;

static int compare_unit_samples(const void *pa, const void *pb)
{
    const unit_sample *a = pa, *b = pb;
    if (a->unit != b->unit)
        return (a->unit > b->unit) - (a->unit < b->unit);
    return (a->index > b->index) - (a->index < b->index);
}

/* The median of the finite values of x[0..n) (reordered); NAN when none. */
static double finite_median(double *x, size_t n)
{
    size_t m = 0;
    for (size_t i = 0; i < n; i++)
        if (isfinite(x[i]))
            x[m++] = x[i];
    qsb_sort_doubles(x, m);
    return m ? qsb_median_of_sorted(x, m) : NAN;
}

#define SERIES 3 /* by, values, ratios */

static int compare_units(const void *pa, const void *pb)
{
    uint32_t a = *(const uint32_t *)pa, b = *(const uint32_t *)pb;
    return (a > b) - (a < b);
}

/* Per unit, in ascending unit order, the medians of the series by[], values[] and (with base)
** values[i] / base[i] into med[SERIES * unit + s]; *count units. Returns false when out of
** memory. */
static bool unit_medians(const double *by, const double *values, const double *base,
                         const uint32_t *units, size_t n, double *med, size_t *count)
{
    *count = 0;
    unit_sample *order = malloc((n ? n : 1) * sizeof *order);
    double *scratch = malloc((n ? n : 1) * sizeof *scratch);
    if (!order || !scratch) {
        free(order);
        free(scratch);
        return false;
    }
    for (size_t i = 0; i < n; i++)
        order[i] = (unit_sample){units[i], i};
    qsort(order, n, sizeof *order, compare_unit_samples);
    for (size_t start = 0, end; start < n; start = end) {
        for (end = start; end < n && order[end].unit == order[start].unit; end++)
            ;
        for (int s = 0; s < SERIES; s++) {
            for (size_t j = start; j < end; j++) {
                size_t i = order[j].index;
                double v = s == 0 ? by[i] : s == 1 ? values[i] : NAN;
                if (s == 2 && base && base[i] > 0)
                    v = values[i] / base[i];
                scratch[j - start] = v;
            }
            med[SERIES * *count + (size_t)s] = finite_median(scratch, end - start);
        }
        (*count)++;
    }
    free(order);
    free(scratch);
    return true;
}

int qsb_states_of_units(const qsb_states *s, const double *by, const uint32_t *units, size_t n,
                        uint8_t *unit_state, size_t units_cap)
{
    memset(unit_state, QSB_NO_STATE, units_cap);
    if (!units || n == 0)
        return 0;
    double *med = malloc(SERIES * n * sizeof *med);
    uint32_t *ids = malloc(n * sizeof *ids);
    size_t u = 0;
    bool ok = med && ids && unit_medians(by, by, NULL, units, n, med, &u);
    if (ok) { /* unit_medians goes in ascending unit order: the distinct units, sorted */
        for (size_t i = 0; i < n; i++)
            ids[i] = units[i];
        qsort(ids, n, sizeof *ids, compare_units);
        for (size_t i = 0, j = 0; i < n; i++)
            if (i == 0 || ids[i] != ids[i - 1]) {
                double speed = med[SERIES * j++];
                if (ids[i] < units_cap && speed > 0 && isfinite(speed))
                    unit_state[ids[i]] = (uint8_t)qsb_state_index(s, speed);
            }
    }
    free(med);
    free(ids);
    return ok ? 0 : -1;
}

int qsb_states_of(const double *values, const uint32_t *units, size_t n, qsb_states *out)
{
    memset(out, 0, sizeof *out);
    if (!units || n == 0)
        return 0;
    double *med = malloc(SERIES * n * sizeof *med);
    size_t u;
    if (!med || !unit_medians(values, values, NULL, units, n, med, &u)) {
        free(med);
        return -1;
    }
    size_t m = 0;
    for (size_t k = 0; k < u; k++)
        if (isfinite(med[SERIES * k]))
            med[m++] = med[SERIES * k]; /* compacted in place: m <= SERIES * k */
    int status = qsb_states_of_medians(med, m, out);
    free(med);
    return status;
}

/* The t interval exp(m +- t(0.975, k-1) s / sqrt(k)) of the positive values x[0..k) on the
** log scale; NANs under QSB_STATE_MIN_UNITS values or with one not positive. */
static void t_interval_of_logs(const double *x, size_t k, double *lo, double *hi)
{
    *lo = *hi = NAN;
    if (k < QSB_STATE_MIN_UNITS)
        return;
    double mean = 0, ss = 0;
    for (size_t i = 0; i < k; i++) {
        if (!(x[i] > 0) || !isfinite(x[i]))
            return;
        mean += log(x[i]);
    }
    mean /= (double)k;
    for (size_t i = 0; i < k; i++)
        ss += (log(x[i]) - mean) * (log(x[i]) - mean);
    double h = qsb_t_quantile(0.975, (double)(k - 1)) * sqrt(ss / (double)(k - 1) / (double)k);
    *lo = exp(mean - h);
    *hi = exp(mean + h);
}

/* Share, median and delta of one state from its units' medians and log ratios. */
static void estimate_state(double *medians, double *log_ratios, size_t k, size_t total,
                           bool paired, qsb_state_estimate *e)
{
    *e = (qsb_state_estimate){(uint32_t)k, (double)k / (double)total, NAN, NAN, NAN,
                              NAN, NAN, NAN, {0, NAN, NAN}};
    t_interval_of_logs(medians, k, &e->median_lo, &e->median_hi);
    e->median = finite_median(medians, k);
    size_t r = 0;
    for (size_t i = 0; i < k; i++)
        if (isfinite(log_ratios[i]))
            log_ratios[r++] = log_ratios[i];
    if (!paired || r == 0)
        return;
    double mean, ss = sum_of_squares(log_ratios, r, &mean);
    e->delta_pct = expm1(mean) * 100.0;
    e->log_ratios = (qsb_unit_spread){r, mean, r > 1 ? sqrt(ss / (double)(r - 1)) : NAN};
    if (r < QSB_STATE_MIN_UNITS)
        return;
    double h = qsb_t_quantile(0.975, (double)(r - 1)) * sqrt(ss / (double)(r - 1) / (double)r);
    e->delta_lo = expm1(mean - h) * 100.0;
    e->delta_hi = expm1(mean + h) * 100.0;
}

int qsb_state_estimates(const qsb_states *s, const double *by, const double *values,
                        const double *base, const uint32_t *units, size_t n,
                        qsb_state_estimate *out)
{
    if (s->count < 2 || !units)
        return -1;
    double *med = malloc(SERIES * (n ? n : 1) * sizeof *med);
    double *group = malloc(2 * (n ? n : 1) * sizeof *group);
    size_t u;
    if (!med || !group || !unit_medians(by, values, base, units, n, med, &u)) {
        free(med);
        free(group);
        return -1;
    }
    size_t total = 0;
    for (size_t j = 0; j < u; j++)
        total += med[SERIES * j] > 0 && isfinite(med[SERIES * j]);
    for (size_t state = 0; state < s->count; state++) {
        size_t k = 0;
        for (size_t j = 0; j < u; j++) {
            double speed = med[SERIES * j];
            if (!(speed > 0) || !isfinite(speed) || qsb_state_index(s, speed) != state)
                continue;
            double ratio = med[SERIES * j + 2];
            group[k] = med[SERIES * j + 1];
            group[n + k] = ratio > 0 ? log(ratio) : NAN;
            k++;
        }
        estimate_state(group, group + n, k, total ? total : 1, base != NULL, &out[state]);
    }
    free(med);
    free(group);
    return 0;
}

double qsb_states_delta_p(const qsb_state_estimate *est, size_t n)
{
    qsb_unit_spread sets[QSB_STATES_MAX];
    size_t k = 0;
    for (size_t i = 0; i < n && i < QSB_STATES_MAX; i++)
        if (est[i].log_ratios.units >= QSB_STATE_MIN_UNITS)
            sets[k++] = est[i].log_ratios;
    return k >= 2 ? qsb_welch_anova_p(sets, k) : NAN;
}

/* The index of speeds[0..n) nearest to x on the log scale. */
static size_t nearest(double x, const double *speeds, size_t n)
{
    size_t best = 0;
    for (size_t k = 1; k < n; k++)
        if (fabs(log(speeds[k] / x)) < fabs(log(speeds[best] / x)))
            best = k;
    return best;
}

void qsb_match_states(const double *a, size_t na, const double *b, size_t nb,
                      qsb_state_pairs *out)
{
    memset(out, 0, sizeof *out);
    if (na == 1 && nb == 1) {
        out->n = 1;
        return;
    }
    bool b_matched[QSB_STATES_MAX] = {false};
    for (size_t i = 0; i < na; i++) {
        size_t j = nb ? nearest(a[i], b, nb) : 0;
        if (nb && nearest(b[j], a, na) == i && a[i] > 0 && b[j] > 0 &&
            fabs(log(b[j] / a[i])) <= log(QSB_STATE_MATCH_RATIO)) {
            out->base[out->n] = (uint8_t)i;
            out->cand[out->n++] = (uint8_t)j;
            b_matched[j] = true;
        } else {
            out->only_base++;
        }
    }
    for (size_t j = 0; j < nb; j++)
        out->only_new += !b_matched[j];
}
