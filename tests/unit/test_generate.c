/* test_generate.c - puzzles made to order (lib/generate.c), in process with
 * the build tree's config: every generated puzzle is checked from scratch
 * (one solution by the brute-force solver, clue count, symmetry, minimality,
 * the rating and path re-run with the engine) against the target it was made
 * for; the same seed and index give the same puzzle; impossible targets are
 * refused with a reason, and an unreachable one fails within its budget. */
#include "testutil.h"
#include <string.h>
#include "sudoku/generate.h"
#include "sudoku/solver.h"

static sdk_config cfg;

static int setup(void **state)
{
    (void)state;
    tu_load_config(&cfg);
    return 0;
}

static int teardown(void **state)
{
    (void)state;
    sdk_config_free(&cfg);
    return 0;
}

static sdk_gen_target open_target(void)
{
    sdk_gen_target t;
    memset(&t, 0, sizeof t);
    t.er_min = t.er_max = t.ep_min = t.ep_max = t.ed_min = t.ed_max = -1;
    t.clues_min = 17, t.clues_max = 81;
    return t;
}

static sdk_gen_opts opts_for(const char *profile, uint64_t seed, uint64_t index)
{
    sdk_gen_opts o;
    memset(&o, 0, sizeof o);
    o.seed = seed, o.index = index;
    o.profile = sdk_config_profile(&cfg, profile);
    assert_non_null(o.profile);
    o.unique_ok = true;
    o.max_seconds = 60;
    return o;
}

/* What the path of v uses, re-run from scratch. */
typedef struct seen {
    int n;
    const char *id[200];
} seen;

static int note(void *ctx, const sdk_step *s, const sdk_grid *before)
{
    (void)before;
    seen *p = ctx;
    if (p->n < 200) p->id[p->n++] = s->tech->id;
    return 0;
}

static sdk_rating rerate(const sdk_profile *p, const uint8_t v[81], seen *path)
{
    sdk_grid g;
    sdk_grid_init(&g);
    for (int c = 0; c < 81; c++)
        if (v[c]) sdk_grid_place(&g, c, v[c], true);
    sdk_run_opts ro = {.unique = true};
    sdk_rating r;
    memset(&r, 0, sizeof r);
    if (path) path->n = 0;
    sdk_engine_run(p, &g, &ro, path ? note : NULL, path, &r);
    return r;
}

static bool in(int x, int lo, int hi)
{
    return (lo < 0 || x >= lo) && (hi < 0 || x <= hi);
}

/* Everything the target asks, checked independently of the generator. */
static void check_puzzle(const sdk_gen_target *t, const sdk_gen_opts *o, const sdk_gen_result *r)
{
    uint8_t sol[2][81];
    assert_int_equal(sdk_solve(r->puzzle, 2, sol, NULL), 1);
    assert_memory_equal(sol[0], r->solution, 81);
    int clues = 0;
    for (int c = 0; c < 81; c++) {
        clues += r->puzzle[c] != 0;
        if (r->puzzle[c]) assert_int_equal(r->puzzle[c], r->solution[c]);
        if (t->has_givens) assert_int_equal(!!r->puzzle[c], !!t->givens[c]);
    }
    assert_int_equal(clues, r->clues);
    assert_true(clues >= t->clues_min && clues <= t->clues_max);
    assert_true(sdk_gen_is_symmetric(r->puzzle, t->symmetry));
    if (t->minimal)
        for (int c = 0; c < 81; c++) {
            if (!r->puzzle[c]) continue;
            uint8_t v[81];
            memcpy(v, r->puzzle, 81);
            v[c] = 0;
            assert_int_not_equal(sdk_solve(v, 2, NULL, NULL), 1);
        }
    seen path;
    sdk_rating rr = rerate(o->profile, r->puzzle, &path);
    assert_int_equal(rr.status, SDK_RUN_SOLVED);
    assert_int_equal(rr.er, r->rating.er);
    assert_int_equal(rr.ep, r->rating.ep);
    assert_int_equal(rr.ed, r->rating.ed);
    assert_int_equal(rr.score, r->rating.score);
    assert_true(in(rr.er, t->er_min, t->er_max));
    assert_true(in(rr.ep, t->ep_min, t->ep_max));
    assert_true(in(rr.ed, t->ed_min, t->ed_max));
    for (int i = 0; i < t->nneeds; i++) {
        bool found = false;
        for (int k = 0; k < path.n; k++) found |= !strcmp(path.id[k], t->needs[i]);
        assert_true(found);
    }
    if (t->hardest) assert_string_equal(rr.hardest->id, t->hardest);
    if (t->level) {
        sdk_rating lr = rerate(o->level_profile, r->puzzle, NULL);
        assert_int_equal(lr.level, t->level);
        assert_int_equal(lr.level, r->level_rating.level);
    }
}

static void make_and_check(const sdk_gen_target *t, const sdk_gen_opts *o)
{
    sdk_gen_result r;
    sdk_error err = {"", ""};
    bool ok = sdk_generate(t, o, &r, &err);
    if (!ok) print_error("sdk_generate: %s: %s\n", err.code, err.msg);
    assert_true(ok);
    assert_true(r.rated >= 1 && r.built >= 1);
    check_puzzle(t, o, &r);
}

static void any_puzzle_is_unique_and_rated(void **state)
{
    (void)state;
    sdk_gen_target t = open_target();
    for (int i = 0; i < 10; i++) {
        sdk_gen_opts o = opts_for("default", 11, (uint64_t)i);
        make_and_check(&t, &o);
    }
}

