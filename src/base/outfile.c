/*
** Atomic result files (see outfile.h).
*/
#include "outfile.h"

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "diag.h"

static void outfile_reset(qsb_outfile *of)
{
    free(of->final_path);
    free(of->temp_path);
    of->fp = NULL;
    of->final_path = NULL;
    of->temp_path = NULL;
}

/* ---- where a path leads ---- */

#define LINK_HOPS_MAX 40 /* as the kernel's own limit on a path's symbolic links */

typedef enum {
    DEST_STDOUT,  /* "-", or the file standard output already is */
    DEST_STDERR,  /* the file standard error already is (and standard output is not) */
    DEST_SINK,    /* /dev/null */
    DEST_PIPE,    /* a FIFO or a pipe */
    DEST_FILE,    /* a regular file, existing or to be created at `target` */
    DEST_REFUSED  /* a directory, a device, a socket */
} dest_kind;

typedef struct {
    dest_kind kind;
    bool exists;
    dev_t dev;    /* when it exists */
    ino_t ino;
    mode_t mode;
    char *target; /* DEST_FILE: the file the path finally names, links resolved (malloc'd) */
} destination;

/* path with its directory resolved (realpath) and its last component kept: where a new file
** of that name is created. malloc'd, or NULL (errno) when the directory does not resolve. */
static char *resolved_directory(const char *path)
{
    const char *slash = strrchr(path, '/');
    const char *name = slash ? slash + 1 : path;
    char *dir = slash ? strndup(path, (size_t)(slash - path) + (slash == path)) : strdup(".");
    char *resolved = dir ? realpath(dir, NULL) : NULL;
    char *out = NULL;
    if (resolved && (out = malloc(strlen(resolved) + strlen(name) + 2)))
        sprintf(out, "%s%s%s", resolved, strcmp(resolved, "/") == 0 ? "" : "/", name);
    int err = errno;
    free(dir);
    free(resolved);
    errno = err;
    return out;
}

/* A link's target read relative to the directory holding the link. malloc'd, or NULL. */
static char *beside(const char *link, const char *target)
{
    if (target[0] == '/')
        return strdup(target);
    const char *slash = strrchr(link, '/');
    size_t dirlen = slash ? (size_t)(slash - link) + 1 : 0;
    char *out = malloc(dirlen + strlen(target) + 1);
    if (out) {
        memcpy(out, link, dirlen);
        strcpy(out + dirlen, target);
    }
    return out;
}

/* Where a path that names no existing file is created: the final target of a dangling
** symbolic link (written through like any link), else the path itself; its directory
** resolved. malloc'd, or NULL (errno: ENOENT or ENOTDIR for a missing directory, ELOOP). */
static char *new_file_target(const char *path)
{
    char *current = strdup(path);
    for (int hop = 0; current && hop < LINK_HOPS_MAX; hop++) {
        char target[PATH_MAX];
        ssize_t len = readlink(current, target, sizeof target - 1);
        if (len < 0) { /* not a link (EINVAL), or nothing there (ENOENT) */
            char *found = errno == EINVAL || errno == ENOENT ? resolved_directory(current) : NULL;
            int err = errno;
            free(current);
            errno = err;
            return found;
        }
        target[len] = '\0';
        char *next = beside(current, target);
        free(current);
        current = next;
    }
    if (current) {
        free(current);
        errno = ELOOP;
    }
    return NULL;
}

static bool is_dev_null(const struct stat *st)
{
    struct stat null;
    return S_ISCHR(st->st_mode) && stat("/dev/null", &null) == 0 && S_ISCHR(null.st_mode) &&
           st->st_rdev == null.st_rdev;
}

static bool is_stream(int fd, const struct stat *st)
{
    struct stat out;
    return fstat(fd, &out) == 0 && out.st_dev == st->st_dev && out.st_ino == st->st_ino;
}

