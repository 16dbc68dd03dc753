/*
** shard.h: every cell in exactly one shard, deterministic, balanced by estimated cost (the
** largest shard within 4/3 of the ideal, or one cell's cost above it: longest processing
** time first), ties in matrix order; shards never empty while there are enough cells.
*/
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "shard.h"

static const uint64_t nelem[] = {49152, 786432, 8388608, 1000, 7};
static const uint64_t sizes[] = {4, 8, 32, 64};
#define NN (sizeof nelem / sizeof nelem[0])
#define NS (sizeof sizes / sizeof sizes[0])
#define NP 5
#define CELLS (NP * NS * NN)

static void check_split(uint32_t nshards)
{
    unsigned char in[CELLS], again[CELLS];
    unsigned owners[CELLS];
    double load[64] = {0}, total = 0, largest_cell = 0;
    memset(owners, 0, sizeof owners);
    for (uint32_t k = 1; k <= nshards; k++) {
        size_t count = qsb_shard_cells(nelem, NN, sizes, NS, NP, 3, k, nshards, in);
        size_t count2 = qsb_shard_cells(nelem, NN, sizes, NS, NP, 3, k, nshards, again);
        CHECK(count == count2 && memcmp(in, again, CELLS) == 0); /* deterministic */
        CHECK_MSG(count > 0, "shard %u/%u is empty", k, nshards);
        for (size_t c = 0; c < CELLS; c++)
            if (in[c]) {
                owners[c]++;
                double cost = qsb_shard_cell_cost(nelem[c % NN], sizes[(c / NN) % NS], 3);
                load[k - 1] += cost;
            }
    }
    for (size_t c = 0; c < CELLS; c++) {
        CHECK_MSG(owners[c] == 1, "cell %zu is in %u shards of %u", c, owners[c], nshards);
        double cost = qsb_shard_cell_cost(nelem[c % NN], sizes[(c / NN) % NS], 3);
        total += cost;
        largest_cell = fmax(largest_cell, cost);
    }
    double largest = 0;
    for (uint32_t k = 0; k < nshards; k++)
        largest = fmax(largest, load[k]);
    double ideal = fmax(total / nshards, largest_cell);
    CHECK_MSG(largest <= ideal * 4.0 / 3.0 + 1e-9 * total,
              "%u shards: largest %.3g, ideal %.3g", nshards, largest, ideal);
}

int main(void)
{
    for (uint32_t n = 1; n <= 12; n++)
        check_split(n);
    /* Equal costs: dealt round-robin in matrix order (the tie-break). */
    double cost[6] = {1, 1, 1, 1, 1, 1};
    uint32_t owner[6];
    CHECK(qsb_shard_assign(cost, 6, 3, owner) == 0);
    for (size_t i = 0; i < 6; i++)
        CHECK_EQ_U64(owner[i], i % 3);
    /* Largest first: 8 alone, then 5+3 against 4+... */
    double c2[5] = {3, 8, 5, 4, 2};
    uint32_t o2[5];
    CHECK(qsb_shard_assign(c2, 5, 2, o2) == 0);
    double l0 = 0, l1 = 0;
    for (size_t i = 0; i < 5; i++)
        *(o2[i] ? &l1 : &l0) += c2[i];
    CHECK(o2[1] == 0 && fabs(l0 - l1) <= 2); /* 8+3 = 11 against 5+4+2 = 11 */
    /* The estimate: n log2 n (1 + size/32) per algorithm. */
    CHECK(fabs(qsb_shard_cell_cost(1024, 32, 2) - 1024.0 * 10 * 2 * 2) < 1e-6);
    return check_done();
}
