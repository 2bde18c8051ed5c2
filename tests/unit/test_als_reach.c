/* test_als_reach.c - the ALS chain search (plugins/als) prunes its walk
 * with reach lists: for the current start, its first RC f and a set k
 * entered with excl x, list_j(k, x) holds the edges of k that can lead to
 * an end with eliminations within j links. The plugin finds whether a list
 * is empty without building it (list_empty: memo of what is known per key,
 * a scan that stops at the first edge in the list), computes the start's
 * uz from per-cell bit sets of the sets (uz_start), and builds only lists
 * that are not empty. This test checks both against the definitions,
 * written out here without memo or shortcut: at positions of the hardest
 * puzzles (false candidates removed at random, singles placed now and
 * then), for every start, uz of every set must equal the digits z for which
 * a cell sees the z cells of both, and for every first RC f, set k, excl x
 * and j = 1..DEEP_MAX, the list must hold exactly the edges of the
 * definition in graph order, its emptiness asked in an order that fills
 * the memo in many ways; every key the memo holds empty for any links is
 * empty for DEEP_MAX by the definition. The plugin source is compiled in. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "testutil.h"
#include "walk.h"
#include "sudoku/als.h"
#include "sudoku/solver.h"

#include "../../plugins/als/als_plugin.c"

/* z in uz(S, E): some cell sees every z of S and every z of E. */
static unsigned ref_uz(const sdk_als *S, const sdk_als *E)
{
    unsigned m = 0;
    SDK_MASK_FOREACH(z, S->digits & E->digits) {
        if (!sdk_bb_empty(sdk_bb_and(S->peers[z - 1], E->peers[z - 1]))) m |= sdk_digit_bit(z);
    }
    return m;
}

/* Does edge i (k -> b) of the graph belong in list_j(k, x) of start s and
 * first RC f (the definition, recursively)? */
static bool ref_in_list(const sdk_als_list *l, const sdk_rcc_graph *gr, int s, unsigned f, int j,
                        int i, unsigned excl);

static bool ref_list_empty(const sdk_als_list *l, const sdk_rcc_graph *gr, int s, unsigned f, int j,
                           int k, unsigned excl)
{
    for (int i = gr->first[k]; i < gr->first[k + 1]; i++)
        if (ref_in_list(l, gr, s, f, j, i, excl)) return false;
    return true;
}

static bool ref_in_list(const sdk_als_list *l, const sdk_rcc_graph *gr, int s, unsigned f, int j,
                        int i, unsigned excl)
{
    const sdk_rcc *e = &gr->edge[i];
    unsigned act = e->digits & ~excl;
    if (!act || e->b == s) return false;
    if (ref_uz(&l->als[s], &l->als[e->b]) & ~f & ~act) return true;
    return j > 1 && !ref_list_empty(l, gr, s, f, j - 1, e->b, act & (0u - act));
}

typedef struct stats {
    long starts, lists, full, dead;
} stats;

