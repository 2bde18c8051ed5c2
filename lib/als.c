/* als.c - almost locked sets: enumeration of every ALS of a grid and the
 * restricted common candidates between two of them (see sudoku/als.h). Used by
 * the ALS plugin and by the chain plugins for ALS nodes. */
#include "sudoku/alloc.h"
#include "sudoku/als.h"
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Cells that see every cell of set (set's own cells excluded). */
static sdk_bb peers_of_all(sdk_bb set)
{
    sdk_bb r = {~0ULL, 0x1ffffULL};
    SDK_BB_FOREACH(c, set) r = sdk_bb_and(r, sdk_peer_bb[c]);
    return sdk_bb_andnot(r, set);
}

/* The first house (rows, columns, boxes) holding every cell of set. */
static int first_house(sdk_bb set)
{
    int c = sdk_bb_first(set);
    int best = -1;
    for (int k = 0; k < 3; k++) {
        int h = sdk_cell_house[c][k];
        if (sdk_bb_subset(set, sdk_house_bb[h]) && (best < 0 || h < best)) best = h;
    }
    return best;
}

static bool list_push(sdk_als_list *l, const sdk_als *a)
{
    if (l->n == l->cap) {
        int cap = l->cap ? l->cap * 2 : 256;
        sdk_als *p = sdk_xrealloc(l->als, sizeof *p * (size_t)cap);
        l->als = p;
        l->cap = cap;
    }
    l->als[l->n++] = *a;
    return true;
}

static void fill_als(const sdk_grid *g, sdk_bb cells, unsigned digits, int n, int house, sdk_als *a)
{
    memset(a, 0, sizeof *a);
    a->cells = cells;
    a->digits = (uint16_t)digits;
    a->ncell = (uint8_t)n;
    a->house = (uint8_t)house;
    SDK_MASK_FOREACH(d, digits) {
        a->dcells[d - 1] = sdk_bb_and(cells, g->digit[d - 1]);
        a->peers[d - 1] = peers_of_all(a->dcells[d - 1]);
        a->peers[d - 1] = sdk_bb_and(sdk_bb_andnot(a->peers[d - 1], cells), g->digit[d - 1]);
        a->all_peers = sdk_bb_or(a->all_peers, a->peers[d - 1]);
    }
}

typedef struct walk {
    const sdk_grid *g;
    sdk_als_list *out;
    int house, nempty, minc, maxc;
    uint8_t empty[9];
    bool oom;
} walk;

/* Extend the subset (cells, mask, n) with empty[i..]. */
static void walk_house(walk *w, int i, sdk_bb cells, unsigned mask, int n)
{
    for (; i < w->nempty && !w->oom; i++) {
        int c = w->empty[i];
        sdk_bb nc = cells;
        sdk_bb_add(&nc, c);
        unsigned nm = mask | w->g->cand[c];
        int nn = n + 1;
        if (nn >= w->minc && sdk_mask_count(nm) == nn + 1 && first_house(nc) == w->house) {
            sdk_als a;
            fill_als(w->g, nc, nm, nn, w->house, &a);
            if (!list_push(w->out, &a)) w->oom = true;
        }
        if (nn < w->maxc) walk_house(w, i + 1, nc, nm, nn);
    }
}

/* Every set of house h's empty cells (walk_house from the first). */
static void walk_whole_house(walk *w, int h)
{
    w->house = h;
    w->nempty = 0;
    for (int k = 0; k < 9; k++) {
        int c = sdk_house_cell[h][k];
        if (!w->g->value[c] && w->g->cand[c]) w->empty[w->nempty++] = (uint8_t)c;
    }
    walk_house(w, 0, sdk_bb_none(), 0, 0);
}

int sdk_als_collect(const sdk_grid *g, const sdk_als_opts *o, sdk_als_list *out)
{
    memset(out, 0, sizeof *out);
    walk w = {.g = g, .out = out, .minc = 1, .maxc = 8};
    if (o && o->min_cells > 0) w.minc = o->min_cells;
    if (o && o->max_cells > 0 && o->max_cells < 8) w.maxc = o->max_cells;
    for (int h = 0; h < SDK_HOUSES && !w.oom; h++) {
        walk_whole_house(&w, h);
    }
    if (w.oom) {
        sdk_als_list_free(out);
        return -1;
    }
    return out->n;
}

int sdk_als_collect_since(const sdk_grid *g, const sdk_als_list *prev, sdk_bb changed,
                          sdk_als_list *out)
{
    memset(out, 0, sizeof *out);
    walk w = {.g = g, .out = out, .minc = 1, .maxc = 8};
    int p = 0; /* prev's sets are house by house: the block of house h next */
    for (int h = 0; h < SDK_HOUSES && !w.oom; h++) {
        int pend = p;
        while (pend < prev->n && prev->als[pend].house == h) pend++;
        if (sdk_bb_empty(sdk_bb_and(sdk_house_bb[h], changed))) {
            /* same cells, same candidates: same sets, fewer outside cells */
            for (; p < pend && !w.oom; p++) {
                sdk_als a = prev->als[p];
                a.all_peers = sdk_bb_none();
                SDK_MASK_FOREACH(d, a.digits) {
                    a.peers[d - 1] = sdk_bb_and(a.peers[d - 1], g->digit[d - 1]);
                    a.all_peers = sdk_bb_or(a.all_peers, a.peers[d - 1]);
                }
                if (!list_push(out, &a)) w.oom = true;
            }
            continue;
        }
        p = pend;
        walk_whole_house(&w, h);
    }
    if (w.oom) {
        sdk_als_list_free(out);
        return -1;
    }
    return out->n;
}

void sdk_als_list_free(sdk_als_list *l)
{
    free(l->als);
    memset(l, 0, sizeof *l);
}

unsigned sdk_als_rcc(const sdk_als *a, const sdk_als *b, bool allow_overlap)
{
    unsigned common = a->digits & b->digits;
    if (!common) return 0;
    sdk_bb shared = sdk_bb_and(a->cells, b->cells);
    bool overlap = !sdk_bb_empty(shared);
    if (overlap && !allow_overlap) return 0;
    unsigned rcc = 0;
    SDK_MASK_FOREACH(d, common) {
        if (overlap && !sdk_bb_empty(sdk_bb_and(shared, a->dcells[d - 1]))) continue;
        if (overlap && !sdk_bb_empty(sdk_bb_and(shared, b->dcells[d - 1]))) continue;
        /* every d-cell of b must see every d-cell of a */
        if (sdk_bb_subset(b->dcells[d - 1], a->peers[d - 1])) rcc |= sdk_digit_bit(d);
    }
    return rcc;
}

sdk_bb sdk_als_common_peers(const sdk_als *a, const sdk_als *b, int d)
{
    unsigned bit = sdk_digit_bit(d);
    bool ina = a->digits & bit, inb = b->digits & bit;
    if (!ina && !inb) return sdk_bb_none();
    sdk_bb r = {~0ULL, 0x1ffffULL};
    if (ina) r = sdk_bb_and(r, a->peers[d - 1]);
    if (inb) r = sdk_bb_and(r, b->peers[d - 1]);
    return sdk_bb_andnot(r, sdk_bb_or(a->cells, b->cells));
}

static bool graph_push(sdk_rcc_graph *gr, int a, int b, unsigned digits)
{
    if (gr->n == gr->cap) {
        int cap = gr->cap ? gr->cap * 2 : 1024;
        sdk_rcc *p = sdk_xrealloc(gr->edge, sizeof *p * (size_t)cap);
        gr->edge = p;
        gr->cap = cap;
    }
    gr->edge[gr->n++] = (sdk_rcc){a, b, (uint16_t)digits};
    return true;
}

int sdk_rcc_graph_build(const sdk_als_list *l, bool allow_overlap, sdk_rcc_graph *out)
{
    memset(out, 0, sizeof *out);
    out->nals = l->n;
    out->first = sdk_xmalloc(sizeof *out->first * (size_t)(l->n + 1));
    /* a set b with an RCC with a holds a cell that sees a's cells of that
     * digit (in a's all_peers): the sets holding each cell, as bits, give
     * the only ones to test, in list order */
    size_t words = ((size_t)l->n + 63) / 64;
    uint64_t *holds = sdk_xcalloc((size_t)SDK_CELLS * words + 1, sizeof *holds);
    uint64_t *near = sdk_xmalloc(sizeof *near * (words + 1));
    for (int i = 0; i < l->n; i++)
        SDK_BB_FOREACH(c, l->als[i].cells)
            holds[(size_t)c * words + (size_t)(i >> 6)] |= 1ULL << (i & 63);
    for (int i = 0; i < l->n; i++) {
        out->first[i] = out->n;
        const sdk_als *a = &l->als[i];
        memset(near, 0, sizeof *near * words);
        SDK_BB_FOREACH(c, a->all_peers) {
            const uint64_t *h = holds + (size_t)c * words;
            for (size_t w = 0; w < words; w++) near[w] |= h[w];
        }
        for (size_t w = 0; w < words; w++)
            for (uint64_t m = near[w]; m; m &= m - 1) {
                int j = (int)(w * 64) + __builtin_ctzll(m);
                if (j == i) continue;
                const sdk_als *b = &l->als[j];
                if (!(a->digits & b->digits)) continue;
                unsigned r = sdk_als_rcc(a, b, allow_overlap);
                if (r) graph_push(out, i, j, r);
            }
    }
    out->first[l->n] = out->n;
    free(near);
    free(holds);
    return out->n;
}

void sdk_rcc_graph_free(sdk_rcc_graph *gr)
{
    free(gr->edge);
    free(gr->first);
    memset(gr, 0, sizeof *gr);
}

char *sdk_als_text(const sdk_als *a, char *buf, size_t n)
{
    char cells[128];
    char digs[10];
    int k = 0;
    SDK_MASK_FOREACH(d, a->digits) digs[k++] = (char)('0' + d);
    digs[k] = 0;
    snprintf(buf, n, "%s {%s}", sdk_cells_compact(a->cells, cells, sizeof cells), digs);
    return buf;
}

void sdk_als_mark(sdk_step *s, const sdk_als *a, sdk_role role)
{
    SDK_BB_FOREACH(c, a->cells) {
        SDK_MASK_FOREACH(d, a->digits) {
            if (sdk_bb_has(a->dcells[d - 1], c)) sdk_step_mark(s, c, d, role);
        }
    }
}
