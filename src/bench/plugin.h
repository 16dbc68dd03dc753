/*
** Algorithms from outside the registry: `--algos` entries naming a function in a shared
** object, so that a libc developer can benchmark builds of their own qsort in one run.
**
**   [NAME=]PATH:SYMBOL          SYMBOL has qsort_r's signature (glibc/POSIX.1-2024 order)
**   [NAME=]PATH:SYMBOL:qsort    SYMBOL has qsort's signature (no comparator argument)
**
** NAME defaults to SYMBOL; it may use [A-Za-z0-9_.+-] and must not be a registry name. PATH
** is split at the last ':' before SYMBOL; a PATH without '/' that names a file in the current
** directory is loaded from there (dlopen alone would search only the library path). The
** object is loaded with dlopen(RTLD_NOW | RTLD_LOCAL): missing file, symbol or dependency is a
** usage error (QSB_EUSAGE, exit 2) carrying dlerror()'s text.
**
** qsort-signature functions cannot receive the comparator's argument (the counter of the
** comparisons metric, for one), so each is called through an adapter: a thread-local record
** holds the real comparator and its argument while the plug-in runs, and the plug-in is given
** a two-argument trampoline that forwards to it. The adapter saves and restores the record, so
** a comparator that sorts again is safe. A sort function is a bare pointer, with no room for
** "which plug-in": there is one adapter function per slot, QSB_PLUGIN_QSORT_MAX in all. The
** trampoline costs one indirect call per comparison, which the timings include.
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
** (loaded). A plug-in's strings stay valid until qsb_plugins_unload(). Reports and returns
** QSB_EUSAGE (unknown name, bad spec, load failure) or QSB_ESYSTEM (out of memory). */
int qsb_resolve_algorithm(const char *entry, qsb_algorithm *out);

/* Unloads every plug-in and frees their strings: no entry resolved before may be used after. */
void qsb_plugins_unload(void);

#endif
