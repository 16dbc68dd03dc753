/*
** The axes of a results structure and the data files of the chart scripts (see plot.h and
** plot_data.h): one block per panel, in the order the scripts in plots/ read them.
*/
#include "plot_data.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "diag.h"

static const char *const cache_level_names[3] = {"L1d", "L2", "L3"};

/* ------------------------------------------------------------------------------------------
** Axes
*/

static int compare_u64(const void *a, const void *b)
{
    uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;
    return (x > y) - (x < y);
}

/* Appends v to a set kept unsorted (sorted once at the end). */
static void add_u64(uint64_t *set, size_t *n, uint64_t v)
{
    for (size_t i = 0; i < *n; i++)
        if (set[i] == v)
            return;
    set[(*n)++] = v;
}

static void add_name(const char **set, size_t *n, const char *name)
{
    if (!name)
        return;
    for (size_t i = 0; i < *n; i++)
        if (strcmp(set[i], name) == 0)
            return;
    set[(*n)++] = name;
}

void qsb_plot_axes_free(qsb_plot_axes *ax)
{
    free(ax->sizes);
    free(ax->nelems);
    free(ax->patterns);
    free(ax->algorithms);
    memset(ax, 0, sizeof *ax);
}

int qsb_plot_axes_build(const qsb_results *r, qsb_plot_axes *ax)
{
    memset(ax, 0, sizeof *ax);
    size_t cells = r->ncells ? r->ncells : 1, rows = qsb_results_row_count(r) + 1;
    ax->sizes = malloc(cells * sizeof *ax->sizes);
    ax->nelems = malloc(cells * sizeof *ax->nelems);
    ax->patterns = malloc(cells * sizeof *ax->patterns);
    ax->algorithms = malloc(rows * sizeof *ax->algorithms);
    if (!ax->sizes || !ax->nelems || !ax->patterns || !ax->algorithms) {
        qsb_plot_axes_free(ax);
        return qsb_out_of_memory("chart axes");
    }
    /* The baseline comes first: its colour, and the candidates' indices, follow from it. */
    if (r->baseline)
        add_name(ax->algorithms, &ax->nalgorithms, r->baseline);
    for (size_t c = 0; c < r->ncells; c++) {
        const qsb_cell *cell = &r->cells[c];
        add_u64(ax->sizes, &ax->nsizes, cell->size);
        add_u64(ax->nelems, &ax->nnelems, cell->nelem);
        add_name(ax->patterns, &ax->npatterns, cell->pattern);
        for (size_t k = 0; k < cell->nrows; k++)
            add_name(ax->algorithms, &ax->nalgorithms, cell->rows[k].algorithm);
    }
    qsort(ax->sizes, ax->nsizes, sizeof *ax->sizes, compare_u64);
    qsort(ax->nelems, ax->nnelems, sizeof *ax->nelems, compare_u64);
    return QSB_OK;
}

static const qsb_row *find_row(const qsb_results *r, const char *pattern, uint64_t nelem,
                               uint64_t size, const char *algorithm)
{
    for (size_t c = 0; c < r->ncells; c++) {
        const qsb_cell *cell = &r->cells[c];
        if (cell->nelem != nelem || cell->size != size || !cell->pattern ||
            strcmp(cell->pattern, pattern) != 0)
            continue;
        for (size_t k = 0; k < cell->nrows; k++)
            if (cell->rows[k].algorithm && strcmp(cell->rows[k].algorithm, algorithm) == 0)
                return &cell->rows[k];
        return NULL; /* the first matching cell decides */
    }
    return NULL;
}

int qsb_plot_has_comparisons(const qsb_results *r)
{
    for (qsb_row_cursor at = {0}; qsb_results_next_row(r, &at);)
        if (at.row->comparisons > 0)
            return 1;
    return 0;
}

/* ------------------------------------------------------------------------------------------
** Data files. gnuplot reads "NaN" as undefined (a gap); blocks are separated by two blank
** lines so that `index` selects them. Names become one word without gnuplot's comment or
** quote characters.
*/

static void put_number(FILE *fp, double v)
{
    if (isfinite(v))
        fprintf(fp, " %.10g", v);
    else
        fputs(" NaN", fp);
}

const char *qsb_plot_shown(char buf[QSB_QUOTE_MAX + 1], const char *text)
{
    return qsb_escape(buf, QSB_QUOTE_MAX + 1, text, "\\");
}

static void put_word(FILE *fp, const char *name)
{
    fputc(' ', fp);
    for (const char *s = name; *s; s++)
        fputc(*s > ' ' && *s < 127 && *s != '"' && *s != '\'' && *s != '#' ? *s : '_', fp);
}

static double bar_x(size_t group, size_t bar, size_t bars, double width)
{
    return (double)group + ((double)bar - (double)(bars - 1) / 2.0) * width;
}

