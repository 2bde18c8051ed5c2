/* links_se.c - Sudoku Explainer's implication search: potentials with
 * several parents, SE's propagation order, cycles and unary forcing chains,
 * ancestor counts (see sudoku/links_se.h). */
#include "sudoku/alloc.h"
#include "sudoku/links.h"
#include "sudoku/links_se.h"
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

void sdk_se_arena_free(sdk_se_arena *a)
{
    free(a->p);
    free(a->par);
    free(a->scratch);
    memset(a, 0, sizeof *a);
}

static void arena_grow(sdk_se_arena *a, int np)
{
    if (a->n == a->cap) {
        a->cap = a->cap ? a->cap * 2 : 4096;
        a->p = sdk_xrealloc(a->p, sizeof *a->p * (size_t)a->cap);
    }
    if (a->npar + np > a->parcap) {
        while (a->npar + np > a->parcap) a->parcap = a->parcap ? a->parcap * 2 : 8192;
        a->par = sdk_xrealloc(a->par, sizeof *a->par * (size_t)a->parcap);
    }
}

/* sdk_se_new, inlined in the propagation loops (most potentials are made
 * there, a few million a search). */
static inline __attribute__((always_inline)) int pot_new(sdk_se_arena *a, int cand, int on,
                                                         int cause, const int *parents, int np)
{
    if (a->n == a->cap || a->npar + np > a->parcap) arena_grow(a, np);
    /* the counts in locals: the stores below could alias them (int) */
    int n = a->n, npar = a->npar;
    sdk_se_pot *p = &a->p[n];
    p->cand = (int16_t)cand;
    p->on = (uint8_t)on;
    p->cause = (uint8_t)cause;
    p->np = np;
    p->par = npar;
    p->nested = -1;
    p->ncplx = 0;
    int *dst = a->par + npar;
    for (int i = 0; i < np; i++) dst[i] = parents[i];
    a->npar = npar + np;
    a->n = n + 1;
    return n;
}

int sdk_se_new(sdk_se_arena *a, int cand, int on, int cause, const int *parents, int np)
{
    return pot_new(a, cand, on, cause, parents, np);
}

void sdk_se_set_init(sdk_se_set *s)
{
    memset(s->idx, 0xff, sizeof s->idx);
    memset(s->bits, 0, sizeof s->bits);
    s->non = s->noff = 0;
}

void sdk_se_set_clear(sdk_se_set *s)
{
    /* idx of a literal is read only when its bit is set: it is left stale */
    memset(s->bits, 0, sizeof s->bits);
    s->non = s->noff = 0;
}

/* Add potential node (candidate cand, sign on), known not to be in s. */
static inline void set_put(sdk_se_set *s, int node, int cand, int on)
{
    int lit = cand * 2 + on;
    s->idx[lit] = node;
    s->bits[lit >> 6] |= 1ull << (lit & 63);
    if (on)
        s->on_ord[s->non++] = (int16_t)cand;
    else
        s->off_ord[s->noff++] = (int16_t)cand;
}

void sdk_se_set_add(sdk_se_set *s, const sdk_se_arena *a, int node)
{
    const sdk_se_pot *p = &a->p[node];
    if (sdk_se_set_has(s, p->cand * 2 + p->on)) return;
    set_put(s, node, p->cand, p->on);
}

static const int house_order[3] = {SDK_BOX, SDK_ROW, SDK_COL};

/* Cells of b in increasing order into out; returns the new count. */
static inline int bb_cells(sdk_bb b, int *out, int n)
{
    for (uint64_t w = b.lo; w; w &= w - 1) out[n++] = __builtin_ctzll(w);
    for (uint64_t w = b.hi; w; w &= w - 1) out[n++] = 64 + __builtin_ctzll(w);
    return n;
}

/* Other cells of the houses of cell (block, row, column order, no repeats)
 * where g has digit d: the box's cells, then the row's and the column's
 * outside the box, each in increasing cell order (a house's own order). */
static inline int peers_with_groups(const sdk_grid *g, int cell, int d, int *out, int *nbox,
                                    int *nrow)
{
    sdk_bb with = g->digit[d - 1];
    sdk_bb_del(&with, cell);
    sdk_bb box = sdk_house_bb[sdk_cell_house[cell][SDK_BOX]];
    sdk_bb outside = sdk_bb_andnot(with, box);
    int n = bb_cells(sdk_bb_and(with, box), out, 0);
    *nbox = n;
    n = bb_cells(sdk_bb_and(outside, sdk_house_bb[sdk_cell_house[cell][SDK_ROW]]), out, n);
    *nrow = n - *nbox;
    return bb_cells(sdk_bb_and(outside, sdk_house_bb[sdk_cell_house[cell][SDK_COL]]), out, n);
}

static inline int peers_with(const sdk_grid *g, int cell, int d, int *out)
{
    int nb, nr;
    return peers_with_groups(g, cell, d, out, &nb, &nr);
}

static int cause_of(int k)
{
    return k == 0 ? SDK_SE_BLOCK : k == 1 ? SDK_SE_ROW : SDK_SE_COL;
}

/* Whether cand is already true in s and not false: a new true potential
 * for it would be dropped by the caller, so none is made. */
static inline bool known_on(const sdk_se_set *s, int cand)
{
    return sdk_se_set_has(s, cand * 2 + 1) && !sdk_se_set_has(s, cand * 2);
}

/* SE's getOffToOn for the false potential p: new true potentials (arena
 * indices) with their hidden parents taken from s (src: the grid at start). */
static int off_to_on(sdk_se_arena *a, const sdk_grid *g, const sdk_grid *src, const sdk_se_set *s,
                     int p, bool y, bool x, int *out)
{
    int cand = a->p[p].cand, cell = cand / 9, d = cand % 9 + 1, n = 0;
    int par[10];
    if (y && sdk_mask_count(g->cand[cell]) == 2) {
        int other = sdk_mask_first(g->cand[cell] & ~sdk_digit_bit(d));
        int np = 0;
        if (known_on(s, cell * 9 + other - 1)) goto houses;
        par[np++] = p;
        if (src) {
            unsigned gone = src->cand[cell] & ~g->cand[cell];
            SDK_MASK_FOREACH(v, gone) {
                int lit = (cell * 9 + v - 1) * 2;
                if (sdk_se_set_has(s, lit) && np < 10) par[np++] = s->idx[lit];
            }
        }
        out[n++] = pot_new(a, cell * 9 + other - 1, 1, SDK_SE_CELL, par, np);
    }
houses:
    if (x) {
        for (int k = 0; k < 3; k++) {
            int h = sdk_cell_house[cell][house_order[k]];
            sdk_bb pos = sdk_house_digit(g, h, d);
            if (sdk_bb_count(pos) != 2) continue;
            sdk_bb_del(&pos, cell);
            int oc = sdk_bb_first(pos);
            if (oc < 0) continue;
            int ocand = oc * 9 + d - 1;
            bool dup = false;
            for (int i = 0; i < n; i++)
                if (a->p[out[i]].cand == ocand) dup = true;
            if (dup || known_on(s, ocand)) continue;
            int np = 0;
            par[np++] = p;
            if (src) {
                sdk_bb gone = sdk_bb_andnot(sdk_house_digit(src, h, d), sdk_house_digit(g, h, d));
                SDK_BB_FOREACH(c, gone) {
                    int lit = (c * 9 + d - 1) * 2;
                    if (sdk_se_set_has(s, lit) && np < 10) par[np++] = s->idx[lit];
                }
            }
            out[n++] = pot_new(a, ocand, 1, cause_of(k), par, np);
        }
    }
    return n;
}

/* off_to_on on a grid that does not change, from its links (no hidden
 * parents): the same potentials in the same order. */
