/*
** Interrupting a run: SIGINT (Ctrl-C) and SIGTERM in the middle of a long run must stop it
** after the current sort, leave complete result files under their final names (the JSON
** valid, with context.incomplete = true, the CSV with the same rows), no temporary file, one
** error line, and exit 130 / 143.
**
** The signal is sent once the temporary result file exists: the tool installs its handlers
** before it opens the files, so from then on a signal can only mean "stop".
*/
#include <dirent.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include <cjson/cJSON.h>

#include "check.h"
#include "diag.h"
#include "read_results.h"
#include "run_binary.h"

static char dir[256];

static int temp_files_in_dir(void)
{
    int found = 0;
    DIR *d = opendir(dir);
    struct dirent *e;
    while (d && (e = readdir(d)) != NULL)
        found += strstr(e->d_name, ".tmp-") != NULL;
    if (d)
        closedir(d);
    return found;
}

static void pause_ms(long ms)
{
    struct timespec t = {ms / 1000, (ms % 1000) * 1000000L};
    nanosleep(&t, NULL);
}

static void interrupt_run(int signo, int expected_status)
{
    char csv[300], json[300], err[300];
    snprintf(csv, sizeof csv, "%s/sig%d.csv", dir, signo);
    snprintf(json, sizeof json, "%s/sig%d.json", dir, signo);
    snprintf(err, sizeof err, "%s/sig%d.err", dir, signo);
    /* A first small cell that ends at once, then one that would run for minutes. */
    char *argv[] = {QSB_BINARY, "--nelem", "100:300000", "--sizes", "4", "--patterns",
                    "random", "--reps", "5000", "--metric", "ns", "--csv", csv, "--json",
                    json, "--quiet", NULL};
    pid_t pid = start_binary(argv, NULL, err, NULL);
    CHECK(pid > 0);
    for (int waited = 0; waited < 3000 && !temp_files_in_dir(); waited++)
        pause_ms(10);
    CHECK(temp_files_in_dir());
    pause_ms(1500); /* most likely past the first cell; either way the checks hold */
    kill(pid, signo);
    CHECK_EQ_U64(wait_binary(pid), expected_status);
    CHECK_EQ_U64(temp_files_in_dir(), 0);

    char *text = slurp(json, NULL);
    cJSON *root = text ? cJSON_Parse(text) : NULL;
    CHECK_MSG(root != NULL, "%s missing or not valid JSON", json);
    const cJSON *context = cJSON_GetObjectItem(root, "context");
    CHECK(cJSON_IsTrue(cJSON_GetObjectItem(context, "incomplete")));
    int rows = cJSON_GetArraySize(cJSON_GetObjectItem(root, "results"));
    CHECK(rows % 2 == 0 && rows <= 2); /* only finished cells: never the interrupted one */
    csv_table t;
    CHECK(csv_table_read(csv, &t) == 0);
    CHECK_EQ_U64(t.nrows, (size_t)rows + 1);
    csv_table_free(&t);
    qsb_results back; /* the CSV says so too: every row carries the run's flag */
    if (rows > 0 && CHECK(qsb_read_results(csv, &back) == QSB_OK)) {
        CHECK(back.context.incomplete);
        qsb_results_free(&back);
    }
    cJSON_Delete(root);
    free(text);

    char *errors = slurp(err, NULL);
    CHECK(errors && strstr(errors, "qsortbench: error: interrupted") != NULL);
    free(errors);
}

int main(void)
{
    if (make_temp_dir(dir, sizeof dir, "qsb-run-signal") != 0)
        return 1;
    interrupt_run(SIGINT, 130);
    interrupt_run(SIGTERM, 143);
    remove_temp_dir(dir);
    return check_done();
}
