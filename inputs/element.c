/*
** Element layout, keys, comparators and put() of the patterns spec (see element.h). Keys are
** read and written with memcpy in native byte order, so elements need no alignment.
*/
#include "element.h"

#include <assert.h>
#include <string.h>

uint64_t qsb_key(const void *element, size_t size)
{
    switch (qsb_key_width(size)) {
    case 1: {
        uint8_t k;
        memcpy(&k, element, sizeof k);
        return k;
    }
    case 2: {
        uint16_t k;
        memcpy(&k, element, sizeof k);
        return k;
    }
    case 8: {
        uint64_t k;
        memcpy(&k, element, sizeof k);
        return k;
    }
    default: {
        uint32_t k;
        memcpy(&k, element, sizeof k);
        return k;
    }
    }
}

/* Stores value mod 2^(8w) as the w-byte native-order key at offset 0. */
static void store_key(void *element, size_t width, uint64_t value)
{
    switch (width) {
    case 1: {
        uint8_t k = (uint8_t)value;
        memcpy(element, &k, sizeof k);
        break;
    }
    case 2: {
        uint16_t k = (uint16_t)value;
        memcpy(element, &k, sizeof k);
        break;
    }
    case 8:
        memcpy(element, &value, sizeof value);
        break;
    default: {
        uint32_t k = (uint32_t)value;
        memcpy(element, &k, sizeof k);
        break;
    }
    }
}

static int is_word_size(size_t size)
{
    return size == 1 || size == 2 || size == 4 || size == 8;
}

void qsb_put(void *element, size_t size, uint64_t value, qsb_mode mode)
{
    /* The 2021 benchmark filled odd-sized elements with memset, so their "key" is the low
    ** byte repeated: kept in compat mode, since its published figures were made that way. */
    if (mode == QSB_MODE_COMPAT_2021 && !is_word_size(size)) {
        memset(element, (int)(value & 0xff), size);
        return;
    }
    size_t width = qsb_key_width(size);
    if (size > width)
        memset(element, 0, size);
    store_key(element, width, value);
}
