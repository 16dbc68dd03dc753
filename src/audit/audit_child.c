/*
** The audit's child runner (see audit.h): a probe that may fault, hang, exit or longjmp out
** of a sort runs in a forked child; the parent classifies how it ended. A fault on a
** registered guard page ends the child with a reserved exit status, so "out of bounds" is
** told apart from any other crash. The child marks in shared memory that the probe returned,
** so a sort that calls exit() (any status, 0 included) is told apart from a probe that ended.
** The time limit is enforced by the parent (SIGKILL), so a sort that blocks or ignores
** signals still counts as a hang.
*/
#include "audit.h"

#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/wait.h>
#include <unistd.h>

#include "child.h"
#include "diag.h"

enum { EXIT_GUARD_BELOW = 100, EXIT_GUARD_ABOVE = 101 };

typedef struct {
    const char *start;
    size_t len;
} byte_range;

/* Set in the child only, read by its fault handler. */
static byte_range guard_below, guard_above;
typedef struct {
    uintptr_t address;
    int seen;   /* the handler ran */
    int code;   /* si_code: SI_KERNEL for an address the CPU refuses outright (non-canonical) */
    int returned; /* the probe function returned (the child did not exit from inside it) */
} fault_record;
static volatile fault_record *fault; /* shared with the parent */
static char alternate_stack[64 * 1024];

void qsb_child_set_guards(const void *below, size_t below_len, const void *above,
                          size_t above_len)
{
    guard_below = (byte_range){below, below ? below_len : 0};
    guard_above = (byte_range){above, above ? above_len : 0};
}

static int in_range(const byte_range *r, const char *address)
{
    return r->start && address >= r->start && address < r->start + r->len;
}

/* SA_RESETHAND: when the fault is not on a guard, returning re-runs the faulting access,
** which now kills the child with the original signal. */
static void on_fault(int sig, siginfo_t *info, void *context)
{
    (void)sig, (void)context;
    const char *address = info->si_addr;
    if (fault) {
        fault->address = (uintptr_t)address;
        fault->code = info->si_code;
        fault->seen = 1;
    }
    if (in_range(&guard_below, address))
        _exit(EXIT_GUARD_BELOW);
    if (in_range(&guard_above, address))
        _exit(EXIT_GUARD_ABOVE);
}

static void install_fault_handlers(void)
{
    /* Without an alternate stack a stack overflow simply kills the child. ASan installs one
    ** of its own: keep it. */
    stack_t current;
    if (sigaltstack(NULL, &current) == 0 && (current.ss_flags & SS_DISABLE)) {
        stack_t alt = {.ss_sp = alternate_stack, .ss_size = sizeof alternate_stack};
        sigaltstack(&alt, NULL);
    }
    struct sigaction sa;
    memset(&sa, 0, sizeof sa);
    sa.sa_sigaction = on_fault;
    sa.sa_flags = SA_SIGINFO | SA_ONSTACK | SA_RESETHAND;
    sigemptyset(&sa.sa_mask);
    sigaction(SIGSEGV, &sa, NULL);
    sigaction(SIGBUS, &sa, NULL);
}

typedef struct {
    qsb_plugins *plugins;
    int (*fn)(void *ctx);
    void *ctx;
    fault_record *fault;
} probe_child;

/* In the child: the plug-ins loaded, then the probe. */
static int probe_here(void *arg)
{
    const probe_child *p = arg;
    qsb_stdout_divert divert = {-1, -1}; /* the audit's table is not the plug-in's */
    qsb_stdout_divert_begin(&divert);
    fault = p->fault;
    install_fault_handlers();
    int code = qsb_plugins_load(p->plugins);
    if (code == 0)
        code = p->fn(p->ctx);
    p->fault->returned = 1;
    qsb_stdout_divert_end(&divert, "plug-in code in an audit probe");
    return code; /* then _exit: no atexit handlers, no leak check of a longjmp'd sort */
}

