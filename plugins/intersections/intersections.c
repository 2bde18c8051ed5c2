/* intersections.c - locked candidates, where a box meets a row or column:
 * pointing (a digit of a box confined to one line leaves the rest of that
 * line), claiming (a digit of a line confined to one box leaves the rest of
 * the box), and locked pair/triple (a naked pair/triple inside a box-line
 * segment clears its digits from both houses). */
#include <limits.h>
#include <string.h>
#include "../misc/grid_memo.h"
#include "sudoku/technique.h"

/* Locked candidates: data is the bool `box_first` (pointing) or not
 * (claiming); locked subsets: the size n. */
static int find_locked(const sdk_ctx *ctx, const sdk_grid *g, sdk_sink *sink);
static int find_locked_subset(const sdk_ctx *ctx, const sdk_grid *g, sdk_sink *sink);
static const bool box_to_line = true, line_to_box = false;
static const int two = 2, three = 3;

static const sdk_technique pointing = {
    .abi = SDK_ABI_VERSION,
    .size = sizeof(sdk_technique),
    .id = "pointing",
    .name = "Locked Candidates Type 1 (Pointing)",
    .difficulty = 26,
    .score = 50,
    .level = SDK_LEVEL_MEDIUM,
    .find = find_locked,
    .data = &box_to_line,
    .summary = "a digit of a box confined to one row or column",
};
static const sdk_technique claiming = {
    .abi = SDK_ABI_VERSION,
    .size = sizeof(sdk_technique),
    .id = "claiming",
    .name = "Locked Candidates Type 2 (Claiming)",
    .difficulty = 28,
    .score = 50,
    .level = SDK_LEVEL_MEDIUM,
    .find = find_locked,
    .data = &line_to_box,
    .summary = "a digit of a row or column confined to one box",
};
static const sdk_technique locked_pair = {
    .abi = SDK_ABI_VERSION,
    .size = sizeof(sdk_technique),
    .id = "locked-pair",
    .name = "Locked Pair",
    .difficulty = 30,
    .score = 40,
    .level = SDK_LEVEL_MEDIUM,
    .find = find_locked_subset,
    .data = &two,
    .summary = "a naked pair inside a box-line segment",
};
static const sdk_technique locked_triple = {
    .abi = SDK_ABI_VERSION,
    .size = sizeof(sdk_technique),
    .id = "locked-triple",
    .name = "Locked Triple",
    .difficulty = 36,
    .score = 60,
    .level = SDK_LEVEL_MEDIUM,
    .find = find_locked_subset,
    .data = &three,
    .summary = "a naked triple inside a box-line segment",
};

SDK_PLUGIN(&pointing, &claiming, &locked_pair, &locked_triple)

static bool hodoku_order(const sdk_ctx *ctx)
{
    const char *order = sdk_opt(ctx, "order");
    return order && !strcmp(order, "hodoku");
}

static int locked_one(const sdk_grid *g, sdk_sink *sink, const sdk_ctx *ctx, int from, int to,
                      int d, bool *emitted);
static int locked_subset_search(const sdk_ctx *ctx, const sdk_grid *g, sdk_sink *sink, int n,
                                const pattern_since *since, uint64_t *gave);

/* Option order=hodoku: HoDoKu's order, house by house (boxes for pointing,
 * rows then columns for claiming), digit by digit within a house. */
static int locked_hodoku(const sdk_grid *g, sdk_sink *sink, const sdk_ctx *ctx, bool box_first)
{
    for (int i = 0; i < (box_first ? 9 : 18); i++) {
        int from = box_first ? 18 + i : i;
        for (int d = 1; d <= 9; d++) {
            sdk_bb in = sdk_house_digit(g, from, d);
            if (sdk_bb_count(in) < 2 || sdk_bb_count(in) > 3) continue;
            int c = sdk_bb_first(in);
            for (int k = 0; k < 3; k++) {
                int to = sdk_cell_house[c][k];
                if (to == from || (box_first ? to >= 18 : to < 18)) continue;
                if (!sdk_bb_subset(in, sdk_house_bb[to])) continue;
                bool emitted;
                if (locked_one(g, sink, ctx, from, to, d, &emitted) == SDK_STOP) return SDK_STOP;
            }
        }
    }
    return SDK_CONTINUE;
}

