/*
** Regression checks between results (compare.h): the change of the median of each matched
** row, the test over units (or Mann-Whitney for files without units), the correction over
** every tested row and the verdicts, and without --normalize each candidate's test against its
** baseline as well. Rows are matched as compare_match.h says; the gate of `run --fail-above` is compare_gate.c, the calibration
** report compare_calibration.c. Pure: prints nothing but diagnostics.
*/
#include "compare.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "compare_match.h"
#include "compare_states.h"
#include "diag.h"
#include "stats.h"

static const char *const verdict_names[QSB_VERDICT_COUNT] = {
    "same", "REGRESSION", "improved", "too few samples", "FAILED", "BASE failed",
    "only in BASE", "only in NEW", "reference", "unresolved",
};

const char *qsb_verdict_name(qsb_verdict v)
{
    return v < QSB_VERDICT_COUNT ? verdict_names[v] : "?";
}


/* A report of millions of rows costs this a row (and its rows' cells and slim rows). */
_Static_assert(sizeof(qsb_compare_entry) == 48, "a report entry is 48 bytes");

/* ---- one comparison ---- */

/* How a row is worked out: as the report judges it, or by its per-round ratios to the
** baseline (as --normalize judges a candidate) whatever the report's options. */
typedef enum {
    JUDGE_AS_REPORTED,
    JUDGE_BY_RATIO,
} judging;

/* Nothing known yet: no names, every value unknown. */
static void blank_item(qsb_comparison *it)
{
    memset(it, 0, sizeof *it);
    it->base_value = it->new_value = NAN;
    it->change_pct = it->change_lo = it->change_hi = it->p = NAN;
    it->p_adjusted = it->p_faster = it->p_faster_adjusted = NAN;
    it->state_speed = NAN;
    it->against_baseline = (qsb_baseline_view){false, NAN, NAN, NAN, NAN, NAN};
}

static void init_item(qsb_comparison *it, const qsb_cell *cell, const qsb_row *row)
{
    blank_item(it);
    it->pattern = cell->pattern;
    it->algorithm = row->algorithm;
    it->nelem = cell->nelem;
    it->size = cell->size;
}

/* What a timed comparison works on: a row's samples, or (normalize) its per-round ratios to
** the cell's baseline row, round i by round i; with the unit of each. */
typedef struct {
    double *ratios;         /* malloc'd when normalized, else NULL */
    uint32_t *unit_buf;     /* likewise */
    const double *x;
    const uint32_t *units;  /* NULL when the file has none */
    size_t n;
    double file_median;     /* for rows without samples: the file's median (or its ratio) */
    double drift;           /* the file's time-level factor for such values (stats.h), >= 1 */
} values;


static int row_values(const qsb_row *row, const qsb_row *ref, const qsb_context *ctx,
                      values *v)
{
    v->drift = compare_drift(ctx, ref != NULL);
    v->ratios = NULL;
    v->unit_buf = NULL;
    v->x = row->samples;
    v->units = row->units;
    v->n = row->nsamples;
    v->file_median = row->summary.median;
    if (!ref)
        return QSB_OK;
    size_t n = row->nsamples < ref->nsamples ? row->nsamples : ref->nsamples;
    v->ratios = malloc((n ? n : 1) * sizeof *v->ratios);
    v->unit_buf = malloc((n ? n : 1) * sizeof *v->unit_buf);
    if (!v->ratios || !v->unit_buf)
        return qsb_out_of_memory("compare");
    size_t k = 0;
    for (size_t i = 0; i < n; i++)
        if (ref->samples[i] > 0.0) {
            v->unit_buf[k] = row->units ? row->units[i] : 0;
            v->ratios[k++] = row->samples[i] / ref->samples[i];
        }
    v->x = v->ratios;
    v->units = row->units ? v->unit_buf : NULL;
    v->n = k;
    v->file_median = ref->summary.median > 0.0 ? row->summary.median / ref->summary.median
                                               : NAN;
    return QSB_OK;
}

