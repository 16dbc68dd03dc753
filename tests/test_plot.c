/*
** test_plot: the chart data files (plot.h) hold the right numbers for a results structure
** built here, and qsb_plot() renders every chart through gnuplot as a valid PNG (signature,
** IHDR size) or SVG (the expected number of bars and lines), leaving nothing behind when
** gnuplot fails. Usage: test_plot [DIR] (DIR: also keep the PNG charts there, to look at).
** Exits 77 (ctest: skipped) when gnuplot is not installed.
*/
#include <dirent.h>
#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "check.h"
#include "plot.h"

/* ---- A small run: 5 patterns x 3 counts x 3 sizes x 3 algorithms, in scrambled order. ---- */

static const char *const patterns[] = {"sorted", "mostlysorted", "random", "repeated", "bitonic"};
static const uint64_t counts[] = {786432, 49152, 8388608}; /* not ascending on purpose */
static const uint64_t sizes[] = {32, 4, 8};
static const char *const algorithms[] = {"msort", "introsort", "system"};
#define NPAT 5
#define NCNT 3
#define NSIZ 3
#define NALG 3
#define NCELL (NPAT * NCNT * NSIZ)

static qsb_cell cells[NCELL];
static qsb_row rows[NCELL][NALG];

static double delta_of(size_t p, uint64_t size, size_t a)
{
    double d = size == 32 ? -20.0 - 5.0 * (double)p : 10.0 * (double)(p + 1);
    return a == 1 ? d : d / 2.0;
}

/* Per-element cost in cycles: made up, but shaped like the real thing. */
static double cost(size_t p, uint64_t n, uint64_t size, size_t a)
{
    static const double pattern_cost[NPAT] = {0.6, 2.5, 5.0, 4.0, 1.5};
    double c = pattern_cost[p] * log2((double)n) * (1.0 + (double)size / 16.0);
    return a == 0 ? c : c * (1.0 + delta_of(p, size, a) / 100.0);
}

static int is_failed(size_t p, uint64_t n, uint64_t size, size_t a)
{
    return a == 2 && p == 2 && n == 786432 && size == 8;
}

static int is_noisy(size_t p, uint64_t n, uint64_t size, size_t a)
{
    return a == 1 && p == 3 && n == 49152 && size == 4;
}

static uint64_t comparisons_of(size_t p, uint64_t n, size_t a)
{
    return (uint64_t)((double)n * log2((double)n) * (0.5 + 0.1 * (double)p + 0.05 * (double)a));
}

static void build(qsb_results *r)
{
    memset(r, 0, sizeof *r);
    r->context.host = "testhost";
    r->context.cpu_model = "Test CPU 9000";
    r->context.libc = "glibc 2.36";
    r->context.date = "2024-05-01T12:00:00Z";
    r->context.metric = "cycles";
    r->context.mode = "default";
    r->context.build_type = "Release";
    r->context.seed = 0x9abc56781234;
    r->context.cache_bytes[0] = 64 * 1024;
    r->context.cache_bytes[1] = 1024 * 1024;
    r->context.cache_bytes[2] = 32 * 1024 * 1024;
    r->baseline = "msort";
    size_t c = 0;
    for (size_t s = 0; s < NSIZ; s++)
        for (size_t p = 0; p < NPAT; p++)
            for (size_t j = 0; j < NCNT; j++, c++) {
                cells[c] = (qsb_cell){.pattern = (char *)patterns[p], .nelem = counts[j],
                                      .size = sizes[s], .rows = rows[c], .nrows = NALG};
                for (size_t a = 0; a < NALG; a++) {
                    qsb_row *row = &rows[c][a];
                    memset(row, 0, sizeof *row);
                    row->algorithm = (char *)algorithms[a];
                    row->summary.median = cost(p, counts[j], sizes[s], a) * (double)counts[j];
                    row->delta_pct = a ? delta_of(p, sizes[s], a) : NAN;
                    row->delta_lo = a ? row->delta_pct - 2.0 : NAN;
                    row->delta_hi = a ? row->delta_pct + 3.0 : NAN;
                    row->comparisons = comparisons_of(p, counts[j], a);
                    row->verified = !is_failed(p, counts[j], sizes[s], a);
                    row->failure = row->verified ? NULL : "not sorted at index 12";
                    row->noisy = is_noisy(p, counts[j], sizes[s], a);
                }
            }
    r->cells = cells;
    r->ncells = NCELL;
}

