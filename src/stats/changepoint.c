/*
** The penalised step fit (changepoint.h). F(t), the least cost of y[0..t-1] cut into
** segments, is min over admissible s of F(s) + C(s, t) + beta, where C is the weighted sum of
** squares of one segment from prefix sums (centred on y[0], so that log-medians near 12 keep
** their digits). A start s is dropped for every end from t + min_length on once
** F(s) + C(s, t) > F(t) at an end t that can itself start a segment: by then any fit starting
** its last segment at s is beaten by one that cuts at t (C(s, T) >= C(s, t) + C(t, T)).
*/
#include "changepoint.h"

#include <math.h>
#include <stdint.h>
#include <stdlib.h>

#include "stats.h"

#define NEIGHBOURS 2 /* cuts either side of a binary segmentation's also offered to the fit */

typedef struct {
    double *w, *wy, *wyy; /* prefix sums of 1/var, y/var, y^2/var: [0..n] */
} prefix_sums;

static double segment_cost(const prefix_sums *p, size_t s, size_t t)
{
    double w = p->w[t] - p->w[s], wy = p->wy[t] - p->wy[s], wyy = p->wyy[t] - p->wyy[s];
    double c = wyy - wy * wy / w;
    return c > 0.0 ? c : 0.0;
}

static int prefix_build(prefix_sums *p, const double *y, const double *var, size_t n)
{
    p->w = malloc(3 * (n + 1) * sizeof *p->w);
    if (!p->w)
        return -1;
    p->wy = p->w + n + 1;
    p->wyy = p->wy + n + 1;
    p->w[0] = p->wy[0] = p->wyy[0] = 0.0;
    for (size_t i = 0; i < n; i++) {
        double yi = y[i] - y[0], wi = 1.0 / var[i];
        p->w[i + 1] = p->w[i] + wi;
        p->wy[i + 1] = p->wy[i] + wi * yi;
        p->wyy[i + 1] = p->wyy[i] + wi * yi * yi;
    }
    return 0;
}

/* The start a segment ending at t may have: the series' start, or an admissible cut with
** room for a segment before it; the segment itself long enough unless it is the last. */
static int admissible(size_t s, size_t t, size_t n, size_t min_length)
{
    return t - s >= min_length || (t == n && t > s);
}

/* Binary segmentation (Scott & Knott 1974) of [from, to): the cut of largest gain, kept as a
** candidate when the gain passes `gate`, then each side likewise; candidates marked in mark.
** A cut needs min_length points on each side, but the series' end may be one point alone. */
static void mark_candidates(const prefix_sums *p, const unsigned char *can_start, size_t from,
                            size_t to, size_t n, size_t min_length, double gate,
                            unsigned char *mark, unsigned depth)
{
    if (to - from < 2 || depth > 64)
        return;
    double whole = segment_cost(p, from, to), best_gain = 0.0;
    size_t best = 0;
    for (size_t c = from + 1; c < to; c++) {
        int room = c - from >= min_length && (to - c >= min_length || to == n);
        if (!room || (can_start && !can_start[c]))
            continue;
        double gain = whole - segment_cost(p, from, c) - segment_cost(p, c, to);
        if (gain > best_gain) {
            best_gain = gain;
            best = c;
        }
    }
    if (!best || best_gain <= gate)
        return;
    mark[best] = 1;
    mark_candidates(p, can_start, from, best, n, min_length, gate, mark, depth + 1);
    mark_candidates(p, can_start, best, to, n, min_length, gate, mark, depth + 1);
}

/* For a long series, the cuts the exact fit may choose among: binary segmentation's, with a
** quarter of the penalty as its gate, and their neighbours. NULL when out of memory. */
static unsigned char *long_series_candidates(const prefix_sums *p,
                                             const unsigned char *can_start, size_t n,
                                             size_t min_length, double beta)
{
    unsigned char *mark = calloc(n, 1), *wide = calloc(n, 1);
    if (!mark || !wide) {
        free(mark);
        free(wide);
        return NULL;
    }
    mark_candidates(p, can_start, 0, n, n, min_length, beta / 4.0, mark, 0);
    for (size_t i = 1; i < n; i++)
        for (size_t d = 0; d <= NEIGHBOURS && mark[i]; d++) {
            if (i >= d && i - d >= 1)
                wide[i - d] = 1;
            if (i + d < n)
                wide[i + d] = 1;
        }
    for (size_t i = 0; i < n; i++)
        wide[i] = wide[i] && (!can_start || can_start[i]);
    free(mark);
    return wide;
}

