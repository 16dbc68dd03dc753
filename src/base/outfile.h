/*
** Result files written atomically: the data goes to a temporary file beside the final one
** and is renamed over it only when complete, so no reader ever sees half a file, and a bad
** path fails when the file is opened (before the run), not at the end. "-" is stdout; an
** existing device or FIFO (/dev/null) is written in place.
*/
#ifndef QSB_OUTFILE_H
#define QSB_OUTFILE_H

#include <stdio.h>

typedef struct {
    FILE *fp;          /* where to write */
    char *final_path;  /* NULL for stdout or a device */
    char *temp_path;   /* NULL for stdout or a device */
} qsb_outfile;

/* Opens the temporary file (or stdout for "-"). Reports and returns QSB_ESYSTEM on failure
** (QSB_EUSAGE when the directory does not exist). */
int qsb_outfile_open(qsb_outfile *of, const char *path);

/* Flushes, closes and renames into place. Reports and returns QSB_ESYSTEM on failure (the
** temporary file is removed). */
int qsb_outfile_commit(qsb_outfile *of);

/* Closes and removes the temporary file; the final path is left untouched. */
void qsb_outfile_abort(qsb_outfile *of);

#endif
