/* loops.c - Sudoku Explainer's unique loops: the rectangle's idea on a longer
 * closed chain of cells, and its hidden type 3.
 *
 * A unique loop on digits a/b is a closed chain of cells, each holding a and
 * b, where consecutive cells share a house and every house the loop touches
 * holds exactly two of its cells, one at an even and one at an odd position.
 * If every cell ended up with a or b, they would alternate around the loop
 * and swapping a and b would give a second solution: so in a puzzle with one
 * solution some cell of the loop takes another digit. The cells holding only
 * a/b cannot; the others ("extra" cells) decide, exactly as for a unique
 * rectangle:
 *  - type 1: one extra cell: it loses a and b;
 *  - type 2: the extra cells share one extra digit x (and hold nothing else
 *    beyond a/b): one of them is x, so x goes from the cells seeing them all;
 *  - type 3: two extra cells c1, c2 in one house act as one cell holding
 *    their extra digits; with other cells of the house they form a naked
 *    subset (naked type 3), or - since c1 and c2 together hold at most one of
 *    a/b - a and b with degree-2 other digits are confined to degree cells of
 *    the house counting c1/c2 as one (hidden type 3): those cells lose every
 *    other digit;
 *  - type 4: two extra cells in one house where a has no other place: one of
 *    them is a, so neither can be b (the other is then not a/b), both lose b.
 *
 * The search is Sudoku Explainer's (UniqueLoops, read to learn the rule): from
 * every cell holding exactly {a,b}, a depth-first walk to cells holding a and b
 * through a house of another type than the previous step (houses in the order
 * box, row, column; cells in house order), at most two extra cells unless all
 * extra cells share one single extra digit; a walk back to the first cell with
 * four or more cells is a loop, kept if it passes the house/parity test. Its
 * rating: 4.5, +0.1 for 6-7 cells, +0.2 for 8-9, +0.5 for 10 or more (SE adds
 * 0.3 and 0.2 there); naked type 3 +0.1 per subset digit beyond the first,
 * hidden type 3 +0.1 per hidden cell beyond the first outside c1/c2.
 *
 * The rectangles themselves (four cells) are uniqueness.c's unique-rectangle
 * 1-4; this file adds the loops of six or more cells (unique-loop-1 .. -4)
 * and the rectangles' hidden type 3 (unique-rectangle-3-hidden). Every
 * technique here is flagged SDK_TF_UNIQUENESS.
 */
#include <string.h>
#include "sudoku/technique.h"

typedef struct loopdef {
    int type;           /* 1..4 */
    int min_len;        /* loop cells, at least */
    int max_len;        /* at most */
    bool naked, hidden; /* type 3: which subsets */
} loopdef;

static int find_loops(const sdk_ctx *, const sdk_grid *, sdk_sink *);

