/* coloring.c - Simple Colors (trap, wrap) and Multi-Colors (types 1 and 2) as
 * HoDoKu defines them. For one digit, the cells joined by strong links form
 * clusters; each cluster is coloured in two alternating colours, one of which
 * holds the digit everywhere and the other nowhere. */
#include <string.h>
#include "../misc/grid_memo.h"
#include "sudoku/strong.h"
#include "sudoku/technique.h"

/* Simple Colors: data is the bool `wrap`; Multi Colors: the type (1 or 2). */
static int find_simple(const sdk_ctx *ctx, const sdk_grid *g, sdk_sink *sink);
static int find_multi(const sdk_ctx *ctx, const sdk_grid *g, sdk_sink *sink);
static const bool trap_kind = false, wrap_kind = true;
static const int multi_1 = 1, multi_2 = 2;

static const sdk_technique simple_colors_trap = {
    .abi = SDK_ABI_VERSION,
    .size = sizeof(sdk_technique),
    .id = "simple-colors-trap",
    .name = "Simple Colors Trap",
    .difficulty = 45,
    .score = 150,
    .level = SDK_LEVEL_HARD,
    .find = find_simple,
    .data = &trap_kind,
    .summary = "a cell seeing both colours of a cluster loses the digit",
};
static const sdk_technique simple_colors_wrap = {
    .abi = SDK_ABI_VERSION,
    .size = sizeof(sdk_technique),
    .id = "simple-colors-wrap",
    .name = "Simple Colors Wrap",
    .difficulty = 45,
    .score = 150,
    .level = SDK_LEVEL_HARD,
    .find = find_simple,
    .data = &wrap_kind,
    .summary = "two cells of one colour see each other: that colour is false",
};
static const sdk_technique multi_colors_1 = {
    .abi = SDK_ABI_VERSION,
    .size = sizeof(sdk_technique),
    .id = "multi-colors-1",
    .name = "Multi Colors 1",
    .difficulty = 47,
    .score = 200,
    .level = SDK_LEVEL_HARD,
    .find = find_multi,
    .data = &multi_1,
    .summary = "colours a1 and b1 of two clusters see each other: a cell seeing a2 and b2 "
               "loses the digit",
};
static const sdk_technique multi_colors_2 = {
    .abi = SDK_ABI_VERSION,
    .size = sizeof(sdk_technique),
    .id = "multi-colors-2",
    .name = "Multi Colors 2",
    .difficulty = 47,
    .score = 200,
    .level = SDK_LEVEL_HARD,
    .find = find_multi,
    .data = &multi_2,
    .summary = "a colour seeing both colours of another cluster is false",
};

SDK_PLUGIN(&simple_colors_trap, &simple_colors_wrap, &multi_colors_1, &multi_colors_2)

typedef struct cluster {
    sdk_bb c[2];
} cluster;

/* Colour the strong-link clusters of digit d (seed: the lowest cell). */
static int clusters_of(const sdk_grid *g, int d, cluster *out)
{
    sdk_bb strong[SDK_CELLS];
    sdk_strong_graph(g, d, strong);
    sdk_bb left = sdk_bb_none();
    for (int c = 0; c < SDK_CELLS; c++)
        if (!sdk_bb_empty(strong[c])) sdk_bb_add(&left, c);
    int n = 0;
    while (!sdk_bb_empty(left)) {
        int stack[SDK_CELLS], col[SDK_CELLS], top = 0;
        int seed = sdk_bb_first(left);
        cluster k = {{sdk_bb_none(), sdk_bb_none()}};
        stack[top] = seed;
        col[top++] = 0;
        sdk_bb_del(&left, seed);
        while (top) {
            top--;
            int c = stack[top], side = col[top];
            sdk_bb_add(&k.c[side], c);
            SDK_BB_FOREACH(p, strong[c]) {
                if (!sdk_bb_has(left, p)) continue;
                sdk_bb_del(&left, p);
                stack[top] = p;
                col[top++] = !side;
            }
        }
        out[n++] = k;
    }
    return n;
}

/* Cells that see some cell of set. */
static sdk_bb seen_by(sdk_bb set)
{
    sdk_bb r = sdk_bb_none();
    SDK_BB_FOREACH(c, set) r = sdk_bb_or(r, sdk_peer_bb[c]);
    return r;
}

static void mark_cluster(sdk_step *s, const cluster *k, int d, sdk_role a, sdk_role b)
{
    sdk_step_mark_bb(s, k->c[0], d, a);
    sdk_step_mark_bb(s, k->c[1], d, b);
}

static void cluster_text(sdk_step *s, const cluster *k)
{
    char b0[128], b1[128];
    sdk_step_printf(s, " (%s) / (%s)", sdk_cells_compact(k->c[0], b0, sizeof b0),
                    sdk_cells_compact(k->c[1], b1, sizeof b1));
}

