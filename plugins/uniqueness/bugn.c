/* bugn.c - Bivalue Universal Grave with several extra candidates (BUG+n):
 * Sudoku Explainer's BUG types 1 (one cell, several extras), 2, 3 and 4, with
 * SE's difficulties. HoDoKu only has BUG+1 (bug-plus-1 in uniqueness.c).
 *
 * A BUG is a grid where every unsolved cell holds two candidates and every
 * digit is a candidate exactly twice (or never) in each house. Such a grid
 * has no solution or at least two: swapping every cell to its other digit
 * turns a solution into another one. So when removing some "extra"
 * candidates would leave a BUG, a puzzle with one solution needs at least one
 * of the extras to be true.
 *
 * Finding the extras (SE's way): for each house (boxes, rows, columns) and
 * digit whose candidate count is neither 0 nor 2, the cells of those
 * candidates holding 3 or more digits are looked at: exactly one such cell
 * makes the digit an extra of that cell; none means no BUG; several leave the
 * decision to another house; but when every such house is of one digit,
 * every wide cell holding it there is a BUG cell with that extra
 * (SukakuExplainer's default, lkSudoku's fix for type 2). Removing the
 * extras must leave a BUG (checked).
 * Then, with the BUG cells (cells holding extras):
 *  - type 1 (5.6): one BUG cell with several extras: it loses its other
 *    digits (one extra is bug-plus-1's case and left to it);
 *  - type 2 (5.7): all extras are one digit v: v goes from every cell that
 *    sees all BUG cells;
 *  - type 4 (5.7): two BUG cells in one house, sharing exactly one non-extra
 *    digit v: in that house v lies only in the two cells (the BUG holds it
 *    twice there, extras are elsewhere), so one of them is v and the other
 *    holds an extra: each keeps only v and its extras;
 *  - type 3 (5.7 + 0.1 per naked digit beyond the first): all BUG cells in
 *    one house with several extra digits; k-1 other cells of the house whose
 *    digits make a set N of k digits holding every extra: the BUG cell taking
 *    its extra completes a naked set on N, so the rest of the house loses N.
 * All are flagged SDK_TF_UNIQUENESS.
 */
#include <string.h>
#include "sudoku/technique.h"

static int find_bugn(const sdk_ctx *, const sdk_grid *, sdk_sink *);

const sdk_technique sdk_uniq_bugn = {
    .abi = SDK_ABI_VERSION,
    .size = sizeof(sdk_technique),
    .id = "bug-plus-n",
    .name = "Bivalue Universal Grave + n",
    .difficulty = 57,
    .score = 100,
    .level = SDK_LEVEL_HARD,
    .flags = SDK_TF_UNIQUENESS,
    .find = find_bugn,
    .summary = "all cells bivalue but a few: one of their extra digits is true (BUG types 2-4)",
};

typedef struct bug {
    const sdk_ctx *ctx; /* for its scratch step */
    const sdk_grid *g;
    sdk_sink *sink;
    uint16_t ext[81]; /* extra digits per cell */
    int cell[81], n;  /* BUG cells, ascending */
    unsigned all;     /* union of the extras */
    sdk_bb cells;
} bug;

static const char *set_names[] = {"", "", "Pair", "Triple", "Quadruple", "Quintuple", "Sextuple"};

static char *digits_text(unsigned m, char sep, char *buf)
{
    int n = 0;
    SDK_MASK_FOREACH(d, m) {
        if (n && sep) buf[n++] = sep;
        buf[n++] = (char)('0' + d);
    }
    buf[n] = 0;
    return buf;
}

/* Mark the extras, the targets, and send the step. */
static int bug_emit(bug *b, sdk_step *s)
{
    if (sdk_step_empty(s)) return SDK_CONTINUE;
    for (int i = 0; i < b->n; i++)
        SDK_MASK_FOREACH(d, b->ext[b->cell[i]]) sdk_step_mark(s, b->cell[i], d, SDK_ROLE_BASE);
    for (int i = 0; i < s->nelim; i++)
        sdk_step_mark(s, s->elim[i].cell, s->elim[i].digit, SDK_ROLE_TARGET);
    return sdk_emit(b->sink, s);
}

