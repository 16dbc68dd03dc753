/*
** musl: musl 1.2.3's qsort (src/stdlib/qsort.c), Dijkstra's smoothsort (1981) over a forest of
** Leonardo heaps. Leonardo numbers L(0) = L(1) = 1, L(k) = L(k-1) + L(k-2) + 1; a heap of
** order k >= 2 is a root with two heaps of orders k-1 (left) and k-2 (right) just before it.
** The array is read left to right, each element joining the forest as a new root; the roots
** are kept in ascending order ("trinkle"). Then the forest is taken down from the right: the
** last root is the maximum, and the two subheaps it leaves behind are re-rooted in turn.
**
** At most about 2 n log n comparisons (O(n log n) worst case), about n on sorted input. In
** place (one small stack buffer for element moves), O(log n) stack, not stable, no allocation.
** The comparator calls and the moves are musl's, call for call and byte for byte (the musl
** oracle test and tests/reference/comparisons-libc.csv).
**
** The forest's shape is a bit set over heap orders: bit i of `bits` set when a heap of order
** `order + i` is present, so bit 0 is always the rightmost heap and `order` its order. Two
** machine words hold the bits, enough for every order a size_t-indexed array can reach.
**
** The width, comparator, argument and order travel as values and the bits as two words in the
** caller's array, as musl's code passes them. gcc then gives the entry the registers and the
** memory traffic of musl's own object, and it runs at that object's speed (docs/results.md).
** Kept in a struct, the comparator and width were loaded again after every comparison; the
** bits given as a pointer to a struct were split by gcc into two registers at each call, which
** made SORTED faster than musl's.
*/
#include <string.h>

#include "sorts.h"

#define WORD_BITS (8 * (int)sizeof(size_t))
#define MAX_ORDERS (12 * sizeof(size_t)) /* Leonardo numbers below SIZE_MAX, with room */
#define MAX_PATH (14 * sizeof(size_t))   /* roots visited by one trinkle or sift */
/* A path holds MAX_PATH roots and, in its last slot, the rotation's buffer. */

typedef unsigned char byte;

static void shift_up(size_t bits[2], int n)
{
    if (n >= WORD_BITS) {
        bits[1] = bits[0];
        bits[0] = 0;
        n -= WORD_BITS;
    }
    if (n > 0) {
        bits[1] = bits[1] << n | bits[0] >> (WORD_BITS - n);
        bits[0] <<= n;
    }
}

static void shift_down(size_t bits[2], int n)
{
    if (n >= WORD_BITS) {
        bits[0] = bits[1];
        bits[1] = 0;
        n -= WORD_BITS;
    }
    if (n > 0) {
        bits[0] = bits[0] >> n | bits[1] << (WORD_BITS - n);
        bits[1] >>= n;
    }
}

static int single_heap(const size_t bits[2])
{
    return bits[0] == 1 && bits[1] == 0;
}

/* Drops the rightmost heap from the shape: the next one to the left, found by the distance
** from bit 0 to the next set bit, becomes bit 0. Called only when there is one (not
** single_heap). Returns the order of the new rightmost heap. */
static int drop_rightmost(size_t bits[2], int order)
{
    size_t above = bits[0] - 1; /* bit 0 is set: this clears it */
    int gap = above != 0 ? __builtin_ctzl(above) : WORD_BITS + __builtin_ctzl(bits[1]);
    shift_down(bits, gap);
    return order + gap;
}

/*
** Moves the elements along a root-to-leaf path: path[1] to path[0], path[2] to path[1], ...,
** and path[0]'s element to path[len - 1]. Both descents compare without moving and rotate
** once at the end, which leaves musl's bytes in place. The buffer takes the path's spare last
** slot (cleared before returning, so that no pointer to it outlives the call) and the pointers
** advance with each chunk of at most 256 bytes, as musl's cycle() does: written with offsets
** from fixed pointers, gcc inlined the test of len into every caller and SORTED ran about 10%
** faster than musl's.
*/
static void rotate_path(size_t width, byte *path[], int len)
{
    byte buf[256];
    if (len < 2)
        return;
    path[len] = buf;
    while (width > 0) {
        size_t chunk = width < sizeof buf ? width : sizeof buf;
        memcpy(path[len], path[0], chunk);
        for (int i = 0; i < len; i++) {
            memcpy(path[i], path[i + 1], chunk);
            path[i] += chunk;
        }
        width -= chunk;
    }
    path[len] = NULL;
}

