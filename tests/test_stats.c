/*
** The statistics of src/stats/ on known vectors: empty, n = 1 and 2, constant data, odd and
** even medians, one huge outlier (MAD rule), two-pass stddev on large offsets, the median's
** interval by order statistics (ranks from the binomial tables), the paired delta on
** constructed pairs, and Mann-Whitney p-values: exact (the whole U distribution for n1 = n2 = 3, the published
** critical value for 10 and 10) and the normal approximation with ties worked out by hand.
*/
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "intervals.h"
#include "stats.h"

#define N_OF(a) (sizeof(a) / sizeof((a)[0]))

static int near(double a, double b, double tolerance)
{
    return fabs(a - b) <= tolerance;
}

#define CHECK_NEAR(a, b, tol) CHECK_MSG(near((a), (b), (tol)), "%s = %.17g, expected %.17g", #a, \
                                        (double)(a), (double)(b))

static void test_empty_and_tiny(void)
{
    qsb_summary s;
    CHECK(qsb_summarize(NULL, 0, &s) == 0);
    CHECK(isnan(s.min) && isnan(s.median) && isnan(s.mean) && isnan(s.stddev));
    CHECK(isnan(s.median_lo) && isnan(s.median_hi) && isnan(s.cv));
    CHECK_EQ_U64(s.outliers, 0);
    CHECK(isnan(qsb_median_of_sorted(NULL, 0)));

    const double one[] = {5.0};
    CHECK(qsb_summarize(one, 1, &s) == 0);
    CHECK(s.min == 5.0 && s.median == 5.0 && s.mean == 5.0);
    CHECK(isnan(s.stddev) && isnan(s.cv)); /* no sample deviation from one value */
    CHECK(isnan(s.median_lo) && isnan(s.median_hi));
    CHECK_EQ_U64(s.outliers, 0);

    const double two[] = {3.0, 1.0};
    CHECK(qsb_summarize(two, 2, &s) == 0);
    CHECK(s.min == 1.0 && s.median == 2.0 && s.mean == 2.0);
    CHECK_NEAR(s.stddev, sqrt(2.0), 1e-15);
    CHECK_NEAR(s.cv, sqrt(2.0) / 2.0, 1e-15);
    CHECK(isnan(s.median_lo));
    CHECK_EQ_U64(s.outliers, 0);
}

static void test_constant(void)
{
    double x[10];
    for (size_t i = 0; i < N_OF(x); i++)
        x[i] = 7.25;
    qsb_summary s;
    CHECK(qsb_summarize(x, N_OF(x), &s) == 0);
    CHECK(s.min == 7.25 && s.median == 7.25 && s.mean == 7.25);
    CHECK(s.stddev == 0.0 && s.cv == 0.0);
    CHECK(s.median_lo == 7.25 && s.median_hi == 7.25);
    CHECK_EQ_U64(s.outliers, 0);
}

static void test_medians(void)
{
    double odd[] = {3.0, 1.0, 2.0};
    double even[] = {4.0, 1.0, 3.0, 2.0};
    qsb_summary s;
    CHECK(qsb_summarize(odd, N_OF(odd), &s) == 0);
    CHECK(s.median == 2.0);
    CHECK(qsb_summarize(even, N_OF(even), &s) == 0);
    CHECK(s.median == 2.5);
    CHECK(odd[0] == 3.0 && even[0] == 4.0 && even[3] == 2.0); /* the input is not sorted */

    const double sorted_odd[] = {1, 2, 30, 40, 50};
    const double sorted_even[] = {1, 2, 30, 40};
    CHECK(qsb_median_of_sorted(sorted_odd, 5) == 30.0);
    CHECK(qsb_median_of_sorted(sorted_even, 4) == 16.0);
}

static void test_outliers(void)
{
    /* deviations from 11: {1,0,1,1,0,1,~1e9}, MAD 1, limit 3 * 1.4826: only 1e9 is out. */
    const double x[] = {10, 11, 12, 10, 11, 12, 1e9};
    qsb_summary s;
    CHECK(qsb_summarize(x, N_OF(x), &s) == 0);
    CHECK(s.median == 11.0 && s.min == 10.0);
    CHECK_EQ_U64(s.outliers, 1);
    CHECK(s.mean > 1e8); /* the mean is dragged, the median is not */

    /* MAD 2.5, limit 11.1: an even spread has none. */
    const double spread[] = {1, 2, 3, 4, 5, 6, 7, 8, 9, 10};
    CHECK(qsb_summarize(spread, N_OF(spread), &s) == 0);
    CHECK_EQ_U64(s.outliers, 0);

    /* MAD 0: any value off the median is an outlier. */
    const double flat[] = {10, 10, 10, 10, 10, 14};
    CHECK(qsb_summarize(flat, N_OF(flat), &s) == 0);
    CHECK_EQ_U64(s.outliers, 1);

    /* The limit is 3 * 1.4826 * MAD = 4.45 here, not 3 * MAD: median 100.5, deviations
    ** {.5,1.5,.5,1.5,.5,3.5}, MAD 1; 3.5 stays in, and 4.5 (with 105 instead) is out. */
    const double edge[] = {100, 99, 101, 99, 101, 104};
    CHECK(qsb_summarize(edge, N_OF(edge), &s) == 0);
    CHECK_EQ_U64(s.outliers, 0);
    const double edge_out[] = {100, 99, 101, 99, 101, 105};
    CHECK(qsb_summarize(edge_out, N_OF(edge_out), &s) == 0);
    CHECK_EQ_U64(s.outliers, 1);
}

