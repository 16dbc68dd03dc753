/*
** The history database (src/history/history.h):
**  - the samples' encoding reads back exactly (whole numbers, fractions, empty, bad blobs);
**  - an add stores every row (median, delta and intervals, states as read, samples) and the
**    walk gives each series in commit order, filtered by cell, algorithm and machine;
**  - a database of a newer schema, a file that is not a database, a database of another
**    program and a missing file (for the readers) are refused with QSB_EUSAGE;
**  - an add stopped mid-transaction at fixed points (the QSB_HISTORY_STOP_AFTER_ROWS hook)
**    and killed with SIGKILL leaves the file intact (integrity_check ok) and the run out; one
**    stopped after its commit has it in;
**  - two adds at once, one of them holding the write lock (stopped inside its transaction)
**    while the other starts, both land.
*/
#include <math.h>
#include <signal.h>
#include <sqlite3.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "check.h"
#include "diag.h"
#include "history.h"
#include "samples_codec.h"
#include "states_row.h"

static char dir[] = "/tmp/qsb_history_XXXXXX";

static void path_in_dir(char *buf, size_t len, const char *name)
{
    snprintf(buf, len, "%s/%s", dir, name);
}

/* ---- the samples' encoding ---- */

static void check_round_trip(const double *x, size_t n)
{
    size_t len;
    unsigned char *blob = qsb_samples_encode(x, n, &len);
    CHECK(blob != NULL);
    double *back;
    size_t m;
    CHECK(blob && qsb_samples_decode(blob, len, &back, &m) == 0);
    CHECK_EQ_U64(m, n);
    for (size_t i = 0; i < n && i < m; i++)
        CHECK_MSG(back[i] == x[i], "sample %zu: %.17g read back as %.17g", i, x[i], back[i]);
    free(back);
    free(blob);
}

static void test_codec(void)
{
    const double whole[] = {110292, 96033, 109032, 111573, 0, 9007199254740992.0, 1};
    check_round_trip(whole, 7);
    const double fractions[] = {1234.5, 0.1, -3.25, 1e300};
    check_round_trip(fractions, 4);
    check_round_trip(whole, 0);
    size_t len;
    unsigned char *blob = qsb_samples_encode(whole, 4, &len);
    CHECK(blob && len < 1 + 4 * 4); /* cycles-like samples take well under 8 bytes each */
    double *back;
    size_t m;
    CHECK(qsb_samples_decode(blob, len - 1, &back, &m) == 0 || m != 4); /* cut short */
    free(back);
    unsigned char bad[] = {9, 1, 2};
    CHECK(qsb_samples_decode(bad, sizeof bad, &back, &m) == -1);
    unsigned char open_varint[] = {1, 0x80};
    CHECK(qsb_samples_decode(open_varint, sizeof open_varint, &back, &m) == -1);
    unsigned char odd_doubles[] = {2, 1, 2, 3};
    CHECK(qsb_samples_decode(odd_doubles, sizeof odd_doubles, &back, &m) == -1);
    free(blob);
}

/* ---- results built here ---- */

