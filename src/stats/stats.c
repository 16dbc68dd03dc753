/*
** Pure statistics over samples (see stats.h): no I/O, no clock, no global state.
**
** - Medians and order statistics come from copies sorted with libc's qsort, never with an
**   algorithm under test.
** - The standard deviation is the sample one (n - 1), computed in two passes (mean first,
**   then squared deviations from it), so large offsets such as 1e9 + {1,2,3} lose nothing.
** - The 95% interval of the median is distribution-free, by order statistics: the number of
**   samples below the true median is Binomial(n, 1/2), so [x(l), x(n+1-l)] covers it with
**   probability 1 - 2 P(B <= l - 1). l is the largest rank keeping that >= 95%, from the exact
**   binomial for n <= QSB_CI_EXACT_MAX and the normal approximation (with continuity
**   correction) above. No such interval exists for n < 6.
** - Outliers by the median-absolute-deviation rule: |x - median| > 3 * 1.4826 * MAD.
** - Mann-Whitney U, two-sided: exact null distribution when both samples have at most
**   QSB_MW_EXACT_MAX values and there are no ties, otherwise the normal approximation with
**   tie correction and continuity correction.
*/
#include "stats.h"

#include <math.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#define QSB_CI_EXACT_MAX 200
#define QSB_MW_EXACT_MAX 20
#define Z_975 1.959963984540054 /* the standard normal's 97.5% quantile */
#define MAD_SCALE 1.4826        /* MAD -> standard deviation for normal data */
#define MAD_CUTOFF 3.0

static int compare_doubles(const void *pa, const void *pb)
{
    double a = *(const double *)pa, b = *(const double *)pb;
    return (a > b) - (a < b);
}

void qsb_sort_doubles(double *x, size_t n)
{
    qsort(x, n, sizeof *x, compare_doubles);
}

static double *sorted_copy(const double *x, size_t n)
{
    double *copy = malloc((n ? n : 1) * sizeof *copy);
    if (!copy)
        return NULL;
    memcpy(copy, x, n * sizeof *copy);
    qsb_sort_doubles(copy, n);
    return copy;
}

double qsb_median_of_sorted(const double *sorted, size_t n)
{
    if (n == 0)
        return NAN;
    if (n % 2)
        return sorted[n / 2];
    return 0.5 * sorted[n / 2 - 1] + 0.5 * sorted[n / 2];
}

/* P(B <= k) for B ~ Binomial(n, 1/2), by the pmf recurrence from 2^-n (normal for n <= 1022). */
static double binomial_half_cdf(size_t n, size_t k)
{
    double pmf = ldexp(1.0, -(int)n), cdf = pmf;
    for (size_t i = 1; i <= k; i++) {
        pmf *= (double)(n - i + 1) / (double)i;
        cdf += pmf;
    }
    return cdf;
}

size_t qsb_median_ci_rank(size_t n)
{
    if (n < 6)
        return 0;
    if (n > QSB_CI_EXACT_MAX) {
        double l = floor((double)n / 2.0 + 0.5 - Z_975 * sqrt((double)n) / 2.0);
        return l < 1.0 ? 0 : (size_t)l;
    }
    size_t l = 0;
    while (l + 1 <= n / 2 && binomial_half_cdf(n, l) <= 0.025)
        l++;
    return l;
}

/* The interval's ends on sorted data; NAN when no 95% interval exists for this n. */
static void median_interval_of_sorted(const double *sorted, size_t n, double *lo, double *hi)
{
    size_t l = qsb_median_ci_rank(n);
    *lo = l ? sorted[l - 1] : NAN;
    *hi = l ? sorted[n - l] : NAN;
}

static double mean_of(const double *x, size_t n)
{
    double sum = 0.0;
    for (size_t i = 0; i < n; i++)
        sum += x[i];
    return sum / (double)n;
}

static double stddev_of(const double *x, size_t n, double mean)
{
    if (n < 2)
        return NAN;
    double sum = 0.0;
    for (size_t i = 0; i < n; i++)
        sum += (x[i] - mean) * (x[i] - mean);
    return sqrt(sum / (double)(n - 1));
}

