/* subsets.c - naked and hidden pairs, triples and quads. A naked subset: n
 * cells of a house holding together only n digits, which then leave the rest
 * of the house. A hidden subset: n digits of a house confined to n cells,
 * which then lose every other digit. A naked pair or triple that also lies in
 * one box-line segment is a locked pair/triple (intersections plugin) and is
 * left to it, as HoDoKu does.
 *
 * Option order=hodoku: HoDoKu's search order and extent: boxes first, then
 * rows, then columns; a naked subset clears every house its cells share; only
 * a pair/triple that clears both its box and its line outside the box is
 * "locked" and left to the intersections plugin. */
#include <string.h>
#include "sudoku/technique.h"
#include "../misc/grid_memo.h"

/* Naked and hidden subsets: the size n is the data. */
static int find_naked(const sdk_ctx *ctx, const sdk_grid *g, sdk_sink *sink);
static int find_hidden(const sdk_ctx *ctx, const sdk_grid *g, sdk_sink *sink);
static const int sizes[5] = {0, 1, 2, 3, 4};

#define SUBSET(var, sid, sname, diff, sc, lvl, fn, n, what)                                        \
    static const sdk_technique var = {.abi = SDK_ABI_VERSION,                                      \
                                      .size = sizeof(sdk_technique),                               \
                                      .id = sid,                                                   \
                                      .name = sname,                                               \
                                      .difficulty = diff,                                          \
                                      .score = sc,                                                 \
                                      .level = lvl,                                                \
                                      .find = fn,                                                  \
                                      .summary = what,                                             \
                                      .data = &sizes[n]}
SUBSET(naked_pair, "naked-pair", "Naked Pair", 30, 60, SDK_LEVEL_MEDIUM, find_naked, 2,
       "two cells of a house with the same two candidates");
SUBSET(naked_triple, "naked-triple", "Naked Triple", 36, 80, SDK_LEVEL_MEDIUM, find_naked, 3,
       "three cells of a house holding only three digits");
SUBSET(naked_quad, "naked-quad", "Naked Quadruple", 50, 120, SDK_LEVEL_HARD, find_naked, 4,
       "four cells of a house holding only four digits");
SUBSET(hidden_pair, "hidden-pair", "Hidden Pair", 34, 70, SDK_LEVEL_MEDIUM, find_hidden, 2,
       "two digits of a house confined to the same two cells");
SUBSET(hidden_triple, "hidden-triple", "Hidden Triple", 40, 100, SDK_LEVEL_MEDIUM, find_hidden, 3,
       "three digits of a house confined to three cells");
SUBSET(hidden_quad, "hidden-quad", "Hidden Quadruple", 54, 150, SDK_LEVEL_HARD, find_hidden, 4,
       "four digits of a house confined to four cells");

SDK_PLUGIN(&naked_pair, &naked_triple, &naked_quad, &hidden_pair, &hidden_triple, &hidden_quad)

static void digits_text(sdk_step *s, unsigned digits)
{
    const char *sep = "";
    SDK_MASK_FOREACH(d, digits) {
        sdk_step_printf(s, "%s%d", sep, d);
        sep = ",";
    }
}

/* The segment (box-line intersection) holding every cell of set, if any. */
static bool in_segment(sdk_bb set)
{
    int c = sdk_bb_first(set);
    sdk_bb box = sdk_house_bb[sdk_cell_house[c][2]];
    if (!sdk_bb_subset(set, box)) return false;
    return sdk_bb_subset(set, sdk_house_bb[sdk_cell_house[c][0]]) ||
           sdk_bb_subset(set, sdk_house_bb[sdk_cell_house[c][1]]);
}

/* HoDoKu's house order: boxes, rows, columns. */
static int house_at(int i, bool hodoku)
{
    return hodoku ? (i + 18) % 27 : i;
}

typedef struct search {
    const sdk_grid *g;
    sdk_sink *sink;
    const sdk_ctx *ctx; /* for its scratch step */
    const sdk_technique *t;
    bool hodoku;
    int n, house;
    int item[9], nitem; /* cells (naked) or digits (hidden) of the house to choose from */
    bool emitted;       /* a step of this house went out */
} search;

