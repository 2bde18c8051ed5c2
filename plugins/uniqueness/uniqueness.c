/* uniqueness.c - techniques that rely on the puzzle having one solution:
 * Unique Rectangles types 1-6, Hidden Rectangle, Avoidable Rectangles types
 * 1-2 and BUG+1 (BUG+n, SE's BUG types 2-4, lives in bugn.c; Sudoku
 * Explainer's unique loops and hidden type 3 in loops.c). All flagged
 * SDK_TF_UNIQUENESS.
 *
 * A unique rectangle is four unsolved cells in two rows, two columns and two
 * boxes that could all end up holding only the digits a/b; the solution
 * cannot be like that (swapping a and b would give a second solution), so
 * something else must happen. The searches and the case analysis follow
 * HoDoKu's UniquenessSolver, so the regression library gives the same
 * instances:
 *  - the rectangle is found from a corner holding exactly {a,b}; the other
 *    corners hold both digits, or with option missing=1 (HoDoKu's "allow
 *    missing candidates", the default) only need both digits not yet ruled
 *    out by a placed digit they see;
 *  - "two" corners hold no other digit, "extra" corners do.
 * Option se=1 rates type 3 as Sudoku Explainer does (by the subset's size).
 * Avoidable rectangles use cells solved while solving (never givens): a
 * pattern of placed a/b that the open corners must not complete.
 */
#include <stdint.h>
#include <string.h>
#include "sudoku/technique.h"

extern const sdk_technique sdk_uniq_bugn; /* bugn.c */
extern const sdk_technique sdk_uniq_loop1, sdk_uniq_loop2, sdk_uniq_loop3, sdk_uniq_loop4,
    sdk_uniq_ur3h; /* loops.c */

/* Unique rectangles 1-6 and the hidden rectangle share one find, avoidable
 * rectangles another: the kind is the descriptor's data. */
enum { K_UR1, K_UR2, K_UR3, K_UR4, K_UR5, K_UR6, K_HR, K_AR1, K_AR2 };
static const int kinds[] = {K_UR1, K_UR2, K_UR3, K_UR4, K_UR5, K_UR6, K_HR, K_AR1, K_AR2};
static int find_ur(const sdk_ctx *, const sdk_grid *, sdk_sink *);
static int find_ar(const sdk_ctx *, const sdk_grid *, sdk_sink *);
static int find_bug1(const sdk_ctx *, const sdk_grid *, sdk_sink *);

#define UT(var, id_, name_, diff, fn, kind, sum)                                                   \
    static const sdk_technique var = {.abi = SDK_ABI_VERSION,                                      \
                                      .size = sizeof(sdk_technique),                               \
                                      .id = id_,                                                   \
                                      .name = name_,                                               \
                                      .difficulty = diff,                                          \
                                      .score = 100,                                                \
                                      .level = SDK_LEVEL_HARD,                                     \
                                      .flags = SDK_TF_UNIQUENESS,                                  \
                                      .find = fn,                                                  \
                                      .summary = sum,                                              \
                                      .data = &kinds[kind]};

UT(ur1, "unique-rectangle-1", "Uniqueness Test 1", 45, find_ur, K_UR1,
   "three corners hold only a/b: the fourth loses a and b")
UT(ur2, "unique-rectangle-2", "Uniqueness Test 2", 45, find_ur, K_UR2,
   "two corners in a line share one extra digit: it goes from cells seeing both")
UT(ur3, "unique-rectangle-3", "Uniqueness Test 3", 45, find_ur, K_UR3,
   "the extra digits of two corners form a naked subset with other cells of a house")
UT(ur4, "unique-rectangle-4", "Uniqueness Test 4", 45, find_ur, K_UR4,
   "one rectangle digit is locked in the two extra corners: they lose the other")
UT(ur5, "unique-rectangle-5", "Uniqueness Test 5", 45, find_ur, K_UR5,
   "diagonal or three corners share one extra digit: it goes from cells seeing them")
UT(ur6, "unique-rectangle-6", "Uniqueness Test 6", 45, find_ur, K_UR6,
   "a rectangle digit only in the rectangle in both rows and columns: diagonal corners "
   "lose it")
UT(hr, "hidden-rectangle", "Hidden Rectangle", 45, find_ur, K_HR,
   "strong links on a rectangle digit through the far corner: it loses the other digit")
