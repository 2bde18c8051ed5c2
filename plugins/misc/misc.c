/* misc.c - techniques that fit no other family: Sue de Coq and Aligned Pair
 * Exclusion (Aligned Triplet Exclusion lives in ate.c).
 *
 * Sue de Coq (HoDoKu's definition and search, MiscellaneousSolver): take 2 or
 * 3 unsolved cells C where a line meets a box, holding digits V with
 * |V| >= |C| + 2. Find cells CL in the rest of the line and CB in the rest of
 * the box, each set holding digits from V plus as many extra digits as it has
 * cells beyond the V digits it takes, with no V digit in both sets, so that
 * C, CL and CB together lock |V| + extras digits in as many cells. Then the
 * line outside C and CL loses (V + VL) - VB, the box outside C and CB loses
 * (V + VB) - VL, and extra digits common to VL and VB go from both.
 *
 * Aligned Pair Exclusion (Sudoku Explainer's technique): two unsolved cells
 * of one house; a pair of values (x in the first, y in the second) is
 * impossible when x = y, or when a cell that sees both would be left with no
 * candidate (its candidates are inside {x, y}). A candidate of either cell
 * that belongs to no possible pair is eliminated. As in Sudoku Explainer,
 * only pairs with a common unsolved peer of at most two candidates are
 * looked at: without one, only x = y can rule a pair out, and what that
 * eliminates (a cell whose single candidate the other cell holds) the
 * singles find first.
 */
#include <string.h>
#include "grid_memo.h"
#include "sudoku/technique.h"

extern const sdk_technique sdk_misc_ate; /* ate.c */

static int find_sdc(const sdk_ctx *, const sdk_grid *, sdk_sink *);
static int find_ape(const sdk_ctx *, const sdk_grid *, sdk_sink *);
static int ape_search(const sdk_ctx *, const sdk_grid *, sdk_sink *, sdk_bb dirty, sdk_bb xdirty,
                      uint64_t first, uint64_t *gave);

static const sdk_technique sue_de_coq = {
    .abi = SDK_ABI_VERSION,
    .size = sizeof(sdk_technique),
    .id = "sue-de-coq",
    .name = "Sue de Coq",
    .difficulty = 50,
    .score = 250,
    .level = SDK_LEVEL_UNFAIR,
    .find = find_sdc,
    .summary = "line/box intersection locked with cells of the line and of the box",
};

static const sdk_technique ape = {
    .abi = SDK_ABI_VERSION,
    .size = sizeof(sdk_technique),
    .id = "aligned-pair-exclusion",
    .name = "Aligned Pair Exclusion",
    .difficulty = 62,
    .score = 300,
    .level = SDK_LEVEL_UNFAIR,
    .find = find_ape,
    .summary = "two cells of a house: values that would empty a common peer are excluded",
};

/* ---- Sue de Coq ------------------------------------------------------------ */

typedef struct sdc {
    const sdk_ctx *ctx; /* for its scratch step */
    const sdk_grid *g;
    sdk_sink *sink;
    int line, box;
    sdk_bb lineset, boxset; /* unsolved cells of the line / the box */
    sdk_bb inter;           /* current intersection cells C */
    unsigned v;             /* their digits */
    sdk_bb lcells;          /* current line cells */
    unsigned lcands;
    int nbox; /* box cells outside C, in order, and their candidates */
    int boxcell[9];
    unsigned boxcand[9];
    unsigned boxv; /* the V digits these box cells hold */
    bool emitted;  /* a step of this line and box went out */
} sdc;

static int cells_of(sdk_bb b, int *out)
{
    int n = 0;
    SDK_BB_FOREACH(c, b) out[n++] = c;
    return n;
}

