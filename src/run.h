/*
** The benchmark matrix (run.c) and the whole `run` command after parsing (cmd_run.c).
**
** Sweeps. The cells (pattern x element size x element count, in the cover letter's order)
** are visited sweep after sweep: each visit of an unfinished cell runs a slice of rounds
** (until the policy ends the cell, or for `slice_s` seconds, at least one round), then the
** next cell's turn comes. So a cell's rounds are spread over the run instead of bunched into
** a few seconds: on these shared machines the speed of memory and caches changes from one
** stretch of seconds to the next and does not hit two algorithms alike, so rounds taken at
** one moment agree with each other and not with those of another moment; spread out, they
** sample the moments, and the median of their paired ratios is the same from run to run.
**
** A visit of a cell:
** 1. The input is generated (again at each visit: all inputs would not fit in memory).
** 2. At the first visit every algorithm sorts a copy once through the counting comparator
**    (the comparisons column). This sort is untimed, and it also serves as the first
**    warm-up: it runs the same code over the same input just before the timed rounds, faults
**    in the work buffer and msort's scratch memory, and warms the caches and predictors.
** 3. Warm-up: `warmup` untimed sorts per algorithm (QSB_WARMUP_AUTO: one at each visit
**    where a sort takes under QSB_WARMUP_AUTO_LIMIT_S, none where it takes longer).
** 4. Batching: a sort shorter than QSB_MIN_SAMPLE_NS or 1000 timer ticks
**    (qsb_batch_count) is timed in batches of k sorts back to back, k chosen per algorithm
**    at the first visit from untimed probes (or given: --batch K). The k input copies are
**    made into k separate slots of the work buffer BEFORE the interval starts, so every sort
**    of the batch sorts fresh, unsorted data and no copy is timed; the sample is the batch's
**    time / k. The slots are verified afterwards. (Batching only concerns tiny inputs: the
**    k slots of one input fit in 1 MiB. Their copies, made just before, are in the caches as
**    a single sort's copy would be; the sorts share warm code and predictors.)
** 5. A slice of rounds: in each round every algorithm sorts once, in forward order in even
**    rounds and reverse order in odd ones (A B, B A, A B, ...; the count runs on across
**    visits): a drift of the machine that is linear over two rounds then hits the baseline
**    and the candidates alike, and with two algorithms the pair of a round is always
**    adjacent in time. (A seeded shuffle would balance only on average; alternation
**    balances every two rounds.)
**    Before each timed sort the input is copied into a page-aligned work buffer (writing, so
**    touching, all of its pages: no page fault of the work buffer inside the interval); only
**    the sort is timed; the result is verified afterwards (verify.h). A failed verification
**    marks that row FAILED with the reason and that algorithm sorts no more in the cell.
** 6. Preemption: around each timed sort the thread's CPU time is read too. When the interval
**    exceeds the CPU time by more than QSB_DISTURBED_PCT % (plus QSB_DISTURBED_SLACK_NS), the
**    process lost the CPU during the sort (another process, a migration, the hypervisor):
**    such a sample measures the machine, not the algorithm. A sort shorter than
**    QSB_RETAKE_LIMIT_S is then sorted and timed again, in its place in the round, up to
**    QSB_RETAKE_MAX times in all; a longer one, or the last attempt, is kept as it is. The
**    row's `retaken` counts the retakes; their time is overhead.
** 7. Slowed samples: on a shared host the same sort runs at two or more speeds, for stretches
**    of milliseconds to seconds (another tenant on the core's SMT sibling, or on the cache and
**    memory), and a slowed stretch does not slow two algorithms alike: at 49,152 sorted
**    4-byte elements msort took 2.0M cycles in the fast stretches and up to 3.2M in slow
**    ones, introsort 2.9M and 3.4M, so the paired delta was +40% in the one and +15...+25%
**    in the other, and a run's delta depended on how much of it the slow stretches took.
**    Whatever the options, a row of short sorts (under QSB_RETAKE_LIMIT_S) whose median
**    ends more than QSB_SLOWED_FLAG_PCT % above its fastest sample is flagged noisy, with a
**    warning: most of its samples were taken while the machine was slowed (on a steady
**    machine the median is within a few % of the fastest).
**    With --slowed PCT, a short sort whose time exceeds the fastest sample of its row so far
**    by more than PCT % (from the row's third sample on) is retaken like a preempted one,
**    within the same QSB_RETAKE_MAX attempts, so that the samples kept are those of the
**    machine at its speed. It is off by default: on a busy stretch the retakes took half of
**    a cell's --max-time, and gates lost power (README).
**
** How many rounds a cell gets is a policy, asked after each round: the adaptive one below
** (--reps N is the same policy with N..N rounds and no time budget). A cell's summaries
** and deltas are computed once the policy ends it. When a signal stops the run, the results
** are marked incomplete; a cell the policy had not ended is kept when it has its minimum of
** rounds (its rows short of the precision flagged noisy), and dropped otherwise.
*/
#ifndef QSB_RUN_H
#define QSB_RUN_H

