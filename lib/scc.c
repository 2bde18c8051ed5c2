/* scc.c - strongly connected components of a directed graph (Tarjan).
 *
 * Several chain searches ask "what does each literal reach?" for every
 * literal at once. Literals that reach each other (a strong pair, a cycle)
 * reach the same set, and what a component reaches is its own members plus
 * what its successor components reach. Tarjan's algorithm finds the
 * components in exactly the order that needs: a component completes after
 * every component it reaches, so the caller can build each one's set from
 * its successors' sets as it completes, in one pass over the graph.
 *
 * The depth-first search keeps its own stack (call[] with the next edge of
 * each node in edge_at[]) rather than recursing: a chain graph's paths can
 * be thousands of literals long. A node is on Tarjan's stack while it has an
 * index and no component yet. A node's edges to nodes already seen are
 * read in one loop, up to the first edge that enters a new node. */
#include "sudoku/links.h"

int sdk_graph_scc(int n, const int *first, const int *adj, const bool *root, int *comp, int *work,
                  sdk_scc_fn done, void *ctx)
{
    int *index = work, *low = work + n, *stack = work + 2 * n, *call = work + 3 * n,
        *edge_at = work + 4 * n;
    for (int v = 0; v < n; v++) index[v] = comp[v] = -1;
    int next = 0, sp = 0, ncomp = 0;
    for (int r = 0; r < n; r++) {
        if (index[r] >= 0 || (root && !root[r])) continue;
        int depth = 0;
        call[depth++] = r;
        edge_at[r] = first[r];
        index[r] = low[r] = next++;
        stack[sp++] = r;
        while (depth) {
            int v = call[depth - 1];
            /* v's edges up to the first to a node not seen yet, which the
             * search enters (v is taken up again at the edge after it) */
            int e = edge_at[v], end = first[v + 1], lv = low[v], w = -1;
            for (; e < end; e++) {
                int x = adj[e];
                if (index[x] < 0) {
                    w = x;
                    break;
                }
                if (comp[x] < 0 && index[x] < lv)
                    lv = index[x]; /* on the stack: the same component */
            }
            low[v] = lv;
            if (w >= 0) {
                edge_at[v] = e + 1;
                index[w] = low[w] = next++;
                edge_at[w] = first[w];
                stack[sp++] = w;
                call[depth++] = w;
                continue;
            }
            depth--;
            if (depth && low[v] < low[call[depth - 1]]) low[call[depth - 1]] = low[v];
            if (low[v] != index[v]) continue;
            /* v roots a component: the stack from v up */
            int from = sp;
            do from--;
            while (stack[from] != v);
            for (int i = from; i < sp; i++) comp[stack[i]] = ncomp;
            if (done) done(ctx, ncomp, stack + from, sp - from);
            sp = from;
            ncomp++;
        }
    }
    return ncomp;
}
