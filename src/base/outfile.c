/*
** Atomic result files (see outfile.h).
*/
#include "outfile.h"

#include <errno.h>
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

int qsb_outfile_open(qsb_outfile *of, const char *path)
{
    of->fp = NULL;
    of->final_path = NULL;
    of->temp_path = NULL;
    if (strcmp(path, "-") == 0) {
        of->fp = stdout;
        return QSB_OK;
    }
    /* A device or a pipe (/dev/null, a FIFO) is written in place: renaming a temporary file
    ** over it would replace the device node with a regular file. */
    struct stat st;
    if (stat(path, &st) == 0 && !S_ISREG(st.st_mode)) {
        of->fp = fopen(path, "w");
        if (!of->fp)
            return qsb_error(QSB_ESYSTEM, "cannot open '%s': %s", qsb_quote_path(path),
                             strerror(errno));
        return QSB_OK;
    }
    size_t len = strlen(path);
    of->final_path = strdup(path);
    of->temp_path = malloc(len + sizeof ".tmp-XXXXXX");
    if (!of->final_path || !of->temp_path) {
        outfile_reset(of);
        return qsb_out_of_memory("file name");
    }
    memcpy(of->temp_path, path, len);
    memcpy(of->temp_path + len, ".tmp-XXXXXX", sizeof ".tmp-XXXXXX");
    int fd = mkstemp(of->temp_path); /* in the final directory, so rename() is atomic */
    if (fd < 0) {
        int err = errno;
        outfile_reset(of);
        return qsb_error(err == ENOENT || err == ENOTDIR ? QSB_EUSAGE : QSB_ESYSTEM,
                         "cannot create '%s': %s", qsb_quote_path(path), strerror(err));
    }
    /* mkstemp creates 0600; a results file gets the usual 0666 less the umask. */
    mode_t mask = umask(0);
    umask(mask);
    fchmod(fd, 0666 & ~mask);
    of->fp = fdopen(fd, "w");
    if (!of->fp) {
        int err = errno;
        close(fd);
        unlink(of->temp_path);
        outfile_reset(of);
        return qsb_error(QSB_ESYSTEM, "cannot open '%s': %s", qsb_quote_path(path),
                         strerror(err));
    }
    return QSB_OK;
}

int qsb_outfile_commit(qsb_outfile *of)
{
    if (!of->final_path) { /* stdout, or a device written in place */
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

void qsb_outfile_abort(qsb_outfile *of)
{
    if (of->fp && of->fp != stdout)
        fclose(of->fp);
    if (of->temp_path)
        unlink(of->temp_path);
    outfile_reset(of);
}

/* Where path would be written, as one canonical spelling: realpath of the file when it
** exists, else realpath of its directory and its last component. *canonical is malloc'd,
** NULL when the directory does not resolve (qsb_outfile_open then reports it). */
static char *canonical_destination(const char *path)
{
    char *whole = realpath(path, NULL);
    if (whole)
        return whole;
    const char *slash = strrchr(path, '/');
    const char *name = slash ? slash + 1 : path;
    char *dir = slash ? strndup(path, (size_t)(slash - path) + (slash == path)) : strdup(".");
    char *resolved = dir ? realpath(dir, NULL) : NULL;
    char *out = NULL;
    if (resolved && (out = malloc(strlen(resolved) + strlen(name) + 2)))
        sprintf(out, "%s/%s", resolved, name);
    free(dir);
    free(resolved);
    return out;
}

/* Do a and b (neither NULL) name one destination? */
static bool same_destination(const char *a, const char *b)
{
    if (strcmp(a, "-") == 0 || strcmp(b, "-") == 0)
        return strcmp(a, b) == 0;
    struct stat sa, sb;
    if (stat(a, &sa) == 0 && stat(b, &sb) == 0)
        return sa.st_dev == sb.st_dev && sa.st_ino == sb.st_ino;
    char *ca = canonical_destination(a), *cb = canonical_destination(b);
    bool same = ca && cb ? strcmp(ca, cb) == 0 : strcmp(a, b) == 0;
    free(ca);
    free(cb);
    return same;
}

static int refuse_collisions(const qsb_output_spec *specs, size_t n)
{
    for (size_t i = 0; i < n; i++)
        for (size_t j = i + 1; j < n; j++)
            if (specs[i].path && specs[j].path && same_destination(specs[i].path, specs[j].path))
                return strcmp(specs[i].path, "-") == 0
                           ? qsb_error(QSB_EUSAGE, "%s and %s both write to standard output "
                                       "('-')", specs[i].option, specs[j].option)
                           : qsb_error(QSB_EUSAGE, "%s and %s name the same file '%s'",
                                       specs[i].option, specs[j].option,
                                       qsb_quote_path(specs[j].path));
    return QSB_OK;
}

int qsb_outputs_open(qsb_outputs *o, const qsb_output_spec *specs, size_t n)
{
    memset(o, 0, sizeof *o);
    int status = refuse_collisions(specs, n);
    for (size_t i = 0; i < n && status == QSB_OK; i++)
        if (specs[i].path)
            status = qsb_outfile_open(&o->file[i], specs[i].path);
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
        qsb_outfile_abort(&o->file[i]);
}