static int off_to_on_static_run(sdk_se_arena *a, const sdk_se_static *t, const sdk_se_set *s, int p,
                                bool y, int *out)
{
    int cand = a->p[p].cand, n = 0;
    if (y && t->bi[cand] >= 0 && !known_on(s, t->bi[cand]))
        out[n++] = pot_new(a, t->bi[cand], 1, SDK_SE_CELL, &p, 1);
    for (int k = 0; k < 3; k++) {
        int ocand = t->conj[cand][k];
        if (ocand < 0) continue;
        bool dup = false;
        for (int i = 0; i < n; i++)
            if (a->p[out[i]].cand == ocand) dup = true;
        if (dup || known_on(s, ocand)) continue;
        out[n++] = pot_new(a, ocand, 1, cause_of(k), &p, 1);
    }
    return n;
}

bool sdk_se_push_off(sdk_se_run *r, int node)
{
    int lit = r->a->p[node].cand * 2;
    if (sdk_se_set_has(r->s, lit)) return false;
    sdk_se_set_add(r->s, r->a, node);
    if (r->toff < (int)(sizeof r->qoff / sizeof r->qoff[0])) r->qoff[r->toff++] = node;
    return true;
}

void sdk_se_house_counts(const sdk_grid *g, uint8_t out[27][9])
{
    for (int h = 0; h < 27; h++)
        for (int d = 1; d <= 9; d++)
            out[h][d - 1] = (uint8_t)sdk_bb_count(sdk_house_digit(g, h, d));
}

/* Room for `more` potentials with one parent each (no check per node). */
static inline void arena_reserve1(sdk_se_arena *a, int more)
{
    while (a->n + more > a->cap || a->npar + more > a->parcap) {
        if (a->n + more > a->cap) {
            a->cap = a->cap ? a->cap * 2 : 4096;
            a->p = sdk_xrealloc(a->p, sizeof *a->p * (size_t)a->cap);
        }
        if (a->npar + more > a->parcap) {
            a->parcap = a->parcap ? a->parcap * 2 : 8192;
            a->par = sdk_xrealloc(a->par, sizeof *a->par * (size_t)a->parcap);
        }
    }
}

/* pot_new with one parent, room reserved (arena_reserve1). */
static inline __attribute__((always_inline)) int pot_new1(sdk_se_arena *a, int cand, int on,
                                                          int cause, int parent)
{
    int n = a->n, npar = a->npar;
    sdk_se_pot *p = &a->p[n];
    p->cand = (int16_t)cand;
    p->on = (uint8_t)on;
    p->cause = (uint8_t)cause;
    p->np = 1;
    p->par = npar;
    p->nested = -1;
    p->ncplx = 0;
    a->par[npar] = parent;
    a->npar = npar + 1;
    a->n = n + 1;
    return n;
}

/* A true potential p makes candidate k false (cause): skipped when k is
 * already false; a clash when k is true (absurd_on/off set, returns true);
 * else a new false potential, queued. Room reserved (arena_reserve1). */
static inline __attribute__((always_inline)) bool
on_off_step(sdk_se_run *r, sdk_se_set *s, int *qoff, int *toff, int k, int cause, int p)
{
    /* both literals of k in one word: bit 0 false, bit 1 true */
    unsigned two = (unsigned)(s->bits[k >> 5] >> ((k * 2) & 63)) & 3u;
    if (two == 1u) return false;
    if (two & 2u) {
        r->absurd_on = s->idx[k * 2 + 1];
        r->absurd_off = pot_new1(r->a, k, 0, cause, p);
        return true;
    }
    int q = pot_new1(r->a, k, 0, cause, p);
    set_put(s, q, k, 0);
    qoff[(*toff)++] = q;
    return false;
}

/* The true potentials ons[0..n) an off step made: each is queued unless
 * already true; a clash when its candidate is already false (absurd_on/off
 * set, returns true). */
static inline __attribute__((always_inline)) bool queue_ons(sdk_se_run *r, sdk_se_set *s, int *qon,
                                                            int *ton, const int *ons, int n)
{
    for (int i = 0; i < n; i++) {
        int k = r->a->p[ons[i]].cand;
        if (sdk_se_set_has(s, k * 2)) {
            r->absurd_on = ons[i];
            r->absurd_off = s->idx[k * 2];
            return true;
        }
        if (!sdk_se_set_has(s, k * 2 + 1)) {
            set_put(s, ons[i], k, 1);
            qon[(*ton)++] = ons[i];
        }
    }
    return false;
}

/* on_off_step (house cause) for the cells base + each bit of w, in
 * increasing order, of digit di; true on a clash. */
static inline __attribute__((always_inline)) bool
on_off_word(sdk_se_run *r, sdk_se_set *s, int *qoff, int *toff, uint64_t w, int base, int di, int p)
{
    for (; w; w &= w - 1)
        if (on_off_step(r, s, qoff, toff, (base + __builtin_ctzll(w)) * 9 + di, SDK_SE_BLOCK, p))
            return true;
    return false;
}

/* The dynamic propagation loop (chain_loop's work when false potentials
 * leave the grid): the same potentials in the same order, made from the
 * working grid's bitboards directly. A false potential taken from the
 * queue mostly leads nowhere (its cell keeps three candidates or more and
 * no house of it has its digit twice): the house counts kept with the grid
 * (r->hcount) say so in three reads, and only then are places looked up. */
static bool chain_loop_dyn(sdk_se_run *r, const sdk_grid *g0, bool resume)
{
    sdk_se_arena *a = r->a;
    sdk_se_set *s = r->s;
    bool y = !(r->flags & SDK_SE_NISHIO);
    sdk_grid *g = &r->work;
    uint8_t(*hc)[9] = r->hcount;
    bool bad = false;
    if (resume && r->more) r->more(r->more_ctx, a, s, g, g0);
    int hon = r->hon, ton = r->ton, hoff = r->hoff, toff = r->toff;
    int *qon = r->qon, *qoff = r->qoff;
    while (!bad && (hon < ton || hoff < toff)) {
        if (hon < ton) {
            int p = qon[hon++];
            int cand = a->p[p].cand, cell = cand / 9, di = cand % 9;
            arena_reserve1(a, 8 + 20);
            /* the cell's other candidates, then the digit's places in the
             * box, the row outside the box, the column outside the box */
            sdk_bb with = sdk_bb_and(g->digit[di], sdk_peer_bb[cell]);
            sdk_bb box = sdk_house_bb[sdk_cell_house[cell][SDK_BOX]];
            sdk_bb out = sdk_bb_andnot(with, box);
            sdk_bb pb[3] = {sdk_bb_and(with, box),
                            sdk_bb_and(out, sdk_house_bb[sdk_cell_house[cell][SDK_ROW]]),
                            sdk_bb_and(out, sdk_house_bb[sdk_cell_house[cell][SDK_COL]])};
            if (y)
                for (unsigned m = g->cand[cell] & ~(1u << di); m && !bad; m &= m - 1)
                    bad =
                        on_off_step(r, s, qoff, &toff, cell * 9 + __builtin_ctz(m), SDK_SE_CELL, p);
            /* each house's low cells (0-63), then its high ones */
            bad = bad || on_off_word(r, s, qoff, &toff, pb[0].lo, 0, di, p) ||
                  on_off_word(r, s, qoff, &toff, pb[0].hi, 64, di, p) ||
                  on_off_word(r, s, qoff, &toff, pb[1].lo, 0, di, p) ||
                  on_off_word(r, s, qoff, &toff, pb[1].hi, 64, di, p) ||
                  on_off_word(r, s, qoff, &toff, pb[2].lo, 0, di, p) ||
                  on_off_word(r, s, qoff, &toff, pb[2].hi, 64, di, p);
        } else {
            int p = qoff[hoff++];
            int pc = a->p[p].cand, cell = pc / 9, di = pc % 9;
            int hb = sdk_cell_house[cell][SDK_BOX], hr = sdk_cell_house[cell][SDK_ROW],
                hcol = sdk_cell_house[cell][SDK_COL];
            unsigned cm = g->cand[cell];
            int ons[4], n = 0;
            /* off_to_on: the cell's other candidate when it has two, then
             * the other place of the digit in each house where it has two,
             * each with its hidden parents (what left since g0) */
            if (y && sdk_mask_count(cm) == 2) {
                int other = cell * 9 + __builtin_ctz(cm & ~(1u << di));
                if (!known_on(s, other)) {
                    int par[10], np = 0;
                    par[np++] = p;
                    unsigned gone = g0->cand[cell] & ~cm;
                    for (; gone; gone &= gone - 1) {
                        int lit = (cell * 9 + __builtin_ctz(gone)) * 2;
                        if (sdk_se_set_has(s, lit) && np < 10) par[np++] = s->idx[lit];
                    }
                    ons[n++] = pot_new(a, other, 1, SDK_SE_CELL, par, np);
                }
            }
            uint8_t cb = hc[hb][di], cr = hc[hr][di], cc = hc[hcol][di];
            unsigned twos =
                (unsigned)(cb == 2) | (unsigned)(cr == 2) << 1 | (unsigned)(cc == 2) << 2;
            for (; twos; twos &= twos - 1) {
                int k = __builtin_ctz(twos), h = k == 0 ? hb : k == 1 ? hr : hcol;
                sdk_bb pos = sdk_bb_and(sdk_house_bb[h], g->digit[di]);
                sdk_bb_del(&pos, cell);
                int oc = sdk_bb_first(pos);
                if (oc < 0) continue;
                int ocand = oc * 9 + di;
                bool dup = false;
                for (int i = 0; i < n; i++) dup |= a->p[ons[i]].cand == ocand;
                if (dup || known_on(s, ocand)) continue;
                int par[10], np = 0;
                par[np++] = p;
                sdk_bb gone =
                    sdk_bb_andnot(sdk_bb_and(sdk_house_bb[h], g0->digit[di]), g->digit[di]);
                SDK_BB_FOREACH(c, gone) {
                    int lit = (c * 9 + di) * 2;
                    if (sdk_se_set_has(s, lit) && np < 10) par[np++] = s->idx[lit];
                }
                ons[n++] = pot_new(a, ocand, 1, cause_of(k), par, np);
            }
            if (cm & (1u << di)) { /* sdk_grid_eliminate */
                g->cand[cell] = (uint16_t)(cm & ~(1u << di));
                sdk_bb_del(&g->digit[di], cell);
                hc[hb][di] = (uint8_t)(cb - 1), hc[hr][di] = (uint8_t)(cr - 1),
                hc[hcol][di] = (uint8_t)(cc - 1);
            }
            bad = queue_ons(r, s, qon, &ton, ons, n);
        }
        if (!bad && hon == ton && hoff == toff && r->more) {
            r->hon = hon, r->ton = ton, r->hoff = hoff, r->toff = toff;
            r->more(r->more_ctx, a, s, g, g0);
            hon = r->hon, ton = r->ton, hoff = r->hoff, toff = r->toff;
        }
    }
    r->hon = hon, r->ton = ton, r->hoff = hoff, r->toff = toff;
    return bad;
}