/* The median of the values when there are samples (the file's summary could have been
** edited), else the file's. */
static int values_median(const values *v, double *median)
{
    if (v->n == 0) {
        *median = v->file_median;
        return QSB_OK;
    }
    qsb_summary s;
    if (qsb_summarize(v->x, v->n, &s) != 0)
        return qsb_out_of_memory("compare");
    *median = s.median;
    return QSB_OK;
}

/* The verdict of a row that is not tested (exact counts, or no samples): its change against
** the threshold alone. */
static void by_threshold(qsb_comparison *it, double threshold_pct)
{
    if (it->change_pct > threshold_pct)
        it->verdict = QSB_VERDICT_REGRESSION;
    else if (it->change_pct < -threshold_pct)
        it->verdict = QSB_VERDICT_IMPROVED;
}

/* Both medians of the values (values_median) and the change between them. */
static int medians_and_change(qsb_comparison *it, const values *b, const values *n)
{
    int status = values_median(b, &it->base_value);
    if (status == QSB_OK)
        status = values_median(n, &it->new_value);
    if (it->base_value > 0.0 && isfinite(it->new_value))
        it->change_pct = (it->new_value / it->base_value - 1.0) * 100.0;
    return status;
}

static void judge_exact(qsb_comparison *it, const qsb_row *b, const qsb_row *n,
                        const qsb_compare_options *opt)
{
    it->base_value = (double)b->comparisons;
    it->new_value = (double)n->comparisons;
    if (b->comparisons > 0)
        it->change_pct = (it->new_value / it->base_value - 1.0) * 100.0;
    else
        it->change_pct = n->comparisons > 0 ? INFINITY : 0.0;
    it->change_lo = it->change_hi = it->change_pct;
    by_threshold(it, opt->threshold_pct);
}

/* Welch's t over the units of both (compare.h). Rows with fewer than 2 units on a side are
** left untested. */
static int test_units(qsb_comparison *it, const values *b, const values *n,
                      const qsb_compare_options *opt)
{
    qsb_unit_spread sb, sn;
    if (qsb_unit_spread_of(b->x, b->units, b->n, &sb) != 0 ||
        qsb_unit_spread_of(n->x, n->units, n->n, &sn) != 0)
        return qsb_out_of_memory("compare");
    it->base_units = sb.units;
    it->new_units = sn.units;
    sb.log_sd *= b->drift; /* the level above units, as each run measured it */
    sn.log_sd *= n->drift;
    qsb_welch w;
    if (qsb_welch_units(&sb, &sn, &w) != 0)
        return QSB_OK;
    /* --run-level: each run moved as a whole by a level of sd l / 1.96 (l its log half-width),
    ** which its units cannot show; the df stay Welch's (the level's own are unknown). */
    double level = qsb_run_level_log(opt->run_level_pct) / QSB_Z975;
    w.se = sqrt(w.se * w.se + 2.0 * level * level);
    it->test = QSB_TEST_UNITS;
    double thr = opt->threshold_pct / 100.0;
    it->p = qsb_one_sided_p(w.diff, w.se, w.df, log1p(thr));
    it->p_faster = thr < 1.0 ? qsb_one_sided_p(-w.diff, w.se, w.df, -log1p(-thr)) : 1.0;
    double h = w.se > 0.0 ? qsb_t_quantile(0.975, w.df) * w.se : 0.0;
    it->change_lo = expm1(w.diff - h) * 100.0;
    it->change_hi = expm1(w.diff + h) * 100.0;
    return QSB_OK;
}

/* The interval stretched to hold the change, as a run's intervals hold its pooled median:
** the change is the ratio of the pooled medians, while the test's interval is centred on the
** units' mean logs, and where a state's processes spread widely the two part. A row whose
** change lies beyond the threshold is then never one whose interval stays within it. */
static void hold_change(qsb_comparison *it)
{
    if (isnan(it->change_lo) || isnan(it->change_hi) || isnan(it->change_pct))
        return;
    it->change_lo = fmin(it->change_lo, it->change_pct);
    it->change_hi = fmax(it->change_hi, it->change_pct);
}

