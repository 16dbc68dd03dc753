/*
** Charts through gnuplot (see plot.h): the scripts' arguments (word lists, titles) and the
** charts of one results structure, rendered and published all or none.
**
** In this order: the axes and the data files of the charts; gnuplot and its scripts; the
** charts.
*/
#include "plot.h"

#include <errno.h>
#include <limits.h>
#include <math.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/types.h>
#include <sys/wait.h>
#include <unistd.h>

#include "child.h"
#include "diag.h"
#include "grow.h"
#include "outfile.h"
#include "version.h"

/* ---- The axes of a results structure and the data files of the chart scripts: one block per
** panel, in the order the scripts in plots/ read them. ---- */

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

/* A name from the results file in a data file's comment or a chart title: escaped (diag.h)
** and cut like a quoted value, so that no name can end the comment line early (a newline in
** a CSV field would add a data row) or put control bytes and invalid UTF-8 into a chart (an
** SVG with them is not XML). Titles need no gnuplot quoting beyond this: they reach gnuplot
** as ARGn strings, which it never evaluates, and the scripts set noenhanced. */
static const char *shown(char buf[QSB_QUOTE_MAX + 1], const char *text)
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
            shown(cand_shown, cand_name), shown(base_shown, base_name));
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
                        (unsigned long long)ax->sizes[s], shown(pattern, ax->patterns[p]),
                        shown(algorithm, ax->algorithms[a]));
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

/* ---- gnuplot and its scripts: where the scripts of plots/ are, and gnuplot run as a child
** process, its failure told in its own words. ---- */

#define QSB_GNUPLOT "gnuplot"
#define GNUPLOT_PACKAGE "install Debian's gnuplot-nox (apt-get install gnuplot-nox)"
#define STDERR_KEEP 16384 /* bytes of gnuplot's stderr kept for the error message */

static const char *const chart_scripts[] = {"deltas.gp", "scaling.gp", "comparisons.gp",
                                             "trend.gp"};

/* ------------------------------------------------------------------------------------------
** Where the scripts are: beside an installed executable, in the source tree for a build-tree
** executable, or under the configured install prefix.
*/

static int scripts_in(const char *dir)
{
    char path[PATH_MAX];
    for (size_t i = 0; i < sizeof chart_scripts / sizeof *chart_scripts; i++) {
        int n = snprintf(path, sizeof path, "%s/%s", dir, chart_scripts[i]);
        if (n < 0 || (size_t)n >= sizeof path || access(path, R_OK) != 0)
            return 0;
    }
    return 1;
}

static int exe_relative_dir(char *dir, size_t len)
{
    char exe[PATH_MAX];
    ssize_t n = readlink("/proc/self/exe", exe, sizeof exe - 1);
    if (n <= 0)
        return 0;
    exe[n] = '\0';
    char *slash = strrchr(exe, '/');
    if (!slash)
        return 0;
    *slash = '\0';
    int m = snprintf(dir, len, "%s/../share/qsortbench/plots", exe);
    return m > 0 && (size_t)m < len;
}

/* The directory holding every chart script into dir (len bytes): QSB_OK, or the error
** reported (none found: where it looked). */
static int find_scripts(char *dir, size_t len)
{
    if (exe_relative_dir(dir, len) && scripts_in(dir))
        return QSB_OK;
#ifdef QSB_SOURCE_PLOTS_DIR
    if (scripts_in(QSB_SOURCE_PLOTS_DIR)) {
        snprintf(dir, len, "%s", QSB_SOURCE_PLOTS_DIR);
        return QSB_OK;
    }
#endif
    if (scripts_in(QSB_DATADIR "/plots")) {
        snprintf(dir, len, "%s", QSB_DATADIR "/plots");
        return QSB_OK;
    }
    return qsb_error(QSB_ESYSTEM,
                     "the gnuplot scripts (deltas.gp, ...) are in neither "
                     "<executable>/../share/qsortbench/plots nor %s/plots; reinstall qsortbench",
                     QSB_DATADIR);
}

/* ------------------------------------------------------------------------------------------
** gnuplot as a child process (child.h): argument vector, no shell; stdin and stdout on
** /dev/null so it can neither wait for input nor write into the tool's output; the end of its
** stderr kept for the message.
*/