/* The propagation loop: from the queues of r on the working grid r->work;
 * resume: the queues are empty at a stall, and `more` is asked first. */
static bool chain_loop(sdk_se_run *r, const sdk_grid *g0, bool resume)
{
    sdk_se_arena *a = r->a;
    sdk_se_set *s = r->s;
    bool dyn = r->flags & SDK_SE_DYNAMIC, y = !(r->flags & SDK_SE_NISHIO);
    sdk_grid *g = &r->work;
    const sdk_se_static *t = dyn ? NULL : r->t;
    bool bad = false;
    if (resume && r->more) r->more(r->more_ctx, a, s, g, g0);
    int peers[24], ons[4];
    /* the queue ends in locals (stores through the int arrays below could
     * be to them, as far as the compiler knows); r has them around more() */
    int hon = r->hon, ton = r->ton, hoff = r->hoff, toff = r->toff;
    int *qon = r->qon, *qoff = r->qoff;
    while (!bad && (hon < ton || hoff < toff)) {
        if (hon < ton) {
            int p = qon[hon++];
            int cand = a->p[p].cand, cell = cand / 9, d = cand % 9 + 1;
            int offs[32], n = 0;
            if (y) {
                SDK_MASK_FOREACH(v, g->cand[cell]) {
                    if (v != d) offs[n++] = cell * 9 + v - 1;
                }
            }
            /* (static: g is the grid t was made from, unchanged) */
            int np = peers_with(g, cell, d, peers);
            for (int i = 0; i < np; i++) offs[n++] = peers[i] * 9 + d - 1;
            for (int i = 0; i < n; i++) {
                int k = offs[i];
                /* both literals of k in one word: bit 0 false, bit 1 true */
                unsigned two = (unsigned)(s->bits[k >> 5] >> ((k * 2) & 63)) & 3u;
                if (two == 1u) continue; /* already false */
                int cause = i < n - np ? SDK_SE_CELL : SDK_SE_BLOCK;
                if (two & 2u) {
                    r->absurd_on = s->idx[k * 2 + 1];
                    r->absurd_off = pot_new(a, k, 0, cause, &p, 1);
                    bad = true;
                    break;
                }
                int q = pot_new(a, k, 0, cause, &p, 1);
                set_put(s, q, k, 0);
                qoff[toff++] = q;
            }
        } else {
            int p = qoff[hoff++];
            int n = t ? off_to_on_static_run(a, t, s, p, y, ons)
                      : off_to_on(a, g, dyn ? g0 : NULL, s, p, y, true, ons);
            if (dyn) { /* sdk_grid_eliminate, here: a few million times a search */
                int pc = a->p[p].cand, pcell = pc / 9;
                if (g->cand[pcell] & (1u << (pc % 9))) {
                    g->cand[pcell] &= (uint16_t) ~(1u << (pc % 9));
                    sdk_bb_del(&g->digit[pc % 9], pcell);
                }
            }
            bad = queue_ons(r, s, qon, &ton, ons, n);
        }
        if (!bad && hon == ton && hoff == toff && r->more) {
            r->hon = hon, r->ton = ton, r->hoff = hoff, r->toff = toff;
            r->more(r->more_ctx, a, s, g, g0);
            hon = r->hon, ton = r->ton, hoff = r->hoff, toff = r->toff;
        }
    }
    r->hon = hon, r->ton = ton, r->hoff = hoff, r->toff = toff;
    return bad;
}

bool sdk_se_chain(sdk_se_run *r, const sdk_grid *g0)
{
    sdk_se_set *s = r->s;
    r->work = *g0;
    r->hon = r->ton = r->hoff = r->toff = 0;
    r->absurd_on = r->absurd_off = -1;
    for (int i = 0; i < s->non; i++) r->qon[r->ton++] = s->idx[s->on_ord[i] * 2 + 1];
    for (int i = 0; i < s->noff; i++) r->qoff[r->toff++] = s->idx[s->off_ord[i] * 2];
    if (r->flags & SDK_SE_DYNAMIC) {
        if (r->hcount0)
            memcpy(r->hcount, r->hcount0, sizeof r->hcount);
        else
            sdk_se_house_counts(g0, r->hcount);
        return chain_loop_dyn(r, g0, false);
    }
    return chain_loop(r, g0, false);
}

bool sdk_se_chain_resume(sdk_se_run *r, const sdk_grid *g0)
{
    r->hon = r->ton = r->hoff = r->toff = 0;
    r->absurd_on = r->absurd_off = -1;
    if (r->flags & SDK_SE_DYNAMIC) {
        sdk_se_house_counts(&r->work, r->hcount);
        return chain_loop_dyn(r, g0, true);
    }
    return chain_loop(r, g0, true);
}

void sdk_se_lits_of_set(const sdk_se_set *s, sdk_se_lits *out)
{
    memset(out, 0, sizeof *out);
    for (int i = 0; i < s->non; i++) sdk_bb_add(&out->b[s->on_ord[i] % 9], s->on_ord[i] / 9);
    for (int i = 0; i < s->noff; i++) sdk_bb_add(&out->b[9 + s->off_ord[i] % 9], s->off_ord[i] / 9);
}

/* The working state of sdk_se_closure: the literals found (out's boards),
 * the places of each digit in each house not yet false (hc, from the
 * grid's counts), the candidates of a cell not yet false (cc, from
 * sdk_se_closure_cells), and the true literals whose consequences are
 * still to be drawn (queue). */
