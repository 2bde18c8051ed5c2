/* links_search.c - shortest chains in the link graph (links.c builds it):
 * from one starting literal, every literal it implies with its distance and
 * predecessor, breadth first when every edge weighs one, else by a heap on
 * (weight, insertion order) so that equal lengths keep breadth-first order.
 * The chains of AICs, nice loops, static forcing chains and kraken fish.
 *
 * Most of a breadth-first search's time went into the weak links of true
 * candidates: a true (c, d) has an edge to every other candidate of c and to
 * every d of its peers, and most of them lead to literals already reached.
 * The graph lists those edges first (cell, then peers, each in increasing
 * order), so the search takes them from bitboards instead: the false
 * candidates not yet reached, per digit (cells) and per cell (digits); one
 * mask operation gives the new ones, in the order the edges would. */
#include "sudoku/alloc.h"
#include "sudoku/links.h"
#include <limits.h>
#include <stdlib.h>
#include <string.h>

/* Binary heap of (dist, seq, lit) packed: keys compared by dist then seq so
 * that equal distances come out in insertion (breadth-first) order. */
typedef struct hent {
    long long key;
    int lit;
} hent;

/* The work area behind sdk_lsearch.heap: which graph it was sized for,
 * whether every edge of that graph has weight 1 (then a plain breadth-first
 * queue gives the same distances and predecessors as the heap, much faster),
 * the queue, and the heap. */
typedef struct lwork {
    const sdk_links *L;
    const sdk_ledge *edge;
    int nedge, nlit;
    bool unit;
    int reached; /* literals the last search reached (they are the first in
                    queue), -1: the arrays need a full reset */
    int *queue;  /* nlit entries */
    hent *heap;  /* nlit + nedge + 1 entries */
    /* unit graphs: per literal, how many of its first edges are the weak
     * links of a true candidate in the order described above (0: none) */
    uint8_t *weak;
    sdk_bb off_cells[9];            /* per digit: cells whose false literal is reached */
    uint16_t off_digits[SDK_CELLS]; /* per cell: digits whose false literal is reached */
} lwork;

/* How many of the first edges of the true literal of (c, d) are its cell
 * and peer weak links in the builder's order; 0 when they are not. */
static int weak_prefix(const sdk_links *L, int c, int d)
{
    const sdk_grid *g = &L->grid;
    int lit = SDK_LIT(SDK_CAND_NODE(c, d), 1);
    int e = L->first[lit], end = L->first[lit + 1];
    SDK_MASK_FOREACH(x, g->cand[c]) {
        if (x == d) continue;
        if (e == end || L->edge[e].to != SDK_LIT(SDK_CAND_NODE(c, x), 0) ||
            L->edge[e].kind != SDK_LINK_CELL)
            return 0;
        e++;
    }
    sdk_bb peers = sdk_bb_and(sdk_peer_bb[c], g->digit[d - 1]);
    SDK_BB_FOREACH(p, peers) {
        if (e == end || L->edge[e].to != SDK_LIT(SDK_CAND_NODE(p, d), 0) ||
            L->edge[e].kind != SDK_LINK_HOUSE)
            return 0;
        e++;
    }
    int n = e - L->first[lit];
    return n > 255 ? 0 : n;
}

bool sdk_lsearch_init(sdk_lsearch *s, const sdk_links *L)
{
    s->nlit = L->nnode * 2;
    s->dist = sdk_xmalloc(sizeof(int) * (size_t)s->nlit);
    s->pred = sdk_xmalloc(sizeof(int) * (size_t)s->nlit);
    s->kind = sdk_xmalloc((size_t)s->nlit);
    lwork *w = sdk_xmalloc(sizeof *w);
    s->heap = w;
    s->start = -1;
    w->L = L;
    w->edge = L->edge;
    w->nedge = L->nedge;
    w->nlit = s->nlit;
    w->unit = true;
    w->reached = -1;
    for (int e = 0; e < L->nedge && w->unit; e++) w->unit = L->edge[e].weight == 1;
    w->queue = sdk_xmalloc(sizeof(int) * ((size_t)s->nlit + 1));
    w->heap = sdk_xmalloc(sizeof(hent) * ((size_t)s->nlit + (size_t)L->nedge + 1));
    w->weak = NULL; /* on the first search that uses it */
    return true;
}

void sdk_lsearch_free(sdk_lsearch *s)
{
    free(s->dist);
    free(s->pred);
    free(s->kind);
    lwork *w = s->heap;
    if (w) {
        free(w->queue);
        free(w->heap);
        free(w->weak);
        free(w);
    }
    memset(s, 0, sizeof *s);
}

static void search(const sdk_links *L, int start, const sdk_bb *avoid, int target, bool lifo,
                   sdk_lsearch *s);

