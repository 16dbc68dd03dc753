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

/* A document of root's members and, last, an array `key` whose elements are written one at a
** time: the same bytes as qsb_json_print of the whole tree, but a file of millions of rows
** never exists whole in memory. A document may itself be an element of another's array (a
** fleet's machines, each with its rows). Errors (root or an element NULL: out of memory) are
** reported naming `what` and give QSB_ESYSTEM, with the part written left in the stream
** (outfile.h aborts the file). */
typedef struct {
    FILE *out;
    const char *what;
    unsigned depth;  /* the tabs the document's lines carry: 0, or its array's nesting */
    char *text;      /* the document printed with the array empty: its end is written last */
    size_t tail;     /* where that end begins (its ']') */
    size_t count;    /* elements written */
} qsb_json_stream;

/* Writes root's members (root deleted) and opens its array `key`, root being the whole file. */
int qsb_json_stream_open(qsb_json_stream *s, FILE *out, struct cJSON *root, const char *key,
                         const char *what);
/* Opens root as the next element of parent's array, itself open at its array `key`. */
int qsb_json_stream_open_element(qsb_json_stream *parent, qsb_json_stream *s,
                                 struct cJSON *root, const char *key);
/* Writes item (deleted) as the next element. */
int qsb_json_stream_add(qsb_json_stream *s, struct cJSON *item);
/* Closes the array and the document (the whole file's with a final newline) and frees what s
** holds; nothing when its open failed. After an error the file is aborted anyway. */
void qsb_json_stream_close(qsb_json_stream *s);

/* A document whose building ran out of memory part-way: deleted, reported naming `what`;
** returns QSB_ESYSTEM. */
int qsb_json_abandon(struct cJSON *root, const char *what);

#endif
