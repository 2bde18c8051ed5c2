/* links_search.c - shortest chains in the link graph (links.c builds it):
 * from one starting literal, every literal it implies with its distance and
 * predecessor, breadth first when every edge weighs one, else by a heap on
 * (weight, insertion order) so that equal lengths keep breadth-first order.
 * The chains of AICs, nice loops, static forcing chains and kraken fish. */
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
} lwork;

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
static int search_unit(const sdk_links *L, int start, const sdk_bb *avoid, int target, bool lifo,
                       sdk_lsearch *s, int *q)
{
    int *dist = s->dist, *pred = s->pred;
    uint8_t *kind = s->kind;
    const int *first = L->first;
    const sdk_ledge *edge = L->edge;
    int qn = 0;
    dist[start] = 0;
    q[qn++] = start;
    int lo = 0;
    while (lo < qn) {
        int hi = qn; /* the level [lo, hi) */
        for (int j = 0; j < hi - lo; j++) {
            int u = q[lifo ? hi - 1 - j : lo + j];
            int nd = dist[u] + 1;
            for (int e = first[u]; e < first[u + 1]; e++) {
                int to = edge[e].to;
                if (dist[to] != INT_MAX) continue;
                if (avoid && to != target &&
                    !sdk_bb_empty(sdk_bb_and(*avoid, L->node[SDK_LIT_NODE(to)].cells)))
                    continue;
                dist[to] = nd;
                pred[to] = u;
                kind[to] = edge[e].kind;
                q[qn++] = to;
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
    } else {
        /* only what the last (breadth-first) search reached was written */
        const int *q = w->queue;
        for (int i = 0; i < w->reached; i++) {
            dist[q[i]] = INT_MAX;
            pred[q[i]] = -1;
            s->kind[q[i]] = 0;
        }
    }
    s->start = start;
    if (w->unit && w->L == L && w->edge == L->edge && w->nedge == L->nedge && w->nlit == nlit) {
        w->reached = search_unit(L, start, avoid, target, lifo, s, w->queue);
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
