/*
** The HTML page's parts that need no browser (src/analysis/report_html.h, audit_file.h): the
** escaping of every text taken from a file, the audit file's recognition and table, and a page
** written from a small run whose hostile names come out as text (gnuplot draws its charts; the
** test skips with 77 without gnuplot). The page as a browser shows it: test_report_browser.sh.
*/
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "audit_file.h"
#include "captured.h"
#include "check.h"
#include "compare_write.h"
#include "diag.h"
#include "plot.h"
#include "read_results.h"
#include "report_charts.h"
#include "report_html.h"
#include "states_row.h"

#define FIXTURES QSB_SOURCE_DIR "/tests/fixtures/report/"
#define COMPARE_FIXTURES QSB_SOURCE_DIR "/tests/fixtures/compare/"

static void test_escaping(void)
{
    FILE *fp = tmpfile();
    CHECK(fp != NULL);
    if (!fp)
        return;
    qsb_html_text(fp, "<script>\"a\" & 'b'</script>\x1b[31m\x7f\xc2\xb1\n");
    char *text = captured(fp);
    CHECK(text && strcmp(text, "&lt;script&gt;&quot;a&quot; &amp; &#39;b&#39;&lt;/script&gt;"
                               "&#xFFFD;[31m&#xFFFD;\xc2\xb1\n") == 0);
    free(text);
}

static char *file_text(const char *path)
{
    FILE *fp = fopen(path, "rb");
    CHECK(fp != NULL);
    if (!fp)
        return NULL;
    fseek(fp, 0, SEEK_END);
    return captured(fp);
}

static void test_audit_file(void)
{
    char *audit = file_text(FIXTURES "audit.json");
    char *run = file_text(FIXTURES "run.json");
    CHECK(audit && run && qsb_audit_file_is(audit) && !qsb_audit_file_is(run));
    CHECK(!qsb_audit_file_is("algorithm,variant,stable\n") && !qsb_audit_file_is("{\"kind\": 1}"));
    qsb_audit_file a;
    CHECK(audit && qsb_audit_file_parse("audit.json", audit, &a) == QSB_OK);
    CHECK_EQ_U64(a.n, 3);
    if (a.n == 3) {
        CHECK(strcmp(a.lines[0].label, "msort") == 0 && strcmp(a.lines[0].stable, "yes") == 0);
        CHECK(strcmp(a.lines[1].label, "msort (malloc fails)") == 0);
        CHECK(strcmp(a.lines[2].label, "introsort") == 0 &&
              strncmp(a.lines[2].broken, "random OOB-below, ", 18) == 0);
        CHECK(strncmp(a.lines[0].worst_case, "nlogn (max ", 11) == 0);
    }
    qsb_audit_file_free(&a);
    /* a row without its algorithm: one error, nothing kept */
    CHECK(qsb_audit_file_parse("bad.json", "{\"kind\":\"audit\",\"rows\":[{\"variant\":null}]}",
                               &a) == QSB_EUSAGE && a.n == 0 && a.lines == NULL);
    CHECK(qsb_audit_file_parse("bad.json", "{\"kind\":\"audit\"}", &a) == QSB_EUSAGE);
    free(audit);
    free(run);
}

