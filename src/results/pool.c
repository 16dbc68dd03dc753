/*
** Several runs of one matrix pooled into one result, every run a unit (pool.h).
*/
#include "pool.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "diag.h"
#include "intervals.h"
#include "states.h"
#include "states_text.h"
#include "stats.h"
#include "units.h"

/* Why run b's cells cannot be pooled with run a's, or NULL: the same cells (some of them
** when subsets) with the same algorithms. */
static const char *other_cells(const qsb_results *a, const qsb_results *b, bool subsets)
{
    if (subsets ? b->ncells > a->ncells : b->ncells != a->ncells)
        return "other cells";
    for (size_t c = 0; c < b->ncells; c++) {
        const qsb_cell *y = &b->cells[c], *x = qsb_results_find_cell(a, y);
        if (!x || x->nrows != y->nrows)
            return "other cells";
        for (size_t i = 0; i < x->nrows; i++)
            if (strcmp(x->rows[i].algorithm, y->rows[i].algorithm) != 0)
                return "other algorithms";
    }
    return NULL;
}

/* Why the whole matrices two runs were given differ ("another matrix: --nelem"), or NULL
** (the same, or one of them unknown: a CSV file). */
static const char *other_matrix(const qsb_matrix *x, const qsb_matrix *y)
{
    if (x->n_nelem == 0 || y->n_nelem == 0)
        return NULL;
    if (x->n_nelem != y->n_nelem || memcmp(x->nelem, y->nelem, x->n_nelem * sizeof *x->nelem))
        return "another matrix: --nelem";
    if (x->n_sizes != y->n_sizes || memcmp(x->sizes, y->sizes, x->n_sizes * sizeof *x->sizes))
        return "another matrix: --sizes";
    if (x->n_patterns != y->n_patterns)
        return "another matrix: --patterns";
    for (size_t i = 0; i < x->n_patterns; i++)
        if (strcmp(x->patterns[i], y->patterns[i]) != 0)
            return "another matrix: --patterns";
    if (x->n_algos != y->n_algos)
        return "another matrix: --algos";
    for (size_t i = 0; i < x->n_algos; i++)
        if (strcmp(x->algos[i], y->algos[i]) != 0)
            return "another matrix: --algos";
    return NULL;
}

/* The --algos value of a run's command line, up to its end or a blank, its quotes left out;
** "" when the line has none (the default list, or a file without its command line). */
static void algos_given(const char *command_line, char *buf, size_t len)
{
    buf[0] = '\0';
    const char *at = command_line ? strstr(command_line, " --algos") : NULL;
    if (!at || (at[8] != ' ' && at[8] != '='))
        return;
    size_t used = 0;
    for (const char *p = at + 9; *p && *p != ' ' && used + 1 < len; p++)
        if (*p != '\'')
            buf[used++] = *p;
    buf[used] = '\0';
}

/* One item of an --algos list ("cand=/lib/x.so:sym") with its library's directory left
** out ("cand=x.so:sym"): the same library reached by another path is the same algorithm. */
static void identity_of(const char *item, size_t n, char *buf, size_t len)
{
    const char *slash = NULL;
    for (const char *p = item; p < item + n; p++)
        if (*p == '/')
            slash = p;
    const char *eq = memchr(item, '=', n);
    size_t name = eq && (!slash || eq < slash) ? (size_t)(eq - item) + 1 : 0;
    const char *rest = slash ? slash + 1 : item + name;
    snprintf(buf, len, "%.*s%.*s", (int)name, item, (int)(item + n - rest), rest);
}

/* Why the algorithms two runs measured are not the same ones, by their identities (a
** plug-in's library and symbol, as their command lines give them), or NULL when they are or
** either is unknown. Rows of one name may be sorts of two libraries or symbols. */
static const char *other_identities(const qsb_context *x, const qsb_context *y, char *why,
                                    size_t len)
{
    char ax[1024], ay[1024];
    algos_given(x->command_line, ax, sizeof ax);
    algos_given(y->command_line, ay, sizeof ay);
    if (!ax[0] || !ay[0])
        return NULL;
    const char *p = ax, *q = ay;
    while (*p || *q) {
        size_t np = strcspn(p, ","), nq = strcspn(q, ",");
        char ip[512], iq[512];
        identity_of(p, np, ip, sizeof ip);
        identity_of(q, nq, iq, sizeof iq);
        if (strcmp(ip, iq) != 0) {
            snprintf(why, len, "another algorithm: '%s' against '%s'", qsb_quote(iq),
                     qsb_quote(ip));
            return why;
        }
        p += np + (p[np] == ',');
        q += nq + (q[nq] == ',');
    }
    return NULL;
}

