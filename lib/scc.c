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
 * index and no component yet. */
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
            if (edge_at[v] < first[v + 1]) {
                int w = adj[edge_at[v]++];
                if (index[w] < 0) {
                    index[w] = low[w] = next++;
                    edge_at[w] = first[w];
                    stack[sp++] = w;
                    call[depth++] = w;
                } else if (comp[w] < 0 && index[w] < low[v]) {
                    low[v] = index[w]; /* on the stack: the same component */
                }
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
