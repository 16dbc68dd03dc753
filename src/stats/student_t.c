/*
** Student's t from the regularized incomplete beta, the chi-square's tail from the incomplete
** gamma, and Welch's comparisons of sets of units (see student_t.h).
*/
#include "student_t.h"

#include <math.h>
#include <stdbool.h>

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

/* P(a, x), the regularized lower incomplete gamma, by its series (for x < a + 1). */
static double gamma_p_series(double a, double x)
{
    double term = 1.0 / a, sum = term;
    for (int n = 1; n < 1000 && fabs(term) > fabs(sum) * 1e-16; n++) {
        term *= x / (a + n);
        sum += term;
    }
    return sum * exp(-x + a * log(x) - lgamma(a));
}

/* Q(a, x) = 1 - P(a, x) by its continued fraction (modified Lentz; for x >= a + 1). */
static double gamma_q_fraction(double a, double x)
{
    const double tiny = 1e-300;
    double b = x + 1.0 - a, c = 1.0 / tiny, d = 1.0 / b, h = d;
    for (int i = 1; i < 1000; i++) {
        double an = -i * (i - a);
        b += 2.0;
        d = an * d + b;
        d = 1.0 / (fabs(d) < tiny ? tiny : d);
        c = b + an / c;
        c = fabs(c) < tiny ? tiny : c;
        h *= d * c;
        if (fabs(d * c - 1.0) < 1e-16)
            break;
    }
    return h * exp(-x + a * log(x) - lgamma(a));
}

double qsb_chi2_sf(double x, double k)
{
    if (!(k > 0.0) || isnan(x))
        return NAN;
    if (x <= 0.0)
        return 1.0;
    double a = k / 2.0, y = x / 2.0;
    return y < a + 1.0 ? 1.0 - gamma_p_series(a, y) : gamma_q_fraction(a, y);
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

/* P(F >= f) for F ~ F(d1, d2): I_{d2 / (d2 + d1 f)}(d2 / 2, d1 / 2). */
static double f_tail(double f, double d1, double d2)
{
    if (!(f > 0.0))
        return 1.0;
    if (isinf(d2))
        return qsb_chi2_sf(f * d1, d1);
    return qsb_incomplete_beta(d2 / 2.0, d1 / 2.0, d2 / (d2 + d1 * f));
}

/* A set Welch's one-way test takes: 2 units or more, a finite mean and sd. */
static bool in_welch_test(const qsb_unit_spread *s)
{
    return s->units >= 2 && isfinite(s->log_sd) && isfinite(s->log_mean);
}

double qsb_welch_anova_p(const qsb_unit_spread *sets, size_t k)
{
    double weights = 0.0, weighted_mean = 0.0;
    size_t used = 0;
    for (size_t i = 0; i < k; i++) {
        if (!in_welch_test(&sets[i]))
            continue;
        if (sets[i].log_sd == 0.0)
            return NAN;
        double w = (double)sets[i].units / (sets[i].log_sd * sets[i].log_sd);
        weights += w;
        weighted_mean += w * sets[i].log_mean;
        used++;
    }
    if (used < 2)
        return NAN;
    weighted_mean /= weights;
    double between = 0.0, lambda = 0.0; /* lambda: sum (1 - w/W)^2 / (U - 1) */
    for (size_t i = 0; i < k; i++) {
        if (!in_welch_test(&sets[i]))
            continue;
        double w = (double)sets[i].units / (sets[i].log_sd * sets[i].log_sd);
        double d = sets[i].log_mean - weighted_mean;
        between += w * d * d;
        lambda += (1.0 - w / weights) * (1.0 - w / weights) / (double)(sets[i].units - 1);
    }
    double g = (double)used, df1 = g - 1.0;
    double f = between / df1 / (1.0 + 2.0 * (g - 2.0) / (g * g - 1.0) * lambda);
    double df2 = lambda > 0.0 ? (g * g - 1.0) / (3.0 * lambda) : INFINITY;
    return f_tail(f, df1, df2);
}

double qsb_one_sided_p(double diff, double se, double df, double bound)
{
    if (isnan(diff) || isnan(se) || isnan(bound))
        return NAN;
    if (se == 0.0)
        return diff > bound ? 0.0 : 1.0;
    return qsb_t_sf((diff - bound) / se, df);
}
