/* wings.c - the wings family: XY-Wing, XYZ-Wing, W-Wing, WXYZ-Wing, and the
 * two chains made only of bivalue cells, Remote Pair and XY-Chain.
 *
 * The searches follow HoDoKu's definitions (WingSolver, ChainSolver) so that
 * the HoDoKu regression library gives the same instances:
 *  - XY-Wing: pivot xy, pincers xz and yz that both see the pivot; z goes from
 *    every cell that sees both pincers.
 *  - XYZ-Wing: pivot xyz, pincers xz and yz seeing it; z goes from the cells
 *    that see all three.
 *  - W-Wing: two bivalue cells with the same pair {x,y}, and a strong link on
 *    y (a house where y has exactly two places) whose ends see one cell each;
 *    x goes from the cells that see both bivalue cells.
 *  - WXYZ-Wing: four cells holding four digits between them, where exactly
 *    one digit z is not restricted (its cells do not all see each other); z
 *    goes from the cells that see every z of the pattern.
 *  - Remote Pair: a chain of at least four cells with the same pair, each
 *    seeing the next; both digits go from cells seeing two chain cells an odd
 *    number (>= 3) of steps apart. Chains up to 10 cells, as HoDoKu.
 *  - XY-Chain: bivalue cells, each linked to the next by a shared digit; if
 *    the chain starts and ends with digit x, x goes from cells seeing both
 *    ends. Shortest chain per elimination set, up to 10 cells.
 */
#include <stdlib.h>
#include <string.h>
#include "sudoku/alloc.h"
#include "sudoku/technique.h"
#include "../misc/grid_memo.h"

/* ---- helpers ------------------------------------------------------------ */

static const char *cn(int cell, char *buf)
{
    return sdk_cell_name(cell, buf);
}

/* Cells that see both a and b (a and b excluded). */
static sdk_bb see2(int a, int b)
{
    return sdk_bb_and(sdk_peer_bb[a], sdk_peer_bb[b]);
}

/* Sudoku Explainer's length bonus for chains: +0.1 each time the node count
 * passes 4, 6, 8, 12, 16, 24, 32, 48, ... */
static int se_length_bonus(int nodes)
{
    int added = 0, ceil = 4;
    bool odd = false;
    while (nodes > ceil) {
        added++;
        ceil = odd ? ceil * 4 / 3 : ceil * 3 / 2;
        odd = !odd;
    }
    return added;
}

/* ---- XY-Wing / XYZ-Wing ------------------------------------------------- */

