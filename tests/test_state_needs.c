/*
** The processes a run's states got and would need for --precision (state_needs.h): the need
** of one state against hand-worked values, the medians over the candidates' rows with the most
** states, the baseline's rows and rows without states left out, and the words of the run's
** last lines.
*/
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "check.h"
#include "state_needs.h"
#include "states_row.h"

/* One state: m (h / p)^2 rounded up, at least 3, at most the cap; 3 without an interval. */
static void test_one_state(void)
{
    CHECK_EQ_U64(qsb_state_need(12, 2.0, 1.0), 48);
    CHECK_EQ_U64(qsb_state_need(9, 0.5, 1.0), 3);   /* 2.25: enough, but never under 3 */
    CHECK_EQ_U64(qsb_state_need(10, 1.5, 0.5), 90); /* 10 x 9 */
    CHECK_EQ_U64(qsb_state_need(2, NAN, 1.0), 3);   /* too few: no interval */
    CHECK_EQ_U64(qsb_state_need(4, 1000.0, 1.0), QSB_STATE_NEED_CAP);
}

static qsb_row rows[5][2];
static qsb_cell cells[5];

static void set_cell(size_t c, const char *baseline, const char *candidate, bool verified)
{
    for (size_t i = 0; i < 2; i++)
        qsb_row_free(&rows[c][i]);
    rows[c][0].verified = true;
    set_states(&rows[c][0], baseline, NULL);
    rows[c][1].verified = verified;
    set_states(&rows[c][1], candidate, NULL);
    cells[c].rows = rows[c];
    cells[c].nrows = 2;
}

/* Three rows of two states (worked by hand below), one without states, one failed. */
static void test_medians(void)
{
    /* state 0: +-1.8 around -23.1: 2.3407% of the ratio 0.769, 12 x 5.479 = 65.7 -> 66;
    ** state 1: +-2.2 around -41.0: 3.7288% of 0.59, 9 x 13.904 = 125.1 -> 126 */
    set_cell(0, "0.50(10)@100.0;0.50(11)@300.0",
             "0.57(12)@2010345.0/-23.10[-24.90,-21.30];0.43(9)@2931002.5/-41.00[-43.20,-38.80]",
             true);
    /* 1% of 1.00: 10; 2 of 1.10: 1.818%, 10 x 3.306 = 33.06 -> 34 */
    set_cell(1, NULL, "0.50(10)@100.0/0.00[-1.00,1.00];0.50(10)@200.0/10.00[8.00,12.00]", true);
    /* 0.5%: 8 x 0.25 = 2 -> 3; 2 processes: too few -> 3 */
    set_cell(2, NULL, "0.80(8)@100.0/0.00[-0.50,0.50];0.20(2)@200.0/5.00", true);
    set_cell(3, NULL, NULL, true);
    set_cell(4, NULL, "0.50(30)@100.0/0.00[-9.00,9.00];0.50(30)@200.0/0.00[-9.00,9.00]", false);
    qsb_results r;
    memset(&r, 0, sizeof r);
    r.cells = cells;
    r.ncells = 5;
    qsb_state_needs n;
    qsb_state_needs_of(&r, 1.0, &n);
    CHECK_EQ_U64(n.states, 2);
    CHECK_EQ_U64(n.rows, 3);
    CHECK_EQ_U64(n.got[0], 10); /* of 12, 10, 8 */
    CHECK_EQ_U64(n.got[1], 9);  /* of 9, 10, 2 */
    CHECK_EQ_U64(n.need[0], 10); /* of 66, 10, 3 */
    CHECK_EQ_U64(n.need[1], 34); /* of 126, 34, 3 */
    char words[256];
    size_t len = qsb_state_needs_words(&n, 1.0, words, sizeof words);
    CHECK_MSG(strcmp(words, "the states got 10 / 9 processes (median over the 3 rows with 2 "
                            "states); +-1% would take about 10 / 34 processes each") == 0,
              "%s", words);
    CHECK_EQ_U64(len, strlen(words));

    /* a row with three states: only the rows with the most states speak */
    set_cell(3, NULL,
             "0.40(8)@100.0/0.00[-2.00,2.00];0.30(6)@150.0/1.00[0.00,2.00];"
             "0.30(6)@200.0/2.00",
             true);
    qsb_state_needs_of(&r, 1.0, &n);
    CHECK_EQ_U64(n.states, 3);
    CHECK_EQ_U64(n.rows, 1);
    CHECK_EQ_U64(n.got[0], 8);
    CHECK_EQ_U64(n.need[0], 32);              /* 2% of 1.00: 8 x 4 */
    CHECK_EQ_U64(n.need[1], 6);               /* 1/1.01 = 0.990%: 6 x 0.980 = 5.9 -> 6 */
    CHECK_EQ_U64(n.need[2], QSB_STATE_MIN_UNITS); /* no interval */

    /* no row with states: nothing said */
    for (size_t c = 0; c < 5; c++)
        set_cell(c, "0.50(10)@100.0;0.50(11)@300.0", NULL, true);
    qsb_state_needs_of(&r, 1.0, &n);
    CHECK_EQ_U64(n.states, 0);
    CHECK_EQ_U64(qsb_state_needs_words(&n, 1.0, words, sizeof words), 0);
    CHECK(words[0] == '\0');
}

int main(void)
{
    test_one_state();
    test_medians();
    return check_done();
}