/* Counts values farther than 3 * 1.4826 * MAD from the median; `scratch` has n slots. */
static unsigned mad_outliers(const double *x, size_t n, double median, double *scratch)
{
    for (size_t i = 0; i < n; i++)
        scratch[i] = fabs(x[i] - median);
    qsb_sort_doubles(scratch, n);
    double limit = MAD_CUTOFF * MAD_SCALE * qsb_median_of_sorted(scratch, n);
    unsigned outliers = 0;
    for (size_t i = 0; i < n; i++)
        outliers += fabs(x[i] - median) > limit;
    return outliers;
}

int qsb_summarize(const double *x, size_t n, qsb_summary *out)
{
    out->min = out->median = out->mean = out->stddev = out->cv = NAN;
    out->median_lo = out->median_hi = NAN;
    out->outliers = 0;
    if (n == 0)
        return 0;
    double *sorted = sorted_copy(x, n);
    if (!sorted)
        return -1;
    out->min = sorted[0];
    out->median = qsb_median_of_sorted(sorted, n);
    median_interval_of_sorted(sorted, n, &out->median_lo, &out->median_hi);
    out->mean = mean_of(x, n);
    out->stddev = stddev_of(x, n, out->mean);
    out->cv = out->mean != 0.0 ? out->stddev / out->mean : NAN;
    out->outliers = mad_outliers(x, n, out->median, sorted); /* reuses the copy */
    free(sorted);
    return 0;
}

int qsb_paired_delta(const double *base, const double *cand, size_t n, double *pct,
                     double *lo, double *hi)
{
    double *ratios = malloc((n ? n : 1) * sizeof *ratios);
    if (!ratios)
        return -1;
    size_t m = 0;
    for (size_t i = 0; i < n; i++)
        if (base[i] > 0.0 && isfinite(cand[i]))
            ratios[m++] = cand[i] / base[i];
    if (m == 0) {
        free(ratios);
        return -1;
    }
    qsb_sort_doubles(ratios, m);
    /* x -> (x - 1) * 100 is increasing and affine: it commutes with medians and ranks. */
    *pct = (qsb_median_of_sorted(ratios, m) - 1.0) * 100.0;
    median_interval_of_sorted(ratios, m, lo, hi);
    *lo = (*lo - 1.0) * 100.0;
    *hi = (*hi - 1.0) * 100.0;
    free(ratios);
    return 0;
}

/* --- Mann-Whitney U --- */

typedef struct {
    double value;
    int from_a;
} tagged_value;

static int compare_tagged(const void *pa, const void *pb)
{
    const tagged_value *a = pa, *b = pb;
    return (a->value > b->value) - (a->value < b->value);
}

/* Ranks the pooled sample (ties get their mid-rank). Gives U of sample a, and the tie term
** sum(t^3 - t) over groups of t tied values. */
static int rank_pooled(const double *a, size_t na, const double *b, size_t nb, double *u_a,
                       double *tie_term)
{
    size_t n = na + nb;
    tagged_value *pool = malloc(n * sizeof *pool);
    if (!pool)
        return -1;
    for (size_t i = 0; i < na; i++)
        pool[i] = (tagged_value){a[i], 1};
    for (size_t i = 0; i < nb; i++)
        pool[na + i] = (tagged_value){b[i], 0};
    qsort(pool, n, sizeof *pool, compare_tagged);

    double rank_sum_a = 0.0, ties = 0.0;
    for (size_t start = 0; start < n;) {
        size_t end = start + 1;
        while (end < n && pool[end].value == pool[start].value)
            end++;
        double t = (double)(end - start);
        double mid_rank = (double)(start + 1 + end) / 2.0; /* ranks start+1 .. end */
        for (size_t i = start; i < end; i++)
            rank_sum_a += pool[i].from_a ? mid_rank : 0.0;
        ties += t * t * t - t;
        start = end;
    }
    free(pool);
    *u_a = rank_sum_a - (double)na * (double)(na + 1) / 2.0;
    *tie_term = ties;
    return 0;
}

/* P(U <= u) under the null hypothesis, exactly: the number of arrangements of m a's and n b's
** with U = k is the coefficient of q^k in the Gaussian binomial [m+n choose m]_q, built as
** the product over k = 1..m of (1 - q^(n+k)) / (1 - q^k); after each step the polynomial is
** [n+k choose k]_q, so every division is exact in integers (coefficients < C(40,20)). */
static double exact_u_cdf(size_t m, size_t n, size_t u)
{
    size_t degree = m * n;
    int64_t *count = calloc(degree + 1, sizeof *count);
    if (!count)
        return NAN;
    count[0] = 1;
    for (size_t k = 1; k <= m; k++) {
        for (size_t i = degree; i >= n + k; i--) /* times (1 - q^(n+k)) */
            count[i] -= count[i - (n + k)];
        for (size_t i = k; i <= degree; i++)     /* divided by (1 - q^k) */
            count[i] += count[i - k];
    }
    double below = 0.0, total = 0.0;
    for (size_t i = 0; i <= degree; i++) {
        total += (double)count[i];
        below += i <= u ? (double)count[i] : 0.0;
    }
    free(count);
    return below / total;
}