/* Digit d of house `from` lies only where `from` meets `to`: it leaves the
 * rest of `to`. Both search orders (segments, HoDoKu's) end here. */
static int locked_one(const sdk_grid *g, sdk_sink *sink, const sdk_ctx *ctx, int from, int to,
                      int d, bool *emitted)
{
    char hn[4];
    sdk_bb seg = sdk_bb_and(sdk_house_bb[from], sdk_house_bb[to]);
    sdk_bb in = sdk_house_digit(g, from, d);
    sdk_bb rest = sdk_bb_andnot(sdk_house_digit(g, to, d), seg);
    if (sdk_bb_empty(rest)) return SDK_CONTINUE;
    sdk_step *s = sdk_scratch_step(ctx, 0);
    sdk_step_init(s, ctx->self);
    sdk_step_elim_bb(s, g, rest, d);
    sdk_step_mark_bb(s, in, d, SDK_ROLE_BASE);
    sdk_step_house(s, from, SDK_ROLE_BASE);
    sdk_step_house(s, to, SDK_ROLE_COVER);
    sdk_step_printf(s, "%s: %d in %s", ctx->self->name, d, sdk_house_short(from, hn));
    *emitted = true;
    return sdk_emit(sink, s);
}

/* A locked pair/triple whose eliminations s holds (none: nothing to emit):
 * marks the set, the box b and the line l, writes the text and emits it. The
 * segment search and HoDoKu's order both end here. */
static int subset_emit(sdk_sink *sink, sdk_step *s, int b, int l, sdk_bb set, unsigned digits)
{
    if (sdk_step_empty(s)) return SDK_CONTINUE;
    SDK_MASK_FOREACH(d, digits) sdk_step_mark_bb(s, set, d, SDK_ROLE_BASE);
    sdk_step_house(s, b, SDK_ROLE_COVER);
    sdk_step_house(s, l, SDK_ROLE_COVER);
    sdk_step_printf(s, "%s: ", s->tech->name);
    const char *sep = "";
    SDK_MASK_FOREACH(d, digits) {
        sdk_step_printf(s, "%s%d", sep, d);
        sep = ",";
    }
    char cells[32];
    sdk_step_printf(s, " in %s", sdk_cells_compact(set, cells, sizeof cells));
    return sdk_emit(sink, s);
}

/* HoDoKu's locked pair/triple (order=hodoku): n cells of a box (any cells of
 * it, in cell order) holding n digits and sharing a line, that clear digits
 * both in the box and in the line outside the box. */
static int emit_subset(const sdk_grid *g, sdk_sink *sink, const sdk_ctx *ctx, int b, int l,
                       sdk_bb set, unsigned digits);

/* The cells picked from one box: a HoDoKu locked subset? Then emit it. */
static int try_locked(const sdk_grid *g, sdk_sink *sink, const sdk_ctx *ctx, int b,
                      const int *cells, int n)
{
    unsigned digits = 0;
    sdk_bb set = sdk_bb_none();
    for (int i = 0; i < n; i++) {
        digits |= g->cand[cells[i]];
        sdk_bb_add(&set, cells[i]);
    }
    if (sdk_mask_count(digits) != n) return SDK_CONTINUE;
    int l = -1;
    for (int j = 0; j < 2; j++)
        if (sdk_bb_subset(set, sdk_house_bb[sdk_cell_house[cells[0]][j]]))
            l = sdk_cell_house[cells[0]][j];
    if (l < 0) return SDK_CONTINUE;
    bool in_box = false, in_line = false;
    sdk_bb box_rest = sdk_bb_andnot(sdk_house_bb[b], set);
    sdk_bb line_rest = sdk_bb_andnot(sdk_house_bb[l], sdk_house_bb[b]);
    SDK_MASK_FOREACH(d, digits) {
        if (!sdk_bb_empty(sdk_bb_and(box_rest, g->digit[d - 1]))) in_box = true;
        if (!sdk_bb_empty(sdk_bb_and(line_rest, g->digit[d - 1]))) in_line = true;
    }
    if (!in_box || !in_line) return SDK_CONTINUE;
    return emit_subset(g, sink, ctx, b, l, set, digits);
}