/* Are the runs' machines known (a CSV file names none) and different? */
static bool other_machine(const qsb_context *x, const qsb_context *y)
{
    const char *mx = qsb_machine_name(x), *my = qsb_machine_name(y);
    return strcmp(mx, "unknown") != 0 && strcmp(my, "unknown") != 0 && strcmp(mx, my) != 0;
}

/* Why run b is not a run of the same command as run a (the first difference), or NULL. why
** holds the text when it is made here. */
static const char *mismatch(const qsb_results *a, const qsb_results *b, bool subsets,
                            char *why, size_t len)
{
    if (!qsb_same_text(a->context.metric, b->context.metric))
        return "another metric";
    if (other_machine(&a->context, &b->context))
        return "another machine";
    if (a->context.seed != b->context.seed || !qsb_same_text(a->context.mode, b->context.mode))
        return "other inputs (seed or mode)";
    if (!qsb_same_text(a->baseline, b->baseline))
        return "another baseline";
    if (a->context.shard_k != b->context.shard_k || a->context.shard_n != b->context.shard_n)
        return "another shard";
    const char *matrix = other_matrix(&a->context.matrix, &b->context.matrix);
    if (matrix)
        return matrix;
    const char *cells = other_cells(a, b, subsets);
    return cells ? cells : other_identities(&a->context, &b->context, why, len);
}

/* Every row of b's cells has exactly a's samples (in cells a has too), and there is at least
** one: the same timings twice. Counted comparisons repeat exactly from run
** to run, so the comparisons metric proves nothing by its samples. */
static bool same_samples(const qsb_results *a, const qsb_results *b)
{
    if (a->context.metric && strcmp(a->context.metric, "comparisons") == 0)
        return false;
    size_t compared = 0;
    for (size_t c = 0; c < b->ncells; c++) {
        const qsb_cell *y = &b->cells[c], *x = qsb_results_find_cell(a, y);
        if (!x || x->nrows != y->nrows)
            return false;
        for (size_t i = 0; i < y->nrows; i++) {
            const qsb_row *p = &x->rows[i], *q = &y->rows[i];
            if (p->nsamples != q->nsamples ||
                memcmp(p->samples, q->samples, q->nsamples * sizeof *q->samples) != 0)
                return false;
            compared += q->nsamples;
        }
    }
    return compared > 0;
}

/* The same run given twice: its id (or in files written before ids, the same start, host and
** command line), which a copy or a rewrite of the file into the other format keeps, or its
** samples. Pooled, a run given k times would count as k agreeing runs and shrink every
** interval toward zero width. */
static const char *same_run(const qsb_results *a, const qsb_results *b)
{
    const qsb_context *x = &a->context, *y = &b->context;
    if (x->run_id && y->run_id && strcmp(x->run_id, y->run_id) == 0)
        return "the same run: the same run id";
    if (!x->run_id && !y->run_id && x->date && y->date && x->command_line && y->command_line &&
        strcmp(x->date, y->date) == 0 && strcmp(x->command_line, y->command_line) == 0 &&
        qsb_same_text(x->host, y->host))
        return "the same run: same start, host and command line";
    return same_samples(a, b) ? "the same run: identical samples" : NULL;
}

/* The runs of a pool are separate runs: none given twice. */
static int refuse_repeated_runs(const qsb_merge_input *in, size_t n)
{
    for (size_t r = 1; r < n; r++)
        for (size_t q = 0; q < r; q++) {
            const char *why = same_run(&in[q].run, &in[r].run);
            if (why)
                return qsb_error(QSB_EUSAGE, "merge --pool: %s and %s are %s: pool separate "
                                 "runs of the command", in[q].file, in[r].file, why);
        }
    return QSB_OK;
}

