/*
** The run through the bench layer, with its outputs in files (bench_run.h).
*/
#include "bench_run.h"

#include <fcntl.h>
#include <stdio.h>
#include <unistd.h>

#include "diag.h"
#include "report.h"
#include "runner.h"

static int write_file(const char *path, int (*writer)(FILE *, const qsb_results *),
                      const qsb_results *r)
{
    FILE *fp = fopen(path, "w");
    if (!fp)
        return QSB_ESYSTEM;
    int status = writer(fp, r);
    return fclose(fp) == 0 ? status : QSB_ESYSTEM;
}

static int report(void *arg, const qsb_run_outcome *outcome)
{
    const bench_run_files *files = arg;
    int status = qsb_report_table(stdout, outcome->results, NULL);
    if (status == QSB_OK)
        status = write_file(files->csv, qsb_report_csv, outcome->results);
    if (status == QSB_OK)
        status = write_file(files->json, qsb_report_json, outcome->results);
    fprintf(stderr, "failed rows: %zu\n", outcome->totals->failed_rows);
    fflush(stdout);
    fflush(stderr);
    return status == QSB_OK ? outcome->status : status;
}

/* Points fd at path (NULL: leaves it); the saved descriptor, or -1. */
static int redirect(int fd, const char *path)
{
    if (!path)
        return -1;
    int saved = dup(fd), to = open(path, O_WRONLY | O_CREAT | O_TRUNC, 0644);
    dup2(to, fd);
    close(to);
    return saved;
}

static void restore(int fd, int saved)
{
    if (saved < 0)
        return;
    dup2(saved, fd);
    close(saved);
}

int bench_run_captured(const qsb_run_config *cfg, const bench_run_files *files)
{
    fflush(stdout);
    fflush(stderr);
    int saved_out = redirect(STDOUT_FILENO, files->out);
    int saved_err = redirect(STDERR_FILENO, files->err);
    qsb_run_reporter reporter = {.open = NULL, .report = report, .arg = (void *)files};
    int status = qsb_run_bench(cfg, NULL, &reporter);
    fflush(stdout);
    fflush(stderr);
    restore(STDOUT_FILENO, saved_out);
    restore(STDERR_FILENO, saved_err);
    return status;
}
