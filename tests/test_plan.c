/*
** src/bench/plan.c and worker_protocol.c without a clock: made-up costs per cell in, the plan out.
** How a budget buys worker processes (at least 5, exactly --processes N, at most
** QSB_MAX_PROCESSES), units per cell in one process (--processes 1), what --reps and exact
** counts spend, a worker's plan, the auto budget's bounds, the slices, the precision stop of a
** gating run, the words the run announces and records, and the head of a worker's command
** line.
*/
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "check.h"
#include "diag.h"
#include "plan.h"
#include "worker_protocol.h"

#define MAX_CELLS 4096
static double round_s[MAX_CELLS], first_s[MAX_CELLS];
static qsb_algorithm algos[2];

/* Every cell's round costs round, its first visit first more. */
static void set_costs(size_t cells, double round, double first)
{
    for (size_t c = 0; c < cells; c++) {
        round_s[c] = round;
        first_s[c] = first;
    }
}

/* A configuration of `cells` cells (one pattern, one size), two algorithms, as parsed. */
static qsb_run_config config(size_t cells, double budget_s, uint64_t processes)
{
    qsb_run_config cfg;
    memset(&cfg, 0, sizeof cfg);
    cfg.n_patterns = cfg.n_sizes = 1;
    cfg.n_nelem = cells;
    cfg.algos = algos;
    cfg.n_algos = 2;
    cfg.metric = QSB_METRIC_NS;
    cfg.precision_pct = 1.0;
    cfg.budget_s = budget_s;
    cfg.processes = processes;
    cfg.pin_cpu = -1;
    return cfg;
}

static qsb_run_plan plan_of(const qsb_run_config *cfg)
{
    qsb_run_plan plan;
    memset(&plan, 0, sizeof plan);
    qsb_plan_from_costs(cfg, round_s, first_s, qsb_run_config_cells(cfg), &plan);
    return plan;
}

static int starts_with(const char *text, const char *prefix)
{
    return strncmp(text, prefix, strlen(prefix)) == 0;
}

static int near(double a, double b)
{
    return fabs(a - b) <= 1e-9 * fmax(1.0, fabs(b));
}

/* Auto budget, one cheap cell: ten seconds (the auto budget's floor) buy worker processes of
** a start and a slice stretched to that start. */
static void test_auto_budget_buys_processes(void)
{
    set_costs(1, 0.0007, 0.0003);
    qsb_run_config cfg = config(1, 0, 0);
    qsb_run_plan p = plan_of(&cfg);
    CHECK(p.slice_s == QSB_WORKER_START_S); /* one cell: its visit as long as a start */
    CHECK(p.worker_s > QSB_WORKER_START_S + p.slice_s);
    CHECK(p.budget_s == QSB_AUTO_BUDGET_MIN_S);
    CHECK_EQ_U64(p.min_units, QSB_MIN_UNITS);
    CHECK(near(p.minimum_s, QSB_MIN_UNITS * p.worker_s));
    CHECK_EQ_U64(p.processes, (size_t)floor(p.budget_s / p.worker_s + 0.5));
    CHECK(p.processes > QSB_MIN_UNITS);
    CHECK(p.estimate_s == p.budget_s);
}

/* The first worker counts every cell's comparisons (a cell's first visit: first more than a
** round), the later ones take its counts: a long sort's visit is then its round and its
** copies (first - round of the estimate), a short sort's one warm-up round more. */
static void test_later_workers_take_counts(void)
{
    set_costs(3, 1.0, 1.1); /* long sorts: 0.5 s each of the two algorithms */
    qsb_run_config cfg = config(3, 60, 0);
    qsb_run_plan p = plan_of(&cfg);
    double first = QSB_WORKER_START_S + 3 * (1.1 + 1.0);
    CHECK(near(p.worker_s, QSB_WORKER_START_S + 3 * (0.1 + 1.0)));
    CHECK(near(p.minimum_s, first + (QSB_MIN_UNITS - 1) * p.worker_s));
    CHECK_EQ_U64(p.processes, 1 + (size_t)floor((60 - first) / p.worker_s + 0.5));

    set_costs(3, 0.004, 0.005); /* short sorts (2 ms): a warm-up round at each visit */
    p = plan_of(&cfg);
    CHECK(near(p.worker_s, QSB_WORKER_START_S + 3 * (0.001 + 0.004 + fmax(p.slice_s, 0.004))));
}

