/*
** Code placement sampled per unit (see placement.h): fresh copies of the sorts' shared objects,
** loaded from in-memory files below a reserved gap of random size.
*/
#include "placement.h"

#include <dlfcn.h>
#include <errno.h>
#include <fcntl.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <time.h>
#include <unistd.h>

#include "diag.h"
#include "plugins.h"

#define REGION_SHIFT 24     /* 16 MiB-aligned regions (docs/measurement.md) */
#define GAP_PAGES 16384     /* the gap below which a copy loads: 0 .. 64 MiB of 4 KiB pages */
#define MAX_OBJECTS 16      /* distinct objects among the algorithms */
#define FAR_ATTEMPTS 8      /* loads of the comparator before a near one is kept */

typedef struct {
    char *path;   /* the object's file */
    int memfd;    /* its bytes in memory: each dlopen of it after a dlclose maps a new copy */
    void *handle; /* the current unit's copy; NULL outside a unit */
} object_copy;

struct qsb_placement {
    const qsb_algorithm *algos;
    const qsb_plugins *plugins; /* of the plug-ins among algos (plugins.h); NULL: none */
    size_t n;
    qsb_placement_regime regime;
    object_copy objects[MAX_OBJECTS];
    size_t nobjects;
    int *object_of;        /* per algorithm: its object's index, -1 when not reloaded */
    char **symbol_of;      /* per algorithm: its sort's symbol in that object */
    qsb_sort_fn *sorts;    /* per algorithm: the current unit's sort */
    qsb_compare (*near_getter)(size_t); /* the current copy's qsb_near_comparator */
    int near_object;       /* the object holding the registry (and the near comparator) */
    qsb_compare (*far_getter)(size_t);  /* the current copy's qsb_far_comparator */
    int far_object;        /* libqsb_comparators.so, beside the registry's object; -1: none */
    uint64_t rng;
};

/* "far", "near" */
static const char *regime_name(qsb_placement_regime r)
{
    return r == QSB_PLACEMENT_NEAR ? "near" : "far";
}

static uint64_t next_random(uint64_t *state)
{
    *state = *state * 6364136223846793005u + 1442695040888963407u;
    return *state >> 33;
}

/* The object file a function lives in, unless it is the executable itself. */
static const char *object_of_function(const void *fn, const char **symbol)
{
    Dl_info self, info;
    if (!dladdr((const void *)qsb_placement_new, &self) || !dladdr(fn, &info) ||
        !info.dli_fname || !info.dli_sname || info.dli_saddr != fn)
        return NULL;
    if (strcmp(info.dli_fname, self.dli_fname) == 0)
        return NULL; /* the executable: a test's sort */
    *symbol = info.dli_sname;
    return info.dli_fname;
}

/* An in-memory copy of the file at path, or -1 (reported). */
static int copy_to_memory(const char *path)
{
    int in = open(path, O_RDONLY | O_CLOEXEC);
    int fd = in >= 0 ? memfd_create("qsortbench-sorts", MFD_CLOEXEC) : -1;
    char buf[1 << 16];
    ssize_t got = 0;
    while (fd >= 0 && (got = read(in, buf, sizeof buf)) > 0)
        if (write(fd, buf, (size_t)got) != got)
            got = -1, errno = errno ? errno : EIO;
    if (fd >= 0 && got < 0) {
        close(fd);
        fd = -1;
    }
    if (fd < 0)
        qsb_error(QSB_ESYSTEM, "cannot copy '%s' to load it at a new address: %s", path,
                  strerror(errno));
    if (in >= 0)
        close(in);
    return fd;
}

static int find_or_add_object(qsb_placement *p, const char *path)
{
    for (size_t i = 0; i < p->nobjects; i++)
        if (strcmp(p->objects[i].path, path) == 0)
            return (int)i;
    if (p->nobjects == MAX_OBJECTS)
        return -1; /* more distinct plug-in objects than that: the rest keep one placement */
    object_copy *o = &p->objects[p->nobjects];
    o->path = strdup(path);
    o->memfd = o->path ? copy_to_memory(path) : -1;
    o->handle = NULL;
    if (o->memfd < 0) {
        free(o->path);
        return -2;
    }
    return (int)p->nobjects++;
}

/* The comparators' own object, libqsb_comparators.so, in the registry object's directory. */
static bool comparators_beside(const char *registry, char *buf, size_t len)
{
    const char *slash = strrchr(registry, '/');
    int dir = slash ? (int)(slash - registry) : 1;
    int n = snprintf(buf, len, "%.*s/libqsb_comparators.so", dir, slash ? registry : ".");
    return n > 0 && (size_t)n < len && access(buf, R_OK) == 0;
}

