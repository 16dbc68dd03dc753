/*
** What this machine is (see machine.h). Caches come from sysfs, counted the way lscpu
** counts them: per level, only Data and Unified caches, one instance per distinct
** shared_cpu_list (SMT siblings and the cores of a CCX list the same CPUs), and the level's
** total is the sum of its distinct instances. Never sysconf(_SC_LEVEL3_CACHE_SIZE): on this
** project's machines it reports 256 MiB for a 32 MiB L3.
*/
#include "machine.h"

#include <ctype.h>
#include <dirent.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#ifdef __GLIBC__
#include <gnu/libc-version.h>
#endif

#include "grow.h"

const uint64_t qsb_seed_nelem[3] = {49152, 786432, 8388608};

/* One cache instance seen so far: its level and the CPUs that share it. */
typedef struct {
    unsigned level;
    char cpus[1024];
} cache_instance;

typedef struct {
    cache_instance *items;
    size_t count, capacity;
} instance_set;

static void copy_string(char *buf, size_t len, const char *text)
{
    if (len)
        snprintf(buf, len, "%s", text);
}

/* dir/name into buf; -1 when it does not fit. */
static int join_path(char *buf, size_t len, const char *dir, const char *name)
{
    int n = snprintf(buf, len, "%s/%s", dir, name);
    return n < 0 || (size_t)n >= len ? -1 : 0;
}

/* The first line of a small file, without its newline; 0 on success. */
static int read_line(const char *path, char *buf, size_t len)
{
    FILE *fp = fopen(path, "r");
    if (!fp)
        return -1;
    int ok = fgets(buf, (int)len, fp) != NULL;
    fclose(fp);
    if (!ok)
        return -1;
    buf[strcspn(buf, "\n")] = '\0';
    return 0;
}

/* sysfs sizes: "48K", "2048K", "32M" (the kernel writes K; other suffixes for safety). */
static uint64_t parse_cache_size(const char *text)
{
    char *end;
    unsigned long long v = strtoull(text, &end, 10);
    if (end == text)
        return 0;
    switch (toupper((unsigned char)*end)) {
    case 'K': return (uint64_t)v << 10;
    case 'M': return (uint64_t)v << 20;
    case 'G': return (uint64_t)v << 30;
    default: return (uint64_t)v;
    }
}

/* Adds (level, cpus) unless already present; 1 when new, 0 when seen, -1 out of memory. */
static int instance_set_add(instance_set *set, unsigned level, const char *cpus)
{
    for (size_t i = 0; i < set->count; i++)
        if (set->items[i].level == level && strcmp(set->items[i].cpus, cpus) == 0)
            return 0;
    if (QSB_GROW(set->items, set->capacity, set->count + 1) != 0)
        return -1;
    set->items[set->count].level = level;
    copy_string(set->items[set->count].cpus, sizeof set->items[0].cpus, cpus);
    set->count++;
    return 1;
}

static int is_cpu_entry(const char *name)
{
    return strncmp(name, "cpu", 3) == 0 && name[3] != '\0' &&
           strspn(name + 3, "0123456789") == strlen(name + 3);
}

static int is_index_entry(const char *name)
{
    return strncmp(name, "index", 5) == 0 && name[5] != '\0' &&
           strspn(name + 5, "0123456789") == strlen(name + 5);
}

/* The first line of dir/name; 0 on success. */
static int read_entry(const char *dir, const char *name, char *buf, size_t len)
{
    char path[4096];
    return join_path(path, sizeof path, dir, name) == 0 ? read_line(path, buf, len) : -1;
}

/* Reads one <cpu>/cache/indexN directory into the levels; -1 only when out of memory. */
static int read_cache_index(const char *dir, instance_set *seen, qsb_caches *out)
{
    char level_text[32], type[32], size_text[32], cpus[1024];
    if (read_entry(dir, "level", level_text, sizeof level_text) != 0 ||
        read_entry(dir, "type", type, sizeof type) != 0 ||
        read_entry(dir, "size", size_text, sizeof size_text) != 0 ||
        read_entry(dir, "shared_cpu_list", cpus, sizeof cpus) != 0)
        return 0;

    unsigned level = (unsigned)strtoul(level_text, NULL, 10);
    uint64_t bytes = parse_cache_size(size_text);
    if (level < 1 || level > 3 || bytes == 0 ||
        (strcmp(type, "Data") != 0 && strcmp(type, "Unified") != 0))
        return 0;
    int added = instance_set_add(seen, level, cpus);
    if (added <= 0)
        return added;
    qsb_cache_level *l = &out->level[level - 1];
    l->total_bytes += bytes;
    l->instances++;
    if (bytes > l->instance_bytes) /* the largest, should a hybrid CPU mix sizes */
        l->instance_bytes = bytes;
    return 0;
}

static int read_cpu_caches(const char *cpu_dir, instance_set *seen, qsb_caches *out)
{
    char path[4096];
    if (join_path(path, sizeof path, cpu_dir, "cache") != 0)
        return 0;
    DIR *dir = opendir(path);
    if (!dir)
        return 0;
    int status = 0;
    struct dirent *entry;
    while (status == 0 && (entry = readdir(dir)) != NULL) {
        char index_dir[4096];
        if (is_index_entry(entry->d_name) &&
            join_path(index_dir, sizeof index_dir, path, entry->d_name) == 0)
            status = read_cache_index(index_dir, seen, out);
    }
    closedir(dir);
    return status;
}

const char *qsb_sysfs_cpu_root(void)
{
    const char *root = getenv("QSB_SYSFS_CPU_ROOT");
    return root && *root ? root : "/sys/devices/system/cpu";
}

