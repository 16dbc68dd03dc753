/*
** Processes that run plug-in code are the tool's to end. Plug-in code may fork children that
** outlive the process that loaded it (a daemon, a `sleep` in the background); they would hold
** the tool's pipes open (`qsortbench ... --csv - | wc -l` waiting for them) and run on after
** the tool. So every process that loads plug-in code (the check of an entry, a run's worker
** or measuring process, the audit's probe children) is started with qsb_group_fork(): it
** leads a process group of its own, and the tool is a subreaper, so that orphans of the group
** (a child that called setsid() too) are reparented to it. When such a process has ended,
** qsb_group_end() kills whatever of it is left, waits until it is gone, and names it.
*/
#ifndef QSB_PROCESS_GROUP_H
#define QSB_PROCESS_GROUP_H

#include <sys/types.h>

/* fork(), the child leading a new process group (set by both sides: no race with a kill of
** the group) and ended by SIGKILL should this process die first; this process becomes a
** subreaper first. Returns as fork() does. */
pid_t qsb_group_fork(void);

/* After the group's leader `leader` ended (its zombie not yet reaped, so its pid cannot be
** taken by another process): kills every process left in its group, and every process
** reparented to this one but the leader, waits for them to end, and when there were any
** names them in one warning: "<who> left 2 processes running (pid 123 'sleep', ...); they
** were killed". Returns how many there were. */
size_t qsb_group_end(pid_t leader, const char *who);

#endif
