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
** machine words hold it, enough for every order a size_t-indexed array can reach.
*/
#include <string.h>

#include "sorts.h"

#define WORD_BITS (8 * (int)sizeof(size_t))
#define MAX_ORDERS (12 * sizeof(size_t)) /* Leonardo numbers below SIZE_MAX, with room */
#define MAX_PATH (14 * sizeof(size_t))   /* roots visited by one trinkle or sift */

typedef unsigned char byte;

typedef struct {
    size_t bits[2]; /* bits[0] holds orders order..order+WORD_BITS-1, bits[1] the next ones */
    int order;      /* order of the rightmost heap */
} forest;

typedef struct {
    size_t width;
    qsb_compare cmp;
    void *arg;
    size_t leonardo[MAX_ORDERS]; /* L(k) * width: the byte span of a heap of order k */
} smoothsort;

static void shift_up(forest *f, int n)
{
    if (n >= WORD_BITS) {
        f->bits[1] = f->bits[0];
        f->bits[0] = 0;
        n -= WORD_BITS;
    }
    if (n > 0) {
        f->bits[1] = f->bits[1] << n | f->bits[0] >> (WORD_BITS - n);
        f->bits[0] <<= n;
    }
}

static void shift_down(forest *f, int n)
{
    if (n >= WORD_BITS) {
        f->bits[0] = f->bits[1];
        f->bits[1] = 0;
        n -= WORD_BITS;
    }
    if (n > 0) {
        f->bits[0] = f->bits[0] >> n | f->bits[1] << (WORD_BITS - n);
        f->bits[1] >>= n;
    }
}

static int single_heap(const forest *f)
{
    return f->bits[0] == 1 && f->bits[1] == 0;
}

/* Distance from bit 0 to the next set bit: how many orders up the next heap to the left is.
** Called only when there is one (not single_heap). */
static int gap_to_next_heap(const forest *f)
{
    size_t above = f->bits[0] - 1; /* bit 0 is set: this clears it */
    if (above != 0)
        return __builtin_ctzl(above);
    return WORD_BITS + __builtin_ctzl(f->bits[1]);
}

/* Drops the rightmost heap from the shape: the next one to the left becomes bit 0. */
static void drop_rightmost(forest *f)
{
    int gap = gap_to_next_heap(f);
    shift_down(f, gap);
    f->order += gap;
}

/*
** Moves the elements along a root-to-leaf path: path[1] to path[0], path[2] to path[1], ...,
** and path[0]'s element to path[len - 1]. Both descents compare without moving and rotate
** once at the end, which leaves musl's bytes in place.
*/
static void rotate_path(size_t width, byte *path[], int len)
{
    byte buf[256];
    if (len < 2)
        return;
    for (size_t done = 0; done < width; done += sizeof buf) {
        size_t chunk = width - done < sizeof buf ? width - done : sizeof buf;
        memcpy(buf, path[0] + done, chunk);
        for (int i = 0; i < len - 1; i++)
            memcpy(path[i] + done, path[i + 1] + done, chunk);
        memcpy(path[len - 1] + done, buf, chunk);
    }
}

/* Restores the heap property of the heap of this order rooted at root, whose two subheaps
** are heaps: the root's element sinks along the larger child while a child is larger. */
static void sift(const smoothsort *s, byte *root, int order)
{
    byte *path[MAX_PATH];
    int len = 0;
    path[len++] = root;
    while (order > 1) {
        byte *right = root - s->width;
        byte *left = right - s->leonardo[order - 2];
        if (s->cmp(path[0], left, s->arg) >= 0 && s->cmp(path[0], right, s->arg) >= 0)
            break;
        if (s->cmp(left, right, s->arg) >= 0) {
            root = left;
            order -= 1;
        } else {
            root = right;
            order -= 2;
        }
        path[len++] = root;
    }
    rotate_path(s->width, path, len);
}

