/*
** The run's option parsing (src/commands/run_options.c): the defaults of the spec, every option
** read into the config, the command line recorded as a shell would need it, every bad value refused
** with QSB_EUSAGE (each prints its one error line), and the default repetitions; and the walk
** over the cells a run visits (all of them in matrix order, or exactly its shard's).
*/
#include <string.h>

#include "check.h"
#include "diag.h"
#include "run.h"
#include "run_options.h"
#include "timing.h"

#define ARGC(a) ((int)(sizeof(a) / sizeof((a)[0])))

/* The run's options parsed, the command's own into *run when not NULL. */
static int parse(qsb_run_config *cfg, qsb_run_options *run, int argc, char **argv)
{
    qsb_run_options parsed;
    int status = qsb_run_options_parse(&parsed, NULL, argc, argv);
    *cfg = parsed.bench;
    if (run)
        *run = parsed;
    return status;
}

static void test_defaults(void)
{
    char *argv[] = {"qsortbench"};
    qsb_run_config cfg;
    qsb_run_options run;
    CHECK_EQ_U64(parse(&cfg, &run, ARGC(argv), argv), QSB_OK);
    CHECK(cfg.n_nelem >= 1 && cfg.n_nelem <= 3); /* auto: this machine's caches */
    CHECK(cfg.n_sizes == 3 && cfg.sizes[0] == 4 && cfg.sizes[1] == 8 && cfg.sizes[2] == 32);
    static const char *const seed_patterns[] = {"sorted", "mostlysorted", "random", "repeated",
                                                "bitonic"};
    CHECK_EQ_U64(cfg.n_patterns, 5);
    for (size_t i = 0; i < cfg.n_patterns && i < 5; i++)
        CHECK(strcmp(cfg.patterns[i]->name, seed_patterns[i]) == 0);
    CHECK(cfg.n_algos == 2 && strcmp(cfg.algos[0].name, "msort") == 0 &&
          strcmp(cfg.algos[1].name, "introsort") == 0);
    CHECK(cfg.seed == UINT64_C(0x9abc56781234) && cfg.reps == 0);
    CHECK(cfg.metric == (qsb_tsc_invariant() ? QSB_METRIC_CYCLES : QSB_METRIC_NS));
    CHECK(cfg.mode == QSB_MODE_DEFAULT && !run.csv_path && !run.json_path);
    CHECK(!run.reference && !cfg.quiet);
    CHECK(strcmp(cfg.command_line, "qsortbench run") == 0);
    qsb_run_config_free(&cfg);
}

static void test_every_option(void)
{
    char *argv[] = {"run",       "--nelem",      "49152:786432:8388608", "--sizes",
                    "1,3",       "--patterns",   "RANDOM,bitonic",       "--algos",
                    "introsort,msort,system",    "--seed",               "0x10",
                    "--reps",    "7",            "--csv",                "my results.csv",
                    "--json",    "-",            "--metric",             "comparisons",
                    "--compat",  "glibc-bench-2021",                     "--reference",
                    "glibc-2021", "-q"};
    qsb_run_config cfg;
    qsb_run_options run;
    CHECK_EQ_U64(parse(&cfg, &run, ARGC(argv), argv), QSB_OK);
    CHECK(cfg.n_nelem == 3 && cfg.nelem[0] == 49152 && cfg.nelem[1] == 786432 &&
          cfg.nelem[2] == 8388608);
    CHECK(cfg.n_sizes == 2 && cfg.sizes[0] == 1 && cfg.sizes[1] == 3);
    CHECK(cfg.n_patterns == 2 && strcmp(cfg.patterns[0]->name, "random") == 0 &&
          strcmp(cfg.patterns[1]->name, "bitonic") == 0);
    CHECK(cfg.n_algos == 3 && strcmp(cfg.algos[0].name, "introsort") == 0 &&
          strcmp(cfg.algos[2].name, "system") == 0 && cfg.algos[1].sort != NULL);
    CHECK(cfg.seed == 16 && cfg.reps == 7);
    CHECK(run.csv_path && strcmp(run.csv_path, "my results.csv") == 0);
    CHECK(run.json_path && strcmp(run.json_path, "-") == 0);
    CHECK(cfg.metric == QSB_METRIC_COMPARISONS && cfg.mode == QSB_MODE_COMPAT_2021);
    CHECK(run.reference && strcmp(run.reference, "glibc-2021") == 0 && cfg.quiet);
    CHECK_MSG(strcmp(cfg.command_line,
                     "qsortbench run --nelem 49152:786432:8388608 --sizes 1,3 --patterns "
                     "RANDOM,bitonic --algos introsort,msort,system --seed 0x10 --reps 7 "
                     "--csv 'my results.csv' --json - --metric comparisons --compat "
                     "glibc-bench-2021 --reference glibc-2021 -q") == 0,
              "%s", cfg.command_line);
    qsb_run_config_free(&cfg);

    char *all[] = {"run", "--patterns", "all", "--nelem", "10"};
    CHECK_EQ_U64(parse(&cfg, NULL, ARGC(all), all), QSB_OK);
    CHECK_EQ_U64(cfg.n_patterns, qsb_pattern_count);
    qsb_run_config_free(&cfg);
}

