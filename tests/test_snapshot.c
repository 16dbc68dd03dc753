/*
** The finished part of a one-process run handed to its owner (src/bench/snapshot.h): what a
** forked child takes is what the parent reads once the child has ended, the last whole one
** when the child took several, nothing when it took none (or before it starts again); a
** deep copy of results (result.h qsb_results_copy) is its own; the snapshots are taken as
** the finished cells grow by an eighth.
*/
#include <math.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "check.h"
#include "diag.h"
#include "result.h"
#include "snapshot.h"

/* Results of `cells` cells of two rows, the second failed, with samples in two units. */
static void make_results(qsb_results *r, size_t cells)
{
    memset(r, 0, sizeof *r);
    const char *names[2] = {"msort", "introsort"};
    qsb_set_string(&r->baseline, "msort");
    qsb_set_string(&r->context.metric, "cycles");
    r->context.incomplete = true;
    for (size_t c = 0; c < cells; c++) {
        qsb_cell *cell = qsb_results_add_cell(r, "random", 1000 * (c + 1), 4, names, 2);
        for (uint32_t k = 0; k < 6; k++)
            qsb_row_add_sample(&cell->rows[0], 100.0 + k, k / 3);
        cell->rows[0].summary.median = 102.5;
        cell->rows[0].comparisons = 8714;
        qsb_row_fail(&cell->rows[1], "crashed: signal 11");
    }
}

static void check_like(const qsb_results *got, size_t cells)
{
    CHECK_EQ_U64(got->ncells, cells);
    CHECK(got->context.incomplete);
    for (size_t c = 0; c < got->ncells && c < cells; c++) {
        const qsb_cell *cell = &got->cells[c];
        CHECK_EQ_U64(cell->nelem, 1000 * (c + 1));
        CHECK_EQ_U64(cell->nrows, 2);
        CHECK_EQ_U64(cell->rows[0].nsamples, 6);
        CHECK(cell->rows[0].nsamples == 6 && cell->rows[0].samples[5] == 105.0);
        CHECK(cell->rows[0].units && cell->rows[0].units[5] == 1);
        CHECK_EQ_U64(cell->rows[0].comparisons, 8714);
        CHECK(!cell->rows[1].verified);
        CHECK(cell->rows[1].failure && strcmp(cell->rows[1].failure, "crashed: signal 11") == 0);
    }
}

static void check_copy(void)
{
    qsb_results r, copy;
    make_results(&r, 3);
    CHECK(qsb_results_copy(&copy, &r) == 0);
    r.cells[0].rows[0].samples[5] = -1; /* the copy's arrays are its own */
    qsb_results_free(&r);
    check_like(&copy, 3);
    CHECK(copy.baseline && strcmp(copy.baseline, "msort") == 0);
    qsb_results_free(&copy);
}

/* A child takes `takes` snapshots, of 1, 2, ... cells, and exits. */
static void take_in_child(qsb_snapshot *s, int takes)
{
    fflush(NULL);
    pid_t pid = fork();
    if (pid == 0) {
        for (int i = 1; i <= takes; i++) {
            qsb_results r;
            make_results(&r, (size_t)i);
            if (qsb_snapshot_take(s, &r) != 0)
                _exit(1);
            qsb_results_free(&r);
        }
        _exit(0);
    }
    int wstatus = 0;
    CHECK(pid > 0 && waitpid(pid, &wstatus, 0) == pid && WIFEXITED(wstatus) &&
          WEXITSTATUS(wstatus) == 0);
}

static void check_handed_over(void)
{
    qsb_snapshot *s = qsb_snapshot_create();
    CHECK(s != NULL);
    if (!s)
        return;
    CHECK(!qsb_snapshot_taken(s));
    for (int takes = 1; takes <= 3; takes++) { /* each slot, and one written over */
        qsb_snapshot_clear(s);
        take_in_child(s, takes);
        CHECK(qsb_snapshot_taken(s));
        qsb_results got;
        CHECK(qsb_snapshot_read(s, &got) == QSB_OK);
        check_like(&got, (size_t)takes);
        qsb_results_free(&got);
    }
    qsb_snapshot_clear(s);
    CHECK(!qsb_snapshot_taken(s));
    take_in_child(s, 0);
    CHECK(!qsb_snapshot_taken(s));
    qsb_snapshot_free(s);
}

static void check_due(void)
{
    CHECK(!qsb_snapshot_due(0, 0));
    CHECK(qsb_snapshot_due(0, 1));  /* the first at once */
    CHECK(qsb_snapshot_due(1, 2));
    CHECK(qsb_snapshot_due(8, 9));  /* an eighth */
    CHECK(!qsb_snapshot_due(9, 10));
    CHECK(qsb_snapshot_due(16, 18));
    CHECK(!qsb_snapshot_due(17, 17));
    /* a matrix of 1000 cells finished one by one: a few dozen snapshots, not a thousand */
    size_t shared = 0, taken = 0;
    for (size_t kept = 1; kept <= 1000; kept++)
        if (qsb_snapshot_due(shared, kept)) {
            shared = kept;
            taken++;
        }
    CHECK_MSG(taken < 60, "%zu snapshots", taken);
}

int main(void)
{
    check_copy();
    check_handed_over();
    check_due();
    return check_done();
}
