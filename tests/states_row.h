/*
** A row's states given in the tests as the text the CSV files write (states_text.h), so that
** a test reads as the files do.
*/
#ifndef QSB_TEST_STATES_ROW_H
#define QSB_TEST_STATES_ROW_H

#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "states_text.h"

/* The states of text into row, kept in *store when store is given (a read result's rows own
** nothing), else malloc'd for qsb_row_free; NULL text: none. */
static inline void set_states(qsb_row *row, const char *text, qsb_store **store)
{
    qsb_state_estimate s[QSB_STATES_MAX];
    const char *why = NULL;
    size_t n = text ? qsb_states_parse(text, s, &why) : 0;
    CHECK_MSG(!text || n > 0, "'%s': %s", text, why ? why : "-");
    row->states = NULL;
    row->nstates = 0;
    if (n == 0)
        return;
    row->states = store ? qsb_store_alloc(store, n * sizeof *s) : malloc(n * sizeof *s);
    CHECK(row->states != NULL);
    if (row->states) {
        memcpy(row->states, s, n * sizeof *s);
        row->nstates = (uint8_t)n;
    }
}

/* Whether the row has states and they are written as text. */
static inline bool states_are(const qsb_row *row, const char *text)
{
    char *got = row->states ? qsb_states_format(row->states, row->nstates) : NULL;
    bool same = got && strcmp(got, text) == 0;
    free(got);
    return same;
}

#endif
