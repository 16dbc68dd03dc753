/*
** `history bisect` (bisect.h): the revisions of the range from git, a build per revision in
** a temporary worktree, a run per measured revision in a child process of this tool, and the
** binary search over them. Everything made lives in one temporary directory, removed at the
** end with the worktrees.
*/
#include "bisect.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "child.h"
#include "diag.h"
#include "history_report.h"
#include "option_names.h"
#include "read_results.h"
#include "stamp.h"

#define REV_LIST_MAX (8u << 20) /* bytes of `git rev-list` output: 200,000 revisions */
#define RUN_ARGS_FIXED 12       /* the run's own arguments before the user's */
#define RUN_MESSAGES_MAX 65536  /* bytes of a run's messages kept */

typedef enum { REV_UNKNOWN, REV_SLOWER, REV_NOT_SLOWER, REV_SKIPPED } rev_state;

typedef struct {
    rev_state state;
    double delta, lo, hi; /* the slowest candidate row of its run */
    char cell[96];        /* that row's cell */
} rev_verdict;

typedef struct {
    const qsb_bisect_config *cfg;
    char dir[64];         /* the temporary directory */
    char good_so[128];
    char *rev_text;       /* git rev-list's output, cut into revs */
    char **revs;          /* after good up to bad, oldest first */
    size_t n;
    rev_verdict *verdict;
    size_t runs, max_runs;
} bisection;

static int git(const bisection *b, char *out, size_t len, const char *a1, const char *a2,
               const char *a3, const char *a4, const char *a5)
{
    const char *argv[] = {"git", "-C", b->cfg->repo, a1, a2, a3, a4, a5, NULL};
    return qsb_child_run(argv, NULL, NULL, out, len, QSB_CHILD_QUIET);
}

/* The range's revisions, oldest first, and that good is an ancestor of bad. */
static int list_revisions(bisection *b)
{
    const qsb_bisect_config *c = b->cfg;
    char hash[128];
    /* Told apart first: in a directory that is no repository every revision is unknown, and
    ** "not a revision" would send the user after the wrong argument. */
    if (git(b, hash, sizeof hash, "rev-parse", "--git-dir", NULL, NULL, NULL) != 0)
        return qsb_error(QSB_EUSAGE, "history bisect: --" QSB_OPT_REPO " '%s' is not a git "
                         "repository", qsb_quote_path(c->repo));
    const char *ends[2] = {c->good, c->bad};
    for (int i = 0; i < 2; i++) {
        char rev[300];
        snprintf(rev, sizeof rev, "%s^{commit}", ends[i]);
        if (git(b, hash, sizeof hash, "rev-parse", "--verify", "-q", rev, NULL) != 0)
            return qsb_error(QSB_EUSAGE, "history bisect: %s '%s' is not a revision of %s",
                             i ? "--" QSB_OPT_BAD : "--" QSB_OPT_GOOD, qsb_quote(ends[i]),
                             qsb_quote_path(c->repo));
    }
    if (git(b, hash, sizeof hash, "merge-base", "--is-ancestor", c->good, c->bad, NULL) != 0)
        return qsb_error(QSB_EUSAGE, "history bisect: --" QSB_OPT_GOOD " '%s' is not an ancestor "
                         "of --" QSB_OPT_BAD " '%s'", qsb_quote(c->good), qsb_quote(c->bad));
    if (!(b->rev_text = malloc(REV_LIST_MAX)))
        return qsb_out_of_memory("history bisect");
    char range[300];
    snprintf(range, sizeof range, "%s..%s", c->good, c->bad);
    if (git(b, b->rev_text, REV_LIST_MAX, "rev-list", "--reverse", "--ancestry-path", range,
            NULL) != 0 || !b->rev_text[0])
        return qsb_error(QSB_EUSAGE, "history bisect: no revisions between --" QSB_OPT_GOOD
                         " '%s' and --" QSB_OPT_BAD " '%s'", qsb_quote(c->good),
                         qsb_quote(c->bad));
    size_t lines = 1;
    for (const char *p = b->rev_text; *p; p++)
        lines += *p == '\n';
    b->revs = malloc(lines * sizeof *b->revs);
    b->verdict = calloc(lines, sizeof *b->verdict);
    if (!b->revs || !b->verdict)
        return qsb_out_of_memory("history bisect");
    for (char *p = strtok(b->rev_text, "\n"); p; p = strtok(NULL, "\n"))
        b->revs[b->n++] = p;
    b->max_runs = (size_t)ceil(log2((double)b->n)) + 1;
    return QSB_OK;
}

/* Checks rev out in a temporary worktree, runs the build there with OUT=so; 0 when the
** plug-in was made. The worktree is removed again. */
static int build(const bisection *b, const char *rev, const char *so)
{
    char tree[128];
    snprintf(tree, sizeof tree, "%s/tree", b->dir);
    char none[1];
    if (git(b, none, sizeof none, "worktree", "add", "--detach", tree, rev) != 0)
        return -1;
    char env_out[200];
    snprintf(env_out, sizeof env_out, "OUT=%s", so);
    const char *env[] = {env_out, NULL};
    const char *argv[] = {"sh", "-c", b->cfg->build, NULL};
    int status = qsb_child_run(argv, tree, env, NULL, 0, QSB_CHILD_ERRORS);
    git(b, none, sizeof none, "worktree", "remove", "--force", tree, NULL);
    return status == 0 && access(so, R_OK) == 0 ? 0 : -1;
}