/* gnuplot's own message: the last non-empty line of its stderr ("file" line N: what). */
static const char *last_line(char *text, size_t len)
{
    while (len > 0 && (text[len - 1] == '\n' || text[len - 1] == '\r' || text[len - 1] == ' '))
        len--;
    text[len] = '\0';
    char *start = memrchr(text, '\n', len);
    return start ? start + 1 : text;
}

/* Reports why gnuplot did not do its job (wait status -1: it could not be started, errno
** set); QSB_OK when it did. */
static int gnuplot_verdict(int wait_status, char *err, const char *what)
{
    if (wait_status < 0)
        return qsb_error(QSB_ESYSTEM, "cannot run %s: %s; %s", QSB_GNUPLOT, strerror(errno),
                         GNUPLOT_PACKAGE);
    if (WIFEXITED(wait_status) && WEXITSTATUS(wait_status) == 0)
        return QSB_OK;
    /* gnuplot's words, unquoted in the message (its own quotes kept), escaped: they may echo
    ** the title and paths it was given */
    char message[QSB_QUOTE_PATH_MAX + 1];
    qsb_escape(message, sizeof message, last_line(err, strlen(err)), "\\");
    if (WIFSIGNALED(wait_status))
        return qsb_error(QSB_ESYSTEM, "gnuplot was killed by signal %d drawing %s",
                         WTERMSIG(wait_status), what);
    return qsb_error(QSB_ESYSTEM, "gnuplot failed drawing %s (exit status %d): %s; the charts "
                     "need Debian's gnuplot-nox 5.4 or later", what,
                     WEXITSTATUS(wait_status), *message ? message : "no message");
}

/* Runs gnuplot with argv (argv[0] QSB_GNUPLOT, NULL-terminated) and waits for it: QSB_OK when
** it exited with status 0; else the error reported, naming `what` it was drawing and, when it
** failed, the last line of its stderr. */
static int run_gnuplot(char *const argv[], const char *what)
{
    char *err = malloc(STDERR_KEEP);
    if (!err)
        return qsb_out_of_memory("gnuplot");
    int wait_status = qsb_child_run((const char *const *)argv, NULL, NULL, err, STDERR_KEEP,
                                    QSB_CHILD_LAST_ERRORS);
    int status = gnuplot_verdict(wait_status, err, what);
    free(err);
    return status;
}

int qsb_plot_run_script(const char *script, const char *const *args, size_t nargs,
                        const char *output, const char *what)
{
    char dir[PATH_MAX], path[PATH_MAX + 32];
    int status = find_scripts(dir, sizeof dir);
    if (status != QSB_OK)
        return status;
    snprintf(path, sizeof path, "%s/%s", dir, script);
    char **argv = calloc(nargs + 5, sizeof *argv);
    if (!argv)
        return qsb_out_of_memory("gnuplot");
    argv[0] = QSB_GNUPLOT;
    argv[1] = "-d";
    argv[2] = "-c";
    argv[3] = path;
    for (size_t i = 0; i < nargs; i++)
        argv[4 + i] = (char *)args[i];
    status = run_gnuplot(argv, what);
    free(argv);
    struct stat st;
    if (status == QSB_OK && (stat(output, &st) != 0 || st.st_size == 0))
        status = qsb_error(QSB_ESYSTEM, "gnuplot wrote no %s; the charts need Debian's "
                           "gnuplot-nox 5.4 or later", what);
    return status;
}

int qsb_plot_check(void)
{
    char dir[PATH_MAX];
    int status = find_scripts(dir, sizeof dir);
    if (status != QSB_OK)
        return status;
    char *argv[] = {QSB_GNUPLOT, "--version", NULL};
    return run_gnuplot(argv, "nothing (--version)");
}

/* ---- The charts ---- */

/* ------------------------------------------------------------------------------------------
** Script arguments: word lists and titles. gnuplot receives them as ARGn strings and never
** evaluates them, so any text is safe; names are made single words for words()/word().
*/

/* Minimal growable string; every append reports failure through ok. */
typedef struct {
    char *text;
    size_t len, cap;
    int ok;
} strbuf;

static void sb_append(strbuf *sb, const char *s, size_t n)
{
    if (!sb->ok)
        return;
    if (QSB_GROW(sb->text, sb->cap, sb->len + n + 1) != 0) {
        sb->ok = 0;
        return;
    }
    memcpy(sb->text + sb->len, s, n);
    sb->len += n;
    sb->text[sb->len] = '\0';
}

