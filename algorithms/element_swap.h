/*
** Element swaps of glibc's in-place sorts, written once as static inline code. The 2023 swaps
** (introsort, glibc 2.39's heapsort), one kind per sort:
**   QSB_SWAP_WORDS_64  64-bit words,
**   QSB_SWAP_WORDS_32  or 32-bit words, from the last word to the first (size a multiple of the
**                      word, both elements aligned for it),
**   QSB_SWAP_BYTES     or bytes: 32 at a time while more than 32 remain, then the tail one byte
**                      at a time from the end;
** and qsb_swap_byte_loop(), the legacy quicksort's SWAP macro: one byte at a time, first to
** last. Each sort states its own rule for choosing (quicksort_core.h, heapsort.c). All leave the
** same bytes, so the choice decides speed only, never a comparator call. a == b is allowed: a
** comparator that claims x < x makes some sorts swap an element with itself.
*/
#ifndef QSB_ELEMENT_SWAP_H
#define QSB_ELEMENT_SWAP_H

#include <stddef.h>
#include <stdint.h>
#include <string.h>

typedef enum {
    QSB_SWAP_WORDS_64,
    QSB_SWAP_WORDS_32,
    QSB_SWAP_BYTES
} qsb_swap_kind;

enum { QSB_SWAP_CHUNK = 32 }; /* QSB_SWAP_BYTES's step */

/* memcpy through locals: single loads and stores once compiled, with no alignment cast. (One
** function with the width as a parameter reads no better and stops gcc -O2 inlining qsb_swap.) */
static inline void qsb_swap_words_64(char *a, char *b, size_t size)
{
    do {
        uint64_t x, y;
        size -= sizeof x;
        memcpy(&x, a + size, sizeof x);
        memcpy(&y, b + size, sizeof y);
        memcpy(a + size, &y, sizeof y);
        memcpy(b + size, &x, sizeof x);
    } while (size != 0);
}

static inline void qsb_swap_words_32(char *a, char *b, size_t size)
{
    do {
        uint32_t x, y;
        size -= sizeof x;
        memcpy(&x, a + size, sizeof x);
        memcpy(&y, b + size, sizeof y);
        memcpy(a + size, &y, sizeof y);
        memcpy(b + size, &x, sizeof x);
    } while (size != 0);
}

/* Swaps 32 bytes. All eight loads come before the stores, so gcc moves the chunk in two
** pairs of 16-byte registers; a 32-byte buffer (glibc's form) stays on the stack once this is
** inlined into a sort, and would also make a == b an overlapping memcpy. */
static inline void qsb_swap_chunk(char *a, char *b)
{
    uint64_t a0, a1, a2, a3, b0, b1, b2, b3;
    memcpy(&a0, a, 8), memcpy(&a1, a + 8, 8), memcpy(&a2, a + 16, 8), memcpy(&a3, a + 24, 8);
    memcpy(&b0, b, 8), memcpy(&b1, b + 8, 8), memcpy(&b2, b + 16, 8), memcpy(&b3, b + 24, 8);
    memcpy(a, &b0, 8), memcpy(a + 8, &b1, 8), memcpy(a + 16, &b2, 8), memcpy(a + 24, &b3, 8);
    memcpy(b, &a0, 8), memcpy(b + 8, &a1, 8), memcpy(b + 16, &a2, 8), memcpy(b + 24, &a3, 8);
}

static inline void qsb_swap_bytes(char *a, char *b, size_t size)
{
    while (size > QSB_SWAP_CHUNK) {
        qsb_swap_chunk(a, b);
        a += QSB_SWAP_CHUNK;
        b += QSB_SWAP_CHUNK;
        size -= QSB_SWAP_CHUNK;
    }
    while (size > 0) {
        size--;
        char t = a[size];
        a[size] = b[size];
        b[size] = t;
    }
}