/* Where path leads (above). Returns 0, or an errno when it leads nowhere (a missing
** directory, a loop of links, no permission); d->target is then NULL. */
static int destination_of(const char *path, destination *d)
{
    memset(d, 0, sizeof *d);
    if (strcmp(path, "-") == 0) {
        d->kind = DEST_STDOUT;
        return 0;
    }
    struct stat st;
    if (stat(path, &st) != 0) {
        if (errno != ENOENT)
            return errno;
        d->kind = DEST_FILE;
        d->target = new_file_target(path);
        return d->target ? 0 : errno;
    }
    d->exists = true;
    d->dev = st.st_dev;
    d->ino = st.st_ino;
    d->mode = st.st_mode;
    /* /dev/null first: sent there, an output is discarded wherever standard output goes */
    d->kind = is_dev_null(&st)          ? DEST_SINK
              : is_stream(STDOUT_FILENO, &st) ? DEST_STDOUT
              : is_stream(STDERR_FILENO, &st) ? DEST_STDERR
              : S_ISFIFO(st.st_mode)    ? DEST_PIPE
              : S_ISREG(st.st_mode)     ? DEST_FILE
                                        : DEST_REFUSED;
    if (d->kind == DEST_FILE && !(d->target = realpath(path, NULL)))
        return errno;
    return 0;
}

static void destination_free(destination *d)
{
    free(d->target);
    d->target = NULL;
}

static const char *kind_of_file(mode_t mode)
{
    return S_ISDIR(mode)    ? "a directory"
           : S_ISCHR(mode)  ? "a character device"
           : S_ISBLK(mode)  ? "a block device"
           : S_ISSOCK(mode) ? "a socket"
                            : "not a regular file";
}

/* "--csv: " before a message about an output, or nothing when the option is not known. */
#define OPTION_FMT "%s%s"
#define OPTION_ARGS(option) (option) ? (option) : "", (option) ? ": " : ""

#define OUTPUT_KINDS "an output is a regular file, '-' (standard output), standard error, " \
                     "/dev/null or a pipe that a process reads"

static int refuse(const char *option, const char *path, const destination *d)
{
    return qsb_error(QSB_EUSAGE, OPTION_FMT "'%s' is %s: " OUTPUT_KINDS, OPTION_ARGS(option),
                     qsb_quote_path(path), kind_of_file(d->mode));
}

static int cannot_create(const char *option, const char *path, int err)
{
    return qsb_error(err == ENOENT || err == ENOTDIR || err == ELOOP ? QSB_EUSAGE
                                                                     : QSB_ESYSTEM,
                     OPTION_FMT "cannot create '%s': %s", OPTION_ARGS(option),
                     qsb_quote_path(path), strerror(err));
}

/* ---- opening ---- */

/* Standard error written in place through a descriptor of its own: the file's offset is
** shared, so what the run said on stderr before stays where it is (reopening the path would
** write from the file's start over it; renaming a file over it would replace it). */
static int open_stderr(qsb_outfile *of, const char *option, const char *path)
{
    int fd = fcntl(STDERR_FILENO, F_DUPFD_CLOEXEC, 3);
    if (fd >= 0 && (of->fp = fdopen(fd, "w")))
        return QSB_OK;
    int err = errno;
    if (fd >= 0)
        close(fd);
    return qsb_error(QSB_ESYSTEM, OPTION_FMT "cannot write to standard error ('%s'): %s",
                     OPTION_ARGS(option), qsb_quote_path(path), strerror(err));
}

static int open_fd(qsb_outfile *of, int fd, const char *option, const char *path)
{
    if (fd >= 0 && (of->fp = fdopen(fd, "w")))
        return QSB_OK;
    int err = errno;
    if (fd >= 0)
        close(fd);
    return qsb_error(QSB_ESYSTEM, OPTION_FMT "cannot open '%s': %s", OPTION_ARGS(option),
                     qsb_quote_path(path), strerror(err));
}

/* A FIFO (or a pipe) only when a process reads it: opened without blocking, which fails with
** ENXIO when there is no reader; then blocking again, as the writes expect. */
static int open_pipe(qsb_outfile *of, const char *option, const char *path)
{
    int fd = open(path, O_WRONLY | O_NONBLOCK | O_CLOEXEC);
    if (fd < 0 && errno == ENXIO)
        return qsb_error(QSB_EUSAGE, OPTION_FMT "'%s' is a FIFO that no process reads (writing "
                         "would wait for one): start its reader first, or write to a file",
                         OPTION_ARGS(option), qsb_quote_path(path));
    int flags = fd >= 0 ? fcntl(fd, F_GETFL) : -1;
    if (flags >= 0)
        fcntl(fd, F_SETFL, flags & ~O_NONBLOCK);
    return open_fd(of, fd, option, path);
}