static int locked_subset_hodoku(const sdk_grid *g, sdk_sink *sink, const sdk_ctx *ctx, int n)
{
    for (int b = 18; b < 27; b++) {
        int c[9], k = 0;
        for (int i = 0; i < 9; i++) {
            int x = sdk_house_cell[b][i];
            int m = sdk_mask_count(g->cand[x]);
            if (!g->value[x] && m >= 2 && m <= n) c[k++] = x;
        }
        for (int i = 0; i < k; i++)
            for (int j = i + 1; j < k; j++) {
                int pick[3] = {c[i], c[j], 0};
                if (n == 2 && try_locked(g, sink, ctx, b, pick, 2) == SDK_STOP) return SDK_STOP;
                for (int m = j + 1; n == 3 && m < k; m++) {
                    pick[2] = c[m];
                    if (try_locked(g, sink, ctx, b, pick, 3) == SDK_STOP) return SDK_STOP;
                }
            }
    }
    return SDK_CONTINUE;
}

static int emit_subset(const sdk_grid *g, sdk_sink *sink, const sdk_ctx *ctx, int b, int l,
                       sdk_bb set, unsigned digits)
{
    sdk_step *s = sdk_scratch_step(ctx, 0);
    sdk_step_init(s, ctx->self);
    const int houses[2] = {l, b}; /* HoDoKu's order: the line, then the box */
    for (int k = 0; k < 2; k++)
        for (int i = 0; i < 9; i++) {
            int c = sdk_house_cell[houses[k]][i];
            if (sdk_bb_has(set, c)) continue;
            SDK_MASK_FOREACH(d, g->cand[c] & digits) sdk_step_elim(s, c, d);
        }
    return subset_emit(sink, s, b, l, set, digits);
}

/* ---- what found nothing before ------------------------------------------
 *
 * Pointing and claiming of digit d in a segment depend on d's candidates
 * only; the engine asks again after every step, and a step changes the
 * candidates of a few digits. Per thread and kind, the digits of an earlier
 * grid are kept with the rank (segment, digit) of the first that gave a
 * step there, one grid at depth 0 and one inside a propagate (grid_memo.h):
 * a (segment, digit) ranked before it whose digit has the same candidates
 * now gives nothing now either and is skipped ("same inputs"). */
static _Thread_local digit_memo locked_last[2][2]; /* [box_first][slot]; first: a rank */

/* The digits with the same candidates on g as on the kept grid of memo[2]
 * that shares more (bit d), and that grid's first rank. */
static unsigned locked_memo_begin(const digit_memo memo[2], const sdk_grid *g, int *first)
{
    unsigned best = 0;
    *first = 0;
    for (int k = 0; k < 2; k++) {
        if (!memo[k].valid) continue;
        unsigned same = digit_memo_same(&memo[k], g, 10);
        if (sdk_popcount64(same) > sdk_popcount64(best)) {
            best = same;
            *first = memo[k].first;
        }
    }
    return best;
}

/* For each box-line intersection (segment): digit d's cells in `from` all lie
 * in `to`; eliminate d from the rest of `to`. */
static int find_locked(const sdk_ctx *ctx, const sdk_grid *g, sdk_sink *sink)
{
    bool box_first = *(const bool *)ctx->self->data;
    if (hodoku_order(ctx)) return locked_hodoku(g, sink, ctx, box_first);
    digit_memo *memo = locked_last[box_first];
    int first;
    unsigned same = locked_memo_begin(memo, g, &first);
    int gave = INT_MAX, rc = SDK_CONTINUE;
    for (int b = 18; b < 27 && rc != SDK_STOP; b++) {
        /* the lines crossing box b, in order: its 3 rows, then its 3
         * columns (the other lines share no cell with it) */
        int bx = b - 18, lines[6];
        for (int k = 0; k < 3; k++) {
            lines[k] = bx / 3 * 3 + k;
            lines[3 + k] = 9 + bx % 3 * 3 + k;
        }
        for (int li = 0; li < 6 && rc != SDK_STOP; li++) {
            int l = lines[li];
            sdk_bb seg = sdk_bb_and(sdk_house_bb[b], sdk_house_bb[l]);
            int from = box_first ? b : l, to = box_first ? l : b;
            int rank0 = ((b - 18) * 18 + l) * 9 - 1; /* + d: the rank of (segment, d) */
            /* the digits to try, in order: those some cell of the segment
             * holds (g->digit agrees with g->cand: `in` below could only lie
             * in seg empty, fewer than 2 cells), less those the memo skips
             * (same candidates, rank0 + d < first: d < lim) */
            unsigned held = 0;
            SDK_BB_FOREACH(c, seg) held |= g->cand[c];
            long lim = (long)first - rank0;
            unsigned before = lim > 9 ? 0x1FFu : lim > 1 ? (1u << (lim - 1)) - 1 : 0;
            SDK_MASK_FOREACH(d, held & ~((same >> 1) & before)) {
                sdk_bb in = sdk_house_digit(g, from, d);
                if (sdk_bb_count(in) < 2 || !sdk_bb_subset(in, seg)) continue;
                bool emitted = false;
                rc = locked_one(g, sink, ctx, from, to, d, &emitted);
                if (emitted && gave == INT_MAX) gave = rank0 + d;
                if (rc == SDK_STOP) break;
            }
        }
    }
    digit_memo_end(memo, ctx, g, 0, gave);
    return rc;
}

