/* test_locked_rule.c - pointing and claiming (plugins/intersections) emit
 * the steps of the rule as defined, in their order.
 *
 * find_locked tries, per box-line segment, only the digits some cell of the
 * segment holds and the memo does not skip, as a bit mask. A digit left out
 * of the mask by mistake loses its step; one the memo may skip is checked by
 * test_fish_misc_memo. Here, on positions of hard paths (walk_hard_rounds),
 * every step of each technique (its memo kept along the path, as in the
 * daemon) must be the one the rule written below from the definition gives:
 * boxes in order, then the lines crossing them in order (rows 0-8, columns
 * 9-17), then digits 1-9; digit d's cells in the first house ("from": the
 * box for pointing, the line for claiming) at least two, all in the segment;
 * the step removes d from the second house outside the segment, and is
 * emitted when that removes something. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "testutil.h"
#include "walk.h"

typedef struct counts {
    long positions, steps;
} counts;

/* The rule's steps for one technique: from/to house pairs and digit, with
 * the cells each removes d from. */
static void check_rule(const sdk_technique *t, bool box_first, const sdk_grid *g, counts *c)
{
    tu_steps got = {0};
    tu_find_all(t, NULL, g, &got);
    int k = 0;
    for (int b = 18; b < 27; b++)
        for (int l = 0; l < 18; l++) {
            sdk_bb seg = sdk_bb_and(sdk_house_bb[b], sdk_house_bb[l]);
            if (sdk_bb_empty(seg)) continue;
            int from = box_first ? b : l, to = box_first ? l : b;
            for (int d = 1; d <= 9; d++) {
                sdk_bb in = sdk_bb_and(sdk_house_bb[from], g->digit[d - 1]);
                if (sdk_bb_count(in) < 2 || !sdk_bb_subset(in, seg)) continue;
                sdk_bb gone = sdk_bb_andnot(sdk_bb_and(sdk_house_bb[to], g->digit[d - 1]), seg);
                if (sdk_bb_empty(gone)) continue;
                assert_true(k < got.n);
                const sdk_step *s = &got.s[k++];
                assert_int_equal(s->nelim, sdk_bb_count(gone));
                for (int i = 0; i < s->nelim; i++) {
                    assert_int_equal(s->elim[i].digit, d);
                    assert_true(sdk_bb_has(gone, s->elim[i].cell));
                }
            }
        }
    assert_int_equal(got.n, k);
    c->steps += k;
    tu_steps_free(&got);
}

static void visit(const sdk_grid *before, const sdk_grid *after, void *ctx)
{
    counts *c = ctx;
    const sdk_grid *pos[2] = {before, after}; /* after: wrong candidates gone */
    for (int k = 0; k < 2; k++) {
        check_rule(tu_tech("intersections", "pointing"), true, pos[k], c);
        check_rule(tu_tech("intersections", "claiming"), false, pos[k], c);
        c->positions++;
    }
}

static void test_locked_as_the_rule(void **state)
{
    (void)state;
    uint8_t(*puz)[81] = NULL;
    int n = tu_read_puzzles("forum_hardest_1106.txt", 60, 7, &puz);
    if (n <= 0) skip();
    counts c = {0};
    uint32_t seed = 1106;
    const walk_hard_pace pace = {.rounds = 8, .tries_min = 2, .tries_max = 6};
    assert_true(walk_hard_rounds((const uint8_t(*)[81])puz, n, &pace, &seed, visit, &c));
    free(puz);
    print_message("positions %ld, steps %ld\n", c.positions, c.steps);
    assert_true(c.positions >= 200);
    assert_true(c.steps >= 100);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_locked_as_the_rule),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
