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

/* Takes ownership of root. `built` false (or root NULL) means building the document ran out
** of memory: reported, naming `what`, and QSB_ESYSTEM returned. Otherwise QSB_OK. */
int qsb_json_write(FILE *out, struct cJSON *root, bool built, const char *what);

#endif
