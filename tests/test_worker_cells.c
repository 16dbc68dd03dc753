/*
** The choice of a later worker's cells (worker_cells.h) over made-up finished workers: the
** states of a cell's baseline speeds with each state's processes and what it would need for
** the precision (a cell with states reported even where it meets the target), and the visits of workers in flight counted as coming, so that two workers
** at once do not both go where one visit was worth most.
*/
#include <math.h>
#include <string.h>

#include "check.h"
#include "state_needs.h"
#include "worker_cells.h"

#define WORKERS 12
#define CELLS 2

static qsb_row rows[WORKERS][CELLS][2];
static qsb_cell cells[WORKERS][CELLS];
static qsb_merge_input runs[WORKERS];
static size_t where_of[WORKERS][CELLS];
static size_t *where[WORKERS];
static double cost_s[CELLS] = {1.0, 1.0}, cost_max_s[CELLS] = {1.0, 1.0};
static size_t costed[CELLS] = {WORKERS, WORKERS}, visits[CELLS] = {WORKERS, WORKERS};
static size_t pending[CELLS];

/* Cell 0: 8 processes near 100 and 4 near 160 (two states); cell 1: all near 100, slightly
** spread. Candidates' deltas spread a little around -10%. */
static qsb_worker_tally made_up(void)
{
    for (size_t r = 0; r < WORKERS; r++) {
        for (size_t c = 0; c < CELLS; c++) {
            double jitter = (double)(r % 4) * 0.5;
            double speed = c == 0 && r >= 8 ? 160.0 + jitter : 100.0 + jitter * (c + 1);
            memset(rows[r][c], 0, sizeof rows[r][c]);
            for (size_t i = 0; i < 2; i++) {
                rows[r][c][i].verified = true;
                rows[r][c][i].summary.median = i ? speed * 0.9 : speed;
            }
            rows[r][c][1].delta_pct = -10.0 + (double)(r % 3) * 0.4;
            cells[r][c] = (qsb_cell){.rows = rows[r][c], .nrows = 2};
            where_of[r][c] = c;
        }
        memset(&runs[r], 0, sizeof runs[r]);
        runs[r].run.cells = cells[r];
        runs[r].run.ncells = CELLS;
        where[r] = where_of[r];
    }
    memset(pending, 0, sizeof pending);
    return (qsb_worker_tally){.runs = runs, .n = WORKERS, .where = where, .cost_s = cost_s,
                              .costed = costed, .cost_max_s = cost_max_s, .visits = visits,
                              .pending = pending};
}

static void test_state_needs(void)
{
    qsb_worker_tally t = made_up();
    size_t got[QSB_STATES_MAX], need[QSB_STATES_MAX];
    CHECK_EQ_U64(qsb_tally_state_needs(&t, 1.0, got, need), 2);
    CHECK_EQ_U64(got[0], 8); /* fastest first */
    CHECK_EQ_U64(got[1], 4);
    CHECK(need[0] >= QSB_STATE_MIN_UNITS && need[1] >= QSB_STATE_MIN_UNITS);
    /* a loose target: every state holds it with its minimum; a tight one: far beyond */
    CHECK_EQ_U64(qsb_tally_state_needs(&t, 90.0, got, need), 2);
    CHECK_EQ_U64(need[0], QSB_STATE_MIN_UNITS);
    CHECK_EQ_U64(need[1], QSB_STATE_MIN_UNITS);
    CHECK_EQ_U64(qsb_tally_state_needs(&t, 1e-6, got, need), 2);
    CHECK_EQ_U64(need[0], QSB_STATE_NEED_CAP);
    CHECK_EQ_U64(need[1], QSB_STATE_NEED_CAP);
    /* no target: nothing to need */
    CHECK_EQ_U64(qsb_tally_state_needs(&t, 0.0, got, need), 0);
}

/* With room for one cell only, the one whose visit narrows most goes first; once enough
** workers in flight visit it (pending), the other cell is worth more. */
static void test_pending_visits(void)
{
    qsb_worker_tally t = made_up();
    double need0 = qsb_tally_cell_need(&t, 0, 0.01), need1 = qsb_tally_cell_need(&t, 1, 0.01);
    CHECK(need0 > 0 && need1 > 0 && need0 != need1);
    size_t best = need1 > need0 ? 1 : 0, other = 1 - best;
    double wide = fmax(need0, need1), narrow = fmin(need0, need1);
    size_t chosen[CELLS];
    /* left: a start and one visit */
    CHECK_EQ_U64(qsb_tally_choose_cells(&t, 0.01, 0.0, 1.5, chosen), 1);
    CHECK_EQ_U64(chosen[0], best);
    for (size_t k = 0; k < 1000 && qsb_tally_choose_cells(&t, 0.01, 0.0, 1.5, chosen) == 1 &&
                       chosen[0] == best;
         k++)
        qsb_tally_pending(&t, &best, 1, +1);
    CHECK_EQ_U64(chosen[0], other);
    size_t in_flight = pending[best];
    CHECK(in_flight > 0);
    /* gain w / ((visits + pending) cost): the switch comes where wide / (12 + p) < narrow / 12 */
    CHECK(wide / (double)(WORKERS + in_flight) <= narrow / (double)WORKERS);
    CHECK(wide / (double)(WORKERS + in_flight - 1) > narrow / (double)WORKERS);
    /* their ends take the pending visits back */
    for (size_t k = 0; k < in_flight; k++)
        qsb_tally_pending(&t, &best, 1, -1);
    CHECK_EQ_U64(pending[best], 0);
    CHECK_EQ_U64(qsb_tally_choose_cells(&t, 0.01, 0.0, 1.5, chosen), 1);
    CHECK_EQ_U64(chosen[0], best);
    /* workers in flight on every cell (the minimum's) count too, and end */
    qsb_tally_pending(&t, NULL, 0, +1);
    CHECK_EQ_U64(t.pending_all, 1);
    qsb_tally_pending(&t, NULL, 0, -1);
    CHECK_EQ_U64(t.pending_all, 0);
}

int main(void)
{
    test_state_needs();
    test_pending_visits();
    return check_done();
}
