/* test_uniqueness.c - the uniqueness plugin (unique rectangles 1-6, hidden
 * rectangle, avoidable rectangles 1-2, BUG+1).
 *
 * 1. HoDoKu's regression library, the strict way (reglib FORMAT.md §6): every
 *    instance the technique finds whose digits field equals the line's must
 *    make exactly the line's eliminations; fail cases (-x) must find none.
 *    Pass counts are printed per code; a failure not listed below fails.
 * 2. Hand-checked positions: a type 1 rectangle, the missing= option.
 * 3. Soundness: on a few hundred unique puzzles, at every position of a walk
 *    to the solution, no technique eliminates a solution digit.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "reglib_harness.h"
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
    walk_tech t[] = {
        WALK_TECH(U, "unique-rectangle-1", NULL),    WALK_TECH(U, "unique-rectangle-2", NULL),
        WALK_TECH(U, "unique-rectangle-3", NULL),    WALK_TECH(U, "unique-rectangle-4", NULL),
        WALK_TECH(U, "unique-rectangle-5", NULL),    WALK_TECH(U, "unique-rectangle-6", NULL),
        WALK_TECH(U, "hidden-rectangle", NULL),      WALK_TECH(U, "avoidable-rectangle-1", NULL),
        WALK_TECH(U, "avoidable-rectangle-2", NULL), WALK_TECH(U, "bug-plus-1", NULL)};
    /* missing candidates allowed, not allowed, allowed */
    static const char *const file_opts[] = {"missing=1", "missing=0", "missing=1"};
    walk_result r = {0};
    walk_standard(t, (int)(sizeof t / sizeof *t), file_opts, &r);
    assert_int_equal(r.wrong, 0);
    assert_true(r.steps > 0);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_ur1_text),
        cmocka_unit_test(test_reglib),
        cmocka_unit_test(test_soundness),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
