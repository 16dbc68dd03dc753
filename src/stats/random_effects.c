/*
** The level between runs (see random_effects.h).
*/
#include "random_effects.h"

#include <math.h>

#include "student_t.h"

#define Z975 1.959964 /* the normal's 97.5th percentile */
#define POWER 0.8

int qsb_random_effects_dl(const double *y, const double *v, size_t n, qsb_random_effects *out)
{
    double sw = 0, sw2 = 0, swy = 0;
    size_t k = 0;
    for (size_t i = 0; i < n; i++) {
        if (!isfinite(y[i]) || !(v[i] > 0) || !isfinite(v[i]))
            continue;
        double w = 1.0 / v[i];
        sw += w;
        sw2 += w * w;
        swy += w * y[i];
        k++;
    }
    *out = (qsb_random_effects){k, NAN, NAN, NAN, NAN};
    if (k == 1) { /* one run: its own estimate and variance, no spread between runs */
        out->mean = swy / sw;
        out->mean_var = 1.0 / sw;
    }
    if (k < 2)
        return -1;
    double fixed = swy / sw, q = 0;
    for (size_t i = 0; i < n; i++)
        if (isfinite(y[i]) && v[i] > 0 && isfinite(v[i]))
            q += (y[i] - fixed) * (y[i] - fixed) / v[i];
    double c = sw - sw2 / sw;
    out->q = q;
    out->tau2 = c > 0 ? fmax(0.0, (q - (double)(k - 1)) / c) : 0.0;
    double rw = 0, rwy = 0;
    for (size_t i = 0; i < n; i++)
        if (isfinite(y[i]) && v[i] > 0 && isfinite(v[i])) {
            double w = 1.0 / (v[i] + out->tau2);
            rw += w;
            rwy += w * y[i];
        }
    out->mean = rwy / rw;
    out->mean_var = 1.0 / rw;
    return 0;
}

double qsb_tau2_shrunk(double tau2, size_t k, double pooled)
{
    if (!isfinite(tau2) || k == 0)
        return pooled;
    if (!isfinite(pooled))
        return tau2;
    return ((double)k * tau2 + QSB_SHRINK_RUNS * pooled) / ((double)k + QSB_SHRINK_RUNS);
}

double qsb_prediction_sd(const qsb_random_effects *re, double tau2, double v_new)
{
    return sqrt(tau2 + re->mean_var + (isfinite(v_new) && v_new > 0 ? v_new : 0.0));
}

double qsb_prediction_df(const qsb_random_effects *re, double tau2, double v_new)
{
    if (re->k < 2)
        return INFINITY;
    double history = tau2 + re->mean_var;
    double all = history + (isfinite(v_new) && v_new > 0 ? v_new : 0.0);
    return history > 0 ? all * all / (history * history / (double)(re->k - 1)) : INFINITY;
}

double qsb_detectable_pct(double threshold_pct, double sd, double alpha, double df)
{
    double margin = (qsb_t_quantile(1.0 - alpha, df) + qsb_t_quantile(POWER, df)) * sd;
    return expm1(log1p(threshold_pct / 100.0) + margin) * 100.0;
}

double qsb_level_pct(double var)
{
    return isfinite(var) && var >= 0 ? expm1(Z975 * sqrt(var)) * 100.0 : NAN;
}

double qsb_interval_variance(double log_lo, double log_hi)
{
    double half = (log_hi - log_lo) / 2.0 / Z975;
    return isfinite(half) && half > 0 ? half * half : NAN;
}