static int naked_found(search *q, const int *pick)
{
    const sdk_grid *g = q->g;
    sdk_bb set = sdk_bb_none();
    unsigned digits = 0;
    for (int i = 0; i < q->n; i++) {
        sdk_bb_add(&set, pick[i]);
        digits |= g->cand[pick[i]];
    }
    if (sdk_mask_count(digits) != q->n) return SDK_CONTINUE;
    if (!q->hodoku && q->n <= 3 && in_segment(set)) return SDK_CONTINUE; /* a locked subset */
    sdk_step *s = sdk_scratch_step(q->ctx, 0);
    char cells[40];
    sdk_step_init(s, q->t);
    sdk_bb rest = sdk_bb_andnot(sdk_house_bb[q->house], set);
    if (q->hodoku) { /* every house the cells share, in HoDoKu's order */
        int c0 = sdk_bb_first(set);
        bool in_box = false, in_line_out = false;
        sdk_bb box = sdk_house_bb[sdk_cell_house[c0][2]];
        for (int k = 0; k < 3; k++) {
            int h = sdk_cell_house[c0][k];
            if (!sdk_bb_subset(set, sdk_house_bb[h])) continue;
            for (int i = 0; i < 9; i++) {
                int c = sdk_house_cell[h][i];
                if (sdk_bb_has(set, c) || !(g->cand[c] & digits)) continue;
                SDK_MASK_FOREACH(d, g->cand[c] & digits) sdk_step_elim(s, c, d);
                if (k == 2) in_box = true;
                if (k < 2 && !sdk_bb_has(box, c)) in_line_out = true;
            }
        }
        if (q->n <= 3 && in_box && in_line_out) return SDK_CONTINUE; /* HoDoKu's locked */
    } else
        SDK_MASK_FOREACH(d, digits) sdk_step_elim_bb(s, g, rest, d);
    if (sdk_step_empty(s)) return SDK_CONTINUE;
    SDK_MASK_FOREACH(d, digits)
        sdk_step_mark_bb(s, sdk_bb_and(set, g->digit[d - 1]), d, SDK_ROLE_BASE);
    sdk_step_house(s, q->house, SDK_ROLE_BASE);
    sdk_step_printf(s, "%s: ", q->t->name);
    digits_text(s, digits);
    sdk_step_printf(s, " in %s", sdk_cells_compact(set, cells, sizeof cells));
    q->emitted = true;
    return sdk_emit(q->sink, s);
}

static int hidden_found(search *q, const int *pick)
{
    const sdk_grid *g = q->g;
    sdk_bb set = sdk_bb_none();
    unsigned digits = 0;
    for (int i = 0; i < q->n; i++) {
        set = sdk_bb_or(set, sdk_house_digit(g, q->house, pick[i]));
        digits |= sdk_digit_bit(pick[i]);
    }
    if (sdk_bb_count(set) != q->n) return SDK_CONTINUE;
    sdk_step *s = sdk_scratch_step(q->ctx, 0);
    char cells[40];
    sdk_step_init(s, q->t);
    SDK_BB_FOREACH(c, set) {
        SDK_MASK_FOREACH(d, g->cand[c] & ~digits) sdk_step_elim(s, c, d);
    }
    if (sdk_step_empty(s)) return SDK_CONTINUE;
    SDK_MASK_FOREACH(d, digits)
        sdk_step_mark_bb(s, sdk_bb_and(set, g->digit[d - 1]), d, SDK_ROLE_BASE);
    sdk_step_house(s, q->house, SDK_ROLE_BASE);
    sdk_step_printf(s, "%s: ", q->t->name);
    digits_text(s, digits);
    sdk_step_printf(s, " in %s", sdk_cells_compact(set, cells, sizeof cells));
    q->emitted = true;
    return sdk_emit(q->sink, s);
}

/* Every n-combination of q->item, in order. */
static int combine(search *q, int *pick, int k, int from, int (*found)(search *, const int *))
{
    if (k == q->n) return found(q, pick);
    for (int i = from; i <= q->nitem - (q->n - k); i++) {
        pick[k] = q->item[i];
        if (combine(q, pick, k + 1, i + 1, found) == SDK_STOP) return SDK_STOP;
    }
    return SDK_CONTINUE;
}

/* ---- houses already known to give nothing ----------------------------------
 *
 * A subset of a house and what it clears depend on the candidates of the
 * house's cells only (with order=hodoku a naked subset clears the other
 * houses its cells share too, and is left to the intersections plugin
 * depending on what it clears: no memo there). Per thread and technique an
 * earlier grid is kept with the first house (in the search's order) that
 * gave a step there (grid_memo.h, "same inputs"): a house before it whose
 * cells did not change gives nothing now either and is skipped. */
