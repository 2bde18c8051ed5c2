/* test_chain_reach.c - the two shortcuts of the chain search, against plain
 * breadth-first searches written here:
 *
 * - sdk_links_search() takes the weak links of true candidates from
 *   bitboards (links_search.c): its distances, predecessors and link kinds
 *   must be those of a breadth-first search over the graph's edges in their
 *   order (forwards, and backwards within a level for the lifo search);
 * - the chains plugin skips the premises that the reachability sets of
 *   plugins/chains/reach.c rule out: no skipped premise may reach a literal
 *   the plugin checks past distance 2 (of its cell, or an AIC end); sets
 *   built in the arrays of earlier ones (as the plugin keeps them) answer
 *   as fresh ones, a true premise's set is exactly the true literals a
 *   search from it reaches, and a candidate's row of the links into its
 *   false literal (made from its own links) holds exactly their sources.
 *
 * Positions: hard puzzles after singles and locked candidates, then with
 * wrong candidates removed one by one (more strong links, longer chains),
 * plain and grouped graphs, every premise true and false. */
#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include "sudoku/format.h"
#include "sudoku/links.h"
#include "sudoku/solver.h"
#include "testutil.h"
#include "walk.h"
#include "../../plugins/chains/reach.h"

typedef struct ref {
    int *dist, *pred, *queue;
    uint8_t *kind;
} ref;

/* Breadth first over L's edges in order; lifo: each level backwards. */
static void ref_search(const sdk_links *L, int start, bool lifo, ref *r)
{
    int nlit = L->nnode * 2;
    for (int i = 0; i < nlit; i++) r->dist[i] = INT_MAX, r->pred[i] = -1, r->kind[i] = 0;
    int qn = 0, lo = 0;
    r->dist[start] = 0;
    r->queue[qn++] = start;
    while (lo < qn) {
        int hi = qn;
        for (int j = 0; j < hi - lo; j++) {
            int u = r->queue[lifo ? hi - 1 - j : lo + j];
            for (int e = L->first[u]; e < L->first[u + 1]; e++) {
                int to = L->edge[e].to;
                if (r->dist[to] != INT_MAX) continue;
                r->dist[to] = r->dist[u] + 1;
                r->pred[to] = u;
                r->kind[to] = L->edge[e].kind;
                r->queue[qn++] = to;
            }
        }
        lo = hi;
    }
}

/* Does the premise reach what the chains plugin checks past distance 2? */
static bool deep(const sdk_grid *g, const ref *r, int c, int d, bool on)
{
    int start = SDK_LIT(SDK_CAND_NODE(c, d), on);
    SDK_MASK_FOREACH(x, g->cand[c])
        for (int v = 0; v < 2; v++) {
            int lit = SDK_LIT(SDK_CAND_NODE(c, x), v);
            if (lit != start && r->dist[lit] != INT_MAX && r->dist[lit] > 2) return true;
        }
    if (on) return false;
    for (int k = 0; k < SDK_NCAND; k++) {
        int lit = SDK_LIT(k, 1);
        if (r->dist[lit] != INT_MAX && r->dist[lit] > 2 && chain_aic_end(g, c, d, k / 9, k % 9 + 1))
            return true;
    }
    return false;
}

/* R's set of the true premise `start` (a present candidate) must be what
 * the premise reaches past itself: the true literals r (a breadth-first
 * search from it) reached, and itself when a reached false literal links
 * back to it. */
static void check_set(const sdk_links *L, const chain_reach *R, const ref *r, int start)
{
    const uint64_t *after =
        R->after + (size_t)R->scc[R->idx[SDK_LIT_NODE(start)]] * (size_t)R->words;
    for (int i = 0; i < R->n; i++) {
        int lit = SDK_LIT(R->node[i], 1);
        bool want = lit != start && r->dist[lit] != INT_MAX;
        if (lit == start)
            for (int f = 0; f < L->nnode * 2 && !want; f += 2)
                for (int e = L->first[f]; r->dist[f] != INT_MAX && e < L->first[f + 1]; e++)
                    if (L->edge[e].to == start) want = true;
        bool got = after[i >> 6] >> (i & 63) & 1;
        if (got != want)
            fail_msg("flags %u: the set of literal %d has %d: %d, a search finds %d", L->flags,
                     start, lit, got, want);
    }
}

/* R's row of every candidate in `into` must be the true literals with a
 * link into its false literal, read from the links' sources (reach.c
 * writes it from the candidate's own links, as weak links go both ways). */