/* Two cells (random/1000/4, sorted/1000/4) of msort and introsort; introsort's delta is
** delta_pct, its states text "0.62(5)@2010345.0/+5.10[+4.00,+6.20];0.38(3)@2931002.5/+80.20[+70.00,+90.00]". */
static void build(qsb_results *r, double delta_pct, const char *machine)
{
    memset(r, 0, sizeof *r);
    CHECK(qsb_set_string(&r->context.metric, "cycles") == 0);
    CHECK(qsb_set_string(&r->context.machine, machine) == 0);
    CHECK(qsb_set_string(&r->context.command_line, "qsortbench run --reps 6") == 0);
    CHECK(qsb_set_string(&r->baseline, "msort") == 0);
    const char *const algos[] = {"msort", "introsort"};
    const char *const patterns[] = {"random", "sorted"};
    for (size_t c = 0; c < 2; c++) {
        qsb_cell *cell = qsb_results_add_cell(r, patterns[c], 1000, 4, algos, 2);
        CHECK(cell != NULL);
        if (!cell)
            return;
        for (size_t i = 0; i < 2; i++) {
            qsb_row *row = &cell->rows[i];
            double base = 100000.0 * (double)(c + 1) * (i ? 1.0 + delta_pct / 100.0 : 1.0);
            for (uint32_t k = 0; k < 6; k++)
                CHECK(qsb_row_add_sample(row, floor(base + 100.0 * k), k) == 0);
            row->summary.median = base + 250.0;
            row->summary.median_lo = base;
            row->summary.median_hi = base + 500.0;
            if (i) {
                row->delta_pct = delta_pct;
                row->delta_lo = delta_pct - 1.0;
                row->delta_hi = delta_pct + 1.0;
                set_states(row,
                           "0.62(5)@2010345.0/+5.10[+4.00,+6.20];"
                           "0.38(3)@2931002.5/+80.20[+70.00,+90.00]",
                           NULL);
            }
        }
    }
}

static qsb_history_stamp stamp(const char *commit, int64_t time)
{
    return (qsb_history_stamp){commit, "2026-12-01T00:00:00Z", time, "main", NULL, "r.json", 0,
                               false};
}

typedef struct {
    size_t series, points;
    double last_delta;
    const char *last_states;
    size_t samples;
    char first_commit[32];
    char states[128];
} walk_seen;

static int count_series(void *ctx, const qsb_history_series *s)
{
    walk_seen *w = ctx;
    w->series++;
    w->points += s->n;
    if (s->n) {
        w->last_delta = s->points[s->n - 1].delta_pct;
        snprintf(w->first_commit, sizeof w->first_commit, "%s", s->points[0].commit);
        snprintf(w->states, sizeof w->states, "%s",
                 s->points[s->n - 1].states ? s->points[s->n - 1].states : "");
        w->samples = s->points[s->n - 1].nsamples;
        for (size_t i = 0; i < s->points[s->n - 1].nsamples; i++)
            CHECK(s->points[s->n - 1].samples[i] == floor(s->points[s->n - 1].samples[0]) +
                                                        100.0 * (double)i);
    }
    return QSB_OK;
}

static size_t count_runs(const char *path)
{
    qsb_history *h;
    if (qsb_history_open(path, QSB_HISTORY_READ, &h) != QSB_OK)
        return (size_t)-1;
    qsb_history_run *runs;
    size_t n = 0;
    CHECK(qsb_history_runs(h, NULL, &runs, &n) == QSB_OK);
    qsb_history_runs_free(runs, n);
    qsb_history_close(h);
    return n;
}