static void test_two_pass_stddev(void)
{
    /* A one-pass sum of squares loses everything here (1e18 has an ulp of 128). */
    const double x[] = {1e9 + 1, 1e9 + 2, 1e9 + 3};
    qsb_summary s;
    CHECK(qsb_summarize(x, N_OF(x), &s) == 0);
    CHECK(s.mean == 1e9 + 2);
    CHECK_NEAR(s.stddev, 1.0, 1e-12);
    const double y[] = {1e12 + 1, 1e12 + 2, 1e12 + 3, 1e12 + 4};
    CHECK(qsb_summarize(y, N_OF(y), &s) == 0);
    CHECK_NEAR(s.stddev, sqrt(5.0 / 3.0), 1e-12);
}

static void test_median_interval(void)
{
    /* Ranks of the 95% interval [x(l), x(n+1-l)]: none below 6; then the binomial tables
    ** (n = 10: 2, n = 20: 6, n = 100: 40); the normal approximation takes over above 200 and
    ** agrees with the exact sums there (201: 87, 1000: 469, computed from the binomial). */
    CHECK_EQ_U64(qsb_median_ci_rank(0), 0);
    CHECK_EQ_U64(qsb_median_ci_rank(5), 0);
    CHECK_EQ_U64(qsb_median_ci_rank(6), 1);
    CHECK_EQ_U64(qsb_median_ci_rank(8), 1);
    CHECK_EQ_U64(qsb_median_ci_rank(9), 2);
    CHECK_EQ_U64(qsb_median_ci_rank(10), 2);
    CHECK_EQ_U64(qsb_median_ci_rank(17), 5);  /* the normal approximation would say 4 */
    CHECK_EQ_U64(qsb_median_ci_rank(20), 6);
    CHECK_EQ_U64(qsb_median_ci_rank(44), 16); /* and 15 here */
    CHECK_EQ_U64(qsb_median_ci_rank(50), 18);
    CHECK_EQ_U64(qsb_median_ci_rank(100), 40);
    CHECK_EQ_U64(qsb_median_ci_rank(200), 86);
    CHECK_EQ_U64(qsb_median_ci_rank(201), 87);
    CHECK_EQ_U64(qsb_median_ci_rank(1000), 469);

    double x[20];
    for (size_t i = 0; i < N_OF(x); i++)
        x[i] = (double)(20 - i); /* 20, 19, ..., 1: the order must not matter */
    qsb_summary s;
    CHECK(qsb_summarize(x, 10, &s) == 0); /* 20..11 */
    CHECK(s.median_lo == 12.0 && s.median_hi == 19.0);
    CHECK(qsb_summarize(x, 20, &s) == 0);
    CHECK(s.median_lo == 6.0 && s.median_hi == 15.0);
    CHECK(qsb_summarize(x, 5, &s) == 0);
    CHECK(isnan(s.median_lo) && isnan(s.median_hi));
}

static void test_paired_delta(void)
{
    /* Ratios cand/base, sorted: .95 .99 1.00 1.01 1.02 1.03 1.04 1.05 1.08 1.10, so the
    ** median is 1.025 and the interval ranks 2 and 9 give .99 and 1.08. Bases vary: only the
    ** ratios matter. A pair with base 0 is skipped. */
    const double ratio[] = {1.05, 0.95, 1.10, 1.00, 1.02, 1.08, 0.99, 1.03, 1.04, 1.01};
    double base[11], cand[11];
    for (size_t i = 0; i < 10; i++) {
        base[i] = 1000.0 + 37.0 * (double)i;
        cand[i] = base[i] * ratio[i];
    }
    base[10] = 0.0;
    cand[10] = 5.0;
    double pct, lo, hi;
    CHECK(qsb_paired_delta(base, cand, 11, &pct, &lo, &hi) == 0);
    CHECK_NEAR(pct, 2.5, 1e-9);
    CHECK_NEAR(lo, -1.0, 1e-9);
    CHECK_NEAR(hi, 8.0, 1e-9);

    /* The same function against itself: 0 exactly, with a zero-width interval. */
    CHECK(qsb_paired_delta(base, base, 10, &pct, &lo, &hi) == 0);
    CHECK(pct == 0.0 && lo == 0.0 && hi == 0.0);

    /* Candidate half the time: -50%. Too few pairs for an interval. */
    const double b3[] = {10, 20, 40}, c3[] = {5, 10, 20};
    CHECK(qsb_paired_delta(b3, c3, 3, &pct, &lo, &hi) == 0);
    CHECK_NEAR(pct, -50.0, 1e-12);
    CHECK(isnan(lo) && isnan(hi));

    const double zeros[] = {0, 0};
    CHECK(qsb_paired_delta(zeros, zeros, 2, &pct, &lo, &hi) == -1);
    CHECK(qsb_paired_delta(zeros, zeros, 0, &pct, &lo, &hi) == -1);
}

