/*
** Plug-in algorithms loaded with dlopen, held by their set (see plugins.h), and the resolution
** of every --algos entry, registry or plug-in, into one qsb_algorithm the run and the audit
** treat alike.
*/
#include "plugins.h"

#include <dlfcn.h>
#include <elf.h>
#include <errno.h>
#include <link.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include "child.h"
#include "diag.h"

#define LOAD_DEADLINE_S 10.0 /* a library's constructors get this long in the checking child */
#define PROBE_MESSAGE_BYTES 512

#define NAME_MAX_LEN 64

typedef void (*qsort_fn)(void *base, size_t n, size_t size,
                         int (*cmp)(const void *, const void *));

/* A plug-in as the run knows it: name, where it is, and, only in a process that sorts, its
** library and function (plugins.h: loaded there, never where the run's files are owned). */
typedef struct {
    void *handle;         /* NULL until loaded in this process */
    void *symbol;         /* the function, once loaded */
    char *name;
    char *summary;
    char *path;           /* as dlopen is given it */
    char *symbol_name;
    bool qsort_signature; /* called through the qsort adapter */
    size_t entry;         /* the entry point it is called through (bound[entry] is it) */
} plugin;

struct qsb_plugins {
    plugin items[QSB_PLUGIN_MAX];
    size_t count;
    size_t qsort_count; /* of which with qsort's signature */
};

/* Which plug-in each entry point calls: the one piece of state outside the sets, since a
** sort function carries no context (plugins.h). NULL: free to claim. */
static plugin *bound[QSB_PLUGIN_MAX];

/* ---- the qsort-signature adapters ---- */

/* The comparator of the qsort-signature sort running on this thread. */
typedef struct {
    qsb_compare cmp;
    void *arg;
} comparator_record;

static _Thread_local comparator_record current;

static int trampoline(const void *a, const void *b)
{
    return current.cmp(a, b, current.arg);
}

static void call_qsort_plugin(qsort_fn sort, void *base, size_t n, size_t size, qsb_compare cmp,
                              void *arg)
{
    comparator_record saved = current;
    current.cmp = cmp;
    current.arg = arg;
    sort(base, n, size, trampoline);
    current = saved;
}

static int bind_plugin(plugin *p);

/* What every plug-in's entry point does: load the plug-in here when this process has not
** yet (qsb_plugins_load() does it before any measurement), then call it. */
static void call_plugin(size_t i, void *base, size_t n, size_t size, qsb_compare cmp,
                        void *arg)
{
    plugin *p = bound[i];
    if (!p || (!p->symbol && bind_plugin(p) != QSB_OK))
        abort(); /* its set is freed, or its library is gone since its check: no sort */
    if (!p->qsort_signature) {
        qsb_sort_fn sort;
        memcpy(&sort, &p->symbol, sizeof sort); /* POSIX: object and function pointers */
        sort(base, n, size, cmp, arg);
        return;
    }
    qsort_fn sort;
    memcpy(&sort, &p->symbol, sizeof sort);
    call_qsort_plugin(sort, base, n, size, cmp, arg);
}

/* A sort function is a bare pointer, with no room for "which plug-in": one entry point per
** slot. */
#define ENTRY(i)                                                                          \
    static void plugin_entry_##i(void *base, size_t n, size_t size, qsb_compare cmp,       \
                                 void *arg)                                               \
    {                                                                                     \
        call_plugin(i, base, n, size, cmp, arg);                                          \
    }
#define ENTRIES(X) X(0) X(1) X(2) X(3) X(4) X(5) X(6) X(7) X(8) X(9) X(10) X(11) X(12)    \
    X(13) X(14) X(15) X(16) X(17) X(18) X(19) X(20) X(21) X(22) X(23) X(24) X(25) X(26)   \
    X(27) X(28) X(29) X(30) X(31)
ENTRIES(ENTRY)
#define ENTRY_NAME(i) plugin_entry_##i,
static const qsb_sort_fn plugin_entries[QSB_PLUGIN_MAX] = {ENTRIES(ENTRY_NAME)};

/* ---- parsing an entry ---- */

typedef struct {
    char *name;    /* points into text */
    char *path;
    char *symbol;
    bool qsort_signature;
    char *text;    /* the malloc'd copy everything points into */
} plugin_spec;

static bool valid_name(const char *s)
{
    size_t len = strlen(s);
    return len > 0 && len <= NAME_MAX_LEN &&
           strspn(s, "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_.+-") ==
               len;
}

static bool valid_symbol(const char *s)
{
    size_t len = strlen(s);
    return len > 0 && !(s[0] >= '0' && s[0] <= '9') &&
           strspn(s, "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_") == len;
}

