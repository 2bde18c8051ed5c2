/* test_misc.c - the misc plugin (Sue de Coq, Aligned Pair Exclusion).
 *
 * 1. HoDoKu's regression library for Sue de Coq (1101), the strict way
 *    (reglib FORMAT.md §6): every instance whose eliminated digits equal the
 *    line's digits field must make exactly the line's eliminations.
 * 2. Aligned Pair Exclusion on a built position.
 * 3. Soundness: on a few hundred unique puzzles, at every position of a walk
 *    to the solution, no technique eliminates a solution digit.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "reglib_harness.h"
#include "walk.h"

#define M "misc"

static const rh_code map[] = {
    {"1101", M, "sue-de-coq", NULL, rh_digits_elim},
};

static void test_reglib(void **state)
{
    (void)state;
    assert_int_equal(rh_run_table(map, (int)(sizeof map / sizeof *map)), 0);
}

/* Sue de Coq from HoDoKu's source comment: r7c45 - {123689} (r7c128 - {2389},
 * r9c6 - {16}) => r8c46,r9c4<>1, r8c456,r9c4<>6, r7c3<>2, r7c3<>9. */
static void test_sdc_text(void **state)
{
    (void)state;
    sdk_grid g;
    rh_position(".....3+5+1+7+1+3+5+42+786+9867+91+54..+6+935+4+82+717183.+2.+54+2+54...........47."
                "55......+4.....+5..9.",
                "", &g);
    tu_steps st = {0};
    tu_find_all(tu_tech(M, "sue-de-coq"), NULL, &g, &st);
    bool found = false;
    for (int i = 0; i < st.n; i++)
        found |= strstr(st.s[i].text,
                        "Sue de Coq: r7c45 - {123689} (r7c128 - {2389}, r9c6 - {16})") != NULL &&
                 st.s[i].nelim == 9;
    if (!found)
        for (int i = 0; i < st.n; i++) printf("  got: %s\n", st.s[i].text);
    assert_true(found);
    tu_steps_free(&st);
}

/* APE: r1c1 {1,2,3} and r1c2 {1,2} in one row; r2c3 {1,3} sees both. With
 * r1c2=1 r1c1 cannot be 3 (r2c3 empty) nor 1; with r1c2=2, r1c1=3 leaves r2c3
 * only 1: fine. So r1c1=3 survives with r1c2=2, r1c1=1 survives with r1c2=2.
 * A second common cell r3c3 {2,3} kills (r1c1=3, r1c2=2) too: r1c1 loses 3. */
static void test_ape(void **state)
{
    (void)state;
    sdk_grid g;
    sdk_grid_init(&g);
    for (int d = 4; d <= 9; d++) {
        sdk_grid_eliminate(&g, 0, d);
        sdk_grid_eliminate(&g, 1, d);
        sdk_grid_eliminate(&g, 11, d);
        sdk_grid_eliminate(&g, 20, d);
    }
    sdk_grid_eliminate(&g, 1, 3);
    sdk_grid_eliminate(&g, 11, 2);
    sdk_grid_eliminate(&g, 20, 1);
    tu_steps st = {0};
    tu_find_all(tu_tech(M, "aligned-pair-exclusion"), NULL, &g, &st);
    bool found = false;
    for (int i = 0; i < st.n; i++)
        if (!strcmp(st.s[i].text, "Aligned Pair Exclusion: r1c1,r1c2 => r1c1<>3")) found = true;
    if (!found)
        for (int i = 0; i < st.n; i++) printf("  got: %s\n", st.s[i].text);
    assert_true(found);
    tu_steps_free(&st);
}

static void test_soundness(void **state)
{
    (void)state;
    walk_tech t[] = {WALK_TECH(M, "sue-de-coq", NULL),
                     WALK_TECH(M, "aligned-pair-exclusion", NULL)};
    int nt = (int)(sizeof t / sizeof *t);
    walk_result r = {0};
    walk_standard(t, nt, NULL, &r);
    assert_int_equal(r.wrong, 0);
    assert_true(r.steps > 0);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_sdc_text),
        cmocka_unit_test(test_ape),
        cmocka_unit_test(test_reglib),
        cmocka_unit_test(test_soundness),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
