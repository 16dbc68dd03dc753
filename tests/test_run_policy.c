/*
** The run's wiring of the measurement modules, without a clock: the adaptive repetition
** policy of run.h on hand-built cells (when it stops, which rows it flags noisy, failed rows
** left out, --reps N as N..N), the remaining-time estimate of the progress line
** (qsb_estimate_remaining, qsb_progress_format_eta), and the table's "± h" and "no
** significant change" drawn from the paired delta's interval.
*/
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "adaptive.h"
#include "check.h"
#include "progress.h"
#include "report.h"
#include "result.h"
#include "run.h"

/* A cell of two rows whose samples are given; rounds = the shorter length. */
static qsb_cell *cell_with(qsb_results *r, const double *a, size_t na, const double *b,
                           size_t nb)
{
    const char *names[] = {"base", "cand"};
    qsb_cell *cell = qsb_results_add_cell(r, "random", 1000, 4, names, 2);
    for (size_t i = 0; i < na; i++)
        qsb_row_add_sample(&cell->rows[0], a[i]);
    for (size_t i = 0; i < nb; i++)
        qsb_row_add_sample(&cell->rows[1], b[i]);
    return cell;
}

static const double flat[] = {1000, 1000, 1000, 1000, 1000, 1000, 1000, 1000};
static const double wide[] = {1000, 1300, 800, 1250, 900, 1100, 700, 1200};

static void test_adaptive_policy(void)
{
    qsb_adaptive_policy p = {1.0, 3, 200, 2.0};
    qsb_rep_policy policy = qsb_adaptive_rep_policy(&p);
    CHECK_EQ_U64(policy.min_rounds(policy.state, NULL), 3);
    qsb_results r;
    memset(&r, 0, sizeof r);

    /* Both precise: stop, nobody noisy. */
    qsb_cell *cell = cell_with(&r, flat, 3, flat, 3);
    CHECK(!policy.go_on(policy.state, cell, 3, 0.1));
    CHECK(!cell->rows[0].noisy && !cell->rows[1].noisy);

    /* One scattered row, budget left: go on; nothing flagged yet. */
    cell = cell_with(&r, flat, 4, wide, 4);
    CHECK(policy.go_on(policy.state, cell, 4, 0.1));
    CHECK(!cell->rows[0].noisy && !cell->rows[1].noisy);

    /* Budget spent: stop, and only the scattered row is noisy. */
    CHECK(!policy.go_on(policy.state, cell, 4, 1.9));
    CHECK(!cell->rows[0].noisy && cell->rows[1].noisy);

    /* A failed row no longer sorts: the precise verified row alone decides. */
    cell = cell_with(&r, flat, 5, wide, 2);
    qsb_row_fail(&cell->rows[1], "not sorted at index 1");
    CHECK(!policy.go_on(policy.state, cell, 5, 0.1));
    CHECK(!cell->rows[0].noisy && !cell->rows[1].noisy);

    /* --reps 8: the policy with 8..8 rounds and no budget stops at 8 and flags the row
    ** short of the precision. */
    qsb_adaptive_policy fixed = {1.0, 8, 8, 0.0};
    qsb_rep_policy reps = qsb_adaptive_rep_policy(&fixed);
    CHECK_EQ_U64(reps.min_rounds(reps.state, NULL), 8);
    cell = cell_with(&r, flat, 8, wide, 8);
    CHECK(!reps.go_on(reps.state, cell, 8, 100.0));
    CHECK(!cell->rows[0].noisy && cell->rows[1].noisy);
    /* A looser target is met by the same samples. */
    fixed.precision_pct = 50.0;
    cell = cell_with(&r, flat, 8, wide, 8);
    CHECK(!reps.go_on(reps.state, cell, 8, 100.0));
    CHECK(!cell->rows[1].noisy);
    qsb_results_free(&r);
}