double qsb_min_attainable_p(size_t m, size_t n)
{
    if (m == 0 || n == 0)
        return 1.0;
    double ways = 1.0; /* C(m + n, m), the equally likely arrangements under the null */
    for (size_t i = 1; i <= m; i++)
        ways = ways * (double)(n + i) / (double)i;
    return fmin(1.0, 2.0 / ways);
}

int qsb_change_interval(const double *base, size_t nb, const double *cand, size_t nc,
                        double *lo_pct, double *hi_pct)
{
    if (nb == 0 || nc == 0 || nb > QSB_CHANGE_MAX_PAIRS / nc)
        return -1;
    double mn = (double)nb * (double)nc;
    double c = floor(mn / 2.0 + 0.5 - Z_975 * sqrt(mn * (double)(nb + nc + 1) / 12.0));
    if (c < 1.0)
        return -1;
    size_t pairs = nb * nc;
    double *ratio = malloc(pairs * sizeof *ratio);
    if (!ratio)
        return -1;
    int status = 0;
    for (size_t i = 0; i < nb && status == 0; i++)
        for (size_t j = 0; j < nc && status == 0; j++) {
            if (!(base[i] > 0.0) || !(cand[j] > 0.0))
                status = -1;
            else
                ratio[i * nc + j] = cand[j] / base[i];
        }
    if (status == 0) {
        qsb_sort_doubles(ratio, pairs);
        size_t k = (size_t)c; /* 1-based rank of the lower end; the upper is pairs + 1 - k */
        *lo_pct = (ratio[k - 1] - 1.0) * 100.0;
        *hi_pct = (ratio[pairs - k] - 1.0) * 100.0;
    }
    free(ratio);
    return status;
}

double qsb_mann_whitney_p(const double *a, size_t na, const double *b, size_t nb)
{
    if (na == 0 || nb == 0)
        return NAN;
    double u, ties;
    if (rank_pooled(a, na, b, nb, &u, &ties) != 0)
        return NAN;
    double mn = (double)na * (double)nb;
    double u_low = fmin(u, mn - u); /* the null distribution is symmetric about mn / 2 */
    if (na <= QSB_MW_EXACT_MAX && nb <= QSB_MW_EXACT_MAX && ties == 0.0)
        return fmin(1.0, 2.0 * exact_u_cdf(na, nb, (size_t)u_low));

    double n = (double)(na + nb);
    double variance = mn / 12.0 * ((n + 1.0) - ties / (n * (n - 1.0)));
    if (variance <= 0.0) /* every value tied: no evidence of a difference */
        return 1.0;
    double z = fmax(0.0, fabs(u - mn / 2.0) - 0.5) / sqrt(variance);
    return fmin(1.0, erfc(z / sqrt(2.0)));
}

/* --- units: the independent level of the experiment --- */

static int compare_unit_values(const void *pa, const void *pb)
{
    const double *a = pa, *b = pb; /* (unit, value) pairs */
    if (a[0] != b[0])
        return (a[0] > b[0]) - (a[0] < b[0]);
    return (a[1] > b[1]) - (a[1] < b[1]);
}

/* The logs of the units' medians, in the units' order, into logs (n long); *count gets how
** many units, *positive whether every median was positive (else its log is NAN). Returns
** false when out of memory. */
static bool unit_log_medians_ids(const double *values, const uint32_t *units, size_t n,
                                 double *logs, uint32_t *ids, size_t *count, bool *positive)
{
    *count = 0;
    *positive = true;
    double *pairs = malloc(2 * (n ? n : 1) * sizeof *pairs);
    if (!pairs)
        return false;
    size_t m = 0;
    for (size_t i = 0; i < n; i++)
        if (isfinite(values[i])) {
            pairs[2 * m] = (double)units[i];
            pairs[2 * m + 1] = values[i];
            m++;
        }
    qsort(pairs, m, 2 * sizeof *pairs, compare_unit_values);
    for (size_t start = 0, end; start < m; start = end) {
        for (end = start; end < m && pairs[2 * end] == pairs[2 * start]; end++)
            ;
        size_t k = end - start, mid = start + k / 2;
        double median = k % 2 ? pairs[2 * mid + 1]
                              : (pairs[2 * (mid - 1) + 1] + pairs[2 * mid + 1]) / 2.0;
        *positive &= median > 0;
        if (ids)
            ids[*count] = (uint32_t)pairs[2 * start];
        logs[(*count)++] = median > 0 ? log(median) : NAN;
    }
    free(pairs);
    return true;
}

