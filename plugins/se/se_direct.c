/* se_direct.c - Sudoku Explainer's "direct" techniques: a pointing, claiming,
 * hidden pair or hidden triple whose eliminations leave a hidden single. SE
 * counts the placement as the step (1.7, 1.9, 2.0, 2.5), searched as SE does:
 * pointing box->line with the single in another box on that line; claiming
 * line->box with the single in a parallel line through the box; hidden sets
 * with the single in the same house. Like SE's DirectLockingHint and
 * DirectHiddenSetHint, the step only places the single: the eliminations of
 * the pattern are not applied (SE needs a pointing 2.6 / hidden pair 3.4 /
 * naked set later if it wants them), so they are not part of the step. */
#include <stdio.h>
#include "se.h"

static int find_dp(const sdk_ctx *ctx, const sdk_grid *g, sdk_sink *sink);
static int find_dc(const sdk_ctx *ctx, const sdk_grid *g, sdk_sink *sink);
static int find_direct_hidden(const sdk_ctx *ctx, const sdk_grid *g, sdk_sink *sink);
static const int pair = 2, triple = 3; /* direct hidden subsets: the size is the data */

const sdk_technique se_direct_pointing = {
    .abi = SDK_ABI_VERSION,
    .size = sizeof(sdk_technique),
    .id = "se-direct-pointing",
    .name = "Direct Pointing",
    .difficulty = 17,
    .score = 50,
    .level = SDK_LEVEL_MEDIUM,
    .find = find_dp,
    .summary = "a pointing elimination that leaves a hidden single in another box",
};
const sdk_technique se_direct_claiming = {
    .abi = SDK_ABI_VERSION,
    .size = sizeof(sdk_technique),
    .id = "se-direct-claiming",
    .name = "Direct Claiming",
    .difficulty = 19,
    .score = 50,
    .level = SDK_LEVEL_MEDIUM,
    .find = find_dc,
    .summary = "a claiming elimination that leaves a hidden single in a parallel line",
};
const sdk_technique se_direct_hidden_pair = {
    .abi = SDK_ABI_VERSION,
    .size = sizeof(sdk_technique),
    .id = "se-direct-hidden-pair",
    .name = "Direct Hidden Pair",
    .difficulty = 20,
    .score = 70,
    .level = SDK_LEVEL_MEDIUM,
    .find = find_direct_hidden,
    .data = &pair,
    .summary = "a hidden pair whose eliminations leave a hidden single in its house",
};
const sdk_technique se_direct_hidden_triple = {
    .abi = SDK_ABI_VERSION,
    .size = sizeof(sdk_technique),
    .id = "se-direct-hidden-triple",
    .name = "Direct Hidden Triplet",
    .difficulty = 25,
    .score = 100,
    .level = SDK_LEVEL_MEDIUM,
    .find = find_direct_hidden,
    .data = &triple,
    .summary = "a hidden triple whose eliminations leave a hidden single in its house",
};

/* Locked candidates of d in base house b (all in cover c): look for a house
 * of b's type crossing c whose d-positions outside c are one cell. */
static int locking(const sdk_ctx *ctx, const sdk_grid *g, sdk_sink *sink, const sdk_technique *t,
                   int b, int c, int d)
{
    sdk_bb in_b = sdk_house_digit(g, b, d);
    if (sdk_bb_count(in_b) < 2 || !sdk_bb_subset(in_b, sdk_house_bb[c])) return SDK_CONTINUE;
    sdk_bb elims = sdk_bb_andnot(sdk_house_digit(g, c, d), sdk_house_bb[b]);
    if (sdk_bb_empty(elims)) return SDK_CONTINUE;
    int type = sdk_house_type(b);
    for (int k = 0; k < 9; k++) {
        int h3 = type * 9 + k;
        if (h3 == b || sdk_bb_empty(sdk_bb_and(sdk_house_bb[h3], sdk_house_bb[c]))) continue;
        sdk_bb p3 = sdk_house_digit(g, h3, d);
        if (sdk_bb_count(p3) < 2) continue;
        sdk_bb rest = sdk_bb_andnot(p3, sdk_house_bb[c]);
        if (sdk_bb_count(rest) != 1) continue;
        int cell = sdk_bb_first(rest);
        sdk_step *s = sdk_scratch_step(ctx, 0);
        char hb[12], hc[12], hn[12], cn[8];
        sdk_step_init(s, t);
        sdk_step_house(s, b, SDK_ROLE_BASE);
        sdk_step_house(s, c, SDK_ROLE_COVER);
        sdk_step_house(s, h3, SDK_ROLE_NONE);
        sdk_step_mark_bb(s, in_b, d, SDK_ROLE_BASE);
        sdk_step_mark(s, cell, d, SDK_ROLE_TARGET);
        sdk_step_place(s, cell, d); /* SE: the placement only, no eliminations */
        sdk_step_printf(s, "%s: %d in %s locked in %s, hidden single in %s: %s=%d", t->name, d,
                        sdk_house_short(b, hb), sdk_house_short(c, hc), sdk_house_short(h3, hn),
                        sdk_cell_name(cell, cn), d);
        if (sdk_emit(sink, s) == SDK_STOP) return SDK_STOP;
    }
    return SDK_CONTINUE;
}

/* locked[h][d-1][k]: the house of type k (SDK_ROW, SDK_COL, SDK_BOX) that
 * holds every place (two or more) of d in house h, or -1: the only cover
 * worth a call to locking() for that base and digit. */
