/*
** McIlroy's adversary ("A Killer Adversary for Quicksort", 1999), for the tests that play it
** against a sort: values are decided lazily. Every element starts as "gas" (above every solid
** value); when two gas elements meet, one is frozen to the next solid value, preferring the
** one the sort last compared while gas (its likely pivot). The sort sorts uint32_t indices;
** the comparator (qsort_r's, its argument the adversary) reads their values.
*/
#ifndef QSB_TEST_ADVERSARY_H
#define QSB_TEST_ADVERSARY_H

#include <stdint.h>
#include <string.h>

typedef struct {
    uint32_t *value;
    uint32_t gas, next_solid, candidate;
} adversary;

static inline int adversary_compare(const void *a, const void *b, void *arg)
{
    adversary *adv = arg;
    uint32_t x, y;
    memcpy(&x, a, sizeof x);
    memcpy(&y, b, sizeof y);
    if (adv->value[x] == adv->gas && adv->value[y] == adv->gas)
        adv->value[x == adv->candidate ? x : y] = adv->next_solid++;
    if (adv->value[x] == adv->gas)
        adv->candidate = x;
    else if (adv->value[y] == adv->gas)
        adv->candidate = y;
    return (adv->value[x] > adv->value[y]) - (adv->value[x] < adv->value[y]);
}

#endif
