/* single_digit.c - single-digit patterns as HoDoKu defines them: Skyscraper,
 * 2-String Kite (and its dual), Empty Rectangle (and its dual). Turbot Fish
 * and X-Chain live in xchain.c. Every pattern works on the candidates of one
 * digit and its strong links (houses with exactly two candidates). */
#include <string.h>
#include "sudoku/strong.h"
#include "sudoku/technique.h"
#include "single_digit.h"
#include "../misc/grid_memo.h"

static int find_skyscraper(const sdk_ctx *ctx, const sdk_grid *g, sdk_sink *sink);
static int find_kite(const sdk_ctx *ctx, const sdk_grid *g, sdk_sink *sink);
static int find_dual_kite(const sdk_ctx *ctx, const sdk_grid *g, sdk_sink *sink);
static int find_er(const sdk_ctx *ctx, const sdk_grid *g, sdk_sink *sink);
static const bool single_er = false, dual_er = true; /* empty rectangles: data */

static const sdk_technique skyscraper = {
    .abi = SDK_ABI_VERSION,
    .size = sizeof(sdk_technique),
    .id = "skyscraper",
    .name = "Skyscraper",
    .difficulty = 40,
    .score = 130,
    .level = SDK_LEVEL_HARD,
    .find = find_skyscraper,
    .summary = "two parallel strong links joined at one end: a cell seeing both other ends "
               "loses the digit",
};
static const sdk_technique two_string_kite = {
    .abi = SDK_ABI_VERSION,
    .size = sizeof(sdk_technique),
    .id = "two-string-kite",
    .name = "2-String Kite",
    .difficulty = 41,
    .score = 150,
    .level = SDK_LEVEL_HARD,
    .find = find_kite,
    .summary = "a row and a column strong link joined in a box",
};
static const sdk_technique dual_two_string_kite = {
    .abi = SDK_ABI_VERSION,
    .size = sizeof(sdk_technique),
    .id = "dual-two-string-kite",
    .name = "Dual 2-String Kite",
    .difficulty = 41,
    .score = 150,
    .level = SDK_LEVEL_HARD,
    .find = find_dual_kite,
    .summary = "two 2-String Kites through the same two box cells",
};
static const sdk_technique empty_rectangle = {
    .abi = SDK_ABI_VERSION,
    .size = sizeof(sdk_technique),
    .id = "empty-rectangle",
    .name = "Empty Rectangle",
    .difficulty = 42,
    .score = 120,
    .level = SDK_LEVEL_HARD,
    .find = find_er,
    .data = &single_er,
    .summary = "a box whose candidates lie on a cross, joined to a strong link "
               "(option two-candidates=1: boxes with only two candidates)",
};
static const sdk_technique dual_empty_rectangle = {
    .abi = SDK_ABI_VERSION,
    .size = sizeof(sdk_technique),
    .id = "dual-empty-rectangle",
    .name = "Dual Empty Rectangle",
    .difficulty = 42,
    .score = 120,
    .level = SDK_LEVEL_HARD,
    .find = find_er,
    .data = &dual_er,
    .summary = "two Empty Rectangles of the same box (option two-candidates=1 as for ERs)",
};

SDK_PLUGIN(&skyscraper, &two_string_kite, &dual_two_string_kite, &empty_rectangle,
           &dual_empty_rectangle, &sd_turbot_fish, &sd_x_chain)

/* ---- skyscraper ------------------------------------------------------- */

/* The two cells of digit d in house h (exactly two), in index order. */
static void pair_of(const sdk_grid *g, int d, int h, int out[2])
{
    sdk_bb in = sdk_house_digit(g, h, d);
    out[0] = sdk_bb_pop(&in);
    out[1] = sdk_bb_first(in);
}

/* order=hodoku: HoDoKu's search, whose first find it takes: rows for every
 * digit, then columns; of two strong links it joins only the first cells or
 * the last cells (in cell order), so a skyscraper whose base joins the first
 * cell of one link to the last of the other is left to later searches. */
