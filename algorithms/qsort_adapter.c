/*
** The qsort-signature adapter (qsort_adapter.h).
*/
#include "qsort_adapter.h"

typedef struct {
    qsb_compare cmp;
    void *arg;
} comparator_record;

static _Thread_local comparator_record current;

static int trampoline(const void *a, const void *b)
{
    return current.cmp(a, b, current.arg);
}

void qsb_call_plain_sort(qsb_plain_sort_fn sort, void *base, size_t n, size_t size,
                         qsb_compare cmp, void *arg)
{
    comparator_record saved = current;
    current.cmp = cmp;
    current.arg = arg;
    sort(base, n, size, trampoline);
    current = saved;
}
