/*
** `qsortbench history add` killed with SIGKILL at 20 moments leaves the database intact
** (PRAGMA integrity_check ok) and the add either wholly in or wholly out, never half:
**   - each add is of ADD_FILES results files (ADD_FILES runs, their rows in one transaction);
**   - 10 kills inside the transaction, at a seeded spread of row counts from 0 (just after
**     BEGIN) to every row inserted (just before COMMIT): the real binary stops itself there
**     (QSB_HISTORY_STOP_AFTER_ROWS), the test waits for that stop (an event) and kills it; the
**     add must be out;
**   - 10 kills at seeded delays from the start of the process, spread over 1.5 times an
**     uninterrupted add's duration: where they land (before the database is opened, inside
**     the transaction, after the commit) depends on the machine, the assertion does not: the
**     file is intact and holds every run of the add with all its rows, or none of it;
**   - afterwards an add through the tool succeeds and lands whole.
** The tool is the build's (QSB_BINARY), the results file tests/fixtures/report/run.json; each
** add files copies of it that are other runs (each its own start), as a run is filed once.
*/
#include <signal.h>
#include <sqlite3.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "check.h"

#define ADD_FILES 10
#define TRIES_AT_ROWS 10
#define TRIES_AT_DELAYS 10
#define SEED 0x6b696c6c5eedULL

static const char *const bin = QSB_BINARY;
static const char *const results = QSB_SOURCE_DIR "/tests/fixtures/report/run.json";
static char dir[] = "/tmp/qsb_history_kill_XXXXXX";
static char db_path[256];

/* splitmix64: the tries' row counts and delays, the same on every machine. */
static uint64_t next_random(uint64_t *state)
{
    uint64_t z = (*state += 0x9e3779b97f4a7c15ULL);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
    return z ^ (z >> 31);
}

#define FIXTURE_DATE "2026-12-04T20:23:49Z" /* the fixture run's start, once in its file */

/* Writes copies[0..ADD_FILES-1]: the results file as runs not filed before, each started at
** a second of its own. 0, or -1 when the fixture cannot be read or the copies written. */
static int write_copies(char copies[ADD_FILES][300])
{
    static long next_second;
    static char text[16384];
    static size_t len;
    if (len == 0) {
        FILE *in = fopen(results, "r");
        len = in ? fread(text, 1, sizeof text - 1, in) : 0;
        if (in)
            fclose(in);
        text[len] = '\0';
    }
    char *date = strstr(text, FIXTURE_DATE);
    if (!date)
        return -1;
    for (int i = 0; i < ADD_FILES; i++, next_second++) {
        snprintf(copies[i], sizeof copies[i], "%s/run-%ld.json", dir, next_second);
        char start[32];
        snprintf(start, sizeof start, "2026-12-05T%02ld:%02ld:%02ldZ", next_second / 3600 % 24,
                 next_second / 60 % 60, next_second % 60);
        FILE *out = fopen(copies[i], "w");
        if (!out)
            return -1;
        fwrite(text, 1, (size_t)(date - text), out);
        fputs(start, out);
        fputs(date + strlen(FIXTURE_DATE), out);
        if (fclose(out) != 0)
            return -1;
    }
    return 0;
}

/* The tool adding ADD_FILES runs (copies of the results file) under commit; stop_after >= 0
** sets the stop hook. Its messages go to /dev/null. */
static pid_t start_add(const char *commit, long stop_after)
{
    static char copies[ADD_FILES][300];
    if (write_copies(copies) != 0) {
        fprintf(stderr, "cannot write the copies of %s into %s\n", results, dir);
        exit(1);
    }
    fflush(NULL);
    pid_t pid = fork();
    if (pid != 0)
        return pid;
    if (!freopen("/dev/null", "w", stderr))
        _exit(127);
    char hook[32];
    snprintf(hook, sizeof hook, "%ld", stop_after);
    if (stop_after >= 0)
        setenv("QSB_HISTORY_STOP_AFTER_ROWS", hook, 1);
    else
        unsetenv("QSB_HISTORY_STOP_AFTER_ROWS");
    const char *argv[ADD_FILES + 12];
    size_t k = 0;
    argv[k++] = bin;
    argv[k++] = "history";
    argv[k++] = "add";
    for (int i = 0; i < ADD_FILES; i++)
        argv[k++] = copies[i];
    const char *tail[] = {"--db", db_path, "--commit", commit, "--date", "2026-01-01T00:00:00Z",
                          "--machine", "box", NULL};
    memcpy(&argv[k], tail, sizeof tail);
    execv(bin, (char *const *)argv);
    _exit(127);
}

static int run_add(const char *commit)
{
    int ws;
    pid_t pid = start_add(commit, -1);
    return waitpid(pid, &ws, 0) == pid && WIFEXITED(ws) ? WEXITSTATUS(ws) : -1;
}

typedef struct {
    int intact;        /* integrity_check said ok */
    long runs, rows;
    long half_runs;    /* runs whose rows are not all there */
    long orphan_rows;  /* rows of no run */
} db_state;

static long count(sqlite3 *db, const char *sql)
{
    sqlite3_stmt *st;
    long n = -1;
    if (sqlite3_prepare_v2(db, sql, -1, &st, NULL) == SQLITE_OK) {
        if (sqlite3_step(st) == SQLITE_ROW)
            n = (long)sqlite3_column_int64(st, 0);
        sqlite3_finalize(st);
    }
    return n;
}

