/* test_dyn_memo.c - the forcing plugin's memo of dynamic searches
 * (plugins/forcing/dyn_memo.c, built in) against searches from scratch.
 *
 * Hard puzzles are walked: singles and locked candidates, then wrong
 * candidates removed a few at a time; at every position each premise (every
 * candidate, true and false) is read from the memo -- kept from the last
 * position when its search read nothing that changed, else searched -- and
 * must match a fresh sdk_dyn_run(): broken or not, and the same literals
 * derived. Premises "k false" with a strong partner take the partner's
 * entry (dyn_memo_share), as the plugin does, and must match their own
 * search too. Between puzzles the memo jumps to an unrelated grid (candidates
 * come back), and nishio and group flags are mixed in, and grids without a
 * solution (a wrong digit placed, singles after it: the nested chains'
 * grids, where most premises break). With plain links the memo fills its
 * entries by its own closure search, with the others by sdk_dyn_run(): both
 * are compared. The memo must keep some entries, or it saves nothing; slot
 * 1 (the grids without a solution) must take some from slot 0 (the walk's
 * position, nearer to them than slot 1's last grid). */
#include <stdlib.h>
#include <string.h>
#include "sudoku/format.h"
#include "sudoku/links.h"
#include "sudoku/solver.h"
#include "testutil.h"
#include "walk.h"
#include "../../plugins/forcing/dyn_memo.h"

static long compared, broken_seen, shared;
static dyn_memo *slots[2]; /* the memos used */

static void check_position(const sdk_grid *g, unsigned flags, int slot, sdk_dyn *d)
{
    dyn_memo *m = dyn_memo_for(g, flags, slot);
    slots[slot ? 1 : 0] = m;
    for (int c = 0; c < 81; c++) {
        if (g->value[c]) continue;
        SDK_MASK_FOREACH(x, g->cand[c])
            for (int on = 1; on >= 0; on--) {
                int k = SDK_CAND_NODE(c, x), p = SDK_LIT(k, on);
                int q = on || flags ? -1 : dyn_strong_partner(g, k);
                if (q >= 0 && m->state[p] == DYN_UNKNOWN) {
                    dyn_memo_fill(m, g, 2 * q + 1, d);
                    dyn_memo_share(m, p, 2 * q + 1);
                    shared++;
                } else {
                    dyn_memo_fill(m, g, p, d);
                }
                bool broken = sdk_dyn_run(g, c, x, on, flags, NULL, d);
                if (broken != (m->state[p] == DYN_BROKEN))
                    fail_msg("flags %u premise %d: memo says %s", flags, p,
                             broken ? "open" : "broken");
                compared++;
                broken_seen += broken;
                if (broken) continue;
                cset on_set, off_set;
                memset(&on_set, 0, sizeof on_set);
                memset(&off_set, 0, sizeof off_set);
                for (int i = 0; i < d->n; i++)
                    cs_add((d->order[i] & 1) ? &on_set : &off_set, d->order[i] >> 1);
                if (memcmp(&on_set, &m->on[p], sizeof on_set) ||
                    memcmp(&off_set, &m->off[p], sizeof off_set))
                    fail_msg("flags %u premise %d: memo's literals differ", flags, p);
            }
    }
}

/* A grid without a solution after g: a wrong digit placed in the first
 * cell from *seed with two candidates or more, then singles and locked
 * candidates; false when the grid broke. */
static bool wrong_of(const sdk_grid *g, const uint8_t *sol, uint32_t *seed, sdk_grid *w)
{
    *w = *g;
    *seed = *seed * 1103515245u + 12345u;
    for (int i = 0; i < 81; i++) {
        int c = (int)(((*seed >> 8) + (unsigned)i) % 81);
        if (w->value[c] || sdk_mask_count(w->cand[c]) < 2) continue;
        sdk_grid_place(w, c, sdk_mask_first(w->cand[c] & ~sdk_digit_bit(sol[c])), false);
        return walk_basic(w);
    }
    return false;
}

static void test_memo_against_scratch(void **state)
{
    (void)state;
    uint8_t(*puz)[81] = NULL;
    int n = tu_read_puzzles("forum_hardest_1106.txt", 8, 45, &puz);
    if (n <= 0) skip();
    sdk_dyn *d = malloc(sizeof *d);
    uint32_t seed = 4242;
    sdk_grid other;
    bool have_other = false;
    for (int p = 0; p < n; p++) {
        sdk_grid g;
        uint8_t sol[81];
        assert_true(walk_hard_start(&g, puz[p], sol));
        /* the memo comes from the last puzzle's grid: nothing in common */
        if (have_other) check_position(&other, 0, 0, d);
        for (int round = 0; round < 16 && sdk_grid_empty_count(&g) > 0; round++) {
            check_position(&g, 0, 0, d);
            if (round % 3 == 1) check_position(&g, SDK_DYN_NISHIO, 1, d);
            if (round % 3 == 2) check_position(&g, SDK_DYN_LOCKED, 1, d);
            sdk_grid w;
            if (round % 3 == 0 && wrong_of(&g, sol, &seed, &w)) {
                check_position(&w, 0, 1, d);
                walk_drop_wrong(&w, sol, 3, &seed);
                check_position(&w, 0, 1, d);
            }
            walk_drop_wrong(&g, sol, 3, &seed);
            if (round % 4 == 3 && !walk_basic(&g)) break;
        }
        other = g;
        have_other = true;
    }
    free(d);
    free(puz);
    long kept_total = 0, searched = 0, trimmed = 0, borrowed = slots[1] ? slots[1]->borrowed : 0;
    for (int i = 0; i < 2; i++)
        if (slots[i])
            kept_total += slots[i]->kept, searched += slots[i]->searched,
                trimmed += slots[i]->trimmed;
    print_message("premises compared %ld (broken %ld, shared %ld), searched %ld, kept from a "
                  "previous position %ld (slot 1 from slot 0: %ld; without removed candidates: "
                  "%ld)\n",
                  compared, broken_seen, shared, searched, kept_total, borrowed, trimmed);
    assert_true(broken_seen > 0 && shared > 0);
    assert_true(kept_total > compared / 10);
    /* the grids without a solution follow the walk's position (slot 0) */
    assert_true(borrowed > 0);
    /* entries whose search made false what a later position removed */
    assert_true(trimmed > 0);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_memo_against_scratch),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
