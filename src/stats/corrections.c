/*
** Corrections of p-values for many tests (see corrections.h): Holm and Benjamini-Hochberg.
*/
#include "corrections.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

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
