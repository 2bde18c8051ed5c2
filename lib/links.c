/* links.c - the link model: static implication graph over candidates, group
 * nodes and ALS nodes, shortest-chain search, chain text (Eureka) and step
 * records. The dynamic search and the trace live in links_dyn.c. */
#include "sudoku/alloc.h"
#include "sudoku/links.h"
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* ---- building -------------------------------------------------------- */

typedef struct ebuf {
    int n, cap;
    struct {
        int from;
        sdk_ledge e;
    } * v;
} ebuf;

static bool eb_add(ebuf *b, int from, int to, int kind, int w)
{
    if (b->n == b->cap) {
        int nc = b->cap ? b->cap * 2 : 4096;
        void *p = sdk_xrealloc(b->v, sizeof *b->v * (size_t)nc);
        b->v = p;
        b->cap = nc;
    }
    b->v[b->n].from = from;
    b->v[b->n].e = (sdk_ledge){to, (uint8_t)kind, (uint8_t)(w > 255 ? 255 : w)};
    b->n++;
    return true;
}

static int add_node(sdk_links *L, int kind, int digit, sdk_bb cells, int als)
{
    if (L->nnode == L->cap) {
        int nc = L->cap ? L->cap * 2 : 1024;
        void *p = sdk_xrealloc(L->node, sizeof *L->node * (size_t)nc);
        L->node = p;
        L->cap = nc;
    }
    sdk_lnode *n = &L->node[L->nnode];
    n->kind = (uint8_t)kind;
    n->digit = (uint8_t)digit;
    n->cells = cells;
    n->ncell = (uint8_t)sdk_bb_count(cells);
    n->cell = (uint8_t)(sdk_bb_empty(cells) ? 0 : sdk_bb_first(cells));
    n->als = als;
    return L->nnode++;
}

int sdk_links_als_penalty(const sdk_als *a)
{
    int n = sdk_mask_count(a->digits);
    if (n <= 1) return 0;
    if (n == 2) return 1;
    return (n - 1) * 2;
}

typedef struct gnode {
    int node, digit, box, line; /* line: house index of the row/column */
    sdk_bb cells;
} gnode;