/* A locked pair or triple of a segment and what it clears depend on the
 * cells of its box and line only: per thread and size, an earlier grid is
 * kept with the first segment that gave a step there (grid_memo.h, "same
 * inputs"); a segment before it whose box and line did not change gives
 * nothing now either and is skipped. */
static _Thread_local pattern_memo subset_last[2][2]; /* [triple][slot] */

/* n cells of a segment (n = 2, 3) holding together exactly n digits. */
static int find_locked_subset(const sdk_ctx *ctx, const sdk_grid *g, sdk_sink *sink)
{
    const sdk_technique *t = ctx->self;
    int n = *(const int *)t->data;
    if (hodoku_order(ctx)) return locked_subset_hodoku(g, sink, ctx, n);
    pattern_memo *memo = subset_last[n == 3];
    pattern_since since = pattern_memo_begin(memo, g, false);
    uint64_t gave = PATTERN_NONE;
    int rc = locked_subset_search(ctx, g, sink, n, &since, &gave);
    pattern_memo_end(memo, ctx, g, gave);
    return rc;
}

static int locked_subset_search(const sdk_ctx *ctx, const sdk_grid *g, sdk_sink *sink, int n,
                                const pattern_since *since, uint64_t *gave)
{
    const sdk_technique *t = ctx->self;
    for (int b = 18; b < 27; b++) {
        for (int l = 0; l < 18; l++) {
            uint64_t rank = (uint64_t)(b - 18) * 18 + (uint64_t)l;
            if (pattern_memo_skip(since, rank, sdk_bb_or(sdk_house_bb[b], sdk_house_bb[l])))
                continue; /* as on the kept grid: nothing */
            sdk_bb seg = sdk_bb_andnot(sdk_bb_and(sdk_house_bb[b], sdk_house_bb[l]), g->solved);
            int c[3], k = 0;
            SDK_BB_FOREACH(x, seg) c[k++] = x;
            for (int m = 1; m < (1 << k); m++) {
                if (sdk_mask_count((unsigned)m) != n) continue;
                unsigned digits = 0;
                sdk_bb set = sdk_bb_none();
                bool ok = true;
                for (int i = 0; i < k; i++) {
                    if (!(m >> i & 1)) continue;
                    if (sdk_mask_count(g->cand[c[i]]) < 2) ok = false;
                    digits |= g->cand[c[i]];
                    sdk_bb_add(&set, c[i]);
                }
                if (!ok || sdk_mask_count(digits) != n) continue;
                sdk_step *s = sdk_scratch_step(ctx, 0);
                sdk_step_init(s, t);
                sdk_bb around = sdk_bb_andnot(sdk_bb_or(sdk_house_bb[b], sdk_house_bb[l]), set);
                SDK_MASK_FOREACH(d, digits) sdk_step_elim_bb(s, g, around, d);
                if (!sdk_step_empty(s) && *gave == PATTERN_NONE) *gave = rank;
                if (subset_emit(sink, s, b, l, set, digits) == SDK_STOP) return SDK_STOP;
            }
        }
    }
    return SDK_CONTINUE;
}
