/*
** The stack probe (see audit.h): the sort runs on a thread whose stack the probe allocates
** (pthread_attr_setstack) and fill with a known byte; afterwards the lowest byte that no
** longer holds it is the deepest point the sort reached. The depth is counted from the
** frame of the thread function that calls the sort, so it is the sort's own use (its
** frames, alloca'd scratch, whatever it calls: libc, the comparator) to within one frame.
** Below the probe stack is a PROT_NONE guard: a sort that runs past it faults there, which
** the child runner reports as an overflow instead of a crash.
**
** Inputs: random 4-byte elements (patterns spec), at each n of the configuration. Each is
** sorted once on the calling thread first, so the measurement does not include the dynamic
** linker's lazy binding of the functions the sort calls (a once-per-process cost of a few
** kilobytes that the first qsort call of a program pays).
*/
#include "audit.h"

#include <pthread.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include "diag.h"
#include "element.h"
#include "patterns.h"

#define PROBE_STACK_BYTES ((size_t)16 << 20)
#define FILL_BYTE 0xA5
#define STACK_TIMEOUT_S 300 /* 8,388,608 elements under a slow sort, in a sanitized build */

typedef struct {
    qsb_sort_fn sort;
    void *base;
    size_t n;
    char *frame; /* the thread function's frame: the top of what the sort used */
} probe_call;

static char thread_alternate_stack[64 * 1024];

/* The fault handler needs a stack of its own to report an overflow of this one. ASan gives
** every thread one already (and unmaps it at thread exit): keep that one when present. */
static int ensure_alternate_stack(void)
{
    stack_t current;
    if (sigaltstack(NULL, &current) != 0 || !(current.ss_flags & SS_DISABLE))
        return 0;
    stack_t alt = {.ss_sp = thread_alternate_stack, .ss_size = sizeof thread_alternate_stack};
    return sigaltstack(&alt, NULL) == 0;
}

static void *probe_thread(void *arg)
{
    probe_call *call = arg;
    int installed = ensure_alternate_stack();
    call->frame = __builtin_frame_address(0);
    call->sort(call->base, call->n, 4, qsb_comparator(4), NULL);
    if (installed) {
        stack_t off = {.ss_flags = SS_DISABLE};
        sigaltstack(&off, NULL);
    }
    return NULL;
}

static uint64_t deepest_use(const unsigned char *low, const char *frame)
{
    const unsigned char *p = low;
    while ((const char *)p < frame && *p == FILL_BYTE)
        p++;
    return (uint64_t)(frame - (const char *)p);
}

uint64_t qsb_stack_depth(qsb_sort_fn sort, size_t nelem)
{
    const size_t page = (size_t)sysconf(_SC_PAGESIZE);
    uint64_t depth = UINT64_MAX;
    void *input = malloc(nelem ? nelem * 4 : 1);
    unsigned char *region = mmap(NULL, PROBE_STACK_BYTES + page, PROT_READ | PROT_WRITE,
                                 MAP_PRIVATE | MAP_ANONYMOUS | MAP_STACK, -1, 0);
    if (!input || region == MAP_FAILED)
        goto done;
    unsigned char *low = region + page;
    if (mprotect(region, page, PROT_NONE) != 0)
        goto done;
    memset(low, FILL_BYTE, PROBE_STACK_BYTES);
    qsb_child_set_guards(region, page, NULL, 0);
    qsb_generate(qsb_pattern_find("random"), input, nelem, 4, QSB_DEFAULT_SEED,
                 QSB_MODE_DEFAULT);

    /* A first run on this thread lets the dynamic linker bind every symbol the sort calls
    ** (lazy binding takes kilobytes of stack once per process, which is not the sort's). */
    void *warm_up = malloc(nelem ? nelem * 4 : 1);
    if (!warm_up)
        goto done;
    memcpy(warm_up, input, nelem * 4);
    sort(warm_up, nelem, 4, qsb_comparator(4), NULL);
    free(warm_up);
    stack_t unused; /* the probe thread calls sigaltstack below its frame: bind it now too */
    sigaltstack(NULL, &unused);

    probe_call call = {sort, input, nelem, NULL};
    pthread_attr_t attr;
    pthread_t thread;
    if (pthread_attr_init(&attr) != 0)
        goto done;
    int failed = pthread_attr_setstack(&attr, low, PROBE_STACK_BYTES) != 0 ||
                 pthread_create(&thread, &attr, probe_thread, &call) != 0;
    pthread_attr_destroy(&attr);
    if (failed || pthread_join(thread, NULL) != 0)
        goto done;
    depth = deepest_use(low, call.frame);
done:
    if (region != MAP_FAILED)
        munmap(region, PROBE_STACK_BYTES + page);
    free(input);
    return depth;
}

/* What the probe in the child is given (n) and finds (depth). */
typedef struct {
    size_t n;
    uint64_t depth;
} stack_probe_result;

static int stack_probe(qsb_sort_fn sort, void *result)
{
    stack_probe_result *r = result;
    r->depth = qsb_stack_depth(sort, r->n);
    return r->depth == UINT64_MAX ? 1 : 0;
}

static qsb_stack_status status_of(const qsb_child_outcome *o)
{
    if (o->kind == QSB_CHILD_EXITED && o->code == 0)
        return QSB_STACK_OK;
    if (o->kind == QSB_CHILD_GUARD_BELOW)
        return QSB_STACK_OVERFLOW;
    return QSB_STACK_FAILED;
}

int qsb_audit_stack(qsb_sort_fn sort, const qsb_audit_config *config, qsb_stack_result *out)
{
    *out = (qsb_stack_result){.status = QSB_STACK_OK, .probe_bytes = PROBE_STACK_BYTES};
    int status = QSB_OK;
    for (size_t i = 0; i < config->stack_count && status == QSB_OK; i++) {
        qsb_stack_case *c = &out->cases[out->ncases++];
        stack_probe_result found = {(size_t)config->stack_nelem[i], 0};
        const qsb_probe_call call = {stack_probe, sort, &found, sizeof found, STACK_TIMEOUT_S};
        qsb_child_outcome outcome = {.kind = QSB_CHILD_SIGNALED};
        c->nelem = config->stack_nelem[i];
        status = qsb_run_probe(config->plugins, &call, &outcome);
        c->status = status == QSB_OK ? status_of(&outcome) : QSB_STACK_FAILED;
        c->bytes = c->status == QSB_STACK_OK ? found.depth : 0;
        if (c->status > out->status)
            out->status = c->status;
        if (c->bytes > out->max_bytes)
            out->max_bytes = c->bytes;
    }
    return status;
}
