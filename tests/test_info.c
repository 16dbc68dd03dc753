/*
** `qsortbench info`, run as a program: the text and the JSON agree with what machine.c reads
** from a sysfs fixture the tool is pointed at (QSB_SYSFS_CPU_ROOT; the --nelem auto counts,
** or the seed's when sysfs has no cache), never the host's own, the JSON file is written
** atomically (nothing else left beside it), and bad use is one error line with exit status 2.
*/
#include <cjson/cJSON.h>
#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "check.h"
#include "machine.h"

#define FIXTURES QSB_SOURCE_DIR "/tests/fixtures/sysfs/"

static const char *sysfs_root; /* the fixture the tool reads, in the environment */

/* Runs `qsortbench <args>` through the shell; returns the exit status and its stdout. */
static int run_tool(const char *args, char *out, size_t len)
{
    char command[1024];
    snprintf(command, sizeof command, "'%s' %s", QSB_BINARY, args);
    FILE *p = popen(command, "r");
    if (!p)
        return -1;
    size_t n = fread(out, 1, len - 1, p);
    out[n] = '\0';
    int status = pclose(p);
    return WIFEXITED(status) ? WEXITSTATUS(status) : -1;
}

/* The counts of the fixture's caches (or the seed's), the largest halved as often as the
** words of the choice say: how often depends on this machine's speed (auto_nelem.h, tested
** with made-up costs in test_auto_nelem), what the counts are made of does not. */
static void expected_nelem(const char *words, uint64_t counts[3], size_t *n)
{
    qsb_caches caches;
    qsb_read_caches(sysfs_root, &caches);
    *n = qsb_auto_nelem(&caches, counts);
    if (*n == 0) {
        memcpy(counts, qsb_seed_nelem, 3 * sizeof *counts);
        *n = 3;
    }
    const char *halved = strstr(words, "halved ");
    unsigned times = 0;
    if (halved && strncmp(halved, "halved once", 11) == 0)
        times = 1;
    else if (halved)
        CHECK(sscanf(halved, "halved %u times", &times) == 1);
    counts[*n - 1] >>= times;
}

static void test_text(void)
{
    static char out[8192];
    CHECK(run_tool("info", out, sizeof out) == 0);
    uint64_t counts[3];
    size_t n;
    expected_nelem(out, counts, &n);
    char line[128] = "nelem auto  ";
    for (size_t i = 0; i < n; i++)
        snprintf(line + strlen(line), sizeof line - strlen(line), "%s%llu", i ? ":" : "",
                 (unsigned long long)counts[i]);
    CHECK_MSG(strstr(out, line) != NULL, "no '%s' in:\n%s", line, out);
    static const char *const fields[] = {"CPU ", "cores ", "timer ", "libc ", "compiler ",
                                         "build ", "governor ", "load "};
    for (size_t i = 0; i < sizeof fields / sizeof fields[0]; i++)
        CHECK_MSG(strstr(out, fields[i]) != NULL, "no '%s' line", fields[i]);
}