/* Computes the change and the row's p-values; the verdict of a tested row waits for the
** correction over all rows (decide_tested). */
static int judge_values(qsb_comparison *it, const values *b, const values *n,
                        const qsb_compare_options *opt)
{
    int status = medians_and_change(it, b, n);
    if (status != QSB_OK)
        return status;
    it->base_n = b->n;
    it->new_n = n->n;
    it->threshold_only = b->n == 0 || n->n == 0;
    if (it->threshold_only) {
        by_threshold(it, opt->threshold_pct);
        return QSB_OK;
    }
    if (b->units && n->units) {
        status = test_units(it, b, n, opt);
        if (status == QSB_OK && it->test == QSB_TEST_NONE && it->change_pct > opt->threshold_pct)
            it->verdict = QSB_VERDICT_FEW_SAMPLES;
        hold_change(it);
        return status;
    }
    it->test = QSB_TEST_MANN_WHITNEY;
    it->p = it->p_faster = qsb_mann_whitney_p(b->x, b->n, n->x, n->n);
    if (qsb_change_interval(b->x, b->n, n->x, n->n, &it->change_lo, &it->change_hi) != 0)
        it->change_lo = it->change_hi = NAN;
    hold_change(it);
    return QSB_OK;
}

/* The entries' bits of what the correction decides by (qsb_compare_entry.beyond). */
enum {
    BEYOND_SLOWER = 1,     /* slower beyond the threshold */
    BEYOND_FASTER = 2,     /* faster beyond it */
    BEYOND_UNTESTABLE = 4, /* slower beyond it, and Mann-Whitney cannot reach alpha */
    REACHES_BEYOND = 8,    /* the interval's top beyond it: unresolved unless significant */
};

/* One of the entries' p-values (which: the faster side's) corrected over every tested row,
** in place; how many rows were tested, or -1 when out of memory (reported). One side at a
** time, adjusted in its own array, keeps a large report's extra memory to a double a row
** (and the correction's own index). */
static long correct_p(qsb_compare_report *out, bool faster)
{
    double *p = malloc((out->n ? out->n : 1) * sizeof *p);
    if (!p) {
        qsb_out_of_memory("compare");
        return -1;
    }
    for (size_t i = 0; i < out->n; i++)
        p[i] = faster ? out->entries[i].p_faster_adjusted : out->entries[i].p_adjusted;
    long m = qsb_adjust_p(p, out->n, out->opt.correction, p);
    for (size_t i = 0; i < out->n && m >= 0; i++)
        *(faster ? &out->entries[i].p_faster_adjusted : &out->entries[i].p_adjusted) = p[i];
    free(p);
    if (m < 0)
        qsb_out_of_memory("compare");
    return m;
}

/* The verdicts of the tested rows, from their p-values corrected over all of them; a row not
** found slower whose 95% interval reaches beyond the threshold is unresolved, not the same. */
static int decide_tested(qsb_compare_report *out)
{
    long m = correct_p(out, false);
    if (m < 0 || correct_p(out, true) < 0)
        return QSB_ESYSTEM;
    out->tests = (size_t)m;
    double alpha = out->opt.alpha;
    for (size_t i = 0; i < out->n; i++) {
        qsb_compare_entry *e = &out->entries[i];
        if (isnan(e->p_adjusted))
            continue;
        out->tests_units += e->test == QSB_TEST_UNITS;
        out->tests_mann_whitney += e->test == QSB_TEST_MANN_WHITNEY;
        if ((e->beyond & BEYOND_SLOWER) && e->p_adjusted < alpha)
            e->verdict = QSB_VERDICT_REGRESSION;
        else if ((e->beyond & BEYOND_FASTER) && e->p_faster_adjusted < alpha)
            e->verdict = QSB_VERDICT_IMPROVED;
        else if (e->beyond & BEYOND_UNTESTABLE)
            e->verdict = QSB_VERDICT_FEW_SAMPLES;
        else if (e->beyond & REACHES_BEYOND)
            e->verdict = QSB_VERDICT_UNRESOLVED;
    }
    return QSB_OK;
}