static void sb_puts(strbuf *sb, const char *s)
{
    sb_append(sb, s, strlen(s));
}

static void sb_printf(strbuf *sb, const char *fmt, ...) QSB_PRINTF(2, 3);
static void sb_printf(strbuf *sb, const char *fmt, ...)
{
    char *piece;
    va_list ap;
    va_start(ap, fmt);
    int n = vasprintf(&piece, fmt, ap);
    va_end(ap);
    if (n < 0) {
        sb->ok = 0;
        return;
    }
    sb_append(sb, piece, (size_t)n);
    free(piece);
}

/* The result, or NULL (the buffer freed) when an append failed. */
static char *sb_finish(strbuf *sb)
{
    if (!sb->ok || !sb->text) {
        free(sb->text);
        return NULL;
    }
    return sb->text;
}

static void sb_word(strbuf *sb, const char *name, const char *keep)
{
    if (sb->len)
        sb_puts(sb, " ");
    for (const char *s = name; *s; s++) {
        char c = *s > ' ' && *s < 127 && !strchr(keep, *s) ? *s : '_';
        sb_append(sb, &c, 1);
    }
}

static char *word_list_names(const char *const *names, size_t n)
{
    strbuf sb = {NULL, 0, 0, 1};
    sb_puts(&sb, "");
    for (size_t i = 0; i < n; i++)
        sb_word(&sb, names[i], "\"'#");
    return sb_finish(&sb);
}

static char *word_list_u64(const uint64_t *values, size_t n)
{
    strbuf sb = {NULL, 0, 0, 1};
    sb_puts(&sb, "");
    for (size_t i = 0; i < n; i++)
        sb_printf(&sb, "%s%llu", i ? " " : "", (unsigned long long)values[i]);
    return sb_finish(&sb);
}

static int known(const char *s)
{
    return s && *s && strcmp(s, "unknown") != 0;
}

/* The machine and the seed, under every chart's title; a CSV file records no machine. */
static char *subtitle_of(const qsb_context *cx)
{
    strbuf sb = {NULL, 0, 0, 1};
    char a[QSB_QUOTE_MAX + 1], b[QSB_QUOTE_MAX + 1]; /* every string is the file's */
    if (known(cx->host) && known(cx->cpu_model))
        sb_printf(&sb, "%s (%s)", shown(a, cx->host), shown(b, cx->cpu_model));
    else if (known(cx->host) || known(cx->cpu_model))
        sb_puts(&sb, shown(a, known(cx->host) ? cx->host : cx->cpu_model));
    else
        sb_puts(&sb, "machine not recorded");
    if (known(cx->libc))
        sb_printf(&sb, ", %s", shown(a, cx->libc));
    sb_printf(&sb, "; seed 0x%llx", (unsigned long long)cx->seed);
    if (known(cx->date))
        sb_printf(&sb, "; %s", shown(a, cx->date));
    if (known(cx->mode) && strcmp(cx->mode, "default") != 0)
        sb_printf(&sb, "; inputs %s", shown(a, cx->mode));
    if (known(cx->build_type) && strcmp(cx->build_type, "Release") != 0)
        sb_printf(&sb, "; %s build", shown(a, cx->build_type));
    if (cx->incomplete)
        sb_puts(&sb, "; INCOMPLETE run");
    return sb_finish(&sb);
}

static const char *metric_of(const qsb_results *r)
{
    return r->context.metric && *r->context.metric ? r->context.metric : "ns";
}

int qsb_plot_parse_format(const char *text, qsb_plot_format *out)
{
    if (strcmp(text, "png") == 0)
        *out = QSB_PLOT_PNG;
    else if (strcmp(text, "svg") == 0)
        *out = QSB_PLOT_SVG;
    else
        return qsb_usage_error("--format: '%s' is neither png nor svg", qsb_quote(text));
    return QSB_OK;
}

/* ------------------------------------------------------------------------------------------
** The charts of one results structure: data files in a private temporary directory, each
** chart rendered into a temporary file beside its final name, all renamed at the end.
*/

#define MAX_CANDIDATES 64 /* deltas charts of one results file */

typedef void (*data_writer)(FILE *fp, const qsb_results *r, const qsb_plot_axes *ax,
                            size_t algorithm);