static _Thread_local pattern_memo house_last[2][5][2][2]; /* [hidden][n][hodoku][slot] */

typedef struct house_memo {
    pattern_memo *memo; /* NULL: no memo, every house searched */
    pattern_since since;
    uint64_t gave;
} house_memo;

static house_memo house_memo_begin(bool hidden, int n, bool hodoku, const sdk_grid *g)
{
    house_memo h = {NULL, {NULL, sdk_bb_none(), 0}, PATTERN_NONE};
    if (n < 2 || n > 4 || (hodoku && !hidden)) return h;
    h.memo = house_last[hidden][n][hodoku];
    h.since = pattern_memo_begin(h.memo, g, false);
    return h;
}

/* May house h, i-th in the search's order, be skipped? */
static bool house_skip(const house_memo *h, int i, int house)
{
    return h->memo && pattern_memo_skip(&h->since, (uint64_t)i, sdk_house_bb[house]);
}

static int house_memo_end(house_memo *h, const sdk_ctx *ctx, const sdk_grid *g, int rc)
{
    if (h->memo) pattern_memo_end(h->memo, ctx, g, h->gave);
    return rc;
}

static int find_naked(const sdk_ctx *ctx, const sdk_grid *g, sdk_sink *sink)
{
    const sdk_technique *t = ctx->self;
    int n = *(const int *)t->data;
    const char *order = sdk_opt(ctx, "order");
    search q = {.g = g,
                .sink = sink,
                .ctx = ctx,
                .t = t,
                .n = n,
                .hodoku = order && !strcmp(order, "hodoku")};
    house_memo hm = house_memo_begin(false, n, q.hodoku, g);
    int pick[9]; /* combine() recurses to depth n <= 4; 9 keeps GCC -O3 sure of it */
    for (int i = 0; i < SDK_HOUSES; i++) {
        int h = house_at(i, q.hodoku);
        if (house_skip(&hm, i, h)) continue;
        q.house = h;
        q.nitem = 0;
        for (int i = 0; i < 9; i++) {
            int c = sdk_house_cell[h][i];
            int k = sdk_mask_count(g->cand[c]);
            if (!g->value[c] && k >= 2 && k <= n) q.item[q.nitem++] = c;
        }
        if (q.nitem < n) continue;
        q.emitted = false;
        int rc = combine(&q, pick, 0, 0, naked_found);
        if (q.emitted && hm.gave == PATTERN_NONE) hm.gave = (uint64_t)i;
        if (rc == SDK_STOP) return house_memo_end(&hm, ctx, g, SDK_STOP);
    }
    return house_memo_end(&hm, ctx, g, SDK_CONTINUE);
}

static int find_hidden(const sdk_ctx *ctx, const sdk_grid *g, sdk_sink *sink)
{
    const sdk_technique *t = ctx->self;
    int n = *(const int *)t->data;
    const char *order = sdk_opt(ctx, "order");
    search q = {.g = g,
                .sink = sink,
                .ctx = ctx,
                .t = t,
                .n = n,
                .hodoku = order && !strcmp(order, "hodoku")};
    house_memo hm = house_memo_begin(true, n, q.hodoku, g);
    int pick[9]; /* combine() recurses to depth n <= 4; 9 keeps GCC -O3 sure of it */
    for (int i = 0; i < SDK_HOUSES; i++) {
        int h = house_at(i, q.hodoku);
        if (house_skip(&hm, i, h)) continue;
        q.house = h;
        q.nitem = 0;
        int empty = sdk_bb_count(sdk_bb_andnot(sdk_house_bb[h], g->solved));
        if (empty <= n) continue; /* nothing else in the house to clear */
        for (int d = 1; d <= 9; d++) {
            int k = sdk_bb_count(sdk_house_digit(g, h, d));
            if (k >= 2 && k <= n) q.item[q.nitem++] = d;
        }
        if (q.nitem < n) continue;
        q.emitted = false;
        int rc = combine(&q, pick, 0, 0, hidden_found);
        if (q.emitted && hm.gave == PATTERN_NONE) hm.gave = (uint64_t)i;
        if (rc == SDK_STOP) return house_memo_end(&hm, ctx, g, SDK_STOP);
    }
    return house_memo_end(&hm, ctx, g, SDK_CONTINUE);
}
