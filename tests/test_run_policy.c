/*
** The run's wiring of the measurement modules, without a clock: the progress line's
** remaining-time format (qsb_progress_format), and the table's "± h" and "no
** significant change" drawn from the paired delta's interval.
*/
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "progress.h"
#include "report.h"
#include "result.h"
#include "run.h"

static void test_progress_eta(void)
{
    char buf[128];
    qsb_progress_format(buf, 127, 3, 45, "random n=786432 size=8", 65.0, 125.0);
    CHECK_MSG(strcmp(buf, "[3/45] 6% random n=786432 size=8  1:05 elapsed, ~2:05 left") == 0,
              "%s", buf);
    qsb_progress_format(buf, 127, 0, 45, "x", 1.0, -1.0);
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
    test_progress_eta();
    test_table_interval();
    return check_done();
}