int qsb_append_open(const char *what, const char *path, FILE **fp)
{
    /* Without O_NONBLOCK a FIFO without a reader would block the open forever (as open_pipe). */
    int fd = open(path, O_WRONLY | O_APPEND | O_CREAT | O_NONBLOCK | O_CLOEXEC, 0666);
    *fp = NULL;
    if (fd < 0 && errno == ENXIO)
        return qsb_error(QSB_EUSAGE, "%s '%s' is a FIFO that no process reads (writing would "
                         "wait for one): start its reader first, or name a file", what,
                         qsb_quote_path(path));
    if (fd < 0)
        return qsb_error(QSB_EUSAGE, "cannot append to %s '%s': %s", what, qsb_quote_path(path),
                         strerror(errno));
    int flags = fcntl(fd, F_GETFL);
    if (flags >= 0)
        fcntl(fd, F_SETFL, flags & ~O_NONBLOCK);
    *fp = fdopen(fd, "a");
    if (*fp)
        return QSB_OK;
    close(fd);
    return qsb_out_of_memory(what);
}

/* The temporary file beside target (taken over), in the final directory so that rename() is
** atomic. */
static int open_temporary(qsb_outfile *of, const char *option, const char *path, char *target)
{
    size_t len = strlen(target);
    of->final_path = target;
    of->temp_path = malloc(len + sizeof ".tmp-XXXXXX");
    if (!of->temp_path) {
        outfile_reset(of);
        return qsb_out_of_memory("file name");
    }
    memcpy(of->temp_path, target, len);
    memcpy(of->temp_path + len, ".tmp-XXXXXX", sizeof ".tmp-XXXXXX");
    int fd = mkstemp(of->temp_path);
    if (fd < 0) {
        int err = errno;
        outfile_reset(of);
        return cannot_create(option, path, err);
    }
    /* mkstemp creates 0600; a results file gets the usual 0666 less the umask. */
    mode_t mask = umask(0);
    umask(mask);
    fchmod(fd, 0666 & ~mask);
    int status = open_fd(of, fd, option, path);
    if (status != QSB_OK) {
        unlink(of->temp_path);
        outfile_reset(of);
    }
    return status;
}

/* Opens the output at path, whose destination is d (its target taken over). */
static int open_destination(qsb_outfile *of, const char *option, const char *path,
                            destination *d)
{
    of->fp = NULL;
    of->final_path = NULL;
    of->temp_path = NULL;
    char *target = d->target;
    d->target = NULL;
    switch (d->kind) {
    case DEST_STDOUT:
        of->fp = stdout;
        return QSB_OK;
    case DEST_STDERR:
        return open_stderr(of, option, path);
    case DEST_SINK:
        return open_fd(of, open(path, O_WRONLY | O_CLOEXEC), option, path);
    case DEST_PIPE:
        return open_pipe(of, option, path);
    case DEST_FILE:
        return open_temporary(of, option, path, target);
    case DEST_REFUSED:
        break;
    }
    free(target);
    return refuse(option, path, d);
}

/* The destination of an output, or a refusal (reported). */
static int output_destination(const char *option, const char *path, destination *d)
{
    int err = destination_of(path, d);
    if (err)
        return cannot_create(option, path, err);
    return d->kind == DEST_REFUSED ? refuse(option, path, d) : QSB_OK;
}

bool qsb_output_in_place(const char *path)
{
    destination d;
    bool in_place = destination_of(path, &d) == 0 &&
                    (d.kind == DEST_STDOUT || d.kind == DEST_STDERR || d.kind == DEST_SINK ||
                     d.kind == DEST_PIPE);
    destination_free(&d);
    return in_place;
}

char *qsb_output_target(const char *path)
{
    destination d;
    int err = destination_of(path, &d);
    if (err == 0 && d.kind == DEST_FILE)
        return d.target;
    destination_free(&d);
    errno = err ? err : EINVAL;
    return NULL;
}