/* ---- Reading the data files back ---- */

typedef struct {
    double v[9];
    char word[32];
    int block;   /* gnuplot index: blocks separated by two blank lines */
} data_row;

/* Parses a data file: numbers into v[] in column order, the one word column (a name) into
** word, the gnuplot index of each row into block. */
static size_t parse_data(char *text, data_row *out, size_t max)
{
    size_t n = 0;
    int block = 0, blanks = 0;
    for (char *p = text; p && *p && n < max;) {
        char *end = strchr(p, '\n');
        if (end)
            *end = '\0';
        if (*p == '\0') {
            if (++blanks == 2)
                block++;
        } else {
            blanks = 0;
        }
        if (*p != '\0' && *p != '#') {
            data_row *row = &out[n++];
            memset(row, 0, sizeof *row);
            row->block = block;
            int k = 0;
            for (char *tok = strtok(p, " "); tok && k < 9; tok = strtok(NULL, " ")) {
                char *stop;
                double v = strtod(tok, &stop);
                if (*stop == '\0')
                    row->v[k++] = v;
                else
                    snprintf(row->word, sizeof row->word, "%s", tok);
            }
        }
        p = end ? end + 1 : NULL;
    }
    return n;
}

static char *capture(void (*write)(FILE *, const qsb_results *, const qsb_plot_axes *, size_t),
                     const qsb_results *r, const qsb_plot_axes *ax, size_t arg)
{
    char *text = NULL;
    size_t len = 0;
    FILE *fp = open_memstream(&text, &len);
    if (!fp)
        return NULL;
    write(fp, r, ax, arg);
    fclose(fp);
    return text;
}

static void scaling_writer(FILE *fp, const qsb_results *r, const qsb_plot_axes *ax, size_t a)
{
    (void)a;
    qsb_plot_write_scaling(fp, r, ax);
}

static void comparisons_writer(FILE *fp, const qsb_results *r, const qsb_plot_axes *ax,
                               size_t a)
{
    (void)a;
    qsb_plot_write_comparisons(fp, r, ax);
}

static int near(double a, double b)
{
    return fabs(a - b) <= 1e-6 * (fabs(b) + 1.0);
}

static size_t index_of_u64(const uint64_t *v, size_t n, uint64_t x)
{
    for (size_t i = 0; i < n; i++)
        if (v[i] == x)
            return i;
    return n;
}

static void test_axes(const qsb_results *r, qsb_plot_axes *ax)
{
    CHECK(qsb_plot_axes_build(r, ax) == 0);
    CHECK_EQ_U64(ax->nsizes, 3);
    CHECK_EQ_U64(ax->sizes[0], 4);
    CHECK_EQ_U64(ax->sizes[1], 8);
    CHECK_EQ_U64(ax->sizes[2], 32);
    CHECK_EQ_U64(ax->nnelems, 3);
    CHECK_EQ_U64(ax->nelems[0], 49152);
    CHECK_EQ_U64(ax->nelems[2], 8388608);
    CHECK_EQ_U64(ax->npatterns, 5);
    CHECK(strcmp(ax->patterns[0], "sorted") == 0 && strcmp(ax->patterns[4], "bitonic") == 0);
    CHECK_EQ_U64(ax->nalgorithms, 3);
    CHECK(strcmp(ax->algorithms[0], "msort") == 0 && strcmp(ax->algorithms[2], "system") == 0);
}

/* Deltas: every (size, pattern, count) row in place, x centred on the pattern's group. */
static void test_deltas(const qsb_results *r, const qsb_plot_axes *ax)
{
    for (size_t a = 1; a < NALG; a++) {
        char *text = capture(qsb_plot_write_deltas, r, ax, a);
        static data_row got[64];
        size_t n = text ? parse_data(text, got, 64) : 0;
        CHECK_EQ_U64(n, NSIZ * NPAT * NCNT);
        size_t failed = 0, noisy = 0;
        for (size_t i = 0; i < n; i++) {
            size_t s = (size_t)got[i].block, p = (i % (NPAT * NCNT)) / NCNT, j = i % NCNT;
            uint64_t size = ax->sizes[s], count = ax->nelems[j];
            CHECK(near(got[i].v[0], (double)p + ((double)j - 1.0) * (0.8 / 3.0)));
            CHECK(strcmp(got[i].word, patterns[p]) == 0);
            CHECK(near(got[i].v[5], (double)j) && near(got[i].v[6], 0.8 / 3.0));
            if (is_failed(p, count, size, a)) {
                failed++;
                CHECK(isnan(got[i].v[1]) && isnan(got[i].v[2]) && got[i].v[4] == 1.0);
                continue;
            }
            CHECK(got[i].v[4] == 0.0);
            CHECK(near(got[i].v[1], delta_of(p, size, a)));
            CHECK(near(got[i].v[2], delta_of(p, size, a) - 2.0));
            CHECK(near(got[i].v[3], delta_of(p, size, a) + 3.0));
            noisy += got[i].v[7] == 1.0;
            CHECK(got[i].v[7] == (double)is_noisy(p, count, size, a));
        }
        CHECK_EQ_U64(failed, a == 2 ? 1 : 0);
        CHECK_EQ_U64(noisy, a == 1 ? 1 : 0);
        free(text);
    }
}

