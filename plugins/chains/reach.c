/* reach.c - which premises of a chain search can reach a literal worth a
 * check, for all premises at once.
 *
 * The chain search runs one breadth-first search per premise (every
 * candidate, true and false) and checks the literals it reached in the
 * premise's cell (nice loops) and the true candidates that could end an AIC;
 * a check only goes on past distance 2. On the hardest puzzles fewer than
 * 1 premise in 300 reaches such a literal: the rest of the searches only
 * prove that they do not.
 *
 * Without ALS nodes every link goes from a true literal to a false one (weak)
 * or from a false one to a true one (strong), so what a true literal reaches
 * is decided by the graph on the true literals where a -> b when a's weak
 * link and a strong link lead from a to b. Its strongly connected components
 * (Tarjan's algorithm, as in lib/scc.c, walked here on the links themselves)
 * and, as they complete, per component the set of true literals it reaches
 * (its successors and what they reach) give for every premise what it
 * reaches as a set: a false literal is reached when one of the true
 * literals reached has a link into it (`into`). A premise whose sets
 * hold no literal to check is not searched; the others are, and the search
 * decides as before. The sets only say "reached", never a distance, so the
 * tests keep every literal that could be past distance 2. */
#include "reach.h"
#include <stdlib.h>
#include <string.h>
#include "sudoku/alloc.h"

static inline bool has(const uint64_t *set, int i)
{
    return set[i >> 6] >> (i & 63) & 1;
}

static inline void put(uint64_t *set, int i)
{
    set[i >> 6] |= 1ULL << (i & 63);
}

static bool meet(const uint64_t *a, const uint64_t *b, int words)
{
    for (int w = 0; w < words; w++)
        if (a[w] & b[w]) return true;
    return false;
}

void chain_reach_free(chain_reach *r)
{
    free(r->idx);
    free(r->node);
    free(r->scc);
    free(r->after);
    free(r->into);
    free(r->tmp);
    free(r->sfirst);
    free(r->sadj);
    free(r->tfirst);
    free(r->tadj);
    free(r->work);
    free(r->via);
    memset(r, 0, sizeof *r);
}

/* Per present node (index), the successors of its false literal, indices
 * (in sadj from sfirst): its strong links, read once here rather than once
 * per weak link into it. False when a link of a false literal leads to a
 * false literal (not alternating).
 *
 * Also per index, in r->via, where a weak link into its false literal leads
 * in reach_walk()'s graph: nowhere (-1) without a strong link; straight to
 * the true literal of its only strong link; else to its false literal
 * (n + i). The false literal with one successor x is left out of the walk:
 * the true literals it lets a literal reach are x and what x reaches, the
 * same with the link going to x itself, and the walk's sets hold only true
 * literals (its own node was a set of its own, read by no answer). */
static bool build_strong(const sdk_links *L, chain_reach *r)
{
    bool alternating = true;
    int n = r->n, ns = 0;
    const int *node_of = r->node, *idx = r->idx;
    int *sfirst = r->sfirst, *via = r->via;
    for (int i = 0; i < n; i++) {
        sfirst[i] = ns;
        int f = SDK_LIT(node_of[i], 0);
        int from = L->first[f], to = L->first[f + 1];
        if (ns + (to - from) > r->sadj_cap) {
            r->sadj_cap = 2 * (ns + (to - from)) + 4096;
            r->sadj = sdk_xrealloc(r->sadj, sizeof(int) * (size_t)r->sadj_cap);
        }
        for (int e = from; e < to; e++) {
            if (!SDK_LIT_ON(L->edge[e].to)) alternating = false;
            int b = idx[SDK_LIT_NODE(L->edge[e].to)];
            if (b >= 0) r->sadj[ns++] = b;
        }
        int deg = ns - sfirst[i];
        via[i] = deg == 0 ? -1 : deg == 1 ? r->sadj[sfirst[i]] : n + i;
    }
    sfirst[n] = ns;
    return alternating;
}

