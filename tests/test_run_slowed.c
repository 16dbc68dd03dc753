/*
** Slowed samples are retaken (run.h, step 7), through the run command's own code, with sorts
** that exist only in this test (swapped into a parsed config, as test_run_failed does):
**
**   steady  sorts, then spins until 300 us have passed since it started;
**   lumpy   the same, but every third call from the sixth on spins 600 us: a machine slowed
**           for one sort (its first three calls, the counted sort and rounds 0 and 1, give the
**           reference: no warm-up, no batches).
**
** With the default --slowed, lumpy's slow calls are retaken (the next call is fast), so its
** kept samples stay within 10% of its fastest; with --slowed 0 they are kept, and the
** samples spread by about 2x.
*/
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <cjson/cJSON.h>

#include "check.h"
#include "diag.h"
#include "run.h"
#include "run_config.h"
#include "run_helpers.h"

static double now_us(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec * 1e6 + (double)ts.tv_nsec / 1e3;
}

static void sort_lasting(void *base, size_t n, size_t size,
                         int (*cmp)(const void *, const void *, void *), void *arg, double us)
{
    double start = now_us();
    qsort_r(base, n, size, cmp, arg);
    while (now_us() - start < us)
        ;
}

static void steady_sort(void *base, size_t n, size_t size,
                        int (*cmp)(const void *, const void *, void *), void *arg)
{
    sort_lasting(base, n, size, cmp, arg, 300);
}

static unsigned lumpy_calls;

static void lumpy_sort(void *base, size_t n, size_t size,
                       int (*cmp)(const void *, const void *, void *), void *arg)
{
    lumpy_calls++;
    sort_lasting(base, n, size, cmp, arg, lumpy_calls > 3 && lumpy_calls % 3 == 0 ? 600 : 300);
}

static const qsb_algorithm spinning[] = {
    {"steady", "test only", steady_sort, 0, "test"},
    {"lumpy", "test only", lumpy_sort, 0, "test"},
};

/* The lumpy row's samples: their largest / smallest, and its retaken count. */
static int lumpy_row(const char *json, double *spread, double *retaken)
{
    char *text = slurp(json, NULL);
    cJSON *root = text ? cJSON_Parse(text) : NULL;
    free(text);
    const cJSON *row = NULL, *results = root ? cJSON_GetObjectItem(root, "results") : NULL;
    cJSON_ArrayForEach(row, results)
    {
        if (strcmp(cJSON_GetObjectItem(row, "algorithm")->valuestring, "lumpy") == 0)
            break;
    }
    int status = -1;
    const cJSON *samples = row ? cJSON_GetObjectItem(row, "samples") : NULL;
    if (cJSON_GetArraySize(samples) == 30) {
        double lo = INFINITY, hi = 0;
        const cJSON *s;
        cJSON_ArrayForEach(s, samples)
        {
            lo = s->valuedouble < lo ? s->valuedouble : lo;
            hi = s->valuedouble > hi ? s->valuedouble : hi;
        }
        *spread = hi / lo;
        *retaken = cJSON_GetObjectItem(row, "retaken")->valuedouble;
        status = 0;
    }
    cJSON_Delete(root);
    return status;
}

/* One run of the steady baseline and the lumpy candidate, 30 rounds, with --slowed when
** slowed is not NULL. */
static void run_with(const char *dir, const char *slowed, double *spread, double *retaken)
{
    char csv[300], json[300];
    snprintf(csv, sizeof csv, "%s/r-%s.csv", dir, slowed ? slowed : "default");
    snprintf(json, sizeof json, "%s/r-%s.json", dir, slowed ? slowed : "default");
    char *args[20] = {"run", "--nelem", "200", "--sizes", "4", "--patterns", "random",
                      "--reps", "30", "--warmup", "0", "--batch", "1", "--csv", csv,
                      "--json", json, "--quiet"};
    int argc = 18;
    if (slowed) {
        args[argc++] = "--slowed";
        args[argc++] = (char *)slowed;
    }
    qsb_run_config cfg;
    int status = qsb_run_config_parse(&cfg, argc, args);
    CHECK_EQ_U64(status, QSB_OK);
    if (status == QSB_OK && cfg.n_algos == 2) {
        cfg.algos[0] = spinning[0];
        cfg.algos[1] = spinning[1];
        lumpy_calls = 0;
        CHECK_EQ_U64(qsb_run_execute(&cfg), QSB_OK);
        CHECK_MSG(lumpy_row(json, spread, retaken) == 0, "no lumpy row of 30 samples");
    }
    qsb_run_config_free(&cfg);
}

int main(void)
{
    char dir[256];
    if (make_temp_dir(dir, sizeof dir, "qsb-run-slowed") != 0)
        return 1;
    double spread = 0, retaken = 0;
    run_with(dir, NULL, &spread, &retaken);
    CHECK_MSG(spread < 1.1 + 0.05, "default: kept samples spread %.2fx", spread);
    CHECK_MSG(retaken >= 5, "default: %g retaken", retaken);

    run_with(dir, "0", &spread, &retaken);
    CHECK_MSG(spread > 1.5, "--slowed 0: kept samples spread only %.2fx", spread);
    remove_temp_dir(dir);
    return check_done();
}