/* Restores the heap property of the heap of this order rooted at root, whose two subheaps
** are heaps: the root's element sinks along the larger child while a child is larger. */
static void sift(byte *root, size_t width, qsb_compare cmp, void *arg, int order,
                 const size_t *leonardo)
{
    byte *path[MAX_PATH + 1];
    int len = 0;
    path[len++] = root;
    while (order > 1) {
        byte *right = root - width;
        byte *left = right - leonardo[order - 2];
        if (cmp(path[0], left, arg) >= 0 && cmp(path[0], right, arg) >= 0)
            break;
        if (cmp(left, right, arg) >= 0) {
            root = left;
            order -= 1;
        } else {
            root = right;
            order -= 2;
        }
        path[len++] = root;
    }
    rotate_path(width, path, len);
}

/*
** Moves the root at head left past the roots of the heaps before it (the forest of `from`
** and `order`, head the root of its rightmost heap) while the previous root is larger than it
** and than head's own children, then sifts it into the heap where it stops. `children_ok`
** says head's heap is already a heap, so only the roots' order needs repair; it holds only
** before the first move. The shape is read from the caller's two words (`from`), not changed.
*/
static void trinkle(byte *head, size_t width, qsb_compare cmp, void *arg, const size_t from[2],
                    int order, int children_ok, const size_t *leonardo)
{
    size_t bits[2] = {from[0], from[1]};
    byte *path[MAX_PATH + 1];
    int len = 0;
    path[len++] = head;
    while (!single_heap(bits)) {
        byte *previous = head - leonardo[order];
        if (cmp(previous, path[0], arg) <= 0)
            break;
        if (!children_ok && order > 1) {
            byte *right = head - width;
            byte *left = right - leonardo[order - 2];
            if (cmp(right, previous, arg) >= 0 || cmp(left, previous, arg) >= 0)
                break;
        }
        path[len++] = previous;
        head = previous;
        order = drop_rightmost(bits, order);
        children_ok = 0;
    }
    if (!children_ok) {
        rotate_path(width, path, len);
        sift(head, width, cmp, arg, order, leonardo);
    }
}

void qsb_musl(void *base, size_t n, size_t width, qsb_compare cmp, void *arg)
{
    size_t bytes = n * width;
    if (bytes == 0)
        return;
    size_t leonardo[MAX_ORDERS] = {width, width}; /* L(k) * width: a heap of order k's bytes */
    for (size_t k = 2; (leonardo[k] = leonardo[k - 2] + leonardo[k - 1] + width) < bytes; k++)
        continue;

    /* Growing: each element joins as a new root. When the last two heaps have consecutive
    ** orders they become its children; otherwise it is a heap of order 1 or 0 alone. A root
    ** whose heap will not grow again (its final size is reached before the array's end,
    ** `high`) is put in order among the roots now; others are only sifted. */
    byte *head = base, *high = head + bytes - width;
    size_t bits[2] = {1, 0};
    int order = 1;
    for (; head < high; head += width) {
        if ((bits[0] & 3) == 3) {
            sift(head, width, cmp, arg, order, leonardo);
            shift_down(bits, 2);
            order += 2;
        } else {
            if (leonardo[order - 1] >= (size_t)(high - head))
                trinkle(head, width, cmp, arg, bits, order, 0, leonardo);
            else
                sift(head, width, cmp, arg, order, leonardo);
            shift_up(bits, order == 1 ? 1 : order - 1);
            order = order == 1 ? 0 : 1;
        }
        bits[0] |= 1;
    }
    trinkle(head, width, cmp, arg, bits, order, 0, leonardo);

    /* Shrinking: the root at head, the maximum, is removed. A heap of order 0 or 1 just goes;
    ** a larger one leaves its two subheaps, whose roots are put in order among the roots, left
    ** (one order above the right) then right. */
    for (; order != 1 || !single_heap(bits); head -= width) {
        if (order <= 1) {
            order = drop_rightmost(bits, order);
            continue;
        }
        shift_up(bits, 2);
        order -= 2;
        bits[0] ^= 7; /* drop the root's heap, add its two subheaps */
        shift_down(bits, 1);
        trinkle(head - leonardo[order] - width, width, cmp, arg, bits, order + 1, 1, leonardo);
        shift_up(bits, 1);
        bits[0] |= 1;
        trinkle(head - width, width, cmp, arg, bits, order, 1, leonardo);
    }
}