/* The graph reach_walk() walks: the true literals (node i < n: index i's
 * true literal) lead to the false literals (node n + i) their weak links
 * reach that have a strong link (the others reach nothing), or past such a
 * literal with one strong link to its successor (r->via, build_strong), in
 * tadj from tfirst; a false literal leads to the true ones of its strong
 * links (sadj from sfirst). One pass over the weak links, which also
 * fills r->into; false when a link does not alternate (true to true, or
 * false to false).
 *
 * r->into's row of a candidate i (only the candidates' rows are read) is
 * the true literals with a weak link into i's false one. The weak links of
 * a graph without ALS nodes (the others are not alternating: r->ok stays
 * false) go both ways: a true candidate links to the false ones of its
 * cell and of its digit's peers, and to the false group nodes whose bud
 * holds it; a true group node to the false candidates of its bud and to
 * the false groups of its digit in its box or line that share no cell
 * (links.c), each relation the same read from either end. So i's row is
 * the ends of i's own weak links, written here as a row of its own (no
 * table cleared as a whole, no column written bit by bit); test_chain_reach
 * checks every row against the links into the false literal. */
static bool build_weak(const sdk_links *L, chain_reach *r)
{
    bool alternating = build_strong(L, r);
    int n = r->n, ncand = r->ncand;
    size_t W = (size_t)r->words;
    const int *restrict node_of = r->node, *restrict idx = r->idx, *restrict via = r->via,
                        *restrict lfirst = L->first;
    const sdk_ledge *restrict edge = L->edge;
    uint64_t *restrict into = r->into;
    int *restrict tfirst = r->tfirst;
    /* a true literal's successors fit in its links (node_of ascends) */
    int need = n ? lfirst[SDK_LIT(node_of[n - 1], 1) + 1] : 0;
    if (need > r->adj_cap) {
        free(r->tadj);
        r->adj_cap = need + 4096;
        r->tadj = sdk_xmalloc(sizeof(int) * (size_t)r->adj_cap);
    }
    int *restrict tadj = r->tadj;
    int na = 0, targets = 0; /* targets: the or of the links' ends (odd: one is true) */
    for (int v = 0; v < n; v++) {
        tfirst[v] = na;
        int a = SDK_LIT(node_of[v], 1);
        /* a group node's row is not kept: written to the work space */
        uint64_t *row = v < ncand ? into + (size_t)v * W : r->tmp;
        memset(row, 0, sizeof(uint64_t) * W);
        for (int e = lfirst[a], end = lfirst[a + 1]; e < end; e++) {
            int f = edge[e].to;
            targets |= f;
            int fi = idx[SDK_LIT_NODE(f)];
            if (fi < 0) continue;
            put(row, fi);
            if (via[fi] >= 0) tadj[na++] = via[fi];
        }
    }
    tfirst[n] = na;
    return alternating && !SDK_LIT_ON(targets);
}

/* Tarjan's walk (as in lib/scc.c) of build_weak()'s graph, which has the
 * true literals of the graph on true literals (see the top of this file)
 * with the false literals of two or more strong links between them: a true
 * literal reaches the same true literals in both, and a weak link is paired
 * up here only with the one strong link of its end (r->via).
 *
 * The sets grow during the walk, a row per node (r->after, cleared when
 * the node is entered): a node's row gets each successor that is a true
 * literal and what each successor reaches, which is the successor's
 * component's set when that component is complete, or comes later through
 * the tree edges when the successor is on the stack (then it is in the
 * node's component). A node handed back to its parent gives the parent
 * itself (when true) and its row, or its complete component's set. When a
 * node roots a component, every member is in its subtree and the members'
 * rows have flowed into its own, so its row is the component's set: the
 * true literals any member reaches past itself, the true members included
 * exactly when a member links to one. r->scc[i] is the root of i's
 * component, whose row holds the set. */