/* The rows' states in the two runs, matched (compare_states.h). */
typedef struct {
    qsb_row_state_map base, cand;
    qsb_state_pairs pairs;
} state_judging;

/* The values of state k of m: a view of v's samples in that state (x and units n long). */
static values state_values(const values *v, const qsb_row_state_map *m, size_t k, double *x,
                           uint32_t *units)
{
    values s = *v;
    s.ratios = NULL;
    s.unit_buf = NULL;
    s.x = x;
    s.units = units;
    s.n = qsb_state_samples(m, k, v->x, v->units, v->n, x, units);
    s.file_median = NAN;
    return s;
}

/* it judged state by state: each matched pair of states tested as a row is; the row's change
** that of the pair most clearly slower beyond the threshold (else of the smallest p-value
** either way), its p-values multiplied by the pairs tested. Without a matched pair the row is
** not tested: its runs saw other states, which is said, not judged. */
static int judge_states(qsb_comparison *it, const values *b, const values *n,
                        const state_judging *sj, const qsb_compare_options *opt)
{
    it->states_only_base = (uint8_t)sj->pairs.only_base;
    it->states_only_new = (uint8_t)sj->pairs.only_new;
    it->states_matched = (uint8_t)sj->pairs.n;
    if (sj->pairs.n == 0 || !b->units || !n->units) {
        it->states_matched = 0;
        return medians_and_change(it, b, n);
    }
    double *buf = malloc(2 * (b->n + n->n + 1) * sizeof *buf);
    uint32_t *ubuf = malloc((b->n + n->n + 1) * sizeof *ubuf);
    if (!buf || !ubuf) {
        free(buf);
        free(ubuf);
        return qsb_out_of_memory("compare");
    }
    qsb_comparison best, sub;
    blank_item(&best);
    bool have = false, best_slower = false;
    size_t tested = 0;
    double p_faster = NAN;
    int status = QSB_OK;
    for (size_t k = 0; k < sj->pairs.n && status == QSB_OK; k++) {
        values bs = state_values(b, &sj->base, sj->pairs.base[k], buf, ubuf);
        values ns = state_values(n, &sj->cand, sj->pairs.cand[k], buf + b->n, ubuf + b->n);
        blank_item(&sub);
        if ((status = judge_values(&sub, &bs, &ns, opt)) != QSB_OK)
            break;
        sub.state_speed = sj->base.speed[sj->pairs.base[k]];
        tested += sub.test != QSB_TEST_NONE;
        if (!isnan(sub.p_faster) && !(sub.p_faster >= p_faster))
            p_faster = sub.p_faster;
        bool slower = sub.change_pct > opt->threshold_pct;
        bool better = !have || (slower && !best_slower) ||
                      (slower == best_slower && sub.p < best.p) ||
                      (slower == best_slower && isnan(best.p) && !isnan(sub.p));
        if (better) {
            best = sub;
            best_slower = slower;
            have = true;
        }
    }
    free(buf);
    free(ubuf);
    if (status != QSB_OK || !have)
        return status;
    it->base_value = best.base_value;
    it->new_value = best.new_value;
    it->change_pct = best.change_pct;
    it->change_lo = best.change_lo;
    it->change_hi = best.change_hi;
    it->test = best.test;
    it->base_units = best.base_units;
    it->new_units = best.new_units;
    it->state_speed = best.state_speed;
    it->verdict = best.verdict;
    double m = tested ? (double)tested : 1.0;
    it->p = isnan(best.p) ? NAN : fmin(1.0, best.p * m);
    it->p_faster = isnan(best.p) || isnan(p_faster) ? best.p_faster : fmin(1.0, p_faster * m);
    return QSB_OK;
}

