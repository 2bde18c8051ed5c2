/* ate.c - Aligned Triplet Exclusion (Sudoku Explainer's AlignedExclusion of
 * degree 3, SE difficulty 7.5; HoDoKu has no such technique).
 *
 * SE's semantics, kept here:
 *  - a base cell is an unsolved cell with at least two candidates, no peer
 *    left with a single candidate (a pending naked single), and at least one
 *    peer holding 2 or 3 candidates (a possible "excluder");
 *  - three base cells are tried together when one of them holds at most 3
 *    candidates and sees one of the other two (SE takes two base cells, then a
 *    third among the excluders of the first two that is itself a base cell);
 *  - the excluders common to the three cells (peers of all three holding 2 or 3
 *    candidates) must be at least two;
 *  - a combination of values (x, y, z) for the three cells is excluded when
 *    two cells that see each other get the same value, or when a common
 *    excluder's candidates all lie in {x, y, z} (it would be left empty);
 *  - a candidate of a base cell that appears in no surviving combination is
 *    eliminated.
 * Every excluded combination is impossible, so the elimination holds for any
 * puzzle (no uniqueness needed). Each triple is examined once.
 */
#include <string.h>
#include "grid_memo.h"
#include "sudoku/technique.h"

static int find_ate(const sdk_ctx *, const sdk_grid *, sdk_sink *);

const sdk_technique sdk_misc_ate = {
    .abi = SDK_ABI_VERSION,
    .size = sizeof(sdk_technique),
    .id = "aligned-triple-exclusion",
    .name = "Aligned Triplet Exclusion",
    .difficulty = 75,
    .score = 400,
    .level = SDK_LEVEL_EXTREME,
    .find = find_ate,
    .summary = "three cells: value combinations that would empty a common peer are excluded",
};

typedef struct ate_cell {
    int cell;
    unsigned cand;
    sdk_bb excl; /* peers holding 2..3 candidates */
} ate_cell;

/* Examine the triple a, b, c with common excluders ex; emit when something
 * goes. */
static int ate_check(const sdk_ctx *ctx, const sdk_grid *g, const ate_cell *t[3], sdk_bb ex,
                     sdk_sink *sink, bool *emitted)
{
    int ne = 0, ecell[20];
    unsigned emask[20];
    SDK_BB_FOREACH(e, ex) {
        ecell[ne] = e;
        emask[ne++] = g->cand[e];
    }
    bool s01 = sdk_sees(t[0]->cell, t[1]->cell), s02 = sdk_sees(t[0]->cell, t[2]->cell),
         s12 = sdk_sees(t[1]->cell, t[2]->cell);
    /* For a pair (x, y), an excluder e kills every z when e lies in {x, y},
     * and the one z it lacks when one candidate of e is outside: the z left
     * for the pair are found at once, with the same combinations as trying
     * each z. Stop as soon as every candidate of the three has a survivor. */
    unsigned ok[3] = {0, 0, 0};
    const unsigned full0 = t[0]->cand, full1 = t[1]->cand, full2 = t[2]->cand;
    SDK_MASK_FOREACH(x, full0) {
        SDK_MASK_FOREACH(y, full1) {
            if (x == y && s01) continue;
            unsigned xy = sdk_digit_bit(x) | sdk_digit_bit(y);
            unsigned zs = full2;
            if (s02) zs &= ~sdk_digit_bit(x);
            if (s12) zs &= ~sdk_digit_bit(y);
            for (int k = 0; k < ne && zs; k++) {
                unsigned rest = emask[k] & ~xy;
                if (!(rest & (rest - 1))) zs &= rest ? ~rest : 0u;
            }
            if (!zs) continue;
            ok[0] |= sdk_digit_bit(x);
            ok[1] |= sdk_digit_bit(y);
            ok[2] |= zs;
        }
        if (ok[0] == full0 && ok[1] == full1 && ok[2] == full2) return SDK_CONTINUE;
    }
    unsigned gone[3];
    bool any = false;
    for (int i = 0; i < 3; i++) {
        gone[i] = t[i]->cand & ~ok[i];
        any |= gone[i] != 0;
    }
    if (!any) return SDK_CONTINUE;

    sdk_step *s = sdk_scratch_step(ctx, 0);
    sdk_step_init(s, &sdk_misc_ate);
    for (int i = 0; i < 3; i++)
        SDK_MASK_FOREACH(d, gone[i]) sdk_step_elim(s, t[i]->cell, d);
    for (int i = 0; i < 3; i++) {
        sdk_step_mark(s, t[i]->cell, 0, SDK_ROLE_BASE);
        SDK_MASK_FOREACH(d, t[i]->cand & ~gone[i]) sdk_step_mark(s, t[i]->cell, d, SDK_ROLE_BASE);
    }
    /* SE's green cells: excluders that lock a combination using a removed
     * candidate (the ones the explanation needs). */
    unsigned used = 0;
    SDK_MASK_FOREACH(x, t[0]->cand)
        SDK_MASK_FOREACH(y, t[1]->cand)
            SDK_MASK_FOREACH(z, t[2]->cand) {
                if (!((gone[0] >> (x - 1)) & 1) && !((gone[1] >> (y - 1)) & 1) &&
                    !((gone[2] >> (z - 1)) & 1))
                    continue;
                if ((x == y && s01) || (x == z && s02) || (y == z && s12)) continue;
                unsigned xyz = sdk_digit_bit(x) | sdk_digit_bit(y) | sdk_digit_bit(z);
                for (int k = 0; k < ne; k++)
                    if ((emask[k] & ~xyz) == 0) {
                        used |= 1u << k;
                        break;
                    }
            }
    for (int k = 0; k < ne; k++)
        if ((used >> k) & 1) sdk_step_mark(s, ecell[k], 0, SDK_ROLE_COVER);
    for (int i = 0; i < s->nelim; i++)
        sdk_step_mark(s, s->elim[i].cell, s->elim[i].digit, SDK_ROLE_TARGET);
    char a[8], b[8], c[8];
    sdk_step_printf(s, "Aligned Triplet Exclusion: %s,%s,%s", sdk_cell_name(t[0]->cell, a),
                    sdk_cell_name(t[1]->cell, b), sdk_cell_name(t[2]->cell, c));
    *emitted = true;
    return sdk_emit(sink, s);
}

