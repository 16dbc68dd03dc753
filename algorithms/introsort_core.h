/*
** The three introsort states by their own names: the 2021 v3 series that the cover letter
** measured (`introsort-2021`), glibc's introsort qsort as committed on 2023-10-31
** (`introsort`, reverted in January 2024) and as on glibc master of 2023-12-04
** (`introsort-final`, with the follow-up fixes). All are variants of the one glibc quicksort
** core in quicksort_core.h, which states the algorithm and how the states differ; the entry
** points (introsort_2021.c, introsort.c, introsort_final.c) call qsb_introsort_run() with a
** constant state.
*/
#ifndef QSB_INTROSORT_CORE_H
#define QSB_INTROSORT_CORE_H

#include <stddef.h>

#include "element_swap.h"
#include "quicksort_core.h"
#include "sorts.h"

typedef enum {
    QSB_INTROSORT_2021 = QSB_QUICKSORT_INTROSORT_2021,  /* the 2021 v3 series */
    QSB_INTROSORT_COMMITTED = QSB_QUICKSORT_INTROSORT,  /* glibc commit of 2023-10-31 */
    QSB_INTROSORT_FINAL = QSB_QUICKSORT_INTROSORT_FINAL /* glibc master of 2023-12-04 */
} qsb_introsort_state;

/* The swap kinds under their introsort names; introsort_swap_type() is the introsort's rule. */
typedef qsb_swap_kind introsort_swap;
#define INTROSORT_SWAP_WORDS_64 QSB_SWAP_WORDS_64
#define INTROSORT_SWAP_WORDS_32 QSB_SWAP_WORDS_32
#define INTROSORT_SWAP_BYTES QSB_SWAP_BYTES

static inline introsort_swap introsort_swap_type(const void *base, size_t size)
{
    return quicksort_swap_kind(base, size);
}

/* The whole sort. `state` must be a constant. `heapsorts`, when not NULL, counts the
** partitions handed to the heapsort (a test hook; the entry points pass NULL). */
static inline void qsb_introsort_run(void *base, size_t n, size_t size, qsb_compare cmp,
                                     void *arg, const qsb_introsort_state state,
                                     size_t *heapsorts)
{
    qsb_quicksort_run(base, n, size, cmp, arg, (qsb_quicksort_variant)state, heapsorts);
}

#endif
