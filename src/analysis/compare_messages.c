/*
** The lines on stderr that a compare report calls for (compare_write.h): the warnings before
** and after the table, and the error line of a finding.
*/
#include <stdbool.h>
#include <stdio.h>
#include <string.h>

#include "compare_write.h"
#include "diag.h"

/* The value of a compared context field, escaped and cut to fit a warning. */
static const char *context_value(char *buf, size_t size, const qsb_context *c, const char *name)
{
    const char *v = strcmp(name, "host") == 0           ? c->host
                    : strcmp(name, "cpu_model") == 0    ? c->cpu_model
                    : strcmp(name, "build_flags") == 0  ? c->build_flags
                    : strcmp(name, "build_type") == 0   ? c->build_type
                    : strcmp(name, "mode") == 0         ? c->mode
                    : strcmp(name, "metric") == 0       ? c->metric
                    : strcmp(name, "placement") == 0    ? c->placement
                    : strcmp(name, "tool_version") == 0 ? c->tool_version
                                                        : NULL;
    if (strcmp(name, "seed") == 0) {
        snprintf(buf, size, "0x%llx", (unsigned long long)c->seed);
        return buf;
    }
    return qsb_escape(buf, size, v, "\\'\"");
}

/* One line, before anything else: which context fields differ, and how. */
static void warn_differences(const qsb_compare_report *r, const qsb_results *base,
                             const qsb_results *cand)
{
    if (r->ndiffers == 0)
        return;
    char names[160] = "", details[1024] = "";
    size_t nl = 0, dl = 0;
    for (size_t i = 0; i < r->ndiffers; i++) {
        char a[40], b[40];
        const char *name = r->differs[i];
        nl += (size_t)snprintf(names + nl, sizeof names - nl, "%s%s", i ? ", " : "", name);
        if (dl < sizeof details)
            dl += (size_t)snprintf(details + dl, sizeof details - dl, "%s%s '%s' vs '%s'",
                                   i ? "; " : "", name,
                                   context_value(a, sizeof a, &base->context, name),
                                   context_value(b, sizeof b, &cand->context, name));
        nl = nl < sizeof names ? nl : sizeof names - 1;
    }
    qsb_warning("the runs differ in %s: %s; the comparison may not be fair", names, details);
}

/* Only JSON from a run records its build; a CSV says nothing either way. */
static void warn_build(const char *which, const qsb_context *c)
{
    bool timed = c->metric && strcmp(c->metric, "comparisons") != 0;
    if (timed && c->repetitions && (c->sanitized || !c->release_build))
        qsb_warning("%s was measured by a %s build: its timings do not represent the "
                    "algorithms", which, c->sanitized ? "sanitized" : "non-release");
}

static void warn_runs(const qsb_results *base, const qsb_results *cand)
{
    warn_build("BASE", &base->context);
    warn_build("NEW", &cand->context);
    if (base->context.incomplete || cand->context.incomplete)
        qsb_warning("%s was interrupted: its missing rows are listed as in one file only",
                    base->context.incomplete ? "BASE" : "NEW");
}

void qsb_compare_warn_context(const qsb_compare_report *r)
{
    warn_differences(r, r->base, r->cand);
    warn_runs(r->base, r->cand);
}

