/* test_links_rebuild.c - a link graph built again in the memory of another
 * (lib/links.c's links_rebuild, what the per-thread graphs of
 * links_shared.c use, built in) must be the graph sdk_links_build() makes
 * from scratch: the same nodes, the same edges in the same order.
 *
 * Positions: hard puzzles after singles and locked candidates, then with
 * wrong candidates removed a few at a time (the graph shrinks, strong links
 * appear), a jump to the next puzzle (the graph grows again), and the link
 * flags changing from one rebuild to the next (plain, groups, groups and
 * ALS), so every array is refilled smaller and larger than it was; the
 * grouped graphs once more from the position's plain graph (its links
 * among candidates copied, links_rebuild_from). The
 * plain and grouped graphs are also compared with a reference written here:
 * the links in the order the first builder listed them, sorted by source
 * (the builder now writes them in place). */
#include <stdlib.h>
#include <string.h>
#include "sudoku/format.h"
#include "sudoku/links.h"
#include "sudoku/solver.h"
#include "testutil.h"
#include "walk.h"
#include "../../lib/links_build.h"

static int compared, compared_plain;

static void same_graph(const sdk_links *a, const sdk_links *b)
{
    assert_int_equal(a->nnode, b->nnode);
    assert_int_equal(a->nedge, b->nedge);
    assert_int_equal(a->flags, b->flags);
    assert_memory_equal(&a->grid, &b->grid, sizeof a->grid);
    for (int i = 0; i < a->nnode; i++) {
        const sdk_lnode *x = &a->node[i], *y = &b->node[i];
        if (x->kind != y->kind || x->digit != y->digit || x->cell != y->cell ||
            x->ncell != y->ncell || x->als != y->als || !sdk_bb_eq(x->cells, y->cells))
            fail_msg("node %d differs", i);
    }
    assert_memory_equal(a->first, b->first, sizeof(int) * (2 * (size_t)a->nnode + 1));
    for (int e = 0; e < a->nedge; e++)
        if (a->edge[e].to != b->edge[e].to || a->edge[e].kind != b->edge[e].kind ||
            a->edge[e].weight != b->edge[e].weight)
            fail_msg("edge %d differs", e);
    assert_memory_equal(a->group_of, b->group_of, sizeof(int) * SDK_NCAND);
    assert_int_equal(a->als.n, b->als.n);
    compared++;
}

/* ---- a reference: the graph as first written --------------------------- */

/* The links in the order that builder made them (every candidate's, then
 * every group node's), each with its source literal, sorted by source
 * keeping that order: what links.c must give for plain and grouped graphs
 * (it places them directly). */
typedef struct ref_edge {
    int from, to, kind, seq; /* seq: the order made */
} ref_edge;

typedef struct ref_graph {
    int n, nnode;
    ref_edge v[40000];
} ref_graph;

static void ref_add(ref_graph *r, int from, int to, int kind)
{
    assert_true(r->n < (int)(sizeof r->v / sizeof *r->v));
    r->v[r->n] = (ref_edge){from, to, kind, r->n};
    r->n++;
}

static int ref_cmp(const void *a, const void *b)
{
    const ref_edge *x = a, *y = b;
    if (x->from != y->from) return x->from < y->from ? -1 : 1;
    return (x->seq > y->seq) - (x->seq < y->seq);
}