int qsb_check_separate_runs(const char *who, const qsb_results *a, const char *file_a,
                            const qsb_results *b, const char *file_b)
{
    const char *why = same_run(a, b);
    if (why)
        return qsb_error(QSB_EUSAGE, "%s: %s and %s are %s: give separate runs of the command",
                         who, qsb_quote_path(file_a), qsb_quote_path(file_b), why);
    char text[160];
    if ((why = mismatch(a, b, false, text, sizeof text)))
        return qsb_error(QSB_EUSAGE, "%s: %s is not a run of the same command as %s: %s", who,
                         qsb_quote_path(file_b), qsb_quote_path(file_a), why);
    return QSB_OK;
}

/* The rounds of a run's cell in which every verified row sorted: pairs stay pairs. */
static size_t common_rounds(const qsb_cell *cell)
{
    size_t rounds = SIZE_MAX;
    for (size_t i = 0; i < cell->nrows; i++)
        if (cell->rows[i].verified && cell->rows[i].nsamples < rounds)
            rounds = cell->rows[i].nsamples;
    return rounds == SIZE_MAX ? 0 : rounds;
}

/* Row i of model (a cell of the first run) from every run that has its cell into row, run
** r's samples in unit r. */
static int pool_row(const qsb_merge_input *in, size_t n, const qsb_cell *model, size_t i,
                    qsb_row *row)
{
    for (size_t r = 0; r < n; r++) {
        const qsb_cell *cell = r == 0 ? model : qsb_results_find_cell(&in[r].run, model);
        if (!cell)
            continue; /* a process of a series that visited only other cells */
        const qsb_row *from = &cell->rows[i];
        if (!from->verified && row->verified && qsb_row_fail(row, from->failure) != 0)
            return -1;
        size_t rounds = common_rounds(cell);
        for (size_t k = 0; k < rounds && row->verified; k++)
            if (qsb_row_add_sample(row, from->samples[k], (uint32_t)r) != 0)
                return -1;
        row->retaken += from->retaken;
        row->near_units += from->near_units;
    }
    row->comparisons = model->rows[i].comparisons;
    row->batch = model->rows[i].batch;
    return 0;
}

/* How a pooled result judges its rows: the drift factors that widen the states' intervals
** as the rows' (1 for merge's runs), the precision target, and whether the metric is exact. */
typedef struct {
    double ratios, medians;
    double precision_pct;
    bool exact;
} pool_judge;

/* The half-width of [lo, hi] in % of center; INFINITY when unknown. */
static double half_width_pct(double center, double lo, double hi)
{
    if (!isfinite(lo) || !isfinite(hi) || !(center > 0))
        return INFINITY;
    return fmax(hi - center, center - lo) / center * 100.0;
}

/* Whether every state of at least QSB_STATE_MIN_UNITS processes meets the precision: its
** speed's interval, and a candidate's delta's. */
static bool states_precise(const qsb_state_estimate *s, size_t n, double precision_pct)
{
    for (size_t k = 0; k < n; k++) {
        if (s[k].processes < QSB_STATE_MIN_UNITS)
            continue;
        double pct = half_width_pct(s[k].median, s[k].median_lo, s[k].median_hi);
        if (isfinite(s[k].delta_pct))
            pct = fmax(pct, half_width_pct(100.0 + s[k].delta_pct, 100.0 + s[k].delta_lo,
                                           100.0 + s[k].delta_hi));
        if (!(pct <= precision_pct))
            return false;
    }
    return true;
}

/* Whether a candidate's delta differs between its baseline's states (result.h). */
static uint8_t delta_by_states(const qsb_state_estimate *est, size_t n)
{
    double p = qsb_states_delta_p(est, n);
    if (isnan(p))
        return QSB_STATES_DELTA_UNTESTED;
    return p < QSB_STATES_DELTA_ALPHA ? QSB_STATES_DELTA_DIFFERS : QSB_STATES_DELTA_ONE;
}