/* The steps for digit d depend on d's candidates only (its clusters, the
 * cells that lose it): per thread and technique, the digits before the
 * first that gave a step on an earlier grid, with the same candidates now,
 * are skipped (grid_memo.h, digit_memo). */
static _Thread_local digit_memo simple_last[2][2], multi_last[2][2]; /* [kind][slot] */

static int find_simple(const sdk_ctx *ctx, const sdk_grid *g, sdk_sink *sink)
{
    const sdk_technique *tech = ctx->self;
    bool wrap = *(const bool *)tech->data;
    digit_memo *memo = simple_last[wrap];
    unsigned skip = digit_memo_begin(memo, g, 0);
    int first = 10, rc = SDK_CONTINUE;
    cluster k[SDK_CELLS];
    for (int d = 1; d <= 9 && rc != SDK_STOP; d++) {
        if (skip >> d & 1) continue;
        int n = clusters_of(g, d, k);
        for (int i = 0; i < n; i++) {
            sdk_bb t = sdk_bb_none();
            if (wrap) {
                for (int side = 0; side < 2; side++) {
                    bool bad = false;
                    SDK_BB_FOREACH(c, k[i].c[side]) {
                        if (!sdk_bb_empty(sdk_bb_and(sdk_peer_bb[c], k[i].c[side]))) bad = true;
                    }
                    if (bad) t = sdk_bb_or(t, k[i].c[side]);
                }
            } else {
                t = sdk_bb_and(seen_by(k[i].c[0]), seen_by(k[i].c[1]));
                t = sdk_bb_andnot(t, sdk_bb_or(k[i].c[0], k[i].c[1]));
            }
            t = sdk_bb_and(t, g->digit[d - 1]);
            if (sdk_bb_empty(t)) continue;
            sdk_step *s = sdk_scratch_step(ctx, 0);
            sdk_step_init(s, tech);
            sdk_step_elim_bb(s, g, t, d);
            mark_cluster(s, &k[i], d, SDK_ROLE_ON, SDK_ROLE_OFF);
            sdk_step_printf(s, "%s: %d", tech->name, d);
            cluster_text(s, &k[i]);
            if (first == 10) first = d;
            if (sdk_emit(sink, s) == SDK_STOP) {
                rc = SDK_STOP;
                break;
            }
        }
    }
    digit_memo_end(memo, ctx, g, 0, first);
    return rc;
}

static bool sees(sdk_bb a, sdk_bb b)
{
    return !sdk_bb_empty(sdk_bb_and(seen_by(a), b));
}

/* Cells seeing colour a and colour b, outside both. */
static sdk_bb trap(sdk_bb a, sdk_bb b)
{
    return sdk_bb_andnot(sdk_bb_and(seen_by(a), seen_by(b)), sdk_bb_or(a, b));
}

static int find_multi(const sdk_ctx *ctx, const sdk_grid *g, sdk_sink *sink)
{
    const sdk_technique *tech = ctx->self;
    int type = *(const int *)tech->data;
    digit_memo *memo = multi_last[type == 2];
    unsigned skip = digit_memo_begin(memo, g, 0);
    int first = 10, rc = SDK_CONTINUE;
    cluster k[SDK_CELLS];
    for (int d = 1; d <= 9 && rc != SDK_STOP; d++) {
        if (skip >> d & 1) continue;
        int n = clusters_of(g, d, k);
        for (int i = 0; i < n && rc != SDK_STOP; i++) {
            for (int j = 0; j < n; j++) {
                if (i == j) continue;
                const sdk_bb *a = k[i].c, *b = k[j].c;
                sdk_bb t = sdk_bb_none();
                if (type == 2) {
                    for (int s = 0; s < 2; s++)
                        if (sees(a[s], b[0]) && sees(a[s], b[1])) t = sdk_bb_or(t, a[s]);
                } else {
                    if (j < i) continue; /* symmetric: one step per pair */
                    for (int x = 0; x < 2; x++)
                        for (int y = 0; y < 2; y++)
                            if (sees(a[x], b[y])) t = sdk_bb_or(t, trap(a[1 - x], b[1 - y]));
                }
                t = sdk_bb_and(t, g->digit[d - 1]);
                if (sdk_bb_empty(t)) continue;
                sdk_step *s = sdk_scratch_step(ctx, 0);
                sdk_step_init(s, tech);
                sdk_step_elim_bb(s, g, t, d);
                mark_cluster(s, &k[i], d, SDK_ROLE_ON, SDK_ROLE_OFF);
                mark_cluster(s, &k[j], d, SDK_ROLE_BASE, SDK_ROLE_COVER);
                sdk_step_printf(s, "%s: %d", tech->name, d);
                cluster_text(s, &k[i]);
                sdk_step_printf(s, ",");
                cluster_text(s, &k[j]);
                if (first == 10) first = d;
                if (sdk_emit(sink, s) == SDK_STOP) {
                    rc = SDK_STOP;
                    break;
                }
            }
        }
    }
    digit_memo_end(memo, ctx, g, 0, first);
    return rc;
}
