/*
** The results readers under random damage: the fixture files mutated (bytes flipped, replaced
** by JSON/CSV punctuation, inserted, deleted, chunks duplicated, cut short) from a fixed seed.
** Every read must end in QSB_OK with a well-formed structure (cells with rows, the baseline
** row first, samples present when counted) or in QSB_EUSAGE with the output empty: never a
** crash, never another status. Each mutant is read slim too (compare's reading): the same
** status, and the same rows. Meant for the ASan+UBSan build, where an overrun would abort.
*/
#include <fcntl.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "check.h"
#include "diag.h"
#include "read_results.h"
#include "slim_check.h"

#define FIXTURES QSB_SOURCE_DIR "/tests/fixtures/results/"
#define ROUNDS 600 /* per fixture; QSB_FUZZ_ROUNDS=N in the environment for a longer run */

static int rounds = ROUNDS;

static uint64_t rng_state = 0x2545F4914F6CDD1Dull;

static uint64_t next_random(void)
{
    /* xorshift64*: enough for mutations, reproducible from the seed above */
    rng_state ^= rng_state >> 12;
    rng_state ^= rng_state << 25;
    rng_state ^= rng_state >> 27;
    return rng_state * 0x2545F4914F6CDD1Dull;
}

static size_t below(size_t n)
{
    return n ? (size_t)(next_random() % n) : 0;
}

static char *slurp(const char *path, size_t *len)
{
    FILE *fp = fopen(path, "rb");
    if (!fp)
        return NULL;
    char *buf = malloc(1 << 16);
    *len = buf ? fread(buf, 1, 1 << 16, fp) : 0;
    fclose(fp);
    return buf;
}

/* One random edit of buf[0..*len) in place; cap is the buffer's size. */
static void mutate(char *buf, size_t *len, size_t cap)
{
    static const char punctuation[] = "{}[],:\";\n\r0123456789.-eE+ xtrufalsn\\\x00\xff";
    size_t at = below(*len);
    switch (below(6)) {
    case 0: /* flip a bit */
        if (*len)
            buf[at] ^= (char)(1u << below(8));
        break;
    case 1: /* replace with a character that means something to a parser */
        if (*len)
            buf[at] = punctuation[below(sizeof punctuation - 1)];
        break;
    case 2: /* insert */
        if (*len < cap) {
            memmove(buf + at + 1, buf + at, *len - at);
            buf[at] = punctuation[below(sizeof punctuation - 1)];
            (*len)++;
        }
        break;
    case 3: { /* delete a run */
        size_t n = below(16) + 1;
        if (at + n > *len)
            n = *len - at;
        memmove(buf + at, buf + at + n, *len - at - n);
        *len -= n;
        break;
    }
    case 4: { /* duplicate a chunk (whole rows, sometimes) */
        size_t n = below(200) + 1;
        if (at + n > *len)
            n = *len - at;
        if (*len + n <= cap) {
            memmove(buf + at + n, buf + at, *len - at);
            (*len) += n;
        }
        break;
    }
    default: /* cut short */
        *len = at;
        break;
    }
}

static void check_well_formed(const qsb_results *r)
{
    CHECK(r->ncells > 0 && r->baseline != NULL && r->context.metric != NULL);
    for (size_t c = 0; c < r->ncells; c++) {
        const qsb_cell *cell = &r->cells[c];
        CHECK(cell->pattern != NULL && cell->nrows > 0 && cell->size > 0);
        CHECK(cell->nrows > 0 && strcmp(cell->rows[0].algorithm, r->baseline) == 0);
        for (size_t i = 0; i < cell->nrows; i++)
            CHECK(cell->rows[i].nsamples == 0 || cell->rows[i].samples != NULL);
    }
}

static void fuzz_file(const char *fixture, const char *path)
{
    size_t len0;
    char *original = slurp(fixture, &len0);
    CHECK(original != NULL);
    if (!original)
        return;
    size_t cap = 2 * len0 + 4096;
    char *buf = malloc(cap);
    size_t accepted = 0, rejected = 0;
    for (int round = 0; round < rounds; round++) {
        size_t len = len0;
        memcpy(buf, original, len0);
        size_t edits = 1 + below(round % 4 == 0 ? 20 : 3);
        for (size_t e = 0; e < edits; e++)
            mutate(buf, &len, cap);
        FILE *fp = fopen(path, "wb");
        if (!fp || fwrite(buf, 1, len, fp) != len || fclose(fp) != 0) {
            CHECK(0);
            break;
        }
        qsb_results r, slim;
        int status = qsb_read_results(path, &r);
        int slim_status = qsb_read_compare_results(path, &slim);
        CHECK_MSG(status == QSB_OK || status == QSB_EUSAGE, "round %d: status %d", round, status);
        CHECK_MSG(slim_status == status, "round %d: status %d, read slim %d", round, status,
                  slim_status);
        if (status == QSB_OK) {
            accepted++;
            check_well_formed(&r);
            if (slim_status == QSB_OK)
                check_same_rows(fixture, &r, &slim);
        } else {
            rejected++;
            CHECK(r.ncells == 0 && r.cells == NULL);
            CHECK(slim.ncells == 0 && slim.cells == NULL);
        }
        qsb_results_free(&r);
        qsb_results_free(&slim);
    }
    printf("%s: %zu mutants accepted, %zu rejected\n", fixture, accepted, rejected);
    CHECK(rejected > 0); /* the mutations do damage */
    free(buf);
    free(original);
}

int main(void)
{
    char dir[] = "/tmp/qsb-fuzz-XXXXXX";
    if (!mkdtemp(dir)) {
        perror("mkdtemp");
        return 1;
    }
    const char *env = getenv("QSB_FUZZ_ROUNDS");
    if (env && atoi(env) > 0)
        rounds = atoi(env);
    char csv[64], json[64];
    snprintf(csv, sizeof csv, "%s/m.csv", dir);
    snprintf(json, sizeof json, "%s/m.json", dir);
    /* thousands of one-line errors: keep them off the test log */
    fflush(stderr);
    int saved = dup(2), null_fd = open("/dev/null", O_WRONLY);
    dup2(null_fd, 2);
    fuzz_file(FIXTURES "small.csv", csv);
    fuzz_file(FIXTURES "small.json", json);
    fflush(stderr);
    dup2(saved, 2);
    close(saved);
    close(null_fd);
    unlink(csv);
    unlink(json);
    rmdir(dir);
    return check_done();
}
