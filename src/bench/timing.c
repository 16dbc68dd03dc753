/*
** The benchmark clock (see timing.h): invariant-TSC detection, TSC calibration against
** CLOCK_MONOTONIC_RAW, and the clock fallback.
*/
#include "timing.h"

#include <errno.h>

#if QSB_HAVE_TSC
#include <cpuid.h>
#endif

#define CALIBRATION_NS 50000000L /* 50 ms: calibration error well under 0.01% */

int qsb_tsc_invariant(void)
{
#if QSB_HAVE_TSC
    unsigned eax, ebx, ecx, edx;
    if (!__get_cpuid(0x80000000u, &eax, &ebx, &ecx, &edx) || eax < 0x80000007u)
        return 0;
    if (!__get_cpuid(0x80000007u, &eax, &ebx, &ecx, &edx))
        return 0;
    return (edx >> 8) & 1; /* "TscInvariant": constant rate, runs in every C/P state */
#else
    return 0;
#endif
}

#if QSB_HAVE_TSC
/* One simultaneous-as-possible (clock, TSC) pair: the TSC read is bracketed by two clock
** reads and matched with their midpoint. */
static void read_pair(uint64_t *clock_ns, uint64_t *tsc)
{
    uint64_t before = qsb_clock_ns();
    _mm_lfence();
    *tsc = __rdtsc();
    _mm_lfence();
    uint64_t after = qsb_clock_ns();
    *clock_ns = before + (after - before) / 2;
}

static double calibrate_tsc_hz(void)
{
    uint64_t c0, t0, c1, t1;
    read_pair(&c0, &t0);
    struct timespec pause = {0, CALIBRATION_NS};
    while (nanosleep(&pause, &pause) != 0 && errno == EINTR)
        ;
    read_pair(&c1, &t1);
    if (c1 <= c0 || t1 <= t0)
        return 0;
    return (double)(t1 - t0) * 1e9 / (double)(c1 - c0);
}
#endif

static void init_clock(qsb_timer *timer)
{
    struct timespec res;
    timer->kind = QSB_TIMER_CLOCK;
    timer->name = "clock_gettime(CLOCK_MONOTONIC_RAW)";
    timer->tsc_hz = 0;
    timer->resolution_ns = clock_getres(CLOCK_MONOTONIC_RAW, &res) == 0
                               ? (double)res.tv_sec * 1e9 + (double)res.tv_nsec
                               : 1;
}

/* The TSC at hz (0: calibrated here) when it is invariant; else -1 and the clock. */
static int init_tsc(qsb_timer *timer, double hz)
{
    init_clock(timer);
#if QSB_HAVE_TSC
    if (qsb_tsc_invariant()) {
        if (!(hz > 0))
            hz = calibrate_tsc_hz();
        if (hz > 0) {
            timer->kind = QSB_TIMER_TSC;
            timer->name = "rdtscp";
            timer->tsc_hz = hz;
            timer->resolution_ns = 1e9 / hz;
            return 0;
        }
    }
#else
    (void)hz;
#endif
    return -1;
}

int qsb_timer_init(qsb_timer *timer, int want_tsc)
{
    if (!want_tsc) {
        init_clock(timer);
        return 0;
    }
    return init_tsc(timer, 0);
}

int qsb_timer_init_tsc_hz(qsb_timer *timer, double tsc_hz)
{
    return init_tsc(timer, tsc_hz);
}

double qsb_timer_to_ns(const qsb_timer *timer, uint64_t count)
{
    if (timer->kind == QSB_TIMER_TSC)
        return (double)count * 1e9 / timer->tsc_hz;
    return (double)count;
}
