/*
** Running the real binary, for the tests that do (see run_binary.h).
*/
#include "run_binary.h"

#include <dirent.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include <csv.h>

#include "run_options.h"

extern char **environ;

int make_temp_dir(char *buf, size_t len, const char *prefix)
{
    const char *tmp = getenv("TMPDIR");
    int n = snprintf(buf, len, "%s/%s-XXXXXX", tmp && *tmp ? tmp : "/tmp", prefix);
    if (n < 0 || (size_t)n >= len)
        return -1;
    return mkdtemp(buf) ? 0 : -1;
}

void remove_temp_dir(const char *dir)
{
    DIR *d = opendir(dir);
    if (!d)
        return;
    struct dirent *e;
    char path[4096];
    while ((e = readdir(d)) != NULL) {
        if (strcmp(e->d_name, ".") == 0 || strcmp(e->d_name, "..") == 0)
            continue;
        snprintf(path, sizeof path, "%s/%s", dir, e->d_name);
        unlink(path);
    }
    closedir(d);
    rmdir(dir);
}

static void redirect(int fd, const char *path)
{
    int target = open(path ? path : "/dev/null", O_WRONLY | O_CREAT | O_TRUNC, 0644);
    if (target >= 0) {
        dup2(target, fd);
        close(target);
    }
}

/* environ plus the extra entries, which come first so they override. */
static char **merged_environment(char *const extra[])
{
    size_t n = 0, k = 0;
    while (environ[n])
        n++;
    while (extra && extra[k])
        k++;
    char **env = calloc(n + k + 1, sizeof *env);
    if (!env)
        return NULL;
    for (size_t i = 0; i < k; i++)
        env[i] = extra[i];
    for (size_t i = 0; i < n; i++)
        env[k + i] = environ[i];
    return env;
}

pid_t start_binary(char *const argv[], const char *out_path, const char *err_path,
                   char *const extra_env[])
{
    fflush(NULL);
    pid_t pid = fork();
    if (pid != 0)
        return pid;
    redirect(STDOUT_FILENO, out_path);
    redirect(STDERR_FILENO, err_path);
    signal(SIGINT, SIG_DFL);
    signal(SIGTERM, SIG_DFL);
    char **env = merged_environment(extra_env);
    if (env)
        execve(argv[0], argv, env);
    _exit(127);
}

int wait_binary(pid_t pid)
{
    int status;
    if (pid < 0 || waitpid(pid, &status, 0) != pid)
        return -1;
    if (WIFEXITED(status))
        return WEXITSTATUS(status);
    return WIFSIGNALED(status) ? 128 + WTERMSIG(status) : -1;
}

int run_binary(char *const argv[], const char *out_path, const char *err_path)
{
    return wait_binary(start_binary(argv, out_path, err_path, NULL));
}

char *slurp(const char *path, size_t *len)
{
    FILE *fp = fopen(path, "rb");
    if (!fp)
        return NULL;
    size_t cap = 4096, used = 0;
    char *text = malloc(cap);
    size_t got;
    while (text && (got = fread(text + used, 1, cap - used - 1, fp)) > 0) {
        used += got;
        if (cap - used - 1 == 0) {
            char *grown = realloc(text, cap * 2);
            if (!grown)
                free(text);
            text = grown;
            cap *= 2;
        }
    }
    fclose(fp);
    if (text) {
        text[used] = '\0';
        if (len)
            *len = used;
    }
    return text;
}

size_t count_lines(const char *text)
{
    size_t n = 0;
    for (const char *p = text; *p;) {
        const char *end = strchr(p, '\n');
        size_t len = end ? (size_t)(end - p) : strlen(p);
        n += len > 0;
        p += len + (end != NULL);
    }
    return n;
}

typedef struct {
    csv_table *t;
    char **row;
    size_t nfields;
    int failed;
} csv_reader;

static void on_field(void *data, size_t len, void *ctx)
{
    csv_reader *r = ctx;
    char **grown = realloc(r->row, (r->nfields + 1) * sizeof *grown);
    char *copy = malloc(len + 1);
    if (!grown || !copy) {
        free(copy);
        r->row = grown ? grown : r->row;
        r->failed = 1;
        return;
    }
    memcpy(copy, data, len);
    copy[len] = '\0';
    r->row = grown;
    r->row[r->nfields++] = copy;
}

static void on_row(int terminator, void *ctx)
{
    csv_reader *r = ctx;
    (void)terminator;
    csv_table *t = r->t;
    char ***rows = realloc(t->rows, (t->nrows + 1) * sizeof *rows);
    size_t *nfields = realloc(t->nfields, (t->nrows + 1) * sizeof *nfields);
    if (rows)
        t->rows = rows;
    if (nfields)
        t->nfields = nfields;
    if (!rows || !nfields) {
        r->failed = 1;
        return;
    }
    t->rows[t->nrows] = r->row;
    t->nfields[t->nrows++] = r->nfields;
    r->row = NULL;
    r->nfields = 0;
}

int csv_table_read(const char *path, csv_table *t)
{
    memset(t, 0, sizeof *t);
    size_t len;
    char *text = slurp(path, &len);
    if (!text)
        return -1;
    struct csv_parser p;
    csv_reader r = {t, NULL, 0, 0};
    int ok = csv_init(&p, CSV_STRICT | CSV_STRICT_FINI) == 0;
    ok = ok && csv_parse(&p, text, len, on_field, on_row, &r) == len;
    ok = ok && csv_fini(&p, on_field, on_row, &r) == 0;
    csv_free(&p);
    free(text);
    for (size_t i = 0; i < r.nfields; i++)
        free(r.row[i]);
    free(r.row);
    if (!ok || r.failed) {
        csv_table_free(t);
        return -1;
    }
    return 0;
}

const char *csv_table_get(const csv_table *t, size_t r, const char *column)
{
    if (t->nrows == 0 || r >= t->nrows)
        return NULL;
    for (size_t f = 0; f < t->nfields[0]; f++)
        if (strcmp(t->rows[0][f], column) == 0)
            return f < t->nfields[r] ? t->rows[r][f] : NULL;
    return NULL;
}

void csv_table_free(csv_table *t)
{
    for (size_t r = 0; r < t->nrows; r++) {
        for (size_t f = 0; f < t->nfields[r]; f++)
            free(t->rows[r][f]);
        free(t->rows[r]);
    }
    free(t->rows);
    free(t->nfields);
    memset(t, 0, sizeof *t);
}

int parse_run_config(qsb_run_config *cfg, const char *const *options)
{
    char *argv[32] = {"run"};
    int argc = 1;
    for (size_t i = 0; options[i] && argc < 31; i++)
        argv[argc++] = (char *)options[i];
    qsb_run_options run;
    int status = qsb_run_options_parse(&run, NULL, argc, argv);
    *cfg = run.bench;
    return status;
}