/* XY-Wing and XYZ-Wing: data is the bool `xyz` (the pivot holds the third digit too). */
static int find_wing(const sdk_ctx *ctx, const sdk_grid *g, sdk_sink *sink)
{
    const sdk_technique *t = ctx->self;
    bool xyz = *(const bool *)t->data;
    int bi[81], nbi = 0, tri[81], ntri = 0;
    for (int c = 0; c < 81; c++) {
        if (g->value[c]) continue;
        int n = sdk_mask_count(g->cand[c]);
        if (n == 2) bi[nbi++] = c;
        if (xyz && n == 3) tri[ntri++] = c;
    }
    int nfirst = xyz ? ntri : nbi;
    const int *first = xyz ? tri : bi;
    for (int i = 0; i < nfirst; i++) {
        for (int j = xyz ? 0 : i + 1; j < nbi; j++) {
            if (sdk_mask_count(g->cand[first[i]] | g->cand[bi[j]]) != 3) continue;
            for (int k = j + 1; k < nbi; k++) {
                int cells[3] = {first[i], bi[j], bi[k]};
                unsigned m1 = g->cand[cells[0]], m2 = g->cand[cells[1]], m3 = g->cand[cells[2]];
                if (sdk_mask_count(m1 | m2 | m3) != 3) continue;
                if (m1 == m2 || m2 == m3 || m1 == m3) continue;
                for (int tries = 0; tries < (xyz ? 1 : 3); tries++) {
                    int pv = cells[tries], p1 = cells[(tries + 1) % 3], p2 = cells[(tries + 2) % 3];
                    if (p1 > p2) {
                        int tmp = p1;
                        p1 = p2;
                        p2 = tmp;
                    }
                    if (!sdk_sees(pv, p1) || !sdk_sees(pv, p2)) continue;
                    unsigned zm = g->cand[p1] & g->cand[p2];
                    if (sdk_mask_count(zm) != 1) continue;
                    int z = sdk_mask_first(zm);
                    sdk_bb el = sdk_bb_and(see2(p1, p2), g->digit[z - 1]);
                    if (xyz) el = sdk_bb_and(el, sdk_peer_bb[pv]);
                    if (sdk_bb_empty(el)) continue;
                    sdk_step *s = sdk_scratch_step(ctx, 0);
                    sdk_step_init(s, t);
                    sdk_step_elim_bb(s, g, el, z);
                    sdk_step_mark(s, pv, 0, SDK_ROLE_PIVOT);
                    sdk_step_mark(s, p1, 0, SDK_ROLE_PINCER);
                    sdk_step_mark(s, p2, 0, SDK_ROLE_PINCER);
                    if (xyz) sdk_step_mark(s, pv, z, SDK_ROLE_FIN);
                    sdk_step_mark(s, p1, z, SDK_ROLE_FIN);
                    sdk_step_mark(s, p2, z, SDK_ROLE_FIN);
                    SDK_BB_FOREACH(c, el) sdk_step_mark(s, c, z, SDK_ROLE_TARGET);
                    unsigned xy = g->cand[pv] & ~zm;
                    int x = sdk_mask_first(xy), y = sdk_mask_first(xy & (xy - 1));
                    char a[8], b[8], c[8];
                    sdk_step_printf(s, "%s: %d/%d/%d in %s,%s,%s", t->name, x, y, z, cn(pv, a),
                                    cn(p1, b), cn(p2, c));
                    if (sdk_emit(sink, s) == SDK_STOP) return SDK_STOP;
                }
            }
        }
    }
    return SDK_CONTINUE;
}

static const bool xy_kind = false, xyz_kind = true;
static int find_w_wing(const sdk_ctx *ctx, const sdk_grid *g, sdk_sink *sink);
static int find_wxyz_wing(const sdk_ctx *ctx, const sdk_grid *g, sdk_sink *sink);
static int find_remote_pair(const sdk_ctx *ctx, const sdk_grid *g, sdk_sink *sink);
static int find_xy_chain(const sdk_ctx *ctx, const sdk_grid *g, sdk_sink *sink);

static const sdk_technique xy_wing = {
    .abi = SDK_ABI_VERSION,
    .size = sizeof(sdk_technique),
    .id = "xy-wing",
    .name = "XY-Wing",
    .difficulty = 42,
    .score = 160,
    .level = SDK_LEVEL_HARD,
    .find = find_wing,
    .data = &xy_kind,
    .summary = "pivot xy with pincers xz, yz: z goes from cells seeing both pincers",
};
static const sdk_technique xyz_wing = {
    .abi = SDK_ABI_VERSION,
    .size = sizeof(sdk_technique),
    .id = "xyz-wing",
    .name = "XYZ-Wing",
    .difficulty = 44,
    .score = 180,
    .level = SDK_LEVEL_HARD,
    .find = find_wing,
    .data = &xyz_kind,
    .summary = "pivot xyz with pincers xz, yz: z goes from cells seeing all three",
};
static const sdk_technique w_wing = {
    .abi = SDK_ABI_VERSION,
    .size = sizeof(sdk_technique),
    .id = "w-wing",
    .name = "W-Wing",
    .difficulty = 44,
    .score = 150,
    .level = SDK_LEVEL_HARD,
    .find = find_w_wing,
    .summary = "two equal bivalue cells joined by a strong link on one digit",
};
static const sdk_technique wxyz_wing = {
    .abi = SDK_ABI_VERSION,
    .size = sizeof(sdk_technique),
    .id = "wxyz-wing",
    .name = "WXYZ-Wing",
    .difficulty = 46,
    .score = 200,
    .level = SDK_LEVEL_HARD,
    .find = find_wxyz_wing,
    .summary = "four cells, four digits, one digit not restricted: it goes from cells seeing "
               "all its places",
};
static const sdk_technique remote_pair = {
    .abi = SDK_ABI_VERSION,
    .size = sizeof(sdk_technique),
    .id = "remote-pair",
    .name = "Remote Pair",
    .difficulty = 45,
    .score = 110,
    .level = SDK_LEVEL_HARD,
    .find = find_remote_pair,
    .summary = "a chain of cells with the same pair: cells seeing two ends of opposite colour "
               "lose both digits",
};
static const sdk_technique xy_chain = {
    .abi = SDK_ABI_VERSION,
    .size = sizeof(sdk_technique),
    .id = "xy-chain",
    .name = "XY-Chain",
    .difficulty = 46,
    .score = 260,
    .level = SDK_LEVEL_UNFAIR,
    .find = find_xy_chain,
    .summary = "a chain of bivalue cells starting and ending with the same digit",
};

