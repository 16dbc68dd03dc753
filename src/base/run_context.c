/*
** The run context (run_context.h): one gathering of the machine's facts and one quoting of
** the command line for every command that writes results.
*/
#include "run_context.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/random.h>
#include <unistd.h>

#include "machine.h"

/* 64 random bits as 16 hex digits. Without the kernel's generator, the clock and the process
** (which no other run shares at once) stand in for them. */
static void new_run_id(char out[17])
{
    uint64_t bits;
    if (getrandom(&bits, sizeof bits, GRND_NONBLOCK) != (ssize_t)sizeof bits) {
        struct timespec now;
        clock_gettime(CLOCK_REALTIME, &now);
        bits = ((uint64_t)now.tv_sec * 1000000000u + (uint64_t)now.tv_nsec) ^
               ((uint64_t)getpid() << 40);
    }
    snprintf(out, 17, "%016llx", (unsigned long long)bits);
}

void qsb_run_context_gather(qsb_run_context *c, const struct tm *utc)
{
    memset(c, 0, sizeof *c);
    strftime(c->date, sizeof c->date, "%Y-%m-%dT%H:%M:%SZ", utc);
    if (gethostname(c->host, sizeof c->host) != 0)
        snprintf(c->host, sizeof c->host, "unknown");
    c->host[sizeof c->host - 1] = '\0';
    qsb_cpu_model(c->cpu_model, sizeof c->cpu_model);
    qsb_libc_version(c->libc, sizeof c->libc);
    qsb_caches caches;
    qsb_read_caches(qsb_sysfs_cpu_root(), &caches); /* all zero when absent */
    qsb_caches_describe(&caches, c->caches, sizeof c->caches);
    for (size_t i = 0; i < 3; i++)
        c->cache_bytes[i] = caches.level[i].total_bytes;
    new_run_id(c->run_id);
}

/* A word as a POSIX shell would need it: bare when it is safe, else in single quotes. */
static size_t quote_word(char *out, const char *word)
{
    size_t len = strlen(word);
    if (len > 0 && strspn(word, "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ"
                                "0123456789-_=:,./+@%") == len) {
        if (out)
            memcpy(out, word, len);
        return len;
    }
    size_t n = 0;
    if (out)
        out[n] = '\'';
    n++;
    for (const char *p = word; *p; p++) {
        const char *piece = *p == '\'' ? "'\\''" : p;
        size_t plen = *p == '\'' ? 4 : 1;
        if (out)
            memcpy(out + n, piece, plen);
        n += plen;
    }
    if (out)
        out[n] = '\'';
    return n + 1;
}

char *qsb_command_line(const char *command, int argc, char **argv)
{
    size_t len = sizeof "qsortbench " + strlen(command);
    for (int i = 1; i < argc; i++)
        len += 1 + quote_word(NULL, argv[i]);
    char *line = malloc(len);
    if (!line)
        return NULL;
    size_t used = (size_t)snprintf(line, len, "qsortbench %s", command);
    for (int i = 1; i < argc; i++) {
        line[used++] = ' ';
        used += quote_word(line + used, argv[i]);
    }
    line[used] = '\0';
    return line;
}
