/*
** fork, exec and wait (child.h). The captured output is read until end of file before the
** child is waited for, so a child that writes more than a pipe holds never blocks.
*/
#include "child.h"

#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

static void redirect(int from_fd, int to_fd)
{
    if (from_fd >= 0 && from_fd != to_fd) {
        dup2(from_fd, to_fd);
        close(from_fd);
    }
}

/* In the child: never returns. */
static void exec_child(const char *const *argv, const char *dir, const char *const *env_add,
                       int out_fd, qsb_child_output output)
{
    int null_fd = open("/dev/null", O_RDWR);
    if (null_fd >= 0)
        dup2(null_fd, STDIN_FILENO);
    if (out_fd >= 0 && output == QSB_CHILD_ERRORS) {
        redirect(out_fd, STDERR_FILENO);
        if (null_fd >= 0)
            dup2(null_fd, STDOUT_FILENO);
    } else if (out_fd >= 0) {
        redirect(out_fd, STDOUT_FILENO);
        if (null_fd >= 0)
            dup2(null_fd, STDERR_FILENO);
    } else if (null_fd >= 0) {
        dup2(null_fd, STDOUT_FILENO);
        if (output == QSB_CHILD_QUIET)
            dup2(null_fd, STDERR_FILENO);
    }
    if (null_fd > STDERR_FILENO)
        close(null_fd);
    for (const char *const *e = env_add; e && *e; e++)
        putenv((char *)*e);
    if (dir && chdir(dir) != 0)
        _exit(127);
    execvp(argv[0], (char *const *)argv);
    _exit(127);
}

static void read_all(int fd, char *out, size_t len)
{
    size_t used = 0;
    char sink[4096];
    for (;;) {
        char *into = used + 1 < len ? out + used : sink;
        size_t room = used + 1 < len ? len - 1 - used : sizeof sink;
        ssize_t k = read(fd, into, room);
        if (k < 0 && errno == EINTR)
            continue;
        if (k <= 0)
            break;
        if (into != sink)
            used += (size_t)k;
    }
    while (used > 0 && (out[used - 1] == '\n' || out[used - 1] == '\r'))
        used--;
    out[used] = '\0';
}

int qsb_child_run(const char *const *argv, const char *dir, const char *const *env_add,
                  char *out, size_t len, qsb_child_output output)
{
    int fds[2] = {-1, -1};
    if (out && pipe(fds) != 0)
        return -1;
    pid_t pid = fork();
    if (pid < 0) {
        int saved = errno;
        if (out) {
            close(fds[0]);
            close(fds[1]);
        }
        errno = saved;
        return -1;
    }
    if (pid == 0) {
        if (out)
            close(fds[0]);
        exec_child(argv, dir, env_add, out ? fds[1] : -1, output);
    }
    if (out) {
        close(fds[1]);
        read_all(fds[0], out, len);
        close(fds[0]);
    }
    int wstatus;
    while (waitpid(pid, &wstatus, 0) < 0)
        if (errno != EINTR)
            return -1;
    if (WIFSIGNALED(wstatus))
        return 128 + WTERMSIG(wstatus);
    return WEXITSTATUS(wstatus);
}