/* A matrix whose minimum is far beyond the auto budget's ceiling: the ceiling holds, with as
** many processes as fit in it (fewer than the minimum: no interval, said), each visiting every
** cell; one whose first process alone passes the ceiling is refused, naming a budget. */
static void test_huge_matrix(void)
{
    set_costs(2000, 0.05, 0.05);
    qsb_run_config cfg = config(2000, 0, 0);
    qsb_run_plan p = plan_of(&cfg);
    CHECK(p.budget_s == QSB_AUTO_BUDGET_MAX_S);
    CHECK(p.slice_s == 0.005); /* the shortest slice: a start spread over 2000 cells */
    CHECK_EQ_U64(p.asked_units, QSB_MIN_UNITS);
    CHECK(p.min_units >= 1 && p.min_units < QSB_MIN_UNITS);
    CHECK_EQ_U64(p.processes, p.min_units);
    CHECK(p.first_s + (double)(p.min_units - 1) * p.worker_s <= p.budget_s);
    CHECK(p.first_s + (double)p.min_units * p.worker_s > p.budget_s);
    CHECK(p.minimum_s > p.budget_s && p.estimate_s <= p.budget_s);
    CHECK(qsb_plan_check_budget(&cfg, &p) == QSB_OK);
    qsb_workers_plan w = qsb_plan_workers(&cfg, &p, 0, -1, NULL);
    CHECK_EQ_U64(w.min_processes, p.min_units);
    CHECK(!w.exact && w.first_s == p.first_s);

    set_costs(2000, 0.05, 0.2); /* the first process alone: 2000 x 0.25 s */
    p = plan_of(&cfg);
    CHECK_EQ_U64(p.min_units, 0);
    CHECK(qsb_plan_check_budget(&cfg, &p) == QSB_EUSAGE);
}

/* A given budget likewise: 3 long cells, a first process of about 6.3 s and later ones of
** 3.3 s; 10 s hold two of them. --processes N stays exact whatever the budget. */
static void test_budget_holds(void)
{
    set_costs(3, 1.0, 1.1);
    qsb_run_config cfg = config(3, 10, 0);
    qsb_run_plan p = plan_of(&cfg);
    CHECK_EQ_U64(p.min_units, 2);
    CHECK_EQ_U64(p.processes, 2);
    CHECK(p.estimate_s <= 10);
    cfg.budget_s = 5; /* not even the first */
    p = plan_of(&cfg);
    CHECK_EQ_U64(p.min_units, 0);
    CHECK(qsb_plan_check_budget(&cfg, &p) == QSB_EUSAGE);
    cfg.processes = 4;
    p = plan_of(&cfg);
    CHECK_EQ_U64(p.min_units, 4);
    CHECK(p.estimate_s == p.minimum_s && p.estimate_s > cfg.budget_s);
    CHECK(qsb_plan_check_budget(&cfg, &p) == QSB_OK);
    CHECK(qsb_plan_workers(&cfg, &p, 0, -1, NULL).exact);
    cfg.processes = 0;
    cfg.jobs = 2; /* two at once: both count, then two later ones fit the third and fourth */
    cfg.budget_s = 10;
    p = plan_of(&cfg);
    CHECK_EQ_U64(p.min_units, 4);
}

/* A budget holding more processes than the cap: the cap. */
static void test_process_cap(void)
{
    set_costs(1, 1e-6, 1e-6);
    qsb_run_config cfg = config(1, 1e6, 0);
    qsb_run_plan p = plan_of(&cfg);
    CHECK_EQ_U64(p.processes, QSB_MAX_PROCESSES);
    CHECK(p.budget_s == 1e6);
}

/* --processes N: exactly N, as long as they take, whatever the budget. */
static void test_exact_processes(void)
{
    set_costs(3, 0.001, 0.002);
    qsb_run_config cfg = config(3, 1000, 7);
    qsb_run_plan p = plan_of(&cfg);
    CHECK_EQ_U64(p.processes, 7);
    CHECK_EQ_U64(p.min_units, 7);
    CHECK(near(p.estimate_s, 7 * p.worker_s) && p.estimate_s == p.minimum_s);
    qsb_workers_plan w = qsb_plan_workers(&cfg, &p, 2.5e9, 9, NULL);
    CHECK_EQ_U64(w.min_processes, 7);
    CHECK_EQ_U64(w.max_processes, 7);
    CHECK_EQ_U64(w.planned, 7);
    CHECK(w.tsc_hz == 2.5e9 && w.inputs_fd == 9 && w.start_s == QSB_WORKER_START_S);
    CHECK(w.slice_s == p.slice_s && w.budget_s == p.estimate_s && w.worker_s == p.worker_s);
    cfg.processes = 0;
    p = plan_of(&cfg);
    w = qsb_plan_workers(&cfg, &p, 0, -1, NULL);
    CHECK_EQ_U64(w.max_processes, QSB_MAX_PROCESSES);
    CHECK_EQ_U64(w.min_processes, QSB_MIN_UNITS);
}

