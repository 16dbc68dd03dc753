/*
** The published table (src/results/cover_letter.c): the compiled-in copy equals
** tests/reference/cover-letter-2021.csv cell for cell (read by the same --reference FILE
** reader the tool uses); look-ups ignore the pattern's case; malformed files are refused
** with QSB_EUSAGE (each prints its one error line). The reproduction compares the cover
** letter's own code: with --reference glibc-2021 and no --algos the run's pair is msort and
** introsort-2021 (the 2021 series), not the 2023 commit; --algos still decides when given.
*/
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "check.h"
#include "cover_letter.h"
#include "diag.h"
#include "run_config.h"
#include "run_options.h"

static void test_table_matches_file(void)
{
    qsb_reference file, builtin;
    CHECK_EQ_U64(qsb_reference_load(QSB_REFERENCE_DIR "/cover-letter-2021.csv", &file), QSB_OK);
    CHECK_EQ_U64(qsb_reference_load("glibc-2021", &builtin), QSB_OK);
    CHECK_EQ_U64(qsb_cover_letter_2021_count, 45);
    CHECK_EQ_U64(file.ncells, 45);
    CHECK_EQ_U64(builtin.ncells, 45);
    for (size_t i = 0; i < file.ncells && i < qsb_cover_letter_2021_count; i++) {
        const qsb_published_cell *a = &file.cells[i], *b = &qsb_cover_letter_2021[i];
        CHECK_MSG(strcmp(a->pattern, b->pattern) == 0 && a->nelem == b->nelem &&
                      a->size == b->size && a->delta_pct == b->delta_pct &&
                      a->master == b->master && a->patches == b->patches,
                  "cell %zu: %s %llu %llu differs", i, a->pattern,
                  (unsigned long long)a->nelem, (unsigned long long)a->size);
    }
    CHECK(strcmp(builtin.name, "glibc-2021") == 0);
    const qsb_published_cell *c = qsb_reference_find(&builtin, "sorted", 49152, 4);
    CHECK(c && c->delta_pct == 52.47 && c->master == 3654381.0 && c->patches == 5571774.0);
    c = qsb_reference_find(&builtin, "BITONIC", 8388608, 32);
    CHECK(c && c->delta_pct == -24.14);
    CHECK(qsb_reference_find(&builtin, "reversed", 49152, 4) == NULL);
    CHECK(qsb_reference_find(&builtin, "sorted", 49152, 16) == NULL);
    qsb_reference_free(&file);
    qsb_reference_free(&builtin);
}

static void reject_text(const char *text)
{
    char path[] = "/tmp/qsb-reference-XXXXXX";
    int fd = mkstemp(path);
    CHECK(fd >= 0);
    if (fd < 0)
        return;
    FILE *fp = fdopen(fd, "w");
    fputs(text, fp);
    fclose(fp);
    qsb_reference ref;
    CHECK_MSG(qsb_reference_load(path, &ref) == QSB_EUSAGE, "accepted: %s", text);
    CHECK(ref.cells == NULL && ref.ncells == 0);
    unlink(path);
}

#define HEADER "pattern,nelem,size,delta_pct,master_msort,patches_introsort\n"

static void test_bad_files(void)
{
    qsb_reference ref;
    CHECK_EQ_U64(qsb_reference_load("/nonexistent/ref.csv", &ref), QSB_EUSAGE);
    reject_text("");
    reject_text(HEADER);
    reject_text("pattern,nelem,size,delta,master,patches\nSORTED,1,4,1,1,1\n");
    reject_text(HEADER "SORTED,49152,4,52.47,3654381.0\n");
    reject_text(HEADER "SORTED,49152,4,52.47,3654381.0,5571774.0,7\n");
    reject_text(HEADER "SORTED,49152,4,52,47,3654381.0,5571774.0\n");
    reject_text(HEADER "SORTED,49152,4,fast,3654381.0,5571774.0\n");
    reject_text(HEADER "SORTED,0,4,1.0,1.0,1.0\n");
    reject_text(HEADER "SORTED,-5,4,1.0,1.0,1.0\n");
    reject_text(HEADER "SORTED,5,4,1.0.0,1.0,1.0\n");
    reject_text(HEADER "SORTED,5,4,1,1,1\nsorted,5,4,2,2,2\n");
    reject_text(HEADER "\"SORTED,5,4,1,1,1\n");

    /* A well-formed file of our own: signs and quoting as CSV allows. */
    char path[] = "/tmp/qsb-reference-XXXXXX";
    int fd = mkstemp(path);
    FILE *fp = fd >= 0 ? fdopen(fd, "w") : NULL;
    CHECK(fp != NULL);
    if (!fp)
        return;
    fputs(HEADER "\"RANDOM\",1000,8,-3.5,+10,9.65\r\nSORTED,1000,8,0,1,1\r\n", fp);
    fclose(fp);
    CHECK_EQ_U64(qsb_reference_load(path, &ref), QSB_OK);
    CHECK_EQ_U64(ref.ncells, 2);
    const qsb_published_cell *c = qsb_reference_find(&ref, "random", 1000, 8);
    CHECK(c && c->delta_pct == -3.5 && c->master == 10 && c->patches == 9.65);
    qsb_reference_free(&ref);
    unlink(path);
}

/* The run's algorithms for these arguments after `run --compat glibc-bench-2021 -q`. */
static void check_pair(char *reference_option, char *reference, char *algos, const char *first,
                       const char *second)
{
    char *argv[8] = {"run", "--compat", "glibc-bench-2021", "-q"};
    int argc = 4;
    if (reference_option)
        argv[argc++] = reference_option, argv[argc++] = reference;
    if (algos)
        argv[argc++] = "--algos", argv[argc++] = algos;
    qsb_run_options run;
    CHECK_EQ_U64(qsb_run_options_parse(&run, NULL, argc, argv), QSB_OK);
    qsb_run_config cfg = run.bench;
    CHECK_MSG(cfg.n_algos == 2 && strcmp(cfg.algos[0].name, first) == 0 &&
                  strcmp(cfg.algos[1].name, second) == 0,
              "reference %s, algos %s: got %s,%s", reference ? reference : "none",
              algos ? algos : "default", cfg.n_algos > 0 ? cfg.algos[0].name : "?",
              cfg.n_algos > 1 ? cfg.algos[1].name : "?");
    qsb_run_config_free(&cfg);
}

static void test_reproduction_pair(void)
{
    check_pair("--reference", "glibc-2021", NULL, "msort", "introsort-2021");
    check_pair(NULL, NULL, NULL, "msort", "introsort");
    check_pair("--reference", QSB_REFERENCE_DIR "/cover-letter-2021.csv", NULL, "msort",
               "introsort");
    check_pair("--reference", "glibc-2021", "msort,introsort", "msort", "introsort");
}

int main(void)
{
    test_table_matches_file();
    test_bad_files();
    test_reproduction_pair();
    return check_done();
}