UT(ar1, "avoidable-rectangle-1", "Avoidable Rectangle Type 1", 45, find_ar, K_AR1,
   "three corners solved (not givens): the fourth cannot complete the rectangle")
UT(ar2, "avoidable-rectangle-2", "Avoidable Rectangle Type 2", 45, find_ar, K_AR2,
   "two open corners share an extra digit: it goes from cells seeing both")

static const sdk_technique bug1 = {
    .abi = SDK_ABI_VERSION,
    .size = sizeof(sdk_technique),
    .id = "bug-plus-1",
    .name = "Bivalue Universal Grave + 1",
    .difficulty = 56,
    .score = 100,
    .level = SDK_LEVEL_HARD, /* HoDoKu's */
    .flags = SDK_TF_UNIQUENESS,
    .find = find_bug1,
    .summary = "all cells bivalue but one: it takes its third digit",
};

/* ---- rectangle enumeration ------------------------------------------------ */

typedef struct ur {
    int cell[4]; /* HoDoKu's order: start corner, its box partner, the two across */
    int sorted[4];
    int a, b;         /* the digits, a < b */
    int two[4], ntwo; /* corners holding only a/b (ascending) */
    int add[4], nadd; /* corners holding other digits (ascending) */
} ur;

typedef int (*ur_check)(const sdk_ctx *ctx, const sdk_grid *g, const ur *u, sdk_sink *sink);

static void sort4(int *v)
{
    for (int i = 1; i < 4; i++)
        for (int j = i; j > 0 && v[j - 1] > v[j]; j--) {
            int t = v[j];
            v[j] = v[j - 1];
            v[j - 1] = t;
        }
}

/* The digits a corner may hold, per cell: none when solved; with missing,
 * every digit no placed digit it sees rules out, else its candidates. A
 * cell is a corner for the pair a/b when it may hold both. */
static void corner_digits(const sdk_grid *g, bool missing, unsigned *may)
{
    unsigned placed[SDK_HOUSES];
    if (missing)
        for (int h = 0; h < SDK_HOUSES; h++) placed[h] = sdk_house_placed(g, h);
    for (int c = 0; c < 81; c++) {
        if (g->value[c])
            may[c] = 0;
        else if (missing)
            may[c] =
                SDK_ALL_DIGITS & ~(placed[sdk_cell_house[c][0]] | placed[sdk_cell_house[c][1]] |
                                   placed[sdk_cell_house[c][2]]);
        else
            may[c] = g->cand[c];
    }
}

/* The rectangles of one grid, in the order they are visited, per thread:
 * types 1-6 and the hidden rectangle run one after the other on the same
 * grid whenever the ones before find nothing, and the rectangles depend on
 * the grid (values, candidates) and option missing only, so they are found
 * once per grid. At most 81 corners with two digits, 4 box partners each
 * in line, 6 rectangles per partner. */
enum { UR_VISITS = 81 * 4 * 6 };

typedef struct ur_visit {
    uint8_t cell[4]; /* HoDoKu's order (ur.cell) */
    uint8_t a, b;
} ur_visit;

typedef struct ur_list {
    bool valid, missing;
    uint8_t value[SDK_CELLS];
    uint16_t cand[SDK_CELLS];
    int n;
    ur_visit visit[UR_VISITS];
} ur_list;

static _Thread_local ur_list ur_last;

/* The thread's list, its address taken out of line: in a plugin every read
 * of a thread-local variable is a call to __tls_get_addr, which GCC repeats
 * in for_each_ur's loop (after each check) rather than keep the address. */
static __attribute__((noinline)) ur_list *ur_list_mine(void)
{
    return &ur_last;
}

/* Every rectangle once per digit pair, in order: from each corner holding
 * exactly two digits, as HoDoKu does; a rectangle already seen with that
 * pair is skipped (the first 512 seen are remembered). */
