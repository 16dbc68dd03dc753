/*
** A run's inputs, generated once and shared with its workers (see shared_inputs.h).
**
** The file: a head (magic, version, seed, mode, how many cells), one entry per cell (pattern,
** n, size, where its bytes start, their hash), then each cell's bytes from a page boundary,
** so that a worker maps exactly one cell. Both sides are the same executable (a worker is
** /proc/self/exe), so the layout is this file's structs as they are.
*/
#include "shared_inputs.h"

#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include "diag.h"
#include "patterns.h"
#include "timing.h"
#include "worker_protocol.h"

#define MAGIC "qsbinput"
#define FORMAT_VERSION 1u
#define PATTERN_BYTES 32 /* a pattern's name, NUL-terminated */

typedef struct {
    char magic[8];
    uint32_t version;
    uint32_t mode;
    uint64_t seed;
    uint64_t count; /* entries that follow */
} file_head;

typedef struct {
    char pattern[PATTERN_BYTES];
    uint64_t nelem, size;
    uint64_t offset, bytes; /* in the file; offset a multiple of the page size */
    qsb_multiset_hash hash;
} file_entry;

struct qsb_shared_inputs {
    int fd;
    uint64_t file_bytes;
    file_head head;
    file_entry *entries;
    void *mapped; /* the worker's current cell, or NULL */
    size_t mapped_bytes;
};

static uint64_t page_round(uint64_t bytes)
{
    uint64_t page = (uint64_t)sysconf(_SC_PAGESIZE);
    return (bytes + page - 1) / page * page;
}

/* Entries of the cells this run visits, in the matrix's order, while they fit in cap_bytes
** (offsets after the head and the entries). Returns how many. */
static size_t plan_entries(const qsb_run_config *cfg, uint64_t cap_bytes, file_entry *entries,
                           uint64_t *file_bytes)
{
    size_t count = 0;
    size_t cells = qsb_run_config_cells(cfg);
    uint64_t head = page_round(sizeof(file_head) + cells * sizeof(file_entry)), end = head;
    for (qsb_cell_cursor at = {0}; qsb_run_config_next_cell(cfg, &at);) {
        const char *pattern = cfg->patterns[at.pattern]->name;
        uint64_t nelem = cfg->nelem[at.nelem], size = cfg->sizes[at.size], bytes = nelem * size;
        if (bytes == 0 || strlen(pattern) >= PATTERN_BYTES ||
            end - head + page_round(bytes) > cap_bytes)
            continue; /* its workers generate it */
        file_entry *entry = &entries[count++];
        memset(entry, 0, sizeof *entry);
        strcpy(entry->pattern, pattern);
        entry->nelem = nelem;
        entry->size = size;
        entry->offset = end;
        entry->bytes = bytes;
        end += page_round(bytes);
    }
    *file_bytes = end;
    return count;
}

/* Generates the entry's input at its place in the file, and its hash. */
static bool fill_entry(int fd, const qsb_run_config *cfg, file_entry *entry)
{
    void *at = mmap(NULL, entry->bytes, PROT_READ | PROT_WRITE, MAP_SHARED, fd,
                    (off_t)entry->offset);
    if (at == MAP_FAILED)
        return false;
    qsb_generate(qsb_pattern_find(entry->pattern), at, (size_t)entry->nelem,
                 (size_t)entry->size, cfg->seed, cfg->mode);
    entry->hash = qsb_multiset_hash_of(at, (size_t)entry->nelem, (size_t)entry->size);
    munmap(at, entry->bytes);
    return true;
}

/* A descriptor above the standard three: a worker reads "--inputs-fd 0" as none. */
static int new_file(void)
{
    int fd = memfd_create("qsortbench-inputs", MFD_CLOEXEC);
    if (fd >= 0 && fd <= STDERR_FILENO) {
        int high = fcntl(fd, F_DUPFD_CLOEXEC, STDERR_FILENO + 1);
        close(fd);
        fd = high;
    }
    return fd;
}