static void check_json(const char *text)
{
    cJSON *root = cJSON_Parse(text);
    CHECK(root != NULL);
    if (!root)
        return;
    uint64_t counts[3];
    size_t n;
    const cJSON *rule = cJSON_GetObjectItemCaseSensitive(root, "nelem_auto_rule");
    CHECK(cJSON_IsString(rule));
    expected_nelem(cJSON_IsString(rule) ? rule->valuestring : "", counts, &n);
    cJSON *nelem = cJSON_GetObjectItemCaseSensitive(root, "nelem_auto");
    CHECK(cJSON_IsArray(nelem) && (size_t)cJSON_GetArraySize(nelem) == n);
    for (size_t i = 0; cJSON_IsArray(nelem) && i < n; i++)
        CHECK_EQ_U64(cJSON_GetArrayItem(nelem, (int)i)->valuedouble, counts[i]);

    qsb_caches caches;
    qsb_read_caches(sysfs_root, &caches);
    cJSON *bytes = cJSON_GetObjectItemCaseSensitive(root, "cache_bytes");
    CHECK(cJSON_IsArray(bytes) && cJSON_GetArraySize(bytes) == 3);
    for (int i = 0; cJSON_IsArray(bytes) && i < 3; i++)
        CHECK_EQ_U64(cJSON_GetArrayItem(bytes, i)->valuedouble, caches.level[i].total_bytes);

    static const char *const strings[] = {"cpu_model", "caches", "timer", "libc", "compiler",
                                          "build_type", "build_flags", "governor", "turbo"};
    for (size_t i = 0; i < sizeof strings / sizeof strings[0]; i++)
        CHECK_MSG(cJSON_IsString(cJSON_GetObjectItemCaseSensitive(root, strings[i])),
                  "no string '%s'", strings[i]);
    CHECK(cJSON_GetObjectItemCaseSensitive(root, "schema_version")->valueint == 1);
    CHECK(cJSON_GetObjectItemCaseSensitive(root, "online_cpus")->valueint >= 1);
    CHECK(cJSON_GetObjectItemCaseSensitive(root, "timer_resolution_ns")->valuedouble > 0);
    CHECK(cJSON_IsBool(cJSON_GetObjectItemCaseSensitive(root, "sanitized")));
    cJSON_Delete(root);
}

static void test_json_stdout(void)
{
    static char out[8192];
    CHECK(run_tool("info --json -", out, sizeof out) == 0);
    CHECK(out[0] == '{'); /* the JSON alone */
    check_json(out);
}

static void test_json_file(void)
{
    char dir[] = "/tmp/qsb-info-XXXXXX";
    CHECK(mkdtemp(dir) != NULL);
    char args[256], path[128];
    snprintf(path, sizeof path, "%s/machine.json", dir);
    snprintf(args, sizeof args, "info --json '%s'", path);
    static char out[8192], text[8192];
    CHECK(run_tool(args, out, sizeof out) == 0);
    CHECK(strstr(out, "nelem auto") != NULL); /* the text still goes to stdout */

    FILE *fp = fopen(path, "r");
    CHECK(fp != NULL);
    if (fp) {
        size_t n = fread(text, 1, sizeof text - 1, fp);
        text[n] = '\0';
        fclose(fp);
        check_json(text);
    }
    unsigned entries = 0;
    DIR *d = opendir(dir);
    for (struct dirent *e; d && (e = readdir(d)) != NULL;)
        entries += e->d_name[0] != '.';
    if (d)
        closedir(d);
    CHECK_EQ_U64(entries, 1); /* no temporary file left */
    unlink(path);
    rmdir(dir);
}

static void test_bad_use(void)
{
    static char out[1024];
    CHECK(run_tool("info extra 2>/dev/null", out, sizeof out) == 2);
    CHECK(run_tool("info --bogus 2>/dev/null", out, sizeof out) == 2);
    CHECK(run_tool("info --json 2>/dev/null", out, sizeof out) == 2);
    CHECK(run_tool("info --json /nonexistent-dir/x.json 2>&1", out, sizeof out) == 2);
    CHECK(strncmp(out, "qsortbench: error: ", 19) == 0 && strchr(out, '\n') == out + strlen(out) - 1);
    CHECK(run_tool("info --help", out, sizeof out) == 0 && strstr(out, "--json") != NULL);
}

int main(void)
{
    /* A machine with caches (the seed's Ryzen 9), and one whose sysfs has none. */
    static const char *const roots[] = {FIXTURES "ryzen9-3900x", FIXTURES "empty"};
    for (size_t i = 0; i < sizeof roots / sizeof roots[0]; i++) {
        sysfs_root = roots[i];
        setenv("QSB_SYSFS_CPU_ROOT", sysfs_root, 1);
        test_text();
        test_json_stdout();
        test_json_file();
    }
    test_bad_use();
    return check_done();
}