#include <signal.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "adaptive.h"
#include "result.h"
#include "run_config.h"
#include "timing.h"

/* Batches make a sample last at least this long (and 1000 timer ticks): the timer's own
** cost (some 20-40 ns a read pair) is then below 0.5% of a sample. */
#define QSB_MIN_SAMPLE_NS 10000.0

#define QSB_DISTURBED_PCT 1.0         /* interval - CPU time above this % of the interval */
#define QSB_DISTURBED_SLACK_NS 20000.0 /* ... plus this: the clock reads' own cost */
#define QSB_RETAKE_LIMIT_S 0.01 /* longer sorts are rarely spared by a busy machine */
#define QSB_RETAKE_MAX 4              /* attempts per sample, the first included */
#define QSB_SLOWED_FLAG_PCT 10.0 /* well above a steady machine's scatter, below a slowdown's */

typedef struct {
    /* Rounds to run before the first question; at least 1. */
    size_t (*min_rounds)(void *state, const qsb_cell *cell);
    /* Asked after each further round (rows[i].samples hold `rounds` samples each, failed rows
    ** fewer) with the seconds spent in the cell's timed rounds so far: true to run one more
    ** round. NULL: stop after min_rounds. May set rows' `noisy`. */
    bool (*go_on)(void *state, qsb_cell *cell, size_t rounds, double elapsed_s);
    void *state;
} qsb_rep_policy;

/* The adaptive policy (adaptive.h, qsb_adaptive_decide) over the cell's verified rows: at
** least policy->min_reps rounds, then more until every median and every candidate's paired
** ratio to a verified baseline is within the precision, or the round limit or time budget
** ends the cell; then each row not within the precision is flagged noisy. *policy must
** outlive the returned policy. */
qsb_rep_policy qsb_adaptive_rep_policy(const qsb_adaptive_policy *policy);

typedef struct {
    const qsb_run_config *config;
    const qsb_timer *timer;          /* NULL for the comparisons metric */
    qsb_rep_policy policy;
    volatile sig_atomic_t *stop;     /* set from a signal handler: stop after this sort */
    bool progress;                   /* draw the progress line (progress.h) */
    bool warn_noisy;                 /* a warning naming each cell that ends noisy */
    double slice_s;                  /* seconds of rounds per visit of a cell (at least one) */
    const qsb_adaptive_policy *adaptive; /* the policy's rules, for the progress line's
                                     ** estimate of the time left; NULL: none */
} qsb_run_setup;

/* Where the run's time went (nanoseconds of CLOCK_MONOTONIC_RAW, the timed sorts in the
** timer's own count converted). What is not in a bucket is the rest of the harness:
** statistics, the policy, the progress line, allocation. */
typedef struct {
    double timed_ns;    /* time inside timed sorts (batches included) */
    size_t failed;      /* rows that failed verification */
    double counted_ns;  /* the sorts through the counting comparator */
    double warmup_ns;   /* warm-up sorts and batch probes */
    double generate_ns; /* generating the inputs and their multiset hashes */
    double copy_ns;     /* copying the input into the work buffer before each sort */
    double verify_ns;   /* checking each result */
    double retake_ns;   /* timed sorts thrown away: preempted or slowed (steps 6 and 7) */
    size_t retakes;     /* how many were preempted */
    size_t slowed;      /* how many were slowed */
    size_t disturbed;   /* samples kept although preempted (long sorts, last attempts) */
    size_t kept_slowed; /* samples kept although slowed (last attempts) */
    size_t noisy_cells; /* cells with a row flagged noisy */
    size_t cells;       /* cells finished */
} qsb_run_totals;

/* Runs the matrix into results (cells appended; the context is the caller's). Returns QSB_OK,
** QSB_FINDING when a row failed verification, or QSB_ESYSTEM (reported) when out of memory.
** When *stop is set, the cells are settled as above, results->context.incomplete is set and
** the status is that of the cells kept. */
int qsb_run_matrix(const qsb_run_setup *setup, qsb_results *results, qsb_run_totals *totals);

/* The run command after parsing (cmd_run.c): checks, result files opened before the run,
** the run, the reports, the files committed. Returns the exit status. Tests call it with a
** config whose algos hold sort functions of their own. */
int qsb_run_execute(const qsb_run_config *config);

#endif