static int sdc_found(sdc *w, sdk_bb bcells, unsigned bcands)
{
    const sdk_grid *g = w->g;
    sdk_step *s = sdk_scratch_step(w->ctx, 0);
    sdk_step_init(s, &sue_de_coq);
    unsigned both = bcands & w->lcands;
    sdk_bb rest = sdk_bb_andnot(sdk_bb_andnot(w->boxset, bcells), w->inter);
    unsigned m = ((w->v | bcands) & ~w->lcands) | both;
    SDK_BB_FOREACH(c, rest)
        SDK_MASK_FOREACH(d, g->cand[c] & m) sdk_step_elim(s, c, d);
    rest = sdk_bb_andnot(sdk_bb_andnot(w->lineset, w->lcells), w->inter);
    m = ((w->v | w->lcands) & ~bcands) | both;
    SDK_BB_FOREACH(c, rest)
        SDK_MASK_FOREACH(d, g->cand[c] & m) sdk_step_elim(s, c, d);
    if (sdk_step_empty(s)) return SDK_CONTINUE;
    SDK_BB_FOREACH(c, w->inter) sdk_step_mark(s, c, 0, SDK_ROLE_BASE);
    SDK_BB_FOREACH(c, w->lcells) sdk_step_mark(s, c, 0, SDK_ROLE_ALS);
    SDK_BB_FOREACH(c, bcells) sdk_step_mark(s, c, 0, SDK_ROLE_ALS);
    sdk_bb lc = sdk_bb_or(w->lcells, w->inter), bc = sdk_bb_or(bcells, w->inter);
    SDK_BB_FOREACH(c, lc)
        SDK_MASK_FOREACH(d, g->cand[c] & w->lcands) sdk_step_mark(s, c, d, SDK_ROLE_FIN);
    SDK_BB_FOREACH(c, bc)
        SDK_MASK_FOREACH(d, g->cand[c] & bcands) sdk_step_mark(s, c, d, SDK_ROLE_ENDOFIN);
    for (int i = 0; i < s->nelim; i++)
        sdk_step_mark(s, s->elim[i].cell, s->elim[i].digit, SDK_ROLE_TARGET);
    sdk_step_house(s, w->line, SDK_ROLE_BASE);
    sdk_step_house(s, w->box, SDK_ROLE_BASE);
    char a[64], b[64], c[64], va[12], vb[12], vc[12];
    unsigned masks[3] = {w->v, w->lcands, bcands};
    char *vs[3] = {va, vb, vc};
    for (int k = 0; k < 3; k++) {
        int n = 0;
        SDK_MASK_FOREACH(d, masks[k]) vs[k][n++] = (char)('0' + d);
        vs[k][n] = 0;
    }
    sdk_step_printf(s, "Sue de Coq: %s - {%s} (%s - {%s}, %s - {%s})",
                    sdk_cells_compact(w->inter, a, sizeof a), va,
                    sdk_cells_compact(w->lcells, b, sizeof b), vb,
                    sdk_cells_compact(bcells, c, sizeof c), vc);
    w->emitted = true;
    return sdk_emit(w->sink, s);
}

/* Second run: cells of the box (not in C, not used in the line) whose digits
 * avoid the line's V digits (src holds only such cells); they must take
 * exactly nplus V digits. */
static int sdc_box(sdc *w, const int *src, int nsrc, int start, sdk_bb cells, int ncells,
                   unsigned cands, int nplus)
{
    for (int i = start; i < nsrc; i++) {
        sdk_bb nc = cells;
        sdk_bb_add(&nc, src[i]);
        unsigned cm = cands | w->g->cand[src[i]]; /* within allowed: src holds no other */
        int n = ncells + 1;
        int contained = sdk_mask_count(cm & w->v), extra = sdk_mask_count(cm & ~w->v);
        if (contained > 0 && n - extra == nplus)
            if (sdc_found(w, nc, cm) == SDK_STOP) return SDK_STOP;
        /* a larger set has at most n + (nsrc - i - 1) cells and extra
         * extra digits at least: below nplus, none of them is found */
        if (n + (nsrc - i - 1) - extra < nplus) continue;
        if (sdc_box(w, src, nsrc, i + 1, nc, n, cm, nplus) == SDK_STOP) return SDK_STOP;
    }
    return SDK_CONTINUE;
}

/* Leave out the line sets that take every V digit of the box (sdc_line); only
 * test_sdc_cut turns it off, to compare with the search without it. */
static bool sdc_cut_all_taken = true;

