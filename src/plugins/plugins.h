/*
** Algorithms from outside the registry: `--algos` entries naming a function in a shared
** object, so that a libc developer can benchmark builds of their own qsort in one run.
**
**   [NAME=]PATH:SYMBOL          SYMBOL has qsort_r's signature (glibc/POSIX.1-2024 order)
**   [NAME=]PATH:SYMBOL:qsort    SYMBOL has qsort's signature (no comparator argument)
**
** NAME defaults to SYMBOL; it may use [A-Za-z0-9_.+-] and must not be a registry name. PATH
** is split at the last ':' before SYMBOL; a PATH without '/' that names a file in the current
** directory is loaded from there (dlopen alone would search only the library path).
**
** A plug-in's code (its library's constructors included) runs only in processes that sort: a
** run's worker processes or its one-process measuring child, the audit's probe children,
** and the throw-away child that checks an entry when it is resolved. The process that owns
** the run's or the audit's files never loads it. Resolving an entry loads the library
** (dlopen(RTLD_NOW | RTLD_LOCAL)) in that checking child and checks that SYMBOL names a
** function; a missing file, symbol or dependency, data, or a constructor that crashes, exits
** or hangs, is a usage error (QSB_EUSAGE, exit 2) carrying dlerror()'s text. The entry's
** sort is then one of this file's entry points, which call the plug-in once a sorting
** process has loaded it (qsb_plugins_load(), or at its first call).
**
** A set of plug-ins is a handle (qsb_plugins) with one owner: the run's command or the audit
** (audit_run.h) creates it, resolves its --algos entries through it, hands it to the run
** (runner.h) or the audit's probes, which load it in the processes that sort, and frees it last,
** after every algorithm it resolved (their names and summaries are the set's). The one state
** outside the handle is the binding of the entry points to the set that resolved them: a sort
** function is a bare pointer, with no room for "which plug-in", so each set claims entry points
** when it resolves an entry and gives them back when it is freed.
**
** qsort-signature functions cannot receive the comparator's argument (the counter of the
** comparisons metric, for one), so each is called through an adapter: a thread-local record
** holds the real comparator and its argument while the plug-in runs, and the plug-in is given
** a two-argument trampoline that forwards to it. The adapter saves and restores the record, so
** a comparator that sorts again is safe. The trampoline costs one indirect call per
** comparison, which the timings include.
**
** Plug-ins declare nothing (QSB_PROP_UNKNOWN); `audit` measures them like any other algorithm.
*/
#ifndef QSB_PLUGINS_H
#define QSB_PLUGINS_H

#include <stdbool.h>

#include "registry.h"

#define QSB_PLUGIN_MAX 32        /* plug-in entries per process, over all its sets */
#define QSB_PLUGIN_QSORT_MAX 8   /* of which with qsort's signature, per set */

/* A set of resolved plug-ins: created empty, freed by its creator. */
typedef struct qsb_plugins qsb_plugins;

/* An empty set; NULL (reported, QSB_ESYSTEM) when out of memory. */
qsb_plugins *qsb_plugins_new(void);

/* Unloads every plug-in of the set and frees it: no algorithm it resolved may be used after.
** NULL: nothing. */
void qsb_plugins_free(qsb_plugins *set);


/* Resolves one --algos entry: a registry name (the table's entry is copied) or a plug-in spec
** (checked in a child, not loaded here) added to set; a NULL set accepts registry names only.
** Reports and returns QSB_EUSAGE (unknown name, bad spec, load failure) or QSB_ESYSTEM (out
** of memory). */
int qsb_plugins_resolve(qsb_plugins *set, const char *entry, qsb_algorithm *out);

/* Loads every plug-in of the set into this process, which must be one that sorts (above):
** the libraries' constructors run now, not inside a measured sort. Returns QSB_OK, or
** QSB_EUSAGE (reported) when a library can no longer be loaded. A NULL set: nothing. */
int qsb_plugins_load(qsb_plugins *set);

/* The same for the one plug-in of the set behind this entry point (nothing for any other
** sort). */
int qsb_plugins_load_one(qsb_plugins *set, qsb_sort_fn sort);

/* Is this sort one of the set's plug-ins? False for a NULL set. */
bool qsb_plugins_has(const qsb_plugins *set, qsb_sort_fn sort);

/* How many of these algorithms are plug-ins of the set. */
unsigned qsb_plugins_among(const qsb_plugins *set, const qsb_algorithm *algos, size_t n);

/* For a plug-in of the set with qsort_r's signature: the path its library is loaded from and
** its symbol (valid while the set lives), for loading copies of it (placement.h). False for
** anything else. */
bool qsb_plugins_object(const qsb_plugins *set, qsb_sort_fn sort, const char **path,
                        const char **symbol);

/* The files the set's libraries are loaded from, for the outputs' check that none replaces
** one: those named by a path (with a '/'; dlopen finds the others on the library path) into
** paths (valid while the set lives), in the order resolved. Returns their number; 0 for a
** NULL set. */
size_t qsb_plugins_libraries(const qsb_plugins *set, const char *paths[QSB_PLUGIN_MAX]);

/* The plug-in's own function behind an entry point of qsort_r's signature once it is loaded
** here (no call through the entry point while timed); anything else as it is. */
qsb_sort_fn qsb_plugins_direct(const qsb_plugins *set, qsb_sort_fn sort);

#endif
