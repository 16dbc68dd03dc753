/*
** The audit as a whole (audit.c): its subjects (each algorithm followed by its "malloc
** fails" row), every probe on each of them with the table printed row by row as each is
** measured, and the process it runs in (the allocation counter preloaded). The command
** splits the names, owns the set of plug-ins they resolve into (plugins.h) and the files; the
** rows come back for the writers (audit.h).
*/
#ifndef QSB_AUDIT_RUN_H
#define QSB_AUDIT_RUN_H

#include <stddef.h>
#include <stdio.h>
#include <time.h>

#include "audit.h"
#include "registry.h"

typedef struct {
    qsb_audit_subject *items;
    size_t count;
    size_t capacity;
} qsb_audit_subjects;

/* The subjects of names[0..n-1] (NULL: the whole registry), each resolved through plugins
** (plugins.h: a plug-in is checked in a child, not loaded here) and added in turn. QSB_OK or
** an error (reported). */
int qsb_audit_subjects_select(qsb_audit_subjects *s, qsb_plugins *plugins,
                              const char *const *names, size_t n);

void qsb_audit_subjects_free(qsb_audit_subjects *s);

/* An audit's result: its rows and what its files record beside them. */
typedef struct {
    qsb_audit_config config;
    struct tm started;   /* when the audit began (UTC), for the files' context */
    qsb_audit_row *rows; /* one per subject (malloc'd by qsb_audit_run) */
    size_t count;
} qsb_audit_result;

/* An empty result of an audit at that depth (qsb_audit_config_init), begun now. */
void qsb_audit_result_begin(qsb_audit_result *r, qsb_audit_depth depth);

/* Every probe on every subject into r's rows, the table on `table`: its head, each row as it
** is measured, its foot. plugins is the set the subjects' plug-ins were resolved into
** (plugins.h; NULL: none), the caller's: every probe's child loads it, this process never
** does. QSB_OK, QSB_FINDING when a subject ended a probe given a correct comparator (reported
** as its row ended), or an error (reported) that ended the audit. */
int qsb_audit_run(const qsb_audit_subjects *s, qsb_plugins *plugins, FILE *table,
                  qsb_audit_result *r);

/* The rows as CSV and as JSON (with the machine's context and the command line) into the
** streams that are not NULL. QSB_OK or an error (reported); write errors are left in the
** streams' error flags (outfile.h). */
int qsb_audit_write(FILE *csv, FILE *json, const qsb_audit_result *r, const char *command_line);

void qsb_audit_result_free(qsb_audit_result *r);

/* The allocation counter must not sit in any benchmark's malloc path, so it is not linked
** into the tool: the audit runs itself again, as `qsortbench` with argv (argv[0] the command
** word), with libqsb_alloc_probe.so preloaded, once (a mark in the environment stops a
** loop). Returns only when that is not needed or cannot be done: the audit then goes on and
** reports allocation as unavailable. */
void qsb_audit_exec_with_probe(int argc, char **argv);

#endif
