/*
** After-sort checks (see verify.h).
*/
#include "verify.h"

#include <stdio.h>
#include <string.h>

#include "element.h"

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

static inline __attribute__((always_inline)) uint64_t word_at(const unsigned char *p, size_t bytes)
{
    uint64_t word = 0;
    memcpy(&word, p, bytes);
    return word;
}

/* Inlined with a constant size for the common sizes, where the memcpy of a short word becomes
** one load (a variable-size memcpy per 4-byte element made the check of a 4-byte array six
** times slower than that of an 8-byte one). The words go through one chain of mixes: mixing
** each word apart and the sum once more (more parallel, one mix more) was no faster. */
static inline __attribute__((always_inline)) uint64_t element_hash(const unsigned char *p,
                                                                  size_t size)
{
    uint64_t h = UINT64_C(0x9e3779b97f4a7c15) ^ size; /* zero padding cannot collide */
    for (; size >= 8; p += 8, size -= 8)
        h = mix64(h ^ word_at(p, 8));
    return size > 0 ? mix64(h ^ word_at(p, size)) : h;
}

uint64_t qsb_element_hash(const void *element, size_t size)
{
    return element_hash(element, size);
}

/* Is the element at p greater than its successor? key_width 4 or 8: cmp is the patterns' own
** comparator of keys that wide (element.h), compared here inline; an indirect call per element
** was half the check of a 4-byte array. key_width 0: through cmp. */
static inline __attribute__((always_inline)) bool
descends(const unsigned char *p, size_t size, size_t key_width,
         qsb_compare cmp, void *arg)
{
    if (key_width == 4 || key_width == 8)
        return word_at(p, key_width) > word_at(p + size, key_width);
    return cmp(p, p + size, arg) > 0;
}

/* The multiset hash of n elements and, when cmp is given, the order check, in one pass: a
** large array is read from memory once. Returns the index i of the first element greater
** than its successor (the hash is then partial), or n. */
static inline __attribute__((always_inline)) size_t
hash_pass(const unsigned char *p, size_t n, size_t size, size_t key_width,
          qsb_compare cmp, void *arg, qsb_multiset_hash *m)
{
    for (size_t i = 0; i < n; i++, p += size) {
        uint64_t h = element_hash(p, size);
        m->sum += h;
        m->xor ^= h;
        if (cmp && i + 1 < n && descends(p, size, key_width, cmp, arg))
            return i;
    }
    return n;
}

/* The pass inlined with a constant size for the common sizes (see element_hash). */
static inline __attribute__((always_inline)) size_t
hash_pass_sized(const void *base, size_t n, size_t size, size_t key_width,
                qsb_compare cmp, void *arg, qsb_multiset_hash *m)
{
    switch (size) {
    case 4:
        return hash_pass(base, n, 4, key_width, cmp, arg, m);
    case 8:
        return hash_pass(base, n, 8, key_width, cmp, arg, m);
    case 32:
        return hash_pass(base, n, 32, key_width, cmp, arg, m);
    default:
        return hash_pass(base, n, size, key_width, cmp, arg, m);
    }
}

static size_t hash_pass_of(const void *base, size_t n, size_t size,
                           qsb_compare cmp, void *arg,
                           qsb_multiset_hash *m)
{
    size_t key_width = cmp && cmp == qsb_comparator(size) ? qsb_key_width(size) : 0;
    if (key_width == 4)
        return hash_pass_sized(base, n, size, 4, cmp, arg, m);
    if (key_width == 8)
        return hash_pass_sized(base, n, size, 8, cmp, arg, m);
    return hash_pass_sized(base, n, size, 0, cmp, arg, m);
}

qsb_multiset_hash qsb_multiset_hash_of(const void *base, size_t n, size_t size)
{
    qsb_multiset_hash m = {0, 0};
    hash_pass_of(base, n, size, NULL, NULL, &m);
    return m;
}

bool qsb_verify_sorted_permutation(const void *base, size_t n, size_t size,
                                   qsb_compare cmp, void *arg,
                                   const qsb_multiset_hash *input, char *reason,
                                   size_t reason_len)
{
    qsb_multiset_hash got = {0, 0};
    size_t bad = hash_pass_of(base, n, size, cmp, arg, &got);
    if (bad < n) {
        snprintf(reason, reason_len, "not sorted at index %zu", bad);
        return false;
    }
    if (got.sum != input->sum || got.xor != input->xor) {
        snprintf(reason, reason_len, "not a permutation of the input");
        return false;
    }
    return true;
}