bool sdk_links_build(const sdk_grid *g, unsigned flags, sdk_links *L)
{
    memset(L, 0, sizeof *L);
    L->grid = *g;
    L->flags = flags;
    ebuf eb = {0};
    bool ok = true;
    for (int i = 0; i < SDK_NCAND; i++) {
        int c = i / 9, d = i % 9 + 1;
        if (add_node(L, SDK_LN_CAND, d, sdk_bb_cell(c), -1) < 0) goto oom;
    }
    L->group_of = sdk_xmalloc(sizeof(int) * SDK_NCAND);
    for (int i = 0; i < SDK_NCAND; i++) L->group_of[i] = -1;

    /* candidate links */
    for (int c = 0; c < 81; c++) {
        if (g->value[c]) continue;
        unsigned m = g->cand[c];
        int nc = sdk_mask_count(m);
        SDK_MASK_FOREACH(d, m)
        {
            int me = SDK_CAND_NODE(c, d);
            SDK_MASK_FOREACH(e, m)
            {
                if (e == d) continue;
                ok &=
                    eb_add(&eb, SDK_LIT(me, 1), SDK_LIT(SDK_CAND_NODE(c, e), 0), SDK_LINK_CELL, 1);
                if (nc == 2)
                    ok &= eb_add(&eb, SDK_LIT(me, 0), SDK_LIT(SDK_CAND_NODE(c, e), 1),
                                 SDK_LINK_CELL, 1);
            }
            sdk_bb peers = sdk_bb_and(sdk_peer_bb[c], g->digit[d - 1]);
            SDK_BB_FOREACH(p, peers)
            ok &= eb_add(&eb, SDK_LIT(me, 1), SDK_LIT(SDK_CAND_NODE(p, d), 0), SDK_LINK_HOUSE, 1);
            int seen = -1;
            for (int k = 0; k < 3; k++) {
                sdk_bb h = sdk_house_digit(g, sdk_cell_house[c][k], d);
                if (sdk_bb_count(h) != 2) continue;
                sdk_bb_del(&h, c);
                int o = sdk_bb_first(h);
                if (o == seen) continue;
                seen = o;
                ok &=
                    eb_add(&eb, SDK_LIT(me, 0), SDK_LIT(SDK_CAND_NODE(o, d), 1), SDK_LINK_HOUSE, 1);
            }
        }
    }
    if (!ok) goto oom;

    /* group nodes */
    gnode *gn = NULL;
    int ngn = 0;
    if (flags & (SDK_LINKS_GROUPS | SDK_LINKS_ALS)) {
        gn = sdk_xmalloc(sizeof *gn * 9 * 9 * 6);
        for (int d = 1; d <= 9; d++)
            for (int b = 0; b < 9; b++) {
                int bh = 18 + b;
                for (int t = 0; t < 6; t++) {
                    int line = t < 3 ? (b / 3) * 3 + t : 9 + (b % 3) * 3 + (t - 3);
                    sdk_bb cells = sdk_bb_and(sdk_bb_and(sdk_house_bb[bh], sdk_house_bb[line]),
                                              g->digit[d - 1]);
                    if (sdk_bb_count(cells) < 2) continue;
                    int node = add_node(L, SDK_LN_GROUP, d, cells, -1);
                    if (node < 0) {
                        free(gn);
                        goto oom;
                    }
                    gn[ngn++] = (gnode){node, d, bh, line, cells};
                    SDK_BB_FOREACH(c, cells)
                    if (L->group_of[SDK_CAND_NODE(c, d)] < 0)
                        L->group_of[SDK_CAND_NODE(c, d)] = node;
                }
            }
    }
    if (flags & SDK_LINKS_GROUPS) {
        for (int i = 0; i < ngn; i++) {
            gnode *a = &gn[i];
            int d = a->digit;
            sdk_bb bud = sdk_bb_and(sdk_common_peers(a->cells), g->digit[d - 1]);
            SDK_BB_FOREACH(c, bud)
            {
                ok &= eb_add(&eb, SDK_LIT(a->node, 1), SDK_LIT(SDK_CAND_NODE(c, d), 0),
                             SDK_LINK_GROUP, 1);
                ok &= eb_add(&eb, SDK_LIT(SDK_CAND_NODE(c, d), 1), SDK_LIT(a->node, 0),
                             SDK_LINK_GROUP, 1);
            }
            int hs[2] = {a->box, a->line};
            for (int k = 0; k < 2; k++) {
                sdk_bb in = sdk_bb_and(bud, sdk_house_bb[hs[k]]);
                if (sdk_bb_count(in) == 1) {
                    int c = sdk_bb_first(in);
                    ok &= eb_add(&eb, SDK_LIT(a->node, 0), SDK_LIT(SDK_CAND_NODE(c, d), 1),
                                 SDK_LINK_GROUP, 1);
                    ok &= eb_add(&eb, SDK_LIT(SDK_CAND_NODE(c, d), 0), SDK_LIT(a->node, 1),
                                 SDK_LINK_GROUP, 1);
                }
            }
            int cnt[2] = {0, 0}, one[2] = {-1, -1};
            for (int j = 0; j < ngn; j++) {
                gnode *b = &gn[j];
                if (j == i || b->digit != d) continue;
                if (!sdk_bb_empty(sdk_bb_and(a->cells, b->cells))) continue;
                bool same_line = b->line == a->line, same_box = b->box == a->box;
                if (same_line) {
                    if (cnt[1]++ == 0) one[1] = j;
                }
                if (same_box) {
                    if (cnt[0]++ == 0) one[0] = j;
                }
                if (same_line || same_box)
                    ok &= eb_add(&eb, SDK_LIT(a->node, 1), SDK_LIT(b->node, 0), SDK_LINK_GROUP, 1);
            }
            for (int k = 0; k < 2; k++) {
                if (cnt[k] != 1) continue;
                gnode *b = &gn[one[k]];
                sdk_bb rest = sdk_house_digit(g, hs[k], d);
                rest = sdk_bb_andnot(sdk_bb_andnot(rest, a->cells), b->cells);
                if (sdk_bb_empty(rest))
                    ok &= eb_add(&eb, SDK_LIT(a->node, 0), SDK_LIT(b->node, 1), SDK_LINK_GROUP, 1);
            }
        }
    }
    if (!ok) {
        free(gn);
        goto oom;
    }

    /* ALS nodes */
    if (flags & SDK_LINKS_ALS) {
        sdk_als_opts ao = {2, 8};
        if (sdk_als_collect(g, &ao, &L->als) < 0) {
            free(gn);
            goto oom;
        }
        int na = L->als.n;
        int *alsnode = sdk_xmalloc(sizeof(int) * (size_t)na * 9);
        for (int i = 0; i < na * 9; i++) alsnode[i] = -1;
        sdk_bb elim[9];
        /* pass 1: create the nodes that have eliminations */
        for (int a = 0; a < na; a++) {
            const sdk_als *A = &L->als.als[a];
            SDK_MASK_FOREACH(j, A->digits)
            {
                bool any = false;
                SDK_MASK_FOREACH(k, A->digits)
                {
                    if (k == j) continue;
                    if (!sdk_bb_empty(sdk_bb_and(A->peers[k - 1], g->digit[k - 1]))) any = true;
                }
                if (!any) continue;
                int node = add_node(L, SDK_LN_ALS, j, A->cells, a);
                if (node < 0) {
                    free(alsnode);
                    free(gn);
                    goto oom;
                }
                L->node[node].cell = (uint8_t)sdk_bb_first(A->dcells[j - 1]);
                alsnode[a * 9 + j - 1] = node;
            }
        }
        /* pass 2: edges */
        for (int a = 0; a < na; a++) {
            const sdk_als *A = &L->als.als[a];
            int pen = sdk_links_als_penalty(A);
            SDK_MASK_FOREACH(j, A->digits)
            {
                int node = alsnode[a * 9 + j - 1];
                if (node < 0) continue;
                sdk_bb entry = sdk_bb_and(A->peers[j - 1], g->digit[j - 1]);
                SDK_BB_FOREACH(c, entry)
                ok &=
                    eb_add(&eb, SDK_LIT(SDK_CAND_NODE(c, j), 1), SDK_LIT(node, 0), SDK_LINK_ALS, 1);
                if (flags & SDK_LINKS_GROUPS)
                    for (int i = 0; i < ngn; i++) {
                        if (gn[i].digit != j) continue;
                        if (!sdk_bb_empty(sdk_bb_and(gn[i].cells, A->cells))) continue;
                        if (!sdk_bb_subset(gn[i].cells, entry)) continue;
                        ok &=
                            eb_add(&eb, SDK_LIT(gn[i].node, 1), SDK_LIT(node, 0), SDK_LINK_ALS, 1);
                    }
                for (int k = 0; k < 9; k++) elim[k] = sdk_bb_none();
                SDK_MASK_FOREACH(k, A->digits)
                {
                    if (k == j) continue;
                    elim[k - 1] = sdk_bb_and(A->peers[k - 1], g->digit[k - 1]);
                    SDK_BB_FOREACH(c, elim[k - 1])
                    ok &= eb_add(&eb, SDK_LIT(node, 0), SDK_LIT(SDK_CAND_NODE(c, k), 0),
                                 SDK_LINK_ALS, 1 + pen);
                    if (flags & SDK_LINKS_GROUPS)
                        for (int i = 0; i < ngn; i++) {
                            if (gn[i].digit != k || !sdk_bb_subset(gn[i].cells, elim[k - 1]))
                                continue;
                            ok &= eb_add(&eb, SDK_LIT(node, 0), SDK_LIT(gn[i].node, 0),
                                         SDK_LINK_ALS, 1 + pen);
                        }
                }
                for (int b = 0; b < na; b++) {
                    if (b == a) continue;
                    const sdk_als *B = &L->als.als[b];
                    if (sdk_als_overlap(A, B)) continue;
                    SDK_MASK_FOREACH(l, B->digits)
                    {
                        int n2 = alsnode[b * 9 + l - 1];
                        if (n2 < 0 || sdk_bb_empty(elim[l - 1])) continue;
                        if (!sdk_bb_subset(B->dcells[l - 1], elim[l - 1])) continue;
                        ok &= eb_add(&eb, SDK_LIT(node, 0), SDK_LIT(n2, 0), SDK_LINK_ALS, 1 + pen);
                    }
                }
                /* forcings: a cell left with one candidate */
                sdk_bb bud = sdk_bb_none();
                for (int k = 0; k < 9; k++) bud = sdk_bb_or(bud, elim[k]);
                SDK_BB_FOREACH(c, bud)
                {
                    if (g->value[c] || sdk_mask_count(g->cand[c]) == 2) continue;
                    unsigned left = g->cand[c];
                    for (int k = 0; k < 9; k++)
                        if (sdk_bb_has(elim[k], c)) left &= ~(1u << k);
                    if (sdk_mask_count(left) == 1)
                        ok &= eb_add(&eb, SDK_LIT(node, 0),
                                     SDK_LIT(SDK_CAND_NODE(c, sdk_mask_first(left)), 1),
                                     SDK_LINK_ALS, 2 + pen);
                }
            }
        }
        free(alsnode);
    }
    free(gn);
    if (!ok) goto oom;

    /* CSR */
    int nlit = L->nnode * 2;
    L->first = sdk_xcalloc((size_t)nlit + 1, sizeof(int));
    L->edge = sdk_xmalloc(sizeof(sdk_ledge) * (size_t)(eb.n ? eb.n : 1));
    for (int i = 0; i < eb.n; i++) L->first[eb.v[i].from + 1]++;
    for (int i = 0; i < nlit; i++) L->first[i + 1] += L->first[i];
    int *pos = sdk_xmalloc(sizeof(int) * (size_t)nlit);
    memcpy(pos, L->first, sizeof(int) * (size_t)nlit);
    for (int i = 0; i < eb.n; i++) L->edge[pos[eb.v[i].from]++] = eb.v[i].e;
    free(pos);
    L->nedge = eb.n;
    free(eb.v);
    return true;
oom:
    free(eb.v);
    sdk_links_free(L);
    return false;
}

