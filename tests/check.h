/*
** A minimal assertion kit for the test executables: CHECK records a failure with its place
** and goes on; check_done() prints "N passed, N failed" and returns the exit status.
*/
#ifndef QSB_CHECK_H
#define QSB_CHECK_H

#include <stdio.h>

static unsigned check_passed, check_failed;

#define CHECK(cond) check_record((cond), #cond, __FILE__, __LINE__)
#define CHECK_MSG(cond, ...)                                                         \
    do {                                                                             \
        if (!check_record((cond), #cond, __FILE__, __LINE__)) {                      \
            fprintf(stderr, "    ");                                                 \
            fprintf(stderr, __VA_ARGS__);                                            \
            fprintf(stderr, "\n");                                                   \
        }                                                                            \
    } while (0)
#define CHECK_EQ_U64(a, b)                                                           \
    CHECK_MSG((unsigned long long)(a) == (unsigned long long)(b), "%s = %llu, %s = %llu", \
              #a, (unsigned long long)(a), #b, (unsigned long long)(b))

static inline int check_record(int ok, const char *what, const char *file, int line)
{
    if (ok) {
        check_passed++;
    } else {
        check_failed++;
        if (check_failed <= 50)
            fprintf(stderr, "%s:%d: check failed: %s\n", file, line, what);
    }
    return ok;
}

static inline int check_done(void)
{
    printf("%u passed, %u failed\n", check_passed, check_failed);
    return check_failed ? 1 : 0;
}

#endif