static int bad_spec(const char *entry, const char *why)
{
    return qsb_usage_error("--algos: plug-in '%s': %s (expected [NAME=]PATH.so:SYMBOL or "
                           "[NAME=]PATH.so:SYMBOL:qsort)", qsb_quote_path(entry), why);
}

static int parse_spec(const char *entry, plugin_spec *spec)
{
    memset(spec, 0, sizeof *spec);
    spec->text = strdup(entry);
    if (!spec->text)
        return qsb_out_of_memory("--algos");
    char *rest = spec->text;
    char *eq = strchr(rest, '=');
    if (eq && !memchr(rest, '/', (size_t)(eq - rest)) && !memchr(rest, ':', (size_t)(eq - rest))) {
        *eq = '\0';
        spec->name = rest;
        rest = eq + 1;
    }
    char *colon = strrchr(rest, ':');
    if (colon && strcmp(colon, ":qsort") == 0 && memchr(rest, ':', (size_t)(colon - rest))) {
        spec->qsort_signature = true;
        *colon = '\0';
        colon = strrchr(rest, ':');
    }
    if (!colon || colon == rest)
        return bad_spec(entry, "no PATH:SYMBOL");
    *colon = '\0';
    spec->path = rest;
    spec->symbol = colon + 1;
    if (!valid_symbol(spec->symbol))
        return bad_spec(entry, "SYMBOL must be a C identifier");
    if (!spec->name)
        spec->name = spec->symbol;
    if (!valid_name(spec->name))
        return bad_spec(entry, "NAME must be 1 to 64 of [A-Za-z0-9_.+-]");
    if (qsb_algorithm_find(spec->name))
        return bad_spec(entry, "NAME is a registry algorithm; choose another with NAME=");
    return QSB_OK;
}

/* ---- loading ---- */

/* dlopen searches the library path for a name without '/': prefer a file right here. */
static char *load_path(const char *path)
{
    if (strchr(path, '/') || access(path, F_OK) != 0)
        return strdup(path);
    char *local = malloc(strlen(path) + 3);
    if (local)
        sprintf(local, "./%s", path);
    return local;
}

/* Is the symbol at addr a function (or a GNU indirect function)? A symbol the dynamic
** linker cannot describe is taken as one. */
static bool names_function(void *addr)
{
    Dl_info info;
    const ElfW(Sym) *sym = NULL;
    if (!dladdr1(addr, &info, (void **)&sym, RTLD_DL_SYMENT) || !sym)
        return true;
    int type = ELF64_ST_TYPE(sym->st_info);
    return type == STT_FUNC || type == STT_GNU_IFUNC;
}

/* In the checking child: load, look up, check; "ok" or what is wrong into msg. */
static void probe(const char *path, const char *symbol, char *msg, size_t len)
{
    void *handle = dlopen(path, RTLD_NOW | RTLD_LOCAL);
    if (!handle) {
        snprintf(msg, len, "cannot load it: %s", dlerror());
        return;
    }
    dlerror();
    void *sym = dlsym(handle, symbol);
    const char *err = dlerror();
    if (err || !sym)
        snprintf(msg, len, "%s", err ? err : "the symbol's address is NULL");
    else if (!names_function(sym))
        snprintf(msg, len, "%s is not a function (it names data)", symbol);
    else
        snprintf(msg, len, "ok");
}

/* The library loaded and the symbol checked to be a function in a child first, so that a
** library whose constructor crashes, exits or hangs, or a symbol that names data (called, it
** would crash), is a usage error and never takes the run with it. The child answers in
** shared memory, which a constructor that closes descriptors cannot take away, and its
** standard output is set aside (child.h). */
typedef struct {
    const char *entry, *path, *symbol;
    char *answer; /* shared with the parent */
} check;

/* In the child. */
static int check_here(void *arg)
{
    const check *c = arg;
    char msg[PROBE_MESSAGE_BYTES], who[QSB_QUOTE_PATH_MAX + 32];
    qsb_stdout_divert divert = {-1, -1};
    qsb_stdout_divert_begin(&divert);
    probe(c->path, c->symbol, msg, sizeof msg);
    snprintf(who, sizeof who, "plug-in '%s' (loaded to check it)", qsb_quote_path(c->entry));
    qsb_stdout_divert_end(&divert, who);
    snprintf(c->answer, PROBE_MESSAGE_BYTES, "%s", msg);
    return 0;
}

