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
** qsort-signature functions cannot receive the comparator's argument (the counter of the
** comparisons metric, for one), so each is called through an adapter: a thread-local record
** holds the real comparator and its argument while the plug-in runs, and the plug-in is given
** a two-argument trampoline that forwards to it. The adapter saves and restores the record, so
** a comparator that sorts again is safe. The trampoline costs one indirect call per
** comparison, which the timings include.
**
** Plug-ins declare nothing (QSB_PROP_UNKNOWN); `audit` measures them like any other algorithm.
*/
#ifndef QSB_PLUGIN_H
#define QSB_PLUGIN_H

#include <stdbool.h>

#include "registry.h"

#define QSB_PLUGIN_MAX 32        /* plug-in entries per process */
#define QSB_PLUGIN_QSORT_MAX 8   /* of which with qsort's signature */

/* Does this --algos entry name a plug-in (it has a ':'; registry names never do)? */
bool qsb_is_plugin_spec(const char *entry);

/* Resolves one --algos entry: a registry name (the table's entry is copied) or a plug-in spec
** (checked in a child, not loaded here). A plug-in's strings stay valid until
** qsb_plugins_unload(). Reports and returns QSB_EUSAGE (unknown name, bad spec, load failure)
** or QSB_ESYSTEM (out of memory). */
int qsb_resolve_algorithm(const char *entry, qsb_algorithm *out);

/* Loads every resolved plug-in into this process, which must be one that sorts (above): the
** libraries' constructors run now, not inside a measured sort. Returns QSB_OK, or QSB_EUSAGE
** (reported) when a library can no longer be loaded. */
int qsb_plugins_load(void);

/* The same for the one plug-in behind this entry point (nothing for any other sort). */
int qsb_plugin_load(qsb_sort_fn sort);

/* For a plug-in of qsort_r's signature: the path its library is loaded from and its symbol
** (valid until qsb_plugins_unload()), for loading copies of it (placement.h). False for
** anything else. */
bool qsb_plugin_object(qsb_sort_fn sort, const char **path, const char **symbol);

/* Is this sort one of the plug-ins' entry points? */
bool qsb_is_plugin_sort(qsb_sort_fn sort);
/* The file a plug-in's library is loaded from when it is named by a path (it has a '/'), for
** the outputs' check that none replaces it; NULL for a registry entry, or a library that
** dlopen finds on the library path. */
const char *qsb_plugin_library(qsb_sort_fn sort);

/* The plug-in's own function behind an entry point of qsort_r's signature once it is loaded
** here (no call through the entry point while timed); anything else as it is. */
qsb_sort_fn qsb_plugin_direct(qsb_sort_fn sort);

/* Unloads every plug-in and frees their strings: no entry resolved before may be used after. */
void qsb_plugins_unload(void);

#endif