size_t qsb_step_fit(const double *y, const double *var, const unsigned char *can_start,
                    size_t n, size_t min_length, double beta, size_t *starts)
{
    if (n < 2)
        return 0;
    if (min_length < 1)
        min_length = 1;
    prefix_sums p;
    double *F = malloc((n + 1) * sizeof *F);
    size_t *last = malloc((n + 1) * sizeof *last);    /* the start of the last segment */
    size_t *alive = malloc((n + 1) * sizeof *alive);  /* candidate starts */
    size_t *dead_from = malloc((n + 1) * sizeof *dead_from);
    p.w = NULL;
    unsigned char *candidates = NULL;
    if (!F || !last || !alive || !dead_from || prefix_build(&p, y, var, n) != 0 ||
        (n > QSB_STEP_FIT_EXACT_MAX &&
         !(candidates = long_series_candidates(&p, can_start, n, min_length, beta)))) {
        free(F), free(last), free(alive), free(dead_from), free(p.w);
        return (size_t)-1;
    }
    if (candidates)
        can_start = candidates;
    size_t nalive = 1;
    alive[0] = 0;
    F[0] = -beta;
    dead_from[0] = SIZE_MAX;
    for (size_t t = 1; t <= n; t++) {
        F[t] = INFINITY;
        last[t] = 0;
        for (size_t k = 0; k < nalive; k++) {
            size_t s = alive[k];
            if (dead_from[s] <= t || !admissible(s, t, n, min_length))
                continue;
            double f = F[s] + segment_cost(&p, s, t) + beta;
            if (f < F[t]) {
                F[t] = f;
                last[t] = s;
            }
        }
        int can_cut = t < n && t >= min_length && (!can_start || can_start[t]) && isfinite(F[t]);
        if (!can_cut)
            continue;
        /* prune: starts beaten by a cut at t, from the first end t can reach on */
        size_t kept = 0;
        for (size_t k = 0; k < nalive; k++) {
            size_t s = alive[k];
            if (dead_from[s] <= t)
                continue;
            if (admissible(s, t, n, min_length) && F[s] + segment_cost(&p, s, t) > F[t] &&
                t + min_length < dead_from[s])
                dead_from[s] = t + min_length;
            alive[kept++] = s;
        }
        alive[kept++] = t;
        dead_from[t] = SIZE_MAX;
        nalive = kept;
    }
    /* walk the cuts back from the end */
    size_t count = 0;
    for (size_t t = n; t > 0 && last[t] > 0; t = last[t])
        starts[count++] = last[t];
    for (size_t i = 0; i < count / 2; i++) {
        size_t tmp = starts[i];
        starts[i] = starts[count - 1 - i];
        starts[count - 1 - i] = tmp;
    }
    free(F), free(last), free(alive), free(dead_from), free(p.w), free(candidates);
    return count;
}

void qsb_weighted_mean(const double *y, const double *var, size_t from, size_t to,
                       double *mean, double *mean_var)
{
    double w = 0.0, wy = 0.0;
    for (size_t i = from; i < to; i++) {
        w += 1.0 / var[i];
        wy += y[i] / var[i];
    }
    *mean = w > 0.0 ? wy / w : NAN;
    *mean_var = w > 0.0 ? 1.0 / w : NAN;
}

/* E[Z^2 | |Z| < z] for a standard normal Z, z its two-sided point of share q: the mean
** square of the smallest share q of |Z| is this part of the variance. */
static double trimmed_share(double q)
{
    double z = qsb_t_quantile((1.0 + q) / 2.0, INFINITY);
    double density = exp(-z * z / 2.0) / sqrt(2.0 * M_PI);
    return 1.0 - 2.0 * z * density / q;
}

double qsb_between_variance(const double *y, const double *var, size_t n)
{
    if (n < 3)
        return 0.0;
    double *d = malloc(n * sizeof *d);
    if (!d)
        return 0.0;
    for (size_t i = 1; i < n; i++)
        d[i - 1] = fabs(y[i] - y[i - 1]);
    qsb_sort_doubles(d, n - 1);
    size_t dropped = (n - 1) / 10 ? (n - 1) / 10 : 1, kept = n - 1 - dropped; /* >= 1 */
    double sum = 0.0;
    for (size_t i = 0; i < kept; i++)
        sum += d[i] * d[i];
    double point_var = sum / (double)kept / trimmed_share((double)kept / (double)(n - 1)) / 2.0;
    for (size_t i = 0; i < n; i++)
        d[i] = var[i];
    qsb_sort_doubles(d, n);
    double own = qsb_median_of_sorted(d, n);
    free(d);
    double between = point_var - own;
    return between > 0.0 ? between : 0.0;
}