typedef struct {
    const char *script;   /* in the scripts directory */
    char *name;           /* "deltas-introsort": the file name's tail, and in messages */
    data_writer write;
    size_t algorithm;     /* the candidate of a deltas chart */
    char *title;
    const char *extra[4]; /* ARG6..ARG9 of the script */
    char *data_path;
    char *temp_path;
    char *final_path;     /* as named (and listed) */
    char *target_path;    /* what the rename replaces: final_path with its links followed */
} chart;

typedef struct {
    const qsb_results *r;
    const qsb_plot_options *opt;
    qsb_plot_axes ax;
    char scripts[PATH_MAX];
    char tmpdir[PATH_MAX];
    char *subtitle, *sizes, *nelems, *patterns, *algorithms;
    chart charts[MAX_CANDIDATES + 2];
    size_t ncharts;
} plot_job;

static void write_scaling(FILE *fp, const qsb_results *r, const qsb_plot_axes *ax, size_t a)
{
    (void)a;
    qsb_plot_write_scaling(fp, r, ax);
}

static void write_comparisons(FILE *fp, const qsb_results *r, const qsb_plot_axes *ax,
                              size_t a)
{
    (void)a;
    qsb_plot_write_comparisons(fp, r, ax);
}

static char *printf_alloc(const char *fmt, ...) QSB_PRINTF(1, 2);
static char *printf_alloc(const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    char *s = NULL;
    if (vasprintf(&s, fmt, ap) < 0)
        s = NULL;
    va_end(ap);
    return s;
}

/* A name usable in a file name: letters, digits and ._+- kept, anything else '_'. */
static char *file_word(const char *name)
{
    char *w = strdup(name);
    for (char *s = w; w && *s; s++)
        if (!strchr("._+-", *s) && !(*s >= 'a' && *s <= 'z') && !(*s >= 'A' && *s <= 'Z') &&
            !(*s >= '0' && *s <= '9'))
            *s = '_';
    return w;
}

/* <dir>/<stem>-<name>.<png|svg>, and in "." <stem>-<name>.<png|svg> ("run-scaling.png", not
** "./run-scaling.png"). malloc'd, or NULL. */
static char *chart_path(const char *dir, const char *stem, const char *name,
                        qsb_plot_format format)
{
    int here = strcmp(dir, ".") == 0;
    return printf_alloc("%s%s%s-%s.%s", here ? "" : dir, here ? "" : "/", stem, name,
                        format == QSB_PLOT_SVG ? "svg" : "png");
}

/* Takes ownership of title. */
static int add_chart(plot_job *job, const char *script, const char *name, data_writer write,
                     size_t algorithm, char *title, const char *const extra[4])
{
    chart *c = &job->charts[job->ncharts++];
    memset(c, 0, sizeof *c);
    c->script = script;
    c->write = write;
    c->algorithm = algorithm;
    c->title = title;
    memcpy(c->extra, extra, sizeof c->extra);
    c->name = name ? file_word(name) : NULL;
    if (c->name) {
        c->final_path = chart_path(job->opt->out_dir, job->opt->stem, c->name, job->opt->format);
        c->data_path = printf_alloc("%s/%zu-%s.dat", job->tmpdir, job->ncharts, c->name);
    }
    if (!title || !c->name || !c->final_path || !c->data_path)
        return qsb_out_of_memory("chart names");
    return QSB_OK;
}

static int plan_deltas(plot_job *job, const char *prefix, const char *metric)
{
    const qsb_plot_axes *ax = &job->ax;
    size_t candidates = ax->nalgorithms - 1;
    if (candidates > MAX_CANDIDATES) {
        qsb_warning("charting the deltas of the first %d of %zu candidates", MAX_CANDIDATES,
                    candidates);
        candidates = MAX_CANDIDATES;
    }
    const char *extra[4] = {metric, job->sizes, job->opt->series ? job->opt->series : job->nelems,
                            job->patterns};
    int status = QSB_OK;
    for (size_t a = 1; a <= candidates && status == QSB_OK; a++) {
        char *name = printf_alloc("deltas-%s", ax->algorithms[a]);
        char cand[QSB_QUOTE_MAX + 1], base[QSB_QUOTE_MAX + 1];
        char *title = printf_alloc("%s%s against %s (baseline), paired delta per cell",
                                   prefix, shown(cand, ax->algorithms[a]),
                                   shown(base, ax->algorithms[0]));
        status = add_chart(job, "deltas.gp", name, qsb_plot_write_deltas, a, title, extra);
        free(name);
    }
    return status;
}