static void list_urs(const sdk_grid *g, bool missing, ur_list *out)
{
    unsigned may[81];
    corner_digits(g, missing, may);
    struct {
        int cells[4], a, b;
    } seen[512];
    int nseen = 0;
    out->n = 0;
    for (int i11 = 0; i11 < 81; i11++) {
        if (g->value[i11] || sdk_mask_count(g->cand[i11]) != 2) continue;
        unsigned m = g->cand[i11];
        int a = sdk_mask_first(m), b = sdk_mask_first(m & (m - 1));
        int box = sdk_box(i11);
        for (int k = 0; k < 9; k++) {
            int i12 = sdk_house_cell[18 + box][k];
            if (i12 == i11) continue;
            bool lines = sdk_row(i12) == sdk_row(i11);
            if (!lines && sdk_col(i12) != sdk_col(i11)) continue;
            if ((may[i12] & m) != m) continue;
            int u1 = lines ? 9 + sdk_col(i11) : sdk_row(i11);
            int u2 = lines ? 9 + sdk_col(i12) : sdk_row(i12);
            for (int j = 0; j < 9; j++) {
                int i21 = sdk_house_cell[u1][j], i22 = sdk_house_cell[u2][j];
                if (sdk_box(i21) == box) continue;
                if ((may[i21] & m) != m || (may[i22] & m) != m) continue;
                int sorted[4] = {i11, i12, i21, i22};
                sort4(sorted);
                bool dup = false;
                for (int s = 0; s < nseen && !dup; s++)
                    dup = seen[s].a == a && seen[s].b == b &&
                          !memcmp(seen[s].cells, sorted, sizeof sorted);
                if (dup) continue;
                if (nseen < 512) {
                    memcpy(seen[nseen].cells, sorted, sizeof sorted);
                    seen[nseen].a = a;
                    seen[nseen].b = b;
                    nseen++;
                }
                out->visit[out->n++] =
                    (ur_visit){{(uint8_t)i11, (uint8_t)i12, (uint8_t)i21, (uint8_t)i22},
                               (uint8_t)a,
                               (uint8_t)b};
            }
        }
    }
}

/* Visit every rectangle of g (list_urs, kept per grid) with check. */
static int for_each_ur(const sdk_ctx *ctx, const sdk_grid *g, sdk_sink *sink, ur_check check)
{
    bool missing = sdk_opt_bool(ctx, "missing", true);
    ur_list *l = ur_list_mine();
    if (!l->valid || l->missing != missing || memcmp(l->value, g->value, sizeof l->value) ||
        memcmp(l->cand, g->cand, sizeof l->cand)) {
        l->valid = false; /* until the list is whole */
        list_urs(g, missing, l);
        l->missing = missing;
        memcpy(l->value, g->value, sizeof l->value);
        memcpy(l->cand, g->cand, sizeof l->cand);
        l->valid = true;
    }
    for (int i = 0; i < l->n; i++) {
        const ur_visit *v = &l->visit[i];
        ur u = {.cell = {v->cell[0], v->cell[1], v->cell[2], v->cell[3]}, .a = v->a, .b = v->b};
        memcpy(u.sorted, u.cell, sizeof u.sorted);
        sort4(u.sorted);
        unsigned urm = sdk_digit_bit(u.a) | sdk_digit_bit(u.b);
        for (int q = 0; q < 4; q++) {
            int c = u.sorted[q];
            if (g->cand[c] & ~urm)
                u.add[u.nadd++] = c;
            else
                u.two[u.ntwo++] = c;
        }
        if (check(ctx, g, &u, sink) == SDK_STOP) return SDK_STOP;
    }
    return SDK_CONTINUE;
}

/* Start a UR step: marks the rectangle and writes "Name: a/b in cells". */
static void ur_step(sdk_step *s, const sdk_technique *t, const sdk_grid *g, const ur *u)
{
    sdk_step_init(s, t);
    sdk_bb cells = sdk_bb_none();
    for (int q = 0; q < 4; q++) {
        int c = u->sorted[q];
        sdk_bb_add(&cells, c);
        sdk_step_mark(s, c, 0, SDK_ROLE_BASE);
        if (sdk_grid_has(g, c, u->a)) sdk_step_mark(s, c, u->a, SDK_ROLE_BASE);
        if (sdk_grid_has(g, c, u->b)) sdk_step_mark(s, c, u->b, SDK_ROLE_BASE);
    }
    char buf[64];
    sdk_step_printf(s, "%s: %d/%d in %s", t->name, u->a, u->b,
                    sdk_cells_compact(cells, buf, sizeof buf));
}

static void mark_targets(sdk_step *s)
{
    for (int i = 0; i < s->nelim; i++)
        sdk_step_mark(s, s->elim[i].cell, s->elim[i].digit, SDK_ROLE_TARGET);
}

