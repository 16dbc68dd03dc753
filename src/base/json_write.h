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

/* A document of root's members and, last, an array `key` of n elements that are made, printed
** and deleted one at a time by element(ctx, i), i = 0, 1, ... in order: the same bytes as
** qsb_json_print of root with the array in it, but a file of millions of rows never exists
** whole in memory. Deletes
** root. An element NULL (out of memory), or root NULL, is reported naming `what`:
** QSB_ESYSTEM, with the part written left in the stream (outfile.h aborts the file). */
typedef struct cJSON *(*qsb_json_element_fn)(void *ctx, size_t i);
int qsb_json_print_array_streamed(FILE *out, struct cJSON *root, const char *key, size_t n,
                                  qsb_json_element_fn element, void *ctx, const char *what);

/* A document whose building ran out of memory part-way: deleted, reported naming `what`;
** returns QSB_ESYSTEM. */
int qsb_json_abandon(struct cJSON *root, const char *what);

#endif