/* The 2021 series' byte swap: 32-byte blocks while more than 32 remain, then the rest through a
** 32-byte buffer by three library copies of variable length (calls, not inlined: the length is
** not a constant). Those calls are why glibc's 2021 do_swap saves four registers and reserves
** a stack frame on entry, for every kind, where the 2023 one is a leaf (objdump of the real
** 2021 code: push %r13, %r12, %rbp, %rbx and sub $0x28,%rsp before the kind test). The middle
** copy may see a == b, so it is memmove; glibc's x86-64 memcpy and memmove are one routine. */
static inline void qsb_swap_bytes_buffered(char *a, char *b, size_t size)
{
    unsigned char tmp[QSB_SWAP_CHUNK];
    while (size > QSB_SWAP_CHUNK) {
        qsb_swap_chunk(a, b);
        a += QSB_SWAP_CHUNK;
        b += QSB_SWAP_CHUNK;
        size -= QSB_SWAP_CHUNK;
    }
    memcpy(tmp, a, size);
    memmove(a, b, size);
    memcpy(b, tmp, size);
}

static inline void qsb_swap_byte_loop(char *a, char *b, size_t size)
{
    do {
        char t = *a;
        *a++ = *b;
        *b++ = t;
    } while (--size > 0);
}

/* glibc tests the kind at every swap (a well-predicted branch), not once per sort; a sort that
** passes a constant kind gets only that kind's code. */
static inline void qsb_swap(char *a, char *b, size_t size, qsb_swap_kind kind)
{
    if (kind == QSB_SWAP_WORDS_64)
        qsb_swap_words_64(a, b, size);
    else if (kind == QSB_SWAP_WORDS_32)
        qsb_swap_words_32(a, b, size);
    else
        qsb_swap_bytes(a, b, size);
}

/* Where a sort's swaps run: inlined at each call site, or in one out-of-line function that
** tests the kind on each call. The choice decides the compiled code's shape, not the bytes. */
typedef enum {
    QSB_SWAP_INLINE,
    QSB_SWAP_CALL,     /* qsb_swap_call(): the 2023 do_swap */
    QSB_SWAP_CALL_2021 /* qsb_swap_call_2021(): the 2021 series' do_swap */
} qsb_swap_site;

/* qsb_swap() kept out of line: one copy per object that calls it, as glibc's own qsort.c since
** 2023 has one static do_swap(a, b, size, kind) that gcc 12 -O2 keeps as a function, called
** from each swap site (objdump of the real code, built by tools/glibc-qsort-plugin: 8 calls in
** the 2023 introsort; docs/speed-parity.md). `unused`: objects without introsorts. */
static __attribute__((noinline, unused)) void qsb_swap_call(char *a, char *b, size_t size,
                                                            qsb_swap_kind kind)
{
    qsb_swap(a, b, size, kind);
}

/* The 2021 series' do_swap, out of line like the 2023 one: the same word swaps, its own byte
** swap (qsb_swap_bytes_buffered). The sizes 4, 8 and 32 never take the byte swap, but its
** calls give the function a frame that every swap pays. */
static __attribute__((noinline, unused)) void qsb_swap_call_2021(char *a, char *b, size_t size,
                                                                 qsb_swap_kind kind)
{
    if (kind == QSB_SWAP_WORDS_64)
        qsb_swap_words_64(a, b, size);
    else if (kind == QSB_SWAP_WORDS_32)
        qsb_swap_words_32(a, b, size);
    else
        qsb_swap_bytes_buffered(a, b, size);
}

/* qsb_swap() at the site a sort chose (a constant). */
static inline void qsb_swap_at(char *a, char *b, size_t size, qsb_swap_kind kind,
                               const qsb_swap_site site)
{
    if (site == QSB_SWAP_CALL)
        qsb_swap_call(a, b, size, kind);
    else if (site == QSB_SWAP_CALL_2021)
        qsb_swap_call_2021(a, b, size, kind);
    else
        qsb_swap(a, b, size, kind);
}

#endif