typedef struct closure_state {
    const sdk_grid *g;
    const uint8_t (*hcount)[9];
    sdk_bb *on, *off;
    bool y;
    int tail;
    uint8_t hc[27][9], cc[81];
    int16_t queue[729];
} closure_state;

/* A count no false place can take down to one: that of a house or cell that
 * holds a true literal. Its other places are all made false by that literal,
 * and the literal itself never becomes false without a clash (a false
 * literal is refused where its true one is there, and a true one is made
 * only where its candidate is not false), so the last-place rule would only
 * find that true literal again: nothing to do, and no count to keep. */
#define CLOSURE_HELD 64

/* What candidate di + 1 of cell being false (just added to off) implies:
 * the last place of its digit in each of its houses, and (y) the last
 * candidate of its cell, become true (queued). False on a clash: a house
 * or cell with two places or more all false. cell_held: cell's own count
 * is known to be held (CLOSURE_HELD), where a count changes nothing. */
static inline __attribute__((always_inline)) bool closure_off(closure_state *st, int cell, int di,
                                                              bool cell_held)
{
    sdk_bb *on = st->on, *off = st->off;
    for (int k = 0; k < 3; k++) {
        int h = sdk_cell_house[cell][k], n = --st->hc[h][di];
        if (n > 1) continue;
        if (n == 0) {
            if (st->hcount[h][di] >= 2) return false; /* every place false */
            continue;
        }
        sdk_bb rest = sdk_bb_andnot(sdk_bb_and(sdk_house_bb[h], st->g->digit[di]), off[di]);
        if (sdk_bb_empty(rest) || !sdk_bb_empty(sdk_bb_and(rest, on[di]))) continue;
        on[di] = sdk_bb_or(on[di], rest);
        st->queue[st->tail++] = (int16_t)(sdk_bb_first(rest) * 9 + di);
    }
    if (!st->y || cell_held) return true; /* no cell links, or nothing to count */
    /* (a cell of one candidate has CLOSURE_HELD: no cell link) */
    int n = --st->cc[cell];
    if (n > 1) return true;
    if (n == 0) return false;
    for (unsigned m = st->g->cand[cell]; m; m &= m - 1) {
        int e = __builtin_ctz(m);
        if (sdk_bb_has(off[e], cell)) continue;
        if (!sdk_bb_has(on[e], cell)) {
            sdk_bb_add(&on[e], cell);
            st->queue[st->tail++] = (int16_t)(cell * 9 + e);
        }
        break;
    }
    return true;
}

void sdk_se_closure_cells(const sdk_grid *g, uint8_t out[81])
{
    for (int cell = 0; cell < 81; cell++) {
        int n = sdk_mask_count(g->cand[cell]);
        out[cell] = (uint8_t)(n >= 2 ? n : CLOSURE_HELD);
    }
}

bool sdk_se_closure(const sdk_grid *g, const uint8_t hcount[27][9], const uint8_t ccount[81],
                    int lit, bool y, sdk_se_lits *out)
{
    /* The least set closed under the rules does not depend on the order
     * they are applied in, nor does whether it holds a clash: a false
     * literal's consequences are drawn as soon as it is found, a true
     * literal's when it leaves the queue. */
    int cand = lit >> 1, cell = cand / 9, di = cand % 9;
    memset(out, 0, sizeof *out);
    if (!(lit & 1)) { /* a false candidate without a strong link: itself */
        unsigned m = g->cand[cell];
        if (!(y && sdk_mask_count(m) == 2) && hcount[sdk_cell_house[cell][0]][di] != 2 &&
            hcount[sdk_cell_house[cell][1]][di] != 2 && hcount[sdk_cell_house[cell][2]][di] != 2) {
            sdk_bb_add(&out->b[9 + di], cell);
            return true;
        }
    }
    closure_state st;
    st.g = g;
    st.hcount = hcount;
    st.on = out->b;
    st.off = out->b + 9;
    st.y = y;
    st.tail = 0;
    memcpy(st.hc, hcount, sizeof st.hc);
    if (y) memcpy(st.cc, ccount, sizeof st.cc);
    sdk_bb *on = st.on, *off = st.off;
    if (lit & 1) {
        sdk_bb_add(&on[di], cell);
        st.queue[st.tail++] = (int16_t)cand;
    } else {
        sdk_bb_add(&off[di], cell);
        if (!closure_off(&st, cell, di, false)) return false;
    }
    for (int head = 0; head < st.tail; head++) {
        cand = st.queue[head], cell = cand / 9, di = cand - cell * 9;
        unsigned m = g->cand[cell];
        for (int k = 0; k < 3; k++) st.hc[sdk_cell_house[cell][k]][di] = CLOSURE_HELD;
        if (y && (m & (m - 1))) {
            st.cc[cell] = CLOSURE_HELD;
            for (m &= ~(1u << di); m; m &= m - 1) {
                int e = __builtin_ctz(m);
                if (sdk_bb_has(on[e], cell)) return false;
                if (sdk_bb_has(off[e], cell)) continue;
                sdk_bb_add(&off[e], cell);
                /* held just above: the cell's count is not kept */
                if (!closure_off(&st, cell, e, true)) return false;
            }
        }
        sdk_bb seen = sdk_bb_and(sdk_peer_bb[cell], g->digit[di]);
        if (!sdk_bb_empty(sdk_bb_and(seen, on[di]))) return false;
        seen = sdk_bb_andnot(seen, off[di]);
        off[di] = sdk_bb_or(off[di], seen);
        for (uint64_t w = seen.lo; w; w &= w - 1)
            if (!closure_off(&st, __builtin_ctzll(w), di, false)) return false;
        for (uint64_t w = seen.hi; w; w &= w - 1)
            if (!closure_off(&st, 64 + __builtin_ctzll(w), di, false)) return false;
    }
    return true;
}

bool sdk_se_closure_keeps(const sdk_se_lits *l, const int16_t *diff, int n, bool y)
{
    const sdk_bb *on = l->b, *off = l->b + 9;
    sdk_bb any = sdk_bb_none(); /* cells with a literal, for y */
    if (y)
        for (int e = 0; e < 9; e++) any = sdk_bb_or(any, sdk_bb_or(on[e], off[e]));
    for (int i = 0; i < n; i++) {
        int cell = diff[i] / 9, di = diff[i] % 9;
        if (sdk_bb_has(any, cell)) return false;
        sdk_bb near = sdk_peer_bb[cell];
        sdk_bb_add(&near, cell);
        if (!sdk_bb_empty(sdk_bb_and(on[di], near))) return false;
        /* a cell's peers are the cells of its three houses */
        if (!sdk_bb_empty(sdk_bb_and(off[di], near))) return false;
    }
    return true;
}

void sdk_se_static_init(sdk_se_static *t, const sdk_grid *g)
{
    memcpy(t->cand, g->cand, sizeof t->cand);
    memcpy(t->digit, g->digit, sizeof t->digit);
    memset(t->strongbb, 0, sizeof t->strongbb);
    /* each house's places of each digit when there are two (the
     * conjugates), else -1: made once, read by every candidate */
    int16_t two[27][9][2];
    for (int h = 0; h < 27; h++)
        for (int di = 0; di < 9; di++) {
            sdk_bb pos = sdk_bb_and(sdk_house_bb[h], g->digit[di]);
            two[h][di][0] = two[h][di][1] = -1;
            if (sdk_bb_count(pos) != 2) continue;
            int a = sdk_bb_first(pos);
            two[h][di][0] = (int16_t)a;
            two[h][di][1] = (int16_t)sdk_bb_next(pos, a);
        }
    for (int cell = 0; cell < 81; cell++) {
        unsigned m = g->cand[cell];
        if (!m) continue;
        int nc = sdk_mask_count(m);
        int hb = sdk_cell_house[cell][SDK_BOX], hr = sdk_cell_house[cell][SDK_ROW],
            hcol = sdk_cell_house[cell][SDK_COL];
        SDK_MASK_FOREACH(d, m) {
            int di = d - 1, cand = cell * 9 + di;
            t->bi[cand] =
                (int16_t)(nc == 2 ? cell * 9 + sdk_mask_first(m & ~sdk_digit_bit(d)) - 1 : -1);
            const int hk[3] = {hb, hr, hcol};
            for (int k = 0; k < 3; k++) {
                const int16_t *tw = two[hk[k]][di];
                /* a cell of a house of two places: the other one */
                t->conj[cand][k] =
                    (int16_t)(tw[0] < 0 ? -1 : (tw[0] == cell ? tw[1] : tw[0]) * 9 + di);
            }
            bool conj = (t->conj[cand][0] & t->conj[cand][1] & t->conj[cand][2]) >= 0;
            t->strong[cand] = (uint8_t)((nc == 2) | conj << 1);
            if (nc == 2) sdk_bb_add(&t->strongbb[0][di], cell);
            if (conj) sdk_bb_add(&t->strongbb[1][di], cell);
        }
    }
}

