/*
** The table of an audit file (`audit --json FILE`, written by src/audit/audit.c), read
** back for the HTML report: one line of texts per algorithm and variant, the verdicts exactly
** as the audit wrote them (nothing is recomputed). The file is untrusted input: every string
** is copied as it is, for the writer to escape; a field of the wrong type is reported naming
** it, with QSB_EUSAGE.
*/
#ifndef QSB_AUDIT_FILE_H
#define QSB_AUDIT_FILE_H

#include <stdbool.h>
#include <stddef.h>

typedef struct {
    char *label;          /* "msort", or "msort (malloc fails)" for a variant */
    char *stable;         /* "yes", "no", "UNSORTED" */
    char *allocates;      /* "yes", "no", "n/a" */
    char *max_bytes;      /* the largest request, or "n/a" */
    char *stack;          /* deepest stack in bytes, or the probe's status */
    char *worst_case;     /* "nlogn", "quadratic", ... and the largest ratio */
    char *broken;         /* "random OK, always-1 OOB-above, ..." */
    char *contradictions; /* "; "-joined, "" when none */
} qsb_audit_line;

typedef struct {
    qsb_audit_line *lines;
    size_t n;
    char *host, *date, *tool_version, *command_line; /* from the context; "" when absent */
} qsb_audit_file;

/* Is text (a whole file) an audit file: a JSON object whose "kind" is "audit"? */
bool qsb_audit_file_is(const char *text);

/* Reads the audit JSON text (name: the file as messages show it) into *out. QSB_OK,
** QSB_EUSAGE (reported, naming the field) or QSB_ESYSTEM (out of memory). */
int qsb_audit_file_parse(const char *name, const char *text, qsb_audit_file *out);

void qsb_audit_file_free(qsb_audit_file *f);

#endif