int qsb_read_caches(const char *sysfs_cpu_root, qsb_caches *out)
{
    memset(out, 0, sizeof *out);
    DIR *dir = opendir(sysfs_cpu_root);
    if (!dir)
        return -1;
    instance_set seen = {NULL, 0, 0};
    int status = 0;
    struct dirent *entry;
    while (status == 0 && (entry = readdir(dir)) != NULL) {
        char cpu_dir[4096];
        if (is_cpu_entry(entry->d_name) &&
            join_path(cpu_dir, sizeof cpu_dir, sysfs_cpu_root, entry->d_name) == 0)
            status = read_cpu_caches(cpu_dir, &seen, out);
    }
    closedir(dir);
    free(seen.items);
    if (status != 0) { /* out of memory: report nothing rather than a partial count */
        memset(out, 0, sizeof *out);
        return -1;
    }
    for (int i = 0; i < 3; i++)
        if (out->level[i].total_bytes)
            return 0;
    return -1;
}

size_t qsb_auto_nelem(const qsb_caches *caches, uint64_t counts[3])
{
    size_t n = 0;
    for (int i = 0; i < 3; i++)
        if (caches->level[i].total_bytes)
            counts[n++] = qsb_auto_nelem_capped(caches, i) ? QSB_AUTO_NELEM_CAP
                                                           : caches->level[i].total_bytes / 8;
    return n;
}

int qsb_auto_nelem_capped(const qsb_caches *caches, int level)
{
    return caches->level[level].total_bytes / 8 > QSB_AUTO_NELEM_CAP;
}

/* /proc/cpuinfo's model line: "model name" on x86; other architectures name it otherwise. */
void qsb_cpu_model(char *buf, size_t len)
{
    static const char *const keys[] = {"model name", "Model", "cpu model", "Processor", "cpu"};
    copy_string(buf, len, "unknown");
    FILE *fp = fopen("/proc/cpuinfo", "r");
    if (!fp)
        return;
    char line[512];
    int best = (int)(sizeof keys / sizeof keys[0]);
    while (fgets(line, sizeof line, fp)) {
        char *colon = strchr(line, ':');
        if (!colon)
            continue;
        size_t key_len = (size_t)(colon - line);
        while (key_len && isspace((unsigned char)line[key_len - 1]))
            key_len--;
        for (int k = 0; k < best; k++) {
            if (strlen(keys[k]) != key_len || strncmp(line, keys[k], key_len) != 0)
                continue;
            char *value = colon + 1 + strspn(colon + 1, " \t");
            value[strcspn(value, "\n")] = '\0';
            if (*value) {
                copy_string(buf, len, value);
                best = k;
            }
        }
    }
    fclose(fp);
}

void qsb_libc_version(char *buf, size_t len)
{
#ifdef __GLIBC__
    snprintf(buf, len, "glibc %s", gnu_get_libc_version());
#else
    copy_string(buf, len, "unknown");
#endif
}

void qsb_cpu_governor(char *buf, size_t len)
{
    char governor[64];
    if (read_line("/sys/devices/system/cpu/cpu0/cpufreq/scaling_governor", governor,
                  sizeof governor) == 0 && governor[0])
        copy_string(buf, len, governor);
    else
        copy_string(buf, len, "unknown");
}

/* intel_pstate says whether turbo is forbidden; acpi-cpufreq (and amd-pstate) whether
** boost is allowed. */
void qsb_turbo_state(char *buf, size_t len)
{
    char value[16];
    if (read_line("/sys/devices/system/cpu/intel_pstate/no_turbo", value, sizeof value) == 0)
        copy_string(buf, len, value[0] == '1' ? "off" : "on");
    else if (read_line("/sys/devices/system/cpu/cpufreq/boost", value, sizeof value) == 0)
        copy_string(buf, len, value[0] == '1' ? "on" : "off");
    else
        copy_string(buf, len, "unknown");
}

void qsb_format_bytes(uint64_t bytes, char *buf, size_t len)
{
    static const char *const units[] = {"B", "KiB", "MiB", "GiB"};
    int unit = 0;
    while (unit < 3 && bytes && bytes % 1024 == 0) {
        bytes /= 1024;
        unit++;
    }
    snprintf(buf, len, "%" PRIu64 " %s", bytes, units[unit]);
}

void qsb_caches_describe(const qsb_caches *c, char *buf, size_t len)
{
    static const char *const names[3] = {"L1d", "L2", "L3"};
    size_t used = 0;
    copy_string(buf, len, "unknown");
    for (int i = 0; i < 3; i++) {
        if (!c->level[i].total_bytes)
            continue;
        char size[32];
        qsb_format_bytes(c->level[i].total_bytes, size, sizeof size);
        int n = snprintf(buf + used, len > used ? len - used : 0, "%s%s %s (%u)",
                         used ? ", " : "", names[i], size, c->level[i].instances);
        used += n > 0 ? (size_t)n : 0;
        if (used >= len)
            return; /* truncated, still terminated by snprintf */
    }
}

double qsb_load_average(void)
{
    double load;
    return getloadavg(&load, 1) == 1 ? load : -1.0;
}

int qsb_libc_is_glibc_at_most(int major, int minor)
{
#ifdef __GLIBC__
    int have_major = 0, have_minor = 0;
    if (sscanf(gnu_get_libc_version(), "%d.%d", &have_major, &have_minor) != 2)
        return 0;
    return have_major < major || (have_major == major && have_minor <= minor);
#else
    (void)major, (void)minor;
    return 0;
#endif
}
