/*
** The one reader of the user's input files (see infile.h).
*/
#include "infile.h"

#include <errno.h>
#include <fcntl.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "diag.h"

/* What a non-regular file is, for the message. */
static const char *file_kind(mode_t mode)
{
    static const struct {
        mode_t type;
        const char *name;
    } kinds[] = {{S_IFDIR, "a directory"},         {S_IFIFO, "a FIFO (pipe)"},
                 {S_IFCHR, "a character device"},  {S_IFBLK, "a block device"},
                 {S_IFSOCK, "a socket"}};
    for (size_t i = 0; i < sizeof kinds / sizeof kinds[0]; i++)
        if ((mode & S_IFMT) == kinds[i].type)
            return kinds[i].name;
    return "not a regular file";
}

static int too_large(const char *prefix, const char *path)
{
    return qsb_error(QSB_EUSAGE, "%s'%s': larger than %zu MiB: not an input of this tool", prefix,
                     qsb_quote_path(path), QSB_INPUT_MAX_BYTES >> 20);
}

/* read(2) of up to len bytes, again when a signal interrupted it: the bytes read, 0 at the end,
** or -1 with the error reported in *status. */
static ssize_t read_some(int fd, char *buf, size_t len, const char *prefix, const char *path,
                         int *status)
{
    for (;;) {
        ssize_t got = read(fd, buf, len);
        if (got >= 0)
            return got;
        if (errno != EINTR) {
            *status = qsb_error(QSB_EUSAGE, "%scannot read '%s': %s", prefix,
                                qsb_quote_path(path), strerror(errno));
            return -1;
        }
    }
}

/* Reads fd to its end into a buffer grown as needed (the size stat gave is only the first
** guess: a file may grow while it is read, and some report 0), at most the cap. */
static int read_to_end(int fd, size_t guess, const char *prefix, const char *path, char **text,
                       size_t *len)
{
    size_t cap = guess + 1, used = 0; /* + 1: reading 0 bytes there proves the end */
    char *buf = malloc(cap + 1);
    int status = buf ? QSB_OK : qsb_out_of_memory("input file");
    while (status == QSB_OK) {
        if (used == cap) {
            if (cap > QSB_INPUT_MAX_BYTES) {
                status = too_large(prefix, path);
                break;
            }
            size_t bigger = cap * 2 > QSB_INPUT_MAX_BYTES + 1 ? QSB_INPUT_MAX_BYTES + 1 : cap * 2;
            char *grown = realloc(buf, bigger + 1);
            if (!grown) {
                status = qsb_out_of_memory("input file");
                break;
            }
            buf = grown;
            cap = bigger;
        }
        ssize_t got = read_some(fd, buf + used, cap - used, prefix, path, &status);
        if (got <= 0)
            break;
        used += (size_t)got;
    }
    if (status == QSB_OK && used > QSB_INPUT_MAX_BYTES)
        status = too_large(prefix, path);
    if (status != QSB_OK) {
        free(buf);
        return status;
    }
    buf[used] = '\0';
    *text = buf;
    *len = used;
    return QSB_OK;
}

/* Opens path and checks it is a regular file within the cap; on failure (reported) *fd is -1. */
static int open_checked(const char *path, const char *prefix, const char *hint, int *fd,
                        size_t *size)
{
    *fd = open(path, O_RDONLY | O_NONBLOCK | O_CLOEXEC);
    if (*fd < 0)
        return qsb_error(QSB_EUSAGE, "%scannot read '%s': %s%s", prefix, qsb_quote_path(path),
                         strerror(errno), hint ? hint : "");
    struct stat st;
    int status = QSB_OK;
    if (fstat(*fd, &st) != 0)
        status = qsb_error(QSB_EUSAGE, "%scannot read '%s': %s", prefix, qsb_quote_path(path),
                           strerror(errno));
    else if (!S_ISREG(st.st_mode))
        status = qsb_error(QSB_EUSAGE, "%s'%s' is %s: only regular files are read", prefix,
                           qsb_quote_path(path), file_kind(st.st_mode));
    else if ((uint64_t)st.st_size > QSB_INPUT_MAX_BYTES)
        status = too_large(prefix, path);
    else
        *size = (size_t)st.st_size;
    if (status != QSB_OK) {
        close(*fd);
        *fd = -1;
    }
    return status;
}

int qsb_read_input_file(const char *path, const char *prefix, const char *hint, char **text,
                        size_t *len)
{
    *text = NULL;
    *len = 0;
    int fd;
    size_t size = 0;
    int status = open_checked(path, prefix, hint, &fd, &size);
    if (status != QSB_OK)
        return status;
    status = read_to_end(fd, size, prefix, path, text, len);
    close(fd);
    return status;
}

int qsb_read_input_pieces(const char *path, const char *prefix, const char *hint,
                          qsb_input_piece piece, void *ctx)
{
    int fd;
    size_t size = 0, total = 0;
    int status = open_checked(path, prefix, hint, &fd, &size);
    if (status != QSB_OK)
        return status;
    char *buf = malloc(QSB_INPUT_PIECE);
    if (!buf)
        status = qsb_out_of_memory("input file");
    while (status == QSB_OK) {
        ssize_t got = read_some(fd, buf, QSB_INPUT_PIECE, prefix, path, &status);
        if (got <= 0)
            break;
        total += (size_t)got; /* the file may have grown since fstat */
        status = total > QSB_INPUT_MAX_BYTES ? too_large(prefix, path)
                                             : piece(ctx, buf, (size_t)got);
    }
    free(buf);
    close(fd);
    return status;
}

void qsb_warn_if_unreadable(const char *path)
{
    struct stat st;
    if (!path || strcmp(path, "-") == 0 || stat(path, &st) != 0 || !S_ISREG(st.st_mode) ||
        (uint64_t)st.st_size <= QSB_INPUT_MAX_BYTES)
        return;
    qsb_warning("'%s' is %llu MiB, larger than the %zu MiB this tool reads: compare, merge, "
                "plot and report will refuse it",
                qsb_quote_path(path), ((unsigned long long)st.st_size + (1u << 20) - 1) >> 20,
                QSB_INPUT_MAX_BYTES >> 20);
}