static void test_add_and_walk(void)
{
    char path[256];
    path_in_dir(path, sizeof path, "walk.sqlite");
    qsb_history *h;
    CHECK(qsb_history_open(path, QSB_HISTORY_READ, &h) == QSB_EUSAGE); /* not there yet */
    CHECK(qsb_history_open(path, QSB_HISTORY_CREATE, &h) == QSB_OK);
    qsb_results r[3];
    build(&r[0], 1.0, "box");
    build(&r[1], 12.0, "box");
    build(&r[2], 3.0, "other");
    /* added out of commit order: the walk orders by commit time */
    qsb_history_stamp st[3] = {stamp("c2", 2000), stamp("c1", 1000), stamp("c1", 1000)};
    int64_t ids[3];
    CHECK(qsb_history_add(h, r, st, 3, ids) == QSB_OK);
    CHECK(ids[0] < ids[1] && ids[1] < ids[2]);

    walk_seen all = {0};
    CHECK(qsb_history_walk(h, NULL, QSB_HISTORY_NO_SAMPLES, count_series, &all) == QSB_OK);
    CHECK_EQ_U64(all.series, 8); /* 2 machines x 2 cells x 2 algorithms */
    CHECK_EQ_U64(all.points, 12);

    qsb_history_filter f = {"random", 1000, 4, "introsort", "box", QSB_HISTORY_EVERY_RUN};
    walk_seen one = {0};
    CHECK(qsb_history_walk(h, &f, QSB_HISTORY_SAMPLES, count_series, &one) == QSB_OK);
    CHECK_EQ_U64(one.series, 1);
    CHECK_EQ_U64(one.points, 2);
    CHECK(strcmp(one.first_commit, "c1") == 0);  /* the earlier commit first */
    CHECK(one.last_delta == 1.0);                /* c2's run */
    CHECK(strcmp(one.states, "0.62(5)@2010345.0/+5.10[+4.00,+6.20];0.38(3)@2931002.5/+80.20[+70.00,+90.00]") == 0);
    CHECK_EQ_U64(one.samples, 6);

    char names[200];
    CHECK(qsb_history_cells_text(h, NULL, names, sizeof names) == 2);
    CHECK(strcmp(names, "random/1000/4, sorted/1000/4") == 0);
    CHECK(qsb_history_algorithms_text(h, &f, names, sizeof names) == 2);
    CHECK(strcmp(names, "introsort, msort") == 0);
    qsb_history_close(h);
    CHECK_EQ_U64(count_runs(path), 3);
    for (size_t i = 0; i < 3; i++)
        qsb_results_free(&r[i]);
}

/* ---- refused files ---- */

static void sql(const char *path, const char *text)
{
    sqlite3 *db;
    CHECK(sqlite3_open(path, &db) == SQLITE_OK);
    CHECK(sqlite3_exec(db, text, NULL, NULL, NULL) == SQLITE_OK);
    sqlite3_close(db);
}

static void write_file(const char *path, const char *text)
{
    FILE *f = fopen(path, "w");
    CHECK(f != NULL);
    if (f) {
        fputs(text, f);
        fclose(f);
    }
}

static void test_refused(void)
{
    char path[256];
    qsb_history *h;
    path_in_dir(path, sizeof path, "newer.sqlite");
    CHECK(qsb_history_open(path, QSB_HISTORY_CREATE, &h) == QSB_OK);
    qsb_history_close(h);
    sql(path, "PRAGMA user_version = 99");
    CHECK(qsb_history_open(path, QSB_HISTORY_CREATE, &h) == QSB_EUSAGE);

    path_in_dir(path, sizeof path, "corrupt.sqlite");
    char garbage[5000];
    for (size_t i = 0; i < sizeof garbage - 1; i++)
        garbage[i] = (char)('A' + i % 23);
    garbage[sizeof garbage - 1] = '\0';
    write_file(path, garbage);
    CHECK(qsb_history_open(path, QSB_HISTORY_READ, &h) == QSB_EUSAGE);
    CHECK(qsb_history_open(path, QSB_HISTORY_CREATE, &h) == QSB_EUSAGE);

    path_in_dir(path, sizeof path, "foreign.sqlite");
    sql(path, "CREATE TABLE t(x)");
    CHECK(qsb_history_open(path, QSB_HISTORY_CREATE, &h) == QSB_EUSAGE);
    CHECK(qsb_history_open(dir, QSB_HISTORY_CREATE, &h) == QSB_EUSAGE); /* a directory */
}

/* ---- killed adds, concurrent adds ---- */

static int integrity_ok(const char *path)
{
    sqlite3 *db;
    sqlite3_stmt *st;
    int ok = 0;
    if (sqlite3_open(path, &db) == SQLITE_OK &&
        sqlite3_prepare_v2(db, "PRAGMA integrity_check", -1, &st, NULL) == SQLITE_OK) {
        ok = sqlite3_step(st) == SQLITE_ROW &&
             strcmp((const char *)sqlite3_column_text(st, 0), "ok") == 0;
        sqlite3_finalize(st);
    }
    sqlite3_close(db);
    return ok;
}

