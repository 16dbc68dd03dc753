/* Simulated history series (series_gen.h). */
#include "series_gen.h"

#include <math.h>

double series_uniform(series_rng *r)
{
    uint64_t z = (r->state += 0x9e3779b97f4a7c15ull);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
    z ^= z >> 31;
    return ((double)(z >> 11) + 0.5) / 9007199254740992.0;
}

double series_normal(series_rng *r)
{
    double u = series_uniform(r);
    return sqrt(-2.0 * log(u)) * cos(6.283185307179586 * series_uniform(r));
}

double series_run_delta(series_rng *r, double true_pct, double host_sd)
{
    return (1.0 + true_pct / 100.0) * (1.0 + host_sd / 100.0 * series_normal(r)) * 100.0 - 100.0;
}