static int find_skyscraper(const sdk_ctx *ctx, const sdk_grid *g, sdk_sink *sink)
{
    const char *order = sdk_opt(ctx, "order");
    bool hodoku = order && !strcmp(order, "hodoku");
    for (int outer = 0; outer < (hodoku ? 2 : 9); outer++) {
        for (int inner = 0; inner < (hodoku ? 9 : 2); inner++) {
            int d = hodoku ? inner + 1 : outer + 1;
            int type = hodoku ? SDK_ROW + outer : SDK_ROW + inner;
            unsigned lines = sdk_strong_houses(g, d, type);
            int other = type == SDK_ROW ? SDK_COL : SDK_ROW;
            for (int i = 0; i < 9; i++) {
                if (!(lines >> i & 1)) continue;
                int p[2];
                pair_of(g, d, type * 9 + i, p);
                for (int j = i + 1; j < 9; j++) {
                    if (!(lines >> j & 1)) continue;
                    int q[2];
                    pair_of(g, d, type * 9 + j, q);
                    for (int x = 0; x < 2; x++) {
                        for (int y = 0; y < 2; y++) {
                            if (hodoku && x != y) continue;
                            int b1 = p[x], b2 = q[y], e1 = p[1 - x], e2 = q[1 - y];
                            if (sdk_cell_house[b1][other] != sdk_cell_house[b2][other]) continue;
                            /* free ends on one line too: an X-Wing */
                            if (sdk_cell_house[e1][other] == sdk_cell_house[e2][other]) continue;
                            sdk_bb t = sdk_bb_and(sdk_bb_and(sdk_peer_bb[e1], sdk_peer_bb[e2]),
                                                  g->digit[d - 1]);
                            if (sdk_bb_empty(t)) continue;
                            sdk_step *s = sdk_scratch_step(ctx, 0);
                            char n1[8], n2[8], n3[8], n4[8];
                            sdk_step_init(s, &skyscraper);
                            sdk_step_elim_bb(s, g, t, d);
                            sdk_step_house(s, type * 9 + i, SDK_ROLE_BASE);
                            sdk_step_house(s, type * 9 + j, SDK_ROLE_BASE);
                            sdk_step_mark(s, e1, d, SDK_ROLE_PINCER);
                            sdk_step_mark(s, e2, d, SDK_ROLE_PINCER);
                            sdk_step_mark(s, b1, d, SDK_ROLE_BASE);
                            sdk_step_mark(s, b2, d, SDK_ROLE_BASE);
                            sdk_step_printf(s, "Skyscraper: %d in %s,%s (connected by %s,%s)", d,
                                            sdk_cell_name(e1, n1), sdk_cell_name(e2, n2),
                                            sdk_cell_name(b1, n3), sdk_cell_name(b2, n4));
                            if (sdk_emit(sink, s) == SDK_STOP) return SDK_STOP;
                        }
                    }
                }
            }
        }
    }
    return SDK_CONTINUE;
}

/* ---- 2-string kite ----------------------------------------------------- */

typedef struct kite {
    int rend, cend, rbox, cbox; /* free ends and box cells of the row and column links */
    int target;
} kite;

/* Every 2-String Kite of digit d; returns the count (at most max). */
static int kites_of(const sdk_grid *g, int d, kite *out, int max)
{
    unsigned rows = sdk_strong_houses(g, d, SDK_ROW);
    unsigned cols = sdk_strong_houses(g, d, SDK_COL);
    int n = 0;
    for (int r = 0; r < 9; r++) {
        if (!(rows >> r & 1)) continue;
        for (int c = 0; c < 9; c++) {
            if (!(cols >> c & 1)) continue;
            int p[2], q[2];
            pair_of(g, d, r, p);
            pair_of(g, d, 9 + c, q);
            if (p[0] == q[0] || p[0] == q[1] || p[1] == q[0] || p[1] == q[1]) continue;
            for (int k = 0; k < 4; k++) {
                int x = k >> 1, y = k & 1;
                if (sdk_box(p[x]) != sdk_box(q[y])) continue;
                int re = p[1 - x], ce = q[1 - y];
                int t = sdk_cell_at(sdk_row(ce), sdk_col(re));
                if (sdk_grid_has(g, t, d) && n < max) out[n++] = (kite){re, ce, p[x], q[y], t};
                break;
            }
        }
    }
    return n;
}

static void kite_text(sdk_step *s, const kite *k, int d, const char *name)
{
    char a[8], b[8], c[8], e[8];
    sdk_step_printf(s, "%s: %d in %s,%s (connected by %s,%s in box %d)", name, d,
                    sdk_cell_name(k->rend, a), sdk_cell_name(k->cend, b), sdk_cell_name(k->rbox, c),
                    sdk_cell_name(k->cbox, e), sdk_box(k->rbox) + 1);
}

