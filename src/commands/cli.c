/*
** Option tables, generated help, and strict parsing of numbers and lists (see cli.h).
*/
#include "cli.h"

#include <ctype.h>
#include <errno.h>
#include <getopt.h>
#include <math.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "diag.h"
#include "worker_protocol.h"

#define HELP_ALL_VAL 1 /* getopt's value of --help-all, which no short option has */

static size_t option_count(const qsb_option *options)
{
    size_t n = 0;
    while (options && options[n].name)
        n++;
    return n;
}

#define HELP_WIDTH 79  /* columns of --help */
#define HELP_INDENT 29 /* where the option descriptions start */

/* "  LEFT  text..." with the text folded at spaces to fit HELP_WIDTH. */
static void print_wrapped(const char *left, const char *text)
{
    const int room = HELP_WIDTH - HELP_INDENT;
    printf("  %-26s ", left);
    if ((int)strlen(left) > 26) /* a long option name: its text starts on the next line */
        printf("\n%*s", HELP_INDENT, "");
    while ((int)strlen(text) > room) {
        int cut = room;
        while (cut > 0 && text[cut] != ' ')
            cut--;
        if (cut == 0) /* one word longer than the line: let it run over */
            cut = (int)strcspn(text, " ");
        printf("%.*s\n%*s", cut, text, HELP_INDENT, "");
        text += cut + (text[cut] == ' ');
    }
    printf("%s\n", text);
}

const char *qsb_spec_verb(const qsb_command_spec *spec)
{
    const char *space = strchr(spec->name, ' ');
    return space ? space + 1 : NULL;
}

/* "-o, --name ARG": long names line up whether or not a short alias precedes them. */
static void print_option(int short_name, const char *name, const char *arg, const char *help)
{
    char left[64];
    if (short_name)
        snprintf(left, sizeof left, "-%c, --%s%s%s", short_name, name, arg ? " " : "",
                 arg ? arg : "");
    else
        snprintf(left, sizeof left, "    --%s%s%s", name, arg ? " " : "", arg ? arg : "");
    print_wrapped(left, help);
}

/* The table's row of QSB_MORE_OPTIONS, or its end. */
static size_t more_row(const qsb_option *options)
{
    size_t n = 0;
    while (options && options[n].name && options[n].name[0])
        n++;
    return n;
}

static void print_help_options(const qsb_option *options,
                               const qsb_worker_option *protocol, bool all)
{
    size_t shown = all ? option_count(options) : more_row(options);
    for (size_t i = 0; i < shown; i++)
        if (options[i].name[0])
            print_option(options[i].short_name, options[i].name, options[i].arg,
                         options[i].help);
    for (const qsb_worker_option *o = protocol; all && o && o->name; o++)
        if (o->part == QSB_WORKER_OWN)
            print_option(0, o->name, o->arg, o->help);
    printf("  %-26s %s\n", "-h, --help", "show this help and exit");
    if (protocol || more_row(options) < option_count(options))
        printf("  %-26s %s\n", "    --help-all", QSB_HELP_ALL_TEXT);
}

void qsb_print_options(const qsb_option *options, bool all)
{
    print_help_options(options, NULL, all);
}

static void print_command_help(const qsb_command_spec *spec, const qsb_worker_option *protocol,
                               bool all)
{
    printf("Usage: qsortbench %s %s\n%s\n", spec->name, spec->usage, spec->summary);
    if (spec->options) {
        printf("\nOptions:\n");
        print_help_options(spec->options, protocol, all);
    }
    if (spec->exit_status)
        printf("\nExit status: %s\n", spec->exit_status);
}

/* getopt_long tables built from the command's option table: index i of the table has val
** 256 + i; the protocol's own options follow, row j as 256 + n + j. */
static int build_getopt_tables(const qsb_option *options, const qsb_worker_option *protocol,
                               struct option **longopts, char **shortopts)
{
    size_t n = option_count(options), m = 0, own = 0;
    while (protocol && protocol[own].name)
        own++;
    *longopts = calloc(n + own + 3, sizeof **longopts);
    *shortopts = calloc(3 * n + 4, 1);
    if (!*longopts || !*shortopts) {
        free(*longopts);
        free(*shortopts);
        return qsb_out_of_memory("option table");
    }
    char *s = *shortopts;
    *s++ = ':'; /* report a missing argument as ':' */
    *s++ = 'h';
    for (size_t i = 0; i < n; i++) {
        if (!options[i].name[0]) /* QSB_MORE_OPTIONS: a mark, no option */
            continue;
        (*longopts)[m++] = (struct option){options[i].name,
                                           options[i].arg ? required_argument : no_argument,
                                           NULL, 256 + (int)i};
        if (options[i].short_name) {
            *s++ = (char)options[i].short_name;
            if (options[i].arg)
                *s++ = ':';
        }
    }
    for (size_t j = 0; protocol && protocol[j].name; j++)
        if (protocol[j].part == QSB_WORKER_OWN)
            (*longopts)[m++] = (struct option){protocol[j].name, required_argument, NULL,
                                               256 + (int)(n + j)};
    (*longopts)[m++] = (struct option){"help", no_argument, NULL, 'h'};
    (*longopts)[m] = (struct option){"help-all", no_argument, NULL, HELP_ALL_VAL};
    return QSB_OK;
}