/* The links of candidate cand (present on g) as sdk_se_static_init makes
 * them: bivalue partner, the other place of its digit in its box, row and
 * column when there are two, and its strong bits. */
static void static_cand(sdk_se_static *t, const sdk_grid *g, int cand)
{
    int cell = cand / 9, di = cand % 9;
    unsigned m = g->cand[cell];
    bool bi = sdk_mask_count(m) == 2;
    t->bi[cand] = (int16_t)(bi ? cell * 9 + __builtin_ctz(m & ~(1u << di)) : -1);
    const int hk[3] = {sdk_cell_house[cell][SDK_BOX], sdk_cell_house[cell][SDK_ROW],
                       sdk_cell_house[cell][SDK_COL]};
    for (int k = 0; k < 3; k++) {
        sdk_bb pos = sdk_bb_and(sdk_house_bb[hk[k]], g->digit[di]);
        int other = -1;
        if (sdk_bb_count(pos) == 2) {
            int a = sdk_bb_first(pos);
            other = a == cell ? sdk_bb_next(pos, a) : a;
        }
        t->conj[cand][k] = (int16_t)(other < 0 ? -1 : other * 9 + di);
    }
    bool conj = (t->conj[cand][0] & t->conj[cand][1] & t->conj[cand][2]) >= 0;
    t->strong[cand] = (uint8_t)(bi | conj << 1);
    if (bi) sdk_bb_add(&t->strongbb[0][di], cell);
    if (conj) sdk_bb_add(&t->strongbb[1][di], cell);
}

/* sdk_se_static_init(t, g) where t holds the links of another grid (made by
 * sdk_se_static_init or this): what that writes depends, for a candidate of
 * g, on its cell's candidates (bi) and on the places of its digit in its
 * three houses (conj), so only the candidates of a cell whose candidates
 * changed, or of a digit in a house where that digit's places changed, are
 * made again (static_cand, the same formulas); the others keep what they
 * hold, which is what they would be given. A candidate g does not have is
 * not written by sdk_se_static_init either (its entries stay as they are),
 * and is not in strongbb. So t ends byte for byte as sdk_se_static_init
 * would leave it. Grids far apart are made whole. */
void sdk_se_static_update(sdk_se_static *t, const sdk_grid *g)
{
    uint16_t cells_changed[81];
    int nchanged = 0, ndiff = 0;
    for (int cell = 0; cell < 81; cell++) {
        unsigned x = t->cand[cell] ^ g->cand[cell];
        if (!x) continue;
        cells_changed[nchanged++] = (uint16_t)cell;
        ndiff += sdk_mask_count(x);
    }
    if (ndiff > 12) {
        sdk_se_static_init(t, g);
        return;
    }
    /* the (house, digit) pairs whose places changed, as digit masks, and
     * the candidates to make again, as boards by digit */
    uint16_t dirty[27] = {0};
    sdk_bb redo[9];
    memset(redo, 0, sizeof redo);
    for (int i = 0; i < nchanged; i++) {
        int cell = cells_changed[i];
        unsigned x = t->cand[cell] ^ g->cand[cell];
        for (int k = 0; k < 3; k++) dirty[sdk_cell_house[cell][k]] |= (uint16_t)x;
        /* the cell's own candidates (bi), and those it lost leave strongbb */
        SDK_MASK_FOREACH(d, g->cand[cell]) sdk_bb_add(&redo[d - 1], cell);
        SDK_MASK_FOREACH(d, x) {
            sdk_bb_del(&t->strongbb[0][d - 1], cell);
            sdk_bb_del(&t->strongbb[1][d - 1], cell);
        }
    }
    for (int h = 0; h < 27; h++)
        SDK_MASK_FOREACH(d, dirty[h]) {
            sdk_bb with = sdk_bb_and(sdk_house_bb[h], g->digit[d - 1]);
            redo[d - 1] = sdk_bb_or(redo[d - 1], with);
        }
    memcpy(t->cand, g->cand, sizeof t->cand);
    memcpy(t->digit, g->digit, sizeof t->digit);
    for (int di = 0; di < 9; di++) {
        SDK_BB_FOREACH(cell, redo[di]) {
            sdk_bb_del(&t->strongbb[0][di], cell);
            sdk_bb_del(&t->strongbb[1][di], cell);
            static_cand(t, g, cell * 9 + di);
        }
    }
}

/* Static on -> off from candidate cand: the false candidates and their
 * causes (nodes are made only for those the search keeps). */
static inline __attribute__((always_inline)) int on_to_off(const sdk_se_static *t, int cand, bool y,
                                                           int *ks, uint8_t *cs)
{
    int cell = cand / 9, d = cand % 9 + 1, n = 0;
    if (y) {
        SDK_MASK_FOREACH(v, t->cand[cell]) {
            if (v != d) {
                ks[n] = cell * 9 + v - 1;
                cs[n++] = SDK_SE_CELL;
            }
        }
    }
    sdk_bb pb[3];
    sdk_se_static_peers(t, cand, pb);
    for (int k = 0; k < 3; k++) {
        int first = n;
        n = bb_cells(pb[k], ks, n);
        for (int i = first; i < n; i++) {
            ks[i] = ks[i] * 9 + d - 1;
            cs[i] = (uint8_t)cause_of(k);
        }
    }
    return n;
}

/* Static off -> on (off_to_on without hidden parents) from the table. */
static inline __attribute__((always_inline)) int
off_to_on_static(const sdk_se_static *t, int cand, bool y, bool x, int *ks, uint8_t *cs)
{
    int n = 0;
    if (y && t->bi[cand] >= 0) {
        ks[n] = t->bi[cand];
        cs[n++] = SDK_SE_CELL;
    }
    if (x)
        for (int k = 0; k < 3; k++) {
            int oc = t->conj[cand][k];
            if (oc < 0) continue;
            bool dup = false;
            for (int i = 0; i < n; i++) dup |= ks[i] == oc;
            if (dup) continue;
            ks[n] = oc;
            cs[n++] = (uint8_t)cause_of(k);
        }
    return n;
}

/* A component completed: its size, and its literals in order (the last
 * pushed first, as Tarjan's stack pops them). */
static void scc_done(void *ctx, int c, const int *members, int k)
{
    sdk_se_scc *r = ctx;
    r->ostart[c] = (int16_t)r->norder;
    for (int i = k - 1; i >= 0; i--) r->order[r->norder++] = r->lit[members[i]];
    r->size[c] = (int16_t)k;
}

/* The edges of the true literal of candidate di + 1 of cell, from adj[m]
 * on: the false literals of its cell's other linked candidates (y) and of
 * its linked peers with the digit (r->lmask, r->ldigit, r->node made). */
static int true_edges(sdk_se_scc *r, int cell, int di, bool y, int m)
{
    if (y)
        for (unsigned u = r->lmask[cell] & ~(1u << di); u; u &= u - 1)
            r->adj[m++] = r->node[(cell * 9 + __builtin_ctz(u)) * 2];
    sdk_bb pb = sdk_bb_and(sdk_peer_bb[cell], r->ldigit[di]);
    for (uint64_t w = pb.lo; w; w &= w - 1)
        r->adj[m++] = r->node[(__builtin_ctzll(w) * 9 + di) * 2];
    for (uint64_t w = pb.hi; w; w &= w - 1)
        r->adj[m++] = r->node[((64 + __builtin_ctzll(w)) * 9 + di) * 2];
    return m;
}