/* Row i's states (states.h), its processes grouped by the states of `states` found on by_row
** (the baseline's, or its own), each interval widened by the run's factors, into row->states
** as the files write them; a row with states is noisy when one of them is not precise. */
static int row_states(qsb_cell *cell, size_t i, const qsb_row *by_row, const qsb_states *states,
                      const pool_judge *judge)
{
    qsb_row *row = &cell->rows[i];
    const qsb_row *base = i > 0 && cell->rows[0].verified ? &cell->rows[0] : NULL;
    size_t n = base && base->nsamples < row->nsamples ? base->nsamples : row->nsamples;
    if (by_row->nsamples < n)
        n = by_row->nsamples;
    qsb_state_estimate est[QSB_STATES_MAX];
    if (qsb_state_estimates(states, by_row->samples, row->samples, base ? base->samples : NULL,
                            row->units, n, est) != 0)
        return -1;
    if (base && by_row == base)
        row->states_delta = delta_by_states(est, states->count);
    for (size_t k = 0; k < states->count; k++) {
        qsb_widen_interval(est[k].median, &est[k].median_lo, &est[k].median_hi, judge->medians);
        qsb_widen_delta(est[k].delta_pct, &est[k].delta_lo, &est[k].delta_hi, judge->ratios);
    }
    if (!judge->exact)
        row->noisy = !states_precise(est, states->count, judge->precision_pct);
    if (qsb_states_round(est, states->count) != 0)
        return -1;
    size_t fault; /* a state none of the row's processes is in: the files could not read it */
    if (qsb_states_check(est, states->count, &fault) != NULL)
        return 0;
    if (!(row->states = malloc(states->count * sizeof *est)))
        return -1;
    memcpy(row->states, est, states->count * sizeof *est);
    row->nstates = (uint8_t)states->count;
    return 0;
}

/* The states of each verified row (pool.h): a baseline's by its own speeds; a candidate's by
** the baseline's states when it has them (the delta per speed of the baseline), else by its
** own. None for exact counts. */
static int find_states(qsb_cell *cell, const pool_judge *judge)
{
    const qsb_row *base = &cell->rows[0];
    qsb_states base_states = {0};
    if (judge->exact)
        return 0;
    if (base->verified &&
        qsb_states_of(base->samples, base->units, base->nsamples, &base_states) != 0)
        return -1;
    cell->rows[0].slowed = (unsigned)base_states.slowed;
    for (size_t i = 0; i < cell->nrows; i++) {
        qsb_row *row = &cell->rows[i];
        row->states_delta = QSB_STATES_DELTA_UNTESTED;
        if (!row->verified)
            continue;
        bool by_base = base->verified && base_states.count > 0;
        qsb_states own = base_states;
        if (!by_base && qsb_states_of(row->samples, row->units, row->nsamples, &own) != 0)
            return -1;
        if ((by_base ? base_states.count : own.count) > 0 &&
            row_states(cell, i, by_base ? base : row, by_base ? &base_states : &own, judge) != 0)
            return -1;
    }
    return 0;
}

/* Summaries, deltas and their intervals over the runs. */
static int summarize_pooled(qsb_cell *cell)
{
    for (size_t i = 0; i < cell->nrows; i++) {
        qsb_row *row = &cell->rows[i];
        if (qsb_summarize(row->samples, row->nsamples, &row->summary) != 0 ||
            qsb_pooled_interval(row->summary.median, row->samples, row->units, row->nsamples,
                                &row->summary.median_lo, &row->summary.median_hi) != 0)
            return -1;
    }
    const qsb_row *base = &cell->rows[0];
    for (size_t i = 1; i < cell->nrows && base->verified; i++) {
        qsb_row *row = &cell->rows[i];
        size_t pairs = row->nsamples < base->nsamples ? row->nsamples : base->nsamples;
        double lo, hi;
        if (!row->verified || pairs == 0 ||
            qsb_paired_delta(base->samples, row->samples, pairs, &row->delta_pct, &lo, &hi) != 0)
            continue;
        if (qsb_pooled_delta(base->samples, row->samples, row->units, pairs, &row->delta_pct,
                             &row->delta_lo, &row->delta_hi) != 0)
            return -1;
    }
    return 0;
}

/* A row without states is noisy when its widest interval misses the precision (one with
** states is judged by them: row_states). */
static void flag_noisy(qsb_cell *cell, double precision_pct, bool exact)
{
    for (size_t i = 0; i < cell->nrows && !exact; i++)
        if (!cell->rows[i].states)
            cell->rows[i].noisy = cell->rows[i].verified &&
                                  !(qsb_row_interval_pct(cell, i) <= precision_pct);
}