static int ur_emit(sdk_sink *sink, sdk_step *s)
{
    if (sdk_step_empty(s)) return SDK_CONTINUE;
    mark_targets(s);
    return sdk_emit(sink, s);
}

/* ---- type 1 ---------------------------------------------------------------- */

static int check_ur1(const sdk_ctx *ctx, const sdk_grid *g, const ur *u, sdk_sink *sink)
{
    if (u->ntwo != 3) return SDK_CONTINUE;
    sdk_step *s = sdk_scratch_step(ctx, 0);
    ur_step(s, ctx->self, g, u);
    int c = u->add[0];
    if (sdk_grid_has(g, c, u->a)) sdk_step_elim(s, c, u->a);
    if (sdk_grid_has(g, c, u->b)) sdk_step_elim(s, c, u->b);
    return ur_emit(sink, s);
}

/* ---- types 2 and 5 ------------------------------------------------------------ */

static int check_ur25(const sdk_ctx *ctx, const sdk_grid *g, const ur *u, sdk_sink *sink,
                      bool type5)
{
    if (u->ntwo != 2 && u->ntwo != 1) return SDK_CONTINUE;
    unsigned urm = sdk_digit_bit(u->a) | sdk_digit_bit(u->b), addm = 0;
    sdk_bb see = {~0ULL, (1ULL << 17) - 1};
    for (int i = 0; i < u->nadd; i++) {
        addm |= g->cand[u->add[i]] & ~urm;
        see = sdk_bb_and(see, sdk_peer_bb[u->add[i]]);
    }
    if (sdk_mask_count(addm) != 1) return SDK_CONTINUE;
    int x = sdk_mask_first(addm);
    see = sdk_bb_and(see, g->digit[x - 1]);
    if (sdk_bb_empty(see)) return SDK_CONTINUE;
    int i1 = u->add[0], i2 = u->add[1];
    bool is5 = u->nadd == 3 || (sdk_row(i1) != sdk_row(i2) && sdk_col(i1) != sdk_col(i2));
    if (is5 != type5) return SDK_CONTINUE;
    sdk_step *s = sdk_scratch_step(ctx, 0);
    ur_step(s, ctx->self, g, u);
    sdk_step_elim_bb(s, g, see, x);
    for (int i = 0; i < u->nadd; i++) sdk_step_mark(s, u->add[i], x, SDK_ROLE_FIN);
    return ur_emit(sink, s);
}

static int check_ur2(const sdk_ctx *ctx, const sdk_grid *g, const ur *u, sdk_sink *sink)
{
    return check_ur25(ctx, g, u, sink, false);
}

static int check_ur5(const sdk_ctx *ctx, const sdk_grid *g, const ur *u, sdk_sink *sink)
{
    return check_ur25(ctx, g, u, sink, true);
}

/* ---- type 3 ---------------------------------------------------------------- */

typedef struct u3 {
    const sdk_ctx *ctx;
    const sdk_grid *g;
    const ur *u;
    sdk_sink *sink;
    int house, type; /* house index, SDK_ROW/COL/BOX */
    int cand[9], ncand;
} u3;

static bool same_line(const int *cells, int n)
{
    bool row = true, col = true;
    for (int i = 1; i < n; i++) {
        row &= sdk_row(cells[i]) == sdk_row(cells[0]);
        col &= sdk_col(cells[i]) == sdk_col(cells[0]);
    }
    return row || col;
}

