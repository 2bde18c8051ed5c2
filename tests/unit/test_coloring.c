/* test_coloring.c - Simple Colors (trap, wrap) and Multi-Colors 1/2: strict
 * reglib entries (0500-0503) and soundness against brute-force solutions. */
#define SDP_HARNESS_ONLY
#include "test_single_digit.c"

#define CO "coloring.so"

static void test_reglib(void **state)
{
    (void)state;
    sdp_code codes[] = {
        {"0500", CO, "simple-colors-trap", NULL, 0, 0},
        {"0501", CO, "simple-colors-wrap", NULL, 0, 0},
        {"0502", CO, "multi-colors-1", NULL, 0, 0},
        {"0503", CO, "multi-colors-2", NULL, 0, 0},
    };
    assert_int_equal(sdp_reglib(codes, (int)(sizeof codes / sizeof *codes), NULL, true), 0);
    for (size_t i = 0; i < sizeof codes / sizeof *codes; i++) assert_true(codes[i].total > 0);
}

static void test_soundness(void **state)
{
    (void)state;
    sdp_tech_opt t[] = {
        {CO, "simple-colors-trap", NULL, 0},
        {CO, "simple-colors-wrap", NULL, 0},
        {CO, "multi-colors-1", NULL, 0},
        {CO, "multi-colors-2", NULL, 0},
    };
    int nt = (int)(sizeof t / sizeof *t);
    long pos = sdp_soundness("top1465.txt", 300, 4, t, nt);
    printf("soundness: %ld positions\n", pos);
    for (int i = 0; i < nt; i++) printf("  %-22s %7ld steps checked\n", t[i].id, t[i].steps);
    assert_true(pos > 1000);
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
