/* test_coloring.c - Simple Colors (trap, wrap) and Multi-Colors 1/2: strict
 * reglib entries (0500-0503) and soundness against brute-force solutions. */
#include <stdio.h>
#include "reglib_harness.h"
#include "walk.h"

#define CO "coloring"

static void test_reglib(void **state)
{
    (void)state;
    static const rh_code codes[] = {
        {"0500", CO, "simple-colors-trap", NULL, rh_digits_effect},
        {"0501", CO, "simple-colors-wrap", NULL, rh_digits_effect},
        {"0502", CO, "multi-colors-1", NULL, rh_digits_effect},
        {"0503", CO, "multi-colors-2", NULL, rh_digits_effect},
    };
    rh_spec spec = {.map = codes, .nmap = (int)(sizeof codes / sizeof *codes)};
    rh_result res;
    int fails = rh_run(&spec, &res);
    rh_print_map(&spec, &res);
    assert_int_equal(fails, 0);
    for (int i = 0; i < spec.nmap; i++) assert_non_null(rh_row_of(&res, codes[i].code));
}

static void test_soundness(void **state)
{
    (void)state;
    walk_tech t[] = {
        WALK_TECH(CO, "simple-colors-trap", NULL),
        WALK_TECH(CO, "simple-colors-wrap", NULL),
        WALK_TECH(CO, "multi-colors-1", NULL),
        WALK_TECH(CO, "multi-colors-2", NULL),
    };
    int nt = (int)(sizeof t / sizeof *t);
    walk_result r = {0};
    walk_singles_first(t, nt, "top1465.txt", 300, 4, &r);
    printf("soundness: %ld positions\n", r.positions);
    for (int i = 0; i < nt; i++) printf("  %-22s %7ld steps checked\n", t[i].id, t[i].steps);
    assert_int_equal(r.wrong, 0);
    assert_true(r.positions > 1000);
    assert_true(t[0].steps > 0 && t[1].steps > 0 && t[2].steps > 0);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_reglib),
        cmocka_unit_test(test_soundness),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
