/* test_uniqueness.c - the uniqueness plugin (unique rectangles 1-6, hidden
 * rectangle, avoidable rectangles 1-2, BUG+1, Sudoku Explainer's unique loops
 * and hidden type 3).
 *
 * 1. HoDoKu's regression library, the strict way (reglib FORMAT.md §6): every
 *    instance the technique finds whose digits field equals the line's must
 *    make exactly the line's eliminations; fail cases (-x) must find none.
 *    Pass counts are printed per code; a failure not listed below fails.
 * 2. Hand-checked positions: a type 1 rectangle, the missing= option.
 * 3. Soundness: on a few hundred unique puzzles, at every position of a walk
 *    to the solution, no technique eliminates a solution digit.
 * 4. Sudoku Explainer's unique loops (6+ cells, types 1-3) and the hidden
 *    type 3 rectangle, met on the default profile's path with SE's ratings.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "reglib_harness.h"
#include "sudoku/solver.h"
#include "walk.h"

#define U "uniqueness"

static const rh_code map[] = {
    {"0600-1", U, "unique-rectangle-1", "missing=0", rh_digits_text},
    {"0600-2", U, "unique-rectangle-1", "missing=1", rh_digits_text},
    {"0601-1", U, "unique-rectangle-2", "missing=0", rh_digits_text},
    {"0601-2", U, "unique-rectangle-2", "missing=1", rh_digits_text},
    {"0602-1", U, "unique-rectangle-3", "missing=0", rh_digits_text},
    {"0602-2", U, "unique-rectangle-3", "missing=1", rh_digits_text},
    {"0603-1", U, "unique-rectangle-4", "missing=0", rh_digits_text},
    {"0603-2", U, "unique-rectangle-4", "missing=1", rh_digits_text},
    {"0604-1", U, "unique-rectangle-5", "missing=0", rh_digits_text},
    {"0604-2", U, "unique-rectangle-5", "missing=1", rh_digits_text},
    {"0605-1", U, "unique-rectangle-6", "missing=0", rh_digits_text},
    {"0605-2", U, "unique-rectangle-6", "missing=1", rh_digits_text},
    {"0606-1", U, "hidden-rectangle", "missing=0", rh_digits_text},
    {"0606-2", U, "hidden-rectangle", "missing=1", rh_digits_text},
    {"0606", U, "hidden-rectangle", "missing=1", rh_digits_text},
    {"0607-1", U, "avoidable-rectangle-1", "missing=0", rh_digits_text},
    {"0608-1", U, "avoidable-rectangle-2", "missing=0", rh_digits_text},
    {"0610", U, "bug-plus-1", NULL, rh_digits_none},
};

static void test_reglib(void **state)
{
    (void)state;
    assert_int_equal(rh_run_table(map, (int)(sizeof map / sizeof *map)), 0);
}

/* Uniqueness Test 1 from the reglib header: 1/3 in r5c89,r8c89 => r8c9<>1,3. */
static void test_ur1_text(void **state)
{
    (void)state;
    sdk_grid g;
    rh_position("+5+2+3+9+7+8+1466+1+832+4...+4+7+9+5+6+1+38+29+5+1+6+32.+7.+86+2+49+7+5..+7+34+"
                "18526+9+38+7+21....295+8+4....+14+67+5..+2.",
                "", &g);
    tu_steps st = {0};
    tu_find_all(tu_tech(U, "unique-rectangle-1"), "missing=0", &g, &st);
    assert_int_equal(st.n, 1);
    assert_string_equal(st.s[0].text, "Uniqueness Test 1: 1/3 in r5c89,r8c89 => r8c9<>1, r8c9<>3");
    tu_steps_free(&st);
}

