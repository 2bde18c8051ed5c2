/* test_forcing_tables.c - the forcing plugin's premise tables, all made at
 * once from the components of the link graph (plugins/forcing/forcing.c:
 * tables_all, built in by including the file), against a search from each
 * premise on its own (table_search: sdk_links_search).
 *
 * Hard puzzles are walked as in test_dyn_memo: singles and locked
 * candidates, then wrong candidates removed a few at a time; at every
 * position, with group links and with group and ALS links, and on a grid
 * with a wrong digit placed (no solution: the nested chains' grids), every
 * premise (candidate true and false) must get the table its own search
 * gives: the same candidates made true, the same made false. */
#include "../../plugins/forcing/forcing.c"
#include "testutil.h"
#include "walk.h"

static long compared, leaves_seen;

static void check_position(const sdk_grid *g, unsigned flags)
{
    sctx s;
    if (!forcing_links_init(&s, g, flags)) fail_msg("links of a position not built");
    table fresh;
    for (int c = 0; c < 81; c++) {
        if (g->value[c]) continue;
        SDK_MASK_FOREACH(x, g->cand[c])
            for (int on = 1; on >= 0; on--) {
                int p = SDK_LIT(SDK_CAND_NODE(c, x), on);
                const table *t = forcing_table(&s, p);
                table_search(&s, p, &fresh);
                if (memcmp(&t->on, &fresh.on, sizeof fresh.on) ||
                    memcmp(&t->off, &fresh.off, sizeof fresh.off))
                    fail_msg("flags %u premise %d: the table differs from its search", flags, p);
                compared++;
            }
    }
    if (!s.all_tried) fail_msg("the tables were not made together");
    /* the components without successors the pass took as one literal */
    for (int v = 0; v < 2 * s.L->nnode; v++) {
        int cp = twork.ints[v];
        if (cp >= 0 && twork.cfirst[cp] == twork.cfirst[cp + 1]) leaves_seen++;
    }
    forcing_static_free(&s);
}

static void test_tables_against_search(void **state)
{
    (void)state;
    uint8_t(*puz)[81] = NULL;
    int n = tu_read_puzzles("forum_hardest_1106.txt", 6, 60, &puz);
    if (n <= 0) skip();
    uint32_t seed = 77;
    for (int i = 0; i < n; i++) {
        sdk_grid g;
        sdk_grid_from_values(&g, puz[i]);
        uint8_t sol[2][81];
        assert_int_equal(sdk_solve_grid(&g, 2, sol, NULL), 1);
        assert_true(walk_basic(&g));
        for (int round = 0; round < 6 && sdk_grid_empty_count(&g) > 0; round++) {
            check_position(&g, SDK_LINKS_GROUPS);
            if (round % 2 == 1) check_position(&g, SDK_LINKS_GROUPS | SDK_LINKS_ALS);
            if (round % 3 == 2) { /* a wrong digit placed: no solution */
                sdk_grid w = g;
                for (int c = 0; c < 81; c++) {
                    if (w.value[c] || sdk_mask_count(w.cand[c]) < 2) continue;
                    sdk_grid_place(&w, c, sdk_mask_first(w.cand[c] & ~sdk_digit_bit(sol[0][c])),
                                   false);
                    break;
                }
                if (walk_basic(&w)) check_position(&w, SDK_LINKS_GROUPS);
            }
            walk_drop_wrong(&g, sol[0], 4, &seed);
            if (!walk_basic(&g)) break;
        }
    }
    free(puz);
    print_message("premises compared %ld, literals in components without successors %ld\n",
                  compared, leaves_seen);
    assert_true(compared > 1000 && leaves_seen > 0);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_tables_against_search),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
