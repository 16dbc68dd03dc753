/*
** Samples to bytes and back (samples_codec.h). Varints are 7 bits a byte, low bits first,
** the high bit set on every byte but the last (as SQLite's record format and protobuf do).
*/
#include "samples_codec.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

enum { CODEC_WHOLE = 1, CODEC_DOUBLES = 2 };

#define WHOLE_MAX 9007199254740992.0 /* 2^53: every whole double below it is exact */
#define VARINT_MAX 10                /* bytes of a 64-bit varint */

static int all_whole(const double *samples, size_t n)
{
    for (size_t i = 0; i < n; i++)
        if (!(samples[i] >= 0.0 && samples[i] <= WHOLE_MAX) || samples[i] != floor(samples[i]))
            return 0;
    return 1;
}

static size_t put_varint(unsigned char *out, uint64_t v)
{
    size_t k = 0;
    while (v >= 0x80) {
        out[k++] = (unsigned char)(v | 0x80);
        v >>= 7;
    }
    out[k++] = (unsigned char)v;
    return k;
}

static int get_varint(const unsigned char *in, size_t len, size_t *at, uint64_t *v)
{
    *v = 0;
    for (unsigned shift = 0; *at < len && shift < 64; shift += 7) {
        unsigned char b = in[(*at)++];
        *v |= (uint64_t)(b & 0x7f) << shift;
        if (!(b & 0x80))
            return 0;
    }
    return -1;
}

static uint64_t zigzag(int64_t d)
{
    return ((uint64_t)d << 1) ^ (uint64_t)(d >> 63);
}

static int64_t unzigzag(uint64_t z)
{
    return (int64_t)(z >> 1) ^ -(int64_t)(z & 1);
}

unsigned char *qsb_samples_encode(const double *samples, size_t n, size_t *len)
{
    int whole = all_whole(samples, n);
    unsigned char *out = malloc(1 + n * (whole ? VARINT_MAX : 8));
    if (!out)
        return NULL;
    size_t k = 0;
    out[k++] = whole ? CODEC_WHOLE : CODEC_DOUBLES;
    int64_t previous = 0;
    for (size_t i = 0; i < n; i++) {
        if (whole) {
            int64_t v = (int64_t)samples[i];
            k += put_varint(out + k, zigzag(v - previous));
            previous = v;
        } else {
            uint64_t bits;
            memcpy(&bits, &samples[i], sizeof bits);
            for (int b = 0; b < 8; b++)
                out[k++] = (unsigned char)(bits >> (8 * b));
        }
    }
    *len = k;
    return out;
}

static size_t count_samples(const unsigned char *blob, size_t len)
{
    if (blob[0] == CODEC_DOUBLES)
        return (len - 1) % 8 ? (size_t)-1 : (len - 1) / 8;
    size_t n = 0;
    for (size_t i = 1; i < len; i++)
        n += !(blob[i] & 0x80);
    return len > 1 && (blob[len - 1] & 0x80) ? (size_t)-1 : n;
}

int qsb_samples_decode(const unsigned char *blob, size_t len, double **samples, size_t *n)
{
    *samples = NULL;
    *n = 0;
    if (len == 0 || (blob[0] != CODEC_WHOLE && blob[0] != CODEC_DOUBLES))
        return -1;
    size_t count = count_samples(blob, len);
    if (count == (size_t)-1)
        return -1;
    if (count == 0)
        return 0;
    double *out = malloc(count * sizeof *out);
    if (!out)
        return -1;
    size_t at = 1;
    uint64_t previous = 0; /* unsigned: a hostile blob wraps instead of overflowing */
    for (size_t i = 0; i < count; i++) {
        if (blob[0] == CODEC_DOUBLES) {
            uint64_t bits = 0;
            for (int b = 0; b < 8; b++)
                bits |= (uint64_t)blob[at++] << (8 * b);
            memcpy(&out[i], &bits, sizeof bits);
            continue;
        }
        uint64_t z;
        if (get_varint(blob, len, &at, &z) != 0) {
            free(out);
            return -1;
        }
        previous += (uint64_t)unzigzag(z);
        out[i] = (double)(int64_t)previous;
    }
    *samples = out;
    *n = count;
    return 0;
}
