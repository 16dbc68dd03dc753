/*
** `qsortbench --generate WHAT PATH` (generate.h): the entry CMake runs to write the man pages
** and the completion.
*/
#include "generate.h"

#include <string.h>

#include "diag.h"
#include "outfile.h"

static int write_bash_completion(const qsb_tool *tool, const char *path)
{
    qsb_outfile of;
    int status = qsb_outfile_open(&of, path);
    if (status != QSB_OK)
        return status;
    qsb_write_bash_completion(tool, of.fp);
    return qsb_outfile_commit(&of);
}

int qsb_generate_files(const qsb_tool *tool, int argc, char **argv)
{
    if (argc != 3)
        return qsb_usage_error(QSB_GENERATE_OPTION " takes WHAT (man or bash) and a PATH");
    if (strcmp(argv[1], "man") == 0)
        return qsb_write_man_pages(tool, argv[2]);
    if (strcmp(argv[1], "bash") == 0)
        return write_bash_completion(tool, argv[2]);
    return qsb_usage_error(QSB_GENERATE_OPTION ": unknown '%s' (man or bash)", qsb_quote(argv[1]));
}