/* b_ref and n_ref: the cells' baseline rows when normalizing, else NULL; sj: the rows' states
** when a run shows states in them, else NULL. */
static int judge_timed(qsb_comparison *it, const qsb_row *b, const qsb_row *n,
                       const qsb_row *b_ref, const qsb_row *n_ref, const qsb_context *bc,
                       const qsb_context *nc, const state_judging *sj,
                       const qsb_compare_options *opt)
{
    values bv, nv;
    int status = row_values(b, b_ref, bc, &bv);
    if (status != QSB_OK)
        return status;
    status = row_values(n, n_ref, nc, &nv);
    if (status == QSB_OK && sj) {
        it->base_n = bv.n;
        it->new_n = nv.n;
        status = judge_states(it, &bv, &nv, sj, opt);
    } else if (status == QSB_OK) {
        status = judge_values(it, &bv, &nv, opt);
    }
    free(bv.ratios);
    free(nv.ratios);
    free(bv.unit_buf);
    free(nv.unit_buf);
    return status;
}

static int judge(qsb_comparison *it, const qsb_row *b, const qsb_row *n, const qsb_row *b_ref,
                 const qsb_row *n_ref, const qsb_context *bc, const qsb_context *nc, bool exact,
                 const state_judging *sj, const qsb_compare_options *opt)
{
    it->verdict = QSB_VERDICT_SAME;
    if (!n->verified) {
        it->verdict = QSB_VERDICT_FAILED;
        return QSB_OK;
    }
    if (!b->verified) {
        it->verdict = QSB_VERDICT_BASE_FAILED;
        return QSB_OK;
    }
    if (exact) {
        judge_exact(it, b, n, opt);
        return QSB_OK;
    }
    return judge_timed(it, b, n, b_ref, n_ref, bc, nc, sj, opt);
}

/* ---- the whole comparison ---- */

/* A cell's rows in full: the cell itself, or a view of its slim rows (result.h) in `local`
** when they fit, else in `heap` (malloc'd; the caller frees it). */
#define LOCAL_ROWS 8
typedef struct {
    qsb_cell view;
    qsb_row local[LOCAL_ROWS];
    qsb_row *heap;
} full_cell;

/* NULL when out of memory (reported). */
static const qsb_cell *full_rows(const qsb_cell *cell, full_cell *f)
{
    f->heap = NULL;
    if (!cell->slim_rows)
        return cell;
    qsb_row *rows = f->local;
    if (cell->nrows > LOCAL_ROWS && !(rows = f->heap = malloc(cell->nrows * sizeof *rows))) {
        qsb_out_of_memory("compare");
        return NULL;
    }
    for (size_t i = 0; i < cell->nrows; i++)
        qsb_slim_row_view(&cell->slim[i], &rows[i]);
    f->view = (qsb_cell){.pattern = cell->pattern, .nelem = cell->nelem, .size = cell->size,
                         .rows = rows, .nrows = cell->nrows};
    return &f->view;
}

/* The states of the two rows when a run shows states in them, else by_state NULL. */
static int states_of(const qsb_cell *cell, size_t i, const qsb_cell *other, size_t j,
                     state_judging *sj, state_judging **by_state)
{
    *by_state = NULL;
    if (!qsb_row_shows_states(cell, i) && !qsb_row_shows_states(other, j))
        return QSB_OK;
    *by_state = sj;
    qsb_state_key key = qsb_state_key_of(cell, other, i);
    int status = QSB_OK;
    if (qsb_row_state_map_of(cell, i, key, &sj->base) != 0 ||
        qsb_row_state_map_of(other, j, key, &sj->cand) != 0)
        status = qsb_out_of_memory("compare");
    qsb_match_states(sj->base.speed, sj->base.count, sj->cand.speed, sj->cand.count, &sj->pairs);
    return status;
}