/* First run: cells of the line outside C. */
static int sdc_line(sdc *w, const int *src, int nsrc, int start, sdk_bb cells, int ncells,
                    unsigned cands, int nplus)
{
    for (int i = start; i < nsrc; i++) {
        sdk_bb nc = cells;
        sdk_bb_add(&nc, src[i]);
        unsigned cm = cands | w->g->cand[src[i]];
        /* a line set taking every V digit the box cells hold (boxv)
         * leaves the box cells it allows (they avoid the taken digits) no
         * V digit, so no box set of it holds one and none is found; a
         * larger set takes them all too: the sets left out are sets that
         * give nothing, the others keep their order */
        if (sdc_cut_all_taken && !(w->boxv & ~cm)) continue;
        int n = ncells + 1;
        int contained = sdk_mask_count(cm & w->v), extra = sdk_mask_count(cm & ~w->v);
        if (contained > 0 && n > extra && n - extra < nplus) {
            w->lcells = nc;
            w->lcands = cm;
            /* the box cells outside C and the line's cells, in order; a
             * box cell holding a V digit the line took makes every set
             * with it fail: left out, the sets tried are the same in the
             * same order, without the ones that fail */
            unsigned taken = cm & w->v;
            int b[9], nb = 0;
            for (int k = 0; k < w->nbox; k++)
                if (!(w->boxcand[k] & taken) && !sdk_bb_has(nc, w->boxcell[k]))
                    b[nb++] = w->boxcell[k];
            if (nb && sdc_box(w, b, nb, 0, sdk_bb_none(), 0, 0, nplus - (n - extra)) == SDK_STOP)
                return SDK_STOP;
        }
        /* a larger set adds at most one cell per cell left after src[i]
         * and loses no extra digit: with no more cells than extra digits
         * then (n > extra fails for every one), the sets it would try
         * give nothing and are left out, the others keep their order */
        if (n + (nsrc - i - 1) <= extra) continue;
        if (sdc_line(w, src, nsrc, i + 1, nc, n, cm, nplus) == SDK_STOP) return SDK_STOP;
    }
    return SDK_CONTINUE;
}

static int sdc_check(sdc *w, int nplus)
{
    sdk_bb lsrc = sdk_bb_andnot(w->lineset, w->inter);
    int l[9], nl = cells_of(lsrc, l);
    if (!nl) return SDK_CONTINUE;
    w->nbox = cells_of(sdk_bb_andnot(w->boxset, w->inter), w->boxcell);
    w->boxv = 0;
    for (int k = 0; k < w->nbox; k++) {
        w->boxcand[k] = w->g->cand[w->boxcell[k]];
        w->boxv |= w->boxcand[k] & w->v;
    }
    return sdc_line(w, l, nl, 0, sdk_bb_none(), 0, 0, nplus);
}

/* Every Sue de Coq of a line and a box, in the search's order. */
static int sdc_pair(sdc *w)
{
    const sdk_grid *g = w->g;
    int ic[3];
    int n = cells_of(sdk_bb_and(w->lineset, w->boxset), ic);
    for (int i1 = 0; i1 < n - 1; i1++)
        for (int i2 = i1 + 1; i2 < n; i2++) {
            unsigned v2 = g->cand[ic[i1]] | g->cand[ic[i2]];
            w->inter = sdk_bb_or(sdk_bb_cell(ic[i1]), sdk_bb_cell(ic[i2]));
            w->v = v2;
            if (sdk_mask_count(v2) - 2 >= 2 && sdc_check(w, sdk_mask_count(v2) - 2) == SDK_STOP)
                return SDK_STOP;
            for (int i3 = i2 + 1; i3 < n; i3++) {
                unsigned v3 = v2 | g->cand[ic[i3]];
                if (sdk_mask_count(v3) - 3 < 2) continue;
                w->inter = sdk_bb_or(sdk_bb_or(sdk_bb_cell(ic[i1]), sdk_bb_cell(ic[i2])),
                                     sdk_bb_cell(ic[i3]));
                w->v = v3;
                if (sdc_check(w, sdk_mask_count(v3) - 3) == SDK_STOP) return SDK_STOP;
            }
        }
    return SDK_CONTINUE;
}

/* ---- Sue de Coq: lines and boxes already known empty -----------------------
 *
 * What a line and a box give depends on nothing but the candidates (and
 * values) of their cells. The engine asks again after every step, and a
 * step changes a few cells, so per thread the grid of an earlier search is
 * kept with the (line, box) pairs that gave no step there (grid_memo.h, one
 * grid at depth 0 and one inside a propagate): such a pair whose cells did
 * not change gives none now either and is skipped; the others are searched
 * in the usual order, so the steps are those of the full search. */
enum { SDC_PAIRS = 18 * 9 };