static void check_into(const sdk_links *L, const chain_reach *R)
{
    size_t W = (size_t)R->words;
    uint64_t *want = calloc((size_t)R->ncand * W, sizeof(uint64_t));
    for (int v = 0; v < R->n; v++) {
        int a = SDK_LIT(R->node[v], 1);
        for (int e = L->first[a]; e < L->first[a + 1]; e++) {
            int i = R->idx[SDK_LIT_NODE(L->edge[e].to)];
            if (!SDK_LIT_ON(L->edge[e].to) && i >= 0 && i < R->ncand)
                want[(size_t)i * W + (size_t)(v >> 6)] |= 1ULL << (v & 63);
        }
    }
    for (int i = 0; i < R->ncand; i++)
        if (memcmp(want + (size_t)i * W, R->into + (size_t)i * W, sizeof(uint64_t) * W))
            fail_msg("flags %u: the links into the false node %d are not its row in into", L->flags,
                     R->node[i]);
    free(want);
}

static int checked, skipped, searched_deep;
/* reachability sets built position after position in the same arrays */
static chain_reach kept;

static void check_position(const sdk_grid *g, unsigned flags)
{
    sdk_links L;
    assert_true(sdk_links_build(g, flags, &L));
    chain_reach R = {0};
    chain_reach_build(&L, &R);
    assert_true(R.ok);
    /* the same built again in the arrays of the earlier positions' sets */
    chain_reach_build(&L, &kept);
    assert_true(kept.ok);
    check_into(&L, &R);
    check_into(&L, &kept);
    sdk_lsearch S;
    assert_true(sdk_lsearch_init(&S, &L));
    int nlit = L.nnode * 2;
    ref r = {malloc(sizeof(int) * (size_t)nlit), malloc(sizeof(int) * (size_t)nlit),
             malloc(sizeof(int) * (size_t)nlit), malloc((size_t)nlit)};
    for (int c = 0; c < 81; c++) {
        if (g->value[c]) continue;
        SDK_MASK_FOREACH(d, g->cand[c])
            for (int on = 0; on < 2; on++) {
                int start = SDK_LIT(SDK_CAND_NODE(c, d), on);
                for (int lifo = 0; lifo < 2; lifo++) {
                    ref_search(&L, start, lifo, &r);
                    if (on && !lifo) {
                        check_set(&L, &R, &r, start);
                        check_set(&L, &kept, &r, start);
                    }
                    if (lifo)
                        sdk_links_search_lifo(&L, start, &S);
                    else
                        sdk_links_search(&L, start, &S);
                    for (int i = 0; i < nlit; i++)
                        if (S.dist[i] != r.dist[i] || S.pred[i] != r.pred[i] ||
                            S.kind[i] != r.kind[i])
                            fail_msg("flags %u start %d lifo %d: literal %d differs", flags, start,
                                     lifo, i);
                }
                bool may = on ? chain_reach_true_may_loop(&R, g, c, d)
                              : chain_reach_false_may_chain(&R, &L, g, c, d);
                bool may_kept = on ? chain_reach_true_may_loop(&kept, g, c, d)
                                   : chain_reach_false_may_chain(&kept, &L, g, c, d);
                if (may != may_kept)
                    fail_msg("flags %u: premise r%dc%d%s%d: sets rebuilt in used arrays answer "
                             "%d, fresh ones %d",
                             flags, c / 9 + 1, c % 9 + 1, on ? "=" : "<>", d, may_kept, may);
                bool is_deep = deep(g, &r, c, d, on);
                if (is_deep && !may)
                    fail_msg("flags %u: premise r%dc%d%s%d skipped but reaches a literal to check",
                             flags, c / 9 + 1, c % 9 + 1, on ? "=" : "<>", d);
                checked++;
                skipped += !may;
                searched_deep += is_deep;
            }
    }
    free(r.dist);
    free(r.pred);
    free(r.queue);
    free(r.kind);
    sdk_lsearch_free(&S);
    chain_reach_free(&R);
    sdk_links_free(&L);
}

static void test_reach_and_search(void **state)
{
    (void)state;
    uint8_t(*puz)[81] = NULL;
    int n = tu_read_puzzles("forum_hardest_1106.txt", 4, 90, &puz);
    if (n <= 0) skip();
    uint32_t seed = 12345;
    for (int p = 0; p < n; p++) {
        sdk_grid g;
        uint8_t sol[81];
        assert_true(walk_hard_start(&g, puz[p], sol));
        for (int round = 0; round < 12 && sdk_grid_empty_count(&g) > 0; round++) {
            check_position(&g, 0);
            check_position(&g, SDK_LINKS_GROUPS);
            walk_drop_wrong(&g, sol, 6, &seed);
            if (!walk_basic(&g)) break;
        }
    }
    free(puz);
    chain_reach_free(&kept);
    print_message("premises %d, skipped %d, reaching a literal to check %d\n", checked, skipped,
                  searched_deep);
    /* the sets rule out most premises, and the others do reach something */
    assert_true(skipped > checked / 2);
    assert_true(searched_deep > 0);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_reach_and_search),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
