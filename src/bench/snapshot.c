/*
** The finished part of a one-process run (snapshot.h).
*/
#include "snapshot.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include "diag.h"
#include "read_results.h"
#include "report.h"

#define SLOTS 2

struct qsb_snapshot {
    int fd[SLOTS];
    volatile int *published; /* shared with the child: 0, or the slot written last + 1 */
};

qsb_snapshot *qsb_snapshot_create(void)
{
    qsb_snapshot *s = calloc(1, sizeof *s);
    void *word = MAP_FAILED;
    if (s) {
        s->fd[0] = memfd_create("qsortbench-finished", MFD_CLOEXEC);
        s->fd[1] = memfd_create("qsortbench-finished", MFD_CLOEXEC);
        word = mmap(NULL, sizeof *s->published, PROT_READ | PROT_WRITE,
                    MAP_SHARED | MAP_ANONYMOUS, -1, 0);
    }
    if (s && s->fd[0] >= 0 && s->fd[1] >= 0 && word != MAP_FAILED) {
        s->published = word;
        *s->published = 0;
        return s;
    }
    qsb_error(QSB_ESYSTEM, "cannot keep the run's finished cells: %s", strerror(errno));
    if (word != MAP_FAILED)
        munmap(word, sizeof *s->published);
    if (s) {
        s->published = NULL;
        qsb_snapshot_free(s);
    }
    return NULL;
}

void qsb_snapshot_free(qsb_snapshot *s)
{
    if (!s)
        return;
    for (int i = 0; i < SLOTS; i++)
        if (s->fd[i] >= 0)
            close(s->fd[i]);
    if (s->published)
        munmap((void *)s->published, sizeof *s->published);
    free(s);
}

void qsb_snapshot_clear(qsb_snapshot *s)
{
    *s->published = 0;
}

bool qsb_snapshot_due(size_t shared, size_t kept)
{
    return kept > shared && (shared == 0 || (kept - shared) * 8 >= shared);
}

int qsb_snapshot_take(qsb_snapshot *s, const qsb_results *finished)
{
    int slot = *s->published == 1 ? 1 : 0; /* the one not published */
    int fd = s->fd[slot];
    if (ftruncate(fd, 0) != 0 || lseek(fd, 0, SEEK_SET) != 0)
        return -1;
    int copy = dup(fd);
    FILE *fp = copy >= 0 ? fdopen(copy, "w") : NULL;
    if (!fp) {
        if (copy >= 0)
            close(copy);
        return -1;
    }
    int failed = qsb_report_json(fp, finished) != QSB_OK;
    failed |= fclose(fp) != 0;
    if (failed)
        return -1;
    __atomic_store_n(s->published, slot + 1, __ATOMIC_RELEASE);
    return 0;
}

bool qsb_snapshot_taken(const qsb_snapshot *s)
{
    return s && __atomic_load_n(s->published, __ATOMIC_ACQUIRE) != 0;
}

int qsb_snapshot_read(const qsb_snapshot *s, qsb_results *out)
{
    char path[64];
    snprintf(path, sizeof path, "/proc/self/fd/%d", s->fd[*s->published - 1]);
    return qsb_read_results(path, out);
}
