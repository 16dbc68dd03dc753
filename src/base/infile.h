/*
** Every file the tool reads from the user (results files, merge and compare inputs, plot
** data, the --reference table) goes through this one reader: a regular file only, read whole
** (or in pieces), at most QSB_INPUT_MAX_BYTES. A FIFO, a device (/dev/zero), a directory or a
** socket is refused with one line before a byte is read, so no reader blocks on a pipe or grows
** without bound; the file is opened without blocking (a FIFO without a writer would block
** open()).
*/
#ifndef QSB_INFILE_H
#define QSB_INFILE_H

#include <stddef.h>

/* The one size cap of every input: far above any real results file (a 30-cell run is about
** 1 MiB; 200 MB files read in seconds), a guard against garbage. */
#define QSB_INPUT_MAX_BYTES ((size_t)256 << 20)

/* Reads path whole into *text (malloc'd, NUL-terminated after *len bytes; free it). Messages
** start with `prefix` ("--reference: ", or "") and, when the file cannot be opened, end with
** `hint` (or nothing when NULL). Returns QSB_OK, QSB_EUSAGE (reported: missing, unreadable,
** not a regular file, over the cap) or QSB_ESYSTEM (out of memory, reported). */
int qsb_read_input_file(const char *path, const char *prefix, const char *hint, char **text,
                        size_t *len);

/* The size of the pieces qsb_read_input_pieces hands over. */
#define QSB_INPUT_PIECE ((size_t)1 << 20)

/* Reads path in pieces of at most QSB_INPUT_PIECE bytes, handing each in file order to
** piece(ctx, bytes, len): for readers that need not hold a large file whole. A status other
** than QSB_OK from piece stops the reading and is returned. The checks, the cap and their
** messages are those of qsb_read_input_file. */
typedef int (*qsb_input_piece)(void *ctx, const char *bytes, size_t len);
int qsb_read_input_pieces(const char *path, const char *prefix, const char *hint,
                          qsb_input_piece piece, void *ctx);

/* After writing a results file: a warning when the file at path is larger than the cap, so
** that its readers here would refuse it ("-", devices and missing files: nothing). */
void qsb_warn_if_unreadable(const char *path);

#endif
