/* test_links_rebuild.c - a link graph built again in the memory of another
 * (lib/links.c's links_rebuild, what the per-thread graphs of
 * links_shared.c use, built in) must be the graph sdk_links_build() makes
 * from scratch: the same nodes, the same edges in the same order.
 *
 * Positions: hard puzzles after singles and locked candidates, then with
 * wrong candidates removed a few at a time (the graph shrinks, strong links
 * appear), a jump to the next puzzle (the graph grows again), and the link
 * flags changing from one rebuild to the next (plain, groups, groups and
 * ALS), so every array is refilled smaller and larger than it was. */
#include <stdlib.h>
#include <string.h>
#include "sudoku/format.h"
#include "sudoku/links.h"
#include "sudoku/solver.h"
#include "testutil.h"
#include "walk.h"
#include "../../lib/links_build.h"

static int compared;

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
                sdk_links_free(&B);
            }
            walk_drop_wrong(&g, sol, 5, &seed);
            if (!walk_basic(&g)) break;
        }
    }
    sdk_links_free(&R);
    links_room_free(&room);
    free(puz);
    print_message("graphs compared %d\n", compared);
    assert_true(compared > 60);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_rebuild_is_build),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
