/*
** src/base/machine.c: cache parsing on sysfs fixture directories (tests/fixtures/sysfs/, see its
** README.md): a 12-core Ryzen 9 3900X (must give the seed's 49152:786432:8388608), this
** project's 2-vCPU VM as copied from its /sys, a machine with no L3, an empty directory and
** a missing one; then the sizes' wording and the libc facts.
*/
#include <gnu/libc-version.h>
#include <stdio.h>
#include <string.h>

#include "check.h"
#include "machine.h"

#define FIXTURES QSB_SOURCE_DIR "/tests/fixtures/sysfs/"

static void check_level(const qsb_caches *c, int level, uint64_t instance_bytes,
                        unsigned instances, uint64_t total_bytes)
{
    const qsb_cache_level *l = &c->level[level];
    CHECK_EQ_U64(l->instance_bytes, instance_bytes);
    CHECK_EQ_U64(l->instances, instances);
    CHECK_EQ_U64(l->total_bytes, total_bytes);
}

typedef struct {
    const char *dir;
    struct {
        uint64_t instance_bytes;
        unsigned instances;
        uint64_t total_bytes;
    } level[3];
    size_t ncounts;
    uint64_t counts[3];
    const char *describe;
} fixture;

static const fixture fixtures[] = {
    /* 12 cores with SMT siblings: L1d 32 KiB and L2 512 KiB per core, L3 16 MiB per CCX of
    ** three cores; each CPU's L1i (Instruction) must not count. The seed's counts. */
    {"ryzen9-3900x",
     {{32768, 12, 393216}, {524288, 12, 6291456}, {16777216, 4, 67108864}},
     3, {49152, 786432, 8388608},
     "L1d 384 KiB (12), L2 6 MiB (12), L3 64 MiB (4)"},
    /* Copied from this project's machine: 2 vCPUs, L1d 48K and L2 2048K each, one shared
    ** 266240K L3 (lscpu: 96 KiB, 4 MiB, 260 MiB). */
    {"host-xeon-2cpu",
     {{49152, 2, 98304}, {2097152, 2, 4194304}, {272629760, 1, 272629760}},
     3, {12288, 524288, 8388608},
     "L1d 96 KiB (2), L2 4 MiB (2), L3 260 MiB (1)"},
    /* Constructed: a 2-vCPU Intel VM's slice of a 300 MiB L3, which the VM's CPUs alone share
    ** as far as its sysfs says: the cover letter's count, not 39,321,600. */
    {"vm-xeon-300m",
     {{49152, 2, 98304}, {2097152, 2, 4194304}, {314572800, 1, 314572800}},
     3, {12288, 524288, 8388608},
     "L1d 96 KiB (2), L2 4 MiB (2), L3 300 MiB (1)"},
    /* Constructed: 4 CPUs of a server with a 1 GiB L3. */
    {"server-1g-l3",
     {{49152, 4, 196608}, {2097152, 4, 8388608}, {1073741824, 1, 1073741824}},
     3, {24576, 1048576, 8388608},
     "L1d 192 KiB (4), L2 8 MiB (4), L3 1 GiB (1)"},
    /* 4 cores, private 32K L1d, one 1024K L2 for the cluster, nothing above. */
    {"no-l3",
     {{32768, 4, 131072}, {1048576, 1, 1048576}, {0, 0, 0}},
     2, {16384, 131072, 0},
     "L1d 128 KiB (4), L2 1 MiB (1)"},
};

static void test_fixture(const fixture *f)
{
    char root[512];
    snprintf(root, sizeof root, "%s%s", FIXTURES, f->dir);
    qsb_caches c;
    CHECK_MSG(qsb_read_caches(root, &c) == 0, "%s", f->dir);
    for (int i = 0; i < 3; i++)
        check_level(&c, i, f->level[i].instance_bytes, f->level[i].instances,
                    f->level[i].total_bytes);
    uint64_t counts[3] = {0, 0, 0};
    CHECK_EQ_U64(qsb_auto_nelem(&c, counts), f->ncounts);
    for (int i = 0; i < 3; i++)
        CHECK_EQ_U64(counts[i], f->counts[i]); /* levels absent: untouched zeros */
    char text[256];
    qsb_caches_describe(&c, text, sizeof text);
    CHECK_MSG(strcmp(text, f->describe) == 0, "%s: %s", f->dir, text);
}

