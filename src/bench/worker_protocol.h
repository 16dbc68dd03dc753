/*
** The worker protocol (workers.h): every option a run writes on a worker process's command
** line, in one table that the run writes them from and `run` reads them with. A worker's
** command line is the run's own options that decide what is measured, passed on as the run
** was given them (with the element counts resolved, so that a worker measures the run's cells
** even where --nelem auto would read another sysfs), then the worker's own options, then the
** run's output options set for a worker. A worker's own options are no user's: `run` parses
** them from this table and shows them with --help-all only, so a renamed option cannot leave
** the two sides speaking different languages.
*/
#ifndef QSB_WORKER_PROTOCOL_H
#define QSB_WORKER_PROTOCOL_H

#include <stdbool.h>
#include <stddef.h>

#include "run_config.h"

/* How an option's value is written and read. */
typedef enum {
    QSB_WORKER_GIVEN,  /* a run's option, passed on as the run was given it */
    QSB_WORKER_COUNTS, /* the run's element counts, resolved: "49152:786432" */
    QSB_WORKER_FLAG,   /* no value: a flag of the run's, or of its outputs */
    QSB_WORKER_SLOT,   /* K:SLICE[:CELLS], the worker's place in the run */
    QSB_WORKER_HZ,     /* a positive number, written with every digit */
    QSB_WORKER_FD,     /* a descriptor the worker inherits, above the standard three */
    QSB_WORKER_FILE    /* a file's path */
} qsb_worker_value;

/* Whose option it is, which is where it sits on the command line. */
typedef enum {
    QSB_WORKER_HEAD, /* the run's, which decide what is measured (the user's option table) */
    QSB_WORKER_OWN,  /* the worker's own: this table alone declares them */
    QSB_WORKER_OUT   /* the run's outputs, set for a worker (the user's option table) */
} qsb_worker_part;

typedef struct qsb_worker_option {
    const char *name;       /* the long option, without its dashes */
    qsb_worker_part part;
    qsb_worker_value value;
    size_t field;           /* QSB_WORKER_OWN: the value's offset in qsb_worker_protocol */
    const char *arg;        /* QSB_WORKER_OWN: the metavariable and the line of --help-all */
    const char *help;
} qsb_worker_option;

#define QSB_WORKER_OPTIONS_MAX 32 /* rows of the table, at most */

/* The table, ended by a {NULL} row: the head's options in the order a worker gets them, then
** the worker's own, then its outputs. */
extern const qsb_worker_option qsb_worker_options[];

/* The name of the worker's own option whose value is at offset field of qsb_worker_protocol,
** for the messages of the files that read it: offsetof(qsb_worker_protocol, visit_fd) gives
** "visit-fd". */
const char *qsb_worker_option_name(size_t field);

/* cfg->worker.argv_head: "run", then each option of the head: --nelem=COUNTS, --NAME=TEXT for
** each QSB_WORKER_GIVEN option the run was given (texts[i]: the text of qsb_worker_options[i],
** NULL when not given), and --no-reload when the run has it (cfg->reload false);
** NULL-terminated, every string malloc'd (run_config.h frees them). QSB_OK, or QSB_ESYSTEM
** (reported) when out of memory. */
int qsb_worker_argv_build(qsb_run_config *cfg, const char *const texts[]);

/* The command line of a worker: exe, the run's head (cfg->worker.argv_head), the worker's own
** options from own (--worker from own->index, own->slice_s and the cells; a frequency of 0, a
** descriptor below 0 and a NULL file left out), and the outputs a worker writes: no progress
** line, no CSV file, its JSON results into json_path. One block: free(argv) frees it all;
** NULL when out of memory. */
char **qsb_worker_argv(const char *exe, char *const *head, const qsb_worker_protocol *own,
                       const size_t *cells, size_t ncells, const char *json_path);

#endif