/* The slowest candidate row of a run's results into v; -1 when a row failed verification. */
static int slowest_row(const qsb_results *r, rev_verdict *v)
{
    v->delta = -INFINITY;
    for (qsb_row_cursor at = {0}; qsb_results_next_row(r, &at);) {
        const qsb_row *row = at.row;
        if (!row->verified)
            return -1;
        if (at.i == 0 || !(row->delta_pct > v->delta))
            continue;
        v->delta = row->delta_pct;
        v->lo = row->delta_lo;
        v->hi = row->delta_hi;
        snprintf(v->cell, sizeof v->cell, "%s/%llu/%llu", at.cell->pattern,
                 (unsigned long long)at.cell->nelem, (unsigned long long)at.cell->size);
    }
    return 0;
}

static int keep_run(const bisection *b, const char *rev, const qsb_results *r)
{
    if (!b->cfg->history_path)
        return QSB_OK;
    qsb_stamp_text stamp;
    int status = qsb_stamp_resolve(rev, NULL, NULL, b->cfg->repo, &stamp);
    if (status == QSB_OK)
        status = qsb_history_add_results(b->cfg->history_path, r, &stamp, NULL);
    return status;
}

/* A run's messages on stderr: every line when `all`, else its warnings only. */
static void show_messages(const char *messages, int all)
{
    static const char warning[] = "qsortbench: warning: ";
    for (const char *line = messages; *line;) {
        size_t len = strcspn(line, "\n");
        if (all || strncmp(line, warning, sizeof warning - 1) == 0)
            fprintf(stderr, "%.*s\n", (int)len, line);
        line += len + (line[len] == '\n');
    }
}

/* One run of the candidate against the good plug-in; fills v. */
static int run_candidate(bisection *b, size_t i, const char *so, rev_verdict *v)
{
    const qsb_bisect_config *c = b->cfg;
    char algos[400], pct[32], json[128], csv[128];
    snprintf(algos, sizeof algos, "good=%s:%s,candidate=%s:%s", b->good_so, c->symbol, so,
             c->symbol);
    snprintf(pct, sizeof pct, "%.17g", c->threshold_pct);
    snprintf(json, sizeof json, "%s/run-%zu.json", b->dir, i);
    snprintf(csv, sizeof csv, "%s/run-%zu.csv", b->dir, i);
    const char **argv = malloc((RUN_ARGS_FIXED + c->n_run_options + 1) * sizeof *argv);
    if (!argv)
        return qsb_out_of_memory("history bisect");
    size_t k = 0;
    const char(*w)[sizeof c->run_words[0]] = c->run_words;
    const char *fixed[] = {c->self, w[QSB_BISECT_RUN], w[QSB_BISECT_ALGOS], algos,
                           w[QSB_BISECT_GATE], pct, w[QSB_BISECT_JSON], json,
                           w[QSB_BISECT_CSV], csv, w[QSB_BISECT_QUIET]};
    for (size_t j = 0; j < sizeof fixed / sizeof fixed[0]; j++)
        argv[k++] = fixed[j];
    for (size_t j = 0; j < c->n_run_options; j++)
        argv[k++] = c->run_options[j];
    argv[k] = NULL;
    /* the run's messages: its warnings (an untestable gate), or all of them when it fails */
    char *messages = malloc(RUN_MESSAGES_MAX);
    int rc = messages ? qsb_child_run(argv, NULL, NULL, messages, RUN_MESSAGES_MAX,
                                      QSB_CHILD_ERRORS)
                      : -1;
    rc = rc < 0 ? -1 : WIFSIGNALED(rc) ? 128 + WTERMSIG(rc) : WEXITSTATUS(rc);
    free(argv);
    b->runs++;
    if (messages)
        show_messages(messages, rc != QSB_OK && rc != QSB_FINDING);
    free(messages);
    if (rc != QSB_OK && rc != QSB_FINDING)
        return qsb_error(rc == QSB_EUSAGE ? QSB_EUSAGE : QSB_ESYSTEM, "history bisect: the "
                         "run of %.12s ended with status %d", b->revs[i], rc);
    qsb_results r;
    int status = qsb_read_results(json, &r);
    if (status != QSB_OK)
        return status;
    if (slowest_row(&r, v) != 0)
        v->state = REV_SKIPPED;
    else
        v->state = rc == QSB_FINDING ? REV_SLOWER : REV_NOT_SLOWER;
    status = keep_run(b, b->revs[i], &r);
    qsb_results_free(&r);
    return status;
}

/* " [lo, hi]" of the delta, or " (exact counts)" when it has none. */
static void format_interval(const rev_verdict *v, char *buf, size_t len)
{
    if (isfinite(v->lo) && isfinite(v->hi))
        snprintf(buf, len, " [%+.2f, %+.2f]", v->lo, v->hi);
    else
        snprintf(buf, len, " (exact counts)");
}

