/*
** `qsortbench compare --machines A,B FILE [FILE]`: the options and the files; the table is
** the fleet view's (fleet_view.h).
*/
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "commands.h"
#include "diag.h"
#include "grow.h"
#include "fleet_view.h"
#include "read_results.h"

enum { OPT_MACHINES };

static const qsb_option machines_options[] = {
    [OPT_MACHINES] = {"machines", 0, "A,B", "the two machines to compare (their names in "
                                            "the files: run --machine, else the host)"},
    {NULL, 0, NULL, NULL},
};

const qsb_command_spec qsb_compare_machines_spec = {
    "compare", "--machines A,B FILE [FILE]",
    "Compare two machines' paired deltas cell by cell: for each candidate, its delta against\n"
    "the baseline on machine A and on machine B, and B - A. FILE is a fleet file from merge;\n"
    "or two files, one per machine.",
    machines_options,
    "0 success, 2 usage error or bad input (an unreadable or malformed file, a\n"
    "machine not in the files), 3 system error."};

static int on_machines(void *ctx, int index, const char *arg)
{
    (void)index;
    *(const char **)ctx = arg;
    return QSB_OK;
}

int qsb_cmd_compare_machines(int argc, char **argv)
{
    const char *pair = NULL;
    int first;
    int status = qsb_parse_options(&qsb_compare_machines_spec, argc, argv, on_machines, &pair, &first);
    if (status != QSB_OK)
        return status == QSB_HELP_SHOWN ? QSB_OK : status;
    char **names = NULL;
    size_t nnames = 0;
    status = qsb_split_words(pair, "--machines", &names, &nnames);
    if (status != QSB_OK)
        return status;
    if (nnames != 2 || argc - first < 1 || argc - first > 2) {
        free(names);
        return qsb_usage_error("compare --machines A,B takes two machine names and one fleet "
                               "file (or two files)");
    }
    qsb_results *all = NULL;
    size_t n = 0, cap = 0;
    for (int f = first; f < argc && status == QSB_OK; f++) {
        qsb_results *runs = NULL;
        size_t count = 0;
        status = qsb_read_fleet(argv[f], &runs, &count);
        bool grown = status == QSB_OK && QSB_GROW(all, cap, n + count) == 0;
        if (status == QSB_OK && !grown)
            status = qsb_out_of_memory("compare");
        for (size_t k = 0; k < count; k++) {
            if (grown)
                all[n++] = runs[k];
            else
                qsb_results_free(&runs[k]);
        }
        free(runs);
    }
    const qsb_results *pick[2] = {NULL, NULL};
    for (size_t w = 0; w < 2 && status == QSB_OK; w++) {
        for (size_t m = 0; m < n && !pick[w]; m++)
            if (strcmp(qsb_machine_name(&all[m].context), names[w]) == 0)
                pick[w] = &all[m];
        if (!pick[w]) {
            char list[256] = "";
            size_t used = 0;
            for (size_t m = 0; m < n && used < sizeof list - 1; m++)
                used += (size_t)snprintf(list + used, sizeof list - used, "%s%s", m ? ", " : "",
                                         qsb_machine_name(&all[m].context));
            status = qsb_error(QSB_EUSAGE, "--machines: no machine '%s' in the files (they "
                               "hold: %s)", qsb_quote(names[w]), qsb_quote(list));
        }
    }
    if (status == QSB_OK)
        status = qsb_compare_machines(stdout, pick[0], pick[1]);
    for (size_t m = 0; m < n; m++)
        qsb_results_free(&all[m]);
    free(all);
    free(names);
    return status;
}