void sdk_links_free(sdk_links *L)
{
    free(L->node);
    free(L->first);
    free(L->edge);
    free(L->group_of);
    sdk_als_list_free(&L->als);
    memset(L, 0, sizeof *L);
}

/* ---- search ----------------------------------------------------------- */

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

/* ---- text and steps --------------------------------------------------- */

static void cells_text(sdk_bb cells, char *buf, size_t n)
{
    /* one row: r2c68; one column: r1789c9; else row groups separated by spaces */
    int rows = 0, cols = 0;
    SDK_BB_FOREACH(c, cells)
    {
        rows |= 1 << sdk_row(c);
        cols |= 1 << sdk_col(c);
    }
    size_t k = 0;
    buf[0] = 0;
#define PUT(...) (k += (size_t)snprintf(buf + k, k < n ? n - k : 0, __VA_ARGS__))
    if (__builtin_popcount((unsigned)rows) > 1 && __builtin_popcount((unsigned)cols) == 1) {
        PUT("r");
        for (int r = 0; r < 9; r++)
            if (rows >> r & 1) PUT("%d", r + 1);
        PUT("c%d", __builtin_ctz((unsigned)cols) + 1);
        return;
    }
    bool firstrow = true;
    for (int r = 0; r < 9; r++) {
        if (!(rows >> r & 1)) continue;
        PUT("%sr%dc", firstrow ? "" : " ", r + 1);
        firstrow = false;
        for (int c = 0; c < 9; c++)
            if (sdk_bb_has(cells, r * 9 + c)) PUT("%d", c + 1);
    }
#undef PUT
}