typedef struct sdc_memo {
    grid_memo grid;
    uint64_t clean[3]; /* bit line * 9 + box - 18: no step on that grid */
} sdc_memo;

/* the grids of the last search at depth 0 and inside a propagate (grid_memo.h) */
static _Thread_local sdc_memo sdc_last[2];

static bool pair_bit(const uint64_t *set, int p)
{
    return set[p >> 6] >> (p & 63) & 1;
}

static int find_sdc(const sdk_ctx *ctx, const sdk_grid *g, sdk_sink *sink)
{
    /* search from the kept grid with fewer changed cells ("same inputs") */
    const sdc_memo *m = &sdc_last[0];
    sdk_bb changed = grid_memo_changed(&m->grid, g);
    if (sdc_last[1].grid.valid) {
        sdk_bb inner = grid_memo_changed(&sdc_last[1].grid, g);
        if (sdk_bb_count(inner) < sdk_bb_count(changed)) {
            m = &sdc_last[1];
            changed = inner;
        }
    }
    uint64_t was_clean[3], clean[3] = {0, 0, 0};
    memcpy(was_clean, m->clean, sizeof was_clean);
    sdk_bb empty = sdk_bb_andnot((sdk_bb){~0ULL, (1ULL << 17) - 1}, g->solved);
    int rc = SDK_CONTINUE;
    for (int p = 0; p < SDC_PAIRS; p++) {
        int line = p / 9, box = 18 + p % 9;
        sdk_bb region = sdk_bb_or(sdk_house_bb[line], sdk_house_bb[box]);
        bool same = sdk_bb_empty(sdk_bb_and(region, changed));
        if (rc == SDK_STOP || (same && pair_bit(was_clean, p))) {
            /* not searched: clean when it was and nothing changed */
            if (same && pair_bit(was_clean, p)) clean[p >> 6] |= 1ULL << (p & 63);
            continue;
        }
        sdc w = {.ctx = ctx, .g = g, .sink = sink, .line = line, .box = box};
        w.lineset = sdk_bb_and(sdk_house_bb[line], empty);
        w.boxset = sdk_bb_and(sdk_house_bb[box], empty);
        rc = sdc_pair(&w);
        if (!w.emitted) clean[p >> 6] |= 1ULL << (p & 63);
    }
    sdc_memo *out = &sdc_last[pattern_memo_slot(ctx)];
    grid_memo_store(&out->grid, g);
    memcpy(out->clean, clean, sizeof clean);
    return rc;
}

/* ---- Aligned Pair Exclusion ---------------------------------------------------- */

/* Pairs already known to give nothing: a pair (p, q) depends on the
 * candidates of p and q and on those of their unsolved common peers with at
 * most 2 candidates. Per thread an earlier grid is kept with the first pair
 * that gave a step there (grid_memo.h); a pair before it whose cells did not
 * change, nor a common peer unsolved with at most 2 candidates on either
 * grid, gave nothing there and gives nothing now: it is skipped, the others
 * are examined in the usual order. */
static _Thread_local pattern_memo ape_last[2]; /* grid_memo.h, "same inputs" */

static bool ape_small(uint8_t value, uint16_t cand)
{
    return !value && sdk_mask_count(cand) <= 2;
}

/* The rank of pair (p, q) in the search's (cell) order. */
static uint64_t pair_rank(int p, int q)
{
    return (uint64_t)p * SDK_CELLS + (uint64_t)q;
}

static int find_ape(const sdk_ctx *ctx, const sdk_grid *g, sdk_sink *sink)
{
    pattern_since since = pattern_memo_begin(ape_last, g, false);
    const grid_memo *m = since.ref;
    sdk_bb dirty = sdk_bb_none(), xdirty = sdk_bb_none(); /* changed; and small on one grid */
    uint64_t first = m ? since.first : 0;                 /* every pair comes after it: no memo */
    if (m) {
        SDK_BB_FOREACH(c, since.changed) {
            sdk_bb_add(&dirty, c);
            if (ape_small(m->value[c], m->cand[c]) || ape_small(g->value[c], g->cand[c]))
                sdk_bb_add(&xdirty, c);
        }
    }
    uint64_t gave = PATTERN_NONE;
    int rc = ape_search(ctx, g, sink, dirty, xdirty, first, &gave);
    pattern_memo_end(ape_last, ctx, g, gave);
    return rc;
}