static bool unit_log_medians(const double *values, const uint32_t *units, size_t n,
                             double *logs, size_t *count, bool *positive)
{
    return unit_log_medians_ids(values, units, n, logs, NULL, count, positive);
}

/* unit_log_medians into a new array *logs (n long, the caller frees it; NULL without units,
** *count 0 and *positive false then). Returns 0, or -1 when out of memory. */
static int unit_logs(const double *values, const uint32_t *units, size_t n, double **logs,
                     size_t *count, bool *positive)
{
    *logs = NULL;
    *count = 0;
    *positive = false;
    if (!units || n == 0)
        return 0;
    *logs = malloc(n * sizeof **logs);
    if (!*logs || !unit_log_medians(values, units, n, *logs, count, positive)) {
        free(*logs);
        *logs = NULL;
        return -1;
    }
    return 0;
}

int qsb_unit_spread_of(const double *values, const uint32_t *units, size_t n,
                       qsb_unit_spread *out)
{
    *out = (qsb_unit_spread){0, NAN, NAN};
    double *logs;
    size_t u;
    bool positive;
    if (unit_logs(values, units, n, &logs, &u, &positive) != 0)
        return -1;
    out->units = u;
    if (positive && u > 0) {
        double mean = mean_of(logs, u);
        out->log_mean = mean;
        out->log_sd = u > 1 ? stddev_of(logs, u, mean) : NAN;
    }
    free(logs);
    return 0;
}

int qsb_unit_median_order_interval(const double *values, const uint32_t *units, size_t n,
                                   double *lo, double *hi)
{
    *lo = *hi = NAN;
    double *logs;
    size_t u;
    bool positive;
    if (unit_logs(values, units, n, &logs, &u, &positive) != 0)
        return -1;
    if (positive && u > 0) {
        qsb_sort_doubles(logs, u);
        median_interval_of_sorted(logs, u, lo, hi);
        *lo = exp(*lo); /* NAN stays NAN */
        *hi = exp(*hi);
    }
    free(logs);
    return 0;
}

int qsb_drift_add(qsb_drift *d, const double *values, const uint32_t *units, size_t n)
{
    double *logs;
    size_t u;
    bool positive;
    if (unit_logs(values, units, n, &logs, &u, &positive) != 0)
        return -1;
    if (positive && u >= QSB_DRIFT_MIN_UNITS) {
        size_t first = u / 2, second = u - first;
        double m1 = mean_of(logs, first), m2 = mean_of(logs + first, second);
        double var = stddev_of(logs, u, mean_of(logs, u));
        var *= var;
        /* two block means: their variance is (m1 - m2)^2 / 2; independent units predict the
        ** mean of var / block size */
        d->between += (m1 - m2) * (m1 - m2) / 2.0;
        d->expected += var * (1.0 / (double)first + 1.0 / (double)second) / 2.0;
        d->rows++;
    }
    free(logs);
    return 0;
}

double qsb_drift_factor(const qsb_drift *d)
{
    if (d->rows == 0 || !(d->expected > 0.0))
        return 1.0;
    return sqrt(fmax(1.0, d->between / d->expected));
}

void qsb_widen_interval(double center, double *lo, double *hi, double factor)
{
    if (!(center > 0.0) || !(*lo > 0.0) || !(*hi > 0.0) || factor == 1.0)
        return;
    *lo = center * pow(*lo / center, factor);
    *hi = center * pow(*hi / center, factor);
}

double qsb_unit_half_width(const qsb_unit_spread *s)
{
    if (s->units < QSB_MIN_UNITS || !isfinite(s->log_sd))
        return NAN;
    return qsb_t_quantile(0.975, (double)(s->units - 1)) * s->log_sd / sqrt((double)s->units);
}

