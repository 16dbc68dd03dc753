/*
** `qsortbench gen PATTERN --nelem N --size S [--seed X] [--compat glibc-bench-2021] [-o FILE]`:
** writes the raw n * size bytes of one input (inputs/patterns.c), exactly what a run
** sorts, to FILE (atomically) or to standard output (never to a terminal). Every bad value is
** refused with one error line before anything is allocated or written.
*/
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "commands.h"
#include "diag.h"
#include "plan.h"
#include "outfile.h"
#include "patterns.h"

enum { OPT_NELEM, OPT_SIZE, OPT_SEED, OPT_COMPAT, OPT_OUTPUT };

static const qsb_option gen_options[] = {
    [OPT_NELEM] = {"nelem", 0, "N", "number of elements (required; 0 writes nothing)"},
    [OPT_SIZE] = {"size", 0, "S", "element size in bytes, at least 1 (required)"},
    [OPT_SEED] = {"seed", 0, "X", "generator seed, decimal or 0x-hex, below 2^48 "
                                  "(default 0x9abc56781234)"},
    [OPT_COMPAT] = {"compat", 0, "MODE", QSB_COMPAT_2021_NAME ": the 2021 benchmark's inputs, "
                                         "quirks included"},
    [OPT_OUTPUT] = {"output", 'o', "FILE", "write to FILE (atomically); - or none: standard "
                                           "output"},
    {NULL, 0, NULL, NULL},
};

static const qsb_command_spec gen_spec = {
    "gen", "PATTERN --nelem N --size S [--seed X] [--compat " QSB_COMPAT_2021_NAME "] [-o FILE]",
    "Write the raw bytes of one input (n * size bytes, native byte order), as a run makes it.",
    gen_options,
    "0 success, 2 usage error or bad input (binary data for a terminal, an\n"
    "output refused), 3 system error (I/O)."};
static const qsb_command_spec *const gen_specs[] = {&gen_spec, NULL};

typedef struct {
    uint64_t nelem;
    uint64_t size;
    uint64_t seed;
    qsb_mode mode;
    const char *output; /* "-": standard output */
    int have_nelem, have_size;
    const qsb_pattern *pattern; /* the operand's */
} gen_config;

static int handle_option(void *ctx, int index, const char *arg)
{
    gen_config *cfg = ctx;
    switch (index) {
    case OPT_NELEM:
        cfg->have_nelem = 1;
        return qsb_parse_u64(arg, "--nelem", 0, SIZE_MAX, 0, &cfg->nelem);
    case OPT_SIZE:
        cfg->have_size = 1;
        return qsb_parse_u64(arg, "--size", 1, SIZE_MAX, 0, &cfg->size);
    case OPT_SEED:
        return qsb_parse_u64(arg, "--seed", 0, QSB_SEED_LIMIT - 1, 1, &cfg->seed);
    case OPT_COMPAT:
        return qsb_parse_compat(arg, &cfg->mode);
    default:
        cfg->output = arg;
        return QSB_OK;
    }
}

/* "sorted, mostlysorted, ..." for messages. */
static void pattern_names(char *out, size_t len)
{
    size_t used = 0;
    out[0] = '\0';
    for (size_t i = 0; i < qsb_pattern_count && used < len; i++)
        used += (size_t)snprintf(out + used, len - used, "%s%s", i ? ", " : "",
                                 qsb_patterns[i].name);
}

static void print_pattern_list(void)
{
    printf("\nPatterns (case-insensitive):\n");
    for (size_t i = 0; i < qsb_pattern_count; i++)
        printf("  %-16s %s\n", qsb_patterns[i].name, qsb_patterns[i].summary);
}

static int find_pattern(int argc, char **argv, int first, const qsb_pattern **pattern)
{
    char names[256];
    pattern_names(names, sizeof names);
    if (first >= argc)
        return qsb_usage_error("gen needs a PATTERN (one of: %s)", names);
    if (argc - first > 1)
        return qsb_usage_error("gen takes one PATTERN, not also '%s'", qsb_quote(argv[first + 1]));
    *pattern = qsb_pattern_find(argv[first]);
    if (!*pattern)
        return qsb_usage_error("unknown pattern '%s' (one of: %s)", qsb_quote(argv[first]), names);
    return QSB_OK;
}

static int check_config(const gen_config *cfg)
{
    if (!cfg->have_nelem)
        return qsb_usage_error("gen needs --nelem N");
    if (!cfg->have_size)
        return qsb_usage_error("gen needs --size S");
    return qsb_check_fits(cfg->nelem, cfg->size, "gen");
}

/* Large writes: stdio passes them straight to write(2), so output runs at memory speed. */
static int write_all(FILE *fp, const char *name, const unsigned char *data, size_t bytes)
{
    const size_t chunk = (size_t)16 << 20;
    for (size_t done = 0; done < bytes;) {
        size_t len = bytes - done < chunk ? bytes - done : chunk;
        if (fwrite(data + done, 1, len, fp) != len) {
            if (strcmp(name, "-") == 0)
                return qsb_error(QSB_ESYSTEM, "cannot write to standard output: %s",
                                 strerror(errno));
            return qsb_error(QSB_ESYSTEM, "cannot write '%s': %s", qsb_quote_path(name),
                             strerror(errno));
        }
        done += len;
    }
    return QSB_OK;
}

/* Between the output's open (first, so a bad path fails before the work is done) and its
** commit: the data generated and written. */
static int generate_into(const qsb_outputs *out, void *arg)
{
    const gen_config *cfg = arg;
    FILE *fp = out->file[0].fp;
    if (fp == stdout && isatty(STDOUT_FILENO)) /* "-" or /dev/stdout on a terminal */
        return qsb_usage_error("gen writes binary data: redirect standard output or use -o FILE");
    size_t bytes = (size_t)(cfg->nelem * cfg->size);
    unsigned char *data = malloc(bytes ? bytes : 1);
    if (!data)
        return qsb_out_of_memory("gen buffer");
    qsb_generate(cfg->pattern, data, (size_t)cfg->nelem, (size_t)cfg->size, cfg->seed, cfg->mode);
    int status = write_all(fp, cfg->output, data, bytes);
    free(data);
    return status;
}

static int gen_main(int argc, char **argv)
{
    gen_config cfg = {.seed = QSB_DEFAULT_SEED, .mode = QSB_MODE_DEFAULT, .output = "-"};
    int first;
    int status = qsb_parse_options(&gen_spec, argc, argv, handle_option, &cfg, &first);
    if (status == QSB_HELP_SHOWN) {
        /* The generated help is printed already; add the pattern list under it. */
        print_pattern_list();
        return QSB_OK;
    }
    if (status != QSB_OK)
        return status;
    status = find_pattern(argc, argv, first, &cfg.pattern);
    if (status == QSB_OK)
        status = check_config(&cfg);
    const qsb_output_spec output[1] = {{NULL, cfg.output}}; /* messages name the path alone */
    return status == QSB_OK ? qsb_with_outputs(output, 1, NULL, 0, generate_into, &cfg) : status;
}

/* The command's row of the tool's table (main.c). */
const qsb_command qsb_gen_command = {
    .name = "gen",
    .run = gen_main,
    .summary = "write one input's raw bytes",
    .specs = gen_specs,
};
