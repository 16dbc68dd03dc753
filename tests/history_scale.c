/*
** A generated history for the scale measurement of docs/results.md ("History at scale"), not
** a test: `history_scale FILE [RUNS]` adds RUNS (default 10,000) runs of 45 cells (5 patterns
** x 3 element counts x 3 sizes) x 2 algorithms, 30 cycles-like samples a row, commits c00001,
** ... a day apart, introsort 8% slower in random/1000/4 from run 9,001 on. The runs are added
** 100 per transaction. Then time `qsortbench history detect --db FILE` and `history show`.
*/
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "diag.h"
#include "history.h"
#include "series_gen.h"

#define BATCH 100
#define SAMPLES 30

static series_rng rng = {42};

static double normal(void)
{
    return series_normal(&rng);
}

static int build_run(qsb_results *r, size_t run)
{
    static const char *const patterns[] = {"random", "sorted", "reversed", "allequal", "saw"};
    static const uint64_t nelems[] = {1000, 49152, 786432}, sizes[] = {4, 8, 32};
    const char *const algos[] = {"msort", "introsort"};
    memset(r, 0, sizeof *r);
    if (qsb_set_string(&r->context.metric, "cycles") || qsb_set_string(&r->baseline, "msort") ||
        qsb_set_string(&r->context.machine, "generated") ||
        qsb_set_string(&r->context.command_line, "history_scale"))
        return -1;
    double host = 1.0 + 0.03 * normal();
    for (size_t p = 0; p < 5; p++)
        for (size_t j = 0; j < 3; j++)
            for (size_t s = 0; s < 3; s++) {
                qsb_cell *cell = qsb_results_add_cell(r, patterns[p], nelems[j], sizes[s],
                                                      algos, 2);
                if (!cell)
                    return -1;
                double base = 20.0 * (double)nelems[j] * log2((double)nelems[j]) * host;
                double slow = p == 0 && j == 0 && s == 0 && run >= 9000 ? 1.08 : 1.0;
                double ratio = 1.0 + series_run_delta(&rng, (slow * 0.95 - 1.0) * 100.0, 1.0) / 100.0;
                for (size_t a = 0; a < 2; a++) {
                    qsb_row *row = &cell->rows[a];
                    double level = a ? base * ratio : base;
                    for (uint32_t k = 0; k < SAMPLES; k++)
                        if (qsb_row_add_sample(row, floor(level * (1.0 + 0.02 * normal())),
                                               k / 6))
                            return -1;
                    qsb_summarize(row->samples, row->nsamples, &row->summary);
                    if (a) {
                        row->delta_pct = (ratio - 1.0) * 100.0;
                        row->delta_lo = row->delta_pct - 1.5;
                        row->delta_hi = row->delta_pct + 1.5;
                    }
                }
            }
    return 0;
}

int main(int argc, char **argv)
{
    if (argc < 2) {
        fprintf(stderr, "usage: history_scale FILE [RUNS]\n");
        return QSB_EUSAGE;
    }
    size_t runs = argc > 2 ? (size_t)strtoul(argv[2], NULL, 10) : 10000;
    qsb_history *h;
    int status = qsb_history_open(argv[1], QSB_HISTORY_CREATE, &h);
    qsb_results batch[BATCH];
    qsb_history_stamp stamps[BATCH];
    char commits[BATCH][16], dates[BATCH][32];
    for (size_t first = 0; status == QSB_OK && first < runs; first += BATCH) {
        size_t n = runs - first < BATCH ? runs - first : BATCH;
        for (size_t i = 0; i < n && status == QSB_OK; i++) {
            size_t run = first + i;
            snprintf(commits[i], sizeof commits[i], "c%05zu", run + 1);
            int64_t t = 1600000000 + (int64_t)run * 86400;
            time_t tt = (time_t)t;
            strftime(dates[i], sizeof dates[i], "%Y-%m-%dT%H:%M:%SZ", gmtime(&tt));
            stamps[i] = (qsb_history_stamp){commits[i], dates[i], t, "main", NULL, NULL, 0, false};
            if (build_run(&batch[i], run) != 0)
                status = qsb_out_of_memory("history_scale");
        }
        if (status == QSB_OK)
            status = qsb_history_add(h, batch, stamps, n, NULL);
        for (size_t i = 0; i < n; i++)
            qsb_results_free(&batch[i]);
    }
    qsb_history_close(h);
    return status;
}