void sdk_links_search(const sdk_links *L, int start, sdk_lsearch *s)
{
    search(L, start, NULL, -1, false, s);
}

void sdk_links_search_avoid(const sdk_links *L, int start, sdk_bb avoid, int target, sdk_lsearch *s)
{
    search(L, start, &avoid, target, false, s);
}

void sdk_links_search_lifo(const sdk_links *L, int start, sdk_lsearch *s)
{
    search(L, start, NULL, -1, true, s);
}

/* Breadth first, for graphs whose edges all weigh 1. The heap search pops
 * by (distance, insertion order) (lifo: distance, reverse insertion order)
 * and never improves a literal once reached, so the same order falls out of
 * a queue processed level by level, forwards (or backwards for lifo). */
/* The weak-link prefixes of lwork (a unit graph). */
static uint8_t *weak_build(const sdk_links *L, int nlit)
{
    uint8_t *weak = sdk_xcalloc((size_t)nlit, 1);
    if (nlit >= 2 * SDK_NCAND)
        for (int c = 0; c < SDK_CELLS; c++) {
            if (L->grid.value[c]) continue;
            SDK_MASK_FOREACH(d, L->grid.cand[c])
                weak[SDK_LIT(SDK_CAND_NODE(c, d), 1)] = (uint8_t)weak_prefix(L, c, d);
        }
    return weak;
}

/* Mark the false literal of a candidate reached (the bitboards of lwork). */
static inline void reach_off(lwork *w, int lit)
{
    if (lit >= 2 * SDK_NCAND || SDK_LIT_ON(lit)) return;
    int node = SDK_LIT_NODE(lit), c = node / 9, d = node % 9;
    sdk_bb_add(&w->off_cells[d], c);
    w->off_digits[c] |= (uint16_t)(1u << d);
}

static int search_unit(const sdk_links *L, int start, const sdk_bb *avoid, int target, bool lifo,
                       sdk_lsearch *s, lwork *w)
{
    int *dist = s->dist, *pred = s->pred, *q = w->queue;
    uint8_t *kind = s->kind;
    const int *first = L->first;
    const sdk_ledge *edge = L->edge;
    const sdk_grid *g = &L->grid;
    /* the weak links of true candidates from bitboards (not with avoid:
     * those literals may not be entered) */
    if (!avoid && !w->weak) w->weak = weak_build(L, s->nlit);
    const uint8_t *weak = avoid ? NULL : w->weak;
    if (weak) reach_off(w, start); /* the bitboards are clear (search()) */
    int qn = 0;
    dist[start] = 0;
    q[qn++] = start;
    int lo = 0;
    while (lo < qn) {
        int hi = qn; /* the level [lo, hi) */
        for (int j = 0; j < hi - lo; j++) {
            int u = q[lifo ? hi - 1 - j : lo + j];
            int nd = dist[u] + 1;
            int e = first[u];
            if (weak && weak[u]) {
                int c = SDK_LIT_NODE(u) / 9, d = SDK_LIT_NODE(u) % 9 + 1;
                unsigned xs = g->cand[c] & ~sdk_digit_bit(d) & ~(unsigned)w->off_digits[c];
                SDK_MASK_FOREACH(x, xs) {
                    int to = SDK_LIT(SDK_CAND_NODE(c, x), 0);
                    dist[to] = nd;
                    pred[to] = u;
                    kind[to] = SDK_LINK_CELL;
                    q[qn++] = to;
                    sdk_bb_add(&w->off_cells[x - 1], c);
                }
                w->off_digits[c] |= (uint16_t)xs;
                sdk_bb ps =
                    sdk_bb_andnot(sdk_bb_and(sdk_peer_bb[c], g->digit[d - 1]), w->off_cells[d - 1]);
                SDK_BB_FOREACH(p, ps) {
                    int to = SDK_LIT(SDK_CAND_NODE(p, d), 0);
                    dist[to] = nd;
                    pred[to] = u;
                    kind[to] = SDK_LINK_HOUSE;
                    q[qn++] = to;
                    w->off_digits[p] |= (uint16_t)sdk_digit_bit(d);
                }
                w->off_cells[d - 1] = sdk_bb_or(w->off_cells[d - 1], ps);
                e += weak[u];
            }
            for (; e < first[u + 1]; e++) {
                int to = edge[e].to;
                if (dist[to] != INT_MAX) continue;
                if (avoid && to != target &&
                    !sdk_bb_empty(sdk_bb_and(*avoid, L->node[SDK_LIT_NODE(to)].cells)))
                    continue;
                dist[to] = nd;
                pred[to] = u;
                kind[to] = edge[e].kind;
                q[qn++] = to;
                if (weak) reach_off(w, to);
            }
        }
        lo = hi;
    }
    return qn;
}