char *sdk_links_node_text(const sdk_links *L, int node, char *buf, size_t n)
{
    const sdk_lnode *nd = &L->node[node];
    char cells[64];
    if (nd->kind == SDK_LN_ALS) {
        const sdk_als *A = &L->als.als[nd->als];
        cells_text(A->cells, cells, sizeof cells);
        snprintf(buf, n, "(%d)ALS:%s", nd->digit, cells);
    } else {
        sdk_bb b = nd->cells;
        /* compact: rows then columns */
        int rows = 0, cols = 0;
        SDK_BB_FOREACH(c, b)
        {
            rows |= 1 << sdk_row(c);
            cols |= 1 << sdk_col(c);
        }
        char r[12] = {0}, c[12] = {0};
        int kr = 0, kc = 0;
        for (int i = 0; i < 9; i++) {
            if (rows >> i & 1) r[kr++] = (char)('1' + i);
            if (cols >> i & 1) c[kc++] = (char)('1' + i);
        }
        snprintf(buf, n, "(%d)r%sc%s", nd->digit, r, c);
    }
    return buf;
}

char *sdk_links_eureka(const sdk_links *L, const int *lits, int n, char *buf, size_t size)
{
    size_t k = 0;
    buf[0] = 0;
    for (int i = 0; i < n; i++) {
        char t[64];
        sdk_links_node_text(L, SDK_LIT_NODE(lits[i]), t, sizeof t);
        const char *sep = i == 0 ? "" : (SDK_LIT_ON(lits[i]) ? "=" : "-");
        k += (size_t)snprintf(buf + k, k < size ? size - k : 0, "%s%s", sep, t);
    }
    if (k >= size && size > 4) memcpy(buf + size - 4, "...", 4);
    return buf;
}

