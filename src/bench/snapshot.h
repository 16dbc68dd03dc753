/*
** The finished part of a one-process run, kept by the run's owner. The watched child that
** measures (runner.c) hands its owner, as cells finish, what it would write were it stopped
** then: the cells with their minimum of units, summarized, marked incomplete (run.h), as a
** JSON results document. When the child cannot write its files itself (a plug-in's sort that
** ignores the stop request and never returns is killed after the grace), the owner writes
** that, whatever the plug-in does with signals.
**
** Two slots in memfds, which a forked child shares, and a shared word naming the last one
** written whole: a child killed while it writes one leaves the other intact.
*/
#ifndef QSB_SNAPSHOT_H
#define QSB_SNAPSHOT_H

#include <stdbool.h>
#include <stddef.h>

#include "result.h"

typedef struct qsb_snapshot qsb_snapshot;

/* An empty one, or NULL (reported). */
qsb_snapshot *qsb_snapshot_create(void);
void qsb_snapshot_free(qsb_snapshot *s);

/* Before a child starts: nothing taken. */
void qsb_snapshot_clear(qsb_snapshot *s);

/* Is a snapshot due, with `kept` cells finished now and `shared` in the last one? Each one
** written is the whole finished part, so they are taken as the finished cells grow by an
** eighth (the first at once): the writing stays a small multiple of the last one's. */
bool qsb_snapshot_due(size_t shared, size_t kept);

/* In the child: finished becomes the last snapshot. Returns 0, or -1 (errno; reported by
** nobody: the run goes on, its owner keeps the previous one). */
int qsb_snapshot_take(qsb_snapshot *s, const qsb_results *finished);

/* In the owner, once the child has ended: was one taken? */
bool qsb_snapshot_taken(const qsb_snapshot *s);

/* The last one read into *out. QSB_OK or an error (reported). */
int qsb_snapshot_read(const qsb_snapshot *s, qsb_results *out);

#endif
