/*
** After-sort checks (see verify.h).
*/
#include "verify.h"

#include <stdio.h>
#include <string.h>

/* A bijective 64-bit mixer (the splitmix64 finaliser): every input bit affects every output
** bit, so sums and xors of hashes of nearby keys do not cancel. */
static uint64_t mix64(uint64_t x)
{
    x ^= x >> 30;
    x *= UINT64_C(0xbf58476d1ce4e5b9);
    x ^= x >> 27;
    x *= UINT64_C(0x94d049bb133111eb);
    x ^= x >> 31;
    return x;
}

uint64_t qsb_element_hash(const void *element, size_t size)
{
    const unsigned char *p = element;
    uint64_t h = UINT64_C(0x9e3779b97f4a7c15) ^ size;
    for (; size >= 8; p += 8, size -= 8) {
        uint64_t word;
        memcpy(&word, p, 8);
        h = mix64(h ^ word);
    }
    if (size > 0) { /* the length is in the seed, so zero padding cannot collide */
        uint64_t word = 0;
        memcpy(&word, p, size);
        h = mix64(h ^ word);
    }
    return h;
}

qsb_multiset_hash qsb_multiset_hash_of(const void *base, size_t n, size_t size)
{
    qsb_multiset_hash m = {0, 0};
    const unsigned char *p = base;
    for (size_t i = 0; i < n; i++, p += size) {
        uint64_t h = qsb_element_hash(p, size);
        m.sum += h;
        m.xor ^= h;
    }
    return m;
}

size_t qsb_first_unsorted(const void *base, size_t n, size_t size,
                          int (*cmp)(const void *, const void *, void *), void *arg)
{
    const unsigned char *p = base;
    for (size_t i = 0; i + 1 < n; i++, p += size)
        if (cmp(p, p + size, arg) > 0)
            return i;
    return n;
}

bool qsb_verify_sorted_permutation(const void *base, size_t n, size_t size,
                                   int (*cmp)(const void *, const void *, void *), void *arg,
                                   const qsb_multiset_hash *input, char *reason,
                                   size_t reason_len)
{
    size_t bad = qsb_first_unsorted(base, n, size, cmp, arg);
    if (bad < n) {
        snprintf(reason, reason_len, "not sorted at index %zu", bad);
        return false;
    }
    qsb_multiset_hash got = qsb_multiset_hash_of(base, n, size);
    if (got.sum != input->sum || got.xor != input->xor) {
        snprintf(reason, reason_len, "not a permutation of the input");
        return false;
    }
    return true;
}