static void kite_marks(sdk_step *s, const kite *k, int d)
{
    sdk_step_house(s, sdk_row(k->rend), SDK_ROLE_BASE);
    sdk_step_house(s, 9 + sdk_col(k->cend), SDK_ROLE_BASE);
    sdk_step_mark(s, k->rend, d, SDK_ROLE_PINCER);
    sdk_step_mark(s, k->cend, d, SDK_ROLE_PINCER);
    sdk_step_mark(s, k->rbox, d, SDK_ROLE_FIN);
    sdk_step_mark(s, k->cbox, d, SDK_ROLE_FIN);
}

static int find_kite(const sdk_ctx *ctx, const sdk_grid *g, sdk_sink *sink)
{
    kite k[81];
    for (int d = 1; d <= 9; d++) {
        int n = kites_of(g, d, k, 81);
        for (int i = 0; i < n; i++) {
            sdk_step *s = sdk_scratch_step(ctx, 0);
            sdk_step_init(s, &two_string_kite);
            sdk_step_elim(s, k[i].target, d);
            kite_marks(s, &k[i], d);
            kite_text(s, &k[i], d, two_string_kite.name);
            if (sdk_emit(sink, s) == SDK_STOP) return SDK_STOP;
        }
    }
    return SDK_CONTINUE;
}

static int find_dual_kite(const sdk_ctx *ctx, const sdk_grid *g, sdk_sink *sink)
{
    kite k[81];
    for (int d = 1; d <= 9; d++) {
        int n = kites_of(g, d, k, 81);
        for (int i = 0; i < n; i++) {
            for (int j = i + 1; j < n; j++) {
                bool same = (k[i].rbox == k[j].rbox && k[i].cbox == k[j].cbox) ||
                            (k[i].rbox == k[j].cbox && k[i].cbox == k[j].rbox);
                if (!same || k[i].target == k[j].target) continue;
                sdk_step *s = sdk_scratch_step(ctx, 0);
                char a[8], b[8];
                sdk_step_init(s, &dual_two_string_kite);
                sdk_step_elim(s, k[i].target, d);
                sdk_step_elim(s, k[j].target, d);
                kite_marks(s, &k[i], d);
                kite_marks(s, &k[j], d);
                kite_text(s, &k[i], d, dual_two_string_kite.name);
                sdk_step_printf(s, " / %s,%s", sdk_cell_name(k[j].rend, a),
                                sdk_cell_name(k[j].cend, b));
                if (sdk_emit(sink, s) == SDK_STOP) return SDK_STOP;
            }
        }
    }
    return SDK_CONTINUE;
}

/* ---- empty rectangle --------------------------------------------------- */

typedef struct er {
    int box, line, col; /* the box and its cross (row and column) */
    int a, b;           /* the conjugate pair outside the box */
    int target;
} er;

/* Every Empty Rectangle of digit d (HoDoKu's definition). */
static int ers_of(const sdk_grid *g, int d, bool two, er *out, int max)
{
    int n = 0;
    const sdk_bb cand = g->digit[d - 1];
    for (int box = 0; box < 9; box++) {
        sdk_bb inbox = sdk_bb_and(sdk_house_bb[18 + box], cand);
        int cnt = sdk_bb_count(inbox);
        if (cnt < 2 || cnt > 5) continue;
        int r0 = box / 3 * 3, c0 = box % 3 * 3;
        for (int lr = 0; lr < 3; lr++) {
            for (int lc = 0; lc < 3; lc++) {
                int line = r0 + lr, col = c0 + lc;
                sdk_bb cross = sdk_bb_or(sdk_house_bb[line], sdk_house_bb[9 + col]);
                if (!sdk_bb_empty(sdk_bb_andnot(inbox, cross))) continue;
                sdk_bb inrow = sdk_bb_and(inbox, sdk_house_bb[line]);
                sdk_bb incol = sdk_bb_and(inbox, sdk_house_bb[9 + col]);
                if (sdk_bb_empty(sdk_bb_andnot(inrow, sdk_house_bb[9 + col]))) continue;
                if (sdk_bb_empty(sdk_bb_andnot(incol, sdk_house_bb[line]))) continue;
                if (!two && sdk_bb_count(inrow) < 2 && sdk_bb_count(incol) < 2) continue;
                /* conjugate pair in a column, one end on the ER's row */
                for (int pass = 0; pass < 2; pass++) {
                    int h = pass == 0 ? line : 9 + col;
                    sdk_bb outside =
                        sdk_bb_andnot(sdk_bb_and(sdk_house_bb[h], cand), sdk_house_bb[18 + box]);
                    SDK_BB_FOREACH(x, outside) {
                        int ph = pass == 0 ? 9 + sdk_col(x) : sdk_row(x);
                        int y = sdk_strong_partner(g, d, x, ph);
                        if (y < 0) continue;
                        int t = pass == 0 ? sdk_cell_at(sdk_row(y), col)
                                          : sdk_cell_at(line, sdk_col(y));
                        if (sdk_box(t) == box || !sdk_grid_has(g, t, d)) continue;
                        if (n < max) out[n++] = (er){box, line, col, x, y, t};
                    }
                }
            }
        }
    }
    return n;
}

