/*
** The O(n) checks made after every sort, outside the timed interval: the result is sorted
** by the comparator, and it is a permutation of the input. The permutation check compares
** an order-independent multiset hash (the sum and the xor of a strong 64-bit hash of each
** element's bytes) with the one computed once for the input; both checks share one pass
** over the array, not a second sort. A sort that loses, duplicates or alters an element
** changes the hash except with negligible probability.
*/
#ifndef QSB_VERIFY_H
#define QSB_VERIFY_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "comparator.h"

typedef struct {
    uint64_t sum; /* of the element hashes, mod 2^64 */
    uint64_t xor; /* of the element hashes */
} qsb_multiset_hash;

/* The hash of one element's `size` bytes (all of them, not just the key). */
uint64_t qsb_element_hash(const void *element, size_t size);

qsb_multiset_hash qsb_multiset_hash_of(const void *base, size_t n, size_t size);

/* Both checks. Returns true when the array is sorted and its multiset hash equals `input`;
** otherwise writes the reason ("not sorted at index 12", "not a permutation of the input")
** to reason[reason_len] and returns false. */
bool qsb_verify_sorted_permutation(const void *base, size_t n, size_t size,
                                   qsb_compare cmp, void *arg,
                                   const qsb_multiset_hash *input, char *reason,
                                   size_t reason_len);

#endif