/* work_out of an entry in both files, its cells' rows in full. */
static int work_out_pair(const qsb_compare_report *r, const qsb_compare_entry *e,
                         judging how, const qsb_cell *cell, const qsb_cell *other,
                         qsb_comparison *it)
{
    const qsb_row *row = &cell->rows[e->row];
    bool ref = (r->normalized || how == JUDGE_BY_RATIO) && e->row > 0;
    state_judging sj, *by_state = NULL;
    int status = r->exact ? QSB_OK : states_of(cell, e->row, other, e->other_row, &sj, &by_state);
    if (status == QSB_OK)
        status = judge(it, row, &other->rows[e->other_row], ref ? &cell->rows[0] : NULL,
                       ref ? &other->rows[0] : NULL, &r->base->context, &r->cand->context,
                       r->exact, by_state, &r->opt);
    if (by_state) {
        qsb_row_state_map_free(&sj.base);
        qsb_row_state_map_free(&sj.cand);
    }
    if (r->normalized && e->row == 0 && it->verdict != QSB_VERDICT_FAILED &&
        it->verdict != QSB_VERDICT_BASE_FAILED) {
        init_item(it, cell, row); /* the others' divisor: 1 by definition */
        it->base_value = it->new_value = 1.0;
        it->verdict = QSB_VERDICT_REFERENCE;
    }
    return status;
}

/* Works the entry's row out into *it: its values, change and own p-values, and its verdict
** before the correction. QSB_OK, or QSB_ESYSTEM when out of memory (reported). */
static int work_out(const qsb_compare_report *r, const qsb_compare_entry *e, judging how,
                    qsb_comparison *it)
{
    full_cell fc, fo;
    fo.heap = NULL; /* fo is filled only for an entry in both files */
    const qsb_cell *cell = full_rows(e->cell, &fc);
    const qsb_cell *other = cell && e->other ? full_rows(e->other, &fo) : NULL;
    int status = !cell || (e->other && !other) ? QSB_ESYSTEM : QSB_OK;
    if (status == QSB_OK)
        init_item(it, cell, &cell->rows[e->row]);
    else
        blank_item(it);
    if (status == QSB_OK && !other)
        it->verdict = (qsb_verdict)e->verdict;
    else if (status == QSB_OK)
        status = work_out_pair(r, e, how, cell, other, it);
    free(fc.heap);
    free(fo.heap);
    return status;
}

/* Works the new entry out once and keeps what the correction needs: the row's p-values
** (adjusted later in place), its test and which way it is beyond the threshold. */
static int first_judgement(qsb_compare_report *r, qsb_compare_entry *e)
{
    qsb_comparison it;
    int status = work_out(r, e, JUDGE_AS_REPORTED, &it);
    bool tested = it.test != QSB_TEST_NONE && it.verdict == QSB_VERDICT_SAME && !isnan(it.p);
    double thr = r->opt.threshold_pct;
    e->verdict = (uint8_t)it.verdict;
    e->test = (uint8_t)it.test;
    e->p_adjusted = tested ? it.p : NAN;
    e->p_faster_adjusted = tested ? it.p_faster : NAN;
    e->beyond = (uint8_t)((it.change_pct > thr ? BEYOND_SLOWER : 0) |
                          (it.change_pct < -thr ? BEYOND_FASTER : 0) |
                          (it.change_pct > thr && it.test == QSB_TEST_MANN_WHITNEY &&
                                   qsb_min_attainable_p(it.base_n, it.new_n) >= r->opt.alpha
                               ? BEYOND_UNTESTABLE
                               : 0) |
                          (it.change_hi > thr ? REACHES_BEYOND : 0));
    r->no_samples += it.threshold_only && it.verdict != QSB_VERDICT_FAILED;
    return status;
}

/* A new entry for row i of cell, matched with other's row other_row (other NULL: in one
** file only, of that verdict). */
static qsb_compare_entry *add_entry(qsb_compare_report *r, const qsb_cell *cell, size_t i,
                                    const qsb_cell *other, size_t other_row, qsb_verdict v)
{
    qsb_compare_entry *e = &r->entries[r->n++];
    *e = (qsb_compare_entry){.cell = cell,
                             .other = other,
                             .row = (uint32_t)i,
                             .other_row = (uint32_t)other_row,
                             .p_adjusted = NAN,
                             .p_faster_adjusted = NAN,
                             .verdict = (uint8_t)v,
                             .test = QSB_TEST_NONE};
    return e;
}