/* The null distribution of U for n1 = n2 = 3: counts of the 20 arrangements with
** U = 0..9 are 1,1,2,3,3,3,3,2,1,1. Every 3-subset of the ranks 1..6 as sample a must give
** p = min(1, 2 * P(U <= min(U, 9 - U))). */
static void test_mann_whitney_exact_3_3(void)
{
    static const unsigned counts[10] = {1, 1, 2, 3, 3, 3, 3, 2, 1, 1};
    unsigned seen = 0;
    for (unsigned mask = 0; mask < 64; mask++) {
        if (__builtin_popcount(mask) != 3)
            continue;
        double a[3], b[3];
        size_t na = 0, nb = 0;
        unsigned rank_sum = 0;
        for (unsigned r = 1; r <= 6; r++) {
            if (mask & (1u << (r - 1))) {
                a[na++] = r * 1.5;
                rank_sum += r;
            } else {
                b[nb++] = r * 1.5;
            }
        }
        unsigned u = rank_sum - 6, low = u < 9 - u ? u : 9 - u, below = 0;
        for (unsigned k = 0; k <= low; k++)
            below += counts[k];
        double expected = fmin(1.0, 2.0 * below / 20.0);
        CHECK_NEAR(qsb_mann_whitney_p(a, 3, b, 3), expected, 1e-12);
        seen++;
    }
    CHECK_EQ_U64(seen, 20);

    const double a[] = {1, 2, 3}, b[] = {4, 5, 6};
    CHECK_NEAR(qsb_mann_whitney_p(a, 3, b, 3), 0.1, 1e-12);
    CHECK_NEAR(qsb_mann_whitney_p(b, 3, a, 3), 0.1, 1e-12);
}

static void test_mann_whitney_exact_tables(void)
{
    /* Complete separation: p = 2 / C(n1 + n2, n1). */
    const double lo4[] = {1, 2, 3, 4}, hi4[] = {5, 6, 7, 8};
    CHECK_NEAR(qsb_mann_whitney_p(lo4, 4, hi4, 4), 2.0 / 70.0, 1e-12);
    const double lo5[] = {1, 2, 3, 4, 5}, hi5[] = {6, 7, 8, 9, 10};
    CHECK_NEAR(qsb_mann_whitney_p(lo5, 5, hi5, 5), 2.0 / 252.0, 1e-12);
    double lo20[20], hi20[20];
    for (int i = 0; i < 20; i++) {
        lo20[i] = i + 1;
        hi20[i] = i + 21;
    }
    CHECK_NEAR(qsb_mann_whitney_p(lo20, 20, hi20, 20), 2.0 / 137846528820.0, 1e-20);

    /* n1 = n2 = 10: the published two-sided 5% critical value is U = 23. With ranks
    ** {1..7, 15, 17, 18} U = 23 (p = 2 * 3996 / 184756), with {1..7, 16, 17, 18} U = 24
    ** (p = 2 * 4843 / 184756): counts by enumerating the 184756 subsets. */
    double a[10], b[10], c[10], d[10];
    int ranks_a[10] = {1, 2, 3, 4, 5, 6, 7, 15, 17, 18};
    int ranks_c[10] = {1, 2, 3, 4, 5, 6, 7, 16, 17, 18};
    size_t nb = 0, nd = 0;
    for (int r = 1; r <= 20; r++) {
        int in_a = 0, in_c = 0;
        for (int i = 0; i < 10; i++) {
            in_a |= ranks_a[i] == r;
            in_c |= ranks_c[i] == r;
        }
        if (!in_a)
            b[nb++] = r;
        if (!in_c)
            d[nd++] = r;
    }
    for (int i = 0; i < 10; i++) {
        a[i] = ranks_a[i];
        c[i] = ranks_c[i];
    }
    double p23 = qsb_mann_whitney_p(a, 10, b, 10), p24 = qsb_mann_whitney_p(c, 10, d, 10);
    CHECK_NEAR(p23, 2.0 * 3996.0 / 184756.0, 1e-12);
    CHECK_NEAR(p24, 2.0 * 4843.0 / 184756.0, 1e-12);
    CHECK(p23 < 0.05 && p24 > 0.05);
}

