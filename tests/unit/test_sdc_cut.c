/* test_sdc_cut.c - Sue de Coq (plugins/misc/misc.c) leaves out the line
 * sets that take every digit of the intersection that its box cells hold
 * (sdc_line): the box cells allowed with such a set (those avoiding the
 * digits it takes) hold none of those digits, so no box set is found with
 * it or with a larger one. A cut that leaves out a set that could give
 * a step loses that step.
 *
 * On positions of hard paths (walk_hard_rounds), the search of every line
 * and box with the cut must emit the steps of the search without it, in
 * the same order, with the same text and eliminations. The plugin source
 * is compiled in, so the cut can be turned off (sdc_cut_all_taken). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "testutil.h"
#include "walk.h"

#include "../../plugins/misc/misc.c"

/* Every Sue de Coq of g (each line and box, no memo), with or without the cut. */
static void search_all(const sdk_grid *g, bool cut, tu_steps *out)
{
    sdk_ctx ctx;
    memset(&ctx, 0, sizeof ctx);
    ctx.self = &sue_de_coq;
    out->n = 0;
    sdk_sink sink = {tu_collect, out};
    sdc_cut_all_taken = cut;
    sdk_bb empty = sdk_bb_andnot((sdk_bb){~0ULL, (1ULL << 17) - 1}, g->solved);
    for (int p = 0; p < SDC_PAIRS; p++) {
        sdc w = {.ctx = &ctx, .g = g, .sink = &sink, .line = p / 9, .box = 18 + p % 9};
        w.lineset = sdk_bb_and(sdk_house_bb[w.line], empty);
        w.boxset = sdk_bb_and(sdk_house_bb[w.box], empty);
        assert_int_equal(sdc_pair(&w), SDK_CONTINUE);
    }
    sdc_cut_all_taken = true;
}

typedef struct counts {
    long positions, steps;
} counts;

static void visit(const sdk_grid *before, const sdk_grid *after, void *ctx)
{
    (void)before;
    counts *c = ctx;
    static tu_steps got, want;
    long pos = ++c->positions;
    search_all(after, true, &got);
    search_all(after, false, &want);
    if (got.n != want.n)
        fail_msg("position %ld: %d steps with the cut, %d without", pos, got.n, want.n);
    for (int i = 0; i < want.n; i++) {
        const sdk_step *a = &got.s[i], *b = &want.s[i];
        if (strcmp(a->text, b->text) || a->nelim != b->nelim ||
            memcmp(a->elim, b->elim, sizeof *b->elim * b->nelim))
            fail_msg("position %ld: step %d with the cut is '%s', without '%s'", pos, i, a->text,
                     b->text);
    }
    c->steps += want.n;
}

static void test_cut_keeps_every_step(void **state)
{
    (void)state;
    counts c = {0};
    int walked = walk_hardest_1106(125, visit, &c);
    if (walked < 0) skip();
    assert_true(walked);
    print_message("positions %ld, %ld steps\n", c.positions, c.steps);
    assert_true(c.positions >= 500);
    assert_true(c.steps > 100);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_cut_keeps_every_step),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