qsb_shared_inputs *qsb_shared_inputs_create(const qsb_run_config *cfg, uint64_t cap_bytes,
                                            double *seconds)
{
    uint64_t start = qsb_clock_ns();
    size_t cells = qsb_run_config_cells(cfg);
    qsb_shared_inputs *si = calloc(1, sizeof *si);
    file_entry *entries = calloc(cells ? cells : 1, sizeof *entries);
    uint64_t file_bytes = 0;
    size_t count = entries ? plan_entries(cfg, cap_bytes, entries, &file_bytes) : 0;
    int fd = count > 0 && si ? new_file() : -1;
    /* Every page reserved now: a full memory is an error here, not a SIGBUS in a worker. */
    bool ok = fd >= 0 && ftruncate(fd, (off_t)file_bytes) == 0 &&
              fallocate(fd, 0, 0, (off_t)file_bytes) == 0;
    for (size_t i = 0; ok && i < count; i++)
        ok = fill_entry(fd, cfg, &entries[i]);
    file_head head = {{0}, FORMAT_VERSION, (uint32_t)cfg->mode, cfg->seed, count};
    memcpy(head.magic, MAGIC, sizeof head.magic);
    ok = ok && pwrite(fd, &head, sizeof head, 0) == (ssize_t)sizeof head &&
         pwrite(fd, entries, count * sizeof *entries, sizeof head) ==
             (ssize_t)(count * sizeof *entries);
    *seconds = (double)(qsb_clock_ns() - start) / 1e9;
    if (!ok) {
        if (fd >= 0)
            close(fd);
        free(entries);
        free(si);
        return NULL;
    }
    si->fd = fd;
    si->file_bytes = file_bytes;
    si->head = head;
    si->entries = entries;
    return si;
}

int qsb_shared_inputs_fd(const qsb_shared_inputs *si)
{
    return si->fd;
}

size_t qsb_shared_inputs_cells(const qsb_shared_inputs *si)
{
    return (size_t)si->head.count;
}

uint64_t qsb_shared_inputs_bytes(const qsb_shared_inputs *si)
{
    return si->file_bytes;
}

/* The entries after the head, each within the file; false when the file is not one. */
static bool read_entries(qsb_shared_inputs *si, off_t file_bytes)
{
    uint64_t count = si->head.count;
    if (count > (uint64_t)file_bytes / sizeof(file_entry))
        return false;
    si->entries = calloc(count ? count : 1, sizeof *si->entries);
    size_t bytes = (size_t)count * sizeof *si->entries;
    if (!si->entries || pread(si->fd, si->entries, bytes, sizeof si->head) != (ssize_t)bytes)
        return false;
    for (uint64_t i = 0; i < count; i++) {
        const file_entry *e = &si->entries[i];
        if (memchr(e->pattern, '\0', PATTERN_BYTES) == NULL || e->bytes == 0 ||
            e->nelem == 0 || e->bytes / e->nelem != e->size || e->bytes % e->nelem != 0 ||
            e->offset > (uint64_t)file_bytes || e->bytes > (uint64_t)file_bytes - e->offset)
            return false;
    }
    return true;
}

qsb_shared_inputs *qsb_shared_inputs_open(int fd)
{
    qsb_shared_inputs *si = calloc(1, sizeof *si);
    if (!si) {
        qsb_out_of_memory("shared inputs");
        return NULL;
    }
    si->fd = fd;
    off_t file_bytes = lseek(fd, 0, SEEK_END);
    si->file_bytes = file_bytes > 0 ? (uint64_t)file_bytes : 0;
    bool ok = file_bytes >= (off_t)sizeof si->head &&
              pread(fd, &si->head, sizeof si->head, 0) == (ssize_t)sizeof si->head &&
              memcmp(si->head.magic, MAGIC, sizeof si->head.magic) == 0 &&
              si->head.version == FORMAT_VERSION && read_entries(si, file_bytes);
    if (!ok) {
        free(si->entries);
        free(si);
        qsb_error(QSB_EUSAGE, "--%s %d: not a file of inputs from a qsortbench run",
                  qsb_worker_option_name(offsetof(qsb_worker_protocol, inputs_fd)), fd);
        return NULL;
    }
    return si;
}

static void unmap_current(qsb_shared_inputs *si)
{
    if (si->mapped)
        munmap(si->mapped, si->mapped_bytes);
    si->mapped = NULL;
    si->mapped_bytes = 0;
}

bool qsb_shared_inputs_map(qsb_shared_inputs *si, const char *pattern, uint64_t nelem,
                           uint64_t size, uint64_t seed, qsb_mode mode,
                           const unsigned char **input, qsb_multiset_hash *hash)
{
    unmap_current(si);
    if (si->head.seed != seed || si->head.mode != (uint32_t)mode)
        return false;
    for (uint64_t i = 0; i < si->head.count; i++) {
        const file_entry *e = &si->entries[i];
        if (e->nelem != nelem || e->size != size || strcmp(e->pattern, pattern) != 0)
            continue;
        /* All its pages at once: a fault per page as the copies first read them cost more. */
        void *at = mmap(NULL, e->bytes, PROT_READ, MAP_SHARED | MAP_POPULATE, si->fd,
                        (off_t)e->offset);
        if (at == MAP_FAILED)
            return false;
        si->mapped = at;
        si->mapped_bytes = e->bytes;
        *input = at;
        *hash = e->hash;
        return true;
    }
    return false;
}

void qsb_shared_inputs_close(qsb_shared_inputs *si)
{
    if (!si)
        return;
    unmap_current(si);
    close(si->fd);
    free(si->entries);
    free(si);
}
