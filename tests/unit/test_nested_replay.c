/* test_nested_replay.c - the engine's replay of stuck propagations
 * (lib/prop_memo.h) against the search from scratch.
 *
 * A nested forcing chain propagates the same assumptions again at later
 * steps of a puzzle's path; from a grid it propagated before, the engine
 * replays the steps it kept instead of searching them. Rated through the
 * standard profile (nested-forcing-chain last but one) on hardest puzzles,
 * the path must be the same step for step, inner steps and claims included,
 * with the memo on and off, and the memo must have replayed something. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "sudoku/format.h"
#include "sudoku/solver.h"
#include "testutil.h"
#include "../../lib/prop_memo.h"

typedef struct path {
    sdk_step *s;
    int n, cap;
} path;

static int keep(void *c, const sdk_step *s, const sdk_grid *before)
{
    (void)before;
    path *p = c;
    if (p->n == p->cap) {
        p->cap = p->cap ? 2 * p->cap : 64;
        p->s = realloc(p->s, (size_t)p->cap * sizeof *p->s);
        assert_non_null(p->s);
    }
    sdk_step_copy(&p->s[p->n++], s);
    return 0;
}

static void same_step(const sdk_step *a, const sdk_step *b)
{
    assert_ptr_equal(a->tech, b->tech);
    assert_string_equal(a->text, b->text);
    assert_int_equal(a->difficulty, b->difficulty);
    assert_int_equal(a->nplace, b->nplace);
    assert_int_equal(a->nelim, b->nelim);
    for (int i = 0; i < a->nplace; i++) {
        assert_int_equal(a->place[i].cell, b->place[i].cell);
        assert_int_equal(a->place[i].digit, b->place[i].digit);
    }
    for (int i = 0; i < a->nelim; i++) {
        assert_int_equal(a->elim[i].cell, b->elim[i].cell);
        assert_int_equal(a->elim[i].digit, b->elim[i].digit);
    }
    assert_int_equal(a->nmark, b->nmark);
    assert_int_equal(a->nlink, b->nlink);
    assert_int_equal(a->truncated, b->truncated);
    assert_int_equal(a->ninner, b->ninner);
    assert_int_equal(a->nclaim, b->nclaim);
    assert_int_equal(a->inner_text_len, b->inner_text_len);
    assert_memory_equal(a->inner_text, b->inner_text, a->inner_text_len);
    for (int i = 0; i < a->nclaim; i++) {
        assert_int_equal(a->claim[i].cand.cell, b->claim[i].cand.cell);
        assert_int_equal(a->claim[i].cand.digit, b->claim[i].cand.digit);
        assert_int_equal(a->claim[i].place, b->claim[i].place);
        assert_true(a->claim[i].steps == b->claim[i].steps);
    }
}

static void rate(const sdk_profile *p, const uint8_t *puz, path *out, sdk_rating *rt)
{
    sdk_grid g;
    sdk_grid_from_values(&g, puz);
    sdk_run_opts o = {.unique = sdk_solve_grid(&g, 2, NULL, NULL) == 1};
    out->n = 0;
    sdk_engine_run(p, &g, &o, keep, out, rt);
}

static void replayed_paths_equal_searched_ones(void **state)
{
    (void)state;
    sdk_config cfg;
    tu_load_config(&cfg);
    const sdk_profile *p = sdk_config_profile(&cfg, "standard");
    assert_non_null(p);
    uint8_t(*puz)[81] = NULL;
    int n = tu_read_puzzles("forum_hardest_1106.txt", 2, 62, &puz);
    if (n == 0) {
        sdk_config_free(&cfg);
        skip();
    }
    path with = {0}, without = {0};
    unsigned long replays = 0;
    for (int k = 0; k < n; k++) {
        sdk_rating r1, r2;
        prop_memo_enable(false);
        rate(p, puz[k], &without, &r1);
        prop_memo_enable(true);
        unsigned long before = prop_memo_replays();
        rate(p, puz[k], &with, &r2);
        replays += prop_memo_replays() - before;
        assert_int_equal(r1.status, r2.status);
        assert_int_equal(r1.er, r2.er);
        assert_int_equal(r1.ep, r2.ep);
        assert_int_equal(r1.ed, r2.ed);
        assert_int_equal(with.n, without.n);
        int nested = 0;
        for (int i = 0; i < with.n; i++) {
            same_step(&with.s[i], &without.s[i]);
            nested += !strcmp(with.s[i].tech->id, "nested-forcing-chain");
        }
        assert_true(nested > 0); /* the puzzle exercises nested chains */
    }
    assert_true(replays > 0);
    free(with.s);
    free(without.s);
    free(puz);
    sdk_config_free(&cfg);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(replayed_paths_equal_searched_ones),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
