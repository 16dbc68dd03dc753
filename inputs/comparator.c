/*
** The comparators of the patterns spec: (a > b) - (a < b) on the w-byte key at offset 0 (see
** element.h). This file is compiled three times: into qsb_inputs (the executable's own, for
** everything but the timed sorts), into libqsb_comparators.so as qsb_far_comparator (the
** run's far regime loads a copy for each unit, away from the sorts, as a libc qsort is far
** from its caller's comparator), and into the sorts' shared object as qsb_near_comparator
** (run --placement near: the comparator beside the sorts).
*/
#include <stdint.h>
#include <string.h>

#include "element.h"

#ifndef QSB_COMPARATOR_GETTER
#define QSB_COMPARATOR_GETTER qsb_comparator
#endif

qsb_compare QSB_COMPARATOR_GETTER(size_t size);

/* One comparator per key width: the sorts call these millions of times, so the width is
** decided once by qsb_comparator(), never per call. */
#define QSB_DEFINE_KEY_COMPARATOR(name, type)             \
    static int name(const void *a, const void *b, void *arg) \
    {                                                     \
        type ka, kb;                                      \
        (void)arg;                                        \
        memcpy(&ka, a, sizeof ka);                        \
        memcpy(&kb, b, sizeof kb);                        \
        return (ka > kb) - (ka < kb);                     \
    }

QSB_DEFINE_KEY_COMPARATOR(compare_key8, uint8_t)
QSB_DEFINE_KEY_COMPARATOR(compare_key16, uint16_t)
QSB_DEFINE_KEY_COMPARATOR(compare_key32, uint32_t)
QSB_DEFINE_KEY_COMPARATOR(compare_key64, uint64_t)

qsb_compare QSB_COMPARATOR_GETTER(size_t size)
{
    switch (qsb_key_width(size)) {
    case 1:
        return compare_key8;
    case 2:
        return compare_key16;
    case 8:
        return compare_key64;
    default:
        return compare_key32;
    }
}