static int plan_charts(plot_job *job)
{
    /* "qsortbench: ...", "TITLE: ...", or no prefix at all for an empty --title. */
    const char *title = job->opt->title ? job->opt->title : "qsortbench";
    char *prefix = printf_alloc("%s%s", title, *title ? ": " : "");
    if (!prefix)
        return qsb_out_of_memory("chart titles");
    const char *metric = metric_of(job->r);
    unsigned charts = job->opt->charts ? job->opt->charts : ~0u;
    int status = charts & QSB_CHART_DELTAS ? plan_deltas(job, prefix, metric) : QSB_OK;
    if (status == QSB_OK && (charts & QSB_CHART_SCALING)) {
        const char *extra[4] = {metric, job->sizes, job->patterns, job->algorithms};
        const char *unit = strcmp(metric, "comparisons") == 0 ? "comparator calls" : metric;
        status = add_chart(job, "scaling.gp", "scaling", write_scaling, 0,
                           printf_alloc("%s%s per element against the element count",
                                        prefix, unit), extra);
    }
    if (status == QSB_OK && (charts & QSB_CHART_COMPARISONS) && qsb_plot_has_comparisons(job->r)) {
        const char *extra[4] = {job->sizes, job->nelems, job->patterns, job->algorithms};
        status = add_chart(job, "comparisons.gp", "comparisons", write_comparisons, 0,
                           printf_alloc("%scomparator calls / (n log2 n)", prefix), extra);
    }
    free(prefix);
    return status;
}

static int write_data(const plot_job *job, const chart *c)
{
    FILE *fp = fopen(c->data_path, "w");
    if (!fp)
        return qsb_error(QSB_ESYSTEM, "cannot create '%s': %s", qsb_quote_path(c->data_path),
                         strerror(errno));
    c->write(fp, job->r, &job->ax, c->algorithm);
    int failed = ferror(fp) != 0;
    failed |= fclose(fp) != 0;
    return failed ? qsb_error(QSB_ESYSTEM, "cannot write '%s': %s",
                              qsb_quote_path(c->data_path), strerror(errno))
                  : QSB_OK;
}

/* An empty file beside the final one (same directory, so the rename is atomic); a chart named
** by a symbolic link is written through it, as every output is (outfile.h). */
static int make_temp_output(chart *c)
{
    if (!(c->target_path = qsb_output_target(c->final_path))) {
        int err = errno;
        return err == EINVAL ? qsb_error(QSB_EUSAGE, "cannot write the chart '%s': it is not a "
                                         "regular file", qsb_quote_path(c->final_path))
                             : qsb_error(err == ENOENT || err == ENOTDIR || err == ELOOP
                                             ? QSB_EUSAGE : QSB_ESYSTEM,
                                         "cannot create '%s': %s",
                                         qsb_quote_path(c->final_path), strerror(err));
    }
    c->temp_path = printf_alloc("%s.tmp-XXXXXX", c->target_path);
    if (!c->temp_path)
        return qsb_out_of_memory("chart names");
    int fd = mkstemp(c->temp_path);
    if (fd < 0) {
        int err = errno;
        free(c->temp_path);
        c->temp_path = NULL;
        return qsb_error(err == ENOENT || err == ENOTDIR ? QSB_EUSAGE : QSB_ESYSTEM,
                         "cannot create '%s': %s", qsb_quote_path(c->final_path), strerror(err));
    }
    close(fd);
    return QSB_OK;
}

static int render(const plot_job *job, chart *c)
{
    int status = write_data(job, c);
    if (status == QSB_OK)
        status = make_temp_output(c);
    if (status != QSB_OK)
        return status;
    char script[PATH_MAX + 32];
    snprintf(script, sizeof script, "%s/%s", job->scripts, c->script);
    char *argv[] = {QSB_GNUPLOT, "-d", "-c", script, c->data_path, c->temp_path,
                    job->opt->format == QSB_PLOT_SVG ? "svg" : "png", c->title, job->subtitle,
                    (char *)c->extra[0], (char *)c->extra[1], (char *)c->extra[2],
                    (char *)c->extra[3], NULL};
    status = run_gnuplot(argv, c->name);
    struct stat st;
    if (status == QSB_OK && (stat(c->temp_path, &st) != 0 || st.st_size == 0))
        status = qsb_error(QSB_ESYSTEM, "gnuplot wrote no %s chart; the charts need Debian's "
                           "gnuplot-nox 5.4 or later", c->name);
    return status;
}