/* A child that adds one run (4 rows) with the stop hook at stop_after (-1: none); exits 0
** when the add succeeded. */
static pid_t start_add(const char *path, long stop_after, const char *commit)
{
    fflush(NULL);
    pid_t pid = fork();
    if (pid != 0)
        return pid;
    char text[32];
    snprintf(text, sizeof text, "%ld", stop_after);
    if (stop_after >= 0)
        setenv("QSB_HISTORY_STOP_AFTER_ROWS", text, 1);
    qsb_history *h;
    int status = qsb_history_open(path, QSB_HISTORY_CREATE, &h);
    if (status == QSB_OK) {
        qsb_results r;
        build(&r, 2.0, "box");
        qsb_history_stamp st = stamp(commit, 3000);
        status = qsb_history_add(h, &r, &st, 1, NULL);
        qsb_results_free(&r);
        qsb_history_close(h);
    }
    _exit(status);
}

/* Waits until the child stops itself (the hook) or ends; 1 when it stopped. */
static int wait_stopped(pid_t pid, int *exit_status)
{
    int ws;
    CHECK(waitpid(pid, &ws, WUNTRACED) == pid);
    if (WIFSTOPPED(ws))
        return 1;
    *exit_status = WIFEXITED(ws) ? WEXITSTATUS(ws) : -1;
    return 0;
}

static void test_killed_adds(void)
{
    char path[256];
    path_in_dir(path, sizeof path, "killed.sqlite");
    pid_t first = start_add(path, -1, "c0"); /* one run in before the kills */
    int ws;
    CHECK(waitpid(first, &ws, 0) == first && WIFEXITED(ws) && WEXITSTATUS(ws) == 0);
    /* 0: just after BEGIN; 1, 3: between rows; 4: every row in, before COMMIT */
    const long points[] = {0, 1, 3, 4};
    for (size_t i = 0; i < sizeof points / sizeof points[0]; i++) {
        pid_t pid = start_add(path, points[i], "killed");
        int exit_status = -1;
        CHECK_MSG(wait_stopped(pid, &exit_status), "stop at %ld: the add ended (%d)",
                  points[i], exit_status);
        kill(pid, SIGKILL);
        waitpid(pid, &ws, 0);
        CHECK_MSG(integrity_ok(path), "killed after %ld rows: integrity_check fails", points[i]);
        CHECK_MSG(count_runs(path) == 1, "killed after %ld rows: %zu runs", points[i],
                  count_runs(path));
    }
    /* the hook past the last row never fires: the run lands */
    pid_t pid = start_add(path, 5, "whole");
    CHECK(waitpid(pid, &ws, 0) == pid && WIFEXITED(ws) && WEXITSTATUS(ws) == 0);
    CHECK(integrity_ok(path));
    CHECK_EQ_U64(count_runs(path), 2);
}

static void test_concurrent_adds(void)
{
    char path[256];
    path_in_dir(path, sizeof path, "concurrent.sqlite");
    pid_t holder = start_add(path, 2, "a"); /* stops with the write lock held */
    int exit_status = -1;
    CHECK(wait_stopped(holder, &exit_status));
    pid_t other = start_add(path, -1, "b"); /* waits for the lock (busy timeout) */
    kill(holder, SIGCONT);
    int ws;
    CHECK(waitpid(holder, &ws, 0) == holder && WIFEXITED(ws) && WEXITSTATUS(ws) == 0);
    CHECK(waitpid(other, &ws, 0) == other && WIFEXITED(ws) && WEXITSTATUS(ws) == 0);
    CHECK_EQ_U64(count_runs(path), 2);
    CHECK(integrity_ok(path));
}

int main(void)
{
    if (!mkdtemp(dir)) {
        perror("mkdtemp");
        return 1;
    }
    test_codec();
    test_add_and_walk();
    test_refused();
    test_killed_adds();
    test_concurrent_adds();
    char cmd[300];
    snprintf(cmd, sizeof cmd, "rm -rf '%s'", dir);
    if (system(cmd) != 0)
        fprintf(stderr, "could not remove %s\n", dir);
    return check_done();
}