/* Scaling: the cache marks in elements of each size, then a series per (size, pattern,
** algorithm) of median / n, with the failed cell as NaN and flagged. */
static void test_scaling(const qsb_results *r, const qsb_plot_axes *ax)
{
    char *text = capture(scaling_writer, r, ax, 0);
    static data_row got[512];
    size_t n = text ? parse_data(text, got, 512) : 0;
    CHECK_EQ_U64(n, NSIZ * 3 + NSIZ * NPAT * NALG * NCNT);
    for (size_t i = 0; i < NSIZ * 3 && i < n; i++) {
        CHECK(got[i].block == 0);
        CHECK(near(got[i].v[0], (double)ax->sizes[i / 3]));
        CHECK(near(got[i].v[1], (double)r->context.cache_bytes[i % 3] / (double)ax->sizes[i / 3]));
    }
    CHECK(n > 0 && strcmp(got[0].word, "L1d") == 0 && near(got[0].v[1], 16384.0));
    CHECK(n > 5 && strcmp(got[5].word, "L3") == 0 && near(got[5].v[1], 4194304.0));
    size_t failed = 0;
    for (size_t i = NSIZ * 3; i < n; i++) {
        size_t series = (size_t)got[i].block - 1;
        size_t a = series % NALG, p = (series / NALG) % NPAT, s = series / (NALG * NPAT);
        uint64_t count = (uint64_t)got[i].v[0], size = ax->sizes[s];
        CHECK(index_of_u64(ax->nelems, NCNT, count) == (i - NSIZ * 3) % NCNT);
        if (is_failed(p, count, size, a)) {
            failed++;
            CHECK(isnan(got[i].v[1]) && got[i].v[2] == 1.0);
        } else {
            CHECK(near(got[i].v[1], cost(p, count, size, a)) && got[i].v[2] == 0.0);
        }
    }
    CHECK_EQ_U64(failed, 1);
    free(text);
}

/* Comparisons: a block per (size, count), a bar per (pattern, algorithm). */
static void test_comparisons(const qsb_results *r, const qsb_plot_axes *ax)
{
    CHECK(qsb_plot_has_comparisons(r));
    char *text = capture(comparisons_writer, r, ax, 0);
    static data_row got[256];
    size_t n = text ? parse_data(text, got, 256) : 0;
    CHECK_EQ_U64(n, NSIZ * NCNT * NPAT * NALG);
    for (size_t i = 0; i < n; i++) {
        size_t s = (size_t)got[i].block / NCNT, j = (size_t)got[i].block % NCNT;
        size_t p = (i % (NPAT * NALG)) / NALG, a = i % NALG;
        uint64_t count = ax->nelems[j];
        CHECK(near(got[i].v[0], (double)p + ((double)a - 1.0) * (0.8 / 3.0)));
        CHECK(strcmp(got[i].word, patterns[p]) == 0);
        if (is_failed(p, count, ax->sizes[s], a)) {
            CHECK(isnan(got[i].v[1]) && got[i].v[2] == 1.0);
            continue;
        }
        double expect = (double)comparisons_of(p, count, a) / ((double)count * log2((double)count));
        CHECK(near(got[i].v[1], expect) && got[i].v[2] == 0.0);
    }
    free(text);
}

/* ---- Rendering through gnuplot ---- */