int qsb_run_in_child(qsb_plugins *plugins, int (*fn)(void *ctx), void *ctx, unsigned timeout_s,
                     qsb_child_outcome *out)
{
    fault_record *shared_fault = qsb_shared_alloc(sizeof *shared_fault);
    if (!shared_fault)
        return qsb_out_of_memory("child fault record");
    probe_child p = {plugins, fn, ctx, shared_fault};
    pid_t pid = qsb_child_fork(probe_here, &p);
    if (pid < 0) {
        int err = errno;
        qsb_shared_free(shared_fault, sizeof *shared_fault);
        return qsb_error(QSB_ESYSTEM, "audit: cannot fork: %s", strerror(err));
    }
    bool timed_out;
    int status = qsb_child_wait(pid, timeout_s, "an audit probe", &timed_out, NULL, 0);
    status = status < 0 ? 0 : status;
    memset(out, 0, sizeof *out);
    if (timed_out) {
        out->kind = QSB_CHILD_TIMEOUT;
        out->code = SIGKILL;
    } else if (WIFSIGNALED(status)) {
        out->kind = QSB_CHILD_SIGNALED;
        out->code = WTERMSIG(status);
    } else {
        out->code = WEXITSTATUS(status);
        out->kind = out->code == EXIT_GUARD_BELOW   ? QSB_CHILD_GUARD_BELOW
                    : out->code == EXIT_GUARD_ABOVE ? QSB_CHILD_GUARD_ABOVE
                    : shared_fault->returned        ? QSB_CHILD_EXITED
                                                    : QSB_CHILD_QUIT;
    }
    if (out->kind != QSB_CHILD_EXITED && out->kind != QSB_CHILD_TIMEOUT && shared_fault->seen) {
        out->faulted = true;
        out->fault_address = shared_fault->address;
        out->fault_wild = shared_fault->code == SI_KERNEL;
    }
    qsb_shared_free(shared_fault, sizeof *shared_fault);
    return QSB_OK;
}

/* How the child ended when it did not simply return from the probe ("crashed: signal 11",
** "timed out after 5s", "exited with status 0", "wrote outside the array: past its end"),
** written to buf; false (buf untouched) when it returned. */
static bool outcome_text(const qsb_child_outcome *o, unsigned timeout_s, char *buf, size_t len)
{
    switch (o->kind) {
    case QSB_CHILD_EXITED:
        return false;
    case QSB_CHILD_QUIT:
        snprintf(buf, len, "exited with status %d", o->code);
        break;
    case QSB_CHILD_TIMEOUT:
        snprintf(buf, len, "timed out after %us", timeout_s);
        break;
    case QSB_CHILD_SIGNALED:
        snprintf(buf, len, "crashed: signal %d", o->code);
        break;
    case QSB_CHILD_GUARD_BELOW:
    case QSB_CHILD_GUARD_ABOVE:
        snprintf(buf, len, "wrote outside the array: %s",
                 o->kind == QSB_CHILD_GUARD_BELOW ? "before its start" : "past its end");
        break;
    }
    return true;
}

static int probe_child_main(void *ctx)
{
    const qsb_probe_call *c = ctx;
    return c->probe(c->sort, c->result);
}

int qsb_run_probe(qsb_plugins *plugins, const qsb_probe_call *call, qsb_child_outcome *outcome)
{
    qsb_probe_call shared = *call;
    if (!(shared.result = qsb_shared_alloc(call->bytes)))
        return qsb_out_of_memory("probe result");
    memcpy(shared.result, call->result, call->bytes);
    int status = qsb_run_in_child(plugins, probe_child_main, &shared, call->timeout_s, outcome);
    memcpy(call->result, shared.result, call->bytes);
    qsb_shared_free(shared.result, call->bytes);
    return status;
}

int qsb_probe_in_child(qsb_plugins *plugins, const qsb_probe_call *call, char *failure,
                       size_t failure_len)
{
    failure[0] = '\0';
    qsb_probe_call copy = *call; /* the caller's result untouched unless the probe returned */
    if (!(copy.result = malloc(call->bytes ? call->bytes : 1)))
        return qsb_out_of_memory("probe result");
    memcpy(copy.result, call->result, call->bytes);
    qsb_child_outcome outcome;
    int status = qsb_run_probe(plugins, &copy, &outcome);
    if (status == QSB_OK && !outcome_text(&outcome, call->timeout_s, failure,
                                                     failure_len)) {
        memcpy(call->result, copy.result, call->bytes);
        if (outcome.code != QSB_OK) /* the probe could not run; it said why */
            status = outcome.code;
    }
    free(copy.result);
    return status;
}

void *qsb_shared_alloc(size_t bytes)
{
    void *p = mmap(NULL, bytes, PROT_READ | PROT_WRITE, MAP_SHARED | MAP_ANONYMOUS, -1, 0);
    return p == MAP_FAILED ? NULL : p;
}

void qsb_shared_free(void *p, size_t bytes)
{
    if (p)
        munmap(p, bytes);
}