/* May SE reach this triple: one cell with at most 3 candidates seeing one of
 * the other two (it is then an excluder of that cell, and a base cell). */
static bool ate_reachable(const ate_cell *t[3])
{
    for (int i = 0; i < 3; i++) {
        if (sdk_mask_count(t[i]->cand) > 3) continue;
        for (int j = 0; j < 3; j++)
            if (j != i && sdk_sees(t[i]->cell, t[j]->cell)) return true;
    }
    return false;
}

/* ---- triples already known to give nothing ------------------------------
 *
 * What a triple (a, b, c) gives depends on the candidates of a, b and c, on
 * whether each of their peers is solved, a single (1 candidate), a possible
 * excluder (2 or 3) or neither (4 or more), and on the candidates of their
 * common excluders. The engine asks again after every step, and a step
 * changes a few cells, so per thread the last grid searched is kept with the
 * first triple that gave a step there (none: none did). On the next grid,
 * with D the cells whose candidates changed and K those whose kind (as
 * above) changed, a triple before that one, with no cell in D or seeing a
 * cell of K, and no common excluder in D, is the same as on the last grid:
 * it gave nothing and is skipped. The others are examined in the usual
 * order, so the steps are those of the full search. */
typedef struct ate_memo {
    grid_memo grid;
    int first[3]; /* cells of the first triple that gave a step; first[0] = 81: none */
} ate_memo;

static _Thread_local ate_memo ate_last;

/* 0: solved, empty or 4+ candidates; 1: a single; 2: a possible excluder. */
static int cell_kind(uint8_t value, uint16_t cand)
{
    if (value) return 0;
    int n = sdk_mask_count(cand);
    return n == 1 ? 1 : n == 2 || n == 3 ? 2 : 0;
}

/* Is (a, b, c) before (f[0], f[1], f[2]) in the search's (cell) order? */
static bool triple_before(int a, int b, int c, const int *f)
{
    if (a != f[0]) return a < f[0];
    if (b != f[1]) return b < f[1];
    return c < f[2];
}