static char *read_all(const char *path, size_t *len)
{
    FILE *fp = fopen(path, "rb");
    if (!fp)
        return NULL;
    char *text = NULL;
    size_t cap = 0, n = 0, got;
    do {
        if (n + 4096 + 1 > cap) {
            char *grown = realloc(text, cap = 2 * cap + 4096 + 1);
            if (!grown)
                break;
            text = grown;
        }
        got = fread(text + n, 1, cap - n - 1, fp);
        n += got;
    } while (got > 0);
    fclose(fp);
    if (text)
        text[n] = '\0';
    *len = n;
    return text;
}

static int gnuplot_on_path(void)
{
    const char *path = getenv("PATH");
    char *copy = path ? strdup(path) : NULL;
    int found = 0;
    for (char *dir = copy ? strtok(copy, ":") : NULL; dir && !found; dir = strtok(NULL, ":")) {
        char exe[4096];
        snprintf(exe, sizeof exe, "%s/gnuplot", dir);
        found = access(exe, X_OK) == 0;
    }
    free(copy);
    return found;
}

/* The files in dir, sorted, joined by spaces ("" when empty). */
static void list_dir(const char *dir, char *out, size_t len)
{
    struct dirent **names;
    int n = scandir(dir, &names, NULL, alphasort);
    out[0] = '\0';
    for (int i = 0; i < n; i++) {
        if (names[i]->d_name[0] != '.') {
            size_t used = strlen(out);
            snprintf(out + used, len - used, "%s%s", used ? " " : "", names[i]->d_name);
        }
        free(names[i]);
    }
    if (n >= 0)
        free(names);
}

static void empty_dir(const char *dir)
{
    struct dirent **names;
    int n = scandir(dir, &names, NULL, alphasort);
    for (int i = 0; i < n; i++) {
        char path[4096];
        snprintf(path, sizeof path, "%s/%s", dir, names[i]->d_name);
        if (names[i]->d_name[0] != '.')
            unlink(path);
        free(names[i]);
    }
    if (n >= 0)
        free(names);
}

static uint32_t be32(const unsigned char *p)
{
    return (uint32_t)p[0] << 24 | (uint32_t)p[1] << 16 | (uint32_t)p[2] << 8 | p[3];
}

/* A PNG: the signature, then IHDR first with the expected width and height. */
static void check_png(const char *dir, const char *name, uint32_t width, uint32_t height)
{
    char path[4096];
    snprintf(path, sizeof path, "%s/%s", dir, name);
    size_t len = 0;
    unsigned char *png = (unsigned char *)read_all(path, &len);
    CHECK_MSG(png && len > 1000, "%s: missing or tiny (%zu bytes)", name, len);
    if (png && len >= 24) {
        CHECK(memcmp(png, "\x89PNG\r\n\x1a\n", 8) == 0);
        CHECK(be32(png + 8) == 13 && memcmp(png + 12, "IHDR", 4) == 0);
        CHECK_EQ_U64(be32(png + 16), width);
        CHECK_EQ_U64(be32(png + 20), height);
    }
    free(png);
}

static size_t count(const char *text, const char *what)
{
    size_t n = 0;
    for (const char *p = text; p && (p = strstr(p, what)) != NULL; p += strlen(what))
        n++;
    return n;
}

/* An SVG gnuplot wrote whole: the root element with its size, balanced groups, the closing
** tag; then `shape` occurs `expect` times (bars, points, crosses). */
static char *load_svg(const char *dir, const char *name, unsigned width, unsigned height)
{
    char path[4096], size[64];
    snprintf(path, sizeof path, "%s/%s", dir, name);
    size_t len = 0;
    char *svg = read_all(path, &len);
    CHECK_MSG(svg != NULL, "%s missing", name);
    if (!svg)
        return NULL;
    snprintf(size, sizeof size, "width=\"%u\" height=\"%u\"", width, height);
    CHECK(strncmp(svg, "<?xml", 5) == 0 && strstr(svg, "<svg") && strstr(svg, size));
    CHECK(strstr(svg, "</svg>") != NULL);
    CHECK_EQ_U64(count(svg, "<g "), count(svg, "</g>"));
    return svg;
}

