/* singles.c - the singles: full house (the last empty cell of a house), hidden
 * single in a box, hidden single in a row or column (kept apart: they differ
 * in difficulty), naked single (a cell with one candidate left). */
#include "sudoku/technique.h"

static int find_full_house(const sdk_ctx *ctx, const sdk_grid *g, sdk_sink *sink);
static int find_hidden(const sdk_ctx *ctx, const sdk_grid *g, sdk_sink *sink);
/* hidden singles: the houses searched, [from, to), are the data */
static const int boxes[2] = {18, 27}, lines[2] = {0, 18};
static int find_naked(const sdk_ctx *ctx, const sdk_grid *g, sdk_sink *sink);

static const sdk_technique full_house = {
    .abi = SDK_ABI_VERSION,
    .size = sizeof(sdk_technique),
    .id = "full-house",
    .name = "Full House",
    .difficulty = 10,
    .score = 4,
    .level = SDK_LEVEL_EASY,
    .find = find_full_house,
    .summary = "the last empty cell of a house takes the missing digit",
};
static const sdk_technique hidden_single_box = {
    .abi = SDK_ABI_VERSION,
    .size = sizeof(sdk_technique),
    .id = "hidden-single-box",
    .name = "Hidden Single (box)",
    .difficulty = 12,
    .score = 14,
    .level = SDK_LEVEL_EASY,
    .find = find_hidden,
    .data = boxes,
    .summary = "a digit with one place left in a box",
};
static const sdk_technique hidden_single_line = {
    .abi = SDK_ABI_VERSION,
    .size = sizeof(sdk_technique),
    .id = "hidden-single-line",
    .name = "Hidden Single (row/column)",
    .difficulty = 15,
    .score = 14,
    .level = SDK_LEVEL_EASY,
    .find = find_hidden,
    .data = lines,
    .summary = "a digit with one place left in a row or column",
};
static const sdk_technique naked_single = {
    .abi = SDK_ABI_VERSION,
    .size = sizeof(sdk_technique),
    .id = "naked-single",
    .name = "Naked Single",
    .difficulty = 23,
    .score = 4,
    .level = SDK_LEVEL_EASY,
    .find = find_naked,
    .summary = "a cell with one candidate left",
};

SDK_PLUGIN(&full_house, &hidden_single_box, &hidden_single_line, &naked_single)

/* Emit "<Name>: r1c2=5" for a placement found in a house (house < 0: none). */
static int place(const sdk_ctx *ctx, sdk_sink *sink, const sdk_technique *t, int cell, int digit,
                 int house)
{
    sdk_step *s = sdk_scratch_step(ctx, 0);
    char name[8], hn[12];
    sdk_step_init(s, t);
    sdk_step_place(s, cell, digit);
    sdk_step_mark(s, cell, digit, SDK_ROLE_TARGET);
    if (house >= 0) {
        sdk_step_house(s, house, SDK_ROLE_BASE);
        sdk_step_printf(s, "%s: %s=%d (in %s)", t->name, sdk_cell_name(cell, name), digit,
                        sdk_house_name(house, hn));
    } else {
        sdk_step_printf(s, "%s: %s=%d", t->name, sdk_cell_name(cell, name), digit);
    }
    s->text_final = 1;
    return sdk_emit(sink, s);
}

static int find_full_house(const sdk_ctx *ctx, const sdk_grid *g, sdk_sink *sink)
{
    for (int h = 0; h < SDK_HOUSES; h++) {
        sdk_bb empty = sdk_bb_andnot(sdk_house_bb[h], g->solved);
        if (sdk_bb_count(empty) != 1) continue;
        int cell = sdk_bb_first(empty);
        unsigned missing = SDK_ALL_DIGITS & ~sdk_house_placed(g, h);
        if (sdk_mask_count(missing) != 1 || !(g->cand[cell] & missing)) continue;
        if (place(ctx, sink, &full_house, cell, sdk_mask_first(missing), h) == SDK_STOP)
            return SDK_STOP;
    }
    return SDK_CONTINUE;
}

static int find_hidden(const sdk_ctx *ctx, const sdk_grid *g, sdk_sink *sink)
{
    const sdk_technique *t = ctx->self;
    const int *range = t->data;
    int from = range[0], to = range[1];
    for (int h = from; h < to; h++) {
        for (int d = 1; d <= 9; d++) {
            sdk_bb where = sdk_house_digit(g, h, d);
            if (sdk_bb_count(where) != 1) continue;
            if (place(ctx, sink, t, sdk_bb_first(where), d, h) == SDK_STOP) return SDK_STOP;
        }
    }
    return SDK_CONTINUE;
}

static int find_naked(const sdk_ctx *ctx, const sdk_grid *g, sdk_sink *sink)
{
    for (int c = 0; c < SDK_CELLS; c++) {
        if (g->value[c] || sdk_mask_count(g->cand[c]) != 1) continue;
        if (place(ctx, sink, &naked_single, c, sdk_mask_first(g->cand[c]), -1) == SDK_STOP)
            return SDK_STOP;
    }
    return SDK_CONTINUE;
}
