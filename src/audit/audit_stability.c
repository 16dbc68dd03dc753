/*
** The stability probe (see audit.h). Each element is a record (group, seq): group is the
** sort key, with many duplicates; seq counts the earlier elements of the same group in the
** input (modulo the bits available). A stable sort leaves every group's seqs as 0, 1, 2, ...;
** an unstable one breaks that chain.
**
** Layout, following inputs/element.h's key-width rule w(size):
** - size > w: the key bytes hold the group, and the bytes after the key hold seq (up to 8
**   bytes; 12- and 40-byte elements carry the whole index). The comparator is the tool's
**   own, qsb_comparator(size).
** - size == w (1, 2, 4 and 8 bytes): there is no byte left for an index, and with the full
**   comparator equal keys are identical bytes, so stability could not be seen. The key is
**   split instead: its high half is the group, compared by a comparator that ignores the
**   low half, which holds seq. Equal elements now differ in their bytes, and 1-byte
**   elements (4-bit groups, seq mod 16) are checked like the rest.
** Every size runs on an aligned base and on base + 1, to reach each copy mode of msort
** (word, long loop, bytes, indirect above 32 bytes) and both sides of its 1024-byte
** stack-scratch limit.
*/
#include "audit.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "canary.h"
#include "diag.h"
#include "element.h"
#include "rng.h"

typedef struct {
    size_t size;
    size_t key_width;   /* w of element.h */
    unsigned seq_bits;  /* bits of seq stored per element */
    int split;          /* the key's high half is the group, its low half seq */
    uint64_t groups;    /* distinct groups the layout can hold (capped at 2^32) */
} record_layout;

static record_layout layout_for(size_t size)
{
    record_layout l = {size, qsb_key_width(size), 0, 0, 0};
    unsigned key_bits = 8 * (unsigned)l.key_width;
    if (size > l.key_width) {
        size_t spare = size - l.key_width;
        l.seq_bits = 8 * (unsigned)(spare < 8 ? spare : 8);
        l.groups = key_bits >= 32 ? UINT64_C(1) << 32 : UINT64_C(1) << key_bits;
    } else {
        l.split = 1;
        l.seq_bits = key_bits / 2;
        l.groups = UINT64_C(1) << (key_bits / 2 < 32 ? key_bits / 2 : 32);
    }
    return l;
}

static uint64_t seq_mask(const record_layout *l)
{
    return l->seq_bits >= 64 ? UINT64_MAX : (UINT64_C(1) << l->seq_bits) - 1;
}

static void record_put(const record_layout *l, void *e, uint64_t group, uint64_t seq)
{
    seq &= seq_mask(l);
    if (l->split) {
        qsb_put(e, l->size, group << l->seq_bits | seq, QSB_MODE_DEFAULT);
        return;
    }
    qsb_put(e, l->size, group, QSB_MODE_DEFAULT);
    unsigned char *bytes = (unsigned char *)e + l->key_width;
    for (unsigned i = 0; i < l->seq_bits / 8; i++)
        bytes[i] = (unsigned char)(seq >> (8 * i));
}

static uint64_t record_group(const record_layout *l, const void *e)
{
    uint64_t key = qsb_key(e, l->size);
    return l->split ? key >> l->seq_bits : key;
}

static uint64_t record_seq(const record_layout *l, const void *e)
{
    if (l->split)
        return qsb_key(e, l->size) & seq_mask(l);
    const unsigned char *bytes = (const unsigned char *)e + l->key_width;
    uint64_t seq = 0;
    for (unsigned i = 0; i < l->seq_bits / 8; i++)
        seq |= (uint64_t)bytes[i] << (8 * i);
    return seq;
}

/* Compares the group only (the key's high half); arg points to the record_layout. */
static int compare_split_group(const void *a, const void *b, void *arg)
{
    const record_layout *l = arg;
    uint64_t ga = record_group(l, a), gb = record_group(l, b);
    return (ga > gb) - (ga < gb);
}

typedef enum {
    GROUPS_RANDOM,     /* ~8 elements per group, in random order */
    GROUPS_TWO,        /* two groups, randomly interleaved */
    GROUPS_ONE,        /* every key equal */
    GROUPS_DESCENDING, /* blocks of equal keys, blocks in descending order */
    GROUPS_ASCENDING,  /* already sorted, with runs of equal keys */
    GROUP_PATTERNS
} group_pattern;

static const char *const group_pattern_names[GROUP_PATTERNS] = {
    "random-groups", "two-groups", "all-equal", "descending-groups", "ascending-groups"};

static uint64_t group_of(group_pattern p, size_t i, size_t n, uint64_t groups, qsb_rng *rng)
{
    uint64_t g = n / 8 < 2 ? 2 : n / 8;
    if (g > groups)
        g = groups;
    switch (p) {
    case GROUPS_RANDOM:
        return qsb_uniform(rng, 0, g - 1, QSB_MODE_DEFAULT);
    case GROUPS_TWO:
        return qsb_uniform(rng, 0, 1, QSB_MODE_DEFAULT);
    case GROUPS_ONE:
        return 0;
    case GROUPS_DESCENDING:
        return (uint64_t)(n - 1 - i) * g / n;
    default:
        return (uint64_t)i * g / n;
    }
}