/* Find the extras; false when the grid is no BUG+n. */
static bool bug_find(bug *b)
{
    const sdk_grid *g = b->g;
    memset(b->ext, 0, sizeof b->ext);
    static const int order[27] = {18, 19, 20, 21, 22, 23, 24, 25, 26, 0,  1,  2,  3, 4,
                                  5,  6,  7,  8,  9,  10, 11, 12, 13, 14, 15, 16, 17};
    sdk_bb wide = sdk_bb_none(); /* unsolved cells with 3+ digits */
    for (int c = 0; c < 81; c++) {
        if (g->value[c]) continue;
        int k = sdk_mask_count(g->cand[c]);
        if (k < 2) return false; /* a pending naked single (or a broken grid) */
        if (k >= 3) sdk_bb_add(&wide, c);
    }
    if (sdk_bb_empty(wide)) return false;
    int only = 0;                      /* the digit of the first odd house */
    bool one_digit = true;             /* every odd house is of that digit */
    sdk_bb only_cells = sdk_bb_none(); /* their wide cells */
    unsigned decided = 0;              /* extras found by a house with one wide cell */
    for (int i = 0; i < 27; i++) {
        int h = order[i];
        for (int d = 1; d <= 9; d++) {
            sdk_bb pos = sdk_house_digit(g, h, d);
            int n = sdk_bb_count(pos);
            if (n == 0 || n == 2) continue;
            sdk_bb w = sdk_bb_and(pos, wide);
            int nw = sdk_bb_count(w);
            if (!only) only = d;
            one_digit &= only == d;
            if (one_digit) only_cells = sdk_bb_or(only_cells, w);
            if (nw == 0) return false;
            if (nw == 1) {
                b->ext[sdk_bb_first(w)] |= (uint16_t)sdk_digit_bit(d);
                decided |= sdk_digit_bit(d);
            }
        }
    }
    /* SukakuExplainer's fix (lkSudoku's, on by default): when every odd
     * house is of one digit, each wide cell holding it there is a BUG cell
     * with that extra, even where a house has several (type 2). With no
     * house of one wide cell SE finds no extra digit and takes no step. */
    if (one_digit && only) {
        if (!decided) return false;
        SDK_BB_FOREACH(c, only_cells) b->ext[c] |= (uint16_t)sdk_digit_bit(only);
    }
    /* what is left must be a BUG */
    uint16_t rest[81];
    for (int c = 0; c < 81; c++) {
        rest[c] = (uint16_t)(g->cand[c] & ~b->ext[c]);
        if (!g->value[c] && sdk_mask_count(rest[c]) != 2) return false;
    }
    for (int h = 0; h < 27; h++) {
        int cnt[10] = {0};
        for (int k = 0; k < 9; k++)
            SDK_MASK_FOREACH(d, rest[sdk_house_cell[h][k]]) cnt[d]++;
        for (int d = 1; d <= 9; d++)
            if (cnt[d] != 0 && cnt[d] != 2) return false;
    }
    b->n = 0;
    b->all = 0;
    b->cells = sdk_bb_none();
    for (int c = 0; c < 81; c++)
        if (b->ext[c]) {
            b->cell[b->n++] = c;
            b->all |= b->ext[c];
            sdk_bb_add(&b->cells, c);
        }
    return b->n > 0;
}

/* The first house (boxes, rows, columns: SE's order) holding every BUG cell,
 * after `after` in that order (-1 to start); -1 when none. */
static int bug_house(const bug *b, int after)
{
    static const int types[3] = {SDK_BOX, SDK_ROW, SDK_COL};
    int start = 0;
    if (after >= 0)
        for (int t = 0; t < 3; t++)
            if (sdk_house_type(after) == types[t]) start = t + 1;
    for (int t = start; t < 3; t++) {
        int h = sdk_cell_house[b->cell[0]][types[t]];
        if (sdk_bb_subset(b->cells, sdk_house_bb[h])) return h;
    }
    return -1;
}

static int bug_type1(bug *b)
{
    int c = b->cell[0];
    sdk_step *s = sdk_scratch_step(b->ctx, 0);
    sdk_step_init(s, &sdk_uniq_bugn);
    s->difficulty = 56;
    SDK_MASK_FOREACH(d, b->g->cand[c] & ~b->ext[c]) sdk_step_elim(s, c, d);
    char nm[8], dg[20];
    sdk_step_printf(s, "Bivalue Universal Grave + n Type 1: %s {%s}", sdk_cell_name(c, nm),
                    digits_text(b->ext[c], 0, dg));
    return bug_emit(b, s);
}

static int bug_type2(bug *b)
{
    int v = sdk_mask_first(b->all);
    sdk_bb see = sdk_common_peers(b->cells);
    sdk_step *s = sdk_scratch_step(b->ctx, 0);
    sdk_step_init(s, &sdk_uniq_bugn);
    s->difficulty = 57;
    sdk_step_elim_bb(s, b->g, see, v);
    char cells[128];
    sdk_step_printf(s, "Bivalue Universal Grave + n Type 2: %d in %s", v,
                    sdk_cells_compact(b->cells, cells, sizeof cells));
    return bug_emit(b, s);
}