static void test_mann_whitney_normal(void)
{
    /* With ties, by hand: a = {1,2,2,3}, b = {2,3,3,4,5}; pooled ranks: 1 -> 1, the three 2s
    ** -> 3, the three 3s -> 6, 4 -> 8, 5 -> 9. R_a = 1 + 3 + 3 + 6 = 13, U_a = 13 - 10 = 3,
    ** mean 4 * 5 / 2 = 10. Ties: two groups of 3, sum(t^3 - t) = 48. Variance
    ** 20/12 * (10 - 48 / (9 * 8)) = 140/9 = 15.556, sd 3.94405. With continuity correction
    ** z = (7 - 0.5) / 3.94405 = 1.648051, p = erfc(z / sqrt 2) = 0.0993422. */
    const double a[] = {1, 2, 2, 3}, b[] = {2, 3, 3, 4, 5};
    CHECK_NEAR(qsb_mann_whitney_p(a, 4, b, 5), 0.09934224785346527, 1e-9);
    CHECK_NEAR(qsb_mann_whitney_p(b, 5, a, 4), 0.09934224785346527, 1e-9);

    /* Above 20 values the normal approximation is used without ties too: 1..25 against
    ** 26..50, U = 0, mean 312.5, variance 625 * 51 / 12, z = 312 / 51.539, p = 1.41566e-9. */
    double lo[25], hi[25];
    for (int i = 0; i < 25; i++) {
        lo[i] = i + 1;
        hi[i] = i + 26;
    }
    CHECK_NEAR(qsb_mann_whitney_p(lo, 25, hi, 25), 1.4156562248495634e-09, 1e-14);

    /* Everything tied: no evidence either way. Identical samples: p = 1. */
    const double ones[] = {1, 1, 1};
    CHECK(qsb_mann_whitney_p(ones, 2, ones, 3) == 1.0);
    CHECK(qsb_mann_whitney_p(lo, 25, lo, 25) == 1.0);
    CHECK(isnan(qsb_mann_whitney_p(lo, 0, hi, 3)));
}

/* The incomplete beta in closed forms, and Student's t against its closed forms (df 1..4) and
** published quantiles (df 5 and 30, to 10+ digits), in both tails. */
static void test_t_distribution(void)
{
    CHECK(fabs(qsb_incomplete_beta(1, 1, 0.3) - 0.3) < 1e-13);
    CHECK(fabs(qsb_incomplete_beta(2.5, 1, 0.4) - pow(0.4, 2.5)) < 1e-13);
    CHECK(fabs(qsb_incomplete_beta(1, 3, 0.2) - (1 - pow(0.8, 3))) < 1e-13);
    CHECK(fabs(qsb_incomplete_beta(7.5, 7.5, 0.5) - 0.5) < 1e-13);
    CHECK(isnan(qsb_incomplete_beta(0, 1, 0.5)) && isnan(qsb_incomplete_beta(1, 1, 1.5)));
    const double pi = 3.14159265358979323846;
    const double ts[] = {-7.0, -2.5, -1.0, -0.3, 0.0, 0.4, 1.0, 2.0, 3.3, 12.0, 80.0};
    for (size_t i = 0; i < sizeof ts / sizeof ts[0]; i++) {
        double t = ts[i];
        double f1 = 0.5 + atan(t) / pi;
        double f2 = 0.5 + t / (2.0 * sqrt(2.0 + t * t));
        double f3 = 0.5 + (t / (sqrt(3.0) * (1.0 + t * t / 3.0)) + atan(t / sqrt(3.0))) / pi;
        double u = 1.0 + t * t / 4.0;
        double f4 = 0.5 + 0.375 * t / sqrt(u) * (1.0 - t * t / (12.0 * u));
        CHECK_MSG(fabs(qsb_t_cdf(t, 1) - f1) < 1e-12, "df 1, t %g: %.15g", t, qsb_t_cdf(t, 1));
        CHECK_MSG(fabs(qsb_t_cdf(t, 2) - f2) < 1e-12, "df 2, t %g: %.15g", t, qsb_t_cdf(t, 2));
        CHECK_MSG(fabs(qsb_t_cdf(t, 3) - f3) < 1e-12, "df 3, t %g: %.15g", t, qsb_t_cdf(t, 3));
        CHECK_MSG(fabs(qsb_t_cdf(t, 4) - f4) < 1e-12, "df 4, t %g: %.15g", t, qsb_t_cdf(t, 4));
        CHECK(fabs(qsb_t_sf(t, 3) - (1.0 - f3)) < 1e-12);
    }
    /* the upper tail keeps its precision far out: P(T >= 80) for df 1 = atan(1/80) / pi */
    CHECK(fabs(qsb_t_sf(80.0, 1) / (atan(1.0 / 80.0) / pi) - 1.0) < 1e-10);
    CHECK(fabs(qsb_t_cdf(2.5705818366147395, 5) - 0.975) < 1e-9);
    CHECK(fabs(qsb_t_cdf(2.0150483726691575, 5) - 0.95) < 1e-9);
    CHECK(fabs(qsb_t_cdf(2.0422724563012373, 30) - 0.975) < 1e-9);
    CHECK(fabs(qsb_t_sf(2.7499956535672259, 30) - 0.005) < 1e-9);
    CHECK(fabs(qsb_t_cdf(-2.0422724563012373, 30) - 0.025) < 1e-9);
    CHECK(fabs(qsb_t_cdf(1.959963984540054, INFINITY) - 0.975) < 1e-12);
    CHECK(fabs(qsb_t_quantile(0.975, 5) - 2.5705818366147395) < 1e-8);
    CHECK(fabs(qsb_t_quantile(0.025, 30) + 2.0422724563012373) < 1e-8);
    CHECK(fabs(qsb_t_quantile(0.975, 1) - 12.706204736174707) < 1e-7);
    CHECK(isnan(qsb_t_cdf(1.0, 0.0)) && isnan(qsb_t_quantile(1.0, 3.0)));
    /* the chi-square's tail: for even k, exp(-x/2) sum_{i<k/2} (x/2)^i / i! exactly (the series
    ** branch at 10 on 20 and 3 on 4, the continued fraction at 5 on 2 and 60 on 30); the 5%
    ** points of the tables at 1 and 10 degrees */
    CHECK(fabs(qsb_chi2_sf(10.0, 20.0) - 0.968171942693795) < 1e-12);
    CHECK(fabs(qsb_chi2_sf(3.0, 4.0) - 0.5578254003710745) < 1e-12);
    CHECK(fabs(qsb_chi2_sf(5.0, 2.0) - 0.0820849986238988) < 1e-12);
    CHECK(fabs(qsb_chi2_sf(60.0, 30.0) / 0.0009206823961486663 - 1.0) < 1e-10);
    CHECK(fabs(qsb_chi2_sf(3.841459, 1.0) - 0.05) < 1e-6);
    CHECK(fabs(qsb_chi2_sf(18.307038, 10.0) - 0.05) < 1e-6);
    CHECK(qsb_chi2_sf(0.0, 3.0) == 1.0 && isnan(qsb_chi2_sf(1.0, 0.0)));
}

