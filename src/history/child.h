/*
** Running another program (git, a build command, the tool itself) and waiting for it: no
** shell unless the caller asks for one, the child's standard output captured or sent away,
** its exit status given back. The history's commands need nothing more.
*/
#ifndef QSB_CHILD_H
#define QSB_CHILD_H

#include <stddef.h>

/* Where the child's standard output and error go. */
typedef enum {
    QSB_CHILD_QUIET,  /* both to /dev/null */
    QSB_CHILD_ERRORS, /* standard output to /dev/null, standard error kept (its messages) */
} qsb_child_output;

/* Runs argv (argv[0] looked up in PATH) in directory dir (NULL: here) with env_add (NULL, or
** "NAME=VALUE" entries ended by NULL) added to the environment. Without out, the child's
** standard output and error go where `output` says. With out, what is captured there (at
** most len - 1 bytes kept, NUL-terminated, trailing newlines removed) is the child's standard
** output (QSB_CHILD_QUIET: its errors to /dev/null) or its standard error (QSB_CHILD_ERRORS:
** its output to /dev/null). Returns the child's exit status (0..255), 128 + N when signal N ended it, or
** -1 when it could not be started (errno set). */
int qsb_child_run(const char *const *argv, const char *dir, const char *const *env_add,
                  char *out, size_t len, qsb_child_output output);

#endif
