/*
** heapsort: glibc 2.39's heapsort_r, the fallback of its qsort when malloc fails (and of the
** 2023 introsort). A binary max-heap on children 2k+1 and 2k+2, built bottom-up, then the
** maximum swapped to the end one element at a time. At most about 2 n log2 n comparisons, in
** place, no allocation, O(1) stack, not stable.
**
** Swaps as glibc 2.39 chose them: one 32-bit word for 4-byte elements on a 4-aligned base,
** one 64-bit word for 8-byte elements on an 8-aligned base, otherwise bytes (32-byte chunks
** through a buffer, then the tail byte by byte from the end). The choice is made once per sort.
*/
#include <stdint.h>
#include <string.h>

#include "sorts.h"

typedef enum { SWAP_WORD32, SWAP_WORD64, SWAP_BYTES } swap_type;

#define ALWAYS_INLINE inline __attribute__((always_inline))
#define SWAP_CHUNK 32

static swap_type choose_swap(const void *base, size_t size)
{
    uintptr_t address = (uintptr_t)base;
    if (size == 4 && address % 4 == 0)
        return SWAP_WORD32;
    if (size == 8 && address % 8 == 0)
        return SWAP_WORD64;
    return SWAP_BYTES;
}

static void swap_bytes(char *a, char *b, size_t size)
{
    unsigned char chunk[SWAP_CHUNK];
    while (size > SWAP_CHUNK) {
        memcpy(chunk, a, SWAP_CHUNK);
        memcpy(a, b, SWAP_CHUNK);
        memcpy(b, chunk, SWAP_CHUNK);
        a += SWAP_CHUNK;
        b += SWAP_CHUNK;
        size -= SWAP_CHUNK;
    }
    while (size > 0) {
        size--;
        char t = a[size];
        a[size] = b[size];
        b[size] = t;
    }
}

static ALWAYS_INLINE void swap_elements(char *a, char *b, size_t size, swap_type type)
{
    if (type == SWAP_WORD32) {
        uint32_t ta, tb;
        memcpy(&ta, a, sizeof ta);
        memcpy(&tb, b, sizeof tb);
        memcpy(a, &tb, sizeof tb);
        memcpy(b, &ta, sizeof ta);
    } else if (type == SWAP_WORD64) {
        uint64_t ta, tb;
        memcpy(&ta, a, sizeof ta);
        memcpy(&tb, b, sizeof tb);
        memcpy(a, &tb, sizeof tb);
        memcpy(b, &ta, sizeof ta);
    } else {
        swap_bytes(a, b, size);
    }
}

/* Restores the heap below k, for the heap of elements 0..last. */
static ALWAYS_INLINE void sift_down(char *base, size_t size, size_t k, size_t last,
                                    qsb_compare cmp, void *arg, swap_type type)
{
    while (2 * k + 1 <= last) {
        size_t j = 2 * k + 1;
        if (j < last && cmp(base + j * size, base + (j + 1) * size, arg) < 0)
            j++; /* the larger child */
        if (cmp(base + k * size, base + j * size, arg) >= 0)
            break;
        swap_elements(base + j * size, base + k * size, size, type);
        k = j;
    }
}

static ALWAYS_INLINE void heapsort_typed(char *base, size_t last, size_t size, qsb_compare cmp,
                                         void *arg, swap_type type)
{
    for (size_t k = last / 2 + 1; k-- > 0;)
        sift_down(base, size, k, last, cmp, arg, type);
    for (;;) {
        swap_elements(base, base + last * size, size, type);
        if (--last == 0)
            break;
        sift_down(base, size, 0, last, cmp, arg, type);
    }
}

void qsb_heapsort(void *base, size_t n, size_t size, qsb_compare cmp, void *arg)
{
    if (n <= 1)
        return;
    switch (choose_swap(base, size)) {
    case SWAP_WORD32:
        heapsort_typed(base, n - 1, 4, cmp, arg, SWAP_WORD32);
        break;
    case SWAP_WORD64:
        heapsort_typed(base, n - 1, 8, cmp, arg, SWAP_WORD64);
        break;
    case SWAP_BYTES:
        heapsort_typed(base, n - 1, size, cmp, arg, SWAP_BYTES);
        break;
    }
}
