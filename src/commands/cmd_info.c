/*
** `qsortbench info [--json FILE|-]`: this machine as the benchmark sees it (CPU, online
** CPUs, caches per level from sysfs, the --nelem auto counts and their rule, the timer, libc,
** this build, governor, load). The facts are gathered once into one struct; the text goes to
** stdout, the JSON (through cJSON, written atomically) to FILE; with `--json -` the JSON alone
** goes to stdout.
*/
#include <cjson/cJSON.h>
#include <inttypes.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "auto_nelem.h"
#include "commands.h"
#include "diag.h"
#include "gate.h"
#include "json_write.h"
#include "machine.h"
#include "outfile.h"
#include "result.h"
#include "run_options.h"
#include "timing.h"
#include "version.h"

enum { OPT_JSON, OPT_HISTORY };

static const qsb_option info_options[] = {
    [OPT_JSON] = {"json", 0, "FILE", "also write the description as JSON to FILE ('-': only "
                                     "the JSON, on standard output)"},
    [OPT_HISTORY] = {"history", 0, "FILE", "also each machine's run level learned from that "
                                           "history database (`qsortbench history gate`)"},
    {NULL, 0, NULL, NULL},
};

static const qsb_command_spec info_spec = {
    "info", "[--json FILE|-] [--history FILE]",
    "Describe this machine: CPU, caches, the --nelem auto counts, timer, libc, build.",
    info_options,
    "0 success, 2 usage error, 3 system error (I/O)."};
static const qsb_command_spec *const info_specs[] = {&info_spec, NULL};

static const char *const level_names[3] = {"L1d", "L2", "L3"};

typedef struct {
    char cpu_model[256];
    long online_cpus;
    qsb_caches caches;
    char caches_text[256];
    uint64_t nelem[3];  /* the counts a default run chooses (--nelem auto, auto_nelem.h) */
    size_t nnelem;
    char nelem_why[512]; /* and why, in the run's words */
    qsb_timer timer;
    int tsc_invariant;
    char libc[64];
    char governor[64];
    char turbo[16];
    double load;
} machine_info;

/* The options' arguments, by their index in the table. */
static int handle_option(void *ctx, int index, const char *arg)
{
    ((const char **)ctx)[index] = arg;
    return QSB_OK;
}

/* What a default run would choose: its configuration parsed from no option at all. */
static int default_counts(machine_info *m)
{
    char *argv[] = {"run", NULL};
    qsb_run_options run;
    int status = qsb_run_options_parse(&run, NULL, 1, argv);
    const qsb_run_config *cfg = &run.bench;
    if (status == QSB_OK) {
        m->nnelem = cfg->n_nelem < 3 ? cfg->n_nelem : 3;
        memcpy(m->nelem, cfg->nelem, m->nnelem * sizeof *m->nelem);
        qsb_auto_nelem_describe(cfg, m->nelem_why, sizeof m->nelem_why);
    }
    qsb_run_config_free(&run.bench);
    return status;
}

static int gather(machine_info *m)
{
    qsb_cpu_model(m->cpu_model, sizeof m->cpu_model);
    m->online_cpus = sysconf(_SC_NPROCESSORS_ONLN);
    qsb_read_caches(qsb_sysfs_cpu_root(), &m->caches); /* all zero when absent */
    qsb_caches_describe(&m->caches, m->caches_text, sizeof m->caches_text);
    m->tsc_invariant = qsb_tsc_invariant();
    qsb_timer_init(&m->timer, 1); /* falls back to the clock by itself */
    qsb_libc_version(m->libc, sizeof m->libc);
    qsb_cpu_governor(m->governor, sizeof m->governor);
    qsb_turbo_state(m->turbo, sizeof m->turbo);
    m->load = qsb_load_average();
    return default_counts(m);
}

static void print_nelem(const machine_info *m)
{
    printf("nelem auto  ");
    for (size_t i = 0; i < m->nnelem; i++)
        printf("%s%" PRIu64, i ? ":" : "", m->nelem[i]);
    printf("\n            %s\n", m->nelem_why);
}

