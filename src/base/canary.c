/*
** Canary zones around work buffers (see canary.h).
*/
#include "canary.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#define PAGE 4096u

/* One page of the pattern: neither zeros nor one repeated byte, so a stray element written
** over it almost surely differs from it. Made once. */
static unsigned char pattern[PAGE];

static const unsigned char *pattern_page(void)
{
    if (pattern[0] == 0)
        for (size_t i = 0; i < PAGE; i++)
            pattern[i] = (unsigned char)(0xA5u ^ (i * 0x3Bu) ^ (i >> 8));
    return pattern;
}

size_t qsb_canary_zone(size_t element_max)
{
    return (PAGE + element_max + PAGE - 1) / PAGE * PAGE;
}

void *qsb_canary_alloc(size_t capacity, size_t zone)
{
    size_t pages = (capacity + PAGE - 1) / PAGE * PAGE;
    unsigned char *block = aligned_alloc(PAGE, zone + (pages ? pages : PAGE) + zone);
    return block ? block + zone : NULL;
}

void qsb_canary_free(void *data, size_t zone)
{
    if (data)
        free((unsigned char *)data - zone);
}

static void fill(unsigned char *zone_start, size_t zone)
{
    const unsigned char *p = pattern_page();
    for (size_t done = 0; done < zone; done += PAGE)
        memcpy(zone_start + done, p, zone - done < PAGE ? zone - done : PAGE);
}

static bool holds_pattern(const unsigned char *zone_start, size_t zone)
{
    const unsigned char *p = pattern_page();
    for (size_t done = 0; done < zone; done += PAGE)
        if (memcmp(zone_start + done, p, zone - done < PAGE ? zone - done : PAGE) != 0)
            return false;
    return true;
}

void qsb_canary_arm(void *data, size_t used, size_t zone)
{
    fill((unsigned char *)data - zone, zone);
    fill((unsigned char *)data + used, zone);
}

bool qsb_canary_intact(const void *data, size_t used, size_t zone, bool *below)
{
    *below = !holds_pattern((const unsigned char *)data - zone, zone);
    return !*below && holds_pattern((const unsigned char *)data + used, zone);
}

/* Each step maps the running hash through a bijection (xor a word, rotate, multiply by an odd
** constant), so the words after a changed one cannot cancel it. */
static uint64_t mix(uint64_t h, uint64_t word)
{
    h ^= word;
    return ((h << 29) | (h >> 35)) * 0x9E3779B97F4A7C15u;
}

static uint64_t hash_bytes(uint64_t h, const unsigned char *p, size_t len)
{
    size_t i = 0;
    for (; i + 8 <= len; i += 8) {
        uint64_t w;
        memcpy(&w, p + i, 8);
        h = mix(h, w);
    }
    for (; i < len; i++)
        h = mix(h, p[i]);
    return h;
}

unsigned long long qsb_canary_seal(const void *data, size_t used, size_t zone)
{
    const unsigned char *bytes = data;
    uint64_t h = hash_bytes(0xCBF29CE484222325u, bytes - zone, zone);
    h = hash_bytes(h, bytes, used);
    return hash_bytes(h, bytes + used, zone);
}

bool qsb_canary_sealed_intact(const void *data, size_t used, size_t zone,
                              unsigned long long seal)
{
    return qsb_canary_seal(data, used, zone) == seal;
}