/* ---- W-Wing -------------------------------------------------------------- */

static int find_w_wing(const sdk_ctx *ctx, const sdk_grid *g, sdk_sink *sink)
{
    for (int i = 0; i < 81; i++) {
        if (g->value[i] || sdk_mask_count(g->cand[i]) != 2) continue;
        unsigned m = g->cand[i];
        for (int j = i + 1; j < 81; j++) {
            if (g->value[j] || g->cand[j] != m) continue;
            for (int pass = 0; pass < 2; pass++) {
                int x = pass == 0 ? sdk_mask_first(m) : sdk_mask_first(m & (m - 1));
                int y = sdk_mask_first(m & ~sdk_digit_bit(x));
                sdk_bb el = sdk_bb_and(see2(i, j), g->digit[x - 1]);
                if (sdk_bb_empty(el)) continue;
                /* a strong link on y whose ends see i and j, one each */
                for (int h = 0; h < SDK_HOUSES; h++) {
                    sdk_bb l = sdk_house_digit(g, h, y);
                    if (sdk_bb_count(l) != 2 || sdk_bb_has(l, i) || sdk_bb_has(l, j)) continue;
                    int a = sdk_bb_first(l), b = sdk_bb_next(l, a);
                    if (!((sdk_sees(a, i) && sdk_sees(b, j)) || (sdk_sees(a, j) && sdk_sees(b, i))))
                        continue;
                    sdk_step *s = sdk_scratch_step(ctx, 0);
                    sdk_step_init(s, &w_wing);
                    sdk_step_elim_bb(s, g, el, x);
                    sdk_step_mark(s, i, 0, SDK_ROLE_PINCER);
                    sdk_step_mark(s, j, 0, SDK_ROLE_PINCER);
                    sdk_step_mark(s, i, y, SDK_ROLE_FIN);
                    sdk_step_mark(s, j, y, SDK_ROLE_FIN);
                    sdk_step_mark(s, a, y, SDK_ROLE_BASE);
                    sdk_step_mark(s, b, y, SDK_ROLE_BASE);
                    sdk_step_house(s, h, SDK_ROLE_BASE);
                    SDK_BB_FOREACH(c, el) sdk_step_mark(s, c, x, SDK_ROLE_TARGET);
                    char ca[8], cb[8], lk[32];
                    sdk_step_printf(s, "W-Wing: %d/%d in %s,%s connected by %d in %s", x, y,
                                    cn(i, ca), cn(j, cb), y, sdk_cells_compact(l, lk, sizeof lk));
                    if (sdk_emit(sink, s) == SDK_STOP) return SDK_STOP;
                    break; /* one link is enough for this pair and digit */
                }
            }
        }
    }
    return SDK_CONTINUE;
}

/* ---- WXYZ-Wing ----------------------------------------------------------- */

/* The WXYZ-Wing of cells q[0..3] (in cell order) holding the digits of mask
 * between them, when there is one with eliminations. */