double qsb_unit_precision_pct(const qsb_unit_spread *s)
{
    double h = qsb_unit_half_width(s);
    return isfinite(h) ? (exp(h) - 1.0) * 100.0 : INFINITY;
}

/* t(0.975, U - 1) / sqrt(U): how a unit-level interval's half-width falls with U units. */
static double width_factor(size_t units)
{
    return qsb_t_quantile(0.975, (double)(units - 1)) / sqrt((double)units);
}

size_t qsb_units_for_precision(size_t units, double pct, double target_pct, size_t max_units)
{
    if (units < 2 || !(pct > 0) || !isfinite(pct) || !(target_pct > 0) || !isfinite(target_pct))
        return 0;
    /* The log half-width is factor(U) * sd: the same sd at the target. */
    double goal = log1p(target_pct / 100.0) / log1p(pct / 100.0) * width_factor(units);
    size_t lo = units, hi = units;
    while (hi < max_units && width_factor(hi) > goal) { /* doubling, then bisection */
        lo = hi;
        hi = hi * 2 < max_units ? hi * 2 : max_units;
    }
    if (width_factor(hi) > goal)
        return max_units;
    while (hi - lo > 1) {
        size_t mid = lo + (hi - lo) / 2;
        if (width_factor(mid) > goal)
            lo = mid;
        else
            hi = mid;
    }
    return width_factor(lo) <= goal ? lo : hi;
}

int qsb_paired_ratios(const double *base, const double *cand, size_t n, double *ratios)
{
    size_t valid = 0;
    for (size_t i = 0; i < n; i++) {
        bool ok = base[i] > 0.0 && isfinite(cand[i]);
        ratios[i] = ok ? cand[i] / base[i] : NAN;
        valid += ok;
    }
    return valid > 0 ? 0 : -1;
}

int qsb_paired_ratio_spread(const double *base, const double *cand, const uint32_t *units,
                            size_t n, qsb_unit_spread *out)
{
    *out = (qsb_unit_spread){0, NAN, NAN};
    double *ratios = malloc((n ? n : 1) * sizeof *ratios);
    if (!ratios)
        return -1;
    int status = qsb_paired_ratios(base, cand, n, ratios) == 0
                     ? qsb_unit_spread_of(ratios, units, n, out)
                     : 0; /* no valid pair: no unit */
    free(ratios);
    return status;
}

/* --- speed modes over units --- */

/* The split of sorted logs[0..u) at its widest admissible gap: each side QSB_MODE_MIN_SHARE
** of the units and 2 at least. Returns the first index of the upper side, 0 when none. */
static size_t widest_gap(const double *logs, size_t u)
{
    size_t least = (size_t)ceil(QSB_MODE_MIN_SHARE * (double)u), best = 0;
    least = least < 2 ? 2 : least;
    double widest = -1;
    for (size_t k = least; k + least <= u; k++)
        if (logs[k] - logs[k - 1] > widest) {
            widest = logs[k] - logs[k - 1];
            best = k;
        }
    return best;
}

/* The pooled standard deviation of the two sides of sorted logs split at k. */
static double within_sd(const double *logs, size_t u, size_t k)
{
    double m0 = mean_of(logs, k), m1 = mean_of(logs + k, u - k), ss = 0;
    for (size_t i = 0; i < u; i++) {
        double d = logs[i] - (i < k ? m0 : m1);
        ss += d * d;
    }
    return sqrt(ss / (double)(u - 2));
}

int qsb_unit_modes_of(const double *values, const uint32_t *units, size_t n,
                      qsb_unit_modes *out)
{
    memset(out, 0, sizeof *out);
    out->split = NAN;
    double *logs;
    size_t u;
    bool positive;
    if (unit_logs(values, units, n, &logs, &u, &positive) != 0)
        return -1;
    if (positive && u >= QSB_MODES_MIN_UNITS) {
        qsb_sort_doubles(logs, u);
        size_t k = widest_gap(logs, u);
        double gap = k ? logs[k] - logs[k - 1] : 0;
        if (k && gap >= log1p(QSB_MODE_MIN_GAP) && gap >= QSB_MODE_GAP_SDS * within_sd(logs, u, k)) {
            out->found = true;
            out->split = exp((logs[k] + logs[k - 1]) / 2);
            out->count[0] = k;
            out->count[1] = u - k;
            out->center[0] = exp(mean_of(logs, k));
            out->center[1] = exp(mean_of(logs + k, u - k));
        }
    }
    free(logs);
    return 0;
}

