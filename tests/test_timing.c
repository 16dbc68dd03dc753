/*
** The benchmark clock of src/bench/timing.c. Without an argument (the suite): the clock
** fallback is what it says and never runs backwards; a TSC timer given its frequency (as a
** worker is given its run's) converts counts by it, whatever this machine's TSC; without an
** invariant TSC, asking for one fails and leaves the clock.
**
** With the argument "calibration" (ctest label timing, its own pass: it reads the real clock
** across a sleep): the calibrated frequency is plausible and converts a TSC interval into the
** nanoseconds of CLOCK_MONOTONIC_RAW measured around it (nested intervals: the inner one can
** only be shorter). No speed is asserted.
*/
#include <string.h>
#include <time.h>

#include "check.h"
#include "timing.h"

static void test_clock(void)
{
    qsb_timer t;
    CHECK(qsb_timer_init(&t, 0) == 0);
    CHECK(t.kind == QSB_TIMER_CLOCK);
    CHECK(strcmp(t.name, "clock_gettime(CLOCK_MONOTONIC_RAW)") == 0);
    CHECK(t.tsc_hz == 0 && t.resolution_ns > 0 && t.resolution_ns < 1e6);
    CHECK(qsb_timer_to_ns(&t, 12345) == 12345.0);
    uint64_t last = qsb_timer_start(&t);
    for (int i = 0; i < 1000; i++) {
        uint64_t now = qsb_timer_stop(&t);
        CHECK(now >= last);
        last = now;
    }
}

/* A given frequency: counts are its cycles. */
static void test_given_frequency(void)
{
    qsb_timer t;
    if (!qsb_tsc_invariant()) {
        CHECK(qsb_timer_init(&t, 1) == -1);
        CHECK(t.kind == QSB_TIMER_CLOCK);
        printf("no invariant TSC: only the fallback was checked\n");
        return;
    }
    CHECK(qsb_timer_init_tsc_hz(&t, 2.5e9) == 0);
    CHECK(t.kind == QSB_TIMER_TSC && strcmp(t.name, "rdtscp") == 0);
    CHECK(t.tsc_hz == 2.5e9);
    CHECK(t.resolution_ns == 0.4);
    CHECK(qsb_timer_to_ns(&t, 5000000000u) == 2e9);
    CHECK(qsb_timer_to_ns(&t, 0) == 0);
}

static void test_calibration(void)
{
    qsb_timer t;
    if (!qsb_tsc_invariant()) {
        printf("no invariant TSC: nothing to calibrate\n");
        return;
    }
    CHECK(qsb_timer_init(&t, 1) == 0);
    CHECK(t.kind == QSB_TIMER_TSC && strcmp(t.name, "rdtscp") == 0);
    CHECK_MSG(t.tsc_hz > 1e8 && t.tsc_hz < 1e11, "TSC at %g Hz", t.tsc_hz);
    CHECK(t.resolution_ns > 0 && t.resolution_ns * t.tsc_hz > 0.999e9 &&
          t.resolution_ns * t.tsc_hz < 1.001e9);

    uint64_t outer_start = qsb_clock_ns();
    uint64_t start = qsb_timer_start(&t);
    struct timespec pause = {0, 20000000L};
    nanosleep(&pause, NULL);
    uint64_t stop = qsb_timer_stop(&t);
    uint64_t outer = qsb_clock_ns() - outer_start;
    double inner = qsb_timer_to_ns(&t, stop - start);
    CHECK_MSG(inner >= 0.99 * 20e6 && inner <= 1.01 * (double)outer,
              "20 ms sleep: TSC says %.0f ns, the clock around it %llu ns", inner,
              (unsigned long long)outer);
}

int main(int argc, char **argv)
{
    if (argc > 1 && strcmp(argv[1], "calibration") == 0)
        test_calibration();
    else {
        test_clock();
        test_given_frequency();
    }
    return check_done();
}