void sdk_se_scc_init(sdk_se_scc *r, const sdk_se_static *t, bool y, bool x)
{
    /* The graph as adjacency lists, then its components (sdk_graph_scc).
     * A false literal whose candidate has no strong link here (no bivalue
     * partner, no conjugate) leads nowhere: it is left out of the graph
     * with the edges into it (most of the edges), which changes no
     * component; sdk_se_reach looks at its predecessors instead.
     *
     * The true literal of such an unlinked candidate has no edge into it
     * either: the false literals with an edge to a true one are those of
     * its bivalue partner or conjugates, and the links are symmetric, so
     * its candidate would be linked. It is a source, alone in its
     * component, and it reaches only literals of linked candidates: a true
     * literal's edges go to the false literals of linked candidates, a
     * linked false literal's to the true literals of its partner or
     * conjugates, linked as well. So the linked candidates' literals are
     * numbered first (nodes 0..nlink) and their components found among
     * them alone, and each unlinked true literal is a component of its own
     * after those (most of the nodes on the nested grids, which have few
     * strong links). The numbers stay an order in which no literal reaches
     * a larger number (a source numbered above all may reach any), which
     * is all the callers read from them besides which literals share a
     * component (sdk_se_reach, the closures of se_chain.c, the sizes): the
     * answers do not depend on which such order; test_se_static checks
     * them against the reachability of the whole graph. */
    r->t = t;
    r->y = y;
    /* the linked candidates as a mask per cell and a bit board per digit
     * (strongbb: a bivalue partner, a conjugate): a true literal's edges
     * are its cell's other linked digits and its linked peers (the order
     * of the edges changes no component) */
    uint16_t *lmask = r->lmask;
    sdk_bb *ldigit = r->ldigit;
    memset(r->lmask, 0, sizeof r->lmask);
    memset(r->node, 0xff, sizeof r->node);
    memset(r->comp, 0xff, sizeof r->comp);
    memset(r->linked, 0, sizeof r->linked);
    for (int di = 0; di < 9; di++) {
        sdk_bb l = {0, 0};
        if (y) l = t->strongbb[0][di];
        if (x) l = sdk_bb_or(l, t->strongbb[1][di]);
        ldigit[di] = l;
        SDK_BB_FOREACH(cell, l) lmask[cell] |= (uint16_t)(1u << di);
    }
    int nn = 0;
    for (int cell = 0; cell < 81; cell++)
        for (unsigned lm = lmask[cell]; lm; lm &= lm - 1) {
            int c = cell * 9 + __builtin_ctz(lm);
            r->linked[c] = true;
            r->lit[nn] = (int16_t)(c * 2);
            r->node[c * 2] = (int16_t)nn++;
            r->lit[nn] = (int16_t)(c * 2 + 1);
            r->node[c * 2 + 1] = (int16_t)nn++;
        }
    int nlink = nn, m = 0, ks[40];
    uint8_t cs[40];
    for (int v = 0; v < nlink; v++) {
        int lit = r->lit[v], c = lit >> 1;
        r->first[v] = m;
        if (lit & 1)
            m = true_edges(r, c / 9, c % 9, y, m);
        else {
            int n = off_to_on_static(t, c, y, x, ks, cs);
            for (int i = 0; i < n; i++) r->adj[m++] = r->node[ks[i] * 2 + 1];
        }
    }
    r->first[nlink] = m; /* where the unlinked ones' edges start */
    int comp[1458], work[5 * 1458];
    r->norder = 0;
    int ncomp = sdk_graph_scc(nlink, r->first, r->adj, NULL, comp, work, scc_done, r);
    r->nlinkcomp = ncomp;
    for (int v = 0; v < nlink; v++) r->comp[r->lit[v]] = r->cnode[v] = (int16_t)comp[v];
    /* the unlinked true literals, a component each */
    for (int cell = 0; cell < 81; cell++)
        for (unsigned um = t->cand[cell] & ~(unsigned)lmask[cell]; um; um &= um - 1) {
            int di = __builtin_ctz(um), lit = (cell * 9 + di) * 2 + 1;
            r->lit[nn] = (int16_t)lit;
            r->node[lit] = (int16_t)nn;
            r->first[nn] = m;
            m = true_edges(r, cell, di, y, m);
            r->comp[lit] = r->cnode[nn++] = (int16_t)ncomp;
            r->ostart[ncomp] = (int16_t)r->norder;
            r->order[r->norder++] = (int16_t)lit;
            r->size[ncomp++] = 1;
        }
    r->first[nn] = m;
    r->nnode = nn;
    r->ncomp = ncomp;
}

/* Whether literal `to` is reached from literal `from` (the question of bit
 * j), given the component masks after a pass, when `to` may be a false
 * literal left out of the graph: then through one of its predecessors, the
 * true literals of the candidates that see its candidate. Of those, the
 * unlinked ones are sources alone in their components (sdk_se_scc_init)
 * whose mask holds the bits of the questions asked from them only: bit j
 * there is `from` itself. So the linked ones are read, and `from`. */
static bool reached(const sdk_se_scc *r, const uint64_t *mask, int from, int to, int j)
{
    if (r->comp[to] >= 0) return (mask[r->comp[to]] >> j) & 1;
    int cand = to >> 1, cell = cand / 9, di = cand % 9;
    if (from & 1) {
        int fc = from >> 1, fcell = fc / 9;
        if (fc != cand && ((r->y && fcell == cell) || (fc % 9 == di && sdk_sees(fcell, cell))))
            return true;
    }
    if (r->y)
        for (unsigned m = r->lmask[cell] & ~(1u << di); m; m &= m - 1)
            if ((mask[r->comp[(cell * 9 + __builtin_ctz(m)) * 2 + 1]] >> j) & 1) return true;
    sdk_bb all = sdk_bb_and(r->ldigit[di], sdk_peer_bb[cell]);
    for (uint64_t w = all.lo; w; w &= w - 1)
        if ((mask[r->comp[(__builtin_ctzll(w) * 9 + di) * 2 + 1]] >> j) & 1) return true;
    for (uint64_t w = all.hi; w; w &= w - 1)
        if ((mask[r->comp[((64 + __builtin_ctzll(w)) * 9 + di) * 2 + 1]] >> j) & 1) return true;
    return false;
}

void sdk_se_reach(const sdk_se_scc *r, const int *from, const int *to, int n, bool *out)
{
    /* the same component reaches itself; a smaller number never reaches a
     * larger one; the rest is decided 64 at a time */
    int ask[1458];
    uint64_t mask[1458];
    int nask = 0;
    if (n > 1458) n = 1458; /* distinct sources: one question per literal at most */
    for (int i = 0; i < n; i++) {
        int cf = r->comp[from[i]], ct = r->comp[to[i]];
        out[i] = false;
        if (cf < 0) continue; /* a false literal that leads nowhere */
        if (ct >= 0 && cf == ct)
            out[i] = true;
        else if ((ct < 0 || cf > ct) && r->first[r->node[from[i]] + 1] > r->first[r->node[from[i]]])
            ask[nask++] = i;
    }
    for (int b = 0; b < nask; b += 64) {
        int k = nask - b < 64 ? nask - b : 64, hi = 0;
        memset(mask, 0, sizeof *mask * (size_t)r->ncomp);
        for (int j = 0; j < k; j++) {
            int cf = r->comp[from[ask[b + j]]];
            mask[cf] |= 1ull << j;
            if (cf > hi) hi = cf;
            if (cf >= r->nlinkcomp) {
                /* a true literal alone with no edge in (sdk_se_scc_init):
                 * what it passes on is its own bit, now */
                int nd = r->node[from[ask[b + j]]];
                for (int e = r->first[nd]; e < r->first[nd + 1]; e++)
                    mask[r->cnode[r->adj[e]]] |= 1ull << j;
            }
        }
        /* sources first: a component's in-edges come from larger numbers;
         * nothing above the largest source is reached, and the components
         * above the linked ones are done */
        int lim = hi + 1 < r->nlinkcomp ? hi + 1 : r->nlinkcomp;
        int top = lim < r->ncomp ? r->ostart[lim] : r->norder;
        for (int i = top - 1; i >= 0; i--) {
            int v = r->order[i];
            uint64_t m = mask[r->comp[v]];
            if (!m) continue;
            int nd = r->node[v];
            for (int e = r->first[nd]; e < r->first[nd + 1]; e++) mask[r->cnode[r->adj[e]]] |= m;
        }
        for (int j = 0; j < k; j++)
            out[ask[b + j]] = reached(r, mask, from[ask[b + j]], to[ask[b + j]], j);
    }
}