/* The build's own facts, as info and --version print them: the commit, the compiler, the
** build type and the flags (the results' context records the same, version.h). */
static void print_build(void)
{
    printf("commit      %s\n", qsb_build_commit);
    printf("compiler    %s\n", QSB_COMPILER);
    printf("build       %s, flags \"%s\"%s\n", QSB_BUILD_TYPE[0] ? QSB_BUILD_TYPE : "(none)",
           QSB_BUILD_FLAGS, QSB_SANITIZED ? ", sanitized (ASan+UBSan)" : "");
}

static void print_text(const machine_info *m)
{
    printf("CPU         %s\n", m->cpu_model);
    printf("cores       %ld online\n", m->online_cpus);
    int any = 0;
    for (int i = 0; i < 3; i++) {
        const qsb_cache_level *l = &m->caches.level[i];
        if (!l->total_bytes)
            continue;
        char instance[32], total[32];
        qsb_format_bytes(l->instance_bytes, instance, sizeof instance);
        qsb_format_bytes(l->total_bytes, total, sizeof total);
        printf("%-11s %-4s %s x %u = %s\n", any ? "" : "caches", level_names[i], instance,
               l->instances, total);
        any = 1;
    }
    if (!any)
        printf("caches      unknown (nothing under %s/cpu*/cache)\n", qsb_sysfs_cpu_root());
    print_nelem(m);
    printf("timer       %s, resolution %.3g ns", m->timer.name, m->timer.resolution_ns);
    if (m->timer.tsc_hz > 0)
        printf(", TSC %.4g GHz", m->timer.tsc_hz / 1e9);
    printf(" (invariant TSC: %s)\n", m->tsc_invariant ? "yes" : "no");
    printf("libc        %s\n", m->libc);
    print_build();
    printf("governor    %s, turbo %s\n", m->governor, m->turbo);
    if (m->load >= 0)
        printf("load        %.2f (1-minute average)\n", m->load);
    else
        printf("load        unknown\n");
}

/* Each level present: {"level", "instance_bytes", "instances", "total_bytes"}. */
static cJSON *cache_levels_json(const qsb_caches *caches)
{
    cJSON *levels = cJSON_CreateArray();
    int ok = levels != NULL;
    for (int i = 0; ok && i < 3; i++) {
        const qsb_cache_level *l = &caches->level[i];
        if (!l->total_bytes)
            continue;
        cJSON *o = cJSON_CreateObject();
        ok = o && cJSON_AddItemToArray(levels, o);
        if (!ok) {
            cJSON_Delete(o);
            break;
        }
        ok &= cJSON_AddStringToObject(o, "level", level_names[i]) != NULL;
        ok &= cJSON_AddNumberToObject(o, "instance_bytes", (double)l->instance_bytes) != NULL;
        ok &= cJSON_AddNumberToObject(o, "instances", l->instances) != NULL;
        ok &= cJSON_AddNumberToObject(o, "total_bytes", (double)l->total_bytes) != NULL;
    }
    if (!ok) {
        cJSON_Delete(levels);
        return NULL;
    }
    return levels;
}

static cJSON *u64_array_json(const uint64_t *values, size_t n)
{
    cJSON *a = cJSON_CreateArray();
    for (size_t i = 0; a && i < n; i++) {
        cJSON *v = cJSON_CreateNumber((double)values[i]); /* exact below 2^53 */
        if (!v || !cJSON_AddItemToArray(a, v)) {
            cJSON_Delete(v);
            cJSON_Delete(a);
            a = NULL;
        }
    }
    return a;
}