static void same_seed_same_puzzle(void **state)
{
    (void)state;
    sdk_gen_target t = open_target();
    t.symmetry = SDK_SYM_ROTATIONAL;
    sdk_gen_result a, b, c;
    sdk_error err;
    sdk_gen_opts o = opts_for("default", 99, 3);
    assert_true(sdk_generate(&t, &o, &a, &err));
    assert_true(sdk_generate(&t, &o, &b, &err));
    assert_memory_equal(a.puzzle, b.puzzle, 81);
    o.index = 4;
    assert_true(sdk_generate(&t, &o, &c, &err));
    assert_memory_not_equal(a.puzzle, c.puzzle, 81);
}

static void every_symmetry(void **state)
{
    (void)state;
    for (int s = 0; s < SDK_SYM_COUNT; s++) {
        sdk_gen_target t = open_target();
        t.symmetry = s;
        assert_int_equal(sdk_symmetry_from(sdk_symmetry_name(s)), s);
        sdk_gen_opts o = opts_for("default", 5, (uint64_t)s);
        make_and_check(&t, &o);
    }
}

static void clue_range_and_minimal(void **state)
{
    (void)state;
    sdk_gen_target t = open_target();
    t.clues_min = 30, t.clues_max = 34;
    sdk_gen_opts o = opts_for("default", 7, 0);
    make_and_check(&t, &o);
    t = open_target();
    t.minimal = true;
    t.symmetry = SDK_SYM_ROTATIONAL;
    for (int i = 0; i < 3; i++) {
        o = opts_for("default", 7, (uint64_t)i + 1);
        make_and_check(&t, &o);
    }
}

static void rating_ranges(void **state)
{
    (void)state;
    sdk_gen_target t = open_target();
    t.er_min = 20, t.er_max = 26; /* intersections */
    sdk_gen_opts o = opts_for("default", 3, 0);
    make_and_check(&t, &o);
    t.er_min = 30, t.er_max = 45; /* subsets, fish, wings */
    make_and_check(&t, &o);
    t = open_target();
    t.er_min = 70; /* chains: the local search */
    o = opts_for("default", 3, 1);
    make_and_check(&t, &o);
}

static void needs_hardest_pattern_level(void **state)
{
    (void)state;
    sdk_gen_target t = open_target();
    t.nneeds = 1, t.needs[0] = "x-wing", t.pattern = true;
    sdk_gen_opts o = opts_for("default", 21, 0);
    make_and_check(&t, &o);
    t = open_target();
    t.hardest = "xy-wing";
    make_and_check(&t, &o);
    t = open_target();
    t.level = SDK_LEVEL_HARD;
    o = opts_for("hodoku", 21, 1);
    o.level_profile = o.profile;
    make_and_check(&t, &o);
}

static void givens_pattern_is_kept(void **state)
{
    (void)state;
    /* the clue cells of a known 26-clue puzzle (kaggle_10k.txt line 1) */
    const char *p =
        ".4.1...5.1.7..396.52...8..........17...9.68..8.3.5.62..9..6.5436...8.7..25..971..";
    sdk_gen_target t = open_target();
    for (int c = 0; c < 81; c++) t.givens[c] = p[c] != '.';
    t.has_givens = true;
    sdk_gen_opts o = opts_for("default", 8, 0);
    make_and_check(&t, &o);
}

static void impossible_targets_refused(void **state)
{
    (void)state;
    sdk_error err;
    sdk_gen_target t = open_target();
    t.er_min = 50, t.er_max = 40;
    assert_false(sdk_gen_check(&t, &err));
    assert_string_equal(err.code, SDK_E_REQUEST);
    assert_non_null(strstr(err.msg, "empty"));
    t = open_target();
    t.clues_min = 10;
    assert_false(sdk_gen_check(&t, &err));
    assert_non_null(strstr(err.msg, "17 to 81"));
    t = open_target();
    t.has_givens = true; /* 9 clue cells */
    for (int c = 0; c < 9; c++) t.givens[c * 10] = 1;
    assert_false(sdk_gen_check(&t, &err));
    assert_non_null(strstr(err.msg, "at least 17"));
    t = open_target();
    t.has_givens = true;
    for (int c = 0; c < 20; c++) t.givens[c] = 1; /* rows 1-3 start: not mirror-symmetric */
    t.symmetry = SDK_SYM_MIRROR;
    assert_false(sdk_gen_check(&t, &err));
    assert_non_null(strstr(err.msg, "symmetric"));
    assert_int_equal(sdk_symmetry_from("nonsense"), -1);
}

static void unreachable_target_fails_in_budget(void **state)
{
    (void)state;
    sdk_gen_target t = open_target();
    t.er_min = 10, t.er_max = 10; /* full houses only: never a minimal-ish puzzle */
    sdk_gen_opts o = opts_for("default", 1, 0);
    o.max_tries = 30;
    sdk_gen_result r;
    sdk_error err;
    assert_false(sdk_generate(&t, &o, &r, &err));
    assert_string_equal(err.code, SDK_E_NOT_FOUND);
    assert_int_equal(r.rated, 30);
    assert_non_null(strstr(err.msg, "30 rated"));
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(any_puzzle_is_unique_and_rated),
        cmocka_unit_test(same_seed_same_puzzle),
        cmocka_unit_test(every_symmetry),
        cmocka_unit_test(clue_range_and_minimal),
        cmocka_unit_test(rating_ranges),
        cmocka_unit_test(needs_hardest_pattern_level),
        cmocka_unit_test(givens_pattern_is_kept),
        cmocka_unit_test(impossible_targets_refused),
        cmocka_unit_test(unreachable_target_fails_in_budget),
    };
    return cmocka_run_group_tests(tests, setup, teardown);
}
