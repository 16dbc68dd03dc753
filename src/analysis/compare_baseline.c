/*
** A report's candidate rows judged by their ratios to the baseline as well, when it was made
** without --normalize (compare_work.h): a baseline that moved between the runs is said in the
** rows it hides a regression in, and counted where its own rows moved beyond the threshold
** (docs/measurement.md, "Compare and the gates").
*/
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "compare_work.h"
#include "diag.h"
#include "stats.h"

/* Can the candidate rows of r be judged by their ratios to the baseline as well? A timed
** report without --normalize of two files of one baseline (what --normalize requires). */
static bool judgeable_against_baseline(const qsb_compare_report *r)
{
    const char *bb = r->base->baseline, *bn = r->cand->baseline;
    return !r->exact && !r->normalized && bb && bn && strcmp(bb, bn) == 0;
}

/* What the correction of the ratios' tests needs of one entry. */
typedef struct {
    bool slower;    /* the ratio slower beyond the threshold */
    bool untested;  /* a verdict without a test: regression already when slower */
} ratio_judgement;

/* The entry's candidate row judged by its ratio to the baseline, before the correction: its
** one-sided p into *p (NAN when untested), and what the verdict decides by into *rj. */
static int first_ratio_judgement(const qsb_compare_report *r, const qsb_compare_entry *e,
                                 double *p, ratio_judgement *rj)
{
    *p = NAN;
    *rj = (ratio_judgement){false, false};
    if (!e->other || e->row == 0)
        return QSB_OK; /* in one file only, or the baseline itself */
    qsb_comparison it;
    int status = qsb_compare_work_out(r, e, QSB_JUDGE_BY_RATIO, &it);
    bool tested = it.test != QSB_TEST_NONE && it.verdict == QSB_VERDICT_SAME && !isnan(it.p);
    *p = tested ? it.p : NAN;
    rj->slower = tested ? it.change_pct > r->opt.threshold_pct
                        : it.verdict == QSB_VERDICT_REGRESSION;
    rj->untested = !tested;
    return status;
}

/* The adjusted p of each row marked, in r->against_baseline_p at the entry's place. */
static int keep_marked_p(qsb_compare_report *r, const double *p)
{
    size_t n = r->against_baseline_regressions;
    if (n == 0)
        return QSB_OK;
    if (!(r->against_baseline_p = malloc(n * sizeof *r->against_baseline_p)))
        return qsb_out_of_memory("compare");
    size_t k = 0;
    for (size_t i = 0; i < r->n; i++)
        if (r->entries[i].regression_against_baseline) {
            r->entries[i].against_baseline_at = (uint32_t)k;
            r->against_baseline_p[k++] = p[i];
        }
    return QSB_OK;
}

/* The same tests as --normalize's, at the report's threshold and alpha. */
int qsb_judge_against_baseline(qsb_compare_report *r)
{
    if (!judgeable_against_baseline(r))
        return QSB_OK;
    size_t room = r->n ? r->n : 1;
    double *p = malloc(room * sizeof *p);
    ratio_judgement *rj = malloc(room * sizeof *rj);
    int status = p && rj ? QSB_OK : qsb_out_of_memory("compare");
    for (size_t i = 0; i < r->n && status == QSB_OK; i++)
        status = first_ratio_judgement(r, &r->entries[i], &p[i], &rj[i]);
    if (status == QSB_OK && qsb_adjust_p(p, r->n, r->opt.correction, p) < 0)
        status = qsb_out_of_memory("compare");
    for (size_t i = 0; i < r->n && status == QSB_OK; i++) {
        qsb_compare_entry *e = &r->entries[i];
        bool regression = rj[i].slower && (rj[i].untested || p[i] < r->opt.alpha);
        bool own = e->verdict == QSB_VERDICT_REGRESSION || e->verdict == QSB_VERDICT_FAILED ||
                   e->verdict == QSB_VERDICT_BASE_FAILED;
        e->regression_against_baseline = regression && !own;
        r->against_baseline_regressions += e->regression_against_baseline;
        r->baseline_moved += e->other && e->row == 0 &&
                             (e->verdict == QSB_VERDICT_REGRESSION ||
                              e->verdict == QSB_VERDICT_IMPROVED);
    }
    if (status == QSB_OK)
        status = keep_marked_p(r, p);
    r->judged_against_baseline = status == QSB_OK;
    free(p);
    free(rj);
    return status;
}

int qsb_view_against_baseline(const qsb_compare_report *r, const qsb_compare_entry *e,
                              qsb_baseline_view *v)
{
    qsb_comparison by_ratio;
    int status = qsb_compare_work_out(r, e, QSB_JUDGE_BY_RATIO, &by_ratio);
    *v = (qsb_baseline_view){true, by_ratio.change_pct, by_ratio.change_lo, by_ratio.change_hi,
                             by_ratio.p, r->against_baseline_p[e->against_baseline_at]};
    return status;
}
