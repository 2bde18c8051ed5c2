/* test_templates.c - Template Set / Template Delete: strict reglib entries
 * (1201, 1202) and soundness against brute-force solutions. */
#include <stdio.h>
#include "reglib_harness.h"
#include "walk.h"

#define TP "templates"

static void test_reglib(void **state)
{
    (void)state;
    static const rh_code codes[] = {
        {"1201", TP, "template-set", NULL, rh_digits_effect},
        {"1202", TP, "template-delete", NULL, rh_digits_effect},
    };
    rh_spec spec = {.map = codes, .nmap = 2};
    rh_result res;
    int fails = rh_run(&spec, &res);
    rh_print_map(&spec, &res);
    assert_int_equal(fails, 0);
    assert_int_equal(rh_sum(&res, "1201").total, 9);
    assert_int_equal(rh_sum(&res, "1202").total, 9);
}

/* On an empty grid every template survives: nothing to set or delete. */
static void test_empty_grid(void **state)
{
    (void)state;
    sdk_grid g;
    sdk_grid_init(&g);
    tu_steps st = {0};
    tu_find_all(tu_tech(TP, "template-set"), NULL, &g, &st);
    assert_int_equal(st.n, 0);
    tu_find_all(tu_tech(TP, "template-delete"), NULL, &g, &st);
    assert_int_equal(st.n, 0);
    tu_steps_free(&st);
}

static void test_soundness(void **state)
{
    (void)state;
    walk_tech t[] = {
        WALK_TECH(TP, "template-set", NULL),
        WALK_TECH(TP, "template-delete", NULL),
    };
    walk_result r = {0};
    walk_singles_first(t, 2, "top1465.txt", 100, 14, &r);
    printf("soundness: %ld positions, %ld + %ld steps checked\n", r.positions, t[0].steps,
           t[1].steps);
    assert_int_equal(r.wrong, 0);
    assert_true(r.positions > 300);
    assert_true(t[0].steps > 0 && t[1].steps > 0);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_reglib),
        cmocka_unit_test(test_empty_grid),
        cmocka_unit_test(test_soundness),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