/* A page of the hostile fleet: the names only as escaped text, every section's heading. */
static void test_page(void)
{
    qsb_results *runs = NULL, run;
    size_t n = 0;
    CHECK(qsb_read_fleet(FIXTURES "fleet-hostile.json", &runs, &n) == QSB_OK && n == 2);
    CHECK(qsb_read_results(FIXTURES "run.json", &run) == QSB_OK);
    /* a candidate whose processes ran at two speeds: its states are said, as in the table,
    ** one of them with too few processes for an interval; a baseline's (no deltas) with its
    ** name */
    bool with_states = run.ncells > 1 && run.cells[0].nrows > 1;
    if (with_states) { /* a read result's arrays live in its store */
        set_states(&run.cells[0].rows[1],
                   "0.80(8)@2010345.0/+5.10[+3.00,+7.00];0.20(2)@2931002.0/+80.20", &run.store);
        set_states(&run.cells[1].rows[0], "0.70(7)@1500.0;0.30(3)@2600.0", &run.store);
    }
    CHECK(with_states && run.cells[0].rows[1].states && run.cells[1].rows[0].states);
    /* eleven-digit medians side by side stay readable: digits in threes, a narrow no-break
    ** space between */
    if (with_states)
        run.cells[0].rows[0].summary.median = 10381520541.0;
    qsb_html_page page = {.run = &run, .run_name = "run.json", .fleet = runs, .fleet_n = n,
                          .fleet_name = "fleet <b>.json"};
    FILE *fp = tmpfile();
    CHECK(fp && qsb_report_html(fp, &page) == QSB_OK);
    char *html = fp ? captured(fp) : NULL;
    CHECK(html && strstr(html, "<section id=\"run\">") && strstr(html, "<section id=\"fleet\">"));
    CHECK(html && !strstr(html, "<section id=\"compare\">") && !strstr(html, "id=\"audit\""));
    CHECK(html && !strstr(html, "<script") && !strstr(html, "<img") &&
          !strstr(html, "<style>body{display") && !strstr(html, "fleet <b>"));
    CHECK(html && strstr(html, "&lt;script&gt;alert(&quot;x&quot;)&lt;/script&gt;&#39;q") &&
          strstr(html, "evil&quot;host&lt;img src=x onerror=alert(1)&gt;"));
    CHECK(html && strstr(html, "default-src 'none'") && !strstr(html, "http://example"));
    CHECK(html && strstr(html, ">10&#8239;381&#8239;520&#8239;541<"));
    CHECK(html && strstr(html, "<span class=\"states\">states 80% +5.1% \xc2\xb1" "2.1 / 20% "
                               "+80.2% too few</span>"));
    CHECK(html && strstr(html, "<span class=\"states\">msort states 70% 1500 / 30% 2600</span>"));
    /* the summary: the share of the processes in each state, per algorithm */
    CHECK(html && strstr(html, "<p class=\"states\">msort ran at 2 speeds in this run&#39;s "
                               "processes (70% / 30%) in 1 of its "));
    CHECK(html && strstr(html, "<p class=\"states\">introsort ran at 2 speeds in this run&#39;s "
                               "processes (80% / 20%) in 1 of its "));
    free(html);
    for (size_t i = 0; i < n; i++)
        qsb_results_free(&runs[i]);
    free(runs);
    qsb_results_free(&run);
}

/* The section of a comparison with an earlier run: its summary counts every verdict, and a
** row whose interval reaches beyond the threshold is "unresolved" in the noisy class. The
** fixtures' two runs: 1 improved, 7 unresolved at 5% (as compare gives them). */
/* A line of compare's, escaped as the page escapes it, found in the page. */
static void check_said(const char *html, const char *line)
{
    FILE *fp = tmpfile();
    CHECK(fp != NULL);
    if (!fp)
        return;
    qsb_html_text(fp, line);
    char *escaped = captured(fp);
    CHECK(escaped && html && strstr(html, escaped));
    if (escaped && html && !strstr(html, escaped))
        printf("not in the page: %s\n", escaped);
    free(escaped);
}

static void check_said_line(void *html, qsb_says kind, const char *line)
{
    (void)kind;
    check_said(html, line);
}

/* Every note of every row and every line compare says besides its table, in the page. */
static void check_compare_words(const char *html, const qsb_html_page *page)
{
    qsb_compare_report rep;
    CHECK(qsb_compare_results(page->base, page->run, &page->compare, &rep) == QSB_OK);
    for (size_t i = 0; i < rep.n; i++) {
        qsb_comparison it;
        char note[400];
        CHECK(qsb_compare_item(&rep, i, &it) == QSB_OK);
        qsb_compare_row_note(note, sizeof note, &it);
        check_said(html, note + strspn(note, "; "));
    }
    qsb_compare_says(&rep, false, check_said_line, (void *)html);
    qsb_compare_says(&rep, true, check_said_line, (void *)html);
    qsb_compare_report_free(&rep);
}

