/*
** The audit as a whole (audit.c): its subjects (each algorithm followed by its "malloc
** fails" row), every probe on each of them with the table printed row by row as each is
** measured, its files, and the process it runs in (the allocation counter preloaded). The
** command parses its options and calls it.
*/
#ifndef QSB_AUDIT_RUN_H
#define QSB_AUDIT_RUN_H

#include <stddef.h>
#include <stdio.h>

#include "audit.h"
#include "outfile.h"
#include "registry.h"

/* An audit as a command asks for it. */
typedef struct {
    const char *const *names; /* the algorithms: registry names or plug-ins; NULL: the */
    size_t n_names;           /* whole registry */
    qsb_audit_depth depth;
    qsb_output_spec csv;      /* where its rows go (outfile.h; a NULL path: not written) */
    qsb_output_spec json;
    const char *command_line; /* recorded in the JSON file */
} qsb_audit_request;

/* The audit: the names resolved into a set of plug-ins of its own (plugins.h: a plug-in is
** checked in a child, not loaded here), each followed by its "malloc fails" variant when it
** has one; the files opened before the first probe (a bad path fails at once, and none may be
** a plug-in's library); every probe on every subject, the table printed row by row as each is
** measured (on stderr when a file takes stdout); then both files written and committed, or
** neither. QSB_OK, QSB_FINDING when a subject FAILED (a probe given a correct comparator
** crashed, hung, exited or wrote outside its array), or an error (reported). */
int qsb_audit(const qsb_audit_request *request);

/* The allocation counter must not sit in any benchmark's malloc path, so it is not linked
** into the tool: the audit runs itself again, as `qsortbench` with argv (argv[0] the command
** word), with libqsb_alloc_probe.so preloaded, once (a mark in the environment stops a
** loop). Returns only when that is not needed or cannot be done: the audit then goes on and
** reports allocation as unavailable. */
void qsb_audit_exec_with_probe(int argc, char **argv);

#endif