static int wxyz_check(const sdk_ctx *ctx, const sdk_grid *g, unsigned mask, const int *q,
                      sdk_sink *sink, bool *emitted)
{
    /* with the four cells as a set: a naked quad (every cell sees the
     * three others) lies in one house, not a wing; the pattern must hang
     * together (every cell sees another) */
    sdk_bb quad = sdk_bb_none();
    for (int u = 0; u < 4; u++) sdk_bb_add(&quad, q[u]);
    bool every = true;
    for (int u = 0; u < 4; u++) {
        int seen = sdk_bb_count(sdk_bb_and(sdk_peer_bb[q[u]], quad));
        if (!seen) return SDK_CONTINUE;
        every &= seen == 3;
    }
    if (every) return SDK_CONTINUE;
    /* z: the one digit whose cells in the pattern do not all see each other */
    int z = 0, nonres = 0;
    SDK_MASK_FOREACH(dg, mask) {
        sdk_bb zc = sdk_bb_and(g->digit[dg - 1], quad);
        bool all = true;
        SDK_BB_FOREACH(c, zc)
            all &= sdk_bb_empty(sdk_bb_andnot(sdk_bb_andnot(zc, sdk_peer_bb[c]), sdk_bb_cell(c)));
        if (!all) {
            nonres++;
            z = dg;
        }
    }
    if (nonres != 1) return SDK_CONTINUE;
    sdk_bb el = g->digit[z - 1];
    for (int u = 0; u < 4; u++) {
        if (sdk_grid_has(g, q[u], z))
            el = sdk_bb_and(el, sdk_peer_bb[q[u]]);
        else
            sdk_bb_del(&el, q[u]);
    }
    if (sdk_bb_empty(el)) return SDK_CONTINUE;
    sdk_step *s = sdk_scratch_step(ctx, 0);
    sdk_step_init(s, &wxyz_wing);
    sdk_step_elim_bb(s, g, el, z);
    char t[4][8];
    int other[3], no = 0;
    SDK_MASK_FOREACH(dg, mask)
        if (dg != z) other[no++] = dg;
    for (int u = 0; u < 4; u++) {
        sdk_step_mark(s, q[u], 0, SDK_ROLE_PINCER);
        if (sdk_grid_has(g, q[u], z)) sdk_step_mark(s, q[u], z, SDK_ROLE_FIN);
    }
    SDK_BB_FOREACH(e, el) sdk_step_mark(s, e, z, SDK_ROLE_TARGET);
    sdk_step_printf(s, "WXYZ-Wing: %d/%d/%d/%d in %s,%s,%s,%s", other[0], other[1], other[2], z,
                    cn(q[0], t[0]), cn(q[1], t[1]), cn(q[2], t[2]), cn(q[3], t[3]));
    *emitted = true;
    return sdk_emit(sink, s);
}

/* ---- WXYZ-Wing: patterns already known to give nothing ---------------------
 *
 * A pattern is a digit mask and four cells (in the search's order: mask,
 * then cells); whether it is a wing and which digit z it frees depend on
 * the candidates of its cells only, its eliminations on the z candidates of
 * the cells seeing its z cells. Per thread an earlier grid is kept with the
 * rank of the first pattern that gave a step there (grid_memo.h, rule
 * "descendant"): on a grid descending from it, a pattern ranked before that
 * one whose four cells did not change eliminates a subset of what it did
 * then, nothing, and is skipped. Only patterns with a changed cell are
 * examined before it, every pattern after it, in the usual order. */
static _Thread_local pattern_memo wxyz_last[2];

static uint64_t wxyz_rank(unsigned mask, const int *q)
{
    return (uint64_t)mask << 28 | (uint64_t)q[0] << 21 | (uint64_t)q[1] << 14 |
           (uint64_t)q[2] << 7 | (uint64_t)q[3];
}

/* The 4-digit masks in increasing order (slot -> mask) and, per candidate
 * mask of 2 to 4 digits, the slots of the 4-digit masks holding it,
 * increasing; made once when the plugin loads. */
enum { WXYZ_MASKS = 126 };
typedef struct wxyz_supersets {
    uint8_t n;
    uint8_t slot[21];
} wxyz_supersets;
static unsigned wxyz_mask[WXYZ_MASKS];
static wxyz_supersets wxyz_up[512];

