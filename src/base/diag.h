/*
** Every message the tool prints on stderr goes through here, with the one prefix
** "qsortbench: error: " / "qsortbench: warning: ". Functions report and return a status;
** only main() exits.
**
** Text that comes from outside (a results file's fields, argv, the environment, a path) is
** never printed raw: a field may carry terminal escape sequences (ESC [ ... m recolours the
** terminal, ESC ] ... can set its title or worse), other control bytes, invalid UTF-8, or a
** 400-digit number. Every such piece goes through qsb_escape, usually by qsb_quote or
** qsb_quote_path in the arguments of the message:
**
**     qsb_error(QSB_EUSAGE, "%s: '%s' is not a number", qsb_quote_path(path), qsb_quote(text));
*/
#ifndef QSB_DIAG_H
#define QSB_DIAG_H

#include <stddef.h>

/* Exit statuses (README, "Exit codes"). */
enum {
    QSB_OK = 0,
    QSB_FINDING = 1,   /* a wrong sort result, or a regression found */
    QSB_EUSAGE = 2,    /* usage error or bad input */
    QSB_ESYSTEM = 3,   /* out of memory, I/O failure, missing gnuplot */
    QSB_SIGHUP = 129,  /* stopped by a signal (128 + its number); the results gathered */
    QSB_SIGINT = 130,  /* so far were written, marked incomplete */
    QSB_SIGQUIT = 131,
    QSB_SIGTERM = 143
};

#define QSB_PRINTF(f, a) __attribute__((format(printf, f, a)))

/* One line: "qsortbench: error: <message>". Returns status, so callers can
** `return qsb_error(QSB_EUSAGE, "...")`. */
int qsb_error(int status, const char *fmt, ...) QSB_PRINTF(2, 3);

/* A usage error: the message, then "; try 'qsortbench --help'", or the help of the command
** being parsed ("; try 'qsortbench history detect --help'"). Returns QSB_EUSAGE. */
int qsb_usage_error(const char *fmt, ...) QSB_PRINTF(1, 2);

/* The command whose --help usage errors point at from now on ("history detect"), a string
** that outlives the process's messages (an option table's name); NULL: the tool's own. */
void qsb_usage_help_of(const char *command);

void qsb_warning(const char *fmt, ...) QSB_PRINTF(1, 2);

/* A line of information for the user on stderr: "qsortbench: <message>" (the run's last
** line: time inside sorts, wall time, overhead, peak memory). */
void qsb_note(const char *fmt, ...) QSB_PRINTF(1, 2);

/* Out of memory: reports and returns QSB_ESYSTEM. */
int qsb_out_of_memory(const char *what);

/* ---- untrusted text ---- */

#define QSB_QUOTE_MAX 64       /* characters of a quoted value, a final "..." included */
#define QSB_QUOTE_PATH_MAX 200 /* characters of a quoted path (a user's own, kept longer) */
#define QSB_QUOTE_SLOTS 8      /* results of qsb_quote/qsb_quote_path alive at once */

/* Writes text into buf (size >= 4 bytes) as printable ASCII: bytes 0x20..0x7e as they are,
** except those in `backslashed` (a set of printable characters, which should hold the
** backslash itself) that get a backslash before them; every other byte (controls, DEL,
** 0x80..0xff, so also invalid UTF-8) as \xHH with lowercase hex. When the escaped text needs
** more than size - 1 characters, it is cut after whole characters or escapes and ends with
** "...": the result never has more than size - 1 characters. NULL reads as "". Returns buf. */
char *qsb_escape(char *buf, size_t size, const char *text, const char *backslashed);

/* For the arguments of one message: text escaped with the backslash and both quotes
** backslashed, in one of QSB_QUOTE_SLOTS static buffers used in turn (the result stays valid
** for the next QSB_QUOTE_SLOTS - 1 calls; the tool prints from one thread). qsb_quote keeps at
** most QSB_QUOTE_MAX characters, qsb_quote_path QSB_QUOTE_PATH_MAX. */
const char *qsb_quote(const char *text);
const char *qsb_quote_path(const char *path);

#endif