void sdk_links_sdk_node(const sdk_links *L, int lit, sdk_node *out)
{
    const sdk_lnode *nd = &L->node[SDK_LIT_NODE(lit)];
    memset(out, 0, sizeof *out);
    out->digit = nd->digit;
    out->on = (uint8_t)SDK_LIT_ON(lit);
    if (nd->kind == SDK_LN_ALS) {
        const sdk_als *A = &L->als.als[nd->als];
        sdk_bb dc = A->dcells[nd->digit - 1];
        SDK_BB_FOREACH(c, dc)
        {
            if (out->ncell == 3) break;
            out->cell[out->ncell++] = (uint8_t)c;
        }
        return;
    }
    SDK_BB_FOREACH(c, nd->cells)
    {
        if (out->ncell == 3) break;
        out->cell[out->ncell++] = (uint8_t)c;
    }
}

void sdk_links_to_step(const sdk_links *L, const int *lits, int n, sdk_step *s)
{
    for (int i = 0; i < n; i++) {
        const sdk_lnode *nd = &L->node[SDK_LIT_NODE(lits[i])];
        if (nd->kind != SDK_LN_ALS) {
            SDK_BB_FOREACH(c, nd->cells)
            sdk_step_mark(s, c, nd->digit, SDK_LIT_ON(lits[i]) ? SDK_ROLE_ON : SDK_ROLE_OFF);
        } else {
            const sdk_als *A = &L->als.als[nd->als];
            sdk_als_mark(s, A, SDK_ROLE_ALS);
        }
        if (i == 0) continue;
        sdk_link lk;
        memset(&lk, 0, sizeof lk);
        sdk_links_sdk_node(L, lits[i - 1], &lk.from);
        sdk_links_sdk_node(L, lits[i], &lk.to);
        lk.strong = (uint8_t)SDK_LIT_ON(lits[i]);
        const sdk_lnode *pn = &L->node[SDK_LIT_NODE(lits[i - 1])];
        if (nd->kind == SDK_LN_ALS || pn->kind == SDK_LN_ALS) {
            lk.kind = SDK_LINK_ALS;
            const sdk_lnode *an = nd->kind == SDK_LN_ALS ? nd : pn;
            sdk_bb cells = L->als.als[an->als].cells;
            SDK_BB_FOREACH(c, cells)
            {
                if (lk.nals == 9) break;
                lk.als[lk.nals++] = (uint8_t)c;
            }
        } else if (nd->kind == SDK_LN_GROUP || pn->kind == SDK_LN_GROUP) {
            lk.kind = SDK_LINK_GROUP;
        } else if (nd->cell == pn->cell) {
            lk.kind = SDK_LINK_CELL;
        } else {
            lk.kind = SDK_LINK_HOUSE;
        }
        sdk_step_link(s, &lk);
    }
}

int sdk_chain_length_tenths(int length)
{
    /* Sudoku Explainer: thresholds 4, 6, 8, 12, 16, 24, 32, 48, ... */
    int added = 0, ceil = 4;
    bool odd = false;
    while (length > ceil) {
        added++;
        ceil = odd ? ceil * 4 / 3 : ceil * 3 / 2;
        odd = !odd;
    }
    return added;
}

/* ---- a step's links as consequence lines ------------------------------ */

char *sdk_node_text(const sdk_node *nd, char *buf, size_t n)
{
    char cells[40];
    int nc = nd->ncell > 3 ? 3 : nd->ncell;
    size_t k = 0;
#define PUT(...)                                                                                   \
    (k += (size_t)snprintf(cells + k, k < sizeof cells ? sizeof cells - k : 0, __VA_ARGS__))
    if (nc <= 1) {
        int c = nc ? nd->cell[0] % 81 : 0;
        PUT("r%dc%d", c / 9 + 1, c % 9 + 1);
    } else {
        bool same_row = true, same_col = true;
        for (int i = 1; i < nc; i++) {
            same_row &= nd->cell[i] / 9 == nd->cell[0] / 9;
            same_col &= nd->cell[i] % 9 == nd->cell[0] % 9;
        }
        if (same_row) {
            PUT("r%dc", nd->cell[0] / 9 + 1);
            for (int i = 0; i < nc; i++) PUT("%d", nd->cell[i] % 9 + 1);
        } else if (same_col) {
            PUT("r");
            for (int i = 0; i < nc; i++) PUT("%d", nd->cell[i] / 9 + 1);
            PUT("c%d", nd->cell[0] % 9 + 1);
        } else {
            for (int i = 0; i < nc; i++)
                PUT("%sr%dc%d", i ? "," : "", nd->cell[i] / 9 + 1, nd->cell[i] % 9 + 1);
        }
    }
#undef PUT
    snprintf(buf, n, "%s/%c%d", cells, nd->on ? '+' : '-', nd->digit);
    return buf;
}