__attribute__((constructor)) static void wxyz_tables(void)
{
    int nmask = 0;
    for (unsigned mask = 0; mask < 512; mask++) {
        if (sdk_mask_count(mask) != 4) continue;
        for (unsigned sub = mask; sub; sub = (sub - 1) & mask) /* its subsets */
            if (sdk_mask_count(sub) >= 2) wxyz_up[sub].slot[wxyz_up[sub].n++] = (uint8_t)nmask;
        wxyz_mask[nmask++] = mask;
    }
}

static int find_wxyz_wing(const sdk_ctx *ctx, const sdk_grid *g, sdk_sink *sink)
{
    pattern_since since = pattern_memo_begin(wxyz_last, g, true);
    /* the unsolved cells with 2 to 4 candidates listed under every 4-digit
     * mask holding their candidates (slot by mask order), in cell order:
     * per mask, the cells a scan of all cells would take, in its order */
    uint8_t count[WXYZ_MASKS] = {0}, nmoved[WXYZ_MASKS] = {0};
    uint16_t start[WXYZ_MASKS + 1];
    uint8_t list[81 * 21];
    for (int c = 0; c < 81; c++) {
        if (g->value[c] || sdk_mask_count(g->cand[c]) < 2 || sdk_mask_count(g->cand[c]) > 4)
            continue;
        const wxyz_supersets *up = &wxyz_up[g->cand[c]];
        for (int k = 0; k < up->n; k++) {
            count[up->slot[k]]++;
            nmoved[up->slot[k]] += sdk_bb_has(since.changed, c);
        }
    }
    start[0] = 0;
    for (int k = 0; k < WXYZ_MASKS; k++) start[k + 1] = (uint16_t)(start[k] + count[k]);
    uint16_t fill[WXYZ_MASKS];
    memcpy(fill, start, sizeof fill);
    for (int c = 0; c < 81; c++) {
        if (g->value[c] || sdk_mask_count(g->cand[c]) < 2 || sdk_mask_count(g->cand[c]) > 4)
            continue;
        const wxyz_supersets *up = &wxyz_up[g->cand[c]];
        for (int k = 0; k < up->n; k++) list[fill[up->slot[k]]++] = (uint8_t)c;
    }
    /* masks below this one have all their patterns before the first that
     * gave a step */
    uint64_t first_mask = since.first >> 28;
    uint64_t gave = PATTERN_NONE;
    int rc = SDK_CONTINUE;
    for (int slot = 0; slot < WXYZ_MASKS && rc != SDK_STOP; slot++) {
        unsigned mask = wxyz_mask[slot];
        if (mask < first_mask && !nmoved[slot]) continue; /* a changed cell must fit the mask */
        int n = count[slot];
        if (n < 4) continue;
        int cells[81];
        bool changed[81];
        for (int i = 0; i < n; i++) {
            cells[i] = list[start[slot] + i];
            changed[i] = sdk_bb_has(since.changed, cells[i]);
        }
        int later[82]; /* later[i]: changed cells among cells[i..] */
        later[n] = 0;
        for (int i = n - 1; i >= 0; i--) later[i] = later[i + 1] + changed[i];
        /* when the mask's patterns all come before the first that gave a
         * step, only those with a changed cell are examined */
        int last[4] = {cells[n - 4], cells[n - 3], cells[n - 2], cells[n - 1]};
        bool before = wxyz_rank(mask, last) < since.first;
        for (int a = 0; a < n && rc != SDK_STOP; a++) {
            if (before && !changed[a] && !later[a + 1]) break;
            for (int b = a + 1; b < n && rc != SDK_STOP; b++) {
                bool ab = changed[a] || changed[b];
                if (before && !ab && !later[b + 1]) break;
                for (int c = b + 1; c < n && rc != SDK_STOP; c++) {
                    bool abc = ab || changed[c];
                    if (before && !abc && !later[c + 1]) break;
                    unsigned m3 = g->cand[cells[a]] | g->cand[cells[b]] | g->cand[cells[c]];
                    for (int d = c + 1; d < n && rc != SDK_STOP; d++) {
                        if ((m3 | g->cand[cells[d]]) != mask) continue;
                        int q[4] = {cells[a], cells[b], cells[c], cells[d]};
                        if (!abc && !changed[d] && wxyz_rank(mask, q) < since.first)
                            continue; /* as on the kept grid: nothing */
                        bool emitted = false;
                        rc = wxyz_check(ctx, g, mask, q, sink, &emitted);
                        if (emitted && gave == PATTERN_NONE) gave = wxyz_rank(mask, q);
                    }
                }
            }
        }
    }
    pattern_memo_end(wxyz_last, ctx, g, gave);
    return rc;
}

