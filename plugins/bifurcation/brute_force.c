/* brute_force.c - HoDoKu's last resort: place one cell of the solution.
 *
 * When none of its techniques applies, HoDoKu solves the puzzle by search
 * (dancing links) and places one cell with its solution's digit: the middle
 * one of the empty cells taken in cell order (the (n/2)-th of n, counting from
 * 0). Its rater scores the step 10000 and makes the puzzle Extreme, then goes
 * on with the logic from the new position. This technique does the same, so
 * that the profile `hodoku` rates puzzles beyond HoDoKu's logic as HoDoKu does
 * (bifurcation instead would eliminate candidate by candidate, each a step).
 *
 * The placement is sound only when the position has one solution: with none
 * or several the step is not taken.
 */
#include "sudoku/solver.h"
#include "sudoku/technique.h"

static int find_brute_force(const sdk_ctx *ctx, const sdk_grid *g, sdk_sink *sink);

const sdk_technique sdk_brute_force = {
    .abi = SDK_ABI_VERSION,
    .size = sizeof(sdk_technique),
    .id = "brute-force",
    .name = "Brute Force",
    .difficulty = 120,
    .score = 10000,
    .level = SDK_LEVEL_EXTREME,
    .flags = SDK_TF_LAST_RESORT,
    .find = find_brute_force,
    .summary = "place the middle empty cell with its digit in the solution (HoDoKu)",
};

static int find_brute_force(const sdk_ctx *ctx, const sdk_grid *g, sdk_sink *sink)
{
    int empty[SDK_CELLS], n = 0;
    for (int c = 0; c < SDK_CELLS; c++)
        if (!g->value[c]) empty[n++] = c;
    if (n == 0) return SDK_CONTINUE;
    uint8_t sol[2][81];
    if (sdk_solve_grid(g, 2, sol, NULL) != 1) return SDK_CONTINUE;
    int cell = empty[n / 2], digit = sol[0][cell];
    char name[8];
    sdk_step *s = sdk_scratch_step(ctx, 0);
    sdk_step_init(s, &sdk_brute_force);
    sdk_step_place(s, cell, digit);
    sdk_step_mark(s, cell, digit, SDK_ROLE_TARGET);
    sdk_step_printf(s, "Brute Force: %s=%d", sdk_cell_name(cell, name), digit);
    s->text_final = 1; /* the text says the placement (as HoDoKu's) */
    return sdk_emit(sink, s);
}