static int pool_context(const qsb_merge_input *in, size_t n, qsb_results *out)
{
    if (qsb_context_copy(&out->context, &in[0].run.context) != 0 ||
        qsb_merged_run_id(in, n, &out->context) != 0 ||
        qsb_set_string(&out->baseline, in[0].run.baseline) != 0)
        return -1;
    qsb_context *c = &out->context;
    c->drift_ratios = c->drift_medians = 1.0; /* runs: the level above time; a series: below */
    memset(&c->time, 0, sizeof c->time);
    for (size_t r = 0; r < n; r++) {
        c->incomplete |= in[r].run.context.incomplete;
        qsb_time_split_add(&c->time, &in[r].run.context.time);
    }
    char text[512];
    snprintf(text, sizeof text, "pooled: %zu runs, each one unit (merge --pool); each run: %s",
             n, c->repetitions ? c->repetitions : "unknown");
    return qsb_set_string(&c->repetitions, text);
}

static int pool_cells(const qsb_merge_input *in, size_t n, bool series, qsb_results *out)
{
    const qsb_results *first = &in[0].run;
    bool exact = qsb_same_text(first->context.metric, "comparisons");
    double precision = isfinite(first->context.precision_pct) ? first->context.precision_pct
                                                              : INFINITY;
    for (size_t c = 0; c < first->ncells; c++) {
        const qsb_cell *model = &first->cells[c];
        const char **names = malloc((model->nrows ? model->nrows : 1) * sizeof *names);
        if (!names)
            return -1;
        for (size_t i = 0; i < model->nrows; i++)
            names[i] = model->rows[i].algorithm;
        qsb_cell *cell = qsb_results_add_cell(out, model->pattern, model->nelem, model->size,
                                              names, model->nrows);
        free(names);
        if (!cell)
            return -1;
        for (size_t i = 0; i < cell->nrows; i++)
            if (pool_row(in, n, model, i, &cell->rows[i]) != 0)
                return -1;
        if (summarize_pooled(cell) != 0)
            return -1;
    }
    if (series && !exact && qsb_widen_for_time(out) != 0)
        return -1;
    pool_judge judge = {1.0, 1.0, precision, exact};
    if (series && !exact) {
        judge.ratios = out->context.drift_ratios;
        judge.medians = out->context.drift_medians;
    }
    for (size_t c = 0; c < out->ncells; c++) {
        if (find_states(&out->cells[c], &judge) != 0)
            return -1;
        flag_noisy(&out->cells[c], precision, exact);
    }
    return 0;
}

/* series: one run's processes in time order (qsb_pool_series); else separate runs. */
static int pool(qsb_merge_input *in, size_t n, bool series, qsb_results *out)
{
    memset(out, 0, sizeof *out);
    int status = QSB_OK;
    if (n < 2)
        status = qsb_usage_error("merge --pool needs two runs or more (five for intervals)");
    /* A run given twice first: in two formats it would read as another machine or command. */
    if (status == QSB_OK && !series)
        status = refuse_repeated_runs(in, n);
    for (size_t r = 1; r < n && status == QSB_OK; r++) {
        char text[160];
        const char *why = mismatch(&in[0].run, &in[r].run, series, text, sizeof text);
        if (why)
            status = qsb_error(QSB_EUSAGE, "merge --pool: %s is not a run of the same command "
                               "as %s: %s", in[r].file, in[0].file, why);
    }
    if (status == QSB_OK && !series && n < QSB_MIN_UNITS)
        qsb_warning("merge --pool: %zu runs give medians and deltas without intervals (%d runs "
                    "or more give them)", n, QSB_MIN_UNITS);
    if (status == QSB_OK && (pool_context(in, n, out) != 0 || pool_cells(in, n, series, out) != 0))
        status = qsb_out_of_memory("merge --pool");
    if (status != QSB_OK)
        qsb_results_free(out);
    for (size_t r = 0; r < n; r++)
        qsb_results_free(&in[r].run);
    return status;
}

int qsb_pool_runs(qsb_merge_input *in, size_t n, qsb_results *out)
{
    return pool(in, n, false, out);
}

int qsb_pool_series(qsb_merge_input *in, size_t n, qsb_results *out)
{
    return pool(in, n, true, out);
}
