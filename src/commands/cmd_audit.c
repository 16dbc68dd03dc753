/*
** `qsortbench audit [--algos LIST] [--json FILE] [--csv FILE] [--quick]`: parse, then the
** audit (audit_run.h) with the names, the depth and the files' paths.
** Properties are data (exit 0); a subject that FAILED is a finding (exit 1); 2 on bad
** arguments, 3 on a system error.
*/
#include <stdlib.h>
#include <string.h>

#include "audit_run.h"
#include "cli.h"
#include "commands.h"
#include "diag.h"

enum { OPT_ALGOS, OPT_JSON, OPT_CSV, OPT_QUICK, OPT_COUNT };

static const qsb_option audit_options[] = {
    {"algos", 'a', "LIST",
     "comma-separated registry names or plug-ins [NAME=]PATH.so:SYMBOL[:qsort] "
     "(default: the whole registry)"},
    {"json", 0, "FILE", "also write the rows as JSON ('-' for stdout)"},
    {"csv", 0, "FILE", "also write the rows as CSV ('-' for stdout)"},
    {"quick", 'q', NULL, "stack probe up to n = 65536 instead of 8,388,608"},
    {NULL, 0, NULL, NULL},
};

static const qsb_command_spec audit_spec = {
    "audit", "[OPTIONS]",
    "Measure, for each algorithm: stability, allocation, stack depth, comparisons on McIlroy's\n"
    "killer adversary, and behaviour under broken comparators (guard pages around the array).",
    audit_options,
    "0 whatever properties are found (they are data), 1 when a subject FAILED\n"
    "(crashed, hung, exited or wrote outside its array), 2 usage error or bad input, 3 system\n"
    "error."};
static const qsb_command_spec *const audit_specs[] = {&audit_spec, NULL};

/* Each option's argument ("" for --quick) into ctx, an array of OPT_COUNT texts. */
static int on_option(void *ctx, int index, const char *arg)
{
    ((const char **)ctx)[index] = arg ? arg : "";
    return QSB_OK;
}

static int audit_main(int argc, char **argv)
{
    const char *text[OPT_COUNT] = {NULL};
    int first, status = qsb_parse_options(&audit_spec, argc, argv, on_option, text, &first);
    if (status != QSB_OK)
        return status == QSB_HELP_SHOWN ? QSB_OK : status;
    if (first < argc)
        return qsb_usage_error("audit takes no operands ('%s')", qsb_quote(argv[first]));
    qsb_audit_exec_with_probe(argc, argv);
    char **names = NULL;
    qsb_audit_request request = {
        .depth = text[OPT_QUICK] ? QSB_AUDIT_QUICK : QSB_AUDIT_FULL,
        .csv = {"--csv", text[OPT_CSV]},
        .json = {"--json", text[OPT_JSON]},
    };
    if (text[OPT_ALGOS] &&
        qsb_split_words(text[OPT_ALGOS], "--algos", &names, &request.n_names) != QSB_OK)
        return QSB_EUSAGE;
    request.names = (const char *const *)names;
    char *command_line = qsb_command_line("audit", argc, argv);
    request.command_line = command_line;
    status = command_line ? qsb_audit(&request) : qsb_out_of_memory("audit rows");
    free(command_line);
    free(names);
    return status;
}

/* The command's row of the tool's table (main.c). */
const qsb_command qsb_audit_command = {
    .name = "audit",
    .run = audit_main,
    .summary = "stability, allocation, stack, worst case, broken comparators",
    .specs = audit_specs,
};
