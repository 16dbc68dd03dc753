/*
** musl_oracle SIZE INPUT OUTPUT: the musl oracle, built with `musl-gcc -static` (musl-tools),
** so that the qsort_r it calls is musl's own (Debian's musl-dev 1.2.3). Reads INPUT (the raw
** bytes of `qsortbench gen`, n = file size / SIZE elements), sorts it with musl's qsort_r and
** the patterns spec's comparator for SIZE (inputs/element.c, compiled in), counting the calls
** through the comparator's argument; writes the sorted bytes to OUTPUT and the count to
** standard output. Exit 0, or 1 with a message on stderr.
*/
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

#include "element.h"

typedef struct {
    qsb_compare cmp;
    unsigned long long calls;
} counter;

static int counting_compare(const void *a, const void *b, void *arg)
{
    counter *c = arg;
    c->calls++;
    return c->cmp(a, b, NULL);
}

static int fail(const char *what, const char *path)
{
    fprintf(stderr, "musl_oracle: %s '%s'\n", what, path);
    return 1;
}

int main(int argc, char **argv)
{
    if (argc != 4)
        return fail("usage: musl_oracle SIZE INPUT OUTPUT; got", argc > 0 ? argv[0] : "");
    size_t size = strtoul(argv[1], NULL, 10);
    if (size == 0)
        return fail("bad element size", argv[1]);
    FILE *in = fopen(argv[2], "rb");
    if (!in || fseek(in, 0, SEEK_END) != 0)
        return fail("cannot read", argv[2]);
    long bytes = ftell(in);
    rewind(in);
    char *buf = malloc(bytes > 0 ? (size_t)bytes : 1);
    if (!buf || bytes < 0 || fread(buf, 1, (size_t)bytes, in) != (size_t)bytes)
        return fail("cannot read", argv[2]);
    fclose(in);

    counter c = {qsb_comparator(size), 0};
    qsort_r(buf, (size_t)bytes / size, size, counting_compare, &c);

    FILE *out = fopen(argv[3], "wb");
    if (!out || fwrite(buf, 1, (size_t)bytes, out) != (size_t)bytes || fclose(out) != 0)
        return fail("cannot write", argv[3]);
    printf("%llu\n", c.calls);
    free(buf);
    return 0;
}