/* --processes 1: units per cell; the slice a quarter of the budget over the minimum's visits,
** within 5 ms and 1 s; a budget below the minimum: the minimum. */
static void test_one_process(void)
{
    set_costs(4, 0.01, 0.02);
    qsb_run_config cfg = config(4, 8, 1);
    qsb_run_plan p = plan_of(&cfg);
    CHECK_EQ_U64(p.processes, 1);
    CHECK_EQ_U64(p.min_units, QSB_MIN_UNITS);
    CHECK(p.budget_s == 8);
    CHECK(near(p.slice_s, 0.25 * 8 / (QSB_MIN_UNITS * 4)));
    CHECK(p.estimate_s == fmax(p.budget_s, p.minimum_s));
    cfg.budget_s = 10000; /* a slice of 125 s: cut to 1 s */
    CHECK(plan_of(&cfg).slice_s == 1.0);
    cfg.budget_s = 0.01; /* tiny: 0.125 ms, raised to 5 ms; not one unit of every cell fits */
    p = plan_of(&cfg);
    CHECK(p.slice_s == 0.005);
    CHECK_EQ_U64(p.min_units, 0);
    CHECK(qsb_plan_check_budget(&cfg, &p) == QSB_EUSAGE);
    cfg.budget_s = 0.2; /* 0.08 s and 0.04 s a unit of every cell: three fit, not five */
    p = plan_of(&cfg);
    CHECK_EQ_U64(p.min_units, 3);
    CHECK_EQ_U64(p.asked_units, QSB_MIN_UNITS);
    CHECK(p.estimate_s == p.budget_s && p.minimum_s > p.budget_s);
    cfg.budget_s = 0; /* auto: three times the bare minimum, at least 10 s */
    CHECK(plan_of(&cfg).budget_s == QSB_AUTO_BUDGET_MIN_S);
}

/* --reps N: no budget, no slice; N rounds over min(N, 5) units; the minimum is every cell's
** first visit and N rounds. */
static void test_reps(void)
{
    set_costs(3, 0.01, 0.02);
    qsb_run_config cfg = config(3, 5, 1);
    cfg.reps = 3;
    qsb_run_plan p = plan_of(&cfg);
    CHECK_EQ_U64(p.min_units, 3);
    CHECK(p.budget_s == 0 && p.slice_s == 0);
    CHECK(near(p.minimum_s, 3 * (0.02 + 3 * 0.01)) && p.estimate_s == p.minimum_s);
    cfg.reps = 7;
    CHECK_EQ_U64(plan_of(&cfg).min_units, QSB_MIN_UNITS);
}

/* Exact counts: one unit of one round, no budget; a worker: its run's slice, one visit. */
static void test_counts_and_worker(void)
{
    set_costs(2, 0.01, 0.02);
    qsb_run_config cfg = config(2, 30, 1);
    cfg.metric = QSB_METRIC_COMPARISONS;
    qsb_run_plan p = plan_of(&cfg);
    CHECK_EQ_U64(p.min_units, 1);
    CHECK_EQ_U64(p.processes, 1);
    CHECK(p.budget_s == 0 && p.slice_s == 0);
    cfg = config(2, 0, 1);
    cfg.worker.slice_s = 0.004;
    p = plan_of(&cfg);
    CHECK_EQ_U64(p.min_units, 1);
    CHECK_EQ_U64(p.processes, 1);
    CHECK(p.budget_s == 0 && p.slice_s == 0.004);
    qsb_schedule_policy s = qsb_plan_schedule(&cfg, &p);
    CHECK_EQ_U64(s.min_units, 1);
    CHECK_EQ_U64(s.max_units, QSB_MAX_UNITS);
    CHECK(s.budget_s == 0 && s.precision_pct == 1.0);
}

