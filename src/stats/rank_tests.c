/*
** Tests on ranks (see rank_tests.h): Mann-Whitney U, two-sided, with the exact null
** distribution when both samples have at most QSB_MW_EXACT_MAX values and there are no ties,
** otherwise the normal approximation with tie correction and continuity correction; and the
** Hodges-Lehmann / Moses interval of the ratio of two samples.
*/
#include "rank_tests.h"

#include "summary.h"

#include <math.h>
#include <stdint.h>
#include <stdlib.h>

#define QSB_MW_EXACT_MAX 20

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
    double c = floor(mn / 2.0 + 0.5 - QSB_Z_975 * sqrt(mn * (double)(nb + nc + 1) / 12.0));
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