/* The order-statistic interval over units: each unit's median first (unit 0's three samples
** have median 4 whatever its outlier), then ranks l and U+1-l of the sorted unit medians (l =
** 1 for 7 units, 6 for 20); none under 6 units or with a median <= 0. */
static void test_unit_order_interval(void)
{
    /* units 0..6, given out of order; unit 0: {4, 1000, 3}; the others one value each */
    const double v[] = {4, 9, 1000, 2, 3, 7, 5, 6, 8};
    const uint32_t u[] = {0, 6, 0, 1, 0, 4, 2, 3, 5};
    double lo, hi;
    CHECK(qsb_unit_median_order_interval(v, u, 9, &lo, &hi) == 0);
    CHECK_MSG(fabs(lo - 2.0) < 1e-12 && fabs(hi - 9.0) < 1e-12, "7 units: [%g, %g]", lo, hi);
    double many[20];
    uint32_t units[20];
    for (uint32_t i = 0; i < 20; i++) {
        many[i] = (double)(20 - i); /* 20, 19, ..., 1 */
        units[i] = i;
    }
    CHECK(qsb_unit_median_order_interval(many, units, 20, &lo, &hi) == 0);
    CHECK_MSG(fabs(lo - 6.0) < 1e-12 && fabs(hi - 15.0) < 1e-12, "20 units: [%g, %g]", lo, hi);
    CHECK(qsb_unit_median_order_interval(many, units, 5, &lo, &hi) == 0 && isnan(lo) &&
          isnan(hi));
    many[3] = 0.0;
    CHECK(qsb_unit_median_order_interval(many, units, 20, &lo, &hi) == 0 && isnan(lo));
    CHECK(qsb_unit_median_order_interval(many, NULL, 20, &lo, &hi) == 0 && isnan(hi));
}