static void reach_walk(chain_reach *r)
{
    int n = r->n, nx = 2 * n;
    size_t W = (size_t)r->words;
    const int *restrict tfirst = r->tfirst, *restrict tadj = r->tadj, *restrict sfirst = r->sfirst,
                        *restrict sadj = r->sadj;
    uint64_t *restrict after = r->after;
    int *restrict root_of = r->scc;
    int *restrict index = r->work, *restrict low = index + nx, *restrict stack = index + 2 * nx,
                  *restrict call = index + 3 * nx, *restrict at = index + 4 * nx;
    for (int v = 0; v < nx; v++) index[v] = root_of[v] = -1;
    int next = 0, sp = 0, depth = 0;
    for (int start = 0; start < n; start++) {
        if (index[start] >= 0) continue;
        int w = start;
        for (;;) {
            if (w >= 0) { /* enter w */
                index[w] = low[w] = next++;
                stack[sp++] = w;
                call[depth++] = w;
                at[w] = w < n ? tfirst[w] : sfirst[w - n];
                memset(after + (size_t)w * W, 0, sizeof(uint64_t) * W);
            }
            int v = call[depth - 1], k = at[v], lv = low[v];
            const int *list = v < n ? tadj : sadj;
            int kend = v < n ? tfirst[v + 1] : sfirst[v - n + 1];
            uint64_t *row = after + (size_t)v * W;
            w = -1;
            while (k < kend) {
                int x = list[k++];
                if (index[x] < 0) {
                    w = x;
                    break;
                }
                if (x < n) put(row, x);
                if (root_of[x] < 0) {
                    if (index[x] < lv) lv = index[x]; /* on the stack */
                } else {
                    const uint64_t *sx = after + (size_t)root_of[x] * W;
                    for (size_t i = 0; i < W; i++) row[i] |= sx[i];
                }
            }
            low[v] = lv;
            if (w >= 0) { /* entered next, v taken up again after it */
                at[v] = k;
                continue;
            }
            depth--;
            if (lv == index[v]) { /* v roots a component: the stack from v up */
                int from = sp;
                do from--;
                while (stack[from] != v);
                for (int i = from; i < sp; i++) root_of[stack[i]] = v;
                sp = from;
            }
            if (!depth) break;
            int u = call[depth - 1];
            uint64_t *urow = after + (size_t)u * W;
            if (v < n) put(urow, v);
            const uint64_t *vrow = after + (size_t)(root_of[v] < 0 ? v : root_of[v]) * W;
            for (size_t i = 0; i < W; i++) urow[i] |= vrow[i];
            if (lv < low[u]) low[u] = lv;
        }
    }
}

/* p's array of at least `need` elements of `size` bytes (*cap its size). */
static void *room_for(void *p, int *cap, int need, size_t size)
{
    if (need <= *cap && p) return p;
    free(p);
    *cap = need;
    return sdk_xmalloc(size * (size_t)(need ? need : 1));
}

void chain_reach_build(const sdk_links *L, chain_reach *r)
{
    r->ok = false;
    if (L->flags & SDK_LINKS_ALS) return;
    const sdk_grid *g = &L->grid;
    int nnode = L->nnode;
    if (nnode > r->nodes_cap || !r->idx) {
        free(r->idx);
        free(r->node);
        free(r->scc);
        free(r->sfirst);
        free(r->tfirst);
        free(r->work);
        free(r->via);
        r->nodes_cap = nnode;
        r->idx = sdk_xmalloc(sizeof(int) * (size_t)nnode);
        r->node = sdk_xmalloc(sizeof(int) * (size_t)nnode);
        r->scc = sdk_xmalloc(sizeof(int) * (size_t)nnode * 2);
        r->sfirst = sdk_xmalloc(sizeof(int) * ((size_t)nnode + 1));
        r->tfirst = sdk_xmalloc(sizeof(int) * ((size_t)nnode + 1));
        r->work = sdk_xmalloc(sizeof(int) * (size_t)nnode * 10);
        r->via = sdk_xmalloc(sizeof(int) * (size_t)nnode);
    }
    /* present nodes: the grid's candidates (in node order), then the others */
    int n = 0;
    memset(r->idx, 0xff, sizeof(int) * SDK_NCAND); /* -1: absent */
    for (int c = 0; c < SDK_CELLS; c++) {
        if (g->value[c]) continue;
        SDK_MASK_FOREACH(d, g->cand[c]) {
            r->idx[SDK_CAND_NODE(c, d)] = n;
            r->node[n++] = SDK_CAND_NODE(c, d);
        }
    }
    r->ncand = n;
    for (int node = SDK_NCAND; node < nnode; node++) {
        r->idx[node] = n;
        r->node[n++] = node;
    }
    r->n = n;
    r->words = (n + 63) / 64 ? (n + 63) / 64 : 1;
    int W = r->words;
    r->after = room_for(r->after, &r->sets_cap, W * 2 * (n ? n : 1), sizeof(uint64_t));
    r->into = room_for(r->into, &r->into_cap, W * (r->ncand ? r->ncand : 1), sizeof(uint64_t));
    r->tmp = room_for(r->tmp, &r->tmp_cap, W * 2, sizeof(uint64_t));
    /* every link a search from a true literal can take is checked here,
     * those of the false premises in chain_reach_false_may_chain() */
    r->ok = build_weak(L, r);
    if (r->ok) reach_walk(r);
}