/* Fills n records; group counts go to counts[] (sized for the n of this case). */
static void fill_records(const record_layout *l, group_pattern p, char *base, size_t n,
                         uint64_t *group_seen, size_t group_slots)
{
    qsb_rng rng;
    qsb_rng_seed(&rng, QSB_DEFAULT_SEED);
    memset(group_seen, 0, group_slots * sizeof *group_seen);
    for (size_t i = 0; i < n; i++) {
        uint64_t g = group_of(p, i, n, l->groups, &rng);
        record_put(l, base + i * l->size, g, group_seen[g]++);
    }
}

typedef enum { CASE_STABLE, CASE_UNSTABLE, CASE_WRONG } case_outcome;

/* Sorted by group, every group complete, and each group's seqs 0, 1, 2, ... in order. */
static case_outcome check_records(const record_layout *l, const char *base, size_t n,
                                  qsb_compare cmp, void *arg, const uint64_t *expected_count,
                                  uint64_t *count, size_t group_slots)
{
    case_outcome outcome = CASE_STABLE;
    memset(count, 0, group_slots * sizeof *count);
    for (size_t i = 0; i < n; i++) {
        const char *e = base + i * l->size;
        uint64_t g = record_group(l, e);
        if (g >= group_slots || (i > 0 && cmp(e - l->size, e, arg) > 0))
            return CASE_WRONG;
        if (record_seq(l, e) != (count[g] & seq_mask(l)))
            outcome = CASE_UNSTABLE;
        count[g]++;
    }
    for (size_t g = 0; g < group_slots; g++)
        if (count[g] != expected_count[g])
            return CASE_WRONG;
    return outcome;
}

typedef struct {
    qsb_sort_fn sort;
    qsb_stability_result *out;
    char *buffer;       /* room for the largest case, plus one byte of misalignment, between
                        ** canary zones (canary.h) */
    size_t zone;
    uint64_t *expected; /* per-group counts of the input */
    uint64_t *counted;  /* per-group counts of the output */
} probe;

static void run_case(probe *pr, size_t size, size_t n, group_pattern p, size_t offset)
{
    record_layout l = layout_for(size);
    size_t slots = n + 2; /* group_of never exceeds max(2, n/8) */
    char *base = pr->buffer + offset;
    fill_records(&l, p, base, n, pr->expected, slots);
    qsb_compare cmp = l.split ? compare_split_group : qsb_comparator(size);
    void *arg = l.split ? &l : NULL;
    qsb_canary_arm(base, n * size, pr->zone);
    pr->sort(base, n, size, cmp, arg);
    qsb_stability_result *out = pr->out;
    bool below;
    if (!qsb_canary_intact(base, n * size, pr->zone, &below) && !out->outside[0])
        snprintf(out->outside, sizeof out->outside, "wrote outside the array: %s (size %zu, "
                 "n %zu)", below ? "before its start" : "past its end", size, n);
    case_outcome outcome = check_records(&l, base, n, cmp, arg, pr->expected, pr->counted, slots);

    out->cases++;
    if (outcome == CASE_STABLE)
        return;
    out->unstable += outcome == CASE_UNSTABLE;
    if (outcome == CASE_WRONG && out->verdict != QSB_STABLE_UNSORTED) {
        out->verdict = QSB_STABLE_UNSORTED;
        snprintf(out->detail, sizeof out->detail, "not sorted or elements lost: size %zu, n %zu, %s%s",
                 size, n, group_pattern_names[p], offset ? ", base+1" : "");
    } else if (outcome == CASE_UNSTABLE && out->verdict == QSB_STABLE_YES) {
        out->verdict = QSB_STABLE_NO;
        snprintf(out->detail, sizeof out->detail, "equal keys reordered: size %zu, n %zu, %s%s",
                 size, n, group_pattern_names[p], offset ? ", base+1" : "");
    }
}

int qsb_audit_stability(qsb_sort_fn sort, size_t min_size, qsb_stability_result *out)
{
    static const size_t sizes[] = {1, 2, 3, 4, 8, 12, 16, 24, 32, 40, 64};
    static const size_t counts[] = {2, 7, 31, 100, 1000, 1500};
    const size_t max_n = 1500, max_size = 64;

    *out = (qsb_stability_result){QSB_STABLE_YES, 0, 0, "", "", min_size};
    size_t zone = qsb_canary_zone(max_size);
    probe pr = {sort, out, qsb_canary_alloc(max_n * max_size + 1, zone), zone,
                calloc(max_n + 2, sizeof(uint64_t)), calloc(max_n + 2, sizeof(uint64_t))};
    int status = QSB_OK;
    if (!pr.buffer || !pr.expected || !pr.counted) {
        status = qsb_out_of_memory("stability probe");
        goto done;
    }
    for (size_t s = 0; s < sizeof sizes / sizeof sizes[0]; s++)
        for (size_t c = 0; sizes[s] >= min_size && c < sizeof counts / sizeof counts[0]; c++)
            for (int p = 0; p < GROUP_PATTERNS; p++)
                for (size_t offset = 0; offset <= 1; offset++)
                    run_case(&pr, sizes[s], counts[c], (group_pattern)p, offset);
done:
    qsb_canary_free(pr.buffer, zone);
    free(pr.expected);
    free(pr.counted);
    return status;
}