static void test_soundness(void **state)
{
    (void)state;
    walk_tech t[] = {WALK_TECH(U, "unique-rectangle-1", NULL),
                     WALK_TECH(U, "unique-rectangle-2", NULL),
                     WALK_TECH(U, "unique-rectangle-3", NULL),
                     WALK_TECH(U, "unique-rectangle-4", NULL),
                     WALK_TECH(U, "unique-rectangle-5", NULL),
                     WALK_TECH(U, "unique-rectangle-6", NULL),
                     WALK_TECH(U, "hidden-rectangle", NULL),
                     WALK_TECH(U, "avoidable-rectangle-1", NULL),
                     WALK_TECH(U, "avoidable-rectangle-2", NULL),
                     WALK_TECH(U, "bug-plus-1", NULL),
                     WALK_TECH(U, "unique-loop-1", NULL),
                     WALK_TECH(U, "unique-loop-2", NULL),
                     WALK_TECH(U, "unique-loop-3", NULL),
                     WALK_TECH(U, "unique-loop-4", NULL),
                     WALK_TECH(U, "unique-rectangle-3-hidden", NULL)};
    /* missing candidates allowed, not allowed, allowed */
    static const char *const file_opts[] = {"missing=1", "missing=0", "missing=1"};
    walk_result r = {0};
    walk_standard(t, (int)(sizeof t / sizeof *t), file_opts, &r);
    assert_int_equal(r.wrong, 0);
    assert_true(r.steps > 0);
}

/* The default (Sudoku Explainer) profile run on a puzzle: the step whose
 * text is `want` must come, with SE's difficulty, and the run must end with
 * the solver's solution. */
typedef struct seen_step {
    const char *want;
    int difficulty; /* -1: not seen */
} seen_step;

static int on_step(void *c, const sdk_step *s, const sdk_grid *before)
{
    seen_step *w = c;
    (void)before;
    if (w->difficulty < 0 && !strcmp(s->text, w->want)) w->difficulty = s->difficulty;
    return 0;
}

static void expect_se_step(const sdk_profile *p, const char *puzzle, const char *want, int diff)
{
    sdk_grid g;
    sdk_error e;
    assert_true(sdk_parse(puzzle, &g, &e));
    seen_step w = {want, -1};
    sdk_rating rt;
    sdk_run_opts o = {.unique = true};
    assert_int_equal(sdk_engine_run(p, &g, &o, on_step, &w, &rt), SDK_RUN_SOLVED);
    if (w.difficulty != diff)
        fprintf(stderr, "%s: want \"%s\" at %d, got %d\n", puzzle, want, diff, w.difficulty);
    assert_int_equal(w.difficulty, diff);
    uint8_t v[81], sol[2][81];
    for (int i = 0; i < 81; i++) v[i] = puzzle[i] == '.' ? 0 : (uint8_t)(puzzle[i] - '0');
    assert_int_equal(sdk_solve(v, 2, sol, NULL), 1);
    assert_memory_equal(g.value, sol[0], 81);
}

/* Positions met in unbiased_1k.txt (lines 494, 441, 116) and top1465.txt
 * (line 225); ratings by SE's rule: 4.5, +0.1 for a loop of 6 cells, +0.1 per
 * naked digit / hidden cell beyond the first. */
static void test_se_loops(void **state)
{
    (void)state;
    sdk_config cfg;
    tu_load_config(&cfg);
    const sdk_profile *p = sdk_config_profile(&cfg, "default");
    assert_non_null(p);
    expect_se_step(
        p, "..37.648.4.......7.89.........3...45.6..78...3.......2....2...4.....1.3..1.83.29.",
        "Unique Loop type 1: 6/9 in r6c4,r6c5,r8c5,r8c1,r7c1,r7c4 => r6c5<>6, r6c5<>9", 46);
    expect_se_step(
        p, "..3..4..84.....1..7.93......1....2......8.37..67....94....96.1...2..........52.8.",
        "Unique Loop type 2: 5/6 in r3c9,r3c7,r8c7,r8c8,r4c8,r4c9 => r3c8,r79c7<>4", 46);
    expect_se_step(
        p, ".2..8.7.945..7.....8...324..3...1..2.....46..2....7.8.561....3.......5......9...4",
        "Unique Loop type 3: 7/9 in r3c1,r3c3,r4c3,r4c8,r5c8,r5c1 (naked set of 2 in row "
        "5) => r5c9<>5",
        47);
    expect_se_step(
        p, ".4.5.....8...9..3..76.2.....146..........9..7.....36....1..4.5..6......3..71..2..",
        "Unique Rectangle type 3 (hidden): 1/4 in r5c5,r6c5,r6c8,r5c8 (hidden set of 3 in "
        "box 6) => r6c9<>2, r5c7<>3, r5c7,r6c9<>8, r6c9<>9",
        46);
    sdk_config_free(&cfg);
}