/* Welch's one-way test over several sets. Worked by hand for (U, mean, sd) = (5, 0, 0.1),
** (5, 0.1, 0.1), (4, 0.3, 0.2): weights U / sd^2 = 500, 500, 100 (W = 1100), weighted mean
** 80/1100; between = sum w (m - mean)^2 / 2 = 4.0909091; lambda = sum (1 - w/W)^2 / (U - 1)
** = 2 (6/11)^2 / 4 + (10/11)^2 / 3 = 0.42424242; F = 4.0909091 / (1 + 2/8 lambda) =
** 3.6986301 on 2 and 8 / (3 lambda) = 6.2857143 df; P(F >= 3.6986301) = 0.086748407423101. */
static void test_welch_anova(void)
{
    qsb_unit_spread sets[] = {{5, 0.0, 0.1}, {5, 0.1, 0.1}, {4, 0.3, 0.2}};
    double p = qsb_welch_anova_p(sets, 3);
    CHECK_MSG(fabs(p - 0.086748407423101) < 1e-10, "p %.15g", p);
    /* two sets: the two-sided p of Welch's t */
    qsb_unit_spread a = {5, 0.0, 0.1}, b = {10, 0.1, 0.2};
    qsb_welch w;
    CHECK(qsb_welch_units(&a, &b, &w) == 0);
    qsb_unit_spread two[] = {a, b};
    double t_p = 2 * qsb_t_sf(w.diff / w.se, w.df);
    CHECK_MSG(fabs(qsb_welch_anova_p(two, 2) - t_p) < 1e-12, "%.15g against %.15g",
              qsb_welch_anova_p(two, 2), t_p);
    /* a set of one unit is left out: the three sets' p with a fourth of one unit */
    qsb_unit_spread with_one[] = {sets[0], {1, 5.0, NAN}, sets[1], sets[2]};
    CHECK(fabs(qsb_welch_anova_p(with_one, 4) - p) < 1e-15);
    /* fewer than two sets, or one without spread: no test */
    CHECK(isnan(qsb_welch_anova_p(sets, 1)) && isnan(qsb_welch_anova_p(with_one + 1, 2)));
    qsb_unit_spread flat[] = {{5, 0.0, 0.0}, {5, 0.1, 0.1}};
    CHECK(isnan(qsb_welch_anova_p(flat, 2)));
    /* equal means: F = 0, p = 1 */
    qsb_unit_spread same[] = {{5, 0.2, 0.1}, {7, 0.2, 0.3}};
    CHECK(qsb_welch_anova_p(same, 2) == 1.0);
}

/* Welch over units, the one-sided p, and the corrections against values worked by hand (they
** agree with R's p.adjust). */
static void test_welch_and_corrections(void)
{
    qsb_unit_spread a = {5, 0.0, 0.1}, b = {10, 0.1, 0.2}, one = {1, 0.0, NAN};
    qsb_welch w;
    CHECK(qsb_welch_units(&a, &b, &w) == 0);
    /* va = 0.01/5, vb = 0.04/10: se = sqrt(0.006), df = 0.006^2 / (0.002^2/4 + 0.004^2/9) */
    CHECK(fabs(w.diff - 0.1) < 1e-15 && fabs(w.se - sqrt(0.006)) < 1e-15);
    CHECK_MSG(fabs(w.df - 12.96) < 1e-9, "df %.12g", w.df);
    CHECK(qsb_welch_units(&a, &one, &w) == -1 && isnan(w.diff));
    /* p of "at most bound": t = (0.1 - 0.0) / sqrt(0.006) on 12.96 df */
    CHECK(fabs(qsb_one_sided_p(0.1, sqrt(0.006), 12.96, 0.0) -
               qsb_t_sf(0.1 / sqrt(0.006), 12.96)) < 1e-15);
    CHECK(qsb_one_sided_p(0.2, 0.0, INFINITY, 0.1) == 0.0);
    CHECK(qsb_one_sided_p(0.1, 0.0, INFINITY, 0.1) == 1.0);
    CHECK(fabs(qsb_one_sided_p(0.05, 0.1, 4.0, 0.05) - 0.5) < 1e-15);

    const double p[] = {0.01, 0.04, NAN, 0.03, 0.005};
    double adj[5];
    CHECK(qsb_adjust_p(p, 5, QSB_CORRECTION_HOLM, adj) == 4);
    const double holm[] = {0.03, 0.06, NAN, 0.06, 0.02};
    const double bh[] = {0.02, 0.04, NAN, 0.04, 0.02};
    for (int i = 0; i < 5; i++)
        CHECK_MSG(i == 2 ? isnan(adj[i]) : fabs(adj[i] - holm[i]) < 1e-15, "holm %d: %g", i,
                  adj[i]);
    CHECK(qsb_adjust_p(p, 5, QSB_CORRECTION_BH, adj) == 4);
    for (int i = 0; i < 5; i++)
        CHECK_MSG(i == 2 ? isnan(adj[i]) : fabs(adj[i] - bh[i]) < 1e-15, "bh %d: %g", i,
                  adj[i]);
    CHECK(qsb_adjust_p(p, 5, QSB_CORRECTION_NONE, adj) == 4 && adj[4] == 0.005);
    double in_place[5];
    memcpy(in_place, p, sizeof in_place);
    CHECK(qsb_adjust_p(in_place, 5, QSB_CORRECTION_HOLM, in_place) == 4);
    for (int i = 0; i < 5; i++)
        CHECK_MSG(i == 2 ? isnan(in_place[i]) : fabs(in_place[i] - holm[i]) < 1e-15,
                  "holm in place %d: %g", i, in_place[i]);
    const double big[] = {0.5, 0.9, 0.6};
    CHECK(qsb_adjust_p(big, 3, QSB_CORRECTION_HOLM, adj) == 3);
    CHECK(adj[0] == 1.0 && adj[1] == 1.0 && adj[2] == 1.0); /* capped at 1 */
    CHECK(qsb_adjust_p(big, 3, QSB_CORRECTION_BH, adj) == 3);
    CHECK(fabs(adj[0] - 0.9) < 1e-15 && fabs(adj[1] - 0.9) < 1e-15 && fabs(adj[2] - 0.9) < 1e-15);
    CHECK(qsb_adjust_p(p, 0, QSB_CORRECTION_HOLM, adj) == 0);
    CHECK(strcmp(qsb_correction_name(QSB_CORRECTION_BH), "bh") == 0);
}

