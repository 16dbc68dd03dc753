/*
** Every message the tool prints on stderr goes through here, with the one prefix
** "qsortbench: error: " / "qsortbench: warning: ". Functions report and return a status;
** only main() exits.
*/
#ifndef QSB_DIAG_H
#define QSB_DIAG_H

/* Exit statuses (README, "Exit codes"). */
enum {
    QSB_OK = 0,
    QSB_FINDING = 1,   /* a wrong sort result, or a regression found */
    QSB_EUSAGE = 2,    /* usage error or bad input */
    QSB_ESYSTEM = 3,   /* out of memory, I/O failure, missing gnuplot */
    QSB_SIGINT = 130,  /* interrupted; partial results were written */
    QSB_SIGTERM = 143
};

#define QSB_PRINTF(f, a) __attribute__((format(printf, f, a)))

/* One line: "qsortbench: error: <message>". Returns status, so callers can
** `return qsb_error(QSB_EUSAGE, "...")`. */
int qsb_error(int status, const char *fmt, ...) QSB_PRINTF(2, 3);

/* A usage error: the message, then "; try 'qsortbench --help'". Returns QSB_EUSAGE. */
int qsb_usage_error(const char *fmt, ...) QSB_PRINTF(1, 2);

void qsb_warning(const char *fmt, ...) QSB_PRINTF(1, 2);

/* A line of information for the user on stderr: "qsortbench: <message>" (the run's last
** line: time inside sorts, wall time, overhead, peak memory). */
void qsb_note(const char *fmt, ...) QSB_PRINTF(1, 2);

/* Out of memory: reports and returns QSB_ESYSTEM. */
int qsb_out_of_memory(const char *what);

#endif
