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
 * (sdk_graph_scc) and, in the order they complete, per component the set of true
 * literals it reaches (its successors and what they reach) give for every
 * premise what it reaches as a set: a false literal is reached when one of
 * the true literals reached has a link into it (`into`). A premise whose sets
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
    free(r->stamp);
    free(r->tfirst);
    free(r->tadj);
    free(r->sfirst);
    free(r->sadj);
    free(r->work);
    memset(r, 0, sizeof *r);
}

/* Per present node (index), the successors of its false literal, indices
 * (in sadj from sfirst): its strong links, read once here rather than once
 * per weak link into it. False when a link of a false literal leads to a
 * false literal (not alternating). */
static bool build_strong(const sdk_links *L, chain_reach *r)
{
    bool alternating = true;
    int n = r->n, ns = 0;
    const int *node_of = r->node, *idx = r->idx;
    int *sfirst = r->sfirst;
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
    }
    sfirst[n] = ns;
    return alternating;
}

/* The true-literal graph (per index, its successors, indices, in tadj from
 * tfirst) and r->into, from one pass over the links of the true literals
 * and the strong links of build_strong(); false when a link does not
 * alternate (from a true literal to a true one, or from a false one to a
 * false one). A weak link never leads to an absent candidate (the graph
 * links present ones only), and an absent one has no links. */
static bool build_tgraph(const sdk_links *L, chain_reach *r)
{
    size_t W = (size_t)r->words;
    bool alternating = build_strong(L, r);
    int n = r->n, ncand = r->ncand;
    const int *node_of = r->node, *idx = r->idx, *sfirst = r->sfirst, *sadj = r->sadj;
    int *stamp = r->stamp, *first = r->tfirst;
    for (int i = 0; i < n; i++) stamp[i] = -1;
    int na = 0;
    for (int i = 0; i < n; i++) {
        first[i] = na;
        /* room for every successor (each index once) */
        if (na + n > r->adj_cap) {
            r->adj_cap = 2 * (na + n) + 4096;
            r->tadj = sdk_xrealloc(r->tadj, sizeof(int) * (size_t)r->adj_cap);
        }
        int *tadj = r->tadj;
        int a = SDK_LIT(node_of[i], 1);
        for (int e = L->first[a]; e < L->first[a + 1]; e++) {
            int f = L->edge[e].to;
            if (SDK_LIT_ON(f)) alternating = false;
            int fi = idx[SDK_LIT_NODE(f)];
            if (fi < 0) continue;
            /* only the candidates' rows are read */
            if (fi < ncand) put(r->into + (size_t)fi * W, i);
            for (int s = sfirst[fi]; s < sfirst[fi + 1]; s++) {
                int b = sadj[s];
                if (stamp[b] == i) continue;
                stamp[b] = i;
                tadj[na++] = b;
            }
        }
    }
    first[n] = na;
    return alternating;
}

/* component_done()'s view of the build. */
typedef struct reach_pass {
    chain_reach *r;
} reach_pass;

/* A component completed (every component it reaches came first): its set
 * `after`, the literals its members lead to and what those reach. */
static void component_done(void *ctx, int comp, const int *members, int k)
{
    const reach_pass *p = ctx;
    chain_reach *r = p->r;
    const int *first = r->tfirst, *adj = r->tadj;
    int W = r->words;
    uint64_t *set = r->after + (size_t)comp * (size_t)W;
    memset(set, 0, sizeof(uint64_t) * (size_t)W);
    for (int i = 0; i < k; i++) {
        int m = members[i];
        for (int e = first[m]; e < first[m + 1]; e++) {
            int b = adj[e], cb = r->scc[b];
            put(set, b);
            /* each successor component's set once (r->stamp: the last
             * component that took it) */
            if (cb == comp || r->stamp[cb] == comp) continue;
            r->stamp[cb] = comp;
            const uint64_t *sb = r->after + (size_t)cb * (size_t)W;
            for (int x = 0; x < W; x++) set[x] |= sb[x];
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
        free(r->stamp);
        free(r->tfirst);
        free(r->sfirst);
        free(r->work);
        r->nodes_cap = nnode;
        r->idx = sdk_xmalloc(sizeof(int) * (size_t)nnode);
        r->node = sdk_xmalloc(sizeof(int) * (size_t)nnode);
        r->scc = sdk_xmalloc(sizeof(int) * (size_t)nnode);
        r->stamp = sdk_xmalloc(sizeof(int) * (size_t)nnode);
        r->tfirst = sdk_xmalloc(sizeof(int) * ((size_t)nnode + 1));
        r->sfirst = sdk_xmalloc(sizeof(int) * ((size_t)nnode + 1));
        r->work = sdk_xmalloc(sizeof(int) * (size_t)nnode * 5);
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
    r->after = room_for(r->after, &r->sets_cap, W * (n ? n : 1), sizeof(uint64_t));
    r->into = room_for(r->into, &r->into_cap, W * (r->ncand ? r->ncand : 1), sizeof(uint64_t));
    memset(r->into, 0, sizeof(uint64_t) * (size_t)W * (size_t)r->ncand);
    r->tmp = room_for(r->tmp, &r->tmp_cap, W * 2, sizeof(uint64_t));
    /* every link a search from a true literal can take is checked here,
     * those of the false premises in chain_reach_false_may_chain() */
    if (build_tgraph(L, r)) {
        for (int i = 0; i < n; i++) r->stamp[i] = -1; /* for component_done */
        reach_pass p = {r};
        sdk_graph_scc(n, r->tfirst, r->tadj, NULL, r->scc, r->work, component_done, &p);
        r->ok = true;
    }
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
