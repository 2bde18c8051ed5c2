/* test_single_digit.c - tests of the single-digit plugin (skyscraper, kites,
 * empty rectangles, turbot fish, X-chains):
 *  - strict reglib check as FORMAT.md section 6 says: ALL instances whose
 *    digits field matches the entry must make exactly the listed eliminations
 *    and placements (at least one must exist; none for "-x" cases);
 *  - soundness: at every position of a few hundred puzzles, no step of the
 *    techniques eliminates or places against the brute-force solution. */
#include <stdio.h>
#include "reglib_harness.h"
#include "walk.h"

#define SD "single-digit"

static void test_reglib(void **state)
{
    (void)state;
    static const rh_code codes[] = {
        {"0400", SD, "skyscraper", NULL, rh_digits_effect},
        {"0401", SD, "two-string-kite", NULL, rh_digits_effect},
        {"0402", SD, "empty-rectangle", NULL, rh_digits_effect},
        {"0402-1", SD, "empty-rectangle", "two-candidates=1", rh_digits_effect},
        {"0403", SD, "turbot-fish", NULL, rh_digits_effect},
        {"0404", SD, "dual-two-string-kite", NULL, rh_digits_effect},
        {"0405", SD, "dual-empty-rectangle", "two-candidates=1", rh_digits_effect},
        {"0701", SD, "x-chain", NULL, rh_digits_effect},
    };
    /* lines 836 and 838 (dual kites) are known failures: tests/reglib/known_failures.tsv */
    rh_spec spec = {.map = codes, .nmap = (int)(sizeof codes / sizeof *codes)};
    rh_result res;
    int fails = rh_run(&spec, &res);
    rh_print_map(&spec, &res);
    assert_int_equal(fails, 0);
}

static void test_soundness(void **state)
{
    (void)state;
    walk_tech t[] = {
        WALK_TECH(SD, "skyscraper", NULL),
        WALK_TECH(SD, "two-string-kite", NULL),
        WALK_TECH(SD, "dual-two-string-kite", NULL),
        WALK_TECH(SD, "empty-rectangle", "two-candidates=1"),
        WALK_TECH(SD, "dual-empty-rectangle", "two-candidates=1"),
        WALK_TECH(SD, "turbot-fish", NULL),
        WALK_TECH(SD, "x-chain", NULL),
    };
    int nt = (int)(sizeof t / sizeof *t);
    walk_result r = {0};
    walk_singles_first(t, nt, "top1465.txt", 300, 4, &r);
    printf("soundness: %ld positions\n", r.positions);
    for (int i = 0; i < nt; i++) printf("  %-22s %7ld steps checked\n", t[i].id, t[i].steps);
    assert_int_equal(r.wrong, 0);
    assert_true(r.positions > 1000);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_reglib),
        cmocka_unit_test(test_soundness),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