/* The chart sizes follow the scripts' rules for 5 patterns, 3 counts, 3 sizes, 3 algorithms:
** deltas 1100 x 1095, scaling 2025 x 1025, comparisons 1680 x 1085. */
static void test_render(const qsb_results *r, const char *dir)
{
    char *listing = NULL;
    size_t len = 0;
    FILE *report = open_memstream(&listing, &len);
    qsb_plot_options opt = {dir, "run 1", QSB_PLOT_PNG, "My \"title\" 'quoted'", report, 0, NULL};
    CHECK(qsb_plot(r, &opt) == 0);
    fclose(report);
    char files[1024];
    list_dir(dir, files, sizeof files);
    CHECK_MSG(strcmp(files, "run 1-comparisons.png run 1-deltas-introsort.png "
                            "run 1-deltas-system.png run 1-scaling.png") == 0, "files: %s", files);
    CHECK_EQ_U64(count(listing, "\n"), 4);
    CHECK(listing && strstr(listing, "/run 1-deltas-introsort.png\n"));
    free(listing);
    check_png(dir, "run 1-deltas-introsort.png", 1100, 1095);
    check_png(dir, "run 1-deltas-system.png", 1100, 1095);
    check_png(dir, "run 1-scaling.png", 2025, 1025);
    check_png(dir, "run 1-comparisons.png", 1680, 1085);
    empty_dir(dir);

    /* SVG: count what was drawn. Bars are the polygons of the solid fill (one more per key
    ** entry), data points of the scaling lines are filled circles (gpPt6), crosses gpPt1. */
    opt.format = QSB_PLOT_SVG;
    opt.report = NULL;
    CHECK(qsb_plot(r, &opt) == 0);
    const char *bar = "fill-opacity = '0.850000'", *point = "href='#gpPt6'";
    const char *cross = "href='#gpPt1'";
    char *svg = load_svg(dir, "run 1-deltas-introsort.svg", 1100, 1095);
    CHECK_EQ_U64(count(svg, bar), NSIZ * NPAT * NCNT + NCNT);
    CHECK_EQ_U64(count(svg, cross), 0);
    CHECK(svg && strstr(svg, "My \"title\" 'quoted': introsort against msort"));
    CHECK(svg && strstr(svg, "seed 0x9abc56781234"));
    free(svg);
    svg = load_svg(dir, "run 1-deltas-system.svg", 1100, 1095);
    CHECK_EQ_U64(count(svg, bar), NSIZ * NPAT * NCNT - 1 + NCNT);
    CHECK_EQ_U64(count(svg, cross), 1 + 1);
    free(svg);
    svg = load_svg(dir, "run 1-scaling.svg", 2025, 1025);
    CHECK_EQ_U64(count(svg, point), NSIZ * NPAT * NALG * NCNT - 1 + NALG);
    CHECK_EQ_U64(count(svg, cross), 1 + 1);
    /* Cache marks in elements of the panel's size, inside the x range only: L1d (16384 and
    ** fewer elements) is left of 49152 / 1.5 in every panel, L2 and L3 are in all 15. */
    CHECK_EQ_U64(count(svg, "<text>L1d</text>"), 0);
    CHECK_EQ_U64(count(svg, "<text>L2</text>"), NSIZ * NPAT);
    CHECK_EQ_U64(count(svg, "<text>L3</text>"), NSIZ * NPAT);
    free(svg);
    svg = load_svg(dir, "run 1-comparisons.svg", 1680, 1085);
    CHECK_EQ_U64(count(svg, bar), NSIZ * NCNT * NPAT * NALG - 1 + NALG);
    CHECK_EQ_U64(count(svg, cross), 1 + 1);
    free(svg);
    empty_dir(dir);
}

/* A run of the baseline alone: no deltas chart; without comparator counts, no comparisons
** chart either. */
static void test_baseline_only(const qsb_results *r, const char *dir)
{
    static qsb_cell alone[NCELL];
    qsb_results one = *r;
    for (size_t c = 0; c < NCELL; c++) {
        alone[c] = r->cells[c];
        alone[c].nrows = 1;
    }
    one.cells = alone;
    qsb_plot_options opt = {dir, "one", QSB_PLOT_PNG, "", NULL, 0, NULL};
    char files[1024];
    CHECK(qsb_plot(&one, &opt) == 0);
    list_dir(dir, files, sizeof files);
    CHECK_MSG(strcmp(files, "one-comparisons.png one-scaling.png") == 0, "files: %s", files);
    empty_dir(dir);

    uint64_t saved[NCELL];
    for (size_t c = 0; c < NCELL; c++) {
        saved[c] = alone[c].rows[0].comparisons;
        alone[c].rows[0].comparisons = 0;
    }
    CHECK(!qsb_plot_has_comparisons(&one));
    CHECK(qsb_plot(&one, &opt) == 0);
    list_dir(dir, files, sizeof files);
    CHECK_MSG(strcmp(files, "one-scaling.png") == 0, "files: %s", files);
    empty_dir(dir);
    for (size_t c = 0; c < NCELL; c++)
        alone[c].rows[0].comparisons = saved[c];
}

