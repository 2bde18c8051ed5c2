/* swordfish222.c - sudokilo steps 16 and 17: the 2-2-2 Swordfish. A digit
 * with exactly two places in each of three rows (step 16; columns: step 17),
 * the six places in three columns: in each of those columns the digit is on
 * one of the three rows, so it leaves the rest of the columns. The seed's
 * steps 35 and 36 are the general Swordfish (2, 2 and 2-3 places), which the
 * sudokilo profile lists after step 34. */
#include <stdio.h>
#include "sudoku/technique.h"
#include "swordfish222.h"

/* Cells of line (o: SDK_ROW/SDK_COL, index i) holding d. */
static sdk_bb line_digit(const sdk_grid *g, int o, int i, int d)
{
    return sdk_house_digit(g, o * 9 + i, d);
}

static int cross_of(int o, int cell)
{
    return o == SDK_ROW ? cell % 9 : cell / 9;
}

static int emit(const sdk_ctx *ctx, const sdk_grid *g, int o, int d, const int line[3],
                unsigned cross, sdk_sink *sink)
{
    sdk_step *s = sdk_scratch_step(ctx, 0);
    sdk_step_init(s, ctx->self);
    sdk_bb base = sdk_bb_none(), cover = sdk_bb_none();
    for (int k = 0; k < 3; k++) base = sdk_bb_or(base, line_digit(g, o, line[k], d));
    for (int x = 0; x < 9; x++)
        if (cross & (1u << x)) cover = sdk_bb_or(cover, line_digit(g, 1 - o, x, d));
    sdk_step_elim_bb(s, g, sdk_bb_andnot(cover, base), d);
    if (sdk_step_empty(s)) return SDK_CONTINUE;
    sdk_step_mark_bb(s, base, d, SDK_ROLE_BASE);
    for (int k = 0; k < 3; k++) sdk_step_house(s, o * 9 + line[k], SDK_ROLE_BASE);
    for (int x = 0; x < 9; x++)
        if (cross & (1u << x)) sdk_step_house(s, (1 - o) * 9 + x, SDK_ROLE_COVER);
    char a = o == SDK_ROW ? 'r' : 'c', b = o == SDK_ROW ? 'c' : 'r';
    sdk_step_printf(s, "Swordfish 2-2-2: %d %c%d%d%d", d, a, line[0] + 1, line[1] + 1, line[2] + 1);
    sdk_step_printf(s, " %c", b);
    for (int x = 0; x < 9; x++)
        if (cross & (1u << x)) sdk_step_printf(s, "%d", x + 1);
    return sdk_emit(sink, s);
}

int sudokilo_find_swordfish222(const sdk_ctx *ctx, const sdk_grid *g, sdk_sink *sink)
{
    for (int o = SDK_ROW; o <= SDK_COL; o++)
        for (int d = 1; d <= 9; d++) {
            int two[9], n = 0;
            unsigned cross[9];
            for (int i = 0; i < 9; i++) {
                sdk_bb b = line_digit(g, o, i, d);
                if (sdk_bb_count(b) != 2) continue;
                cross[n] = 0;
                SDK_BB_FOREACH(c, b) cross[n] |= 1u << cross_of(o, c);
                two[n++] = i;
            }
            for (int x = 0; x < n; x++)
                for (int y = x + 1; y < n; y++)
                    for (int z = y + 1; z < n; z++) {
                        unsigned u = cross[x] | cross[y] | cross[z];
                        if (sdk_mask_count(u) != 3) continue;
                        int line[3] = {two[x], two[y], two[z]};
                        if (emit(ctx, g, o, d, line, u, sink) == SDK_STOP) return SDK_STOP;
                    }
        }
    return SDK_CONTINUE;
}