#define LOOP(var, id_, name_, type_, min_, max_, naked_, hidden_, sum)                             \
    static const loopdef def_##var = {type_, min_, max_, naked_, hidden_};                         \
    const sdk_technique var = {.abi = SDK_ABI_VERSION,                                             \
                               .size = sizeof(sdk_technique),                                      \
                               .id = id_,                                                          \
                               .name = name_,                                                      \
                               .difficulty = 45,                                                   \
                               .score = 100,                                                       \
                               .level = SDK_LEVEL_HARD,                                            \
                               .flags = SDK_TF_UNIQUENESS,                                         \
                               .find = find_loops,                                                 \
                               .summary = sum,                                                     \
                               .data = &def_##var};

LOOP(sdk_uniq_loop1, "unique-loop-1", "Unique Loop type 1", 1, 6, 81, false, false,
     "a loop of 6+ cells on a/b with one extra cell: it loses a and b")
LOOP(sdk_uniq_loop2, "unique-loop-2", "Unique Loop type 2", 2, 6, 81, false, false,
     "the loop's extra cells share one extra digit: it goes from cells seeing them all")
LOOP(sdk_uniq_loop3, "unique-loop-3", "Unique Loop type 3", 3, 6, 81, true, true,
     "the loop's two extra cells form a naked or hidden subset with cells of their house")
LOOP(sdk_uniq_loop4, "unique-loop-4", "Unique Loop type 4", 4, 6, 81, false, false,
     "a loop digit is locked in the two extra cells' house: they lose the other")
LOOP(sdk_uniq_ur3h, "unique-rectangle-3-hidden", "Unique Rectangle type 3 (hidden)", 3, 4, 4, false,
     true,
     "a/b and other digits confined to as many cells of the extra corners' house: "
     "those cells lose the rest")

/* ---- the walk ------------------------------------------------------------ */

typedef struct walk {
    const sdk_ctx *ctx;
    const loopdef *def;
    const sdk_grid *g;
    sdk_sink *sink;
    int a, b;
    unsigned pair;
    int loop[SDK_CELLS], n;
    sdk_bb in;
    int stop;
    bool any; /* a closed walk passed SE's loop test, whatever its type */
} walk;

/* The walk does not depend on the type, and the five techniques of this file
 * run one after the other on the same position: each thread remembers the
 * last position in which the walk closed no loop at all, so the next types
 * skip it there (the steps are the same; SE's default profile spent a third
 * of some puzzles' time in five identical walks). */
static _Thread_local struct {
    bool have;
    uint8_t value[SDK_CELLS];
    uint16_t cand[SDK_CELLS];
} no_loop;

static bool same_position(const sdk_grid *g)
{
    return no_loop.have && !memcmp(no_loop.cand, g->cand, sizeof no_loop.cand) &&
           !memcmp(no_loop.value, g->value, sizeof no_loop.value);
}

/* SE's house order: box, row, column. */
static const int type_order[3] = {SDK_BOX, SDK_ROW, SDK_COL};

static bool open_cell(const sdk_grid *g, int c)
{
    return !g->value[c];
}

/* Every house touched by exactly two loop cells, one even, one odd. */
static bool valid_loop(const walk *w)
{
    uint32_t seen[2] = {0, 0};
    for (int i = 0; i < w->n; i++)
        for (int k = 0; k < 3; k++) {
            uint32_t bit = 1u << sdk_cell_house[w->loop[i]][k];
            if (seen[i & 1] & bit) return false;
            seen[i & 1] |= bit;
        }
    return seen[0] == seen[1];
}

static int loop_bonus(int n)
{
    return n >= 10 ? 5 : n >= 8 ? 2 : n >= 6 ? 1 : 0;
}

/* Start a step: loop cells marked, "Name: a/b in r1c1,r1c5,.." in loop order. */
static void loop_step(const walk *w, sdk_step *s, int extra_tenths)
{
    sdk_step_init(s, w->ctx->self);
    s->difficulty += loop_bonus(w->n) + extra_tenths;
    sdk_step_printf(s, "%s: %d/%d in ", w->ctx->self->name, w->a, w->b);
    for (int i = 0; i < w->n; i++) {
        char name[8];
        int c = w->loop[i];
        sdk_step_printf(s, "%s%s", i ? "," : "", sdk_cell_name(c, name));
        sdk_step_mark(s, c, 0, SDK_ROLE_BASE);
        sdk_step_mark(s, c, w->a, SDK_ROLE_BASE);
        sdk_step_mark(s, c, w->b, SDK_ROLE_BASE);
    }
}

static int loop_emit(walk *w, sdk_step *s)
{
    if (sdk_step_empty(s)) return SDK_CONTINUE;
    for (int i = 0; i < s->nelim; i++)
        sdk_step_mark(s, s->elim[i].cell, s->elim[i].digit, SDK_ROLE_TARGET);
    if (sdk_emit(w->sink, s) == SDK_STOP) w->stop = 1;
    return w->stop ? SDK_STOP : SDK_CONTINUE;
}

static void mark_extras(sdk_step *s, const sdk_grid *g, const int *cells, int n, unsigned pair)
{
    for (int i = 0; i < n; i++)
        SDK_MASK_FOREACH(d, g->cand[cells[i]] & ~pair) sdk_step_mark(s, cells[i], d, SDK_ROLE_FIN);
}

static void type1(walk *w, int x)
{
    sdk_step *s = sdk_scratch_step(w->ctx, 0);
    loop_step(w, s, 0);
    sdk_step_elim(s, x, w->a);
    sdk_step_elim(s, x, w->b);
    mark_extras(s, w->g, &x, 1, w->pair);
    loop_emit(w, s);
}

static void type2(walk *w, const int *ex, int nex)
{
    const sdk_grid *g = w->g;
    int x = sdk_mask_first(g->cand[ex[0]] & ~w->pair);
    sdk_bb see = sdk_peer_bb[ex[0]];
    for (int i = 1; i < nex; i++) see = sdk_bb_and(see, sdk_peer_bb[ex[i]]);
    sdk_step *s = sdk_scratch_step(w->ctx, 0);
    loop_step(w, s, 0);
    SDK_BB_FOREACH(c, sdk_bb_and(see, g->digit[x - 1])) sdk_step_elim(s, c, x);
    mark_extras(s, g, ex, nex, w->pair);
    loop_emit(w, s);
}

/* Houses shared by c1 and c2, in SE's order. */
static int shared_houses(int c1, int c2, int *out)
{
    int n = 0;
    for (int k = 0; k < 3; k++) {
        int t = type_order[k];
        if (sdk_cell_house[c1][t] == sdk_cell_house[c2][t]) out[n++] = sdk_cell_house[c1][t];
    }
    return n;
}

static int empty_cells(const sdk_grid *g, int h)
{
    int n = 0;
    for (int k = 0; k < 9; k++) n += open_cell(g, sdk_house_cell[h][k]);
    return n;
}

/* Naked type 3: c1/c2 as one cell holding `extra`, with degree-1 other cells
 * of house h (each with two or more candidates) holding degree digits in all.
 * SE also asks that the digits common to c1 and c2 with the other cells'
 * make all degree digits. */
typedef struct naked {
    walk *w;
    int h, c1, c2, degree;
    unsigned extra, common;
    int pick[9], npick;
} naked;

static void naked_check(naked *k)
{
    const sdk_grid *g = k->w->g;
    unsigned all = k->extra, with_common = k->common;
    for (int i = 0; i < k->npick; i++) {
        all |= g->cand[k->pick[i]];
        with_common |= g->cand[k->pick[i]];
    }
    if (sdk_mask_count(all) != k->degree || sdk_mask_count(with_common) != k->degree) return;
    sdk_step *s = sdk_scratch_step(k->w->ctx, 0);
    loop_step(k->w, s, k->degree - 1);
    for (int j = 0; j < 9; j++) {
        int c = sdk_house_cell[k->h][j];
        bool inset = c == k->c1 || c == k->c2;
        for (int i = 0; i < k->npick; i++) inset |= c == k->pick[i];
        if (inset || !open_cell(g, c)) continue;
        SDK_MASK_FOREACH(d, g->cand[c] & all) sdk_step_elim(s, c, d);
    }
    int ex[2] = {k->c1, k->c2};
    mark_extras(s, g, ex, 2, k->w->pair);
    for (int i = 0; i < k->npick; i++)
        SDK_MASK_FOREACH(d, g->cand[k->pick[i]] & all)
            sdk_step_mark(s, k->pick[i], d, SDK_ROLE_FIN);
    sdk_step_house(s, k->h, SDK_ROLE_COVER);
    char hn[12];
    sdk_step_printf(s, " (naked set of %d in %s)", k->degree, sdk_house_name(k->h, hn));
    loop_emit(k->w, s);
}

static void naked_rec(naked *k, int from)
{
    if (k->w->stop) return;
    if (k->npick == k->degree - 1) {
        naked_check(k);
        return;
    }
    for (int j = from; j < 9 && !k->w->stop; j++) {
        int c = sdk_house_cell[k->h][j];
        if (c == k->c1 || c == k->c2 || !open_cell(k->w->g, c)) continue;
        if (sdk_mask_count(k->w->g->cand[c]) < 2) continue;
        k->pick[k->npick++] = c;
        naked_rec(k, j + 1);
        k->npick--;
    }
}

/* Hidden type 3: a, b and degree-2 digits outside c1/c2's extras, each with a
 * place in house h (c2's place counted as c1's), in degree places in all. */
static void hidden_check(walk *w, int h, int c1, int c2, int degree, unsigned digits)
{
    const sdk_grid *g = w->g;
    unsigned places = 0; /* bit per house position */
    int i1 = -1;
    for (int j = 0; j < 9; j++) {
        int c = sdk_house_cell[h][j];
        if (c == c1) i1 = j;
    }
    SDK_MASK_FOREACH(d, digits) {
        unsigned p = 0;
        for (int j = 0; j < 9; j++) {
            int c = sdk_house_cell[h][j];
            if (c != c2 && open_cell(g, c) && sdk_grid_has(g, c, d)) p |= 1u << j;
        }
        if (!p) return;
        places |= p;
    }
    if (sdk_mask_count(places) != degree) return;
    places &= ~(1u << i1);
    sdk_step *s = sdk_scratch_step(w->ctx, 0);
    loop_step(w, s, sdk_mask_count(places) - 1);
    for (int j = 0; j < 9; j++) {
        if (!(places >> j & 1)) continue;
        int c = sdk_house_cell[h][j];
        SDK_MASK_FOREACH(d, g->cand[c] & ~digits) sdk_step_elim(s, c, d);
        SDK_MASK_FOREACH(d, g->cand[c] & digits) sdk_step_mark(s, c, d, SDK_ROLE_FIN);
    }
    int ex[2] = {c1, c2};
    mark_extras(s, g, ex, 2, w->pair);
    sdk_step_house(s, h, SDK_ROLE_COVER);
    char hn[12];
    sdk_step_printf(s, " (hidden set of %d in %s)", degree, sdk_house_name(h, hn));
    loop_emit(w, s);
}

/* Choose `left` more digits of `pool` (ascending from `from`). */
static void hidden_rec(walk *w, int h, int c1, int c2, int degree, unsigned pool, unsigned chosen,
                       int left, int from)
{
    if (w->stop) return;
    if (left == 0) {
        hidden_check(w, h, c1, c2, degree, chosen | w->pair);
        return;
    }
    for (int d = from; d <= 9 && !w->stop; d++)
        if (pool & sdk_digit_bit(d))
            hidden_rec(w, h, c1, c2, degree, pool, chosen | sdk_digit_bit(d), left - 1, d + 1);
}

static void type3(walk *w, int c1, int c2)
{
    const sdk_grid *g = w->g;
    unsigned extra = (g->cand[c1] | g->cand[c2]) & ~w->pair;
    unsigned common = extra & g->cand[c1] & g->cand[c2];
    int hs[3], nh = shared_houses(c1, c2, hs);
    for (int degree = sdk_mask_count(extra); degree <= 7 && !w->stop; degree++)
        for (int i = 0; i < nh && !w->stop; i++) {
            int h = hs[i], empty = empty_cells(g, h);
            if (w->def->naked && degree * 2 <= empty) {
                naked k = {.w = w, .h = h, .c1 = c1, .c2 = c2, .degree = degree};
                k.extra = extra;
                k.common = common;
                naked_rec(&k, 0);
            }
            if (w->def->hidden && degree * 2 < empty) {
                unsigned pool = 0x3FEu & ~w->pair & ~extra;
                if (degree - 2 <= sdk_mask_count(pool))
                    hidden_rec(w, h, c1, c2, degree, pool, 0, degree - 2, 1);
            }
        }
}

static void type4(walk *w, int c1, int c2)
{
    const sdk_grid *g = w->g;
    int hs[3], nh = shared_houses(c1, c2, hs), lock_a = -1, lock_b = -1;
    for (int i = 0; i < nh; i++) {
        sdk_bb rest = sdk_house_bb[hs[i]];
        sdk_bb_del(&rest, c1);
        sdk_bb_del(&rest, c2);
        if (sdk_bb_empty(sdk_bb_and(rest, g->digit[w->a - 1]))) lock_a = hs[i];
        if (sdk_bb_empty(sdk_bb_and(rest, g->digit[w->b - 1]))) lock_b = hs[i];
    }
    int h = lock_a >= 0 ? lock_a : lock_b;
    if (h < 0) return;
    int locked = lock_a >= 0 ? w->a : w->b, del = lock_a >= 0 ? w->b : w->a;
    sdk_step *s = sdk_scratch_step(w->ctx, 0);
    loop_step(w, s, 0);
    sdk_step_elim(s, c1, del);
    sdk_step_elim(s, c2, del);
    sdk_step_mark(s, c1, locked, SDK_ROLE_FIN);
    sdk_step_mark(s, c2, locked, SDK_ROLE_FIN);
    sdk_step_house(s, h, SDK_ROLE_COVER);
    loop_emit(w, s);
}

/* A closed walk: check it, then the technique's type. */
static void found(walk *w)
{
    const loopdef *def = w->def;
    if (!valid_loop(w)) return;
    w->any = true;
    if (w->n < def->min_len || w->n > def->max_len) return;
    const sdk_grid *g = w->g;
    int ex[SDK_CELLS], nex = 0;
    for (int i = 0; i < w->n; i++)
        if (sdk_mask_count(g->cand[w->loop[i]]) > 2) ex[nex++] = w->loop[i];
    if (nex == 1) {
        if (def->type == 1) type1(w, ex[0]);
    } else if (nex > 2) {
        if (def->type == 2) type2(w, ex, nex);
    } else if (nex == 2) {
        int extra = sdk_mask_count((g->cand[ex[0]] | g->cand[ex[1]]) & ~w->pair);
        if (extra == 1 && def->type == 2) type2(w, ex, nex);
        if (extra >= 2 && def->type == 3) type3(w, ex[0], ex[1]);
        if (def->type == 4) type4(w, ex[0], ex[1]);
    }
}

/* SE's walk, with its bookkeeping: `seen_extra` gathers the extra digits of
 * every cell tried from this one (siblings included), which is what its test
 * for "one shared extra digit" looks at. */
static void step_from(walk *w, int cell, int allowed_extra, unsigned seen_extra, int last_type)
{
    const sdk_grid *g = w->g;
    w->loop[w->n++] = cell;
    sdk_bb_add(&w->in, cell);
    for (int k = 0; k < 3 && !w->stop; k++) {
        int t = type_order[k];
        if (t == last_type) continue;
        int h = sdk_cell_house[cell][t];
        for (int j = 0; j < 9 && !w->stop; j++) {
            int next = sdk_house_cell[h][j];
            if (next == w->loop[0] && w->n >= 4) {
                found(w);
                continue;
            }
            if (sdk_bb_has(w->in, next) || !open_cell(g, next)) continue;
            unsigned m = g->cand[next];
            if ((m & w->pair) != w->pair) continue;
            seen_extra |= m & ~w->pair;
            int count = sdk_mask_count(m);
            if (count == 2 || sdk_mask_count(seen_extra) == 1 || allowed_extra > 0)
                step_from(w, next, allowed_extra - (count > 2), seen_extra, t);
        }
    }
    sdk_bb_del(&w->in, cell);
    w->n--;
}

static int find_loops(const sdk_ctx *ctx, const sdk_grid *g, sdk_sink *sink)
{
    if (same_position(g)) return SDK_CONTINUE;
    walk w = {.ctx = ctx, .def = ctx->self->data, .g = g, .sink = sink};
    for (int c = 0; c < SDK_CELLS && !w.stop; c++) {
        if (!open_cell(g, c) || sdk_mask_count(g->cand[c]) != 2) continue;
        w.pair = g->cand[c];
        w.a = sdk_mask_first(w.pair);
        w.b = sdk_mask_first(w.pair & (w.pair - 1));
        w.n = 0;
        w.in = sdk_bb_none();
        step_from(&w, c, 2, 0, -1);
    }
    no_loop.have = !w.any && !w.stop;
    if (no_loop.have) {
        memcpy(no_loop.cand, g->cand, sizeof no_loop.cand);
        memcpy(no_loop.value, g->value, sizeof no_loop.value);
    }
    return w.stop ? SDK_STOP : SDK_CONTINUE;
}