/* Copies a forest's shape a word at a time, as musl's trinkle copies its pp[2]: copied whole,
** the words just stored one at a time are read back as one 16-byte load, which the store cannot
** forward, and that stall made SORTED 60% slower than musl's own code. */
static void copy_shape(forest *to, const forest *from)
{
    to->bits[0] = from->bits[0];
    to->bits[1] = from->bits[1];
    to->order = from->order;
}

/*
** Moves the root at head left past the roots of the heaps before it (the forest `from`, head
** the root of its rightmost heap) while the previous root is larger than it and than head's own
** children, then sifts it into the heap where it stops. `children_ok` says head's heap is
** already a heap, so only the roots' order needs repair; it holds only before the first move.
*/
static void trinkle(const smoothsort *s, byte *head, const forest *from, int children_ok)
{
    forest shape;
    copy_shape(&shape, from);
    byte *path[MAX_PATH];
    int len = 0;
    path[len++] = head;
    while (!single_heap(&shape)) {
        byte *previous = head - s->leonardo[shape.order];
        if (s->cmp(previous, path[0], s->arg) <= 0)
            break;
        if (!children_ok && shape.order > 1) {
            byte *right = head - s->width;
            byte *left = right - s->leonardo[shape.order - 2];
            if (s->cmp(right, previous, s->arg) >= 0 || s->cmp(left, previous, s->arg) >= 0)
                break;
        }
        path[len++] = previous;
        head = previous;
        drop_rightmost(&shape);
        children_ok = 0;
    }
    if (!children_ok) {
        rotate_path(s->width, path, len);
        sift(s, head, shape.order);
    }
}

/* Adds the element at head (the forest covers everything before it) as a new root. When the
** last two heaps have consecutive orders they become its children; otherwise it is a heap of
** order 1 or 0 alone. A root whose heap will not grow again (its final size is reached before
** the array's end, `high`) is put in order among the roots now; others only sifted. */
static void grow(const smoothsort *s, forest *f, byte *head, const byte *high)
{
    if ((f->bits[0] & 3) == 3) {
        sift(s, head, f->order);
        shift_down(f, 2);
        f->order += 2;
    } else {
        if (s->leonardo[f->order - 1] >= (size_t)(high - head))
            trinkle(s, head, f, 0);
        else
            sift(s, head, f->order);
        if (f->order == 1) {
            shift_up(f, 1);
            f->order = 0;
        } else {
            shift_up(f, f->order - 1);
            f->order = 1;
        }
    }
    f->bits[0] |= 1;
}

/* Removes the root at head, the maximum: a heap of order 0 or 1 just goes; a larger one leaves
** its two subheaps, whose roots are put in order among the roots, left then right. */
static void shrink(const smoothsort *s, forest *f, byte *head)
{
    if (f->order <= 1) {
        drop_rightmost(f);
        return;
    }
    shift_up(f, 2);
    f->order -= 2;
    f->bits[0] ^= 7; /* drop the root's heap, add its two subheaps */
    shift_down(f, 1);
    forest left; /* the shape with the left subheap rightmost: one order above the right */
    copy_shape(&left, f);
    left.order++;
    trinkle(s, head - s->leonardo[f->order] - s->width, &left, 1);
    shift_up(f, 1);
    f->bits[0] |= 1;
    trinkle(s, head - s->width, f, 1);
}

void qsb_musl(void *base, size_t n, size_t width, qsb_compare cmp, void *arg)
{
    size_t bytes = n * width;
    if (bytes == 0)
        return;
    smoothsort s = {width, cmp, arg, {width, width}};
    for (size_t k = 2; (s.leonardo[k] = s.leonardo[k - 2] + s.leonardo[k - 1] + width) < bytes;
         k++)
        continue;

    byte *head = base, *high = head + bytes - width;
    forest f = {{1, 0}, 1};
    for (; head < high; head += width)
        grow(&s, &f, head, high);
    trinkle(&s, head, &f, 0);
    for (; f.order != 1 || !single_heap(&f); head -= width)
        shrink(&s, &f, head);
}