static int u3_rec(u3 *w, int *cells, int n, unsigned cands, int start)
{
    const sdk_grid *g = w->g;
    for (int i = start; i < w->ncand; i++) {
        cells[n] = w->cand[i];
        unsigned cm = cands | g->cand[w->cand[i]];
        int nn = n + 1;
        if ((w->type != SDK_BOX || !same_line(cells, nn)) && sdk_mask_count(cm) == nn - 1) {
            sdk_step *s = sdk_scratch_step(w->ctx, 0);
            ur_step(s, w->ctx->self, g, w->u);
            sdk_bb in = sdk_bb_none();
            for (int k = 0; k < nn; k++) sdk_bb_add(&in, cells[k]);
            for (int k = 0; k < 9; k++) {
                int c = sdk_house_cell[w->house][k];
                if (g->value[c] || sdk_bb_has(in, c)) continue;
                SDK_MASK_FOREACH(d, g->cand[c] & cm) sdk_step_elim(s, c, d);
            }
            if (!sdk_step_empty(s)) {
                if (w->type != SDK_BOX) {
                    int box = sdk_box(cells[0]);
                    bool onebox = true;
                    for (int k = 1; k < nn; k++) onebox &= sdk_box(cells[k]) == box;
                    if (onebox) {
                        for (int k = 0; k < 9; k++) {
                            int c = sdk_house_cell[18 + box][k];
                            if (g->value[c] || sdk_bb_has(in, c)) continue;
                            SDK_MASK_FOREACH(d, g->cand[c] & cm) sdk_step_elim(s, c, d);
                        }
                    }
                }
                for (int k = 0; k < nn; k++)
                    SDK_MASK_FOREACH(d, g->cand[cells[k]] & cm)
                        sdk_step_mark(s, cells[k], d, SDK_ROLE_FIN);
                sdk_step_house(s, w->house, SDK_ROLE_COVER);
                char buf[32], hn[12];
                sdk_bb sub = sdk_bb_andnot(
                    in, sdk_bb_or(sdk_bb_cell(w->u->add[0]), sdk_bb_cell(w->u->add[1])));
                sdk_step_printf(s, " (naked subset with %s in %s)",
                                sdk_cells_compact(sub, buf, sizeof buf),
                                sdk_house_name(w->house, hn));
                if (ur_emit(w->sink, s) == SDK_STOP) return SDK_STOP;
            }
        }
        if (u3_rec(w, cells, nn, cm, i + 1) == SDK_STOP) return SDK_STOP;
    }
    return SDK_CONTINUE;
}

static int check_ur3(const sdk_ctx *ctx, const sdk_grid *g, const ur *u, sdk_sink *sink)
{
    if (u->ntwo != 2) return SDK_CONTINUE;
    unsigned urm = sdk_digit_bit(u->a) | sdk_digit_bit(u->b);
    unsigned u3c = (g->cand[u->add[0]] | g->cand[u->add[1]]) & ~urm;
    int i1 = u->add[0], i2 = u->add[1];
    int houses[3], types[3], nh = 0;
    if (sdk_row(i1) == sdk_row(i2)) houses[nh] = sdk_row(i1), types[nh++] = SDK_ROW;
    if (sdk_col(i1) == sdk_col(i2)) houses[nh] = 9 + sdk_col(i1), types[nh++] = SDK_COL;
    if (sdk_box(i1) == sdk_box(i2)) houses[nh] = 18 + sdk_box(i1), types[nh++] = SDK_BOX;
    for (int h = 0; h < nh; h++) {
        u3 w = {.ctx = ctx, .g = g, .u = u, .sink = sink, .house = houses[h], .type = types[h]};
        for (int k = 0; k < 9; k++) {
            int c = sdk_house_cell[houses[h]][k];
            bool inur = false;
            for (int q = 0; q < 4; q++) inur |= u->cell[q] == c;
            if (!g->value[c] && (g->cand[c] & urm) == 0 && !inur) w.cand[w.ncand++] = c;
        }
        if (!w.ncand) continue;
        int cells[12] = {i1, i2};
        if (u3_rec(&w, cells, 2, u3c, 0) == SDK_STOP) return SDK_STOP;
    }
    return SDK_CONTINUE;
}

/* ---- type 4 ---------------------------------------------------------------- */

static int check_ur4(const sdk_ctx *ctx, const sdk_grid *g, const ur *u, sdk_sink *sink)
{
    if (u->ntwo != 2) return SDK_CONTINUE;
    int i1 = u->add[0], i2 = u->add[1];
    if (sdk_row(i1) != sdk_row(i2) && sdk_col(i1) != sdk_col(i2)) return SDK_CONTINUE;
    sdk_bb both = sdk_bb_and(sdk_peer_bb[i1], sdk_peer_bb[i2]);
    int del = -1, locked = -1;
    if (sdk_bb_empty(sdk_bb_and(both, g->digit[u->a - 1])))
        del = u->b, locked = u->a;
    else if (sdk_bb_empty(sdk_bb_and(both, g->digit[u->b - 1])))
        del = u->a, locked = u->b;
    if (del < 0) return SDK_CONTINUE;
    sdk_step *s = sdk_scratch_step(ctx, 0);
    ur_step(s, ctx->self, g, u);
    if (sdk_grid_has(g, i1, del)) sdk_step_elim(s, i1, del);
    if (sdk_grid_has(g, i2, del)) sdk_step_elim(s, i2, del);
    if (sdk_grid_has(g, i1, locked)) sdk_step_mark(s, i1, locked, SDK_ROLE_FIN);
    if (sdk_grid_has(g, i2, locked)) sdk_step_mark(s, i2, locked, SDK_ROLE_FIN);
    return ur_emit(sink, s);
}