static int ape_search(const sdk_ctx *ctx, const sdk_grid *g, sdk_sink *sink, sdk_bb dirty,
                      sdk_bb xdirty, uint64_t first, uint64_t *gave)
{
    const uint64_t hi_all = (1ULL << (SDK_CELLS - 64)) - 1;
    sdk_bb unsolved = sdk_bb_andnot((sdk_bb){~0ULL, hi_all}, g->solved);
    for (int p = 0; p < 81; p++) {
        if (g->value[p]) continue;
        /* the unsolved peers of p after it, in order */
        sdk_bb after = p < 63 ? (sdk_bb){~0ULL << (p + 1), hi_all}
                              : (sdk_bb){0, (hi_all << (p - 63)) & hi_all};
        sdk_bb seconds = sdk_bb_and(sdk_bb_and(sdk_peer_bb[p], unsolved), after);
        if (!sdk_bb_has(dirty, p) && pair_rank(p, SDK_CELLS - 1) < first) {
            /* p clean, every pair with it before the first that gave a
             * step: the pair (p, q) is examined below exactly when q is
             * in dirty or sees a peer x of p in xdirty (x is then a
             * common peer of p and q: a cell is no peer of itself), so
             * the other q are left out at once */
            sdk_bb may = dirty;
            SDK_BB_FOREACH(x, sdk_bb_and(sdk_peer_bb[p], xdirty))
                may = sdk_bb_or(may, sdk_peer_bb[x]);
            seconds = sdk_bb_and(seconds, may);
        }
        while (!sdk_bb_empty(seconds)) {
            int q = sdk_bb_pop(&seconds);
            /* cells seeing both whose candidates could be emptied: at most 2 digits */
            sdk_bb common = sdk_bb_andnot(sdk_bb_and(sdk_peer_bb[p], sdk_peer_bb[q]), g->solved);
            if (!sdk_bb_has(dirty, p) && !sdk_bb_has(dirty, q) &&
                sdk_bb_empty(sdk_bb_and(sdk_bb_and(sdk_peer_bb[p], sdk_peer_bb[q]), xdirty)) &&
                pair_rank(p, q) < first)
                continue; /* as on the last grid: nothing */
            unsigned small[20];
            int ns = 0;
            SDK_BB_FOREACH(c, common)
                if (sdk_mask_count(g->cand[c]) <= 2) small[ns++] = g->cand[c];
            if (!ns) continue;
            unsigned okp = 0, okq = 0;
            SDK_MASK_FOREACH(x, g->cand[p])
                SDK_MASK_FOREACH(y, g->cand[q]) {
                    if (x == y) continue;
                    unsigned xy = sdk_digit_bit(x) | sdk_digit_bit(y);
                    bool dead = false;
                    for (int k = 0; k < ns && !dead; k++) dead = (small[k] & ~xy) == 0;
                    if (dead) continue;
                    okp |= sdk_digit_bit(x);
                    okq |= sdk_digit_bit(y);
                }
            unsigned ep = g->cand[p] & ~okp, eq = g->cand[q] & ~okq;
            if (!ep && !eq) continue;
            sdk_step *s = sdk_scratch_step(ctx, 0);
            sdk_step_init(s, &ape);
            SDK_MASK_FOREACH(d, ep) sdk_step_elim(s, p, d);
            SDK_MASK_FOREACH(d, eq) sdk_step_elim(s, q, d);
            sdk_step_mark(s, p, 0, SDK_ROLE_BASE);
            sdk_step_mark(s, q, 0, SDK_ROLE_BASE);
            SDK_BB_FOREACH(c, common)
                if (sdk_mask_count(g->cand[c]) <= 2) sdk_step_mark(s, c, 0, SDK_ROLE_COVER);
            for (int i = 0; i < s->nelim; i++)
                sdk_step_mark(s, s->elim[i].cell, s->elim[i].digit, SDK_ROLE_TARGET);
            char a[8], b[8];
            sdk_step_printf(s, "Aligned Pair Exclusion: %s,%s", sdk_cell_name(p, a),
                            sdk_cell_name(q, b));
            if (*gave == PATTERN_NONE) *gave = pair_rank(p, q);
            if (sdk_emit(sink, s) == SDK_STOP) return SDK_STOP;
        }
    }
    return SDK_CONTINUE;
}

SDK_PLUGIN(&sue_de_coq, &ape, &sdk_misc_ate)
