/*
** Child processes, every one the tool starts: a program it runs (git, a build command, the
** tool itself, gnuplot) and the processes that run plug-in code.
**
** A program runs without a shell unless the caller asks for one, its standard input on
** /dev/null, its output captured or sent away, its wait status given back (qsb_child_run).
**
** Processes that run plug-in code are the tool's to end. Plug-in code may fork children that
** outlive the process that loaded it (a daemon, a `sleep` in the background); they would hold
** the tool's pipes open (`qsortbench ... --csv - | wc -l` waiting for them) and run on after
** the tool. So every process that loads plug-in code (the check of an entry, a run's worker
** or measuring process, the audit's probe children) is started with qsb_child_fork(): it
** leads a process group of its own, and the tool is a subreaper, so that orphans of the group
** (a child that called setsid() too) are reparented to it. When such a process has ended,
** qsb_group_end() kills whatever of it is left, waits until it is gone, and names it.
*/
#ifndef QSB_CHILD_H
#define QSB_CHILD_H

#include <stdbool.h>
#include <stddef.h>
#include <sys/types.h>

/* Where a program's standard output and error go. */
typedef enum {
    QSB_CHILD_QUIET,      /* both to /dev/null; captured: its output */
    QSB_CHILD_ERRORS,     /* output to /dev/null, errors kept (its messages); captured: its
                          ** errors, from their start */
    QSB_CHILD_LAST_ERRORS /* as QSB_CHILD_ERRORS, captured from their end (a program's own
                          ** message comes last) */
} qsb_child_output;

/* Runs argv (argv[0] looked up in PATH) in directory dir (NULL: here) with env_add (NULL, or
** "NAME=VALUE" entries ended by NULL) added to the environment, and waits for it. Without out,
** its standard output and error go where `output` says. With out, what `output` names as
** captured is read into it (at most len - 1 bytes, NUL-terminated, trailing newlines removed)
** while the other stream goes to /dev/null. Returns its wait status (waitpid's), or -1 when it
** could not be started, errno set (exec's own when the program could not be run). */
int qsb_child_run(const char *const *argv, const char *dir, const char *const *env_add,
                  char *out, size_t len, qsb_child_output output);

/* Forks a child that runs fn(arg) and ends with its return as exit status: a child that runs
** plug-in code, leading a new process group (set by both sides: no race with a kill of the
** group) and ended by SIGKILL should this process die first; this process becomes a
** subreaper first. Buffered output is flushed first, so that nothing is written twice.
** Returns the child's pid, or -1 (errno set). */
pid_t qsb_child_fork(int (*fn)(void *arg), void *arg);

/* After the group's leader `leader` ended (its zombie not yet reaped, so its pid cannot be
** taken by another process): kills every process left in its group, and every process
** reparented to this one but the leader, waits for them to end, and when there were any
** names them in one warning: "<who> left 2 processes running (pid 123 'sleep', ...); they
** were killed". Returns how many there were. Other groups started by qsb_child_fork and not
** yet ended (several running at once) are spared, their leaders and members alike; an orphan
** that left its group (setsid) cannot be told apart and goes with the first group to end. */
size_t qsb_group_end(pid_t leader, const char *who);

/* Waits for pid (a child of this process from qsb_child_fork), killing it once deadline_s
** seconds have passed (*timed_out then true); then ends what it left running (qsb_group_end,
** naming who), reaps it and, when cause is not NULL, says how it ended there: "exited with
** status 3", "crashed: signal 11", "killed: signal 9", "timed out after 10 s". For a
** short-lived child with nothing to watch but the clock (a run's processes are watched by
** their steps, visit_record.h). Returns its wait status, or -1 (errno set) when it cannot
** wait. */
int qsb_child_wait(pid_t pid, double deadline_s, const char *who, bool *timed_out, char *cause,
                   size_t len);

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
