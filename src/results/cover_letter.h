/*
** Published deltas to print beside the run's (--reference). The table of the 2021 "Use introsort
** for qsort" cover letter (45 cells: 5 patterns x 3 sizes x 3 counts, Ryzen 9, gcc 11;
** "master" = msort, "patches" = introsort) is compiled in, so the shipped tool needs no
** file; --reference FILE reads a CSV of the same columns:
**   pattern,nelem,size,delta_pct,master_msort,patches_introsort
*/
#ifndef QSB_COVER_LETTER_H
#define QSB_COVER_LETTER_H

#include <stddef.h>
#include <stdint.h>

#define QSB_COVER_LETTER_NAME "glibc-2021" /* --reference value of the built-in table */

typedef struct {
    char pattern[16];  /* as published: capitals */
    uint64_t nelem;
    uint64_t size;
    double delta_pct;  /* published (patches - master) / master * 100 */
    double master;     /* published msort time */
    double patches;    /* published introsort time */
} qsb_published_cell;

typedef struct {
    qsb_published_cell *cells; /* malloc'd */
    size_t ncells;
    char *name;                /* "glibc-2021" or the file's path (malloc'd) */
} qsb_reference;

extern const qsb_published_cell qsb_cover_letter_2021[];
extern const size_t qsb_cover_letter_2021_count;

/* "glibc-2021" gives the built-in table; anything else is a CSV file read with libcsv. A
** missing, unreadable or malformed file is reported (one line naming the file and line) and
** gives QSB_EUSAGE; out of memory QSB_ESYSTEM. */
int qsb_reference_load(const char *what, qsb_reference *out);

/* The published cell of (pattern, nelem, size), pattern compared without case; NULL when the
** table has none. */
const qsb_published_cell *qsb_reference_find(const qsb_reference *ref, const char *pattern,
                                             uint64_t nelem, uint64_t size);

void qsb_reference_free(qsb_reference *ref);

#endif
