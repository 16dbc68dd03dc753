/*
** What this machine is: CPU model, caches from sysfs, libc, governor, turbo, load. Feeds `info`,
** the results' context block and `--nelem auto`.
*/
#ifndef QSB_MACHINE_H
#define QSB_MACHINE_H

#include <stddef.h>
#include <stdint.h>

typedef struct {
    uint64_t total_bytes; /* summed over distinct instances, as lscpu reports */
    unsigned instances;   /* distinct shared_cpu_list values */
    uint64_t instance_bytes;
} qsb_cache_level;

typedef struct {
    qsb_cache_level level[3]; /* L1d, L2, L3; total_bytes 0 when absent */
} qsb_caches;

/* Reads <sysfs_cpu_root>/cpuN/cache/indexM/{level,type,size,shared_cpu_list} (every N, M);
** the tool passes "/sys/devices/system/cpu", tests pass fixture directories. Only Data and
** Unified caches of levels 1-3 count. Returns 0, or -1 when nothing is found (or out of
** memory); *out is then all zero. */
int qsb_read_caches(const char *sysfs_cpu_root, qsb_caches *out);

/* Where the CPUs' sysfs directory is: $QSB_SYSFS_CPU_ROOT when set (tests and CI point it at a
** fixture or an empty directory, so that nothing depends on the host's sysfs), else
** "/sys/devices/system/cpu". */
const char *qsb_sysfs_cpu_root(void);

/* --nelem auto never goes past the cover letter's L3 count (64 MiB of 8-byte elements): on a
** VM's slice of a large shared L3 (260-300 MiB seen) the level's whole size is neither this
** VM's to use nor a count a 5-minute run can afford (docs/measurement.md, "--nelem auto"). */
#define QSB_AUTO_NELEM_CAP UINT64_C(8388608)

/* --nelem auto: total capacity per level / 8, at most QSB_AUTO_NELEM_CAP. Writes up to 3
** counts; returns how many (levels with a cache). Zero means "fall back to the seed's
** 49152:786432:8388608". */
size_t qsb_auto_nelem(const qsb_caches *caches, uint64_t counts[3]);

/* Is level i's count (0 L1d, 1 L2, 2 L3) the cap rather than its size / 8? */
int qsb_auto_nelem_capped(const qsb_caches *caches, int level);

/* Strings written into caller buffers; "unknown" when not readable. */
void qsb_cpu_model(char *buf, size_t len);
void qsb_libc_version(char *buf, size_t len);    /* "glibc 2.36" */
void qsb_cpu_governor(char *buf, size_t len);
void qsb_caches_describe(const qsb_caches *c, char *buf, size_t len);
double qsb_load_average(void);                   /* 1-minute, or -1 */
void qsb_turbo_state(char *buf, size_t len);     /* "on", "off" or "unknown" */

/* The seed's counts (its Ryzen 9's L1d/L2/L3 totals / 8): --nelem auto without sysfs. */
extern const uint64_t qsb_seed_nelem[3];

/* Bytes in the largest binary unit that divides them exactly: "48 KiB", "260 MiB", "1536 KiB". */
void qsb_format_bytes(uint64_t bytes, char *buf, size_t len);

/* Is the host libc glibc at a version <= major.minor? (system == msort there) */
int qsb_libc_is_glibc_at_most(int major, int minor);

#endif