static void test_estimate(void)
{
    /* Nothing begun: unknown. */
    qsb_cell_progress cells[4] = {{1, 0, 0, false}, {3, 0, 0, false}, {10, 0, 0, false},
                                  {20, 0, 0, false}};
    qsb_adaptive_policy adaptive = {1.0, 3, 200, 2.0};
    CHECK(qsb_estimate_remaining(cells, 4, &adaptive) < 0);

    /* Cell 0 did 5 rounds in 1 s (0.2 s a round, 0.2 s per unit of work) and is done; cell 1
    ** did 1 round in 0.6 s. Adaptive: each unfinished cell runs to its 2 s budget, and at
    ** least to 3 rounds: cell 1 has 1.4 s left; cells 2 and 3 (2 s and 4 s a round) need 3
    ** rounds: 6 s and 12 s. */
    cells[0] = (qsb_cell_progress){1, 5, 1.0, true};
    cells[1] = (qsb_cell_progress){3, 1, 0.6, false};
    CHECK(fabs(qsb_estimate_remaining(cells, 4, &adaptive) - (1.4 + 6 + 12)) < 1e-9);

    /* --reps 4 (4..4 rounds, no budget): cell 1 has 3 rounds left (1.8 s), cells 2 and 3
    ** four each (8 s, 16 s). */
    qsb_adaptive_policy fixed = {1.0, 4, 4, 0.0};
    CHECK(fabs(qsb_estimate_remaining(cells, 4, &fixed) - (1.8 + 8 + 16)) < 1e-9);

    /* The round limit caps the budget: 2 rounds at most, 1 left for cell 1 (0.6 s); cells 2
    ** and 3 still need their minimum (here 2 rounds: 4 s and 8 s). */
    qsb_adaptive_policy capped = {1.0, 2, 2, 100.0};
    CHECK(fabs(qsb_estimate_remaining(cells, 4, &capped) - (0.6 + 4 + 8)) < 1e-9);

    /* All done: nothing left. */
    for (size_t i = 0; i < 4; i++)
        cells[i].done = true;
    CHECK(qsb_estimate_remaining(cells, 4, &adaptive) == 0.0);

    char buf[128];
    qsb_progress_format_eta(buf, 127, 3, 45, "random n=786432 size=8", 65.0, 125.0);
    CHECK_MSG(strcmp(buf, "[3/45] 6% random n=786432 size=8  1:05 elapsed, ~2:05 left") == 0,
              "%s", buf);
    qsb_progress_format_eta(buf, 127, 0, 45, "x", 1.0, -1.0);
    CHECK_MSG(strcmp(buf, "[0/45] 0% x  0:01 elapsed, ~? left") == 0, "%s", buf);
}

static char *table_of(const qsb_results *r)
{
    char *text = NULL;
    size_t len = 0;
    FILE *fp = open_memstream(&text, &len);
    CHECK(fp && qsb_report_table(fp, r, NULL) == 0);
    fclose(fp);
    return text;
}

static void add_delta_cell(qsb_results *r, uint64_t nelem, double pct, double lo, double hi)
{
    const char *names[] = {"msort", "introsort"};
    qsb_cell *c = qsb_results_add_cell(r, "sorted", nelem, 4, names, 2);
    c->rows[0].summary.median = 1000.0;
    c->rows[1].summary.median = 1000.0 * (1 + pct / 100);
    c->rows[1].delta_pct = pct;
    c->rows[1].delta_lo = lo;
    c->rows[1].delta_hi = hi;
}

static void test_table_interval(void)
{
    qsb_results r;
    memset(&r, 0, sizeof r);
    qsb_set_string(&r.baseline, "msort");
    add_delta_cell(&r, 49152, 52.46875, 52.0625, 52.875); /* asymmetric: 0.40625 / 0.40625 */
    add_delta_cell(&r, 786432, 0.25, -0.5, 1.0);          /* contains zero */
    add_delta_cell(&r, 8388608, -3.0, -4.5, -2.75);       /* h = max(1.5, 0.25) */
    add_delta_cell(&r, 1000, 1.0, 0.0, 2.0);              /* zero on the edge: contained */
    add_delta_cell(&r, 2000, 7.0, NAN, NAN);              /* fewer than 6 rounds */
    char *t = table_of(&r);
    CHECK_MSG(strstr(t, "  elements=    49152 (size= 4):  +52.47% \xc2\xb1 0.41 (msort=1000.0 "
                        "introsort=1524.7)\n") != NULL, "%s", t);
    CHECK(strstr(t, "  elements=   786432 (size= 4):   +0.25% \xc2\xb1 0.75 (msort=1000.0 "
                    "introsort=1002.5)  no significant change\n") != NULL);
    CHECK(strstr(t, "  elements=  8388608 (size= 4):   -3.00% \xc2\xb1 1.50 (msort=1000.0 "
                    "introsort=970.0)\n") != NULL);
    CHECK(strstr(t, "  elements=     1000 (size= 4):   +1.00% \xc2\xb1 1.00 (msort=1000.0 "
                    "introsort=1010.0)  no significant change\n") != NULL);
    CHECK(strstr(t, "  elements=     2000 (size= 4):   +7.00% (msort=1000.0 "
                    "introsort=1070.0)\n") != NULL);
    free(t);
    qsb_results_free(&r);
}

int main(void)
{
    test_adaptive_policy();
    test_estimate();
    test_table_interval();
    return check_done();
}
