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
** were killed". Returns how many there were. Other groups started by qsb_group_fork and not
** yet ended (several running at once) are spared, their leaders and members alike; an orphan
** that left its group (setsid) cannot be told apart and goes with the first group to end. */
size_t qsb_group_end(pid_t leader, const char *who);

/* Waits for the group's leader pid (a child of this process from qsb_group_fork), killing it
** once deadline_s seconds have passed; then ends what it left running (qsb_group_end, naming
** who), reaps it and says how it ended into cause: "exited with status 3", "crashed: signal
** 11", "killed: signal 9", "timed out after 10 s". For a short-lived child with nothing to
** watch but the clock (a run's processes are watched by their steps, visit_record.h). Returns
** its wait status, or -1 (errno set) when it cannot wait. */
int qsb_group_wait(pid_t pid, double deadline_s, const char *who, char *cause, size_t len);

/* ---- standard output ----
** Plug-in code never writes into the tool's standard output (a CSV on `--csv -`): in every
** process that runs it, descriptor 1 is a private file from before its library is loaded
** until its sorts are done. What plug-in code wrote there is then copied to standard error
** after a one-line notice. */

typedef struct {
    int saved;   /* the process's own standard output, kept on a high descriptor; -1: none */
    int capture; /* what descriptor 1 is meanwhile */
} qsb_stdout_divert;

/* Points descriptor 1 at a private file (standard output flushed first). QSB_OK, or
** QSB_ESYSTEM (reported): descriptor 1 is then as it was. */
int qsb_stdout_divert_begin(qsb_stdout_divert *d);

/* Puts the process's standard output back (stdio flushed into the file first); when something
** was written meanwhile, says so in one warning naming who ("plug-in code in the measuring
** process") and copies it to standard error. */
void qsb_stdout_divert_end(qsb_stdout_divert *d, const char *who);

#endif
