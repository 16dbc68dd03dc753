/*
** The run's side of the worker protocol (workers.h): the head of a worker process's command
** line, "run" and the options that decide what is measured and how, as the run was given
** them, with the element counts resolved (a worker measures the run's cells even where
** --nelem auto would read another sysfs). The rest (outputs, the budget, gates, reports) stay
** with the run; workers.c appends a worker's own options (--worker K:SLICE[:CELLS], the TSC
** frequency, the shared inputs, its private result file).
*/
#ifndef QSB_WORKER_ARGS_H
#define QSB_WORKER_ARGS_H

#include <stdbool.h>
#include <stddef.h>

#include "run_config.h"

/* The options passed on, by their long names, in the order a worker gets them. */
extern const char *const qsb_worker_options[];
extern const size_t qsb_worker_option_count;

/* cfg->worker.argv_head: "run", --nelem=COUNTS, then --NAME=TEXT for each of
** qsb_worker_options that the run was given (texts[i]: the text of qsb_worker_options[i], NULL
** when not given), and --no-reload when the run has it (cfg->reload false); NULL-terminated,
** every string malloc'd (run_config.h frees them). QSB_OK, or QSB_ESYSTEM (reported) when out of memory. */
int qsb_worker_argv_build(qsb_run_config *cfg, const char *const texts[]);

#endif