/* The machine as JSON; NULL when out of memory (every adder reports its own failure). */
static cJSON *info_json(const machine_info *m)
{
    cJSON *root = cJSON_CreateObject();
    if (!root)
        return NULL;
    uint64_t cache_bytes[3];
    for (int i = 0; i < 3; i++)
        cache_bytes[i] = m->caches.level[i].total_bytes;
    int ok = cJSON_AddNumberToObject(root, "schema_version", QSB_SCHEMA_VERSION) != NULL;
    ok &= cJSON_AddStringToObject(root, "tool_version", QSB_VERSION) != NULL;
    ok &= cJSON_AddStringToObject(root, "cpu_model", m->cpu_model) != NULL;
    ok &= cJSON_AddNumberToObject(root, "online_cpus", (double)m->online_cpus) != NULL;
    ok &= cJSON_AddStringToObject(root, "caches", m->caches_text) != NULL;
    ok &= cJSON_AddItemToObject(root, "cache_bytes", u64_array_json(cache_bytes, 3));
    ok &= cJSON_AddItemToObject(root, "cache_levels", cache_levels_json(&m->caches));
    ok &= cJSON_AddItemToObject(root, "nelem_auto", u64_array_json(m->nelem, m->nnelem));
    ok &= cJSON_AddStringToObject(root, "nelem_auto_rule", m->nelem_why) != NULL;
    ok &= cJSON_AddStringToObject(root, "timer", m->timer.name) != NULL;
    ok &= cJSON_AddNumberToObject(root, "timer_resolution_ns", m->timer.resolution_ns) != NULL;
    ok &= cJSON_AddBoolToObject(root, "tsc_invariant", m->tsc_invariant) != NULL;
    ok &= cJSON_AddNumberToObject(root, "tsc_hz", m->timer.tsc_hz) != NULL;
    ok &= cJSON_AddStringToObject(root, "libc", m->libc) != NULL;
    ok &= cJSON_AddStringToObject(root, "compiler", QSB_COMPILER) != NULL;
    ok &= cJSON_AddStringToObject(root, "build_type", QSB_BUILD_TYPE) != NULL;
    ok &= cJSON_AddStringToObject(root, "build_flags", QSB_BUILD_FLAGS) != NULL;
    ok &= cJSON_AddBoolToObject(root, "sanitized", QSB_SANITIZED) != NULL;
    ok &= cJSON_AddStringToObject(root, "governor", m->governor) != NULL;
    ok &= cJSON_AddStringToObject(root, "turbo", m->turbo) != NULL;
    ok &= (m->load >= 0 ? cJSON_AddNumberToObject(root, "load_average", m->load)
                        : cJSON_AddNullToObject(root, "load_average")) != NULL;
    if (!ok) {
        cJSON_Delete(root);
        return NULL;
    }
    return root;
}

/* Between --json's open (first: a bad path fails before the timer calibration) and its
** commit: the machine described, as text unless the JSON alone is on stdout, and as JSON. */
static int describe_into(const qsb_outputs *out, void *arg)
{
    const char *json_path = ((const char **)arg)[OPT_JSON];
    const char *history_path = ((const char **)arg)[OPT_HISTORY];
    machine_info m;
    int status = gather(&m);
    if (status != QSB_OK)
        return status;
    if (!json_path || strcmp(json_path, "-") != 0)
        print_text(&m);
    qsb_history *h = NULL;
    if (history_path && (status = qsb_history_open(history_path, QSB_HISTORY_READ, &h)) ==
                            QSB_OK)
        status = qsb_history_write_levels(json_path && strcmp(json_path, "-") == 0 ? stderr
                                                                                   : stdout,
                                          h, NULL);
    qsb_history_close(h);
    if (status != QSB_OK)
        return status;
    return out->file[0].fp ? qsb_json_print(out->file[0].fp, info_json(&m), "info JSON") : QSB_OK;
}

static int info_main(int argc, char **argv)
{
    const char *paths[2] = {NULL, NULL}; /* --json, --history */
    int first;
    int status = qsb_parse_options(&info_spec, argc, argv, handle_option, paths, &first);
    if (status != QSB_OK)
        return status == QSB_HELP_SHOWN ? QSB_OK : status;
    if (first < argc)
        return qsb_usage_error("info takes no operands ('%s')", qsb_quote(argv[first]));
    const qsb_output_spec output[1] = {{NULL, paths[OPT_JSON]}}; /* messages: the path alone */
    const qsb_file_group history = {"--history", QSB_FILES_READ, &paths[OPT_HISTORY], 1};
    return qsb_with_outputs(output, 1, &history, 1, describe_into, paths);
}

/* The command's row of the tool's table (main.c). */
const qsb_command qsb_info_command = {
    .name = "info",
    .run = info_main,
    .summary = "this machine: CPU, caches, timer, libc, build",
    .specs = info_specs,
};

int qsb_print_version(void)
{
    printf("qsortbench %s\n", QSB_VERSION);
    print_build();
    return QSB_OK;
}
