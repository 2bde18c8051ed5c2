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
                     bool s01, bool s02, bool s12, sdk_sink *sink, bool *emitted)
{
    int ne = 0, ecell[20];
    unsigned emask[20];
    SDK_BB_FOREACH(e, ex) {
        ecell[ne] = e;
        emask[ne++] = g->cand[e];
    }
    /* For a pair (x, y), an excluder e kills every z when e lies in {x, y},
     * and the one z it lacks when one candidate of e is outside: the z left
     * for the pair are found at once, with the same combinations as trying
     * each z. Per digit the excluders are folded beforehand: pair[x] holds
     * the other digit of every two-digit excluder with x (x with one of
     * them kills every z, x and y both in it kill all z), and a three-digit
     * excluder {p, q, r} kills r for (p, q) (trio[p] bit q: r there). Stop
     * as soon as every candidate of the three has a survivor. */
    unsigned pair[10] = {0}, trio_with[10] = {0};
    unsigned trio[20], ntrio = 0;
    for (int k = 0; k < ne; k++) {
        unsigned m = emask[k];
        if (sdk_mask_count(m) == 2) {
            int p = sdk_mask_first(m), q = sdk_mask_first(m & (m - 1));
            pair[p] |= sdk_digit_bit(q);
            pair[q] |= sdk_digit_bit(p);
        } else {
            unsigned bit = 1u << ntrio, rest = m & (m - 1);
            trio[ntrio++] = m;
            trio_with[sdk_mask_first(m)] |= bit;
            trio_with[sdk_mask_first(rest)] |= bit;
            trio_with[sdk_mask_first(rest & (rest - 1))] |= bit;
        }
    }
    unsigned ok[3] = {0, 0, 0};
    const unsigned full0 = t[0]->cand, full1 = t[1]->cand, full2 = t[2]->cand;
    const unsigned see12 = s12 ? ~0u : 0;
    SDK_MASK_FOREACH(x, full0) {
        /* the y and z that x leaves (same digit in cells that see each
         * other, a two-digit excluder {x, y} or {x, z}) */
        unsigned ys = full1 & ~pair[x], zx = full2 & ~pair[x];
        if (s01) ys &= ~sdk_digit_bit(x);
        if (s02) zx &= ~sdk_digit_bit(x);
        SDK_MASK_FOREACH(y, ys) {
            unsigned zs = zx & ~(pair[y] | (sdk_digit_bit(y) & see12));
            if (x != y)
                for (unsigned both = trio_with[x] & trio_with[y]; both; both &= both - 1)
                    zs &= ~(trio[__builtin_ctz(both)] & ~(sdk_digit_bit(x) | sdk_digit_bit(y)));
            if (!zs) continue;
            ok[0] |= sdk_digit_bit(x);
            ok[1] |= sdk_digit_bit(y);
            ok[2] |= zs;
            if (ok[1] == full1 && ok[2] == full2) break; /* x lives, the other y add nothing */
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
static bool ate_reachable(const ate_cell *t[3], bool s01, bool s02, bool s12)
{
    return (sdk_mask_count(t[0]->cand) <= 3 && (s01 || s02)) ||
           (sdk_mask_count(t[1]->cand) <= 3 && (s01 || s12)) ||
           (sdk_mask_count(t[2]->cand) <= 3 && (s02 || s12));
}

/* ---- triples already known to give nothing ------------------------------
 *
 * What a triple (a, b, c) gives depends on the candidates of a, b and c, on
 * whether each is a base cell, and on their common excluders (the common
 * peers holding 2 or 3 candidates) and their candidates. The engine asks
 * again after every step, and a step changes a few cells, so per thread an
 * earlier grid is kept with the first triple that gave a step there
 * (grid_memo.h, "same inputs": any earlier grid will do). On the next grid,
 * with D the cells whose candidates changed, a triple before that one is
 * the same as on the kept grid, so it gave nothing and is skipped, when
 *  - none of a, b, c is in D or is a base cell now and was not then, and
 *  - no common peer of the three is in D and holds 2 or 3 candidates now
 *    (the common excluders now are then excluders on the kept grid too,
 *    unchanged: a triple that has fewer of them excludes fewer
 *    combinations, so it still eliminates nothing; it has two at least,
 *    so it had them on the kept grid, where it was examined).
 * The others are examined in the usual order, so the steps are those of the
 * full search. */
static _Thread_local pattern_memo ate_last[2];

/* The rank of triple (a, b, c) in the search's (cell) order. */
static uint64_t triple_rank(int a, int b, int c)
{
    return ((uint64_t)a * SDK_CELLS + (uint64_t)b) * SDK_CELLS + (uint64_t)c;
}

/* The base cells of a grid given by its values and candidates (SE's rule
 * above); *small gets the unsolved cells with 2 or 3 candidates. */
static sdk_bb base_cells(const uint8_t *value, const uint16_t *cand, sdk_bb *small)
{
    sdk_bb sm = sdk_bb_none(), single = sdk_bb_none(), many = sdk_bb_none();
    for (int c = 0; c < SDK_CELLS; c++) {
        if (value[c]) continue;
        int n = sdk_mask_count(cand[c]);
        if (n == 1) sdk_bb_add(&single, c);
        if (n == 2 || n == 3) sdk_bb_add(&sm, c);
        if (n >= 2) sdk_bb_add(&many, c);
    }
    sdk_bb base = sdk_bb_none();
    SDK_BB_FOREACH(c, many)
        if (sdk_bb_empty(sdk_bb_and(sdk_peer_bb[c], single)) &&
            !sdk_bb_empty(sdk_bb_and(sdk_peer_bb[c], sm)))
            sdk_bb_add(&base, c);
    *small = sm;
    return base;
}

/* The cells after cell b. */
static sdk_bb cells_after(int b)
{
    const uint64_t hi_all = (1ULL << (SDK_CELLS - 64)) - 1;
    if (b < 63) return (sdk_bb){~0ULL << (b + 1), hi_all};
    return (sdk_bb){0, (hi_all << (b - 63)) & hi_all};
}

/* The cells that see at least two cells of x. */
static sdk_bb seeing_two(sdk_bb x)
{
    sdk_bb one = sdk_bb_none(), two = sdk_bb_none();
    SDK_BB_FOREACH(c, x) {
        two = sdk_bb_or(two, sdk_bb_and(one, sdk_peer_bb[c]));
        one = sdk_bb_or(one, sdk_peer_bb[c]);
    }
    return two;
}

static int find_ate(const sdk_ctx *ctx, const sdk_grid *g, sdk_sink *sink)
{
    sdk_bb small, basebb = base_cells(g->value, g->cand, &small);
    ate_cell base[81];
    int nb = 0, index[SDK_CELLS];
    SDK_BB_FOREACH(c, basebb) {
        index[c] = nb;
        base[nb++] = (ate_cell){c, g->cand[c], sdk_bb_and(sdk_peer_bb[c], small)};
    }

    /* what changed since the kept grid: dirty = D and the new base cells (a
     * triple with a cell there is examined), xdirty = D's excluders now
     * (a triple with a common peer there is) */
    pattern_since since = pattern_memo_begin(ate_last, g, false);
    const grid_memo *m = since.ref;
    sdk_bb dirty = since.changed, xdirty = sdk_bb_none();
    uint64_t first = m ? since.first : 0; /* every triple comes after it: no memo */
    if (m) {
        sdk_bb was_small, was_base = base_cells(m->value, m->cand, &was_small);
        dirty = sdk_bb_or(dirty, sdk_bb_andnot(basebb, was_base));
        /* a cell that was an excluder and is none now (solved, one
         * candidate, four or more) leaves fewer excluders, which exclude
         * fewer combinations: only the excluders now count */
        xdirty = sdk_bb_and(since.changed, small);
    }

    int rc = SDK_CONTINUE;
    uint64_t gave = PATTERN_NONE;
    for (int i = 0; i < nb && rc != SDK_STOP; i++) {
        int a = base[i].cell;
        /* the second cells, in order: base cells after a seeing two of its
         * excluders at least (then two common excluders: excluders are
         * the peers holding 2 or 3 candidates) */
        sdk_bb seconds = sdk_bb_and(basebb, cells_after(a));
        if (!sdk_bb_has(dirty, a) && triple_rank(a, SDK_CELLS - 1, SDK_CELLS - 1) < first) {
            /* a clean, every triple with it before the first that gave a
             * step: only a second cell in dirty, or seeing a common peer of
             * a in xdirty, or with a third cell in dirty, can make a triple
             * examined (below) */
            sdk_bb may = dirty;
            SDK_BB_FOREACH(x, sdk_bb_and(sdk_peer_bb[a], xdirty))
                may = sdk_bb_or(may, sdk_peer_bb[x]);
            SDK_BB_FOREACH(c, sdk_bb_and(sdk_bb_and(dirty, basebb), cells_after(a)))
                may = sdk_bb_or(may, seeing_two(sdk_bb_and(base[i].excl, base[index[c]].excl)));
            seconds = sdk_bb_and(seconds, may);
        }
        /* (the cells seeing two excluders last: often none is left) */
        if (!sdk_bb_empty(seconds)) seconds = sdk_bb_and(seconds, seeing_two(base[i].excl));
        while (!sdk_bb_empty(seconds) && rc != SDK_STOP) {
            int j = index[sdk_bb_pop(&seconds)];
            sdk_bb eij = sdk_bb_and(base[i].excl, base[j].excl);
            int b = base[j].cell;
            sdk_bb pab = sdk_bb_and(sdk_peer_bb[a], sdk_peer_bb[b]);
            bool sab = sdk_sees(a, b);
            bool ab_dirty = sdk_bb_has(dirty, a) || sdk_bb_has(dirty, b);
            /* a clean pair before the first triple that gave a step: only a
             * third cell in dirty or seeing a common peer of a and b in
             * xdirty can make the triple examined (below) */
            bool ab_clean = !ab_dirty && triple_rank(a, b, SDK_CELLS - 1) < first;
            /* the third cells, in order: base cells after b seeing two
             * common excluders of a and b at least */
            sdk_bb thirds = sdk_bb_and(basebb, cells_after(b));
            if (ab_clean) {
                sdk_bb may = dirty;
                SDK_BB_FOREACH(x, sdk_bb_and(pab, xdirty)) may = sdk_bb_or(may, sdk_peer_bb[x]);
                thirds = sdk_bb_and(thirds, may);
                if (sdk_bb_empty(thirds)) continue;
            }
            /* (none sees two of eij when it has fewer than two cells) */
            if (sdk_bb_empty(thirds) || sdk_bb_count(eij) < 2) continue;
            thirds = sdk_bb_and(thirds, seeing_two(eij));
            while (!sdk_bb_empty(thirds) && rc != SDK_STOP) {
                int k = index[sdk_bb_pop(&thirds)];
                sdk_bb ex = sdk_bb_and(eij, base[k].excl);
                const ate_cell *t[3] = {&base[i], &base[j], &base[k]};
                int c = base[k].cell;
                bool sac = sdk_sees(a, c), sbc = sdk_sees(b, c);
                if (!ate_reachable(t, sab, sac, sbc)) continue;
                if (!ab_dirty && !sdk_bb_has(dirty, c) &&
                    sdk_bb_empty(sdk_bb_and(sdk_bb_and(pab, sdk_peer_bb[c]), xdirty)) &&
                    triple_rank(a, b, c) < first)
                    continue; /* as on the kept grid: nothing */
                bool emitted = false;
                rc = ate_check(ctx, g, t, ex, sab, sac, sbc, sink, &emitted);
                if (emitted && gave == PATTERN_NONE) gave = triple_rank(a, b, c);
            }
        }
    }
    pattern_memo_end(ate_last, ctx, g, gave);
    return rc;
}