/* The time level: a step between the halves of a row's units, worked by hand. Units 0..7,
** one sample each, logs -e +e -e +e | d-e d+e d-e d+e: the halves' means 0 and d, so
** between = d^2 / 2; the variance of all eight 8 (d^2/4 + e^2) / 7, expected = var / 4;
** factor^2 = 7 d^2 / (d^2 + 4 e^2) = 5.6 for d = 0.2, e = 0.05. */
static void test_drift(void)
{
    const double d = 0.2, e = 0.05;
    double step[8], flat[8], pairs[16];
    uint32_t units[8], pair_units[16];
    for (uint32_t u = 0; u < 8; u++) {
        double sign = u % 2 ? 1.0 : -1.0;
        step[u] = 1000.0 * exp((u < 4 ? 0.0 : d) + sign * e);
        flat[u] = 1000.0 * exp(sign * e); /* halves with equal means */
        units[u] = u;
        pairs[2 * u] = pairs[2 * u + 1] = step[u]; /* two samples per unit: same medians */
        pair_units[2 * u] = pair_units[2 * u + 1] = u;
    }
    qsb_drift none = {0};
    CHECK(qsb_drift_factor(&none) == 1.0);
    CHECK(qsb_drift_add(&none, step, NULL, 8) == 0 && none.rows == 0); /* no units */
    CHECK(qsb_drift_add(&none, step, units, 3) == 0 && none.rows == 0); /* under 4 units */
    CHECK(qsb_drift_add(&none, flat, units, 8) == 0 && none.rows == 1);
    CHECK(qsb_drift_factor(&none) == 1.0);

    qsb_drift one = {0}, twice = {0};
    CHECK(qsb_drift_add(&one, step, units, 8) == 0);
    CHECK_NEAR(qsb_drift_factor(&one), sqrt(5.6), 1e-12);
    CHECK(qsb_drift_add(&twice, pairs, pair_units, 16) == 0);
    CHECK_NEAR(qsb_drift_factor(&twice), sqrt(5.6), 1e-12);
    /* pooled with a row without drift: sums, not an average of factors */
    CHECK(qsb_drift_add(&one, flat, units, 8) == 0);
    double flat_var = 8.0 * e * e / 7.0;
    double step_var = 8.0 * (d * d / 4.0 + e * e) / 7.0;
    CHECK_NEAR(qsb_drift_factor(&one),
               sqrt((d * d / 2.0) / (step_var / 4.0 + flat_var / 4.0)), 1e-12);

    double lo = 90.0, hi = 110.0;
    qsb_widen_interval(100.0, &lo, &hi, 2.0);
    CHECK_NEAR(lo, 81.0, 1e-12);
    CHECK_NEAR(hi, 121.0, 1e-12);
    lo = NAN;
    hi = 110.0;
    qsb_widen_interval(100.0, &lo, &hi, 2.0);
    CHECK(isnan(lo) && hi == 110.0); /* unknown bounds stay as they are */
}