/* The unary searches below visit many potentials but report few chains:
 * nodes live in small local tables (a potential by its literal or by its
 * entry in the off list) and only the chains reported are copied into the
 * arena, root first, with the same candidates, signs, causes and parents as
 * if every visited potential had been an arena node. */

/* An off potential of the cycle search: reached from the true potential of
 * candidate `from` (each true candidate is visited once). */
typedef struct cyc_off {
    int16_t cand, from;
    uint8_t cause;
} cyc_off;

typedef struct cyc_tabs {
    int on_par[729]; /* true cand -> index in offs of its parent, -1: the source */
    uint8_t on_cause[729];
    int on_node[729]; /* arena index once copied, -1 before */
    cyc_off offs[729 * 28];
    int off_node[729 * 28];
    uint64_t anc[729][12]; /* true cand -> false cands on its chain */
    uint32_t seen[729];    /* true cand visited by the search numbered gen */
    uint32_t gen;
} cyc_tabs;

/* Copy the chain ending at true candidate `cand` into the arena. */
static int cyc_copy_on(sdk_se_arena *a, cyc_tabs *t, int cand);
static int cyc_copy_off(sdk_se_arena *a, cyc_tabs *t, int off)
{
    if (t->off_node[off] >= 0) return t->off_node[off];
    int par = cyc_copy_on(a, t, t->offs[off].from);
    return t->off_node[off] = sdk_se_new(a, t->offs[off].cand, 0, t->offs[off].cause, &par, 1);
}
static int cyc_copy_on(sdk_se_arena *a, cyc_tabs *t, int cand)
{
    if (t->on_node[cand] >= 0) return t->on_node[cand];
    int node;
    if (t->on_par[cand] < 0)
        node = sdk_se_new(a, cand, 1, SDK_SE_ASSUMED, NULL, 0);
    else {
        int par = cyc_copy_off(a, t, t->on_par[cand]);
        node = sdk_se_new(a, cand, 1, t->on_cause[cand], &par, 1);
    }
    return t->on_node[cand] = node;
}

/* Whether candidate k (false) is on the chain to true candidate `on`: each
 * true candidate keeps the false candidates of its chain as a bit set. */
static inline bool cyc_has_off(const cyc_tabs *t, int on, int k)
{
    return (t->anc[on][k >> 6] >> (k & 63)) & 1;
}

int sdk_se_cycles(sdk_se_arena *a, const sdk_se_static *g, int cand, bool y, bool x, int *out,
                  int max)
{
    if (!a->scratch) {
        a->scratch = sdk_xcalloc(1, sizeof(cyc_tabs));
    }
    cyc_tabs *t = a->scratch;
    if (++t->gen == 0) { /* numbers wrapped: start again from a clean table */
        memset(t->seen, 0, sizeof t->seen);
        t->gen = 1;
    }
    uint32_t gen = t->gen;
    int16_t pon[729];
    int hon = 0, non = 0, hoff = 0, noff = 0;
    int nout = 0, ends_par[512];
    uint8_t ends_cause[512];
    t->seen[cand] = gen;
    t->on_par[cand] = -1;
    memset(t->anc[cand], 0, sizeof t->anc[cand]);
    pon[non++] = (int16_t)cand;
    int length = 0, ks[40];
    uint8_t cs[40];
    unsigned strong = (y ? 1u : 0u) | (x ? 2u : 0u);
    while (hon < non || hoff < noff) {
        length++;
        while (hon < non) {
            /* on_to_off, read in place: the cell's other candidates, then
             * the peers. A false candidate without a strong link of the
             * search leads nowhere and ends no cycle: it is not kept */
            int p = pon[hon++], cell = p / 9, di = p % 9;
            if (y)
                for (unsigned m = g->cand[cell] & ~(1u << di); m; m &= m - 1) {
                    int k = cell * 9 + __builtin_ctz(m);
                    if ((g->strong[k] & strong) && !cyc_has_off(t, p, k)) {
                        t->offs[noff].cand = (int16_t)k;
                        t->offs[noff].from = (int16_t)p;
                        t->offs[noff++].cause = SDK_SE_CELL;
                    }
                }
            /* the peers with a strong link of the search, in SE's order */
            sdk_bb pb[3], sel = sdk_bb_none();
            sdk_se_static_peers(g, p, pb);
            if (y) sel = g->strongbb[0][di];
            if (x) sel = sdk_bb_or(sel, g->strongbb[1][di]);
            for (int h = 0; h < 3; h++) {
                sdk_bb b = sdk_bb_and(pb[h], sel);
                int at = bb_cells(b, ks, 0);
                for (int i = 0; i < at; i++) {
                    int k = ks[i] * 9 + di;
                    if (cyc_has_off(t, p, k)) continue;
                    t->offs[noff].cand = (int16_t)k;
                    t->offs[noff].from = (int16_t)p;
                    t->offs[noff++].cause = (uint8_t)cause_of(h);
                }
            }
        }
        length++;
        while (hoff < noff) {
            int p = hoff++;
            int n = off_to_on_static(g, t->offs[p].cand, y, x, ks, cs);
            for (int i = 0; i < n; i++) {
                int k = ks[i];
                if (length >= 4 && k == cand && nout < max) {
                    ends_par[nout] = p;
                    ends_cause[nout++] = cs[i];
                }
                if (t->seen[k] != gen) {
                    t->seen[k] = gen;
                    t->on_par[k] = p;
                    int from = t->offs[p].from, oc = t->offs[p].cand;
                    memcpy(t->anc[k], t->anc[from], sizeof t->anc[k]);
                    t->anc[k][oc >> 6] |= 1ull << (oc & 63);
                    t->on_cause[k] = cs[i];
                    pon[non++] = (int16_t)k;
                }
            }
        }
    }
    if (nout) {
        for (int i = 0; i < non; i++) t->on_node[pon[i]] = -1;
        for (int i = 0; i < noff; i++) t->off_node[i] = -1;
        cyc_copy_on(a, t, cand); /* the source first, as the search made it */
        for (int i = 0; i < nout; i++) {
            int par = cyc_copy_off(a, t, ends_par[i]);
            out[i] = sdk_se_new(a, cand, 1, ends_cause[i], &par, 1);
        }
    }
    return nout;
}

int sdk_se_forcing(sdk_se_arena *a, const sdk_se_static *g, int cand, bool on, bool y, int *out,
                   int max)
{
    /* by literal (cand*2 + on): parent literal (-1: the source) and cause */
    int16_t par[1458], queue[1458];
    uint8_t cause[1458];
    char seen[1458];
    memset(seen, 0, sizeof seen);
    int ks[40], head = 0, tail = 0, found = -1;
    uint8_t cs[40];
    int src = cand * 2 + on;
    seen[src] = 1;
    par[src] = -1;
    cause[src] = SDK_SE_ASSUMED;
    queue[tail++] = (int16_t)src;
    /* SE's order: every pending true potential, then every pending false
     * one. Each phase adds only literals of the other sign, so one queue
     * read level by level visits them in that order. */
    bool on_phase = on;
    while (head < tail && found < 0 && max > 0) {
        int end = tail;
        for (; head < end && found < 0; head++) {
            int lit = queue[head], pc = lit >> 1;
            int n =
                on_phase ? on_to_off(g, pc, y, ks, cs) : off_to_on_static(g, pc, y, true, ks, cs);
            int sign = on_phase ? 0 : 1;
            for (int i = 0; i < n; i++) {
                int l = ks[i] * 2 + sign;
                if (seen[l]) continue;
                seen[l] = 1;
                par[l] = (int16_t)lit;
                cause[l] = cs[i];
                queue[tail++] = (int16_t)l;
                if (ks[i] == cand) { /* the source's own negation: the chain */
                    found = l;
                    break;
                }
            }
        }
        on_phase = !on_phase;
    }
    if (found < 0) return 0;
    int path[1458], m = 0;
    for (int l = found; l >= 0; l = par[l]) path[m++] = l;
    int node = -1;
    for (int i = m - 1; i >= 0; i--) {
        int l = path[i];
        node = sdk_se_new(a, l >> 1, l & 1, cause[l], node >= 0 ? &node : NULL, node >= 0);
    }
    out[0] = node;
    return 1;
}