static bool parse_digits(const char **p, int *out, int *n, int max)
{
    *n = 0;
    while (**p >= '1' && **p <= '9') {
        if (*n == max) return false;
        out[(*n)++] = **p - '1';
        (*p)++;
    }
    return *n > 0;
}

bool sdk_node_parse(const char *text, sdk_node *out)
{
    memset(out, 0, sizeof *out);
    if (!text) return false;
    const char *p = text;
    for (;;) {
        int rows[3], cols[3], nr, nc;
        if (*p != 'r') return false;
        p++;
        if (!parse_digits(&p, rows, &nr, 3)) return false;
        if (*p != 'c') return false;
        p++;
        if (!parse_digits(&p, cols, &nc, 3)) return false;
        if (nr > 1 && nc > 1) return false;
        for (int i = 0; i < nr; i++)
            for (int j = 0; j < nc; j++) {
                if (out->ncell == 3) return false;
                out->cell[out->ncell++] = (uint8_t)(rows[i] * 9 + cols[j]);
            }
        if (*p == ',') {
            p++;
            continue;
        }
        break;
    }
    if (*p++ != '/') return false;
    if (*p != '+' && *p != '-') return false;
    out->on = *p++ == '+';
    if (*p < '1' || *p > '9') return false;
    out->digit = (uint8_t)(*p++ - '0');
    return *p == 0;
}

int sdk_link_kind_parse(const char *name)
{
    static const char *const names[] = {"cell", "house", "group", "als"};
    for (int i = 0; i < 4; i++)
        if (name && !strcmp(name, names[i])) return i;
    return -1;
}

static bool node_eq(const sdk_node *a, const sdk_node *b)
{
    if (a->digit != b->digit || a->on != b->on || a->ncell != b->ncell) return false;
    for (int i = 0; i < a->ncell && i < 3; i++)
        if (a->cell[i] != b->cell[i]) return false;
    return true;
}

static sdk_bb link_cells(const sdk_link *l)
{
    sdk_bb b = sdk_bb_none();
    for (int i = 0; i < l->nals && i < 9; i++)
        if (l->als[i] < 81) sdk_bb_add(&b, l->als[i]);
    return b;
}

/* "(ALS:r2c68)" / "(GROUP:r2c46)" for a link through a set, else "". */
static size_t link_label(const sdk_link *l, char *buf, size_t n)
{
    buf[0] = 0;
    if (!l->nals || (l->kind != SDK_LINK_ALS && l->kind != SDK_LINK_GROUP)) return 0;
    char cl[64];
    cells_text(link_cells(l), cl, sizeof cl);
    int k = snprintf(buf, n, "(%s:%s)", l->kind == SDK_LINK_ALS ? "ALS" : "GROUP", cl);
    return k < 0 ? 0 : (size_t)k;
}

/* A static ALS node entered by this link: an ALS link to a false node inside
 * the set (the set then lacks that digit). */
static bool als_entry(const sdk_link *l)
{
    if (l->kind != SDK_LINK_ALS || !l->nals || l->to.on) return false;
    sdk_bb in = link_cells(l);
    for (int i = 0; i < l->to.ncell && i < 3; i++)
        if (!sdk_bb_has(in, l->to.cell[i])) return false;
    return true;
}

static size_t link_text3(const sdk_node *from, const sdk_node *to, bool strong, const char *label,
                         char *buf, size_t n)
{
    char a[48], b[48];
    int k = snprintf(buf, n, "[%c %s%s%s -> %s]", strong ? 'S' : 'W', label, label[0] ? " " : "",
                     sdk_node_text(from, a, sizeof a), sdk_node_text(to, b, sizeof b));
    return k < 0 ? 0 : (size_t)k;
}

char *sdk_link_text(const sdk_link *l, char *buf, size_t n)
{
    char label[80];
    link_label(l, label, sizeof label);
    link_text3(&l->from, &l->to, l->strong, label, buf, n);
    return buf;
}