/* ---- bivalue chains (shared by Remote Pair and XY-Chain) ------------------ */

#define CHAIN_MAX_CELLS 10 /* HoDoKu's default chain length restriction: 20 links */

typedef struct found_chain {
    sdk_bb elim[9]; /* eliminations per digit */
    int ncell;
    uint8_t cell[CHAIN_MAX_CELLS];
    uint8_t first; /* digit that is false in cell[0] (the chain's end digit) */
    uint16_t pair; /* remote pair: the two digits (mask) */
} found_chain;

typedef struct chain_list {
    found_chain *v;
    int n, cap;
} chain_list;

static bool same_elims(const found_chain *a, const found_chain *b)
{
    for (int d = 0; d < 9; d++)
        if (!sdk_bb_eq(a->elim[d], b->elim[d])) return false;
    return true;
}

/* Keep the shortest chain per elimination set. */
static void chain_add(chain_list *l, const found_chain *c)
{
    for (int i = 0; i < l->n; i++) {
        if (same_elims(&l->v[i], c)) {
            if (c->ncell < l->v[i].ncell) l->v[i] = *c;
            return;
        }
    }
    if (l->n == l->cap) {
        int cap = l->cap ? l->cap * 2 : 32;
        found_chain *nv = sdk_xrealloc(l->v, sizeof *nv * (size_t)cap);
        l->v = nv;
        l->cap = cap;
    }
    l->v[l->n++] = *c;
}

static int elim_count(const found_chain *c)
{
    int n = 0;
    for (int d = 0; d < 9; d++) n += sdk_bb_count(c->elim[d]);
    return n;
}

static int cmp_chain(const void *pa, const void *pb)
{
    const found_chain *a = pa, *b = pb;
    int ea = elim_count(a), eb = elim_count(b);
    if (ea != eb) return eb - ea;
    if (a->ncell != b->ncell) return a->ncell - b->ncell;
    return (int)a->cell[0] - (int)b->cell[0];
}

/* The link digits of a bivalue chain: digit true in cell k is d[k]; the digit
 * false in cell 0 is `first`. */
static void chain_digits(const sdk_grid *g, const found_chain *c, int *d)
{
    int f = c->first;
    for (int k = 0; k < c->ncell; k++) {
        d[k] = sdk_mask_first(g->cand[c->cell[k]] & ~sdk_digit_bit(f));
        f = d[k];
    }
}

/* Put the chain's nodes and links into the step and write "a- r1c2 -b- ... -a". */
static void chain_structure(sdk_step *s, const sdk_grid *g, const found_chain *c)
{
    int d[CHAIN_MAX_CELLS];
    chain_digits(g, c, d);
    int f = c->first;
    char nm[8];
    sdk_step_printf(s, "%d- %s", f, cn(c->cell[0], nm));
    for (int k = 0; k < c->ncell; k++) {
        int cell = c->cell[k];
        sdk_step_mark(s, cell, f, SDK_ROLE_OFF);
        sdk_step_mark(s, cell, d[k], SDK_ROLE_ON);
        sdk_link in = {.from = {.digit = (uint8_t)f, .on = 0, .ncell = 1, .cell = {(uint8_t)cell}},
                       .to = {.digit = (uint8_t)d[k], .on = 1, .ncell = 1, .cell = {(uint8_t)cell}},
                       .strong = 1,
                       .kind = SDK_LINK_CELL};
        sdk_step_link(s, &in);
        if (k + 1 < c->ncell) {
            int nx = c->cell[k + 1];
            sdk_link out = {
                .from = {.digit = (uint8_t)d[k], .on = 1, .ncell = 1, .cell = {(uint8_t)cell}},
                .to = {.digit = (uint8_t)d[k], .on = 0, .ncell = 1, .cell = {(uint8_t)nx}},
                .strong = 0,
                .kind = SDK_LINK_HOUSE};
            sdk_step_link(s, &out);
            sdk_step_printf(s, " -%d- %s", d[k], cn(nx, nm));
        }
        f = d[k];
    }
    sdk_step_printf(s, " -%d", d[c->ncell - 1]);
}

