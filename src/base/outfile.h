/*
** Result files written atomically: the data goes to a temporary file beside the final one
** and is renamed over it only when complete, so no reader ever sees half a file, and a bad
** path fails when the file is opened (before the run), not at the end.
**
** Where an output may go, decided when it is opened:
**   - a regular file, existing or new: atomically, as above. A symbolic link (a dangling one
**     included) is written through: the temporary file goes beside the link's final target
**     and is renamed over the target, so the link stays a link;
**   - "-", or the file standard output already is however it is spelled (/dev/stdout,
**     /proc/self/fd/1, a link to it): standard output, written in place;
**   - the file standard error already is however it is spelled (/dev/stderr, a file that
**     `2>FILE` names): written in place after what was said there, never replaced;
**   - /dev/null: written in place (discarded), and never one destination with another output;
**   - a FIFO or pipe that a process reads: written in place; one that no process reads is
**     refused (opening it would wait for a reader);
**   - anything else (a directory, a device, a socket) is refused.
** A refusal is a usage error (QSB_EUSAGE): one line, before any work.
*/
#ifndef QSB_OUTFILE_H
#define QSB_OUTFILE_H

#include <stdbool.h>
#include <stdio.h>

typedef struct {
    FILE *fp;          /* where to write */
    char *final_path;  /* the file renamed over (links resolved); NULL when written in place */
    char *temp_path;   /* NULL when written in place */
} qsb_outfile;

/* Opens the temporary file (or stdout, /dev/null, a pipe: above). Reports and returns
** QSB_EUSAGE for a destination refused above or a directory that does not exist, else
** QSB_ESYSTEM on failure. */
int qsb_outfile_open(qsb_outfile *of, const char *path);

/* Is the output at path written in place ("-", standard output or error however spelled,
** /dev/null, a pipe) rather than as a file of its own (or refused when opened)? For the files
** a command puts beside an output. */
bool qsb_output_in_place(const char *path);

/* The file an output at path creates or replaces when it is a file of its own (a regular file,
** existing or new): path with its symbolic links followed, a dangling link's target included,
** and its directory resolved; malloc'd. NULL with errno set when it leads nowhere, EINVAL when
** it is no such file (standard output, /dev/null, a pipe, a directory, a device). For files
** written beside the outputs by other means (the charts), which follow the same rules. */
char *qsb_output_target(const char *path);

/* Flushes, closes and renames into place. Reports and returns QSB_ESYSTEM on failure (the
** temporary file is removed). */
int qsb_outfile_commit(qsb_outfile *of);


/* Opens path to append to (created when missing), as a CI step summary is written, without
** ever waiting: a FIFO that no process reads, a directory or a path that cannot be opened for
** writing is refused with one line naming `what` (QSB_EUSAGE); *fp is the stream, NULL on
** failure. */
int qsb_append_open(const char *what, const char *path, FILE **fp);

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
    const char *option; /* "--csv"; NULL: messages name the path alone */
    const char *path;   /* NULL: not asked for */
} qsb_output_spec;

/* Files a command touches besides the outputs it opens here, named for the collision check
** only (never opened here): the files it reads, which no output may be (it would be replaced,
** or appended to, before or while it is read), and the files it writes by other means (run
** --plot's charts, compare's $GITHUB_STEP_SUMMARY), which no output may be either. */
typedef enum { QSB_FILES_READ, QSB_FILES_WRITTEN } qsb_files_use;

typedef struct {
    const char *what;         /* in messages: "BASE", "the input", "--plot" */
    qsb_files_use use;
    const char *const *paths; /* n paths; NULL ones are skipped */
    size_t n;
} qsb_file_group;

/* Opens specs[0..n-1] (n <= QSB_OUTPUTS_MAX) into o->file[0..n-1]. No two of the outputs and
** of the files of others[0..nothers-1] (NULL when none) may be one destination, unless both
** are files it reads or both are in one group: standard output however spelled ("-",
** /dev/stdout), or one file however spelled (./o.csv and o.csv, a symbolic link, a hard link:
** one device and inode). Such a pair, or an output refused above, is reported in one line
** naming both options, QSB_EUSAGE, before any file is created or read. On failure (as
** qsb_outfile_open) the files already opened are aborted. */
int qsb_outputs_open(qsb_outputs *o, const qsb_output_spec *specs, size_t n,
                     const qsb_file_group *others, size_t nothers);

/* The check of qsb_outputs_open alone (a refused output, two files on one destination),
** before anything is read: nothing is opened or created. QSB_OK or QSB_EUSAGE (reported). */
int qsb_outputs_check(const qsb_output_spec *specs, size_t n, const qsb_file_group *others,
                      size_t nothers);

/* Ends the outputs after writing that went `status`: QSB_OK commits every file (each one is
** tried; the first failure is returned), anything else aborts every file and is returned. */
int qsb_outputs_close(qsb_outputs *o, int status);

/* Aborts every file still open (after an error); nothing after qsb_outputs_close. */
void qsb_outputs_abort(qsb_outputs *o);

/* Where a command's human text goes beside its outputs: stderr when one of them is written to
** standard output ("-", /dev/stdout...), so that stdout holds that document alone and a
** pipeline can parse it; else stdout. */
FILE *qsb_outputs_text_stream(const qsb_outputs *o);

/* ---- a command that writes files, from the open to the commit ----
** What a command does between opening its outputs and ending them: it reads its inputs,
** does its work and writes into o->file[i].fp (NULL: output i not asked for). Its status
** decides the end: QSB_OK, or QSB_FINDING (a verdict: the files are whole), commits every
** output; anything else aborts them all. */
typedef int (*qsb_outputs_work)(const qsb_outputs *o, void *arg);

/* Opens the outputs (qsb_outputs_open: checked and opened before anything is read; on a
** refusal work is not called), calls work(&outputs, arg) and ends the outputs by its
** status, as above: all committed or none. Returns the failure of the open or the commit,
** else work's status. */
int qsb_with_outputs(const qsb_output_spec *specs, size_t n, const qsb_file_group *others,
                     size_t nothers, qsb_outputs_work work, void *arg);

#endif