static int check_in_child(const char *entry, const char *path, const char *symbol)
{
    char *answer = mmap(NULL, PROBE_MESSAGE_BYTES, PROT_READ | PROT_WRITE,
                        MAP_SHARED | MAP_ANONYMOUS, -1, 0);
    if (answer == MAP_FAILED)
        return qsb_error(QSB_ESYSTEM, "cannot check plug-in '%s': %s", qsb_quote_path(entry),
                         strerror(errno));
    answer[0] = '\0';
    check c = {entry, path, symbol, answer};
    pid_t pid = qsb_child_fork(check_here, &c);
    char who[QSB_QUOTE_PATH_MAX + 32], cause[64];
    bool timed_out;
    snprintf(who, sizeof who, "plug-in '%s' (its check)", qsb_quote_path(entry));
    int status = pid < 0 ? qsb_error(QSB_ESYSTEM, "cannot check plug-in '%s': cannot fork",
                                     qsb_quote_path(entry))
                 : qsb_child_wait(pid, LOAD_DEADLINE_S, who, &timed_out, cause, sizeof cause) ==
                         -1
                     ? qsb_error(QSB_ESYSTEM, "cannot wait for the check of plug-in '%s': %s",
                                 qsb_quote_path(entry), strerror(errno))
                     : QSB_OK;
    char msg[PROBE_MESSAGE_BYTES] = "";
    if (status == QSB_OK)
        snprintf(msg, sizeof msg, "%s", answer);
    munmap(answer, PROBE_MESSAGE_BYTES);
    if (status != QSB_OK || strcmp(msg, "ok") == 0)
        return status;
    if (msg[0])
        return qsb_error(QSB_EUSAGE, "--algos: plug-in '%s': %s", qsb_quote_path(entry),
                         qsb_quote_path(msg));
    return qsb_error(QSB_EUSAGE, "--algos: plug-in '%s': loading its library %s",
                     qsb_quote_path(entry), cause);
}

/* Loads the plug-in in this process: its constructors run here. Reports failures. */
static int bind_plugin(plugin *p)
{
    if (p->symbol)
        return QSB_OK;
    p->handle = dlopen(p->path, RTLD_NOW | RTLD_LOCAL);
    if (!p->handle)
        return qsb_error(QSB_EUSAGE, "--algos: cannot load plug-in '%s': %s",
                         qsb_quote_path(p->name), qsb_quote_path(dlerror())); /* names the path */
    dlerror(); /* a NULL symbol is legal: only dlerror() tells a failure */
    void *sym = dlsym(p->handle, p->symbol_name);
    const char *err = dlerror();
    if (err || !sym) {
        int status = qsb_error(QSB_EUSAGE, "--algos: plug-in '%s': %s", qsb_quote_path(p->name),
                               err ? qsb_quote_path(err) : "the symbol's address is NULL");
        dlclose(p->handle);
        p->handle = NULL;
        return status;
    }
    p->symbol = sym;
    return QSB_OK;
}

static void plugin_free(plugin *p)
{
    if (p->handle)
        dlclose(p->handle);
    free(p->name);
    free(p->summary);
    free(p->path);
    free(p->symbol_name);
    memset(p, 0, sizeof *p);
}

/* The plug-in's record: what resolution needs (name, summary, where), nothing loaded. */
static int describe_plugin(qsb_plugins *set, const char *entry, const plugin_spec *spec,
                           char *path, plugin *p)
{
    if (spec->qsort_signature && set->qsort_count == QSB_PLUGIN_QSORT_MAX)
        return qsb_usage_error("--algos: plug-in '%s': at most %d plug-ins with qsort's "
                               "signature", qsb_quote_path(entry), QSB_PLUGIN_QSORT_MAX);
    size_t len = strlen(spec->path) + strlen(spec->symbol) + 48;
    p->path = path;
    p->name = strdup(spec->name);
    p->symbol_name = strdup(spec->symbol);
    p->summary = malloc(len);
    if (!p->name || !p->symbol_name || !p->summary)
        return qsb_out_of_memory("--algos");
    snprintf(p->summary, len, "plug-in %s:%s%s", spec->path, spec->symbol,
             spec->qsort_signature ? " (qsort signature)" : "");
    p->qsort_signature = spec->qsort_signature;
    set->qsort_count += spec->qsort_signature;
    return QSB_OK;
}

/* An entry point no set has claimed, or QSB_PLUGIN_MAX. */
static size_t free_entry(void)
{
    size_t i = 0;
    while (i < QSB_PLUGIN_MAX && bound[i])
        i++;
    return i;
}