static void check_position(stats *st, const sdk_grid *g, uint32_t *seed)
{
    sdk_als_list l;
    assert_true(sdk_als_collect(g, NULL, &l) >= 0);
    sdk_rcc_graph gr;
    assert_true(sdk_rcc_graph_build(&l, false, &gr) >= 0);
    recs R;
    memset(&R, 0, sizeof R);
    R.max_nodes = 1000000;
    chain_space *sp = chain_space_of(l.n);
    chain_walk w;
    chain_walk_open(&w, sp, &l, &gr, 6, false, false, NULL, &R);
    /* a sample of the starts (the reference is slow on large graphs) */
    for (int s = 0; s < l.n; s++) {
        if (gr.first[s] == gr.first[s + 1] || (*seed = *seed * 1103515245u + 12345u) >> 28 > 2)
            continue;
        chain_walk_start(&w, sp, s);
        /* the start's own uz is 0 (chain_walk_start: it is in every chain) */
        for (int e = 0; e < l.n; e++) {
            unsigned want = e == s ? 0 : ref_uz(&l.als[s], &l.als[e]);
            if (uz_of(&w, e) != want)
                fail_msg("start %d, set %d: uz %#x, want %#x", s, e, uz_of(&w, e), want);
        }
        st->starts++;
        /* the first RCs of the start's chains; the sets near the start */
        unsigned fs = 0;
        for (int i = gr.first[s]; i < gr.first[s + 1]; i++) fs |= gr.edge[i].digits;
        int near[64], nnear = 0;
        for (int i = gr.first[s]; i < gr.first[s + 1] && nnear < 64; i++) {
            int b = gr.edge[i].b;
            near[nnear++] = b;
            for (int i2 = gr.first[b]; i2 < gr.first[b + 1] && nnear < 64; i2++)
                if (gr.edge[i2].b != s) near[nnear++] = gr.edge[i2].b;
        }
        SDK_MASK_FOREACH(f, fs) {
            unsigned first = sdk_digit_bit(f);
            /* the lists asked for from many links down or up (the memo
             * filled in either order), every excl */
            bool down = (*seed >> 20) & 1;
            for (int t = 0; t < nnear; t++)
                for (int jj = 1; jj <= DEEP_MAX; jj++) {
                    int j = down ? DEEP_MAX + 1 - jj : jj;
                    int k = near[t];
                    for (int x = 1; x <= 9; x++) {
                        unsigned excl = sdk_digit_bit(x);
                        int at = reach_edges(&w, j, k, first, excl);
                        int n = 0;
                        for (int i = gr.first[k]; i < gr.first[k + 1]; i++) {
                            if (!ref_in_list(&l, &gr, s, first, j, i, excl)) continue;
                            if (n >= w.pool[at] || w.pool[at + 1 + n] != i)
                                fail_msg("start %d, first %d, set %d, excl %d, %d links: edge %d "
                                         "missing or out of order",
                                         s, f, k, x, j, i);
                            n++;
                        }
                        if (n != w.pool[at])
                            fail_msg("start %d, first %d, set %d, excl %d, %d links: %d edges, "
                                     "want %d",
                                     s, f, k, x, j, w.pool[at], n);
                        st->lists++;
                        st->full += n > 0;
                    }
                }
            /* the keys noted empty for any links (list_scan: no usable
             * edge), the start's aside, are empty by the definition */
            const uint32_t *stf = w.state + (size_t)(f - 1) * (size_t)w.cap * 9;
            for (int k = 0; k < l.n; k++)
                for (int x = 1; x <= 9 && k != s; x++) { /* the start's keys: 7 by rule */
                    uint32_t word = stf[k * 9 + x - 1];
                    if (word >> STATE_GEN_SHIFT != w.gen || (word & 7) != 7) continue;
                    if (!ref_list_empty(&l, &gr, s, first, DEEP_MAX, k, sdk_digit_bit(x)))
                        fail_msg("start %d, first %d, set %d, excl %d: noted empty for any "
                                 "links, but not for %d",
                                 s, f, k, x, DEEP_MAX);
                    st->dead++;
                }
        }
    }
    chain_walk_close(&w, sp);
    recs_free(&R);
    sdk_rcc_graph_free(&gr);
    sdk_als_list_free(&l);
}

static void test_reach_lists(void **state)
{
    (void)state;
    uint8_t(*puz)[81];
    int n = tu_read_puzzles("forum_hardest_1106.txt", 4, 97, &puz);
    assert_true(n > 0);
    stats st = {0};
    uint32_t seed = 777;
    for (int i = 0; i < n; i++) {
        uint8_t sol[81];
        assert_int_equal(sdk_solve(puz[i], 2, &sol, NULL), 1);
        sdk_grid g;
        sdk_grid_from_values(&g, puz[i]);
        for (int step = 0; step < 30 && !sdk_grid_solved(&g); step++) {
            if (step % 4 == 2) check_position(&st, &g, &seed);
            walk_drop_wrong(&g, sol, 2 + (int)(seed >> 16) % 7, &seed);
            if (step % 8 == 7) walk_basic(&g);
        }
    }
    free(puz);
    print_message("reach lists: %ld starts, %ld lists, %ld not empty, %ld keys empty for any "
                  "links\n",
                  st.starts, st.lists, st.full, st.dead);
    assert_true(st.starts > 50);
    assert_true(st.full > 100);
    assert_true(st.full < st.lists);
    assert_true(st.dead > 0);
    als_cache_release();
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_reach_lists),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
