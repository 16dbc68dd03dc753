/*
** Diagnostics on stderr (see diag.h).
*/
#include "diag.h"

#include <assert.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

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

/* One process parses one command line: the command named last is the one a user typed. */
static const char *usage_command;

void qsb_usage_help_of(const char *command)
{
    usage_command = command;
}

int qsb_usage_error(const char *fmt, ...)
{
    char hint[96];
    snprintf(hint, sizeof hint, "; try 'qsortbench %s%s--help'",
             usage_command ? usage_command : "", usage_command ? " " : "");
    va_list ap;
    va_start(ap, fmt);
    print_message("error", hint, fmt, ap);
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

/* ---- untrusted text ---- */

/* The escaped form of one byte into out (at most 4 characters and a NUL); returns its length. */
static size_t escape_byte(char out[5], unsigned char c, const char *backslashed)
{
    if (c < 0x20 || c > 0x7e)
        return (size_t)snprintf(out, 5, "\\x%02x", c);
    size_t n = 0;
    if (strchr(backslashed, c)) /* c is never NUL here: strchr would find the terminator */
        out[n++] = '\\';
    out[n++] = (char)c;
    out[n] = '\0';
    return n;
}

char *qsb_escape(char *buf, size_t size, const char *text, const char *backslashed)
{
    assert(size >= 4);
    const unsigned char *s = (const unsigned char *)(text ? text : "");
    size_t used = 0;
    /* Escapes are written while they fit beside a possible "..."; the first one that does not
    ** decides: if the rest of the text fits whole after all, it is written, else "...". */
    for (; *s; s++) {
        char piece[5];
        size_t n = escape_byte(piece, *s, backslashed);
        if (used + n > size - 4)
            break;
        memcpy(buf + used, piece, n);
        used += n;
    }
    size_t rest = 0;
    for (const unsigned char *t = s; *t && used + rest <= size - 1; t++) {
        char piece[5];
        rest += escape_byte(piece, *t, backslashed);
    }
    if (*s && used + rest <= size - 1) {
        for (; *s; s++)
            used += escape_byte(buf + used, *s, backslashed);
    } else if (*s) {
        memcpy(buf + used, "...", 3);
        used += 3;
    }
    buf[used] = '\0';
    return buf;
}

/* Rotating buffers: a message may quote several pieces (a path, a value, a second value). */
static char *next_slot(void)
{
    static char slots[QSB_QUOTE_SLOTS][QSB_QUOTE_PATH_MAX + 1];
    static unsigned next;
    return slots[next++ % QSB_QUOTE_SLOTS];
}

const char *qsb_quote(const char *text)
{
    return qsb_escape(next_slot(), QSB_QUOTE_MAX + 1, text, "\\'\"");
}

const char *qsb_quote_path(const char *path)
{
    return qsb_escape(next_slot(), QSB_QUOTE_PATH_MAX + 1, path, "\\'\"");
}