int qsb_unit_modes_centers(const qsb_unit_modes *m, const double *by, const double *values,
                           const uint32_t *units, size_t n, double center[2])
{
    center[0] = center[1] = NAN;
    size_t cap = n ? n : 1, nb = 0, nv = 0;
    double *lb = malloc(cap * sizeof *lb), *lv = malloc(cap * sizeof *lv);
    uint32_t *ib = malloc(cap * sizeof *ib), *iv = malloc(cap * sizeof *iv);
    bool pb, pv;
    int status = lb && lv && ib && iv &&
                         unit_log_medians_ids(by, units, n, lb, ib, &nb, &pb) &&
                         unit_log_medians_ids(values, units, n, lv, iv, &nv, &pv)
                     ? 0
                     : -1;
    double sum[2] = {0, 0};
    size_t count[2] = {0, 0};
    for (size_t i = 0, j = 0; status == 0 && m->found && i < nv; i++) {
        while (j < nb && ib[j] < iv[i])
            j++;
        if (j == nb || ib[j] != iv[i] || !isfinite(lb[j]) || !isfinite(lv[i]))
            continue;
        int mode = exp(lb[j]) < m->split ? 0 : 1;
        sum[mode] += lv[i];
        count[mode]++;
    }
    for (int k = 0; k < 2; k++)
        if (count[k])
            center[k] = exp(sum[k] / (double)count[k]);
    free(lb);
    free(lv);
    free(ib);
    free(iv);
    return status;
}

/* --- the cluster bootstrap of a pooled median --- */

typedef struct {
    double value;
    uint32_t unit; /* dense: 0 .. units-1 */
} unit_value;

static int compare_unit_value(const void *pa, const void *pb)
{
    const unit_value *a = pa, *b = pb;
    return (a->value > b->value) - (a->value < b->value);
}

static uint64_t splitmix64(uint64_t *state)
{
    uint64_t z = (*state += 0x9e3779b97f4a7c15u);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9u;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebu;
    return z ^ (z >> 31);
}

/* The median of the sorted values with each unit's values counted weight[unit] times: the
** first value at which the running weight reaches half the total (the lower median). */
static double weighted_median(const unit_value *v, size_t n, const size_t *weight)
{
    size_t total = 0, run = 0;
    for (size_t i = 0; i < n; i++)
        total += weight[v[i].unit];
    for (size_t i = 0; i < n; i++) {
        run += weight[v[i].unit];
        if (2 * run >= total && weight[v[i].unit] > 0)
            return v[i].value;
    }
    return NAN;
}

/* Finite values with their units renumbered 0 .. *units-1, sorted by value. */
static unit_value *dense_sorted(const double *values, const uint32_t *units, size_t n,
                                size_t *m, size_t *count)
{
    uint32_t top = 0;
    for (size_t i = 0; i < n; i++)
        top = units[i] > top ? units[i] : top;
    unit_value *v = malloc((n ? n : 1) * sizeof *v);
    int32_t *dense = malloc(((size_t)top + 1) * sizeof *dense);
    if (!v || !dense) {
        free(v);
        free(dense);
        return NULL;
    }
    for (size_t u = 0; u <= top; u++)
        dense[u] = -1;
    *m = *count = 0;
    for (size_t i = 0; i < n; i++) {
        if (!isfinite(values[i]))
            continue;
        if (dense[units[i]] < 0)
            dense[units[i]] = (int32_t)(*count)++;
        v[(*m)++] = (unit_value){values[i], (uint32_t)dense[units[i]]};
    }
    free(dense);
    qsort(v, *m, sizeof *v, compare_unit_value);
    return v;
}

int qsb_unit_median_interval(const double *values, const uint32_t *units, size_t n, double *lo,
                             double *hi)
{
    *lo = *hi = NAN;
    if (!units || n == 0)
        return 0;
    size_t m, count;
    unit_value *v = dense_sorted(values, units, n, &m, &count);
    if (!v)
        return -1;
    size_t *weight = calloc(count ? count : 1, sizeof *weight);
    double *medians = malloc(QSB_BOOTSTRAP_RESAMPLES * sizeof *medians);
    int status = weight && medians ? 0 : -1;
    if (status == 0 && count >= QSB_MIN_UNITS) {
        uint64_t state = QSB_BOOTSTRAP_SEED; /* a pure function of the samples */
        for (size_t b = 0; b < QSB_BOOTSTRAP_RESAMPLES; b++) {
            memset(weight, 0, count * sizeof *weight);
            for (size_t k = 0; k < count; k++)
                weight[splitmix64(&state) % count]++;
            medians[b] = weighted_median(v, m, weight);
        }
        qsb_sort_doubles(medians, QSB_BOOTSTRAP_RESAMPLES);
        *lo = medians[(size_t)(0.025 * QSB_BOOTSTRAP_RESAMPLES)];
        *hi = medians[(size_t)(0.975 * QSB_BOOTSTRAP_RESAMPLES) - 1];
    }
    free(v);
    free(weight);
    free(medians);
    return status;
}