int qsb_outfile_open(qsb_outfile *of, const char *path)
{
    memset(of, 0, sizeof *of);
    destination d;
    int status = output_destination(NULL, path, &d);
    if (status == QSB_OK)
        status = open_destination(of, NULL, path, &d);
    destination_free(&d);
    return status;
}

int qsb_outfile_commit(qsb_outfile *of)
{
    if (!of->final_path) { /* written in place: stdout, stderr, /dev/null, a pipe */
        int failed = fflush(of->fp) != 0 || ferror(of->fp);
        if (of->fp != stdout)
            failed |= fclose(of->fp) != 0;
        of->fp = NULL;
        return failed ? qsb_error(QSB_ESYSTEM, "cannot write the output: %s", strerror(errno))
                      : QSB_OK;
    }
    int failed = ferror(of->fp) != 0;
    failed |= fclose(of->fp) != 0;
    of->fp = NULL;
    if (failed || rename(of->temp_path, of->final_path) != 0) {
        int err = errno;
        unlink(of->temp_path);
        int status = qsb_error(QSB_ESYSTEM, "cannot write '%s': %s",
                               qsb_quote_path(of->final_path), strerror(err));
        outfile_reset(of);
        return status;
    }
    outfile_reset(of);
    return QSB_OK;
}

/* Closes and removes the temporary file; the final path is left untouched. A zeroed
** qsb_outfile (never opened) may be aborted too: nothing happens. */
static void outfile_abort(qsb_outfile *of)
{
    if (of->fp && of->fp != stdout)
        fclose(of->fp);
    if (of->temp_path)
        unlink(of->temp_path);
    outfile_reset(of);
}

/* ---- the outputs of one command, and the files it reads ---- */

typedef struct {
    const char *what;  /* the option, or the group's name */
    const char *path;
    qsb_files_use use;
    size_t group;      /* each output its own; a group's files share one */
    bool known;        /* destination_of found where it leads */
    destination d;
} named_file;

/* Do a and b (both known) lead to one destination? /dev/null takes any number of outputs. */
static bool same_destination(const destination *a, const destination *b)
{
    if (a->kind == DEST_SINK || b->kind == DEST_SINK)
        return false;
    if (a->kind == DEST_STDOUT || b->kind == DEST_STDOUT)
        return a->kind == b->kind;
    if (a->exists || b->exists)
        return a->exists && b->exists && a->dev == b->dev && a->ino == b->ino;
    return strcmp(a->target, b->target) == 0;
}

static int refuse_pair(const named_file *a, const named_file *b)
{
    if (b->use == QSB_FILES_READ)
        return qsb_error(QSB_EUSAGE, "%s '%s' is %s '%s': no output may be a file the "
                         "command reads", a->what, qsb_quote_path(a->path), b->what,
                         qsb_quote_path(b->path));
    if (a->d.kind == DEST_STDOUT && strcmp(a->path, "-") == 0 && strcmp(b->path, "-") == 0)
        return qsb_error(QSB_EUSAGE, "%s and %s both write to standard output ('-')", a->what,
                         b->what);
    if (a->d.kind == DEST_STDOUT)
        return qsb_error(QSB_EUSAGE, "%s and %s both write to standard output ('%s' and "
                         "'%s')", a->what, b->what, qsb_quote_path(a->path),
                         qsb_quote_path(b->path));
    return qsb_error(QSB_EUSAGE, "%s and %s name the same file '%s'", a->what, b->what,
                     qsb_quote_path(b->path));
}

/* The first two files that may not share a destination (written, or written and read, not in
** one group), reported; QSB_OK when there are none. */
static int refuse_collisions(const named_file *f, size_t n)
{
    for (size_t i = 0; i < n; i++)
        for (size_t j = i + 1; j < n; j++) {
            const named_file *a = &f[i], *b = &f[j];
            bool writes = a->use == QSB_FILES_WRITTEN || b->use == QSB_FILES_WRITTEN;
            if (writes && a->group != b->group && a->known && b->known &&
                same_destination(&a->d, &b->d))
                return a->use == QSB_FILES_READ ? refuse_pair(b, a) : refuse_pair(a, b);
        }
    return QSB_OK;
}