static void reject(const char *option, const char *value)
{
    char *argv[] = {"run", (char *)option, (char *)value};
    qsb_run_config cfg;
    int status = parse(&cfg, NULL, value ? 3 : 2, argv);
    CHECK_MSG(status == QSB_EUSAGE, "%s %s accepted (status %d)", option, value ? value : "",
              status);
    qsb_run_config_free(&cfg);
}

static void test_rejections(void)
{
    static const char *const bad_nelem[] = {"12x", "0", "-1", "99999999999999999999", "1::2",
                                            ":5", "5:", "", "1e6", "0x10", "auto:5", "7:7"};
    for (size_t i = 0; i < sizeof bad_nelem / sizeof bad_nelem[0]; i++)
        reject("--nelem", bad_nelem[i]);
    reject("--sizes", "0");
    reject("--sizes", "4,,8");
    reject("--sizes", "4:8");
    reject("--patterns", "nosuch");
    reject("--patterns", "random,RANDOM");
    reject("--patterns", "");
    reject("--algos", "nosuch");
    reject("--algos", "msort,");
    reject("--metric", "foo");
    reject("--metric", "Cycles");
    reject("--compat", "glibc");
    reject("--seed", "281474976710656"); /* 2^48 */
    reject("--seed", "-1");
    reject("--reps", "0");
    reject("--nosuch", NULL);
    reject("--nelem", NULL); /* no value */
    char *both[] = {"run", "--csv", "-", "--json", "-"};
    qsb_run_config cfg;
    CHECK_EQ_U64(parse(&cfg, NULL, ARGC(both), both), QSB_EUSAGE);
    qsb_run_config_free(&cfg);
    char *operand[] = {"run", "stray"};
    CHECK_EQ_U64(parse(&cfg, NULL, ARGC(operand), operand), QSB_EUSAGE);
    qsb_run_config_free(&cfg);
}

/* The cursor visits exactly the cells whose ordinal the shard holds (all without a shard), in
** matrix order: pattern, then size, then count. */
static void check_walk(const qsb_run_config *cfg)
{
    size_t visited = 0, expected_next = 0;
    for (qsb_cell_cursor at = {0}; qsb_run_config_next_cell(cfg, &at); visited++) {
        size_t ordinal = (at.pattern * cfg->n_sizes + at.size) * cfg->n_nelem + at.nelem;
        CHECK_EQ_U64(at.next, ordinal + 1);
        CHECK(ordinal >= expected_next);
        for (size_t m = expected_next; cfg->in_shard && m < ordinal; m++)
            CHECK(!cfg->in_shard[m]); /* a skipped cell is another shard's */
        CHECK(!cfg->in_shard || cfg->in_shard[ordinal]);
        expected_next = ordinal + 1;
    }
    CHECK_EQ_U64(visited, qsb_run_config_cells(cfg));
}

static void test_cell_walk(void)
{
    char *whole[] = {"qsortbench", "--nelem", "10:20:30", "--sizes", "4,8", "--patterns",
                     "sorted,random"};
    char *shard[] = {"qsortbench", "--nelem", "10:20:30", "--sizes", "4,8", "--patterns",
                     "sorted,random", "--shard", "2/3"};
    qsb_run_config cfg;
    CHECK_EQ_U64(parse(&cfg, NULL, ARGC(whole), whole), QSB_OK);
    check_walk(&cfg);
    CHECK_EQ_U64(qsb_run_config_cells(&cfg), 12);
    qsb_run_config_free(&cfg);
    CHECK_EQ_U64(parse(&cfg, NULL, ARGC(shard), shard), QSB_OK);
    CHECK(cfg.in_shard != NULL && qsb_run_config_cells(&cfg) < 12);
    check_walk(&cfg);
    qsb_run_config_free(&cfg);
}

int main(void)
{
    test_defaults();
    test_every_option();
    test_rejections();
    test_cell_walk();
    return check_done();
}
