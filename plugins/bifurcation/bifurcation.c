/* bifurcation.c - the last resort (the seed's rule 5, done soundly).
 *
 * Try a candidate: place it in a copy of the grid and propagate with the
 * techniques configured before this one. If the copy breaks (a cell without
 * candidates, a digit twice or nowhere in a house), the candidate is false and
 * is eliminated; the step says which try failed and why. Cells with two
 * candidates are tried first (then three, ...). A try that merely gets stuck
 * proves nothing and is not used. When no single try breaks within the
 * propagation, the try is refuted by exhaustive search instead (a complete
 * search of the tried position finds no solution), which the text says. */
#include <stdio.h>
#include <stdlib.h>
#include "sudoku/alloc.h"
#include "sudoku/solver.h"
#include "sudoku/technique.h"

static int find_bifurcation(const sdk_ctx *ctx, const sdk_grid *g, sdk_sink *sink);

static const sdk_technique bifurcation = {
    .abi = SDK_ABI_VERSION,
    .size = sizeof(sdk_technique),
    .id = "bifurcation",
    .name = "Bifurcation",
    .difficulty = 120,
    .score = 10000,
    .level = SDK_LEVEL_EXTREME,
    .flags = SDK_TF_LAST_RESORT | SDK_TF_USES_ENGINE,
    .find = find_bifurcation,
    .summary = "try a candidate; keep the other only when the try breaks the grid",
};

extern const sdk_technique sdk_brute_force; /* brute_force.c: HoDoKu's last resort */

SDK_PLUGIN(&bifurcation, &sdk_brute_force)

static int refute(const sdk_ctx *ctx, sdk_sink *sink, const sdk_grid *g, int cell, int digit,
                  const char *how, int steps)
{
    sdk_step *s = sdk_scratch_step(ctx, 0);
    char name[8];
    sdk_step_init(s, &bifurcation);
    sdk_step_elim(s, cell, digit);
    sdk_step_mark(s, cell, 0, SDK_ROLE_PIVOT);
    sdk_step_mark(s, cell, digit, SDK_ROLE_TARGET);
    sdk_step_printf(s, "Bifurcation: %s is one of {", sdk_cell_name(cell, name));
    const char *sep = "";
    SDK_MASK_FOREACH(d, g->cand[cell]) {
        sdk_step_printf(s, "%s%d", sep, d);
        sep = ",";
    }
    sdk_step_printf(s, "}; trying %s=%d %s", name, digit, how);
    if (steps >= 0) sdk_step_printf(s, " after %d step%s", steps, steps == 1 ? "" : "s");
    return sdk_emit(sink, s);
}

static int find_bifurcation(const sdk_ctx *ctx, const sdk_grid *g, sdk_sink *sink)
{
    int max_steps = sdk_opt_int(ctx, "max-steps", 400);
    bool found = false;
    sdk_grid *work = sdk_xmalloc(sizeof *work);
    sdk_prop_result res;
    /* A try that places a digit of a solution cannot break the grid: sound
     * techniques never eliminate a candidate of a solution, so propagation
     * from it ends stuck or solved, never in a contradiction. One solution of
     * g (when it has one) spares those tries, usually the longest ones (they
     * run to max-steps without breaking); the steps found are the same. */
    uint8_t solution[SDK_CELLS];
    bool have_solution = sdk_solve_grid(g, 1, &solution, NULL) > 0;
    /* Cells by number of candidates: 2 first. */
    for (int k = 2; k <= 9; k++) {
        for (int c = 0; c < SDK_CELLS; c++) {
            if (g->value[c] || sdk_mask_count(g->cand[c]) != k) continue;
            SDK_MASK_FOREACH(d, g->cand[c]) {
                if (have_solution && solution[c] == d) continue;
                *work = *g;
                sdk_grid_place(work, c, d, false);
                if (!ctx->propagate) break;
                if (ctx->propagate(ctx, work, max_steps, &res) != SDK_PROP_CONTRADICTION) continue;
                char how[300];
                snprintf(how, sizeof how, "breaks the grid (%s)", res.why);
                found = true;
                if (refute(ctx, sink, g, c, d, how, res.steps) == SDK_STOP) {
                    free(work);
                    return SDK_STOP;
                }
            }
        }
        if (found) break;
    }
    if (!found) {
        /* No try breaks by propagation: refute by exhaustive search. */
        for (int c = 0; c < SDK_CELLS && !found; c++) {
            if (g->value[c] || sdk_mask_count(g->cand[c]) != 2) continue;
            SDK_MASK_FOREACH(d, g->cand[c]) {
                *work = *g;
                sdk_grid_place(work, c, d, false);
                if (sdk_solve_grid(work, 1, NULL, NULL) != 0) continue;
                found = true;
                if (refute(ctx, sink, g, c, d, "leaves no solution (exhaustive search)", -1) ==
                    SDK_STOP) {
                    free(work);
                    return SDK_STOP;
                }
                break;
            }
        }
    }
    free(work);
    return SDK_CONTINUE;
}