/* mkstemp made the file private; a chart is as readable as any file the user creates. */
static int publish(chart *c)
{
    mode_t mask = umask(0);
    umask(mask);
    if (chmod(c->temp_path, 0666 & ~mask) != 0 || rename(c->temp_path, c->target_path) != 0)
        return qsb_error(QSB_ESYSTEM, "cannot write '%s': %s", qsb_quote_path(c->final_path),
                         strerror(errno));
    free(c->temp_path);
    c->temp_path = NULL;
    return QSB_OK;
}

static int ensure_directory(const char *dir)
{
    struct stat st;
    if (stat(dir, &st) == 0)
        return S_ISDIR(st.st_mode) ? QSB_OK
                                   : qsb_error(QSB_EUSAGE, "'%s' is not a directory",
                                               qsb_quote_path(dir));
    if (errno == ENOENT && mkdir(dir, 0777) == 0)
        return QSB_OK;
    int err = errno;
    return qsb_error(err == ENOENT || err == ENOTDIR ? QSB_EUSAGE : QSB_ESYSTEM,
                     "cannot create the chart directory '%s': %s", qsb_quote_path(dir),
                     strerror(err));
}

static int make_tmpdir(plot_job *job)
{
    const char *base = getenv("TMPDIR");
    if (!base || !*base)
        base = "/tmp";
    int n = snprintf(job->tmpdir, sizeof job->tmpdir, "%s/qsortbench-plot-XXXXXX", base);
    if (n < 0 || (size_t)n >= sizeof job->tmpdir || !mkdtemp(job->tmpdir)) {
        int err = n < 0 || (size_t)n >= sizeof job->tmpdir ? ENAMETOOLONG : errno;
        job->tmpdir[0] = '\0';
        return qsb_error(QSB_ESYSTEM, "cannot create a temporary directory in '%s': %s",
                         qsb_quote_path(base), strerror(err));
    }
    return QSB_OK;
}

static void job_free(plot_job *job)
{
    for (size_t i = 0; i < job->ncharts; i++) {
        chart *c = &job->charts[i];
        if (c->temp_path)
            unlink(c->temp_path);
        if (c->data_path && job->tmpdir[0])
            unlink(c->data_path);
        free(c->temp_path);
        free(c->data_path);
        free(c->final_path);
        free(c->target_path);
        free(c->name);
        free(c->title);
    }
    if (job->tmpdir[0])
        rmdir(job->tmpdir);
    free(job->subtitle);
    free(job->sizes);
    free(job->nelems);
    free(job->patterns);
    free(job->algorithms);
    qsb_plot_axes_free(&job->ax);
}

static int job_prepare(plot_job *job)
{
    if (job->r->ncells == 0)
        return qsb_error(QSB_EUSAGE, "the results hold no cells to plot");
    int status = qsb_plot_axes_build(job->r, &job->ax);
    if (status != QSB_OK)
        return status;
    if (job->ax.nalgorithms == 0)
        return qsb_error(QSB_EUSAGE, "the results hold no algorithm rows to plot");
    job->subtitle = subtitle_of(&job->r->context);
    job->sizes = word_list_u64(job->ax.sizes, job->ax.nsizes);
    job->nelems = word_list_u64(job->ax.nelems, job->ax.nnelems);
    job->patterns = word_list_names(job->ax.patterns, job->ax.npatterns);
    job->algorithms = word_list_names(job->ax.algorithms, job->ax.nalgorithms);
    if (!job->subtitle || !job->sizes || !job->nelems || !job->patterns || !job->algorithms)
        return qsb_out_of_memory("chart labels");
    status = find_scripts(job->scripts, sizeof job->scripts);
    if (status == QSB_OK)
        status = ensure_directory(job->opt->out_dir);
    if (status == QSB_OK)
        status = make_tmpdir(job);
    if (status == QSB_OK)
        status = plan_charts(job);
    return status;
}

