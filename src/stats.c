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

static double *sorted_copy(const double *x, size_t n)
{
    double *copy = malloc((n ? n : 1) * sizeof *copy);
    if (!copy)
        return NULL;
    memcpy(copy, x, n * sizeof *copy);
    qsort(copy, n, sizeof *copy, compare_doubles);
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
    qsort(scratch, n, sizeof *scratch, compare_doubles);
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
    qsort(ratios, m, sizeof *ratios, compare_doubles);
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

double qsb_t975(size_t df)
{
    /* Student's t, 0.975 quantile, df 1..30 (standard tables); above, the Cornish-Fisher
    ** expansion around the normal quantile, within 0.001 of the exact value there. */
    static const double table[30] = {
        12.706, 4.303, 3.182, 2.776, 2.571, 2.447, 2.365, 2.306, 2.262, 2.228,
        2.201,  2.179, 2.160, 2.145, 2.131, 2.120, 2.110, 2.101, 2.093, 2.086,
        2.080,  2.074, 2.069, 2.064, 2.060, 2.056, 2.052, 2.048, 2.045, 2.042};
    if (df == 0)
        return INFINITY;
    if (df <= 30)
        return table[df - 1];
    const double z = 1.959964, v = (double)df;
    return z + (z * z * z + z) / (4 * v) +
           (5 * pow(z, 5) + 16 * z * z * z + 3 * z) / (96 * v * v);
}

static int compare_unit_values(const void *pa, const void *pb)
{
    const double *a = pa, *b = pb; /* (unit, value) pairs */
    if (a[0] != b[0])
        return (a[0] > b[0]) - (a[0] < b[0]);
    return (a[1] > b[1]) - (a[1] < b[1]);
}

int qsb_unit_spread_of(const double *values, const uint32_t *units, size_t n,
                       qsb_unit_spread *out)
{
    *out = (qsb_unit_spread){0, NAN, NAN};
    if (!units || n == 0)
        return 0;
    double *pairs = malloc(2 * n * sizeof *pairs), *logs = malloc(n * sizeof *logs);
    if (!pairs || !logs) {
        free(pairs);
        free(logs);
        return -1;
    }
    size_t m = 0;
    for (size_t i = 0; i < n; i++)
        if (isfinite(values[i])) {
            pairs[2 * m] = (double)units[i];
            pairs[2 * m + 1] = values[i];
            m++;
        }
    qsort(pairs, m, 2 * sizeof *pairs, compare_unit_values);
    size_t u = 0;
    bool positive = true;
    for (size_t start = 0, end; start < m; start = end) {
        for (end = start; end < m && pairs[2 * end] == pairs[2 * start]; end++)
            ;
        size_t k = end - start, mid = start + k / 2;
        double median = k % 2 ? pairs[2 * mid + 1]
                              : (pairs[2 * (mid - 1) + 1] + pairs[2 * mid + 1]) / 2.0;
        positive &= median > 0;
        logs[u++] = median > 0 ? log(median) : NAN;
    }
    free(pairs);
    out->units = u;
    if (positive && u > 0) {
        double sum = 0, sq = 0;
        for (size_t i = 0; i < u; i++)
            sum += logs[i];
        double mean = sum / (double)u;
        for (size_t i = 0; i < u; i++)
            sq += (logs[i] - mean) * (logs[i] - mean);
        out->log_mean = mean;
        out->log_sd = u > 1 ? sqrt(sq / (double)(u - 1)) : NAN;
    }
    free(logs);
    return 0;
}

double qsb_unit_half_width(const qsb_unit_spread *s)
{
    if (s->units < QSB_MIN_UNITS || !isfinite(s->log_sd))
        return NAN;
    return qsb_t975(s->units - 1) * s->log_sd / sqrt((double)s->units);
}

void qsb_unit_interval(const qsb_unit_spread *s, double center, double *lo, double *hi)
{
    double h = qsb_unit_half_width(s);
    *lo = isfinite(h) && center > 0 ? center * exp(-h) : NAN;
    *hi = isfinite(h) && center > 0 ? center * exp(h) : NAN;
}

double qsb_unit_precision_pct(const qsb_unit_spread *s)
{
    double h = qsb_unit_half_width(s);
    return isfinite(h) ? (exp(h) - 1.0) * 100.0 : INFINITY;
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

int qsb_paired_delta_units(const double *base, const double *cand, const uint32_t *units,
                           size_t n, double *pct, double *lo, double *hi)
{
    if (qsb_paired_delta(base, cand, n, pct, lo, hi) != 0)
        return -1;
    if (!units)
        return 0;
    double *ratios = malloc((n ? n : 1) * sizeof *ratios);
    qsb_unit_spread s;
    int status = ratios ? 0 : -1;
    if (status == 0)
        qsb_paired_ratios(base, cand, n, ratios);
    if (status == 0)
        status = qsb_unit_spread_of(ratios, units, n, &s);
    free(ratios);
    if (status != 0)
        return -1;
    qsb_unit_interval(&s, 1.0 + *pct / 100.0, lo, hi);
    *lo = (*lo - 1.0) * 100.0;
    *hi = (*hi - 1.0) * 100.0;
    return 0;
}

int qsb_summarize_units(const double *x, const uint32_t *units, size_t n, qsb_summary *out)
{
    if (qsb_summarize(x, n, out) != 0)
        return -1;
    if (!units)
        return 0;
    qsb_unit_spread s;
    if (qsb_unit_spread_of(x, units, n, &s) != 0)
        return -1;
    qsb_unit_interval(&s, out->median, &out->median_lo, &out->median_hi);
    return 0;
}
