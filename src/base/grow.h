/*
** The one growable array, as Lua's luaM_growvector: an array is a pointer, a count kept by its
** owner and a capacity; appending asks for room first, and the capacity doubles whenever it
** is short, so that n appends copy O(n) items in all.
**
**     if (QSB_GROW(list->items, list->cap, list->n + 1) != 0)
**         return qsb_out_of_memory("the list");
**     list->items[list->n++] = item;
*/
#ifndef QSB_GROW_H
#define QSB_GROW_H

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#define QSB_GROW_MIN 8 /* the first capacity */

/* Room for need items of size bytes in the array whose pointer is at items_at (a T **, so
** that no pointer is read through another type: it is copied as bytes), of *cap items. When
** it holds fewer, its capacity doubles until they fit and the new items are zeroed. 0, or -1
** when memory runs out (the array then as it was). */
static inline int qsb_grow(void *items_at, size_t *cap, size_t need, size_t size)
{
    if (need <= *cap)
        return 0;
    size_t bigger = *cap ? *cap : QSB_GROW_MIN;
    while (bigger < need && bigger <= SIZE_MAX / 2)
        bigger *= 2;
    void *items;
    memcpy(&items, items_at, sizeof items);
    void *grown = bigger >= need && bigger <= SIZE_MAX / size ? realloc(items, bigger * size)
                                                              : NULL;
    if (!grown)
        return -1;
    memset((char *)grown + *cap * size, 0, (bigger - *cap) * size);
    memcpy(items_at, &grown, sizeof grown);
    *cap = bigger;
    return 0;
}

/* qsb_grow of an array named by its lvalues: QSB_GROW(set->items, set->cap, set->n + 1). */
#define QSB_GROW(items, cap, need) qsb_grow(&(items), &(cap), (need), sizeof *(items))

#endif