int qsb_plot(const qsb_results *r, const qsb_plot_options *opt)
{
    plot_job *job = calloc(1, sizeof *job);
    if (!job)
        return qsb_out_of_memory("charts");
    job->r = r;
    job->opt = opt;
    int status = job_prepare(job);
    for (size_t i = 0; i < job->ncharts && status == QSB_OK; i++)
        status = render(job, &job->charts[i]);
    /* Every chart drew: only now does any of them take its final name. */
    for (size_t i = 0; i < job->ncharts && status == QSB_OK; i++) {
        status = publish(&job->charts[i]);
        if (status == QSB_OK && opt->report)
            fprintf(opt->report, "%s\n", job->charts[i].final_path);
    }
    job_free(job);
    free(job);
    return status;
}

/* Where the charts of results_path go: *dir (out_dir, else the file's directory) and *stem
** (the file's name without its .csv/.json extension), both malloc'd. */
static int chart_place(const char *results_path, const char *out_dir, char **dir, char **stem)
{
    const char *slash = strrchr(results_path, '/');
    const char *base = slash ? slash + 1 : results_path;
    const char *dot = strrchr(base, '.');
    size_t stem_len = dot && (strcmp(dot, ".csv") == 0 || strcmp(dot, ".json") == 0) && dot > base
                          ? (size_t)(dot - base) : strlen(base);
    *stem = strndup(base, stem_len);
    *dir = out_dir ? strdup(out_dir)
                   : slash ? strndup(results_path, slash == results_path ? 1
                                                   : (size_t)(slash - results_path))
                           : strdup(".");
    if (*stem && *dir)
        return QSB_OK;
    free(*stem);
    free(*dir);
    *stem = *dir = NULL;
    return qsb_out_of_memory("chart names");
}

int qsb_plot_results_file(const qsb_results *r, const char *results_path,
                          const qsb_plot_options *given)
{
    char *dir, *stem;
    int status = chart_place(results_path, given->out_dir, &dir, &stem);
    if (status == QSB_OK) {
        qsb_plot_options opt = *given;
        opt.out_dir = dir;
        opt.stem = stem;
        status = qsb_plot(r, &opt);
        free(stem);
        free(dir);
    }
    return status;
}

/* One chart's path in the list, from its name before it is made a file word. */
static int add_chart_path(qsb_chart_paths *out, const char *dir, const char *stem,
                          const char *name, qsb_plot_format format)
{
    char *word = file_word(name);
    char *path = word ? chart_path(dir, stem, word, format) : NULL;
    free(word);
    if (!path)
        return qsb_out_of_memory("chart names");
    out->paths[out->n++] = path;
    return QSB_OK;
}

int qsb_plot_chart_paths(const char *results_path, const char *out_dir, qsb_plot_format format,
                         unsigned charts, const char *const *algorithms, size_t nalgorithms,
                         qsb_chart_paths *out)
{
    memset(out, 0, sizeof *out);
    charts = charts ? charts : ~0u;
    size_t candidates = nalgorithms > 1 && (charts & QSB_CHART_DELTAS) ? nalgorithms - 1 : 0;
    candidates = candidates < MAX_CANDIDATES ? candidates : MAX_CANDIDATES;
    char *dir, *stem;
    int status = chart_place(results_path, out_dir, &dir, &stem);
    if (status != QSB_OK)
        return status;
    if (!(out->paths = calloc(candidates + 2, sizeof *out->paths)))
        status = qsb_out_of_memory("chart names");
    for (size_t a = 1; a <= candidates && status == QSB_OK; a++) {
        char *name = printf_alloc("deltas-%s", algorithms[a]);
        status = name ? add_chart_path(out, dir, stem, name, format)
                      : qsb_out_of_memory("chart names");
        free(name);
    }
    if (status == QSB_OK && (charts & QSB_CHART_SCALING))
        status = add_chart_path(out, dir, stem, "scaling", format);
    if (status == QSB_OK && (charts & QSB_CHART_COMPARISONS))
        status = add_chart_path(out, dir, stem, "comparisons", format);
    free(stem);
    free(dir);
    if (status != QSB_OK)
        qsb_plot_chart_paths_free(out);
    return status;
}

void qsb_plot_chart_paths_free(qsb_chart_paths *c)
{
    for (size_t i = 0; i < c->n; i++)
        free(c->paths[i]);
    free(c->paths);
    memset(c, 0, sizeof *c);
}