void qsb_plot_write_deltas(FILE *fp, const qsb_results *r, const qsb_plot_axes *ax,
                           size_t candidate)
{
    const char *base_name = ax->algorithms[0], *cand_name = ax->algorithms[candidate];
    double width = 0.8 / (double)ax->nnelems;
    char cand_shown[QSB_QUOTE_MAX + 1], base_shown[QSB_QUOTE_MAX + 1];
    fprintf(fp, "# qsortbench deltas of %s against %s: one block per element size\n"
                "# x delta_pct delta_lo delta_hi failed series width noisy pattern\n",
            qsb_plot_shown(cand_shown, cand_name), qsb_plot_shown(base_shown, base_name));
    for (size_t s = 0; s < ax->nsizes; s++) {
        fprintf(fp, "%s# element size %llu bytes\n", s ? "\n\n" : "",
                (unsigned long long)ax->sizes[s]);
        for (size_t p = 0; p < ax->npatterns; p++) {
            for (size_t j = 0; j < ax->nnelems; j++) {
                const qsb_row *base = find_row(r, ax->patterns[p], ax->nelems[j],
                                               ax->sizes[s], base_name);
                const qsb_row *cand = find_row(r, ax->patterns[p], ax->nelems[j],
                                               ax->sizes[s], cand_name);
                int failed = (base && !base->verified) || (cand && !cand->verified);
                int known = cand && !failed;
                put_number(fp, bar_x(p, j, ax->nnelems, width));
                put_number(fp, known ? cand->delta_pct : NAN);
                put_number(fp, known ? cand->delta_lo : NAN);
                put_number(fp, known ? cand->delta_hi : NAN);
                fprintf(fp, " %d %zu", failed, j);
                put_number(fp, width);
                fprintf(fp, " %d", known && cand->noisy);
                put_word(fp, ax->patterns[p]);
                fputc('\n', fp);
            }
        }
    }
}

void qsb_plot_write_scaling(FILE *fp, const qsb_results *r, const qsb_plot_axes *ax)
{
    fprintf(fp, "# qsortbench scaling. Index 0: cache capacity in elements of each size\n"
                "# size level elements\n");
    for (size_t s = 0; s < ax->nsizes; s++) {
        for (int k = 0; k < 3; k++) {
            uint64_t bytes = r->context.cache_bytes[k];
            fprintf(fp, "%llu %s", (unsigned long long)ax->sizes[s], cache_level_names[k]);
            put_number(fp, bytes && ax->sizes[s] ? (double)bytes / (double)ax->sizes[s] : NAN);
            fputc('\n', fp);
        }
    }
    for (size_t s = 0; s < ax->nsizes; s++) {
        for (size_t p = 0; p < ax->npatterns; p++) {
            for (size_t a = 0; a < ax->nalgorithms; a++) {
                char pattern[QSB_QUOTE_MAX + 1], algorithm[QSB_QUOTE_MAX + 1];
                fprintf(fp, "\n\n# size %llu, pattern %s, algorithm %s\n"
                            "# nelem per_element failed\n",
                        (unsigned long long)ax->sizes[s], qsb_plot_shown(pattern, ax->patterns[p]),
                        qsb_plot_shown(algorithm, ax->algorithms[a]));
                for (size_t j = 0; j < ax->nnelems; j++) {
                    uint64_t n = ax->nelems[j];
                    const qsb_row *row = find_row(r, ax->patterns[p], n, ax->sizes[s],
                                                  ax->algorithms[a]);
                    int failed = row && !row->verified;
                    double v = row && !failed && n ? row->summary.median / (double)n : NAN;
                    fprintf(fp, "%llu", (unsigned long long)n);
                    put_number(fp, v);
                    fprintf(fp, " %d\n", failed);
                }
            }
        }
    }
}

void qsb_plot_write_comparisons(FILE *fp, const qsb_results *r, const qsb_plot_axes *ax)
{
    double width = 0.8 / (double)ax->nalgorithms;
    fprintf(fp, "# qsortbench comparator calls / (n log2 n): one block per (size, count)\n"
                "# x ratio failed series width pattern\n");
    for (size_t s = 0; s < ax->nsizes; s++) {
        for (size_t j = 0; j < ax->nnelems; j++) {
            uint64_t n = ax->nelems[j];
            fprintf(fp, "%s# element size %llu bytes, %llu elements\n",
                    s || j ? "\n\n" : "", (unsigned long long)ax->sizes[s],
                    (unsigned long long)n);
            double nlogn = n >= 2 ? (double)n * log2((double)n) : 0.0;
            for (size_t p = 0; p < ax->npatterns; p++) {
                for (size_t a = 0; a < ax->nalgorithms; a++) {
                    const qsb_row *row = find_row(r, ax->patterns[p], n, ax->sizes[s],
                                                  ax->algorithms[a]);
                    int failed = row && !row->verified;
                    int known = row && !failed && row->comparisons > 0 && nlogn > 0;
                    put_number(fp, bar_x(p, a, ax->nalgorithms, width));
                    put_number(fp, known ? (double)row->comparisons / nlogn : NAN);
                    fprintf(fp, " %d %zu", failed, a);
                    put_number(fp, width);
                    put_word(fp, ax->patterns[p]);
                    fputc('\n', fp);
                }
            }
        }
    }
}
