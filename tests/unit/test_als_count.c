/* test_als_count.c - the counted ALS chain search (plugins/als, a search
 * whose node budget may stop it) adds the nodes of a set's next sets at
 * once two links before the last when they all fit in the budget
 * (bulk_counted), instead of next set by next set. This test checks that
 * the shortcut is exact: on positions of the hardest puzzles (false
 * candidates removed at random, singles placed now and then:
 * walk_hard_rounds), for 4, 5 and 6 links, both search orders and budgets
 * that stop the search at many places (the whole count, one less,
 * fractions of it, small ones), the search with the shortcut must count
 * the same nodes and record the same instances in the same order as the
 * search without it. The shortcut's sums are kept per search (bulk_whole,
 * bulk_shared): the searches are large enough for the kept counts to
 * outgrow their first table. The plugin source is compiled in, so its
 * internal functions are called directly. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "testutil.h"
#include "walk.h"
#include "sudoku/als.h"
#include "sudoku/solver.h"

#include "../../plugins/als/als_plugin.c"

/* the largest budget tried (a search is cut there if it counts more) */
#define COUNT_CAP 20000000L

static void assert_same_search(const recs *got, const recs *want, long pos, long budget)
{
    if (got->nodes != want->nodes)
        fail_msg("position %ld, budget %ld: %ld nodes with the shortcut, %ld without", pos, budget,
                 got->nodes, want->nodes);
    if (got->n != want->n)
        fail_msg("position %ld, budget %ld: %d instances with the shortcut, %d without", pos,
                 budget, got->n, want->n);
    for (int i = 0; i < want->n; i++) {
        const rec *a = &got->r[i], *b = &want->r[i];
        bool same = a->nals == b->nals && a->zmask == b->zmask && a->nelim == b->nelim &&
                    a->ncells == b->ncells && a->order == b->order && same_elims(a, b);
        for (int k = 0; same && k < b->nals; k++)
            same = a->als[k] == b->als[k] && a->rc[k] == b->rc[k];
        if (!same) fail_msg("position %ld, budget %ld: instance %d differs", pos, budget, i);
    }
}

/* One counted search, with or without the shortcut. */
static void counted(const sdk_als_list *l, const sdk_rcc_graph *gr, int max_rc, bool forward,
                    long budget, bool bulk, recs *R)
{
    memset(R, 0, sizeof *R);
    R->max_nodes = budget;
    chain_count_bulk = bulk;
    search_chain(l, gr, max_rc, forward, true, NULL, R);
    chain_count_bulk = true;
}

typedef struct stats {
    long searches, cut, found;
} stats;

static void check_position(stats *st, const sdk_grid *g, long pos)
{
    sdk_als_list l;
    assert_true(sdk_als_collect(g, NULL, &l) >= 0);
    sdk_rcc_graph gr;
    assert_true(sdk_rcc_graph_build(&l, false, &gr) >= 0);
    for (int max_rc = 4; max_rc <= 6; max_rc++)
        for (int fwd = 0; fwd < 2; fwd++) {
            recs whole;
            counted(&l, &gr, max_rc, fwd, COUNT_CAP, false, &whole);
            long n = whole.nodes;
            recs_free(&whole);
            long budgets[] = {COUNT_CAP, n, n - 1, n - n / 8, n / 2, n / 3, n / 7, 1000, 10};
            for (size_t k = 0; k < sizeof budgets / sizeof *budgets; k++) {
                if (budgets[k] < 0 || budgets[k] > COUNT_CAP) continue;
                recs want, got;
                counted(&l, &gr, max_rc, fwd, budgets[k], false, &want);
                counted(&l, &gr, max_rc, fwd, budgets[k], true, &got);
                assert_same_search(&got, &want, pos, budgets[k]);
                st->searches++;
                st->cut += want.nodes > budgets[k];
                st->found += want.n > 0;
                recs_free(&want);
                recs_free(&got);
            }
        }
    sdk_rcc_graph_free(&gr);
    sdk_als_list_free(&l);
}

typedef struct visit_ctx {
    stats st;
    long visited, pos; /* positions walked, checked */
} visit_ctx;

/* Every fourth position of the walk is checked. */
static void visit(const sdk_grid *before, const sdk_grid *after, void *ctx)
{
    (void)after;
    visit_ctx *v = ctx;
    if (v->visited++ % 4 == 0) check_position(&v->st, before, ++v->pos);
}

static void test_counted_search(void **state)
{
    (void)state;
    uint8_t(*puz)[81];
    int n = tu_read_puzzles("forum_hardest_1106.txt", 8, 47, &puz);
    assert_true(n > 0);
    visit_ctx v = {0};
    uint32_t seed = 4242;
    /* 2..8 tries at a false candidate a round; every 8th round the singles */
    const walk_hard_pace pace = {.rounds = 40, .tries_min = 2, .tries_max = 8, .basic_every = 8};
    assert_true(walk_hard_rounds((const uint8_t(*)[81])puz, n, &pace, &seed, visit, &v));
    stats st = v.st;
    long pos = v.pos;
    free(puz);
    print_message("counted chain searches: %ld positions, %ld searches, %ld cut by the budget, "
                  "%ld with instances\n",
                  pos, st.searches, st.cut, st.found);
    assert_true(st.searches > 500);
    assert_true(st.cut > st.searches / 2);
    assert_true(st.found > 100);
    print_message("kept counts: table of %d slots\n", chain_space_last->capshared);
    assert_true(chain_space_last->capshared > 4096); /* shared_grow ran */
    als_cache_release();
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_counted_search),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