qsb_placement *qsb_placement_new(const qsb_algorithm *algos, size_t n,
                                 const qsb_plugins *plugins, qsb_placement_regime regime,
                                 qsb_placement_copies copies)
{
    bool reload = copies == QSB_PLACEMENT_RELOADED;
    qsb_placement *p = calloc(1, sizeof *p);
    if (!p || !(p->object_of = calloc(n ? n : 1, sizeof *p->object_of)) ||
        !(p->symbol_of = calloc(n ? n : 1, sizeof *p->symbol_of)) ||
        !(p->sorts = calloc(n ? n : 1, sizeof *p->sorts))) {
        qsb_placement_free(p);
        qsb_out_of_memory("placement");
        return NULL;
    }
    p->algos = algos;
    p->plugins = plugins;
    p->n = n;
    p->regime = regime;
    p->near_getter = qsb_near_comparator;
    p->near_object = -1;
    p->far_object = -1;
    p->rng = (uint64_t)time(NULL) ^ ((uint64_t)getpid() << 32);
    const char *symbol;
    const char *registry = reload ? object_of_function((const void *)qsb_near_comparator,
                                                       &symbol)
                                  : NULL;
    int status = registry ? (p->near_object = find_or_add_object(p, registry)) : 0;
    char comparators[4096];
    if (status >= 0 && registry && regime == QSB_PLACEMENT_FAR &&
        comparators_beside(registry, comparators, sizeof comparators))
        status = p->far_object = find_or_add_object(p, comparators);
    for (size_t i = 0; i < n && status >= -1; i++) {
        p->sorts[i] = algos[i].sort;
        p->object_of[i] = -1;
        const char *path = NULL;
        if (reload && !qsb_plugins_object(plugins, algos[i].sort, &path, &symbol))
            path = object_of_function((const void *)algos[i].sort, &symbol);
        if (!path)
            continue;
        status = find_or_add_object(p, path);
        p->object_of[i] = status >= 0 ? status : -1;
        if (status >= 0 && !(p->symbol_of[i] = strdup(symbol)))
            status = -2;
    }
    if (status < -1) {
        qsb_placement_free(p);
        return NULL;
    }
    return p;
}

static void unload_copies(qsb_placement *p)
{
    for (size_t i = 0; i < p->nobjects; i++)
        if (p->objects[i].handle) {
            dlclose(p->objects[i].handle);
            p->objects[i].handle = NULL;
        }
}

#define MAX_BLOCKERS 256
#define HOLE_LIMIT (UINT64_C(1) << 36) /* larger holes are the free space below the mappings */

typedef struct {
    void *at[MAX_BLOCKERS];
    size_t len[MAX_BLOCKERS];
    size_t n;
} blockers;

/* Reserves every hole between two mappings of the shared-object area (from /proc/self/maps),
** so that the next mappings go below the lowest one, where the random gap decides. */
static void fill_holes(blockers *b)
{
    FILE *maps = fopen("/proc/self/maps", "r");
    unsigned long long start, end, previous_end = 0;
    char line[512];
    b->n = 0;
    while (maps && fgets(line, sizeof line, maps) && b->n < MAX_BLOCKERS) {
        if (sscanf(line, "%llx-%llx", &start, &end) != 2)
            continue;
        if (previous_end && start > previous_end && start - previous_end < HOLE_LIMIT) {
            size_t len = (size_t)(start - previous_end);
            void *want = (void *)(uintptr_t)previous_end;
            void *got = mmap(want, len, PROT_NONE,
                             MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE | MAP_FIXED_NOREPLACE,
                             -1, 0);
            if (got == want) {
                b->at[b->n] = got;
                b->len[b->n++] = len;
            } else if (got != MAP_FAILED) {
                munmap(got, len);
            }
        }
        previous_end = end;
    }
    if (maps)
        fclose(maps);
}

static void release_holes(blockers *b)
{
    for (size_t i = 0; i < b->n; i++)
        munmap(b->at[i], b->len[i]);
    b->n = 0;
}

/* One copy, loaded below a gap of random size: with the holes above filled for the duration
** of the load, the kernel maps the gap below the lowest mapping and the object below it. */
static int load_copy(qsb_placement *p, object_copy *o)
{
    size_t page = (size_t)sysconf(_SC_PAGESIZE);
    size_t gap = (size_t)(next_random(&p->rng) % GAP_PAGES + 1) * page;
    blockers holes;
    fill_holes(&holes);
    void *reserved = mmap(NULL, gap, PROT_NONE, MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE,
                          -1, 0);
    char path[64];
    snprintf(path, sizeof path, "/proc/self/fd/%d", o->memfd);
    o->handle = dlopen(path, RTLD_NOW | RTLD_LOCAL);
    if (reserved != MAP_FAILED)
        munmap(reserved, gap);
    release_holes(&holes);
    if (!o->handle)
        return qsb_error(QSB_ESYSTEM, "cannot load a copy of '%s': %s", o->path, dlerror());
    return QSB_OK;
}

static bool any_near(const qsb_placement *p)
{
    for (size_t i = 0; i < p->n; i++)
        if (qsb_placement_near(p, i, sizeof(uint32_t)))
            return true;
    return false;
}

