/*
** A row's samples as the history database keeps them: lossless and small. Whole numbers (the
** cycles and comparisons metrics) are varints of the differences between successive samples
** (zigzag: two bytes for a typical cycles sample instead of eight); anything else is the
** doubles' bits, little-endian. The first byte says which.
*/
#ifndef QSB_SAMPLES_CODEC_H
#define QSB_SAMPLES_CODEC_H

#include <stddef.h>
#include <stdint.h>

/* The encoding of samples[0..n-1] in a malloc'd buffer (*len bytes); NULL when out of
** memory. */
unsigned char *qsb_samples_encode(const double *samples, size_t n, size_t *len);

/* Decodes blob into *samples (malloc'd, NULL when n is 0); 0, or -1 when the blob is not an
** encoding (or out of memory: *samples stays NULL then too). */
int qsb_samples_decode(const unsigned char *blob, size_t len, double **samples, size_t *n);

#endif