/* ---- the candidates against the baseline, in a report without --normalize ----
** A baseline that moved between the runs is said in the rows it hides a regression in, and
** counted where its own rows moved beyond the threshold (docs/measurement.md, "Compare and the
** gates"). */

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
    int status = work_out(r, e, JUDGE_BY_RATIO, &it);
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

/* When the report can judge them so (timed, not normalized, one baseline in both files): the
** candidate rows judged by their ratios, with the same tests as --normalize's at the report's
** threshold and alpha, corrected over the rows so tested; a row that is a regression so and
** not by its own times is marked and counted. */
static int judge_against_baseline(qsb_compare_report *r)
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

/* The entry's row as --normalize judges it, for a row marked by judge_against_baseline. */
static int view_against_baseline(const qsb_compare_report *r, const qsb_compare_entry *e,
                                 qsb_baseline_view *v)
{
    qsb_comparison by_ratio;
    int status = work_out(r, e, JUDGE_BY_RATIO, &by_ratio);
    *v = (qsb_baseline_view){true, by_ratio.change_pct, by_ratio.change_lo, by_ratio.change_hi,
                             by_ratio.p, r->against_baseline_p[e->against_baseline_at]};
    return status;
}

/* ---- the rows of two results, matched ---- */

/* QSB_OK, or QSB_EUSAGE (reported, as --normalize's defect) when the two have different
** baselines. */
static int check_baselines(const qsb_results *base, const qsb_results *cand)
{
    const char *bb = base->baseline, *bn = cand->baseline;
    if (!bb || !bn || strcmp(bb, bn) != 0)
        return qsb_error(QSB_EUSAGE,
                         "--normalize: the files have different baselines (BASE: %s, NEW: %s); "
                         "run both with the same first --algos entry",
                         qsb_quote(bb ? bb : "none"), qsb_quote(bn ? bn : "none"));
    return QSB_OK;
}


static int compare_base_rows(qsb_compare_report *out, qsb_row_ref *refs, size_t nrefs)
{
    int status = QSB_OK;
    const qsb_results *base = out->base;
    for (size_t c = 0; c < base->ncells && status == QSB_OK; c++) {
        const qsb_cell *cell = &base->cells[c];
        for (size_t i = 0; i < cell->nrows && status == QSB_OK; i++) {
            qsb_row_ref *hit = compare_find_row(refs, nrefs, cell, i);
            if (!hit) {
                add_entry(out, cell, i, NULL, 0, QSB_VERDICT_ONLY_BASE);
                continue;
            }
            hit->matched = true;
            status = first_judgement(out, add_entry(out, cell, i, hit->cell, hit->row,
                                                    QSB_VERDICT_SAME));
        }
    }
    return status;
}

/* Rows of NEW alone, in NEW's order (refs are sorted by key: walk the cells instead). */
static void add_new_rows(qsb_compare_report *out, qsb_row_ref *refs, size_t nrefs)
{
    const qsb_results *cand = out->cand;
    for (size_t c = 0; c < cand->ncells; c++) {
        const qsb_cell *cell = &cand->cells[c];
        for (size_t i = 0; i < cell->nrows; i++) {
            const qsb_row_ref *hit = compare_find_row(refs, nrefs, cell, i);
            if (!hit || !hit->matched)
                add_entry(out, cell, i, NULL, 0, QSB_VERDICT_ONLY_NEW);
        }
    }
}

/* Does NEW hold BASE's cells and rows in BASE's order (two runs of one matrix)? Then each
** row's match is the row at its place, and no index of NEW's rows is needed. */
static bool same_layout(const qsb_results *a, const qsb_results *b)
{
    if (a->ncells != b->ncells)
        return false;
    for (size_t c = 0; c < a->ncells; c++) {
        const qsb_cell *x = &a->cells[c], *y = &b->cells[c];
        if (x->nrows != y->nrows || x->nelem != y->nelem || x->size != y->size ||
            strcmp(x->pattern, y->pattern) != 0)
            return false;
        for (size_t i = 0; i < x->nrows; i++)
            if (strcmp(qsb_cell_algorithm(x, i), qsb_cell_algorithm(y, i)) != 0)
                return false;
    }
    return true;
}

