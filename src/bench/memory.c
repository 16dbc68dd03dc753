/*
** Refusing work that cannot fit, before allocating it (see memory.h): n * size * buffers must
** not overflow, must be addressable, and must stay within MemAvailable, so that a mistyped
** --nelem is one error line instead of an OOM kill or minutes of swapping.
*/
#include "memory.h"

#include <stdio.h>
#include <string.h>

#include "diag.h"

uint64_t qsb_available_memory(void)
{
    FILE *fp = fopen("/proc/meminfo", "r");
    if (!fp)
        return 0;
    char line[256];
    unsigned long long kib = 0;
    int found = 0;
    while (!found && fgets(line, sizeof line, fp))
        found = sscanf(line, "MemAvailable: %llu kB", &kib) == 1;
    fclose(fp);
    if (!found || kib > UINT64_MAX / 1024)
        return 0;
    return (uint64_t)kib * 1024;
}

/* Bytes in the unit that reads best in a message ("1.5 GiB"). */
static void format_bytes(char *out, size_t len, uint64_t bytes)
{
    static const char *const units[] = {"bytes", "KiB", "MiB", "GiB", "TiB", "PiB", "EiB"};
    double value = (double)bytes;
    size_t unit = 0;
    while (value >= 1024 && unit + 1 < sizeof units / sizeof units[0]) {
        value /= 1024;
        unit++;
    }
    if (unit == 0)
        snprintf(out, len, "%llu bytes", (unsigned long long)bytes);
    else
        snprintf(out, len, "%.1f %s", value, units[unit]);
}

/* nelem * size * buffers, or 0 with *overflow set when it does not fit in a size_t. */
static uint64_t total_bytes(uint64_t nelem, uint64_t size, unsigned buffers, int *overflow)
{
    uint64_t limit = SIZE_MAX;
    *overflow = 0;
    if (nelem == 0 || size == 0 || buffers == 0)
        return 0;
    if (nelem > limit / size || nelem * size > limit / buffers) {
        *overflow = 1;
        return 0;
    }
    return nelem * size * buffers;
}

int qsb_check_fits(uint64_t nelem, uint64_t size, unsigned buffers, const char *what)
{
    char copies[32] = "";
    if (buffers > 1)
        snprintf(copies, sizeof copies, " (%u buffers)", buffers);
    int overflow;
    uint64_t bytes = total_bytes(nelem, size, buffers, &overflow);
    if (overflow)
        return qsb_usage_error("%s: %llu elements of %llu bytes%s do not fit in the address "
                               "space",
                               what, (unsigned long long)nelem, (unsigned long long)size,
                               copies);
    uint64_t available = qsb_available_memory();
    if (available != 0 && bytes > available) {
        char need[32], have[32];
        format_bytes(need, sizeof need, bytes);
        format_bytes(have, sizeof have, available);
        return qsb_usage_error("%s: %llu elements of %llu bytes%s need %s, more than the %s "
                               "of memory available",
                               what, (unsigned long long)nelem, (unsigned long long)size,
                               copies, need, have);
    }
    return QSB_OK;
}