static void print_step(const bisection *b, size_t i, const char *why)
{
    const rev_verdict *v = &b->verdict[i];
    printf("bisect: %.12s  ", b->revs[i]);
    if (v->state == REV_SKIPPED) {
        printf("skipped: %s\n", why);
    } else {
        char interval[64];
        format_interval(v, interval, sizeof interval);
        printf("run %zu of at most %zu: %+.2f%%%s on %s: %s\n", b->runs, b->max_runs,
               v->delta, interval, v->cell, v->state == REV_SLOWER ? "slower" : "not slower");
    }
    fflush(stdout);
}

/* Builds and measures revision i; its verdict is in b->verdict[i]. */
static int measure(bisection *b, size_t i)
{
    char so[128];
    snprintf(so, sizeof so, "%s/rev-%zu.so", b->dir, i);
    rev_verdict *v = &b->verdict[i];
    if (build(b, b->revs[i], so) != 0) {
        v->state = REV_SKIPPED;
        print_step(b, i, "the build failed");
        return QSB_OK;
    }
    int status = run_candidate(b, i, so, v);
    if (status == QSB_OK)
        print_step(b, i, "its sort failed verification");
    unlink(so);
    return status;
}

/* The revision strictly between lo and hi nearest their middle that is not skipped; -1 when
** all are. (lo is -1 for the good revision.) */
static long next_revision(const bisection *b, long lo, long hi)
{
    long mid = lo + (hi - lo) / 2;
    for (long d = 0; mid - d > lo || mid + d < hi; d++) {
        if (mid - d > lo && b->verdict[mid - d].state != REV_SKIPPED)
            return mid - d;
        if (mid + d < hi && b->verdict[mid + d].state != REV_SKIPPED)
            return mid + d;
    }
    return -1;
}

static int search(bisection *b)
{
    size_t bad = b->n - 1;
    int status = measure(b, bad);
    if (status != QSB_OK)
        return status;
    if (b->verdict[bad].state == REV_SKIPPED)
        return qsb_error(QSB_EUSAGE, "history bisect: --" QSB_OPT_BAD " %.12s cannot be measured "
                         "(its build or its sort failed)", b->revs[bad]);
    if (b->verdict[bad].state == REV_NOT_SLOWER) {
        return qsb_error(QSB_FINDING, "history bisect: --" QSB_OPT_BAD " %.12s is not slower than "
                         "--" QSB_OPT_GOOD " by more than %g%%: nothing to bisect", b->revs[bad],
                         b->cfg->threshold_pct);
    }
    long lo = -1, hi = (long)bad;
    long pick;
    while (status == QSB_OK && hi - lo > 1 && (pick = next_revision(b, lo, hi)) >= 0) {
        status = measure(b, (size_t)pick);
        if (b->verdict[pick].state == REV_SLOWER)
            hi = pick;
        else if (b->verdict[pick].state == REV_NOT_SLOWER)
            lo = pick;
    }
    if (status != QSB_OK)
        return status;
    const rev_verdict *v = &b->verdict[hi];
    if (hi - lo > 1) {
        printf("bisect: the first slower revision is one of %ld, from %s to %s (the others "
               "were skipped)\n", hi - lo, b->revs[lo + 1], b->revs[hi]);
        return QSB_OK;
    }
    char interval[64];
    format_interval(v, interval, sizeof interval);
    printf("bisect: first slower revision: %s  %+.2f%%%s on %s (%zu runs)\n", b->revs[hi],
           v->delta, interval, v->cell, b->runs);
    return QSB_OK;
}

int qsb_bisect(const qsb_bisect_config *cfg)
{
    bisection b;
    memset(&b, 0, sizeof b);
    b.cfg = cfg;
    snprintf(b.dir, sizeof b.dir, "/tmp/qsortbench-bisect-XXXXXX");
    if (!mkdtemp(b.dir))
        return qsb_error(QSB_ESYSTEM, "history bisect: cannot make a temporary directory");
    int status = list_revisions(&b);
    if (status == QSB_OK) {
        snprintf(b.good_so, sizeof b.good_so, "%s/good.so", b.dir);
        if (build(&b, cfg->good, b.good_so) != 0)
            status = qsb_error(QSB_EUSAGE, "history bisect: --" QSB_OPT_GOOD " '%s' does not "
                               "build with '%s'", qsb_quote(cfg->good), qsb_quote(cfg->build));
    }
    if (status == QSB_OK) {
        printf("bisect: %zu revisions after %s up to %.12s, at most %zu runs\n", b.n,
               cfg->good, b.revs[b.n - 1], b.max_runs);
        status = search(&b);
    }
    char none[1];
    git(&b, none, sizeof none, "worktree", "prune", NULL, NULL, NULL);
    const char *rm[] = {"rm", "-rf", b.dir, NULL};
    qsb_child_run(rm, NULL, NULL, NULL, 0, QSB_CHILD_QUIET);
    free(b.rev_text);
    free(b.revs);
    free(b.verdict);
    return status;
}