/* ---- Remote Pair ---------------------------------------------------------- */

typedef struct rp_search {
    const sdk_grid *g;
    unsigned pair;
    int a, b; /* a: start digit (false in cell 0), b: the other */
    uint8_t path[CHAIN_MAX_CELLS];
    int n;
    sdk_bb used;
    chain_list *out;
} rp_search;

static void rp_check(rp_search *r)
{
    /* HoDoKu: a chain is checked at cells 4, 6, 8, 10 when its ends can
     * eliminate the start digit; it then eliminates between every pair of
     * cells an odd distance >= 3 apart. */
    const sdk_grid *g = r->g;
    int last = r->path[r->n - 1];
    if (sdk_bb_empty(sdk_bb_and(see2(r->path[0], last), g->digit[r->a - 1]))) return;
    found_chain c;
    memset(&c, 0, sizeof c);
    for (int i = 0; i < r->n; i++)
        for (int j = i + 3; j < r->n; j += 2) {
            sdk_bb both = see2(r->path[i], r->path[j]);
            c.elim[r->a - 1] = sdk_bb_or(c.elim[r->a - 1], sdk_bb_and(both, g->digit[r->a - 1]));
            c.elim[r->b - 1] = sdk_bb_or(c.elim[r->b - 1], sdk_bb_and(both, g->digit[r->b - 1]));
        }
    c.ncell = r->n;
    memcpy(c.cell, r->path, (size_t)r->n);
    c.first = (uint8_t)r->a;
    c.pair = (uint16_t)r->pair;
    chain_add(r->out, &c);
}

static void rp_dfs(rp_search *r)
{
    if (r->n >= 4 && r->n % 2 == 0) rp_check(r);
    if (r->n >= CHAIN_MAX_CELLS) return;
    int cur = r->path[r->n - 1];
    sdk_bb next = sdk_bb_andnot(sdk_peer_bb[cur], r->used);
    SDK_BB_FOREACH(nx, next) {
        if (r->g->value[nx] || r->g->cand[nx] != r->pair) continue;
        r->path[r->n++] = (uint8_t)nx;
        sdk_bb_add(&r->used, nx);
        rp_dfs(r);
        sdk_bb_del(&r->used, nx);
        r->n--;
    }
}

static int emit_chains(const sdk_ctx *ctx, const sdk_technique *t, const sdk_grid *g,
                       sdk_sink *sink, chain_list *l, bool rp)
{
    if (l->n) qsort(l->v, (size_t)l->n, sizeof *l->v, cmp_chain);
    int rc = SDK_CONTINUE;
    for (int i = 0; i < l->n && rc == SDK_CONTINUE; i++) {
        const found_chain *c = &l->v[i];
        sdk_step *s = sdk_scratch_step(ctx, 0);
        sdk_step_init(s, t);
        for (int d = 1; d <= 9; d++) {
            sdk_step_elim_bb(s, g, c->elim[d - 1], d);
            SDK_BB_FOREACH(e, c->elim[d - 1]) sdk_step_mark(s, e, d, SDK_ROLE_TARGET);
        }
        s->difficulty = t->difficulty + se_length_bonus(2 * c->ncell);
        if (rp) {
            int a = sdk_mask_first(c->pair), b = sdk_mask_first(c->pair & (c->pair - 1));
            sdk_step_printf(s, "Remote Pair: %d/%d ", a, b);
        } else {
            sdk_step_printf(s, "XY-Chain: %d ", c->first);
        }
        chain_structure(s, g, c);
        rc = sdk_emit(sink, s);
    }
    free(l->v);
    return rc;
}