/* ---- type 6 ---------------------------------------------------------------- */

static int check_ur6(const sdk_ctx *ctx, const sdk_grid *g, const ur *u, sdk_sink *sink)
{
    if (u->ntwo != 2) return SDK_CONTINUE;
    int i1 = u->add[0], i2 = u->add[1];
    if (sdk_row(i1) == sdk_row(i2) || sdk_col(i1) == sdk_col(i2)) return SDK_CONTINUE;
    sdk_bb lines = sdk_bb_or(sdk_bb_or(sdk_house_bb[sdk_row(i1)], sdk_house_bb[9 + sdk_col(i1)]),
                             sdk_bb_or(sdk_house_bb[sdk_row(i2)], sdk_house_bb[9 + sdk_col(i2)]));
    for (int q = 0; q < 4; q++) sdk_bb_del(&lines, u->cell[q]);
    int del = -1;
    if (sdk_bb_empty(sdk_bb_and(lines, g->digit[u->a - 1])))
        del = u->a;
    else if (sdk_bb_empty(sdk_bb_and(lines, g->digit[u->b - 1])))
        del = u->b;
    if (del < 0) return SDK_CONTINUE;
    sdk_step *s = sdk_scratch_step(ctx, 0);
    ur_step(s, ctx->self, g, u);
    if (sdk_grid_has(g, i1, del)) sdk_step_elim(s, i1, del);
    if (sdk_grid_has(g, i2, del)) sdk_step_elim(s, i2, del);
    return ur_emit(sink, s);
}

/* ---- hidden rectangle ---------------------------------------------------------- */

static int hr_cand(const sdk_ctx *ctx, const sdk_grid *g, const ur *u, sdk_sink *sink, int line,
                   int col, int d1, int d2)
{
    sdk_bb rect = sdk_bb_none();
    for (int q = 0; q < 4; q++) sdk_bb_add(&rect, u->cell[q]);
    if (!sdk_bb_empty(sdk_bb_andnot(sdk_house_digit(g, line, d1), rect))) return SDK_CONTINUE;
    if (!sdk_bb_empty(sdk_bb_andnot(sdk_house_digit(g, 9 + col, d1), rect))) return SDK_CONTINUE;
    int del = sdk_cell_at(line, col);
    if (!sdk_grid_has(g, del, d2)) return SDK_CONTINUE;
    sdk_step *s = sdk_scratch_step(ctx, 0);
    ur_step(s, ctx->self, g, u);
    sdk_step_elim(s, del, d2);
    sdk_step_house(s, line, SDK_ROLE_BASE);
    sdk_step_house(s, 9 + col, SDK_ROLE_BASE);
    return ur_emit(sink, s);
}

static int hr_corner(const sdk_ctx *ctx, const sdk_grid *g, const ur *u, sdk_sink *sink, int corner)
{
    int i1 = u->add[0], i2 = u->add[1];
    int line = sdk_row(i1) == sdk_row(corner) ? sdk_row(i2) : sdk_row(i1);
    int col = sdk_col(i1) == sdk_col(corner) ? sdk_col(i2) : sdk_col(i1);
    if (hr_cand(ctx, g, u, sink, line, col, u->a, u->b) == SDK_STOP) return SDK_STOP;
    return hr_cand(ctx, g, u, sink, line, col, u->b, u->a);
}

static int check_hr(const sdk_ctx *ctx, const sdk_grid *g, const ur *u, sdk_sink *sink)
{
    if (u->ntwo != 2 && u->ntwo != 1) return SDK_CONTINUE;
    if (u->ntwo == 2) {
        int i1 = u->two[0], i2 = u->two[1];
        if (sdk_row(i1) == sdk_row(i2) || sdk_col(i1) == sdk_col(i2)) return SDK_CONTINUE;
    }
    if (hr_corner(ctx, g, u, sink, u->two[0]) == SDK_STOP) return SDK_STOP;
    if (u->ntwo == 2) return hr_corner(ctx, g, u, sink, u->two[1]);
    return SDK_CONTINUE;
}