void qsb_compare_warn_rows(const qsb_compare_report *r)
{
    const qsb_compare_options *opt = &r->opt;
    size_t few = r->count[QSB_VERDICT_FEW_SAMPLES], bare = r->no_samples;
    if (few)
        qsb_warning("%zu row%s slower beyond %g%% with too few samples for p < %g: run with "
                    "more repetitions (--reps 10 or more)", few, few == 1 ? " is" : "s are",
                    opt->threshold_pct, opt->alpha);
    size_t open_rows = r->count[QSB_VERDICT_UNRESOLVED];
    if (open_rows) /* between runs the times move with the run level, which more processes
                   ** do not narrow; the ratios to the baseline move less */
        qsb_warning("%zu row%s unresolved: not shown slower beyond %g%%, but %s 95%% "
                    "interval%s reach%s beyond it, so a regression of that size is not ruled "
                    "out; %s", open_rows, open_rows == 1 ? " is" : "s are", opt->threshold_pct,
                    open_rows == 1 ? "its" : "their", open_rows == 1 ? "" : "s",
                    open_rows == 1 ? "es" : "",
                    r->normalized ? "a longer --budget in both runs narrows the intervals down "
                                    "to what the runs move by (compare --calibration)"
                                  : "--normalize (the ratios to the baseline move less between "
                                    "runs than the times) and a longer --budget in both runs "
                                    "narrow the intervals");
    if (r->tests_mann_whitney)
        qsb_warning("%zu row%s no units (files from before units were recorded): tested by "
                    "Mann-Whitney over the samples, which takes correlated samples as "
                    "independent; rerun both with this version for tests over units",
                    r->tests_mann_whitney, r->tests_mann_whitney == 1 ? " has" : "s have");
    if (bare)
        qsb_warning("%zu row%s no samples: judged on the threshold alone (use JSON results, "
                    "or CSV with the samples column)", bare, bare == 1 ? " has" : "s have");
    size_t without_units = r->tests_mann_whitney + bare;
    if (opt->run_level_pct > 0.0 && without_units)
        qsb_warning("--run-level %g applies to tests over units: %zu row%s judged without it",
                    opt->run_level_pct, without_units, without_units == 1 ? " is" : "s are");
    if (opt->run_level_pct <= 0.0 && !r->exact) /* runs move as a whole: no run sees it */
        qsb_note("without a run level, these verdicts hold within each run's own spread only: "
                 "where whole runs move (compare --calibration measures it), give "
                 "--run-level, or gate against the machine's history (history gate)");
    if (r->baseline_moved) /* an A/A whose host moved fails on the baseline itself */
        qsb_warning("%s, the baseline, is itself slower or faster beyond %g%% in %zu row%s: where "
                    "its code is the same in both runs, the host moved between them and every "
                    "time in %s moved with it (compare --calibration measures how far runs "
                    "move; compare --normalize judges the ratios to the baseline)",
                    qsb_quote(r->base->baseline), opt->threshold_pct, r->baseline_moved,
                    r->baseline_moved == 1 ? "" : "s",
                    r->baseline_moved == 1 ? "its cell" : "their cells");
    size_t moved = r->against_baseline_regressions;
    if (moved)
        qsb_warning("%zu row%s not a regression by %s own times but %s one against the "
                    "baseline: the baseline moved between the runs (a state of the machine, "
                    "or a change of the baseline itself); compare --normalize judges by the "
                    "ratio and fails on %s", moved, moved == 1 ? " is" : "s are",
                    moved == 1 ? "its" : "their", moved == 1 ? "is" : "are",
                    moved == 1 ? "it" : "them");
}


int qsb_compare_report_finding(const qsb_compare_report *r, qsb_compare_strictness strictness)
{
    const size_t *n = r->count;
    if (n[QSB_VERDICT_REGRESSION] || n[QSB_VERDICT_FAILED])
        return qsb_error(QSB_FINDING, "%zu regression%s and %zu failed sort%s in NEW (see the "
                         "table)", n[QSB_VERDICT_REGRESSION],
                         n[QSB_VERDICT_REGRESSION] == 1 ? "" : "s", n[QSB_VERDICT_FAILED],
                         n[QSB_VERDICT_FAILED] == 1 ? "" : "s");
    if (strictness == QSB_COMPARE_STRICT && (n[QSB_VERDICT_ONLY_BASE] || n[QSB_VERDICT_ONLY_NEW]))
        return qsb_error(QSB_FINDING, "--strict: %zu rows only in BASE, %zu only in NEW",
                         n[QSB_VERDICT_ONLY_BASE], n[QSB_VERDICT_ONLY_NEW]);
    return QSB_OK;
}