static int bug_type4(bug *b)
{
    if (b->n != 2) return SDK_CONTINUE;
    int c1 = b->cell[0], c2 = b->cell[1];
    const sdk_grid *g = b->g;
    unsigned common = g->cand[c1] & g->cand[c2] & ~b->all;
    if (sdk_mask_count(common) != 1) return SDK_CONTINUE;
    int h = bug_house(b, -1);
    if (h < 0) return SDK_CONTINUE;
    int v = sdk_mask_first(common);
    sdk_step *s = sdk_scratch_step(b->ctx, 0);
    sdk_step_init(s, &sdk_uniq_bugn);
    s->difficulty = 57;
    SDK_MASK_FOREACH(d, g->cand[c1] & ~b->ext[c1] & ~common) sdk_step_elim(s, c1, d);
    SDK_MASK_FOREACH(d, g->cand[c2] & ~b->ext[c2] & ~common) sdk_step_elim(s, c2, d);
    sdk_step_mark(s, c1, v, SDK_ROLE_COVER);
    sdk_step_mark(s, c2, v, SDK_ROLE_COVER);
    sdk_step_house(s, h, SDK_ROLE_BASE);
    char n1[8], n2[8], e1[12], e2[12], hs[8];
    sdk_step_printf(s, "Bivalue Universal Grave + n Type 4: %s {%s}, %s {%s}, %d locked in %s",
                    sdk_cell_name(c1, n1), digits_text(b->ext[c1], 0, e1), sdk_cell_name(c2, n2),
                    digits_text(b->ext[c2], 0, e2), v, sdk_house_short(h, hs));
    return bug_emit(b, s);
}

/* Type 3: choose `need` more cells of src[start..] (naked cells so far in
 * `chosen`, their digits in `m`). */
static int bug_type3_rec(bug *b, int h, const int *src, int nsrc, int start, int need,
                         sdk_bb chosen, unsigned m, int degree)
{
    if (need == 0) {
        if (sdk_mask_count(m) != degree || (b->all & ~m)) return SDK_CONTINUE;
        const sdk_grid *g = b->g;
        sdk_step *s = sdk_scratch_step(b->ctx, 0);
        sdk_step_init(s, &sdk_uniq_bugn);
        s->difficulty = 57 + (degree - 1);
        for (int i = 0; i < nsrc; i++)
            if (!sdk_bb_has(chosen, src[i]))
                SDK_MASK_FOREACH(d, g->cand[src[i]] & m) sdk_step_elim(s, src[i], d);
        if (sdk_step_empty(s)) return SDK_CONTINUE;
        SDK_BB_FOREACH(c, chosen)
            SDK_MASK_FOREACH(d, g->cand[c]) sdk_step_mark(s, c, d, SDK_ROLE_COVER);
        sdk_step_house(s, h, SDK_ROLE_BASE);
        char cells[128], naked[64], dg[20], ex[20], hs[8];
        sdk_step_printf(s, "Bivalue Universal Grave + n Type 3: %s {%s} + Naked %s %s in %s (%s)",
                        sdk_cells_compact(b->cells, cells, sizeof cells),
                        digits_text(b->all, 0, ex), set_names[degree], digits_text(m, '/', dg),
                        sdk_house_short(h, hs), sdk_cells_compact(chosen, naked, sizeof naked));
        return bug_emit(b, s);
    }
    for (int i = start; i <= nsrc - need; i++) {
        unsigned m2 = m | b->g->cand[src[i]];
        if (sdk_mask_count(m2) > degree) continue;
        sdk_bb c2 = chosen;
        sdk_bb_add(&c2, src[i]);
        if (bug_type3_rec(b, h, src, nsrc, i + 1, need - 1, c2, m2, degree) == SDK_STOP)
            return SDK_STOP;
    }
    return SDK_CONTINUE;
}

static int bug_type3(bug *b)
{
    for (int h = bug_house(b, -1); h >= 0; h = bug_house(b, h)) {
        int src[9], nsrc = 0;
        for (int k = 0; k < 9; k++) {
            int c = sdk_house_cell[h][k];
            if (!b->g->value[c] && !b->ext[c]) src[nsrc++] = c;
        }
        for (int degree = 2; degree <= 6; degree++) {
            if (nsrc < degree) break; /* SE: the region's cells must number at least degree */
            if (bug_type3_rec(b, h, src, nsrc, 0, degree - 1, sdk_bb_none(), 0, degree) == SDK_STOP)
                return SDK_STOP;
        }
    }
    return SDK_CONTINUE;
}

static int find_bugn(const sdk_ctx *ctx, const sdk_grid *g, sdk_sink *sink)
{
    bug b;
    b.ctx = ctx;
    b.g = g;
    b.sink = sink;
    if (!bug_find(&b)) return SDK_CONTINUE;
    if (b.n == 1) {
        /* one extra: bug-plus-1's case */
        if (sdk_mask_count(b.all) < 2) return SDK_CONTINUE;
        return bug_type1(&b);
    }
    if (sdk_mask_count(b.all) == 1) {
        if (bug_type2(&b) == SDK_STOP) return SDK_STOP;
        return bug_type4(&b);
    }
    if (bug_type4(&b) == SDK_STOP) return SDK_STOP;
    return bug_type3(&b);
}
