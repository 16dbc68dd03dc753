/*
** Element layout and comparison, shared by every part of the tool so that all of it compares
** elements the same way (patterns spec, "Element layout and comparison").
**
** An element of s >= 1 bytes holds an unsigned key of w bytes at offset 0, native byte order:
** w = 1 for s = 1, 2 for s = 2 or 3, 8 for s = 8, 4 otherwise.
*/
#ifndef QSB_ELEMENT_H
#define QSB_ELEMENT_H

#include <assert.h>
#include <stddef.h>
#include <stdint.h>

#include "comparator.h"
#include "rng.h"


/* w for an element of `size` bytes (inline: the comparators' object, compiled into the sorts'
** shared object too, must not depend on the rest of the inputs). */
static inline size_t qsb_key_width(size_t size)
{
    assert(size >= 1);
    switch (size) {
    case 1:
        return 1;
    case 2:
    case 3:
        return 2;
    case 8:
        return 8;
    default:
        return 4;
    }
}
uint64_t qsb_key(const void *element, size_t size);

/* put(e, v) of the patterns spec, in the given mode (compat memsets odd sizes). */
void qsb_put(void *element, size_t size, uint64_t value, qsb_mode mode);

#endif