/* A gating run spends its whole budget: no precision stop; any other run stops at its
** --precision. */
static void test_precision_stop(void)
{
    set_costs(1, 0.001, 0.001);
    qsb_run_config cfg = config(1, 10, 0);
    cfg.precision_pct = 2.5;
    qsb_run_plan p = plan_of(&cfg);
    CHECK(qsb_plan_stop_precision(&cfg) == 2.5);
    CHECK(qsb_plan_workers(&cfg, &p, 0, -1, NULL).precision_pct == 2.5);
    cfg.fail_above = true;
    CHECK(qsb_plan_stop_precision(&cfg) == 0.0);
    CHECK(qsb_plan_workers(&cfg, &p, 0, -1, NULL).precision_pct == 0.0);
    cfg.processes = 1;
    p = plan_of(&cfg);
    CHECK(qsb_plan_schedule(&cfg, &p).precision_pct == 0.0);
}

/* The repetition rules in the results' context, one wording per kind of plan. */
static void test_describe(void)
{
    char text[384];
    set_costs(1, 0.001, 0.001);
    qsb_run_config cfg = config(1, 0, 1);
    cfg.reps = 7;
    qsb_run_plan p = plan_of(&cfg);
    qsb_plan_describe(&cfg, &p, text, sizeof text);
    CHECK(strcmp(text, "fixed: 7 rounds over up to 5 units; no slowed sort retaken") == 0);
    cfg = config(1, 20, 1);
    cfg.slowed_pct = 10;
    p = plan_of(&cfg);
    qsb_plan_describe(&cfg, &p, text, sizeof text);
    CHECK_MSG(strcmp(text, "budget: 5 units per cell at least (1 s of rounds each), then more "
                           "units for the cells wider than +-1% until 20 s are spent; short "
                           "sorts over 10% slower than their row's fastest retaken") == 0,
              "%s", text);
    cfg = config(1, 20, 6);
    p = plan_of(&cfg);
    qsb_plan_describe(&cfg, &p, text, sizeof text);
    CHECK_MSG(starts_with(text, "processes: 6 worker processes (one after the other), each "
                                "one visit per cell"),
              "%s", text);
    cfg.jobs = 2; /* the context says how many ran at once */
    p = plan_of(&cfg);
    qsb_plan_describe(&cfg, &p, text, sizeof text);
    CHECK_MSG(starts_with(text, "processes: 6 worker processes (2 at once), each one visit"),
              "%s", text);
    cfg = config(1, 20, 0);
    cfg.fail_above = true;
    p = plan_of(&cfg);
    qsb_plan_describe(&cfg, &p, text, sizeof text);
    CHECK_MSG(strstr(text, "then processes visiting every cell (a gate spends its budget) "
                           "while 20 s last") != NULL,
              "%s", text);
}

/* --jobs J: J workers at once, each counting (no model yet) the first time round, so the
** minimum of 5 takes ceil((5 - J) / J) later rounds after the first, and the budget buys J
** times the processes; --jobs 1 plans as one after the other; the workers' plan says J. */
static void test_jobs(void)
{
    set_costs(3, 1.0, 1.1);
    qsb_run_config cfg = config(3, 60, 0);
    qsb_run_plan one = plan_of(&cfg);
    cfg.jobs = 1;
    qsb_run_plan same = plan_of(&cfg);
    CHECK_EQ_U64(same.processes, one.processes);
    CHECK(near(same.minimum_s, one.minimum_s));
    CHECK_EQ_U64(same.jobs, 1);
    cfg.jobs = 2;
    qsb_run_plan two = plan_of(&cfg);
    double first = QSB_WORKER_START_S + 3 * (1.1 + 1.0);
    CHECK_EQ_U64(two.jobs, 2);
    CHECK(near(two.minimum_s, first + 2 * two.worker_s)); /* 2 at once, then 2, then 1 */
    CHECK_EQ_U64(two.processes, 2 * (1 + (size_t)floor((60 - first) / two.worker_s + 0.5)));
    qsb_workers_plan w = qsb_plan_workers(&cfg, &two, 0, -1, NULL);
    CHECK_EQ_U64(w.jobs, 2);
    cfg.processes = 1; /* one process: no workers, whatever --jobs */
    qsb_run_plan alone = plan_of(&cfg);
    CHECK_EQ_U64(alone.jobs, 1);
}

/* What qsb_plan_announce writes on stderr, into buf. */
static void announce_into(const qsb_run_config *cfg, const qsb_run_plan *p, char *buf,
                          size_t len)
{
    char path[] = "/tmp/qsb-test-plan-XXXXXX";
    int fd = mkstemp(path);
    int saved = dup(STDERR_FILENO);
    buf[0] = '\0';
    if (fd < 0 || saved < 0)
        return;
    fflush(stderr);
    dup2(fd, STDERR_FILENO);
    qsb_plan_announce(cfg, p);
    fflush(stderr);
    dup2(saved, STDERR_FILENO);
    close(saved);
    ssize_t n = pread(fd, buf, len - 1, 0);
    buf[n > 0 ? (size_t)n : 0] = '\0';
    close(fd);
    unlink(path);
}

