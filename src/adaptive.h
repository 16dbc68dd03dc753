/*
** The repetition policy of a cell, as pure functions: no clock inside (elapsed time is
** passed in, so tests drive it with a fake timer), no I/O.
**
** A cell runs rounds; in each round every algorithm sorts once. After each round the run
** asks qsb_adaptive_decide() whether to go on. It stops when every algorithm's median and
** every candidate's paired ratio to the baseline (the delta the run reports) are known to
** the target precision (the half-width of the 95% interval, relative to the median or the
** ratio), or when the round limit or the cell's time budget says so; a cell that stops
** without reaching the precision is noisy. --reps N is the same policy with
** min_reps = max_reps = N.
*/
#ifndef QSB_ADAPTIVE_H
#define QSB_ADAPTIVE_H

#include <stdbool.h>
#include <stddef.h>

typedef struct {
    double precision_pct; /* target half-width of the median's 95% interval, % of the median */
    size_t min_reps;      /* rounds always run, whatever the budget */
    size_t max_reps;      /* round limit; 0 = none (the time budget alone ends the cell) */
    double max_time_s;    /* time budget of one cell in seconds; 0 = none */
} qsb_adaptive_policy;

#define QSB_ADAPTIVE_DEFAULT_PRECISION_PCT 1.0
#define QSB_ADAPTIVE_DEFAULT_MIN_REPS 3
#define QSB_ADAPTIVE_DEFAULT_MAX_REPS 200
#define QSB_ADAPTIVE_DEFAULT_MAX_TIME_S 2.0

/* 1%, 3 rounds at least, 200 at most, 2 s per cell. */
qsb_adaptive_policy qsb_adaptive_default_policy(void);

typedef struct {
    bool stop;  /* run no more rounds */
    bool noisy; /* stopping without the precision reached (only meaningful with stop) */
} qsb_adaptive_decision;

/* How precisely n samples give their median: the half-width of the 95% interval of the
** median (stats.h, order statistics) in % of the median. Below 6 samples that interval does
** not exist, and nothing short of it is claimed: constant samples count as exact (0), any
** others as unknown (INFINITY): the range [min, max] is no substitute, it covers the median
** only with probability 1 - 2^(1-n) (75% at 3 samples). 0 for a zero-width interval,
** INFINITY when the median is not positive or n == 0. Returns 0, or -1 when out of memory. */
int qsb_median_precision_pct(const double *x, size_t n, double *pct);

/* How precisely n paired rounds give the paired ratio cand/base (the delta of stats.h's
** qsb_paired_delta): the half-width of its 95% interval in % of the ratio. INFINITY below
** 6 pairs (no interval) unless every ratio is the same; also INFINITY (unknown) when no
** pair is valid or memory runs out. */
double qsb_ratio_precision_pct(const double *base, const double *cand, size_t n);

/* After `rounds` complete rounds of a cell with `nalgos` algorithms (samples[a][0..rounds-1]
** are algorithm a's samples in round order; with `paired`, samples[0] is the baseline's and
** the others' ratios to it must be precise too) and `elapsed_s` seconds spent in the cell:
**   fewer than min_reps rounds                       -> go on;
**   every median (and ratio) within precision_pct    -> stop;
**   max_reps rounds reached                          -> stop, noisy;
**   budget spent, or one more round (at the mean
**   round time so far) would overrun it              -> stop, noisy;
**   otherwise                                        -> go on.
** Returns 0, or -1 when out of memory. */
int qsb_adaptive_decide(const qsb_adaptive_policy *policy, const double *const *samples,
                        size_t nalgos, bool paired, size_t rounds, double elapsed_s,
                        qsb_adaptive_decision *decision);

#define QSB_BATCH_RESOLUTION_FACTOR 1000.0
#define QSB_BATCH_MAX 1000000u

/* How many sorts to time back to back as one sample, so that a sample lasts at least
** max(1000 * resolution, min_sample): ceil(target / one_sort), at least 1 and at most
** QSB_BATCH_MAX. All three in the same unit (e.g. ns). A one_sort estimate of 0 (the first
** measurement did not tick the clock) counts as one resolution step, which gives a lower
** bound: measure again with that batch and ask again. */
unsigned long qsb_batch_count(double resolution, double one_sort, double min_sample);

/* Slowed samples (run.h, step 7): is `sample` more than pct % above `fastest`, the fastest of
** the row's n samples so far? Never below QSB_SLOWED_MIN_SAMPLES samples (no reference yet),
** nor when pct is 0. */
#define QSB_SLOWED_MIN_SAMPLES 2
bool qsb_sample_slowed(double fastest, size_t n, double sample, double pct);

/* Where a cell of a run stands, for the estimate of the time left. */
typedef struct {
    double work;     /* relative cost of one round (e.g. n log2 n), for cells not begun */
    size_t rounds;   /* rounds done */
    double rounds_s; /* their seconds */
    bool done;
} qsb_cell_progress;

/* Seconds of rounds left in a run under the policy, assuming each unfinished cell goes on
** until its budget or round limit ends it (an upper bound: a cell may reach the precision
** sooner), and at least to min_reps rounds. A round of a cell not begun costs its work times
** the seconds per unit of work of the cells begun. Negative (unknown) when no cell has a
** round yet. Pure, like the rest of this module. */
double qsb_estimate_remaining(const qsb_cell_progress *cells, size_t n,
                              const qsb_adaptive_policy *policy);

#endif
