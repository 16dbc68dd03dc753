/*
** What a writer wrote to a stream (a tmpfile()), read back whole for the tests that check it.
*/
#ifndef QSB_TEST_CAPTURED_H
#define QSB_TEST_CAPTURED_H

#include <stdio.h>
#include <stdlib.h>

#include "check.h"

/* The stream's contents from its start, as a malloc'd string (NULL when out of memory); the
** stream is closed. */
static inline char *captured(FILE *fp)
{
    long len = ftell(fp);
    rewind(fp);
    char *text = calloc(1, (size_t)(len > 0 ? len : 0) + 1);
    if (text && len > 0)
        CHECK(fread(text, 1, (size_t)len, fp) == (size_t)len);
    fclose(fp);
    return text;
}

#endif
