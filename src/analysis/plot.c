/*
** Charts through gnuplot (see plot.h): the scripts' arguments (word lists, titles) and the
** charts of one results structure, rendered and published all or none. The axes and data
** files are plot_data.c; gnuplot itself, gnuplot.c.
*/
#include "plot.h"

#include <errno.h>
#include <limits.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/types.h>
#include <unistd.h>

#include "diag.h"
#include "grow.h"
#include "gnuplot.h"
#include "outfile.h"
#include "plot_data.h"

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
        sb_printf(&sb, "%s (%s)", qsb_plot_shown(a, cx->host), qsb_plot_shown(b, cx->cpu_model));
    else if (known(cx->host) || known(cx->cpu_model))
        sb_puts(&sb, qsb_plot_shown(a, known(cx->host) ? cx->host : cx->cpu_model));
    else
        sb_puts(&sb, "machine not recorded");
    if (known(cx->libc))
        sb_printf(&sb, ", %s", qsb_plot_shown(a, cx->libc));
    sb_printf(&sb, "; seed 0x%llx", (unsigned long long)cx->seed);
    if (known(cx->date))
        sb_printf(&sb, "; %s", qsb_plot_shown(a, cx->date));
    if (known(cx->mode) && strcmp(cx->mode, "default") != 0)
        sb_printf(&sb, "; inputs %s", qsb_plot_shown(a, cx->mode));
    if (known(cx->build_type) && strcmp(cx->build_type, "Release") != 0)
        sb_printf(&sb, "; %s build", qsb_plot_shown(a, cx->build_type));
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
                                   prefix, qsb_plot_shown(cand, ax->algorithms[a]),
                                   qsb_plot_shown(base, ax->algorithms[0]));
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
    status = qsb_gnuplot_run(argv, c->name);
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
    status = qsb_gnuplot_find_scripts(job->scripts, sizeof job->scripts);
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

