/*
** States: the separated speeds at which a row's units (worker processes) ran. The speed a
** process keeps is often the host's state, not the sort's (docs/measurement.md, "States"), so
** a row whose processes fall into groups far apart is reported per group, each with its own
** delta and interval, beside the mixture's.
**
** Finding them: the units' log medians, sorted, are split at their widest gap that leaves
** QSB_STATE_MIN_UNITS units, and QSB_STATE_MIN_SHARE of the row's, on each side; the split stands when the gap is at least
** QSB_STATE_MIN_GAP and a Monte Carlo test rejects one normal population of the logs at level
** QSB_STATES_ALPHA. The statistic, the two sides' means apart in standard errors (pooled sd),
** is location- and scale-free, so its null distribution depends on the number of units only
** and is drawn, with a fixed seed, from QSB_STATES_NULL_DRAWS normal samples of that size,
** split the same way. Each side is then tested again, up to QSB_STATES_MAX states. The states
** are a partition of the speed axis, so they can be applied to another row's units (a
** candidate grouped by its baseline's states). Two runs' states are matched by speed: mutual
** nearest on the log scale, at most QSB_STATE_MATCH_RATIO apart.
**
** Pure: no I/O, no global state; the same input gives the same states.
*/
#ifndef QSB_STATES_H
#define QSB_STATES_H

#include <stddef.h>
#include <stdint.h>

#include "units.h"

#define QSB_STATES_MAX 8          /* states a row can report */
#define QSB_STATE_MIN_UNITS 3     /* units a state holds at least */
#define QSB_STATE_MIN_SHARE 0.10  /* share of the row's units a state holds at least */
#define QSB_STATE_MIN_GAP 0.05    /* log-speed gap between neighbouring states, at least */
#define QSB_STATES_ALPHA 0.01     /* level of each separation test */
#define QSB_STATES_DELTA_ALPHA 0.01 /* level of the test of a candidate's states' deltas */
#define QSB_STATES_NULL_DRAWS 1000
#define QSB_STATES_SEED UINT64_C(0x5ea7e55eed)
#define QSB_STATE_MATCH_RATIO 1.25 /* at most 25% apart (docs/results.md#states-match-tolerance) */
#define QSB_SLOWED_SPREADS 5.0    /* robust sds above its group's speed: a unit slowed */

typedef struct {
    size_t count;                       /* 0: one speed; else 2 .. QSB_STATES_MAX */
    double bound[QSB_STATES_MAX - 1];   /* a unit median below bound[k] is in state k or an
                                        ** earlier one (fastest state first); ascending */
    size_t units[QSB_STATES_MAX];       /* units found in each state */
    size_t slowed; /* units of the slowest state (or of the one speed) more than
                   ** QSB_SLOWED_SPREADS robust sds (1.4826 MAD) and QSB_STATE_MIN_GAP above its
                   ** median, too few for a state: slowed by the machine, not a speed it gives;
                   ** still counted in units[], and in the row's figures */
} qsb_states;

/* The states of units' medians (medians[0..u), any order, all positive and finite; u may be
** 0). Returns 0, or -1 when out of memory. */
int qsb_states_of_medians(const double *medians, size_t u, qsb_states *out);

/* The states of values[i] taken in units[i] (non-finite values skipped; a unit's value is the
** median of its own). No units (NULL) or a median that is not positive: no states. Returns 0,
** or -1 when out of memory. */
int qsb_states_of(const double *values, const uint32_t *units, size_t n, qsb_states *out);

/* The state (0 .. count-1) of a unit whose median is `median`; 0 when there are no states. */
size_t qsb_state_index(const qsb_states *s, double median);

/* Of the states of s with QSB_STATE_MIN_UNITS units or more, the widest 95% t interval of the
** units' values x[j] (unit j's speed speed[j] decides its state) on the log scale, as a
** half-width in % of the estimate, (exp(h) - 1) * 100: what a schedule compares with its
** precision target, state by state. 0 when no state has that many units; INFINITY when a value
** of one is not positive and finite. */
double qsb_states_widest_pct(const qsb_states *s, const double *speed, const double *x, size_t u);

#define QSB_NO_STATE UINT8_MAX

/* unit_state[u] for every unit u below units_cap: the state of unit u by its median of by[]
** (sample i in units[i]), QSB_NO_STATE for a unit without samples, units_cap and above, or
** whose median is not positive and finite. Returns 0, or -1 when out of memory. */
int qsb_states_of_units(const qsb_states *s, const double *by, const uint32_t *units, size_t n,
                        uint8_t *unit_state, size_t units_cap);

/* One state of a row, as the files and the table give it. */
typedef struct {
    uint32_t processes;  /* units in the state */
    double share;        /* processes / the row's units in any state */
    double median;       /* median of the row's units' medians in the state */
    double median_lo, median_hi; /* the t interval of the state's speed, exp(m +- t(0.975,
                                  ** k-1) s / sqrt(k)) over its units' log medians; NAN under
                                  ** QSB_STATE_MIN_UNITS units (what --precision judges; the
                                  ** files do not carry it) */
    double delta_pct;    /* geometric mean of the units' paired ratios, (r - 1) * 100; NAN for
                         ** a baseline */
    double delta_lo, delta_hi; /* its 95% t interval over the state's units; NAN under
                                ** QSB_STATE_MIN_UNITS units ("too few") or for a baseline */
    qsb_unit_spread log_ratios; /* the units' log paired ratios, for the test of the states'
                                ** deltas (0 units for a baseline; not in the files) */
} qsb_state_estimate;

/* The estimates of each state of s (out[0 .. s->count)) for a row whose sample i (of n) was
** taken in units[i]: a unit's state is decided by its median of by[] (the row that defined the
** states: the row itself, or its baseline), its median by its median of values[], and, when
** base is not NULL, its paired ratio by its median of values[i] / base[i]. A unit whose `by`
** median is not finite and positive is in no state. Returns 0, or -1 when out of memory or
** s has no states. */
int qsb_state_estimates(const qsb_states *s, const double *by, const double *values,
                        const double *base, const uint32_t *units, size_t n,
                        qsb_state_estimate *out);

/* Whether a candidate's delta differs between the states of its estimates est[0..n): Welch's
** one-way test over the states of QSB_STATE_MIN_UNITS units or more (student_t.h), its p; NAN
** when fewer than two such states (a baseline's have none) or one of them has no spread. The
** states were found on the baseline's speeds, not on these ratios, so the test is not of the
** split itself. */
double qsb_states_delta_p(const qsb_state_estimate *est, size_t n);

/* Matched pairs of states of two runs (base[k] with cand[k], k < n), and how many states of
** each run have no partner. */
typedef struct {
    size_t n;
    uint8_t base[QSB_STATES_MAX], cand[QSB_STATES_MAX];
    size_t only_base, only_new;
} qsb_state_pairs;

/* Matches states by speed: speeds a[0..na), b[0..nb) (positive). Two single states always
** match (a row without states against one without). */
void qsb_match_states(const double *a, size_t na, const double *b, size_t nb,
                      qsb_state_pairs *out);

#endif