static int short_to_index(const qsb_option *options, int c)
{
    for (size_t i = 0; options && options[i].name; i++)
        if (options[i].short_name == c)
            return (int)i;
    return -1;
}

int qsb_parse_options(const qsb_command_spec *spec, int argc, char **argv,
                      qsb_option_handler handler, void *ctx, int *first_operand)
{
    return qsb_parse_options_with(spec, NULL, argc, argv, handler, ctx, first_operand);
}

int qsb_parse_options_with(const qsb_command_spec *spec, const qsb_worker_option *protocol,
                           int argc, char **argv, qsb_option_handler handler, void *ctx,
                           int *first_operand)
{
    qsb_usage_help_of(spec->name);
    struct option *longopts;
    char *shortopts;
    int status = build_getopt_tables(spec->options, protocol, &longopts, &shortopts);
    if (status != QSB_OK)
        return status;

    opterr = 0;
    optind = 0; /* 0 re-initialises glibc's getopt, so it can be called once per command */
    int c;
    while (status == QSB_OK && (c = getopt_long(argc, argv, shortopts, longopts, NULL)) != -1) {
        if (c == 'h' || c == HELP_ALL_VAL) {
            print_command_help(spec, protocol, c == HELP_ALL_VAL);
            status = QSB_HELP_SHOWN;
        } else if (c == ':') {
            status = qsb_usage_error("option '%s' needs a value", qsb_quote(argv[optind - 1]));
        } else if (c == '?') {
            char letter[2] = {(char)optopt, '\0'}; /* "-\x1b" is an option too */
            status = qsb_usage_error("unknown option '%s%s'", optopt ? "-" : "",
                                     qsb_quote(optopt ? letter : argv[optind - 1]));
        } else {
            int index = c >= 256 ? c - 256 : short_to_index(spec->options, c);
            size_t n = option_count(spec->options);
            bool flag = (size_t)index < n && !spec->options[index].arg;
            status = handler(ctx, index, flag ? NULL : optarg);
        }
    }
    *first_operand = optind;
    free(longopts);
    free(shortopts);
    return status;
}

int qsb_parse_u64(const char *text, const char *what, uint64_t min, uint64_t max,
                  int hex_ok, uint64_t *out)
{
    int base = 10;
    const char *digits = text;
    if (hex_ok && (strncmp(text, "0x", 2) == 0 || strncmp(text, "0X", 2) == 0)) {
        base = 16;
        digits = text + 2;
    }
    /* strtoull accepts blanks, signs and a "0x" of its own: allow only digits. */
    size_t len = strlen(digits);
    if (digits[0] == '-' && len > 1 && strspn(digits + 1, "0123456789") == len - 1)
        return qsb_usage_error("%s: '%s' is out of range (must be ≥ %llu)", what,
                               qsb_quote(text), (unsigned long long)min);
    if (len == 0 || strspn(digits, base == 16 ? "0123456789abcdefABCDEF" : "0123456789") != len)
        return qsb_usage_error("%s: '%s' is not a whole number", what, qsb_quote(text));
    errno = 0;
    unsigned long long v = strtoull(digits, NULL, base);
    if (errno == ERANGE || v > max)
        return qsb_usage_error("%s: '%s' is too large (at most %llu)", what, qsb_quote(text),
                               (unsigned long long)max);
    if (v < min)
        return qsb_usage_error("%s: '%s' is too small (at least %llu)", what, qsb_quote(text),
                               (unsigned long long)min);
    *out = v;
    return QSB_OK;
}

