/*
** `qsortbench audit [--algos LIST] [--json FILE] [--csv FILE] [--quick]`: parse; resolve the
** names into the command's set of plug-ins (plugins.h); open the files before the first probe
** (a bad path fails at once, and none may be a plug-in's library); run the audit with the set
** (audit_run.h); write and commit the files; free the set last (the rows name its plug-ins).
** Properties are data (exit 0); a subject that FAILED is a finding (exit 1); 2 on bad
** arguments, 3 on a system error.
*/
#include <stdlib.h>
#include <string.h>

#include "audit.h"
#include "audit_run.h"
#include "cli.h"
#include "commands.h"
#include "diag.h"
#include "outfile.h"
#include "plugins.h"

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

/* The algorithms of --algos (default: the registry), resolved into plugins. */
static int select_subjects(const char *algos, qsb_plugins *plugins,
                           qsb_audit_subjects *subjects)
{
    char **words = NULL;
    size_t n = 0;
    if (algos && qsb_split_words(algos, "--algos", &words, &n) != QSB_OK)
        return QSB_EUSAGE;
    int status = qsb_audit_subjects_select(subjects, plugins, (const char *const *)words, n);
    free(words);
    return status;
}

enum { OUT_CSV, OUT_JSON, OUT_COUNT };

/* What the audit owns, from the names resolved to the rows written. */
typedef struct {
    qsb_audit_subjects subjects;
    qsb_plugins *plugins;
    qsb_audit_result result;
    char *command_line;
} audit_job;

/* The audit between its opened files: both written (a subject that FAILED too) or neither.
** When a file takes stdout ("-", /dev/stdout...), the table goes to stderr so the file stays
** parseable. */
static int audit_into(const qsb_outputs *files, void *arg)
{
    audit_job *job = arg;
    int status = qsb_audit_run(&job->subjects, job->plugins, qsb_outputs_text_stream(files),
                               &job->result);
    if (status != QSB_OK && status != QSB_FINDING)
        return status;
    int write_status = qsb_audit_write(files->file[OUT_CSV].fp, files->file[OUT_JSON].fp,
                                       &job->result, job->command_line);
    return write_status != QSB_OK ? write_status : status;
}

/* The audit with its files, opened first; none may be the library of a plug-in audited. */
static int audit_with_files(audit_job *job, const qsb_output_spec *paths)
{
    const char *libraries[QSB_PLUGIN_MAX];
    const qsb_file_group read = {"the plug-in", QSB_FILES_READ, libraries,
                                 qsb_plugins_libraries(job->plugins, libraries)};
    return qsb_with_outputs(paths, OUT_COUNT, &read, 1, audit_into, job);
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
    audit_job job = {.subjects = {NULL, 0, 0}, .plugins = qsb_plugins_new()};
    qsb_audit_result_begin(&job.result, text[OPT_QUICK] ? QSB_AUDIT_QUICK : QSB_AUDIT_FULL);
    const qsb_output_spec paths[OUT_COUNT] = {{"--csv", text[OPT_CSV]}, {"--json", text[OPT_JSON]}};
    status = job.plugins ? select_subjects(text[OPT_ALGOS], job.plugins, &job.subjects)
                         : QSB_ESYSTEM;
    if (status == QSB_OK && !(job.command_line = qsb_command_line("audit", argc, argv)))
        status = qsb_out_of_memory("audit rows");
    if (status == QSB_OK)
        status = audit_with_files(&job, paths);
    free(job.command_line);
    qsb_audit_result_free(&job.result);
    qsb_audit_subjects_free(&job.subjects);
    qsb_plugins_free(job.plugins); /* last: the rows name its plug-ins */
    return status;
}

/* The command's row of the tool's table (main.c). */
const qsb_command qsb_audit_command = {
    .name = "audit",
    .run = audit_main,
    .summary = "stability, allocation, stack, worst case, broken comparators",
    .specs = audit_specs,
};
