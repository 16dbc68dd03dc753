/*
** The benchmark matrix (run.c) and the whole `run` command after parsing (cmd_run.c).
**
** For each cell (pattern x element size x element count, in the cover letter's order) the
** input is generated once; every algorithm sorts a separate copy once through the counting
** comparator (the comparisons column); then rounds follow, and in each round every algorithm
** sorts once, in forward order in even rounds and reverse order in odd ones, so that slow
** drifts of the machine hit all of them alike. Before each timed sort the input is copied
** into a page-aligned work buffer (writing, so touching, all of its pages); only the sort is
** timed; the result is verified afterwards (verify.h). A failed verification marks that row
** FAILED with the reason and that algorithm sorts no more in the cell; the run goes on.
**
** How many rounds a cell gets is a policy, asked after each round: the fixed one below, or
** the adaptive one of step 4.
*/
#ifndef QSB_RUN_H
#define QSB_RUN_H

#include <signal.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "result.h"
#include "run_config.h"
#include "timing.h"

/* The fixed default: rounds so that a cell costs about as much as 2^23 element-sorts, odd
** (a true median), between 3 and 31: 31 rounds up to 270,000 elements, 11 at 786,432, 3 at
** 8,388,608. */
uint64_t qsb_default_reps(uint64_t nelem);

typedef struct {
    /* Rounds to run before the first question; at least 1. */
    size_t (*min_rounds)(void *state, const qsb_cell *cell);
    /* Asked after each further round (rows[i].samples hold `rounds` samples each, failed rows
    ** fewer) with the seconds spent in the cell so far: true to run one more round. NULL:
    ** stop after min_rounds. May set rows' `noisy`. */
    bool (*go_on)(void *state, qsb_cell *cell, size_t rounds, double elapsed_s);
    void *state;
} qsb_rep_policy;

/* *reps rounds (--reps N), or qsb_default_reps() per cell when *reps is 0. The policy
** reads *reps, which must outlive it. */
qsb_rep_policy qsb_fixed_rep_policy(uint64_t *reps);

typedef struct {
    const qsb_run_config *config;
    const qsb_timer *timer;          /* NULL for the comparisons metric */
    qsb_rep_policy policy;
    volatile sig_atomic_t *stop;     /* set from a signal handler: stop after this sort */
    bool progress;                   /* draw the progress line (progress.h) */
} qsb_run_setup;

typedef struct {
    double timed_ns;  /* time inside timed sorts */
    size_t failed;    /* rows that failed verification */
} qsb_run_totals;

/* Runs the matrix into results (cells appended; the context is the caller's). Returns QSB_OK,
** QSB_FINDING when a row failed verification, or QSB_ESYSTEM (reported) when out of memory.
** When *stop is set the unfinished cell is dropped, results->context.incomplete is set and
** the status is that of the cells finished. */
int qsb_run_matrix(const qsb_run_setup *setup, qsb_results *results, qsb_run_totals *totals);

/* The run command after parsing (cmd_run.c): checks, result files opened before the run,
** the run, the reports, the files committed. Returns the exit status. Tests call it with a
** config whose algos hold sort functions of their own. */
int qsb_run_execute(const qsb_run_config *config);

#endif