int qsb_parse_u64_list(const char *text, char sep, const char *what, uint64_t min,
                       uint64_t max, uint64_t **out, size_t *count)
{
    size_t n = 1;
    for (const char *p = text; *p; p++)
        n += *p == sep;
    uint64_t *values = malloc(n * sizeof *values);
    char *copy = strdup(text);
    if (!values || !copy) {
        free(values);
        free(copy);
        return qsb_out_of_memory("list");
    }
    int status = QSB_OK;
    char *item = copy;
    for (size_t i = 0; i < n && status == QSB_OK; i++) {
        char *end = strchr(item, sep);
        if (end)
            *end = '\0';
        if (*item == '\0')
            status = qsb_usage_error("%s: empty element in '%s'", what, qsb_quote(text));
        else
            status = qsb_parse_u64(item, what, min, max, 0, &values[i]);
        item = end ? end + 1 : item;
    }
    free(copy);
    if (status != QSB_OK) {
        free(values);
        return status;
    }
    *out = values;
    *count = n;
    return QSB_OK;
}

int qsb_parse_double(const char *text, const char *what, double min, double max, double *out)
{
    /* A minus sign is read so that -5 is told it is out of range, not that it is no number. */
    const char *digits = text + (text[0] == '-');
    size_t len = strlen(digits);
    if (len == 0 || strspn(digits, "0123456789.") != len)
        return qsb_usage_error("%s: '%s' is not a number", what, qsb_quote(text));
    char *end;
    errno = 0;
    double v = strtod(text, &end); /* the tool never calls setlocale: '.' is the point */
    if (*end != '\0' || errno == ERANGE || !isfinite(v))
        return qsb_usage_error("%s: '%s' is not a number", what, qsb_quote(text));
    if (v < min)
        return qsb_usage_error("%s: '%s' is out of range (must be ≥ %g)", what,
                               qsb_quote(text), min);
    if (v > max)
        return qsb_usage_error("%s: '%s' is out of range (must be ≤ %g)", what,
                               qsb_quote(text), max);
    *out = v;
    return QSB_OK;
}

int qsb_parse_positive(const char *text, const char *what, double max, double *out)
{
    int status = qsb_parse_double(text, what, 0.0, max, out);
    if (status == QSB_OK && !(*out > 0.0))
        status = qsb_usage_error("%s: '%s' must be above 0", what, qsb_quote(text));
    return status;
}

int qsb_parse_size(const char *text, const char *what, uint64_t *out)
{
    static const char units[] = "KMGT";
    size_t digits = strspn(text, "0123456789");
    const char *unit = text + digits;
    const char *found = *unit ? strchr(units, toupper((unsigned char)*unit)) : NULL;
    const char *rest = found ? unit + 1 : unit;
    bool tail_ok = *rest == '\0' || (found && (strcmp(rest, "iB") == 0 || strcmp(rest, "B") == 0));
    if (digits == 0 || digits > 15 || !tail_ok)
        return qsb_usage_error("%s: '%s' is not a size (e.g. 4G, 512M or 1073741824 bytes)",
                               what, qsb_quote(text));
    uint64_t value = strtoull(text, NULL, 10);
    for (const char *u = units; found && u <= found; u++) {
        if (value > UINT64_MAX / 1024)
            return qsb_usage_error("%s: '%s' is out of range", what, qsb_quote(text));
        value *= 1024;
    }
    if (value == 0)
        return qsb_usage_error("%s: '%s' is out of range (must be above 0)", what,
                               qsb_quote(text));
    *out = value;
    return QSB_OK;
}

int qsb_split_words(const char *text, const char *what, char ***words, size_t *count)
{
    size_t n = 1, len = strlen(text);
    for (const char *p = text; *p; p++)
        n += *p == ',';
    /* One block: the pointer array, then a copy of the text cut at the commas. */
    char **list = malloc(n * sizeof *list + len + 1);
    if (!list)
        return qsb_out_of_memory("list");
    char *copy = (char *)(list + n);
    memcpy(copy, text, len + 1);
    for (size_t i = 0; i < n; i++) {
        char *end = strchr(copy, ',');
        if (end)
            *end = '\0';
        if (*copy == '\0') {
            free(list);
            return qsb_usage_error("%s: empty element in '%s'", what, qsb_quote(text));
        }
        list[i] = copy;
        copy = end ? end + 1 : copy;
    }
    *words = list;
    *count = n;
    return QSB_OK;
}

int qsb_parse_compat(const char *text, qsb_mode *mode)
{
    *mode = QSB_MODE_DEFAULT;
    if (!text)
        return QSB_OK;
    if (strcmp(text, QSB_COMPAT_2021_NAME) != 0)
        return qsb_usage_error("--compat: unknown mode '%s' (valid: " QSB_COMPAT_2021_NAME ")",
                               qsb_quote(text));
    *mode = QSB_MODE_COMPAT_2021;
    return QSB_OK;
}