/* Option se=1: Sudoku Explainer's rating of type 3, 4.5 plus 0.1 for each
 * digit of the naked subset beyond the first (a pair 4.6, a quad 4.8). The
 * subset's cells are the ones marked as fins (the two extra corners count as
 * one cell of the subset). */
typedef struct se_ur3_sink {
    sdk_sink *next;
    sdk_step *scratch;
} se_ur3_sink;

static int se_ur3_emit(void *ctx, const sdk_step *s)
{
    se_ur3_sink *w = ctx;
    sdk_bb cells = sdk_bb_none();
    for (int i = 0; i < s->nmark; i++)
        if (s->mark[i].role == SDK_ROLE_FIN) sdk_bb_add(&cells, s->mark[i].cell);
    int digits = sdk_bb_count(cells) - 1;
    *w->scratch = *s;
    w->scratch->difficulty += digits > 1 ? digits - 1 : 0;
    return w->next->emit(w->next->ctx, w->scratch);
}

static int find_ur(const sdk_ctx *ctx, const sdk_grid *g, sdk_sink *sink)
{
    static const ur_check checks[] = {check_ur1, check_ur2, check_ur3, check_ur4,
                                      check_ur5, check_ur6, check_hr};
    const sdk_technique *t = ctx->self;
    int type = *(const int *)t->data;
    if (checks[type] == check_ur3 && sdk_opt_bool(ctx, "se", false)) {
        /* check_ur3 builds in scratch step 0, the adjusted copy goes in 1 */
        se_ur3_sink w = {sink, sdk_scratch_step(ctx, 1)};
        sdk_sink adjusted = {se_ur3_emit, &w};
        return for_each_ur(ctx, g, &adjusted, check_ur3);
    }
    return for_each_ur(ctx, g, sink, checks[type]);
}

/* ---- avoidable rectangles -------------------------------------------------------
 * i11 and i12 are solved (not givens) in one box, holding a and b; across
 * from them i21 (must not become b) and i22 (must not become a). */

static bool placed(const sdk_grid *g, int c, int d)
{
    return g->value[c] == d && !g->given[c];
}
static bool open2(const sdk_grid *g, int c, int d)
{
    return !g->value[c] && sdk_grid_has(g, c, d) && sdk_mask_count(g->cand[c]) == 2;
}

static int find_ar(const sdk_ctx *ctx, const sdk_grid *g, sdk_sink *sink)
{
    const sdk_technique *t = ctx->self;
    bool type2 = *(const int *)t->data == K_AR2;
    struct {
        int cells[4];
    } seen[512];
    int nseen = 0;
    for (int i11 = 0; i11 < 81; i11++) {
        if (!g->value[i11] || g->given[i11]) continue;
        int a = g->value[i11], box = sdk_box(i11);
        for (int k = 0; k < 9; k++) {
            int i12 = sdk_house_cell[18 + box][k];
            if (i12 == i11 || !g->value[i12] || g->given[i12]) continue;
            bool lines = sdk_row(i12) == sdk_row(i11);
            if (!lines && sdk_col(i12) != sdk_col(i11)) continue;
            int b = g->value[i12];
            int u1 = lines ? 9 + sdk_col(i11) : sdk_row(i11);
            int u2 = lines ? 9 + sdk_col(i12) : sdk_row(i12);
            for (int j = 0; j < 9; j++) {
                int i21 = sdk_house_cell[u1][j], i22 = sdk_house_cell[u2][j];
                if (sdk_box(i21) == box) continue;
                bool ok = (placed(g, i21, b) && open2(g, i22, a)) ||
                          (placed(g, i22, a) && open2(g, i21, b)) ||
                          (open2(g, i21, b) && open2(g, i22, a));
                if (!ok) continue;
                int srt[4] = {i11, i12, i21, i22};
                sort4(srt);
                bool dup = false;
                for (int s = 0; s < nseen && !dup; s++)
                    dup = !memcmp(seen[s].cells, srt, sizeof srt);
                if (dup) continue;
                if (nseen < 512) memcpy(seen[nseen++].cells, srt, sizeof srt);
                sdk_step *s = sdk_scratch_step(ctx, 0);
                sdk_step_init(s, t);
                sdk_bb cells = sdk_bb_none();
                for (int q = 0; q < 4; q++) {
                    sdk_bb_add(&cells, srt[q]);
                    sdk_step_mark(s, srt[q], 0, SDK_ROLE_BASE);
                }
                int lo = a < b ? a : b, hi = a < b ? b : a;
                char buf[64];
                sdk_step_printf(s, "%s: %d/%d in %s", t->name, lo, hi,
                                sdk_cells_compact(cells, buf, sizeof buf));
                if (g->value[i21] || g->value[i22]) {
                    if (type2) continue;
                    if (g->value[i21]) {
                        if (sdk_grid_has(g, i22, a)) sdk_step_elim(s, i22, a);
                    } else if (sdk_grid_has(g, i21, b)) {
                        sdk_step_elim(s, i21, b);
                    }
                } else {
                    if (!type2) continue;
                    int x = sdk_mask_first(g->cand[i21] & ~sdk_digit_bit(b));
                    if (!sdk_grid_has(g, i22, x)) continue;
                    sdk_bb el =
                        sdk_bb_and(sdk_bb_and(sdk_peer_bb[i21], sdk_peer_bb[i22]), g->digit[x - 1]);
                    if (sdk_bb_empty(el)) continue;
                    sdk_step_elim_bb(s, g, el, x);
                    sdk_step_mark(s, i21, x, SDK_ROLE_FIN);
                    sdk_step_mark(s, i22, x, SDK_ROLE_FIN);
                }
                if (ur_emit(sink, s) == SDK_STOP) return SDK_STOP;
            }
        }
    }
    return SDK_CONTINUE;
}