static void locked_covers(const sdk_grid *g, int8_t (*locked)[9][3])
{
    for (int h = 0; h < 27; h++)
        for (int d = 1; d <= 9; d++) {
            sdk_bb p = sdk_house_digit(g, h, d);
            for (int k = 0; k < 3; k++) locked[h][d - 1][k] = -1;
            if (sdk_bb_count(p) < 2) continue;
            int first = sdk_bb_first(p);
            for (int k = 0; k < 3; k++) {
                int c = sdk_cell_house[first][k];
                if (c != h && sdk_bb_subset(p, sdk_house_bb[c])) locked[h][d - 1][k] = (int8_t)c;
            }
        }
}

static int find_dp(const sdk_ctx *ctx, const sdk_grid *g, sdk_sink *sink)
{
    int8_t locked[27][9][3];
    locked_covers(g, locked);
    /* SE: box->column, then box->row */
    for (int pass = 0; pass < 2; pass++)
        for (int b = 18; b < 27; b++)
            for (int k = 0; k < 9; k++) {
                int c = pass == 0 ? 9 + k : k;
                if (sdk_bb_empty(sdk_bb_and(sdk_house_bb[b], sdk_house_bb[c]))) continue;
                for (int d = 1; d <= 9; d++)
                    if (locked[b][d - 1][sdk_house_type(c)] == c &&
                        locking(ctx, g, sink, &se_direct_pointing, b, c, d) == SDK_STOP)
                        return SDK_STOP;
            }
    return SDK_CONTINUE;
}

static int find_dc(const sdk_ctx *ctx, const sdk_grid *g, sdk_sink *sink)
{
    int8_t locked[27][9][3];
    locked_covers(g, locked);
    /* SE: column->box, then row->box */
    for (int pass = 0; pass < 2; pass++)
        for (int k = 0; k < 9; k++) {
            int b = pass == 0 ? 9 + k : k;
            for (int c = 18; c < 27; c++) {
                if (sdk_bb_empty(sdk_bb_and(sdk_house_bb[b], sdk_house_bb[c]))) continue;
                for (int d = 1; d <= 9; d++)
                    if (locked[b][d - 1][sdk_house_type(c)] == c &&
                        locking(ctx, g, sink, &se_direct_claiming, b, c, d) == SDK_STOP)
                        return SDK_STOP;
            }
        }
    return SDK_CONTINUE;
}

/* Hidden set of `size` digits in house h whose eliminations leave a hidden
 * single in h. Houses in SE's order: boxes, columns, rows; digit sets in
 * increasing bit order. Positions are 9-bit masks of the house's own cells
 * (in increasing cell order, so the lowest bit is the lowest cell). */
static int find_direct_hidden(const sdk_ctx *ctx, const sdk_grid *g, sdk_sink *sink)
{
    const sdk_technique *t = ctx->self;
    int size = *(const int *)t->data;
    static const int order[3] = {18, 9, 0};
    unsigned sets[128];
    int nsets = 0;
    for (unsigned m = 0; m < 512; m++)
        if (sdk_mask_count(m) == size) sets[nsets++] = m;
    for (int o = 0; o < 3; o++)
        for (int hh = 0; hh < 9; hh++) {
            int h = order[o] + hh;
            unsigned pos[10] = {0}, avail = 0;
            int empty = 0;
            for (int i = 0; i < 9; i++) {
                unsigned cm = g->cand[sdk_house_cell[h][i]];
                empty += g->value[sdk_house_cell[h][i]] == 0;
                SDK_MASK_FOREACH(d, cm) pos[d] |= 1u << i;
                avail |= cm;
            }
            if (empty <= size) continue;
            for (int si = 0; si < nsets; si++) {
                unsigned m = sets[si];
                if (m & ~avail) continue; /* a digit without a place in h */
                unsigned cells = 0;
                SDK_MASK_FOREACH(d, m) cells |= pos[d];
                if (sdk_mask_count(cells) != size) continue;
                for (int v = 1; v <= 9; v++) {
                    if (m & sdk_digit_bit(v)) continue;
                    if (sdk_mask_count(pos[v]) < 2) continue;
                    unsigned rest = pos[v] & ~cells;
                    if (sdk_mask_count(rest) != 1) continue;
                    int cell = sdk_house_cell[h][sdk_mask_first(rest) - 1];
                    sdk_bb cbb = sdk_bb_none();
                    SDK_MASK_FOREACH(i, cells) sdk_bb_add(&cbb, sdk_house_cell[h][i - 1]);
                    sdk_step *s = sdk_scratch_step(ctx, 0);
                    char hn[12], cn[8], cl[64];
                    sdk_step_init(s, t);
                    sdk_step_house(s, h, SDK_ROLE_BASE);
                    SDK_BB_FOREACH(c, cbb) {
                        SDK_MASK_FOREACH(e, g->cand[c]) {
                            if (m & sdk_digit_bit(e)) sdk_step_mark(s, c, e, SDK_ROLE_BASE);
                        }
                    }
                    sdk_step_mark(s, cell, v, SDK_ROLE_TARGET);
                    sdk_step_place(s, cell, v); /* SE: the placement only */
                    char ds[12];
                    int k = 0;
                    SDK_MASK_FOREACH(d, m) ds[k++] = (char)('0' + d);
                    ds[k] = 0;
                    sdk_step_printf(s, "%s: %s in %s (%s), hidden single %s=%d", t->name, ds,
                                    sdk_cells_compact(cbb, cl, sizeof cl), sdk_house_short(h, hn),
                                    sdk_cell_name(cell, cn), v);
                    if (sdk_emit(sink, s) == SDK_STOP) return SDK_STOP;
                    break; /* SE: one hint per hidden set */
                }
            }
        }
    return SDK_CONTINUE;
}