int sdk_se_ancestors(const sdk_se_arena *a, int node, int *nested)
{
    char seen[1458];
    memset(seen, 0, sizeof seen);
    int cap = 2048, n = 0, count = 0, nn = 0;
    int buf[2048], *stack = buf, *heap = NULL;
    int ids[64];
    if (nested) *nested = 0;
    stack[n++] = node;
    while (n) {
        int x = stack[--n];
        const sdk_se_pot *p = &a->p[x];
        int lit = p->cand * 2 + p->on;
        if (seen[lit]) continue;
        seen[lit] = 1;
        count++;
        if (nested && p->nested >= 0) {
            bool dup = false;
            for (int i = 0; i < nn; i++)
                if (ids[i] == p->nested) dup = true;
            if (!dup && nn < 64) {
                ids[nn++] = p->nested;
                *nested += p->ncplx;
            }
        }
        for (int i = 0; i < p->np; i++) {
            if (n == cap) {
                int *nh = sdk_xmalloc(sizeof *nh * (size_t)cap * 2);
                memcpy(nh, stack, sizeof *nh * (size_t)n);
                free(heap);
                stack = heap = nh;
                cap *= 2;
            }
            stack[n++] = a->par[p->par + i];
        }
    }
    free(heap);
    return count;
}

/* The nested chain ids a complexity walk has counted: an open-addressing
 * set (-1 empty), on the stack until it is half full, then doubled on the
 * heap. */
typedef struct id_set {
    int buf[256], *slot;
    int cap, n;
} id_set;

static void id_set_grow(id_set *s)
{
    int ncap = s->cap * 2, *ns = sdk_xmalloc(sizeof *ns * (size_t)ncap);
    memset(ns, 0xff, sizeof *ns * (size_t)ncap);
    for (int i = 0; i < s->cap; i++) {
        if (s->slot[i] < 0) continue;
        int j = (int)(((unsigned)s->slot[i] * 2654435761u) & (unsigned)(ncap - 1));
        while (ns[j] >= 0) j = (j + 1) & (ncap - 1);
        ns[j] = s->slot[i];
    }
    if (s->slot != s->buf) free(s->slot);
    s->slot = ns;
    s->cap = ncap;
}

/* Adds id to s (made empty before its first use: cap 0); true when new. */
static bool id_set_add(id_set *s, int id)
{
    if (!s->cap) {
        s->slot = s->buf;
        s->cap = (int)(sizeof s->buf / sizeof s->buf[0]);
        memset(s->buf, 0xff, sizeof s->buf);
    }
    int j = (int)(((unsigned)id * 2654435761u) & (unsigned)(s->cap - 1));
    for (; s->slot[j] >= 0; j = (j + 1) & (s->cap - 1))
        if (s->slot[j] == id) return false;
    s->slot[j] = id;
    if (2 * ++s->n > s->cap) id_set_grow(s);
    return true;
}

int sdk_se_complexity(const sdk_se_arena *a, const int *nodes, int n)
{
    /* a hint has few targets and chains of a few hundred potentials: the
     * walk's stack and the nested ids live here, on the heap only beyond */
    uint64_t seen[SDK_SE_SET_WORDS];
    int sbuf[1024];
    int cap = 1024, sp = 0, sum = 0, flat = 0;
    int *stack = sbuf;
    /* each distinct id counted once, with the complexity of the first
     * potential met that has it (as a list searched each time would) */
    id_set ids;
    ids.cap = ids.n = 0;
    for (int t = 0; t < n; t++) {
        memset(seen, 0, sizeof seen);
        stack[sp++] = nodes[t];
        while (sp) {
            /* a potential's last parent is the next one the stack would
             * give: it is followed here without the stack (the same order,
             * so the same potential of each literal is met first; most
             * potentials have one parent) */
            for (int x = stack[--sp];;) {
                const sdk_se_pot *p = &a->p[x];
                int lit = p->cand * 2 + p->on;
                if ((seen[lit >> 6] >> (lit & 63)) & 1) break;
                seen[lit >> 6] |= 1ull << (lit & 63);
                flat++;
                if (p->nested >= 0 && id_set_add(&ids, p->nested)) sum += p->ncplx;
                if (!p->np) break;
                const int *pp = a->par + p->par;
                int last = p->np - 1;
                if (sp + last > cap) {
                    while (sp + last > cap) cap *= 2;
                    int *ns = sdk_xmalloc(sizeof *ns * (size_t)cap);
                    memcpy(ns, stack, sizeof *ns * (size_t)sp);
                    if (stack != sbuf) free(stack);
                    stack = ns;
                }
                for (int i = 0; i < last; i++) stack[sp++] = pp[i];
                x = pp[last];
            }
        }
    }
    if (stack != sbuf) free(stack);
    if (ids.cap && ids.slot != ids.buf) free(ids.slot);
    return flat + sum;
}

static sdk_node node_of(const sdk_se_pot *p)
{
    sdk_node nd;
    memset(&nd, 0, sizeof nd);
    nd.digit = (uint8_t)(p->cand % 9 + 1);
    nd.on = p->on;
    nd.ncell = 1;
    nd.cell[0] = (uint8_t)(p->cand / 9);
    return nd;
}

void sdk_se_to_step(const sdk_se_arena *a, int node, sdk_step *s)
{
    char seen[1458];
    memset(seen, 0, sizeof seen);
    int stack[2048], n = 0;
    stack[n++] = node;
    while (n) {
        int x = stack[--n];
        const sdk_se_pot *p = &a->p[x];
        int lit = p->cand * 2 + p->on;
        if (seen[lit]) continue;
        seen[lit] = 1;
        sdk_step_mark(s, p->cand / 9, p->cand % 9 + 1, p->on ? SDK_ROLE_ON : SDK_ROLE_OFF);
        for (int i = 0; i < p->np; i++) {
            const sdk_se_pot *q = &a->p[a->par[p->par + i]];
            sdk_link l;
            memset(&l, 0, sizeof l);
            l.from = node_of(q);
            l.to = node_of(p);
            l.strong = p->on;
            l.kind = (p->cause == SDK_SE_CELL) ? SDK_LINK_CELL : SDK_LINK_HOUSE;
            if (s->nlink < SDK_STEP_MAX_LINK)
                sdk_step_link(s, &l);
            else
                s->truncated = 1;
            if (n < 2048) stack[n++] = a->par[p->par + i];
        }
    }
}

char *sdk_se_path_text(const sdk_se_arena *a, int node, char *buf, size_t n)
{
    int path[256], m = 0;
    for (int x = node; m < 256; x = a->par[a->p[x].par]) {
        path[m++] = x;
        if (!a->p[x].np) break;
    }
    size_t k = 0;
    buf[0] = 0;
    for (int i = m - 1; i >= 0 && k + 16 < n; i--) {
        const sdk_se_pot *p = &a->p[path[i]];
        char c[8];
        k += (size_t)snprintf(buf + k, n - k, "%s%s%c%d", i == m - 1 ? "" : " -> ",
                              sdk_cell_name(p->cand / 9, c), p->on ? '+' : '-', p->cand % 9 + 1);
    }
    return buf;
}
