/*
** Summaries of samples (see summary.h): no I/O, no clock, no global state.
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
*/
#include "summary.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#define QSB_CI_EXACT_MAX 200
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

double qsb_median_of_finite(double *x, size_t n)
{
    size_t finite = 0;
    for (size_t i = 0; i < n; i++)
        if (isfinite(x[i])) {
            double keep = x[finite];
            x[finite++] = x[i];
            x[i] = keep;
        }
    qsb_sort_doubles(x, finite);
    return finite ? qsb_median_of_sorted(x, finite) : NAN;
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
        double l = floor((double)n / 2.0 + 0.5 - QSB_Z_975 * sqrt((double)n) / 2.0);
        return l < 1.0 ? 0 : (size_t)l;
    }
    size_t l = 0;
    while (l + 1 <= n / 2 && binomial_half_cdf(n, l) <= 0.025)
        l++;
    return l;
}

void qsb_median_interval_of_sorted(const double *sorted, size_t n, double *lo, double *hi)
{
    size_t l = qsb_median_ci_rank(n);
    *lo = l ? sorted[l - 1] : NAN;
    *hi = l ? sorted[n - l] : NAN;
}

double qsb_mean(const double *x, size_t n)
{
    double sum = 0.0;
    for (size_t i = 0; i < n; i++)
        sum += x[i];
    return sum / (double)n;
}

double qsb_stddev(const double *x, size_t n, double mean)
{
    if (n < 2)
        return NAN;
    double sum = 0.0;
    for (size_t i = 0; i < n; i++)
        sum += (x[i] - mean) * (x[i] - mean);
    return sqrt(sum / (double)(n - 1));
}

double qsb_robust_sd(const double *x, size_t n, double median, double *scratch)
{
    for (size_t i = 0; i < n; i++)
        scratch[i] = fabs(x[i] - median);
    qsb_sort_doubles(scratch, n);
    return MAD_SCALE * qsb_median_of_sorted(scratch, n);
}

/* Counts values farther than 3 * 1.4826 * MAD from the median; `scratch` has n slots. */
static unsigned mad_outliers(const double *x, size_t n, double median, double *scratch)
{
    double limit = MAD_CUTOFF * qsb_robust_sd(x, n, median, scratch);
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
    qsb_median_interval_of_sorted(sorted, n, &out->median_lo, &out->median_hi);
    out->mean = qsb_mean(x, n);
    out->stddev = qsb_stddev(x, n, out->mean);
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
    qsb_median_interval_of_sorted(ratios, m, lo, hi);
    *lo = (*lo - 1.0) * 100.0;
    *hi = (*hi - 1.0) * 100.0;
    free(ratios);
    return 0;
}