static int compare_in_place(qsb_compare_report *out)
{
    int status = QSB_OK;
    for (size_t c = 0; c < out->base->ncells && status == QSB_OK; c++) {
        const qsb_cell *cell = &out->base->cells[c];
        for (size_t i = 0; i < cell->nrows && status == QSB_OK; i++)
            status = first_judgement(out, add_entry(out, cell, i, &out->cand->cells[c], i,
                                                    QSB_VERDICT_SAME));
    }
    return status;
}

/* Every row of BASE matched through a sorted index of NEW's rows, then NEW's rows alone. */
static int compare_by_key(qsb_compare_report *out)
{
    size_t nrefs;
    qsb_row_ref *refs = compare_row_index(out->cand, &nrefs);
    if (!refs)
        return qsb_out_of_memory("compare");
    int status = compare_base_rows(out, refs, nrefs);
    if (status == QSB_OK)
        add_new_rows(out, refs, nrefs);
    free(refs);
    return status;
}

int qsb_compare_results(const qsb_results *base, const qsb_results *cand,
                        const qsb_compare_options *opt, qsb_compare_report *out)
{
    memset(out, 0, sizeof *out);
    int status = compare_check_metrics(base, cand);
    if (status == QSB_OK && opt->normalize && strcmp(base->context.metric, "comparisons") != 0)
        status = check_baselines(base, cand);
    if (status != QSB_OK)
        return status;
    bool in_place = same_layout(base, cand);
    size_t room = compare_row_count(base) + (in_place ? 0 : compare_row_count(cand)) + 1;
    out->entries = malloc(room * sizeof *out->entries);
    if (!out->entries)
        return qsb_out_of_memory("compare");
    out->base = base;
    out->cand = cand;
    out->opt = *opt;
    out->metric = base->context.metric;
    out->exact = strcmp(out->metric, "comparisons") == 0;
    out->normalized = opt->normalize && !out->exact;
    status = in_place ? compare_in_place(out) : compare_by_key(out);
    out->ndiffers = qsb_context_differences(&base->context, &cand->context, out->differs);
    if (status == QSB_OK && !out->exact)
        status = decide_tested(out);
    if (status == QSB_OK)
        status = judge_against_baseline(out);
    if (status != QSB_OK) {
        qsb_compare_report_free(out);
        return status;
    }
    for (size_t i = 0; i < out->n; i++)
        out->count[out->entries[i].verdict]++;
    return QSB_OK;
}

void qsb_compare_report_free(qsb_compare_report *r)
{
    free(r->entries);
    free(r->against_baseline_p);
    memset(r, 0, sizeof *r);
}

int qsb_compare_item(const qsb_compare_report *r, size_t i, qsb_comparison *it)
{
    const qsb_compare_entry *e = &r->entries[i];
    int status = work_out(r, e, JUDGE_AS_REPORTED, it);
    it->p_adjusted = e->p_adjusted;
    it->p_faster_adjusted = e->p_faster_adjusted;
    it->verdict = (qsb_verdict)e->verdict;
    if (status == QSB_OK && e->regression_against_baseline)
        status = view_against_baseline(r, e, &it->against_baseline);
    return status;
}

int qsb_compare_status(const qsb_compare_report *r, qsb_compare_strictness strictness)
{
    if (r->count[QSB_VERDICT_REGRESSION] || r->count[QSB_VERDICT_FAILED])
        return QSB_FINDING;
    bool one_file_rows = r->count[QSB_VERDICT_ONLY_BASE] || r->count[QSB_VERDICT_ONLY_NEW];
    if (strictness == QSB_COMPARE_STRICT && one_file_rows)
        return QSB_FINDING;
    return QSB_OK;
}