/* The far regime's comparator: the current copy of libqsb_comparators.so, loaded again (at
** another random gap) while it shares a 16 MiB region with a sort, so that every sort calls
** it from afar, as a libc's qsort calls its caller's comparator. Its own address is sampled
** unit by unit too: a process's comparator address decided a sticky fast or slow state. */
static int place_far_comparator(qsb_placement *p)
{
    object_copy *o = &p->objects[p->far_object];
    for (int attempt = 0;; attempt++) {
        void *fn = dlsym(o->handle, "qsb_far_comparator");
        if (!fn)
            return qsb_error(QSB_ESYSTEM, "a copy of '%s' has no comparator", o->path);
        memcpy(&p->far_getter, &fn, sizeof fn);
        if (!any_near(p) || attempt == FAR_ATTEMPTS)
            return QSB_OK;
        dlclose(o->handle);
        int status = load_copy(p, o);
        if (status != QSB_OK)
            return status;
    }
}

/* Does a unit need a copy of object k: a measured algorithm's sort, or a comparator? */
static bool object_needed(const qsb_placement *p, size_t k)
{
    if ((int)k == p->near_object || (int)k == p->far_object)
        return true;
    for (size_t i = 0; i < p->n; i++)
        if (p->object_of[i] == (int)k)
            return true;
    return false;
}

void qsb_placement_skip(qsb_placement *p, size_t i)
{
    p->object_of[i] = -1;
}

int qsb_placement_enter(qsb_placement *p)
{
    unload_copies(p);
    int status = QSB_OK;
    for (size_t i = 0; i < p->nobjects && status == QSB_OK; i++)
        if (object_needed(p, i))
            status = load_copy(p, &p->objects[i]);
    for (size_t i = 0; i < p->n && status == QSB_OK; i++) {
        if (p->object_of[i] < 0) {
            p->sorts[i] = qsb_plugins_direct(p->plugins, p->algos[i].sort); /* loaded by now */
            continue;
        }
        void *fn = dlsym(p->objects[p->object_of[i]].handle, p->symbol_of[i]);
        if (!fn)
            status = qsb_error(QSB_ESYSTEM, "a copy of '%s' has no '%s'",
                               p->objects[p->object_of[i]].path, p->symbol_of[i]);
        else
            memcpy(&p->sorts[i], &fn, sizeof fn); /* POSIX: object and function pointers */
    }
    if (status == QSB_OK && p->near_object >= 0) {
        void *fn = dlsym(p->objects[p->near_object].handle, "qsb_near_comparator");
        if (fn)
            memcpy(&p->near_getter, &fn, sizeof fn);
    }
    if (status == QSB_OK && p->far_object >= 0)
        status = place_far_comparator(p);
    return status == QSB_OK ? 0 : -1;
}

qsb_sort_fn qsb_placement_sort(const qsb_placement *p, size_t i)
{
    return p->sorts[i];
}

qsb_compare qsb_placement_comparator(const qsb_placement *p, size_t size)
{
    if (p->regime == QSB_PLACEMENT_NEAR)
        return p->near_getter(size);
    return p->far_object >= 0 ? p->far_getter(size) : qsb_comparator(size);
}

/* Where algorithm i's comparator calls come from: its sort's code, or for `system` (a thin
** wrapper around it) libc's qsort_r. */
static uintptr_t call_site(const qsb_placement *p, size_t i)
{
    const qsb_algorithm *system = qsb_algorithm_find("system");
    if (system && p->algos[i].sort == system->sort)
        return (uintptr_t)qsort_r;
    return (uintptr_t)p->sorts[i];
}

bool qsb_placement_near(const qsb_placement *p, size_t i, size_t size)
{
    uintptr_t cmp = (uintptr_t)qsb_placement_comparator(p, size);
    return (call_site(p, i) >> REGION_SHIFT) == (cmp >> REGION_SHIFT);
}

void qsb_placement_describe(const qsb_placement *p, char *buf, size_t len)
{
    size_t reloaded = 0;
    for (size_t i = 0; i < p->n; i++)
        reloaded += p->object_of[i] >= 0;
    snprintf(buf, len, "%s: comparator %s; %zu of %zu sorts loaded afresh at a random offset "
             "for each unit",
             regime_name(p->regime),
             p->regime == QSB_PLACEMENT_NEAR ? "in the sorts' object"
             : p->far_object >= 0
                 ? "in its own shared object, loaded afresh for each unit, never in a sort's "
                   "16 MiB region"
                 : "in the executable, the sorts in shared objects",
             reloaded, p->n);
}

void qsb_placement_free(qsb_placement *p)
{
    if (!p)
        return;
    unload_copies(p);
    for (size_t i = 0; i < p->nobjects; i++) {
        close(p->objects[i].memfd);
        free(p->objects[i].path);
    }
    for (size_t i = 0; p->symbol_of && i < p->n; i++)
        free(p->symbol_of[i]);
    free(p->symbol_of);
    free(p->object_of);
    free(p->sorts);
    free(p);
}