int qsb_paired_delta_units(const double *base, const double *cand, const uint32_t *units,
                           size_t n, double *pct, double *lo, double *hi)
{
    if (qsb_paired_delta(base, cand, n, pct, lo, hi) != 0)
        return -1;
    if (!units)
        return 0;
    double *ratios = malloc((n ? n : 1) * sizeof *ratios);
    int status = ratios ? 0 : -1;
    if (status == 0)
        qsb_paired_ratios(base, cand, n, ratios);
    if (status == 0)
        status = qsb_unit_median_interval(ratios, units, n, lo, hi);
    free(ratios);
    *lo = (*lo - 1.0) * 100.0;
    *hi = (*hi - 1.0) * 100.0;
    return status;
}

int qsb_summarize_units(const double *x, const uint32_t *units, size_t n, qsb_summary *out)
{
    if (qsb_summarize(x, n, out) != 0)
        return -1;
    if (!units)
        return 0;
    return qsb_unit_median_interval(x, units, n, &out->median_lo, &out->median_hi);
}

/* --- Student's t, from the regularized incomplete beta --- */

/* The continued fraction of I_x(a, b) by the modified Lentz method (Numerical Recipes'
** betacf, written anew); converges fast for x < (a + 1) / (a + b + 2). */
static double beta_fraction(double a, double b, double x)
{
    const double tiny = 1e-300, eps = 1e-15;
    double qab = a + b, qap = a + 1.0, qam = a - 1.0;
    double c = 1.0, d = 1.0 - qab * x / qap;
    d = 1.0 / (fabs(d) < tiny ? tiny : d);
    double h = d;
    for (int m = 1; m <= 1000; m++) {
        double m2 = 2.0 * m;
        double aa = m * (b - m) * x / ((qam + m2) * (a + m2)); /* even step */
        d = 1.0 + aa * d;
        c = 1.0 + aa / c;
        d = 1.0 / (fabs(d) < tiny ? tiny : d);
        c = fabs(c) < tiny ? tiny : c;
        h *= d * c;
        aa = -(a + m) * (qab + m) * x / ((a + m2) * (qap + m2)); /* odd step */
        d = 1.0 + aa * d;
        c = 1.0 + aa / c;
        d = 1.0 / (fabs(d) < tiny ? tiny : d);
        c = fabs(c) < tiny ? tiny : c;
        double del = d * c;
        h *= del;
        if (fabs(del - 1.0) < eps)
            break;
    }
    return h;
}

double qsb_incomplete_beta(double a, double b, double x)
{
    if (!(a > 0.0) || !(b > 0.0) || !(x >= 0.0) || !(x <= 1.0))
        return NAN;
    if (x == 0.0 || x == 1.0)
        return x;
    double front = exp(lgamma(a + b) - lgamma(a) - lgamma(b) + a * log(x) + b * log1p(-x));
    if (x < (a + 1.0) / (a + b + 2.0))
        return front * beta_fraction(a, b, x) / a;
    return 1.0 - front * beta_fraction(b, a, 1.0 - x) / b; /* the symmetry I_x(a,b) = 1 - I_1-x(b,a) */
}

/* P(T >= |t|) = I_{df / (df + t^2)}(df / 2, 1 / 2) / 2. */
static double t_tail(double t, double df)
{
    if (isinf(df))
        return 0.5 * erfc(fabs(t) / sqrt(2.0));
    if (isinf(t))
        return 0.0;
    return 0.5 * qsb_incomplete_beta(df / 2.0, 0.5, df / (df + t * t));
}

double qsb_t_cdf(double t, double df)
{
    if (isnan(t) || !(df > 0.0))
        return NAN;
    double tail = t_tail(t, df);
    return t > 0.0 ? 1.0 - tail : tail;
}

