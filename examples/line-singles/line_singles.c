/* line_singles.c - an example technique plugin, built out of tree.
 *
 * Two techniques from one find(): "a digit with one place left in a row"
 * and the same in a column (hidden singles of lines). They differ only in
 * which houses they search, so each descriptor points its `data` at its
 * range of house numbers and find() reads it from its own descriptor,
 * ctx->self. Options from the profile line come through ctx too:
 * `example-row-single = mark-house=0` leaves out the house from the step.
 *
 * Build it against an installed SDK (see Makefile and docs/PLUGINS.md):
 *     make PKG_CONFIG_PATH=PREFIX/lib/pkgconfig
 */
#include <sudoku/technique.h>

/* What one technique searches: houses [first, last) (rows 0-8, columns 9-17). */
typedef struct house_range {
    int first, last;
    const char *what;
} house_range;

static int find_line_single(const sdk_ctx *ctx, const sdk_grid *g, sdk_sink *sink)
{
    const house_range *r = ctx->self->data;
    bool mark_house = sdk_opt_bool(ctx, "mark-house", true);
    for (int h = r->first; h < r->last; h++) {
        for (int d = 1; d <= 9; d++) {
            sdk_bb where = sdk_house_digit(g, h, d); /* unsolved cells of h holding d */
            if (sdk_bb_count(where) != 1) continue;
            int cell = sdk_bb_first(where);
            /* The host lends us a step to build in (12 KiB we need not keep
             * on our stack); the sink copies what it keeps, so the same step
             * serves the next single. */
            sdk_step *s = sdk_scratch_step(ctx, 0);
            sdk_step_init(s, ctx->self);
            sdk_step_place(s, cell, d);
            sdk_step_mark(s, cell, d, SDK_ROLE_TARGET);
            if (mark_house) sdk_step_house(s, h, SDK_ROLE_BASE);
            char name[8], house[8];
            sdk_step_printf(s, "%s: %s=%d (the only %d in %s %s)", ctx->self->name,
                            sdk_cell_name(cell, name), d, d, r->what, sdk_house_short(h, house));
            if (sdk_emit(sink, s) == SDK_STOP) return SDK_STOP; /* the sink has enough */
        }
    }
    return SDK_CONTINUE; /* searched everything, found or not */
}

static const house_range rows = {0, 9, "row"}, cols = {9, 18, "column"};

static const sdk_technique row_single = {
    .abi = SDK_ABI_VERSION,
    .size = sizeof(sdk_technique),
    .id = "example-row-single",
    .name = "Row Single (example)",
    .difficulty = 15, /* Sudoku Explainer scale in tenths: 1.5 */
    .score = 8,
    .level = SDK_LEVEL_EASY,
    .find = find_line_single,
    .summary = "a digit with one place left in a row (example plugin)",
    .data = &rows,
};

static const sdk_technique col_single = {
    .abi = SDK_ABI_VERSION,
    .size = sizeof(sdk_technique),
    .id = "example-column-single",
    .name = "Column Single (example)",
    .difficulty = 15,
    .score = 8,
    .level = SDK_LEVEL_EASY,
    .find = find_line_single,
    .summary = "a digit with one place left in a column (example plugin)",
    .data = &cols,
};

SDK_PLUGIN(&row_single, &col_single)