/* Every output (reported when it is refused) and every other file, with where it leads:
** outputs first, in specs' order. */
static int name_files(named_file *f, const qsb_output_spec *specs, size_t n,
                      const qsb_file_group *others, size_t nothers, size_t *count)
{
    size_t k = 0;
    int status = QSB_OK;
    for (size_t i = 0; i < n && status == QSB_OK; i++) {
        if (!specs[i].path)
            continue;
        named_file *nf = &f[k++];
        *nf = (named_file){specs[i].option, specs[i].path, QSB_FILES_WRITTEN, i, true, {0}};
        status = output_destination(specs[i].option, specs[i].path, &nf->d);
    }
    for (size_t g = 0; g < nothers && status == QSB_OK; g++)
        for (size_t i = 0; i < others[g].n; i++) {
            if (!others[g].paths[i])
                continue;
            named_file *nf = &f[k++];
            *nf = (named_file){others[g].what, others[g].paths[i], others[g].use, n + g, false,
                               {0}};
            /* one that leads nowhere is its reader's or writer's to report */
            nf->known = destination_of(nf->path, &nf->d) == 0;
        }
    *count = k;
    return status;
}

/* Checks the files and, when o is not NULL, opens the outputs into it. */
static int check_and_open(qsb_outputs *o, const qsb_output_spec *specs, size_t n,
                          const qsb_file_group *others, size_t nothers)
{
    size_t total = n, count = 0;
    for (size_t g = 0; g < nothers; g++)
        total += others[g].n;
    named_file *files = calloc(total ? total : 1, sizeof *files);
    if (!files)
        return qsb_out_of_memory("outputs");
    int status = name_files(files, specs, n, others, nothers, &count);
    if (status == QSB_OK)
        status = refuse_collisions(files, count);
    for (size_t k = 0; o && k < count && status == QSB_OK; k++)
        if (files[k].group < n) /* an output */
            status = open_destination(&o->file[files[k].group], files[k].what, files[k].path,
                                      &files[k].d);
    for (size_t k = 0; k < count; k++)
        destination_free(&files[k].d);
    free(files);
    return status;
}

int qsb_outputs_check(const qsb_output_spec *specs, size_t n, const qsb_file_group *others,
                      size_t nothers)
{
    return check_and_open(NULL, specs, n, others, nothers);
}

int qsb_outputs_open(qsb_outputs *o, const qsb_output_spec *specs, size_t n,
                     const qsb_file_group *others, size_t nothers)
{
    memset(o, 0, sizeof *o);
    int status = check_and_open(o, specs, n, others, nothers);
    return status == QSB_OK ? status : qsb_outputs_close(o, status);
}

int qsb_outputs_close(qsb_outputs *o, int status)
{
    if (status != QSB_OK) {
        qsb_outputs_abort(o);
        return status;
    }
    for (size_t i = 0; i < QSB_OUTPUTS_MAX; i++) {
        if (!o->file[i].fp)
            continue;
        int s = qsb_outfile_commit(&o->file[i]); /* each file whole or absent, whatever the
                                                 ** others did */
        if (status == QSB_OK)
            status = s;
    }
    return status;
}

void qsb_outputs_abort(qsb_outputs *o)
{
    for (size_t i = 0; i < QSB_OUTPUTS_MAX; i++)
        outfile_abort(&o->file[i]);
}

FILE *qsb_outputs_text_stream(const qsb_outputs *o)
{
    for (size_t i = 0; i < QSB_OUTPUTS_MAX; i++)
        if (o->file[i].fp == stdout)
            return stderr;
    return stdout;
}

int qsb_with_outputs(const qsb_output_spec *specs, size_t n, const qsb_file_group *others,
                     size_t nothers, qsb_outputs_work work, void *arg)
{
    qsb_outputs o;
    int status = qsb_outputs_open(&o, specs, n, others, nothers);
    if (status != QSB_OK)
        return status; /* nothing left open */
    status = work(&o, arg);
    int committed = qsb_outputs_close(&o, status == QSB_FINDING ? QSB_OK : status);
    return committed != QSB_OK ? committed : status;
}