double qsb_t_sf(double t, double df)
{
    if (isnan(t) || !(df > 0.0))
        return NAN;
    double tail = t_tail(t, df);
    return t < 0.0 ? 1.0 - tail : tail;
}

double qsb_t_quantile(double p, double df)
{
    if (!(p > 0.0) || !(p < 1.0) || !(df > 0.0))
        return NAN;
    if (p < 0.5)
        return -qsb_t_quantile(1.0 - p, df);
    double lo = 0.0, hi = 1.0;
    while (qsb_t_cdf(hi, df) < p && hi < 1e300)
        hi *= 2.0;
    for (int i = 0; i < 200 && hi - lo > 1e-12 * hi; i++) { /* bisection: the cdf is monotone */
        double mid = 0.5 * (lo + hi);
        if (qsb_t_cdf(mid, df) < p)
            lo = mid;
        else
            hi = mid;
    }
    return 0.5 * (lo + hi);
}

int qsb_welch_units(const qsb_unit_spread *a, const qsb_unit_spread *b, qsb_welch *out)
{
    *out = (qsb_welch){NAN, NAN, NAN};
    if (a->units < 2 || b->units < 2 || !isfinite(a->log_sd) || !isfinite(b->log_sd))
        return -1;
    double va = a->log_sd * a->log_sd / (double)a->units;
    double vb = b->log_sd * b->log_sd / (double)b->units;
    out->diff = b->log_mean - a->log_mean;
    out->se = sqrt(va + vb);
    double denominator = va * va / (double)(a->units - 1) + vb * vb / (double)(b->units - 1);
    out->df = denominator > 0.0 ? (va + vb) * (va + vb) / denominator : INFINITY;
    return 0;
}

double qsb_one_sided_p(double diff, double se, double df, double bound)
{
    if (isnan(diff) || isnan(se) || isnan(bound))
        return NAN;
    if (se == 0.0)
        return diff > bound ? 0.0 : 1.0;
    return qsb_t_sf((diff - bound) / se, df);
}

/* --- corrections for many tests --- */

const char *qsb_correction_name(qsb_correction c)
{
    static const char *const names[] = {"holm", "bh", "none"};
    return (unsigned)c < sizeof names / sizeof names[0] ? names[c] : "?";
}

int qsb_correction_of(const char *name, qsb_correction *out)
{
    for (int c = QSB_CORRECTION_HOLM; c <= QSB_CORRECTION_NONE; c++)
        if (strcmp(name, qsb_correction_name((qsb_correction)c)) == 0) {
            *out = (qsb_correction)c;
            return 0;
        }
    return -1;
}

typedef struct {
    double p;
    size_t index;
} indexed_p;

static int by_p(const void *pa, const void *pb)
{
    const indexed_p *a = pa, *b = pb;
    if (a->p != b->p)
        return (a->p > b->p) - (a->p < b->p);
    return (a->index > b->index) - (a->index < b->index); /* stable: ties in input order */
}

long qsb_adjust_p(const double *p, size_t n, qsb_correction c, double *adjusted)
{
    indexed_p *order = malloc((n ? n : 1) * sizeof *order);
    size_t m = 0;
    for (size_t i = 0; order && i < n; i++)
        if (isfinite(p[i]))
            order[m++] = (indexed_p){fmin(1.0, fmax(0.0, p[i])), i};
    for (size_t i = 0; i < n; i++) /* only now: p may be adjusted itself */
        adjusted[i] = NAN;
    if (!order)
        return -1;
    qsort(order, m, sizeof *order, by_p);
    if (c == QSB_CORRECTION_HOLM) {
        /* step down: (m - k) p_(k) for 0-based rank k, made non-decreasing in k */
        double running = 0.0;
        for (size_t k = 0; k < m; k++) {
            running = fmax(running, fmin(1.0, (double)(m - k) * order[k].p));
            adjusted[order[k].index] = running;
        }
    } else if (c == QSB_CORRECTION_BH) {
        /* step up: m p_(k) / (k + 1), made non-increasing from the largest p down */
        double running = 1.0;
        for (size_t k = m; k-- > 0;) {
            running = fmin(running, (double)m * order[k].p / (double)(k + 1));
            adjusted[order[k].index] = running;
        }
    } else {
        for (size_t k = 0; k < m; k++)
            adjusted[order[k].index] = order[k].p;
    }
    free(order);
    return (long)m;
}
