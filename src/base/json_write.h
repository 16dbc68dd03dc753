/*
** Writing a cJSON document: printed, deleted, written with a final newline. Every JSON file
** of the tool (results, compare verdicts, audit, info, Google Benchmark export) goes through
** here. Write errors stay in the stream's error flag, for outfile.h to find at commit.
*/
#ifndef QSB_JSON_WRITE_H
#define QSB_JSON_WRITE_H

#include <stdbool.h>
#include <stdio.h>

struct cJSON;

/* Writes the document root and deletes it: QSB_OK. root NULL means building it ran out of
** memory: reported, naming `what`, and QSB_ESYSTEM returned. */
int qsb_json_print(FILE *out, struct cJSON *root, const char *what);

/* A document whose building ran out of memory part-way: deleted, reported naming `what`;
** returns QSB_ESYSTEM. */
int qsb_json_abandon(struct cJSON *root, const char *what);

#endif