static int find_remote_pair(const sdk_ctx *ctx, const sdk_grid *g, sdk_sink *sink)
{
    chain_list out = {0};
    for (int c = 0; c < 81; c++) {
        if (g->value[c] || sdk_mask_count(g->cand[c]) != 2) continue;
        rp_search r = {.g = g, .pair = g->cand[c], .out = &out};
        for (int pass = 0; pass < 2; pass++) {
            r.a = pass == 0 ? sdk_mask_first(r.pair) : sdk_mask_first(r.pair & (r.pair - 1));
            r.b = sdk_mask_first(r.pair & ~sdk_digit_bit(r.a));
            r.path[0] = (uint8_t)c;
            r.n = 1;
            r.used = sdk_bb_cell(c);
            rp_dfs(&r);
        }
    }
    return emit_chains(ctx, &remote_pair, g, sink, &out, true);
}

/* ---- XY-Chain --------------------------------------------------------------
 * Depth-first over simple chains of bivalue cells, as HoDoKu's ChainSolver:
 * from a start cell with digit x false (its other digit true), each step goes
 * to a bivalue peer not yet in the chain that holds the digit true so far,
 * whose other digit becomes true. Where x comes out true, the candidates x
 * that see both ends go. Up to CHAIN_MAX_CELLS cells; per set of eliminations
 * the shortest chain is kept. (A breadth-first search keeps only the shortest
 * way to each end, which may run through a cell twice and be rejected while a
 * longer simple chain to the same end exists.) */

typedef struct xy_search {
    const sdk_grid *g;
    const bool *bival;
    int x;          /* the start digit: false at the start, true at the end */
    sdk_bb peers_x; /* x candidates that see the start cell */
    uint8_t path[CHAIN_MAX_CELLS];
    int n;
    sdk_bb used;
    chain_list *out;
} xy_search;

static void xy_dfs(xy_search *r, int v)
{
    int cell = r->path[r->n - 1];
    if (v == r->x && r->n >= 2) {
        sdk_bb el = sdk_bb_and(r->peers_x, sdk_peer_bb[cell]);
        if (!sdk_bb_empty(el)) {
            found_chain c;
            memset(&c, 0, sizeof c);
            c.ncell = r->n;
            memcpy(c.cell, r->path, (size_t)r->n);
            c.first = (uint8_t)r->x;
            c.elim[r->x - 1] = el;
            chain_add(r->out, &c);
        }
    }
    if (r->n >= CHAIN_MAX_CELLS) return;
    sdk_bb nb = sdk_bb_andnot(sdk_bb_and(sdk_peer_bb[cell], r->g->digit[v - 1]), r->used);
    SDK_BB_FOREACH(p, nb) {
        if (!r->bival[p]) continue;
        r->path[r->n++] = (uint8_t)p;
        sdk_bb_add(&r->used, p);
        xy_dfs(r, sdk_mask_first(r->g->cand[p] & ~sdk_digit_bit(v)));
        sdk_bb_del(&r->used, p);
        r->n--;
    }
}

static int find_xy_chain(const sdk_ctx *ctx, const sdk_grid *g, sdk_sink *sink)
{
    chain_list out = {0};
    bool bival[81];
    for (int c = 0; c < 81; c++) bival[c] = !g->value[c] && sdk_mask_count(g->cand[c]) == 2;
    for (int st = 0; st < 81; st++) {
        if (!bival[st]) continue;
        SDK_MASK_FOREACH(x, g->cand[st]) {
            xy_search r = {.g = g, .bival = bival, .x = x, .out = &out};
            r.peers_x = sdk_bb_and(sdk_peer_bb[st], g->digit[x - 1]);
            if (sdk_bb_empty(r.peers_x)) continue;
            r.path[0] = (uint8_t)st;
            r.n = 1;
            r.used = sdk_bb_cell(st);
            xy_dfs(&r, sdk_mask_first(g->cand[st] & ~sdk_digit_bit(x)));
        }
    }
    return emit_chains(ctx, &xy_chain, g, sink, &out, false);
}

SDK_PLUGIN(&xy_wing, &xyz_wing, &w_wing, &wxyz_wing, &remote_pair, &xy_chain)