/* GNPX writes a group node (a digit confined to 2-3 cells of a segment, an
 * AIC node) in angle brackets: "<r2c46>/+1". */
static char *gnpx_node_text(const sdk_node *nd, char *buf, size_t n)
{
    char t[48];
    sdk_node_text(nd, t, sizeof t);
    if (nd->ncell <= 1) {
        snprintf(buf, n, "%s", t);
        return buf;
    }
    char *slash = strrchr(t, '/');
    if (slash) *slash++ = 0;
    snprintf(buf, n, "<%s>/%s", t, slash ? slash : "");
    return buf;
}

/* A link between two digits of one cell. */
static bool link_in_cell(const sdk_link *l)
{
    return l->from.ncell == 1 && l->to.ncell == 1 && l->from.cell[0] == l->to.cell[0];
}

int sdk_links_trace_lines(const sdk_link *links, int n, sdk_link_line_fn fn, void *ctx)
{
    return sdk_links_trace_lines_flags(links, n, 0, fn, ctx);
}

int sdk_links_trace_lines_flags(const sdk_link *links, int n, unsigned flags, sdk_link_line_fn fn,
                                void *ctx)
{
    bool gnpx = flags & SDK_TRACE_GNPX;
    enum { LINE = 16384 };
    char *line = sdk_xmalloc(LINE);
    int lines = 0;
    for (int i = 0; i < n;) {
        int j = i + 1;
        while (j < n && node_eq(&links[j].from, &links[j - 1].to)) j++;
        /* links[i..j) is one chain; the folded ALS links come out as one */
        const sdk_node *derived = &links[j - 1].to;
        size_t k = 0;
        char a[48];
        k += (size_t)snprintf(line, LINE, "%s", sdk_node_text(derived, a, sizeof a));
        bool printed = false;
        for (int e = i; e < j && k < LINE;) {
            const sdk_node *from = &links[e].from;
            char label[256];
            size_t kl = link_label(&links[e], label, sizeof label);
            while (als_entry(&links[e]) && e + 1 < j && links[e + 1].kind == SDK_LINK_ALS) {
                e++;
                char more[80];
                link_label(&links[e], more, sizeof more);
                if (more[0] && !strstr(label, more) && kl < sizeof label)
                    kl += (size_t)snprintf(label + kl, sizeof label - kl, "%s", more);
            }
            /* GNPX passes through a cell silently (an in-cell link is
             * written only as the chain's last one) */
            if (gnpx && e + 1 < j && link_in_cell(&links[e])) {
                e++;
                continue;
            }
            if (printed && k < LINE) k += (size_t)snprintf(line + k, LINE - k, " =>");
            printed = true;
            k += (size_t)snprintf(line + k, LINE - k, " ");
            if (k < LINE && gnpx) {
                char fa[64], ta[64];
                gnpx_node_text(from, fa, sizeof fa);
                gnpx_node_text(&links[e].to, ta, sizeof ta);
                int w = snprintf(line + k, LINE - k, "[%c %s%s%s -> %s]",
                                 links[e].strong ? 'S' : 'W', label, label[0] ? " " : "", fa, ta);
                k += w < 0 ? 0 : (size_t)w;
            } else if (k < LINE) {
                k += link_text3(from, &links[e].to, links[e].strong, label, line + k, LINE - k);
            }
            e++;
        }
        if (k >= LINE) memcpy(line + LINE - 4, "...", 4);
        fn(ctx, derived, line);
        lines++;
        i = j;
    }
    free(line);
    return lines;
}

typedef struct joined {
    char *buf;
    size_t n, k;
} joined;

static void join_line(void *ctx, const sdk_node *derived, const char *line)
{
    (void)derived;
    joined *j = ctx;
    if (j->k >= j->n) return;
    int w = snprintf(j->buf + j->k, j->n - j->k, "%s%s", j->k ? "\n" : "", line);
    if (w > 0) j->k += (size_t)w;
}

char *sdk_step_trace_text(const sdk_step *s, char *buf, size_t n)
{
    if (!n) return buf;
    buf[0] = 0;
    joined j = {buf, n, 0};
    int nl = s->nlink > SDK_STEP_MAX_LINK ? SDK_STEP_MAX_LINK : s->nlink;
    sdk_links_trace_lines(s->link, nl, join_line, &j);
    return buf;
}