static int find_ate(const sdk_ctx *ctx, const sdk_grid *g, sdk_sink *sink)
{
    /* what changed since the last grid: dirty = D and the peers of K (a
     * triple with a cell there is examined), xdirty = D's excluders on both
     * grids (a triple with a common excluder there is), kdirty = the cells
     * that can make a triple examined */
    const ate_memo *m = &ate_last;
    sdk_bb dirty = sdk_bb_none(), xdirty = sdk_bb_none();
    int first[3] = {0, 0, 0}; /* every triple comes after it: no memo */
    if (m->grid.valid) {
        memcpy(first, m->first, sizeof first);
        sdk_bb changed = grid_memo_changed(&m->grid, g);
        SDK_BB_FOREACH(c, changed) {
            sdk_bb_add(&dirty, c);
            int was = cell_kind(m->grid.value[c], m->grid.cand[c]);
            int now = cell_kind(g->value[c], g->cand[c]);
            if (was != now)
                dirty = sdk_bb_or(dirty, sdk_peer_bb[c]);
            else if (now == 2)
                sdk_bb_add(&xdirty, c);
        }
    }
    sdk_bb kdirty = dirty;
    SDK_BB_FOREACH(x, xdirty) kdirty = sdk_bb_or(kdirty, sdk_peer_bb[x]);

    sdk_bb small = sdk_bb_none(); /* unsolved cells with 2..3 candidates */
    sdk_bb single = sdk_bb_none();
    for (int c = 0; c < 81; c++) {
        if (g->value[c]) continue;
        int n = sdk_mask_count(g->cand[c]);
        if (n == 1)
            sdk_bb_add(&single, c);
        else if (n == 2 || n == 3)
            sdk_bb_add(&small, c);
    }
    ate_cell base[81];
    int nb = 0;
    for (int c = 0; c < 81; c++) {
        if (g->value[c] || sdk_mask_count(g->cand[c]) < 2) continue;
        if (!sdk_bb_empty(sdk_bb_and(sdk_peer_bb[c], single))) continue;
        sdk_bb ex = sdk_bb_and(sdk_peer_bb[c], small);
        if (sdk_bb_empty(ex)) continue;
        base[nb++] = (ate_cell){c, g->cand[c], ex};
    }
    /* the base cells that can make a triple examined, by index */
    int kd[81], nkd = 0;
    for (int k = 0; k < nb; k++)
        if (sdk_bb_has(kdirty, base[k].cell)) kd[nkd++] = k;
    int rc = SDK_CONTINUE;
    int gave[3] = {SDK_CELLS, 0, 0};
    for (int i = 0; i < nb && rc != SDK_STOP; i++) {
        int a = base[i].cell;
        for (int j = i + 1; j < nb && rc != SDK_STOP; j++) {
            sdk_bb eij = sdk_bb_and(base[i].excl, base[j].excl);
            if (sdk_bb_count(eij) < 2) continue;
            int b = base[j].cell;
            bool ab_dirty = sdk_bb_has(dirty, a) || sdk_bb_has(dirty, b);
            /* a clean pair before the first triple that gave a step: only
             * a third cell of kdirty can make the triple examined */
            bool ab_clean = !ab_dirty && (a != first[0] ? a < first[0] : b < first[1]);
            int kk = 0;
            if (ab_clean)
                while (kk < nkd && kd[kk] <= j) kk++;
            for (int k = j + 1; k < nb && rc != SDK_STOP; k++) {
                if (ab_clean) {
                    if (kk == nkd) break;
                    k = kd[kk++];
                }
                sdk_bb ex = sdk_bb_and(eij, base[k].excl);
                if (sdk_bb_count(ex) < 2) continue;
                const ate_cell *t[3] = {&base[i], &base[j], &base[k]};
                if (!ate_reachable(t)) continue;
                int c = base[k].cell;
                if (!ab_dirty && !sdk_bb_has(dirty, c) && sdk_bb_empty(sdk_bb_and(ex, xdirty)) &&
                    triple_before(a, b, c, first))
                    continue; /* as on the last grid: nothing */
                bool emitted = false;
                rc = ate_check(ctx, g, t, ex, sink, &emitted);
                if (emitted && gave[0] == SDK_CELLS) {
                    gave[0] = a;
                    gave[1] = b;
                    gave[2] = c;
                }
            }
        }
    }
    ate_memo *w = &ate_last;
    grid_memo_store(&w->grid, g);
    memcpy(w->first, gave, sizeof gave);
    return rc;
}