bool chain_reach_true_may_loop(const chain_reach *r, const sdk_grid *g, int c, int d)
{
    int W = r->words;
    int i = r->idx[SDK_CAND_NODE(c, d)];
    const uint64_t *after = r->after + (size_t)r->scc[i] * (size_t)W;
    /* the premise's own false literal: reached from the premise or after it */
    const uint64_t *into = r->into + (size_t)i * (size_t)W;
    if (has(into, i) || meet(after, into, W)) return true;
    SDK_MASK_FOREACH(x, g->cand[c]) {
        if (x == d) continue;
        int xi = r->idx[SDK_CAND_NODE(c, x)];
        /* another true candidate of the cell */
        if (has(after, xi)) return true;
        /* another false one, unless the premise links to it (distance 1, as
         * the builder links every two candidates of a cell) */
        const uint64_t *into_x = r->into + (size_t)xi * (size_t)W;
        if (!has(into_x, i) && meet(after, into_x, W)) return true;
    }
    return false;
}

/* An AIC from the false (c, d) to the true (ec, ed) that could eliminate
 * (the ends chains.c checks). */
bool chain_aic_end(const sdk_grid *g, int c, int d, int ec, int ed)
{
    if (ec == c || !sdk_bb_has(g->digit[d - 1], ec)) return false;
    if (ed == d) {
        sdk_bb t = sdk_bb_and(sdk_bb_and(sdk_peer_bb[c], sdk_peer_bb[ec]), g->digit[d - 1]);
        return sdk_bb_count(t) >= 2;
    }
    return (g->cand[c] & sdk_digit_bit(ed)) && sdk_bb_has(sdk_peer_bb[c], ec);
}

bool chain_reach_false_may_chain(const chain_reach *r, const sdk_links *L, const sdk_grid *g, int c,
                                 int d)
{
    int W = r->words;
    int s = SDK_LIT(SDK_CAND_NODE(c, d), 0);
    if (L->first[s] == L->first[s + 1]) return false; /* no strong link */
    uint64_t *first = r->tmp, *later = r->tmp + W;    /* successors; what they reach */
    memset(r->tmp, 0, sizeof(uint64_t) * (size_t)W * 2);
    for (int e = L->first[s]; e < L->first[s + 1]; e++) {
        if (!SDK_LIT_ON(L->edge[e].to)) return true; /* not alternating: search */
        int b = r->idx[SDK_LIT_NODE(L->edge[e].to)];
        if (b < 0) continue;
        put(first, b);
        const uint64_t *sb = r->after + (size_t)r->scc[b] * (size_t)W;
        for (int x = 0; x < W; x++) later[x] |= sb[x];
    }
    /* true literals past the successors: the cell's, and the AIC ends */
    for (int x = 0; x < W; x++) {
        uint64_t m = later[x] & ~first[x];
        while (m) {
            int node = r->node[x * 64 + __builtin_ctzll(m)];
            m &= m - 1;
            if (node >= SDK_NCAND) continue;
            int ec = node / 9, ed = node % 9 + 1;
            if (ec == c || chain_aic_end(g, c, d, ec, ed)) return true;
        }
    }
    /* the false literals of the cell: reached when a true literal reached
     * has a link into them */
    SDK_MASK_FOREACH(x, g->cand[c]) {
        if (x == d) continue;
        const uint64_t *into = r->into + (size_t)r->idx[SDK_CAND_NODE(c, x)] * (size_t)W;
        if (meet(first, into, W) || meet(later, into, W)) return true;
    }
    return false;
}
