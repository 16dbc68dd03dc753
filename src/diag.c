/*
** Diagnostics on stderr (see diag.h).
*/
#include "diag.h"

#include <stdarg.h>
#include <stdio.h>

static void print_message(const char *kind, const char *suffix, const char *fmt, va_list ap)
{
    fprintf(stderr, "qsortbench: %s: ", kind);
    vfprintf(stderr, fmt, ap);
    fprintf(stderr, "%s\n", suffix);
}

int qsb_error(int status, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    print_message("error", "", fmt, ap);
    va_end(ap);
    return status;
}

int qsb_usage_error(const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    print_message("error", "; try 'qsortbench --help'", fmt, ap);
    va_end(ap);
    return QSB_EUSAGE;
}

void qsb_warning(const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    print_message("warning", "", fmt, ap);
    va_end(ap);
}

void qsb_note(const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    fprintf(stderr, "qsortbench: ");
    vfprintf(stderr, fmt, ap);
    fprintf(stderr, "\n");
    va_end(ap);
}

int qsb_out_of_memory(const char *what)
{
    return qsb_error(QSB_ESYSTEM, "out of memory (%s)", what);
}