/* A candidate that is a regression against its baseline only: the note of its row and the
** closing words, as compare prints them. */
static void test_compare_notes(void)
{
    qsb_results run, base;
    CHECK(qsb_read_results(COMPARE_FIXTURES "moved-new.json", &run) == QSB_OK);
    CHECK(qsb_read_results(COMPARE_FIXTURES "moved-base.json", &base) == QSB_OK);
    qsb_html_page page = {.run = &run, .run_name = "moved-new.json", .base = &base,
                          .base_name = "moved-base.json",
                          .compare = {5.0, 0.01, false, QSB_CORRECTION_HOLM, 0.0}};
    FILE *fp = tmpfile();
    CHECK(fp && qsb_report_html(fp, &page) == QSB_OK);
    char *html = fp ? captured(fp) : NULL;
    check_compare_words(html, &page);
    CHECK(html && strstr(html, "<td>against the baseline +10.64% [+10.24%, +11.04%], p adj "
                               "2.7e-14: a regression by --normalize (the baseline moved "
                               "between the runs)</td>"));
    CHECK(html && strstr(html, "<p class=\"noisy\">1 row is not a regression by its own "
                               "times but is one against the baseline"));
    CHECK(html && strstr(html, "<p>this comparison sees changes above 9.7% (median row); 3 "
                               "runs a side would see 7.7%</p>"));
    CHECK(html && strstr(html, "its detectable change is larger than the threshold of 5%: it "
                               "cannot support &quot;no regression above 5%&quot;"));
    CHECK(html && strstr(html, "<p>without a run level, these verdicts hold within each "
                               "run&#39;s own spread only"));
    CHECK(html && !strstr(html, "qsortbench: warning"));
    free(html);
    qsb_results_free(&base);
    qsb_results_free(&run);
}

static void test_compare_section(void)
{
    qsb_results run, base;
    CHECK(qsb_read_results(FIXTURES "run.json", &run) == QSB_OK);
    CHECK(qsb_read_results(FIXTURES "merged.json", &base) == QSB_OK);
    qsb_html_page page = {.run = &run, .run_name = "run.json", .base = &base,
                          .base_name = "merged.json",
                          .compare = {5.0, 0.01, false, QSB_CORRECTION_HOLM, 0.0}};
    FILE *fp = tmpfile();
    CHECK(fp && qsb_report_html(fp, &page) == QSB_OK);
    char *html = fp ? captured(fp) : NULL;
    CHECK(html && strstr(html, "<section id=\"compare\">"));
    CHECK(html && strstr(html, "<p>0 regressions, 0 failed, 1 improved, 0 same, 7 unresolved, "
                               "0 with too few samples; 0 only in BASE, 0 only in NEW</p>"));
    check_compare_words(html, &page);
    size_t unresolved = 0;
    for (const char *at = html; at && (at = strstr(at, "class=\"noisy\">unresolved<")); at++)
        unresolved++;
    CHECK_EQ_U64(unresolved, 7);
    CHECK(html && !strstr(html, "widened by a run level"));
    free(html);
    /* a run level given: said beside the threshold */
    page.compare.run_level_pct = 4.0;
    fp = tmpfile();
    CHECK(fp && qsb_report_html(fp, &page) == QSB_OK);
    html = fp ? captured(fp) : NULL;
    CHECK(html && strstr(html, "medians compared directly, each run's spread widened by a run "
                               "level of &plusmn;4%; p corrected"));
    free(html);
    qsb_results_free(&base);
    qsb_results_free(&run);
}

int main(void)
{
    test_escaping();
    test_audit_file();
    if (qsb_plot_check() != QSB_OK) {
        printf("skipped the page: gnuplot is not installed (Debian gnuplot-nox)\n");
        check_done();
        return 77;
    }
    test_page();
    test_compare_section();
    test_compare_notes();
    return check_done();
}