/* Checked in a child (its library loaded there, its symbol a function); this process only
** records where it is: its code runs in the processes that sort (plugins.h). */
static int add_plugin(qsb_plugins *set, const char *entry, qsb_algorithm *out)
{
    size_t slot = free_entry();
    if (set->count == QSB_PLUGIN_MAX || slot == QSB_PLUGIN_MAX)
        return qsb_usage_error("--algos: at most %d plug-ins", QSB_PLUGIN_MAX);
    plugin_spec spec;
    plugin *p = &set->items[set->count];
    int status = parse_spec(entry, &spec);
    char *path = status == QSB_OK ? load_path(spec.path) : NULL;
    if (status == QSB_OK && !path)
        status = qsb_out_of_memory("--algos");
    if (status == QSB_OK)
        status = check_in_child(entry, path, spec.symbol);
    if (status == QSB_OK)
        status = describe_plugin(set, entry, &spec, path, p);
    else
        free(path);
    free(spec.text);
    if (status != QSB_OK) {
        plugin_free(p);
        return status;
    }
    p->entry = slot;
    bound[slot] = p;
    set->count++;
    out->sort = plugin_entries[slot];
    out->name = p->name;
    out->summary = p->summary;
    out->properties = QSB_PROP_UNKNOWN;
    out->origin = "plug-in";
    out->min_size = 0;
    return QSB_OK;
}

/* ---- the public entry points ---- */

qsb_plugins *qsb_plugins_new(void)
{
    qsb_plugins *set = calloc(1, sizeof *set);
    if (!set)
        qsb_out_of_memory("plug-ins");
    return set;
}

void qsb_plugins_free(qsb_plugins *set)
{
    if (!set)
        return;
    for (size_t i = 0; i < set->count; i++) {
        bound[set->items[i].entry] = NULL;
        plugin_free(&set->items[i]);
    }
    free(set);
}

/* Does this --algos entry name a plug-in (it has a ':'; registry names never do)? */
static bool is_plugin_spec(const char *entry)
{
    return strchr(entry, ':') != NULL;
}

static int unknown_algorithm(const char *entry)
{
    char valid[1024];
    size_t used = 0;
    valid[0] = '\0';
    for (size_t i = 0; i < qsb_algorithm_count && used < sizeof valid; i++) {
        int n = snprintf(valid + used, sizeof valid - used, "%s%s", i ? ", " : "",
                         qsb_algorithms[i].name);
        used += n > 0 ? (size_t)n : 0;
    }
    return qsb_usage_error("--algos: unknown algorithm '%s' (valid: %s; or a plug-in "
                           "[NAME=]PATH.so:SYMBOL)", qsb_quote_path(entry), valid);
}

int qsb_plugins_resolve(qsb_plugins *set, const char *entry, qsb_algorithm *out)
{
    if (is_plugin_spec(entry) && !set)
        return qsb_usage_error("--algos: '%s': plug-ins are not accepted here",
                               qsb_quote_path(entry));
    if (is_plugin_spec(entry))
        return add_plugin(set, entry, out);
    const qsb_algorithm *a = qsb_algorithm_find(entry);
    if (!a)
        return unknown_algorithm(entry);
    *out = *a;
    return QSB_OK;
}

int qsb_plugins_load(qsb_plugins *set)
{
    int status = QSB_OK;
    for (size_t i = 0; set && i < set->count && status == QSB_OK; i++)
        status = bind_plugin(&set->items[i]);
    return status;
}

/* The set's plug-in behind one of the entry points, or NULL. */
static plugin *plugin_of(const qsb_plugins *set, qsb_sort_fn sort)
{
    for (size_t i = 0; set && i < set->count; i++)
        if (plugin_entries[set->items[i].entry] == sort)
            return bound[set->items[i].entry];
    return NULL;
}

int qsb_plugins_load_one(qsb_plugins *set, qsb_sort_fn sort)
{
    plugin *p = plugin_of(set, sort);
    return p ? bind_plugin(p) : QSB_OK;
}

bool qsb_plugins_has(const qsb_plugins *set, qsb_sort_fn sort)
{
    return plugin_of(set, sort) != NULL;
}

unsigned qsb_plugins_among(const qsb_plugins *set, const qsb_algorithm *algos, size_t n)
{
    unsigned count = 0;
    for (size_t i = 0; i < n; i++)
        count += qsb_plugins_has(set, algos[i].sort) ? 1 : 0;
    return count;
}

bool qsb_plugins_object(const qsb_plugins *set, qsb_sort_fn sort, const char **path,
                        const char **symbol)
{
    const plugin *p = plugin_of(set, sort);
    if (!p || p->qsort_signature)
        return false;
    *path = p->path;
    *symbol = p->symbol_name;
    return true;
}

size_t qsb_plugins_libraries(const qsb_plugins *set, const char *paths[QSB_PLUGIN_MAX])
{
    size_t n = 0;
    for (size_t i = 0; set && i < set->count; i++)
        if (strchr(set->items[i].path, '/'))
            paths[n++] = set->items[i].path;
    return n;
}

qsb_sort_fn qsb_plugins_direct(const qsb_plugins *set, qsb_sort_fn sort)
{
    const plugin *p = plugin_of(set, sort);
    if (!p || p->qsort_signature || !p->symbol)
        return sort;
    qsb_sort_fn direct;
    memcpy(&direct, &p->symbol, sizeof direct);
    return direct;
}