static db_state look(long rows_per_run)
{
    db_state s = {0, -1, -1, -1, -1};
    sqlite3 *db;
    if (sqlite3_open_v2(db_path, &db, SQLITE_OPEN_READWRITE, NULL) != SQLITE_OK) {
        sqlite3_close(db);
        return s;
    }
    sqlite3_stmt *st;
    if (sqlite3_prepare_v2(db, "PRAGMA integrity_check", -1, &st, NULL) == SQLITE_OK) {
        s.intact = sqlite3_step(st) == SQLITE_ROW &&
                   strcmp((const char *)sqlite3_column_text(st, 0), "ok") == 0;
        sqlite3_finalize(st);
    }
    s.runs = count(db, "SELECT count(*) FROM runs");
    s.rows = count(db, "SELECT count(*) FROM rows");
    char sql[200];
    snprintf(sql, sizeof sql, "SELECT count(*) FROM runs r WHERE (SELECT count(*) FROM rows w "
             "WHERE w.run_id = r.id) != %ld", rows_per_run);
    s.half_runs = count(db, sql);
    s.orphan_rows = count(db, "SELECT count(*) FROM rows WHERE run_id NOT IN (SELECT id FROM runs)");
    sqlite3_close(db);
    return s;
}

static double now_s(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + ts.tv_nsec / 1e9;
}

/* The database after a kill: intact, no half run, no orphan row, and the add (ADD_FILES runs)
** either wholly in or wholly out against before. Returns the runs there now. */
static long check_after_kill(const char *what, long before_runs, long rows_per_run,
                             int must_be_out)
{
    db_state s = look(rows_per_run);
    CHECK_MSG(s.intact, "%s: integrity_check fails", what);
    CHECK_MSG(s.half_runs == 0 && s.orphan_rows == 0, "%s: %ld runs without all their rows, "
              "%ld rows of no run", what, s.half_runs, s.orphan_rows);
    int out = s.runs == before_runs;
    int in = s.runs == before_runs + ADD_FILES;
    CHECK_MSG(must_be_out ? out : out || in, "%s: %ld runs, %ld before (an add is %d)", what,
              s.runs, before_runs, ADD_FILES);
    CHECK_MSG(s.rows == s.runs * rows_per_run, "%s: %ld rows for %ld runs", what, s.rows,
              s.runs);
    return s.runs;
}

int main(void)
{
    if (!mkdtemp(dir)) {
        perror("mkdtemp");
        return 1;
    }
    snprintf(db_path, sizeof db_path, "%s/history.sqlite", dir);

    /* one whole add first: the rows an add makes, and how long it takes here */
    double t0 = now_s();
    CHECK(run_add("c0") == 0);
    double add_s = now_s() - t0;
    db_state first = look(0);
    long rows_per_run = first.runs > 0 ? first.rows / first.runs : 0;
    CHECK_MSG(first.runs == ADD_FILES && rows_per_run > 0, "the first add: %ld runs, %ld rows",
              first.runs, first.rows);
    long add_rows = rows_per_run * ADD_FILES;
    long runs = first.runs;

    uint64_t rng = SEED;
    for (int i = 0; i < TRIES_AT_ROWS; i++) {
        /* stratified: one try in each tenth of [0, add_rows], both ends included */
        long lo = add_rows * i / TRIES_AT_ROWS, hi = add_rows * (i + 1) / TRIES_AT_ROWS;
        long at = i == TRIES_AT_ROWS - 1 ? add_rows : lo + (long)(next_random(&rng) % (uint64_t)(hi - lo));
        char what[64];
        snprintf(what, sizeof what, "killed after %ld of %ld rows", at, add_rows);
        pid_t pid = start_add("stopped", at);
        int ws;
        CHECK_MSG(waitpid(pid, &ws, WUNTRACED) == pid && WIFSTOPPED(ws),
                  "%s: the add did not stop at the hook", what);
        kill(pid, SIGKILL);
        waitpid(pid, &ws, 0);
        runs = check_after_kill(what, runs, rows_per_run, 1);
    }

    int landed = 0, out = 0, killed = 0;
    for (int i = 0; i < TRIES_AT_DELAYS; i++) {
        double delay = 1.5 * add_s * (double)(next_random(&rng) % 1000) / 1000.0;
        char what[64];
        snprintf(what, sizeof what, "killed %.1f ms after its start", delay * 1e3);
        pid_t pid = start_add("killed", -1);
        struct timespec ts = {(time_t)delay, (long)((delay - (double)(time_t)delay) * 1e9)};
        nanosleep(&ts, NULL);
        kill(pid, SIGKILL);
        int ws;
        waitpid(pid, &ws, 0);
        killed += WIFSIGNALED(ws);
        long before = runs;
        runs = check_after_kill(what, runs, rows_per_run, 0);
        landed += runs != before;
        out += runs == before;
    }
    printf("kills at delays (up to %.1f ms): %d of %d killed before they ended; the add in %d, "
           "out %d\n", 1.5 * add_s * 1e3, killed, TRIES_AT_DELAYS, landed, out);

    CHECK(run_add("after") == 0);
    check_after_kill("an add after the kills", runs, rows_per_run, 0);
    CHECK_EQ_U64(look(rows_per_run).runs, runs + ADD_FILES);

    char cmd[300];
    snprintf(cmd, sizeof cmd, "rm -rf '%s'", dir);
    if (system(cmd) != 0)
        fprintf(stderr, "could not remove %s\n", dir);
    return check_done();
}