/* ---- BUG+1 --------------------------------------------------------------------
 * Every unsolved cell holds two digits but one, which holds three; every digit
 * appears twice in each house but one digit thrice in that cell's row, column
 * and box. Without that digit in that cell the grid would be a deadly BUG
 * (no cell with one candidate, no digit once in a house: those are singles). */

static int find_bug1(const sdk_ctx *ctx, const sdk_grid *g, sdk_sink *sink)
{
    int c3 = -1;
    for (int c = 0; c < 81; c++) {
        if (g->value[c]) continue;
        int n = sdk_mask_count(g->cand[c]);
        if (n > 3 || n < 2) return SDK_CONTINUE; /* a pending naked single: no BUG */
        if (n == 3) {
            if (c3 >= 0) return SDK_CONTINUE;
            c3 = c;
        }
    }
    if (c3 < 0) return SDK_CONTINUE;
    int d3 = -1, hh[3] = {-1, -1, -1};
    for (int h = 0; h < SDK_HOUSES; h++)
        for (int d = 1; d <= 9; d++) {
            int n = sdk_bb_count(sdk_house_digit(g, h, d));
            /* HoDoKu allows 1 here (singles always ran before); the BUG
             * argument needs every digit twice, so a hidden single means no BUG */
            if (n > 3 || n == 1) return SDK_CONTINUE;
            if (n == 3) {
                if (hh[h / 9] != -1 || (d3 != -1 && d3 != d)) return SDK_CONTINUE;
                d3 = d;
                hh[h / 9] = h;
            }
        }
    if (d3 < 0 || !sdk_grid_has(g, c3, d3)) return SDK_CONTINUE;
    for (int k = 0; k < 3; k++)
        if (sdk_cell_house[c3][k] != hh[k]) return SDK_CONTINUE;
    sdk_step *s = sdk_scratch_step(ctx, 0);
    sdk_step_init(s, &bug1);
    SDK_MASK_FOREACH(d, g->cand[c3])
        if (d != d3) sdk_step_elim(s, c3, d);
    sdk_step_mark(s, c3, d3, SDK_ROLE_ON);
    for (int k = 0; k < 3; k++) sdk_step_house(s, hh[k], SDK_ROLE_BASE);
    char nm[8];
    sdk_step_printf(s, "Bivalue Universal Grave + 1: %s=%d", sdk_cell_name(c3, nm), d3);
    return ur_emit(sink, s);
}

SDK_PLUGIN(&ur1, &ur2, &ur3, &ur4, &ur5, &ur6, &hr, &ar1, &ar2, &bug1, &sdk_uniq_bugn,
           &sdk_uniq_loop1, &sdk_uniq_loop2, &sdk_uniq_loop3, &sdk_uniq_loop4, &sdk_uniq_ur3h)