/* The rectangles are listed once per grid and kept (uniqueness.c, ur_last):
 * a grid that differs from the one before by a candidate alone must get its
 * own list. At positions of a standard-profile walk, every cell with three
 * candidates loses its last one in turn (a new corner holding two digits:
 * new rectangles); each type's steps there, run right after the position
 * itself (its list kept), must be those run after a blank grid (the list
 * made afresh). */
static const char *const ur_ids[] = {
    "unique-rectangle-1", "unique-rectangle-2", "unique-rectangle-3", "unique-rectangle-4",
    "unique-rectangle-5", "unique-rectangle-6", "hidden-rectangle"};
static const char *const ur_opts[] = {"missing=1", "missing=0"};

typedef struct ur_kept {
    long grids, runs, steps;
} ur_kept;

static bool same_steps(const tu_steps *a, const tu_steps *b)
{
    if (a->n != b->n) return false;
    for (int i = 0; i < a->n; i++)
        if (strcmp(a->s[i].text, b->s[i].text)) return false;
    return true;
}

static void ur_kept_hook(void *ctx, const sdk_step *s, const sdk_grid *before, const uint8_t *sol,
                         int nstep)
{
    (void)s, (void)sol;
    ur_kept *k = ctx;
    sdk_grid blank;
    sdk_grid_init(&blank);
    tu_steps kept = {0}, fresh = {0}, scratch = {0};
    for (int c = 0; c < SDK_CELLS; c++) {
        if (before->value[c] || sdk_mask_count(before->cand[c]) != 3) continue;
        sdk_grid g = *before;
        sdk_grid_eliminate(&g, c, 32 - __builtin_clz((unsigned)g.cand[c])); /* the last */
        for (size_t t = 0; t < sizeof ur_ids / sizeof *ur_ids; t++)
            for (size_t o = 0; o < 2; o++) {
                const sdk_technique *tech = tu_tech(U, ur_ids[t]);
                tu_find_all(tech, ur_opts[o], before, &scratch);
                tu_find_all(tech, ur_opts[o], &g, &kept);
                tu_find_all(tech, ur_opts[o], &blank, &scratch);
                tu_find_all(tech, ur_opts[o], &g, &fresh);
                if (!same_steps(&kept, &fresh))
                    fail_msg("%s %s at step %d, r%dc%d: %d steps after the grid before, %d "
                             "afresh",
                             ur_ids[t], ur_opts[o], nstep, c / 9 + 1, c % 9 + 1, kept.n, fresh.n);
                k->runs++;
                k->steps += fresh.n;
            }
    }
    k->grids++;
    tu_steps_free(&kept);
    tu_steps_free(&fresh);
    tu_steps_free(&scratch);
}

static void test_list_per_grid(void **state)
{
    (void)state;
    sdk_config cfg;
    tu_load_config(&cfg);
    const sdk_profile *p = sdk_config_profile(&cfg, "standard");
    assert_non_null(p);
    ur_kept k = {0};
    walk_result r = {0};
    walk_profile(p, "forum_hardest_1106.txt", 2, 101, ur_kept_hook, &k, &r, NULL);
    printf("rectangles kept per grid: %ld grids, %ld runs, %ld steps\n", k.grids, k.runs, k.steps);
    assert_true(k.grids > 50 && k.steps > 20);
    sdk_config_free(&cfg);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_ur1_text),      cmocka_unit_test(test_reglib),
        cmocka_unit_test(test_soundness),     cmocka_unit_test(test_se_loops),
        cmocka_unit_test(test_list_per_grid),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