/* Pooled intervals (intervals.h): a median's from six units the order statistics of the
** units' medians, stretched to hold the estimate; five, the t interval; fewer, none. A delta:
** the geometric mean over the units with its t interval; the time level widens its bounds on
** the ratio's log scale. */
static void test_pooled_intervals(void)
{
    double values[6] = {100, 102, 98, 101, 99, 103};
    uint32_t units[6] = {0, 1, 2, 3, 4, 5};
    double lo, hi;
    CHECK(qsb_pooled_interval(100.5, values, units, 6, &lo, &hi) == 0);
    CHECK_MSG(lo <= 100.5 && hi >= 100.5 && lo >= 98 - 1e-9 && hi <= 103 + 1e-9, "%g %g", lo, hi);
    CHECK(qsb_pooled_interval(200, values, units, 6, &lo, &hi) == 0);
    CHECK(hi == 200); /* stretched to hold the estimate */
    CHECK(qsb_pooled_interval(100, values, units, 5, &lo, &hi) == 0);
    CHECK(isfinite(lo) && isfinite(hi) && lo < 100 && hi > 100);
    CHECK(qsb_pooled_interval(100, values, units, 4, &lo, &hi) == 0);
    CHECK(isnan(lo) && isnan(hi));

    /* a delta: the geometric mean of the units' ratios, t over them; under 5 units the
    ** median is kept, without bounds */
    double base[6] = {100, 100, 100, 100, 100, 100}, lo_pct = 0, hi_pct = 0, delta = 0.5;
    CHECK(qsb_pooled_delta(base, values, units, 6, &delta, &lo_pct, &hi_pct) == 0);
    double mean = 0;
    for (int i = 0; i < 6; i++)
        mean += log(values[i] / 100.0) / 6;
    CHECK(fabs(delta - expm1(mean) * 100) < 1e-9);
    CHECK(lo_pct < delta && hi_pct > delta && lo_pct >= -2.0 && hi_pct <= 3.0);
    delta = 0.5;
    CHECK(qsb_pooled_delta(base, values, units, 4, &delta, &lo_pct, &hi_pct) == 0);
    CHECK(delta == 0.5 && isnan(lo_pct) && isnan(hi_pct));

    lo_pct = -1.0;
    hi_pct = 3.0;
    qsb_widen_delta(1.0, &lo_pct, &hi_pct, 1.0);
    CHECK(lo_pct == -1.0 && hi_pct == 3.0);
    qsb_widen_delta(0.0, &lo_pct, &hi_pct, 2.0); /* ratio bounds squared around 1 */
    CHECK(fabs(lo_pct - (0.99 * 0.99 - 1) * 100) < 1e-9);
    CHECK(fabs(hi_pct - (1.03 * 1.03 - 1) * 100) < 1e-9);
    lo_pct = hi_pct = NAN;
    qsb_widen_delta(0.0, &lo_pct, &hi_pct, 2.0);
    CHECK(isnan(lo_pct) && isnan(hi_pct));

    /* The time level: units that moved halfway give a factor above 1; steady ones, 1. */
    qsb_time_level moved = {{0, 0, 0}, {0, 0, 0}}, steady = {{0, 0, 0}, {0, 0, 0}};
    double shifted[8] = {100, 101, 100, 101, 130, 131, 130, 131};
    double flat[8] = {100, 101, 100, 101, 100, 101, 100, 101};
    uint32_t in_time[8] = {0, 1, 2, 3, 4, 5, 6, 7};
    CHECK(qsb_time_level_add_row(&moved, shifted, in_time, 8) == 0);
    CHECK(qsb_time_level_add_pair(&moved, flat, 8, shifted, in_time, 8) == 0);
    CHECK(qsb_time_level_add_row(&steady, flat, in_time, 8) == 0);
    CHECK(qsb_drift_factor(&moved.medians) > 2 && qsb_drift_factor(&moved.ratios) > 2);
    CHECK(qsb_drift_factor(&steady.medians) == 1.0 && qsb_drift_factor(&steady.ratios) == 1.0);
}

/* The units an interval would need: 6.73% over 7 units to 3% takes 25 (t(0.975, 24) / 5 =
** 0.4128 is under the goal 0.4197 = ln 1.03 / ln 1.0673 * t(0.975, 6) / sqrt 7, t(0.975, 23) /
** sqrt 24 = 0.4223 is not); a width already within the target needs no more; the cap; and
** nothing from widths that are none. */
static void test_units_for_precision(void)
{
    CHECK(qsb_units_for_precision(7, 6.73, 3.0, 1000) == 25);
    CHECK(qsb_units_for_precision(7, 2.0, 3.0, 1000) == 7);
    CHECK(qsb_units_for_precision(7, 3.0, 3.0, 1000) == 7);
    CHECK(qsb_units_for_precision(5, 1000.0, 0.01, 1000) == 1000);
    /* far out the t quantile is about 1.96: the units grow with the square of the ratio */
    size_t u = qsb_units_for_precision(1000, 2.0, 1.0, 1000000);
    double expected = 1000.0 * pow(log1p(0.02) / log1p(0.01), 2);
    CHECK_MSG(fabs((double)u / expected - 1.0) < 0.01, "%zu units, about %.0f expected", u,
              expected);
    CHECK(qsb_units_for_precision(1, 5.0, 1.0, 1000) == 0);
    CHECK(qsb_units_for_precision(7, NAN, 1.0, 1000) == 0);
    CHECK(qsb_units_for_precision(7, INFINITY, 1.0, 1000) == 0);
    CHECK(qsb_units_for_precision(7, 5.0, 0.0, 1000) == 0);
}

int main(void)
{
    test_empty_and_tiny();
    test_constant();
    test_medians();
    test_outliers();
    test_two_pass_stddev();
    test_median_interval();
    test_paired_delta();
    test_mann_whitney_exact_3_3();
    test_mann_whitney_exact_tables();
    test_mann_whitney_normal();
    test_t_distribution();
    test_unit_order_interval();
    test_welch_and_corrections();
    test_welch_anova();
    test_drift();
    test_pooled_intervals();
    test_units_for_precision();
    return check_done();
}
