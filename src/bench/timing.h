/*
** The benchmark clock. On x86-64 with an invariant TSC (cpuid 0x80000007, EDX bit 8) it
** counts TSC cycles, read as glibc's benchtests and Intel's guide do: `lfence; rdtsc` at the
** start, `rdtscp; lfence` at the stop, so the sort can neither start before the first read
** nor be still retiring at the second. The TSC frequency is calibrated once against
** CLOCK_MONOTONIC_RAW, so cycles convert to time. Elsewhere (or when nanoseconds are asked
** for) it reads clock_gettime(CLOCK_MONOTONIC_RAW).
**
** Only the sort goes between qsb_timer_start() and qsb_timer_stop(); both are inline so the
** call costs nothing the sort would be blamed for.
*/
#ifndef QSB_TIMING_H
#define QSB_TIMING_H

#include <stdint.h>
#include <time.h>

#if defined(__x86_64__)
#include <x86intrin.h>
#define QSB_HAVE_TSC 1
#else
#define QSB_HAVE_TSC 0
#endif

typedef enum {
    QSB_TIMER_TSC,  /* counts are TSC cycles */
    QSB_TIMER_CLOCK /* counts are nanoseconds of CLOCK_MONOTONIC_RAW */
} qsb_timer_kind;

typedef struct {
    qsb_timer_kind kind;
    const char *name;     /* "rdtscp" or "clock_gettime(CLOCK_MONOTONIC_RAW)" */
    double resolution_ns; /* one count (TSC) or clock_getres (clock) */
    double tsc_hz;        /* calibrated TSC frequency; 0 for the clock */
} qsb_timer;

/* Does this CPU have an invariant TSC? (Always 0 off x86-64.) */
int qsb_tsc_invariant(void);

/* Sets up the timer: the TSC (calibrated, which takes about 50 ms) when want_tsc and the
** TSC is invariant, else the clock. Returns 0, or -1 when want_tsc cannot be honoured (the
** clock is set up instead). */
int qsb_timer_init(qsb_timer *timer, int want_tsc);

/* The TSC at a frequency calibrated already (by a worker process's run: its 50 ms
** calibration was most of a worker's start), when the TSC is invariant. Returns 0, or -1 (the
** clock is set up instead). */
int qsb_timer_init_tsc_hz(qsb_timer *timer, double tsc_hz);

static inline uint64_t qsb_clock_ns(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC_RAW, &ts);
    return (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
}

/* Keeps the compiler from moving memory accesses (the input copy, the result) across a
** timer read. */
#define QSB_COMPILER_BARRIER() __asm__ __volatile__("" ::: "memory")

static inline uint64_t qsb_timer_start(const qsb_timer *timer)
{
    QSB_COMPILER_BARRIER();
#if QSB_HAVE_TSC
    if (timer->kind == QSB_TIMER_TSC) {
        _mm_lfence(); /* earlier instructions finish before the counter is read */
        uint64_t t = __rdtsc();
        _mm_lfence(); /* and the sort does not begin before it */
        QSB_COMPILER_BARRIER();
        return t;
    }
#endif
    (void)timer;
    uint64_t ns = qsb_clock_ns();
    QSB_COMPILER_BARRIER();
    return ns;
}

static inline uint64_t qsb_timer_stop(const qsb_timer *timer)
{
    QSB_COMPILER_BARRIER();
#if QSB_HAVE_TSC
    if (timer->kind == QSB_TIMER_TSC) {
        unsigned aux;
        uint64_t t = __rdtscp(&aux); /* waits for the sort's instructions to retire */
        _mm_lfence();                /* later instructions do not start before the read */
        QSB_COMPILER_BARRIER();
        return t;
    }
#endif
    (void)timer;
    return qsb_clock_ns();
}

/* A count of this timer in nanoseconds. */
double qsb_timer_to_ns(const qsb_timer *timer, uint64_t count);

#endif