static void test_seed_counts(void)
{
    /* The Ryzen fixture is where the seed's counts come from. */
    for (int i = 0; i < 3; i++)
        CHECK_EQ_U64(fixtures[0].counts[i], qsb_seed_nelem[i]);
}

static void test_nothing(void)
{
    static const char *const roots[] = {FIXTURES "empty", FIXTURES "no-such-directory"};
    for (int r = 0; r < 2; r++) {
        qsb_caches c;
        memset(&c, 0xA5, sizeof c);
        CHECK(qsb_read_caches(roots[r], &c) == -1);
        for (int i = 0; i < 3; i++)
            check_level(&c, i, 0, 0, 0);
        uint64_t counts[3];
        CHECK_EQ_U64(qsb_auto_nelem(&c, counts), 0);
        char text[64];
        qsb_caches_describe(&c, text, sizeof text);
        CHECK(strcmp(text, "unknown") == 0);
    }
}

static void test_describe_truncates(void)
{
    qsb_caches c;
    CHECK(qsb_read_caches(FIXTURES "ryzen9-3900x", &c) == 0);
    char text[12];
    qsb_caches_describe(&c, text, sizeof text);
    CHECK(strlen(text) == sizeof text - 1 && strncmp(text, "L1d 384 KiB", 11) == 0);
}

static void test_format_bytes(void)
{
    char text[32];
    qsb_format_bytes(0, text, sizeof text);
    CHECK(strcmp(text, "0 B") == 0);
    qsb_format_bytes(1000, text, sizeof text);
    CHECK(strcmp(text, "1000 B") == 0);
    qsb_format_bytes(1536 * 1024, text, sizeof text);
    CHECK(strcmp(text, "1536 KiB") == 0);
    qsb_format_bytes(266240ull * 1024, text, sizeof text);
    CHECK(strcmp(text, "260 MiB") == 0);
    qsb_format_bytes(4ull << 30, text, sizeof text);
    CHECK(strcmp(text, "4 GiB") == 0);
}

static void test_libc(void)
{
    int major = 0, minor = 0;
    CHECK(sscanf(gnu_get_libc_version(), "%d.%d", &major, &minor) == 2);
    char text[64], expected[64];
    qsb_libc_version(text, sizeof text);
    snprintf(expected, sizeof expected, "glibc %s", gnu_get_libc_version());
    CHECK(strcmp(text, expected) == 0);
    CHECK(qsb_libc_is_glibc_at_most(major, minor) == 1);
    CHECK(qsb_libc_is_glibc_at_most(major, minor + 1) == 1);
    CHECK(qsb_libc_is_glibc_at_most(major + 1, 0) == 1);
    CHECK(qsb_libc_is_glibc_at_most(major, minor - 1) == 0);
    CHECK(qsb_libc_is_glibc_at_most(major - 1, 99) == 0);
}

static void test_host_strings(void)
{
    char text[256];
    qsb_cpu_model(text, sizeof text);
    CHECK(text[0] != '\0' && strchr(text, '\n') == NULL);
    qsb_cpu_governor(text, sizeof text);
    CHECK(text[0] != '\0' && strchr(text, '\n') == NULL);
    double load = qsb_load_average();
    CHECK(load >= 0.0 || load == -1.0);
}

int main(void)
{
    for (size_t i = 0; i < sizeof fixtures / sizeof fixtures[0]; i++)
        test_fixture(&fixtures[i]);
    test_seed_counts();
    test_nothing();
    test_describe_truncates();
    test_format_bytes();
    test_libc();
    test_host_strings();
    return check_done();
}
