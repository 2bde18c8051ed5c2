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
 * gives: the same candidates made true, the same made false. The verdicts
 * of the premises' components (comp_verdicts: clean passed down the
 * component graph, premises that no link leaves judged alone) must be
 * table_scan()'s on each premise's table; also on the grid right after the
 * wrong digit (singles not yet applied: lone premises that break). */
#include "../../plugins/forcing/forcing.c"
#include "testutil.h"
#include "walk.h"

static long compared, leaves_seen, verdicts, lone_broken_seen;

/* comp_verdicts() on every premise against table_scan() on its table. */
static void check_verdicts(sctx *s, const sdk_grid *g)
{
    if (!twork.cstate || s->t[0].comp < 0) {
        bool any = false; /* no component graph: nothing to compare */
        for (int p = 0; p < 2 * SDK_NCAND; p++) any |= s->t[p].valid && s->t[p].comp >= 0;
        if (any) fail_msg("components without a component graph");
    }
    bool *want = calloc(2 * SDK_NCAND, sizeof *want);
    for (int p = 0; p < 2 * SDK_NCAND; p++) want[p] = true;
    table_scan_grid sg;
    table_scan_grid_init(&sg, g);
    comp_verdicts(s, tables_work_mine(), &sg, want, false);
    free(want);
    for (int p = 0; p < 2 * SDK_NCAND; p++) {
        const table *t = &s->t[p];
        if (!t->valid || t->comp < 0) continue;
        int state = twork.cstate[t->comp];
        if (state == COMP_UNKNOWN) fail_msg("premise %d: no verdict", p);
        bool broken = table_scan(&sg, &t->sets->on, &t->sets->off) != 0;
        if (broken != (state == COMP_BROKEN))
            fail_msg("premise %d: verdict %s, its table %s", p, broken ? "clean" : "broken",
                     broken ? "broken" : "clean");
        bool lone = s->L->first[p] == s->L->first[p + 1];
        lone_broken_seen += lone && broken;
        verdicts++;
    }
}

static void check_position(const sdk_grid *g, unsigned flags)
{
    sctx s;
    tables.key.used = false; /* made afresh, even where the last position was the same */
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
    leaves_seen += twork.nleaf; /* edges to a literal no link leaves: one bit each */
    check_verdicts(&s, g);
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
                char why[64];
                if (sdk_grid_check(&w, why, sizeof why)) check_position(&w, SDK_LINKS_GROUPS);
                if (walk_basic(&w)) check_position(&w, SDK_LINKS_GROUPS);
            }
            walk_drop_wrong(&g, sol[0], 4, &seed);
            if (!walk_basic(&g)) break;
        }
    }
    free(puz);
    print_message("premises compared %ld, edges to a leaf %ld, verdicts %ld (lone premises "
                  "broken %ld)\n",
                  compared, leaves_seen, verdicts, lone_broken_seen);
    assert_true(compared > 1000 && leaves_seen > 0);
    assert_true(verdicts > 1000 && lone_broken_seen > 0);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_tables_against_search),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