/* The announcement: the processes and their estimate; a budget that holds fewer units than
** the minimum warned about, and --processes N beyond the budget; nothing but the warning when
** quiet. */
static void test_announce(void)
{
    char text[1024];
    set_costs(1, 0.0007, 0.001);
    qsb_run_config cfg = config(1, 0, 0);
    cfg.n_algos = 1;
    qsb_run_plan p = plan_of(&cfg);
    announce_into(&cfg, &p, text, sizeof text);
    CHECK_MSG(strcmp(text, "qsortbench: 1 cells x 1 algorithms in about 244 worker processes "
                           "of about 0.041s each: about 10s (budget 10s, auto; the minimum of "
                           "5 processes is about 0.21s)\n") == 0,
              "%s", text);
    set_costs(2000, 0.005, 0.005); /* units of 10 s: 35 s hold two */
    cfg = config(2000, 35, 1);
    cfg.quiet = true;
    p = plan_of(&cfg);
    announce_into(&cfg, &p, text, sizeof text);
    CHECK_MSG(strcmp(text, "qsortbench: warning: the budget of 35s holds 2 units of every "
                           "cell, fewer than the 5 a row needs for an interval (5 take about "
                           "1:00): its rows have none (too few, flagged ~noisy); give --budget "
                           "75s or more, or fewer cells\n") == 0,
              "%s", text);
    cfg = config(2000, 35, 7); /* --processes 7: exact, and longer than the budget */
    cfg.quiet = true;
    p = plan_of(&cfg);
    announce_into(&cfg, &p, text, sizeof text);
    CHECK_MSG(starts_with(text, "qsortbench: warning: --budget 35s is below the 7 worker "
                                "processes asked (about ") &&
                  strstr(text, "): the run takes that long") && !strstr(text, "algorithms"),
              "%s", text);
    cfg = config(2, 0, 1);
    cfg.reps = 4;
    set_costs(2, 1.0, 1.0);
    p = plan_of(&cfg);
    announce_into(&cfg, &p, text, sizeof text);
    CHECK_MSG(strcmp(text, "qsortbench: 2 cells x 2 algorithms, 4 rounds each: about 10s\n") == 0,
              "%s", text);
}

/* A worker's command line: "run", the resolved counts, the measuring options given, in the
** protocol's order, and --no-reload. */
static void test_worker_argv(void)
{
    uint64_t nelem[2] = {100, 2000};
    qsb_run_config cfg = config(2, 0, 0);
    cfg.nelem = nelem;
    const char *texts[QSB_WORKER_OPTIONS_MAX] = {0};
    for (size_t i = 0; qsb_worker_options[i].name; i++) {
        CHECK(i < QSB_WORKER_OPTIONS_MAX);
        if (strcmp(qsb_worker_options[i].name, "sizes") == 0)
            texts[i] = "4,8";
        if (strcmp(qsb_worker_options[i].name, "machine") == 0)
            texts[i] = "box";
    }
    cfg.reload = false; /* --no-reload */
    CHECK_EQ_U64(qsb_worker_argv_build(&cfg, texts), QSB_OK);
    const char *want[] = {"run", "--nelem=100:2000", "--sizes=4,8", "--machine=box",
                          "--no-reload", NULL};
    char **argv = cfg.worker.argv_head;
    for (size_t i = 0; i < sizeof want / sizeof want[0]; i++)
        CHECK_MSG(want[i] ? argv[i] && strcmp(argv[i], want[i]) == 0 : argv[i] == NULL,
                  "argument %zu: %s", i, argv[i] ? argv[i] : "(end)");
    for (size_t i = 0; argv[i]; i++)
        free(argv[i]);
    free(argv);
}

int main(void)
{
    for (size_t i = 0; i < 2; i++)
        algos[i] = (qsb_algorithm){0};
    test_auto_budget_buys_processes();
    test_later_workers_take_counts();
    test_huge_matrix();
    test_budget_holds();
    test_process_cap();
    test_exact_processes();
    test_one_process();
    test_reps();
    test_counts_and_worker();
    test_precision_stop();
    test_describe();
    test_jobs();
    test_announce();
    test_worker_argv();
    return check_done();
}
