/*
** gnuplot for the charts: the directory of the chart scripts (beside an installed executable,
** in the source tree for a build-tree one, or under QSB_DATADIR), and gnuplot run once with an
** argument vector (fork + execvp, never a shell; stdin and stdout on /dev/null; its stderr kept
** for the message).
*/
#ifndef QSB_GNUPLOT_H
#define QSB_GNUPLOT_H

#include <stddef.h>

#define QSB_GNUPLOT "gnuplot"

/* The directory holding every chart script into dir (len bytes): QSB_OK, or the error
** reported (none found: where it looked). */
int qsb_gnuplot_find_scripts(char *dir, size_t len);

/* Runs gnuplot with argv (argv[0] QSB_GNUPLOT, NULL-terminated) and waits for it: QSB_OK when
** it exited with status 0; else the error reported, naming `what` it was drawing and, when it
** failed, the last line of its stderr. */
int qsb_gnuplot_run(char *const argv[], const char *what);

#endif