/* A stand-in gnuplot (a shell script first on PATH). */
static void fake_gnuplot(const char *bin, const char *body)
{
    char path[4096];
    snprintf(path, sizeof path, "%s/gnuplot", bin);
    FILE *fp = fopen(path, "w");
    CHECK(fp != NULL);
    if (fp) {
        fprintf(fp, "#!/bin/sh\n%s\n", body);
        fclose(fp);
    }
    CHECK(chmod(path, 0755) == 0);
}

/* gnuplot missing, failing outright, failing half-way (after drawing the deltas, or after
** writing part of a chart): QSB_ESYSTEM, and the directory holds no chart, whole or partial. */
static void test_failures(const qsb_results *r, const char *dir, const char *bin)
{
    const char *saved = getenv("PATH");
    char *old_path = saved ? strdup(saved) : NULL;
    qsb_plot_options opt = {dir, "run", QSB_PLOT_PNG, NULL, NULL, 0, NULL};
    char files[1024];

    setenv("PATH", bin, 1); /* empty: no gnuplot at all */
    CHECK(qsb_plot(r, &opt) == 3);
    list_dir(dir, files, sizeof files);
    CHECK_MSG(files[0] == '\0', "left behind: %s", files);

    fake_gnuplot(bin, "echo '\"x.gp\" line 1: fake failure' >&2; exit 1");
    CHECK(qsb_plot(r, &opt) == 3);
    list_dir(dir, files, sizeof files);
    CHECK_MSG(files[0] == '\0', "left behind: %s", files);

    /* $5 is the output: the deltas charts draw, the scaling chart fails half-written. */
    fake_gnuplot(bin, "case \"$4\" in *scaling*) echo partial > \"$5\"; exit 2;; esac\n"
                      "echo chart > \"$5\"");
    CHECK(qsb_plot(r, &opt) == 3);
    list_dir(dir, files, sizeof files);
    CHECK_MSG(files[0] == '\0', "left behind: %s", files);

    /* Success that writes nothing is a failure too. */
    fake_gnuplot(bin, "exit 0");
    CHECK(qsb_plot(r, &opt) == 3);
    list_dir(dir, files, sizeof files);
    CHECK_MSG(files[0] == '\0', "left behind: %s", files);

    if (old_path)
        setenv("PATH", old_path, 1);
    free(old_path);
}

static void test_empty(void)
{
    qsb_results none;
    memset(&none, 0, sizeof none);
    qsb_plot_options opt = {".", "none", QSB_PLOT_PNG, NULL, NULL, 0, NULL};
    CHECK(qsb_plot(&none, &opt) == 2);
}

int main(int argc, char **argv)
{
    qsb_results r;
    build(&r);
    qsb_plot_axes ax;
    test_axes(&r, &ax);
    test_deltas(&r, &ax);
    test_scaling(&r, &ax);
    test_comparisons(&r, &ax);
    qsb_plot_axes_free(&ax);
    test_empty();

    char dir[] = "/tmp/test_plot-XXXXXX", bin[] = "/tmp/test_plot-bin-XXXXXX";
    CHECK(mkdtemp(dir) != NULL && mkdtemp(bin) != NULL);
    if (gnuplot_on_path()) {
        test_render(&r, dir);
        test_baseline_only(&r, dir);
    } else {
        fprintf(stderr, "gnuplot is not installed (Debian: gnuplot-nox): rendering skipped\n");
    }
    int have_gnuplot = gnuplot_on_path();
    test_failures(&r, dir, bin);
    empty_dir(bin);
    rmdir(bin);
    rmdir(dir);
    if (argc > 1) {
        qsb_plot_options keep = {argv[1], "test", QSB_PLOT_PNG, NULL, stdout, 0, NULL};
        CHECK(qsb_plot(&r, &keep) == 0);
        keep.format = QSB_PLOT_SVG;
        CHECK(qsb_plot(&r, &keep) == 0);
    }
    int status = check_done();
    return status == 0 && !have_gnuplot ? 77 : status;
}