static void search(const sdk_links *L, int start, const sdk_bb *avoid, int target, bool lifo,
                   sdk_lsearch *s)
{
    int nlit = s->nlit;
    int *dist = s->dist, *pred = s->pred;
    lwork *w = s->heap;
    if (w->reached < 0) {
        for (int i = 0; i < nlit; i++) dist[i] = INT_MAX;
        for (int i = 0; i < nlit; i++) pred[i] = -1;
        memset(s->kind, 0, (size_t)nlit);
        memset(w->off_cells, 0, sizeof w->off_cells);
        memset(w->off_digits, 0, sizeof w->off_digits);
    } else {
        /* only what the last (breadth-first) search reached was written */
        const int *q = w->queue;
        for (int i = 0; i < w->reached; i++) {
            int lit = q[i];
            dist[lit] = INT_MAX;
            pred[lit] = -1;
            s->kind[lit] = 0;
            if (lit < 2 * SDK_NCAND && !SDK_LIT_ON(lit)) {
                int c = SDK_LIT_NODE(lit) / 9, d = SDK_LIT_NODE(lit) % 9;
                w->off_digits[c] = 0;
                sdk_bb_del(&w->off_cells[d], c);
            }
        }
    }
    s->start = start;
    if (w->unit && w->L == L && w->edge == L->edge && w->nedge == L->nedge && w->nlit == nlit) {
        w->reached = search_unit(L, start, avoid, target, lifo, s, w);
        return;
    }
    w->reached = -1;
    hent *h = w->heap;
    int hn = 0;
    long long seq = 0;
    /* key = dist * 2^32 + seq (lifo: 2^28 - seq): seq < 2^28 suffices for our graphs */
#define HKEY(dd) ((long long)(dd) * (1LL << 32) + (lifo ? 0xFFFFFFFLL - seq++ : seq++))
    s->dist[start] = 0;
    h[hn++] = (hent){HKEY(0), start};
    while (hn) {
        hent top = h[0];
        h[0] = h[--hn];
        for (int i = 0;;) {
            int l = 2 * i + 1, r = l + 1, m = i;
            if (l < hn && h[l].key < h[m].key) m = l;
            if (r < hn && h[r].key < h[m].key) m = r;
            if (m == i) break;
            hent t = h[i];
            h[i] = h[m];
            h[m] = t;
            i = m;
        }
        int u = top.lit;
        int du = (int)(top.key >> 32);
        if (du != s->dist[u]) continue;
        for (int e = L->first[u]; e < L->first[u + 1]; e++) {
            const sdk_ledge *ed = &L->edge[e];
            if (avoid && ed->to != target &&
                !sdk_bb_empty(sdk_bb_and(*avoid, L->node[SDK_LIT_NODE(ed->to)].cells)))
                continue;
            int nd = du + ed->weight;
            if (nd < s->dist[ed->to]) {
                s->dist[ed->to] = nd;
                s->pred[ed->to] = u;
                s->kind[ed->to] = ed->kind;
                int i = hn++;
                h[i] = (hent){HKEY(nd), ed->to};
                while (i > 0) {
                    int p = (i - 1) / 2;
                    if (h[p].key <= h[i].key) break;
                    hent t = h[i];
                    h[i] = h[p];
                    h[p] = t;
                    i = p;
                }
            }
        }
    }
#undef HKEY
}

int sdk_lsearch_reached(const sdk_lsearch *s, const int **lits)
{
    const lwork *w = s->heap;
    if (!w || w->reached < 0) return -1;
    *lits = w->queue;
    return w->reached;
}

int sdk_links_path(const sdk_lsearch *s, int lit, int *out, int max)
{
    if (lit < 0 || lit >= s->nlit || s->dist[lit] == INT_MAX) return 0;
    int n = 0;
    for (int x = lit; x >= 0; x = s->pred[x]) {
        if (n >= max) return 0;
        out[n++] = x;
        if (x == s->start) break;
    }
    for (int i = 0; i < n / 2; i++) {
        int t = out[i];
        out[i] = out[n - 1 - i];
        out[n - 1 - i] = t;
    }
    return n;
}

sdk_bb sdk_links_node_buddies(const sdk_links *L, int node, int d)
{
    const sdk_lnode *n = &L->node[node];
    if (n->kind == SDK_LN_ALS) {
        const sdk_als *A = &L->als.als[n->als];
        if (d < 1 || d > 9 || !(A->digits & sdk_digit_bit(d))) return sdk_bb_none();
        return A->peers[d - 1];
    }
    if (n->ncell == 1) return sdk_peer_bb[n->cell];
    return sdk_common_peers(n->cells);
}
