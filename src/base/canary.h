/*
** Work buffers fenced by canary zones: every array a sort gets (the run's work buffers, the
** audit's arrays) sits between two zones filled with a known pattern, compared after the sort
** (outside any timed interval). A sort that writes one element, or a page, past either end
** of the bytes it was given changes a zone, and the caller reports "wrote outside the array"
** instead of timing a corrupted run. Guard pages alone would turn the same write into a
** crash; a zone of a page plus the largest element on each side catches both.
**
** The data is page-aligned (the zones are whole pages). The zone after the data starts at
** the end of the bytes in use, wherever that is inside the capacity, so a write just past
** the sorted array is caught even when the buffer is larger. Cost: filling and comparing two
** zones (a few KiB) per check.
**
** A buffer handed back by code that may keep writing into it after it returned (a plug-in's
** detached thread) is sealed once its result is checked: its bytes in use and its zones are
** hashed, and checked against the seal before the buffer is used again. The hash is a chain
** of bijections over 8-byte words, so one changed word always changes it.
*/
#ifndef QSB_CANARY_H
#define QSB_CANARY_H

#include <stdbool.h>
#include <stddef.h>

/* The zone for elements of at most element_max bytes: a page plus one element, in pages. */
size_t qsb_canary_zone(size_t element_max);

/* A page-aligned buffer of `capacity` bytes with a zone of `zone` bytes (qsb_canary_zone)
** before it and after it; NULL when out of memory. Free with qsb_canary_free. */
void *qsb_canary_alloc(size_t capacity, size_t zone);
void qsb_canary_free(void *data, size_t zone);

/* Fills the zone before data and the `zone` bytes from data + used with the pattern. */
void qsb_canary_arm(void *data, size_t used, size_t zone);

/* Are both zones (as armed for `used`) still the pattern? When not, *below tells whether
** the zone before the data was written (else the one after it). */
bool qsb_canary_intact(const void *data, size_t used, size_t zone, bool *below);

/* The seal of a checked buffer: a hash of its `used` bytes and of both zones. */
unsigned long long qsb_canary_seal(const void *data, size_t used, size_t zone);

/* Are the bytes and the zones what they were when sealed? */
bool qsb_canary_sealed_intact(const void *data, size_t used, size_t zone,
                              unsigned long long seal);

#endif