static void ref_build(const sdk_grid *g, bool groups, ref_graph *r)
{
    r->n = 0;
    for (int c = 0; c < 81; c++) {
        if (g->value[c]) continue;
        unsigned m = g->cand[c];
        int nc = sdk_mask_count(m);
        SDK_MASK_FOREACH(d, m) {
            int me = SDK_CAND_NODE(c, d);
            SDK_MASK_FOREACH(e, m) {
                if (e == d) continue;
                ref_add(r, SDK_LIT(me, 1), SDK_LIT(SDK_CAND_NODE(c, e), 0), SDK_LINK_CELL);
                if (nc == 2)
                    ref_add(r, SDK_LIT(me, 0), SDK_LIT(SDK_CAND_NODE(c, e), 1), SDK_LINK_CELL);
            }
            sdk_bb peers = sdk_bb_and(sdk_peer_bb[c], g->digit[d - 1]);
            SDK_BB_FOREACH(p, peers)
                ref_add(r, SDK_LIT(me, 1), SDK_LIT(SDK_CAND_NODE(p, d), 0), SDK_LINK_HOUSE);
            int seen = -1;
            for (int k = 0; k < 3; k++) {
                sdk_bb h = sdk_house_digit(g, sdk_cell_house[c][k], d);
                if (sdk_bb_count(h) != 2) continue;
                sdk_bb_del(&h, c);
                int o = sdk_bb_first(h);
                if (o == seen) continue;
                seen = o;
                ref_add(r, SDK_LIT(me, 0), SDK_LIT(SDK_CAND_NODE(o, d), 1), SDK_LINK_HOUSE);
            }
        }
    }
    r->nnode = SDK_NCAND;
    if (groups) {
        struct {
            int node, digit, box, line;
            sdk_bb cells;
        } gn[9 * 9 * 6];
        int ngn = 0;
        for (int d = 1; d <= 9; d++)
            for (int b = 0; b < 9; b++)
                for (int t = 0; t < 6; t++) {
                    int line = t < 3 ? (b / 3) * 3 + t : 9 + (b % 3) * 3 + (t - 3);
                    sdk_bb cells = sdk_bb_and(sdk_bb_and(sdk_house_bb[18 + b], sdk_house_bb[line]),
                                              g->digit[d - 1]);
                    if (sdk_bb_count(cells) < 2) continue;
                    gn[ngn].node = r->nnode++;
                    gn[ngn].digit = d;
                    gn[ngn].box = 18 + b;
                    gn[ngn].line = line;
                    gn[ngn++].cells = cells;
                }
        for (int i = 0; i < ngn; i++) {
            int d = gn[i].digit, a = gn[i].node;
            sdk_bb bud = sdk_bb_and(sdk_common_peers(gn[i].cells), g->digit[d - 1]);
            SDK_BB_FOREACH(c, bud) {
                ref_add(r, SDK_LIT(a, 1), SDK_LIT(SDK_CAND_NODE(c, d), 0), SDK_LINK_GROUP);
                ref_add(r, SDK_LIT(SDK_CAND_NODE(c, d), 1), SDK_LIT(a, 0), SDK_LINK_GROUP);
            }
            int hs[2] = {gn[i].box, gn[i].line};
            for (int k = 0; k < 2; k++) {
                sdk_bb in = sdk_bb_and(bud, sdk_house_bb[hs[k]]);
                if (sdk_bb_count(in) != 1) continue;
                int c = sdk_bb_first(in);
                ref_add(r, SDK_LIT(a, 0), SDK_LIT(SDK_CAND_NODE(c, d), 1), SDK_LINK_GROUP);
                ref_add(r, SDK_LIT(SDK_CAND_NODE(c, d), 0), SDK_LIT(a, 1), SDK_LINK_GROUP);
            }
            int cnt[2] = {0, 0}, one[2] = {-1, -1};
            for (int j = 0; j < ngn; j++) {
                if (j == i || gn[j].digit != d) continue;
                if (!sdk_bb_empty(sdk_bb_and(gn[i].cells, gn[j].cells))) continue;
                bool same_line = gn[j].line == gn[i].line, same_box = gn[j].box == gn[i].box;
                if (same_line && cnt[1]++ == 0) one[1] = j;
                if (same_box && cnt[0]++ == 0) one[0] = j;
                if (same_line || same_box)
                    ref_add(r, SDK_LIT(a, 1), SDK_LIT(gn[j].node, 0), SDK_LINK_GROUP);
            }
            for (int k = 0; k < 2; k++) {
                if (cnt[k] != 1) continue;
                sdk_bb rest = sdk_house_digit(g, hs[k], d);
                rest = sdk_bb_andnot(sdk_bb_andnot(rest, gn[i].cells), gn[one[k]].cells);
                if (sdk_bb_empty(rest))
                    ref_add(r, SDK_LIT(a, 0), SDK_LIT(gn[one[k]].node, 1), SDK_LINK_GROUP);
            }
        }
    }
    qsort(r->v, (size_t)r->n, sizeof *r->v, ref_cmp);
}

static int compared_ref;

/* L (plain or grouped, no ALS nodes) against the reference. */
static void same_as_reference(const sdk_grid *g, const sdk_links *L)
{
    static ref_graph r;
    ref_build(g, L->flags & SDK_LINKS_GROUPS, &r);
    assert_int_equal(L->nnode, r.nnode);
    assert_int_equal(L->nedge, r.n);
    for (int lit = 0, e = 0; lit < 2 * L->nnode; lit++) {
        if (L->first[lit] != e)
            fail_msg("literal %d: links from %d, not %d", lit, L->first[lit], e);
        for (; e < r.n && r.v[e].from == lit; e++)
            if (L->edge[e].to != r.v[e].to || L->edge[e].kind != r.v[e].kind ||
                L->edge[e].weight != 1)
                fail_msg("literal %d: link %d differs", lit, e);
    }
    compared_ref++;
}

static void test_rebuild_is_build(void **state)
{
    (void)state;
    uint8_t(*puz)[81] = NULL;
    int n = tu_read_puzzles("forum_hardest_1106.txt", 5, 70, &puz);
    if (n <= 0) skip();
    static const unsigned flags[] = {SDK_LINKS_GROUPS, 0, SDK_LINKS_GROUPS | SDK_LINKS_ALS};
    sdk_links R;
    memset(&R, 0, sizeof R);
    links_room room = {0};
    uint32_t seed = 4242;
    int turn = 0;
    for (int p = 0; p < n; p++) {
        sdk_grid g;
        uint8_t sol[81];
        assert_true(walk_hard_start(&g, puz[p], sol));
        for (int round = 0; round < 10 && sdk_grid_empty_count(&g) > 0; round++) {
            for (int k = 0; k < 3; k++) {
                unsigned f = flags[turn++ % 3];
                sdk_links B;
                assert_true(sdk_links_build(&g, f, &B));
                assert_true(links_rebuild(&g, f, &R, &room));
                same_graph(&B, &R);
                if (!(f & SDK_LINKS_ALS)) same_as_reference(&g, &R);
                /* the same from the position's plain graph
                 * (links_rebuild_from, as links_shared.c builds) */
                if (f) {
                    sdk_links P;
                    assert_true(sdk_links_build(&g, 0, &P));
                    assert_true(links_rebuild_from(&g, f, &R, &room, &P));
                    same_graph(&B, &R);
                    compared_plain++;
                    sdk_links_free(&P);
                }
                sdk_links_free(&B);
            }
            walk_drop_wrong(&g, sol, 5, &seed);
            if (!walk_basic(&g)) break;
        }
    }
    sdk_links_free(&R);
    links_room_free(&room);
    free(puz);
    print_message("graphs compared %d, %d with the reference, %d built from a plain one\n",
                  compared, compared_ref, compared_plain);
    assert_true(compared > 60);
    assert_true(compared_plain > 40);
    assert_true(compared_ref > 40);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_rebuild_is_build),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
