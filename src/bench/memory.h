/*
** Refusing work that cannot fit before allocating it: overflow of n * size, and buffers
** larger than the memory this machine has available now.
*/
#ifndef QSB_MEMORY_H
#define QSB_MEMORY_H

#include <stdint.h>

/* Bytes of memory available now (MemAvailable of /proc/meminfo), or 0 when unknown. */
uint64_t qsb_available_memory(void);

/* Checks that `buffers` buffers of nelem * size bytes fit: no overflow, and within the
** available memory. Reports a usage error naming `what` and the bytes needed, and returns
** QSB_EUSAGE, when they do not; QSB_OK otherwise. */
int qsb_check_fits(uint64_t nelem, uint64_t size, unsigned buffers, const char *what);

#endif