static void er_marks(sdk_step *s, const sdk_grid *g, const er *e, int d)
{
    sdk_step_house(s, 18 + e->box, SDK_ROLE_BASE);
    sdk_step_mark_bb(s, sdk_bb_and(sdk_house_bb[18 + e->box], g->digit[d - 1]), d, SDK_ROLE_FIN);
    sdk_step_mark(s, e->a, d, SDK_ROLE_PINCER);
    sdk_step_mark(s, e->b, d, SDK_ROLE_PINCER);
}

/* Every empty rectangle of the digits not in skip (bit d), in order; *first
 * gets the first digit that gave a step. */
static int er_search(const sdk_ctx *ctx, const sdk_grid *g, sdk_sink *sink, bool dual, bool two,
                     unsigned skip, int *first)
{
    er e[128];
    for (int d = 1; d <= 9; d++) {
        if (skip >> d & 1) continue;
        int n = ers_of(g, d, two, e, 128);
        for (int i = 0; i < n; i++) {
            char a[8], b[8], c[8], f[8];
            sdk_step *s = sdk_scratch_step(ctx, 0);
            if (!dual) {
                sdk_step_init(s, &empty_rectangle);
                sdk_step_elim(s, e[i].target, d);
                er_marks(s, g, &e[i], d);
                sdk_step_printf(s, "Empty Rectangle: %d in b%d (%s,%s)", d, e[i].box + 1,
                                sdk_cell_name(e[i].a, a), sdk_cell_name(e[i].b, b));
                if (*first == 10) *first = d;
                if (sdk_emit(sink, s) == SDK_STOP) return SDK_STOP;
                continue;
            }
            for (int j = i + 1; j < n; j++) {
                if (e[j].box != e[i].box || e[j].target == e[i].target) continue;
                sdk_step_init(s, &dual_empty_rectangle);
                sdk_step_elim(s, e[i].target, d);
                sdk_step_elim(s, e[j].target, d);
                er_marks(s, g, &e[i], d);
                sdk_step_mark(s, e[j].a, d, SDK_ROLE_PINCER);
                sdk_step_mark(s, e[j].b, d, SDK_ROLE_PINCER);
                sdk_step_printf(s, "Dual Empty Rectangle: %d in b%d (%s,%s / %s,%s)", d,
                                e[i].box + 1, sdk_cell_name(e[i].a, a), sdk_cell_name(e[i].b, b),
                                sdk_cell_name(e[j].a, c), sdk_cell_name(e[j].b, f));
                if (*first == 10) *first = d;
                if (sdk_emit(sink, s) == SDK_STOP) return SDK_STOP;
            }
        }
    }
    return SDK_CONTINUE;
}

/* Empty rectangles of digit d depend on d's candidates only: per thread and
 * technique (and option two-candidates), the digits before the first that
 * gave a step on an earlier grid, with the same candidates now, are skipped
 * (grid_memo.h, digit_memo). */
static _Thread_local digit_memo er_last[2][2]; /* [dual][slot] */

static int find_er(const sdk_ctx *ctx, const sdk_grid *g, sdk_sink *sink)
{
    bool dual = *(const bool *)ctx->self->data;
    bool two = sdk_opt_bool(ctx, "two-candidates", false);
    unsigned skip = digit_memo_begin(er_last[dual], g, two);
    int first = 10;
    int rc = er_search(ctx, g, sink, dual, two, skip, &first);
    digit_memo_end(er_last[dual], ctx, g, two, first);
    return rc;
}
