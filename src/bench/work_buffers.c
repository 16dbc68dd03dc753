/*
** The work buffers of the matrix's visits (matrix_state.h): the input copied into a batch's
** slots between canary zones, the after-sort checks (inside the array, then sorted and a
** permutation of the input, the first verified result kept as the visit's reference), and
** the plug-ins' own buffers, whose last checked result is sealed against late writes.
*/
#include "matrix_state.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "canary.h"
#include "diag.h"
#include "memory.h"

/* The bytes of the work buffer that k slots span: the canary zone after them starts there. */
static size_t slots_span(const matrix_state *s, size_t k)
{
    return (k - 1) * s->stride + s->bytes;
}

/* The input into the first k slots of the work buffer, and the canary zones either side of
** them armed: outside any interval, and writing every page the sorts will touch. */
void matrix_copy_input(matrix_state *s, size_t k)
{
    uint64_t t0 = qsb_clock_ns();
    for (size_t i = 0; i < k; i++)
        memcpy(slot(s, i), s->in, s->bytes);
    qsb_canary_arm(s->work, slots_span(s, k), s->zone);
    charge(&s->totals->copy_ns, t0);
}

/* Is the result in slot i right? The full check (verify.h) orders by the executable's own
** comparator (the same source as the unit's copy), which verify.c recognises and replaces by
** inline key comparisons. The visit's first result to pass it is kept where it is (the work
** buffers then swap: no copy): a result with the same bytes as a verified one is verified,
** and a memcmp costs much less than the hashing pass. Most right results have those bytes:
** all where elements of equal keys are equal bytes, and every stable sort's; an unstable
** sort's differ where equal keys carry other bytes (the random patterns' 32-byte elements),
** and such a result, like a wrong one, gets the full check, which also names what is wrong. */
static bool slot_right(matrix_state *s, size_t i, char *reason, size_t reason_len)
{
    const unsigned char *result = slot(s, i);
    if (s->reference_valid && memcmp(result, s->reference, s->bytes) == 0)
        return true;
    if (!qsb_verify_sorted_permutation(result, s->n, s->size, qsb_comparator(s->size), NULL,
                                       &s->input_hash, reason, reason_len))
        return false;
    if (s->spare && !s->reference_valid && s->work == s->shared) {
        s->reference = result;
        s->reference_valid = s->swap_pending = true;
    }
    return true;
}

/* The buffer holding the new reference leaves the sorts' use: the next copies go to the
** other one (both page-aligned, like every work buffer: where the data sits made no
** difference here, docs/measurement.md). */
static void keep_reference(matrix_state *s)
{
    unsigned char *kept = s->shared;
    s->shared = s->work = s->spare;
    s->spare = kept;
    s->swap_pending = false;
}

/* Did the sorts stay inside their slots? Checked before the results: a sort that writes past
** its slot every time reaches a zone at the last slot (past the end) or the first (before
** the start), while the slots between only see a neighbour's bytes change. */
static bool inside_the_array(const matrix_state *s, size_t k, char *reason, size_t reason_len)
{
    bool below;
    if (qsb_canary_intact(s->work, slots_span(s, k), s->zone, &below))
        return true;
    snprintf(reason, reason_len, "wrote outside the array: %s",
             below ? "before its start" : "past its end");
    return false;
}

/* Verifies the first k slots after row's sorts; marks the row failed when one is wrong. */
int matrix_check_slots(matrix_state *s, qsb_row *row, size_t k)
{
    uint64_t t0 = qsb_clock_ns();
    char reason[128];
    bool ok = inside_the_array(s, k, reason, sizeof reason);
    for (size_t i = 0; i < k && ok; i++)
        ok = slot_right(s, i, reason, sizeof reason);
    if (s->swap_pending)
        keep_reference(s);
    charge(&s->totals->verify_ns, t0);
    if (ok)
        return QSB_OK;
    return qsb_row_fail(row, reason) == 0 ? QSB_OK : qsb_out_of_memory("result");
}

/* Algorithm algo's buffer becomes the one the next sorts use. */
void matrix_use_buffer(matrix_state *s, size_t algo)
{
    s->work = s->own[algo].data ? s->own[algo].data : s->shared;
}

/* After algo's result in the first k slots passed its checks: sealed, when in its own buffer. */
void matrix_seal_result(matrix_state *s, size_t algo, const qsb_row *row, size_t k)
{
    own_buffer *b = &s->own[algo];
    if (!b->data || !row->verified)
        return;
    uint64_t t0 = qsb_clock_ns();
    b->sealed_span = slots_span(s, k);
    b->sealed_cell = s->cell_index;
    b->seal = qsb_canary_seal(b->data, b->sealed_span, s->zone);
    charge(&s->totals->verify_ns, t0);
}

/* Is algo's sealed result as it was checked? When not, its row of that cell FAILs. */
int matrix_check_sealed(matrix_state *s, size_t algo)
{
    own_buffer *b = &s->own[algo];
    if (!b->data || b->sealed_span == 0)
        return QSB_OK;
    uint64_t t0 = qsb_clock_ns();
    bool intact = qsb_canary_sealed_intact(b->data, b->sealed_span, s->zone, b->seal);
    charge(&s->totals->verify_ns, t0);
    b->sealed_span = 0;
    qsb_row *row = &s->results->cells[b->sealed_cell].rows[algo];
    if (intact || !row->verified)
        return QSB_OK;
    return qsb_row_fail(row, LATE_WRITE_CAUSE) == 0 ? QSB_OK : qsb_out_of_memory("result");
}

/* After a plug-in's sorts: has its code taken what this process needs to report (its
** descriptors, its limit of open files; visit_record.h)? Then the process cannot go on: it
** ends inside the plug-in's sorts with the cause, and its parent measures the others again. */
void matrix_check_process(const matrix_state *s, size_t algo)
{
    char cause[QSB_VISIT_CAUSE_BYTES];
    if (s->own[algo].data && s->setup->record && !qsb_visit_process_intact(cause, sizeof cause))
        qsb_visit_abandon(s->setup->record, algo, cause);
}

/* Every sealed result, at the end of a visit. */
int matrix_check_all_sealed(matrix_state *s)
{
    int status = QSB_OK;
    for (size_t i = 0; i < s->cfg->n_algos && status == QSB_OK; i++)
        status = matrix_check_sealed(s, i);
    return status;
}

/* A second work buffer, for the verified result, beside the buffers that must fit (runner.c
** checks three of the largest input): while four fit in the memory available. */
bool matrix_spare_fits(size_t bytes)
{
    uint64_t available = qsb_available_memory();
    return available == 0 || bytes <= available / 4;
}

/* Plug-ins' own work buffers (the registry's sorts share s->shared). */
bool matrix_alloc_own_buffers(matrix_state *s)
{
    s->own = calloc(s->cfg->n_algos ? s->cfg->n_algos : 1, sizeof *s->own);
    for (size_t i = 0; s->own && i < s->cfg->n_algos; i++)
        if (qsb_plugins_has(s->setup->plugins, s->cfg->algos[i].sort) &&
            !(s->own[i].data = qsb_canary_alloc(s->work_bytes, s->zone)))
            return false;
    return s->own != NULL;
}

void matrix_free_own_buffers(matrix_state *s)
{
    for (size_t i = 0; s->own && i < s->cfg->n_algos; i++)
        qsb_canary_free(s->own[i].data, s->zone);
    free(s->own);
}
