/*
** Where and how a results file was made, gathered in one place for every command that
** writes one (run, audit): the date, this host, its CPU, caches and libc, and the command
** line, shell-quoted so that it can be pasted back, and the run's id. The build's own facts
** (version, compiler, flags) are version.h's.
*/
#ifndef QSB_RUN_CONTEXT_H
#define QSB_RUN_CONTEXT_H

#include <stdint.h>
#include <time.h>

typedef struct {
    char date[32];           /* UTC, ISO 8601 */
    char host[256];          /* "unknown" when not readable */
    char cpu_model[256];
    char libc[128];          /* "glibc 2.36" */
    char caches[256];        /* human form (machine.h) */
    uint64_t cache_bytes[3]; /* L1d, L2, L3 totals; 0 when unknown */
    char run_id[17];         /* 16 random hex digits: tells this run from every other, even
                             ** one of the same command started in the same second */
} qsb_run_context;

/* Gathers the context at `utc`, the moment the command started. */
void qsb_run_context_gather(qsb_run_context *c, const struct tm *utc);

/* "qsortbench COMMAND ARG..." for argv[1..argc-1], each argument that a shell would split or
** expand in single quotes; malloc'd, NULL when out of memory (not reported). */
char *qsb_command_line(const char *command, int argc, char **argv);

#endif
