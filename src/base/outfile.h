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

/* Closes and removes the temporary file; the final path is left untouched. A zeroed
** qsb_outfile (never opened) may be aborted too: nothing happens. */
void qsb_outfile_abort(qsb_outfile *of);

/* ---- the outputs of one command, all or none ----
** Every file is opened before any work, so a bad path fails in a second, not after the run;
** when the writing is done, either every file is committed, or (the writing failed) every
** one is aborted and no final path is touched. */

#define QSB_OUTPUTS_MAX 6

typedef struct {
    qsb_outfile file[QSB_OUTPUTS_MAX]; /* file[i].fp NULL: output i was not asked for */
} qsb_outputs;

/* One output a command may write: the option that names it (for messages) and its path. */
typedef struct {
    const char *option; /* "--csv" */
    const char *path;   /* NULL: not asked for */
} qsb_output_spec;

/* Opens specs[0..n-1] (n <= QSB_OUTPUTS_MAX) into o->file[0..n-1]. Two outputs may not name
** one destination: "-" twice, or one file however spelled (./o.csv and o.csv, a symbolic
** link, a hard link) is refused with one line naming both options, QSB_EUSAGE, before any
** file is created. On failure (as qsb_outfile_open) the files already opened are aborted. */
int qsb_outputs_open(qsb_outputs *o, const qsb_output_spec *specs, size_t n);

/* Ends the outputs after writing that went `status`: QSB_OK commits every file (each one is
** tried; the first failure is returned), anything else aborts every file and is returned. */
int qsb_outputs_close(qsb_outputs *o, int status);

/* Aborts every file still open (after an error); nothing after qsb_outputs_close. */
void qsb_outputs_abort(qsb_outputs *o);

#endif
