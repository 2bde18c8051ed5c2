/* test_templates.c - Template Set / Template Delete: strict reglib entries
 * (1201, 1202) and soundness against brute-force solutions. */
#define SDP_HARNESS_ONLY
#include "test_single_digit.c"

#define TP "templates.so"

static void test_reglib(void **state)
{
    (void)state;
    sdp_code codes[] = {
        {"1201", TP, "template-set", NULL, 0, 0},
        {"1202", TP, "template-delete", NULL, 0, 0},
    };
    assert_int_equal(sdp_reglib(codes, 2, NULL, true), 0);
    assert_int_equal(codes[0].total, 9);
    assert_int_equal(codes[1].total, 9);
}

/* On an empty grid every template survives: nothing to set or delete. */
static void test_empty_grid(void **state)
{
    (void)state;
    sdk_grid g;
    sdk_grid_init(&g);
    sdp_steps st = {0};
    sdp_find_all(sdp_tech(TP, "template-set"), NULL, &g, &st);
    assert_int_equal(st.n, 0);
    sdp_find_all(sdp_tech(TP, "template-delete"), NULL, &g, &st);
    assert_int_equal(st.n, 0);
    free(st.s);
}

static void test_soundness(void **state)
{
    (void)state;
    sdp_tech_opt t[] = {
        {TP, "template-set", NULL, 0},
        {TP, "template-delete", NULL, 0},
    };
    long pos = sdp_soundness("top1465.txt", 100, 14, t, 2);
    printf("soundness: %ld positions, %ld + %ld steps checked\n", pos, t[0].steps, t[1].steps);
    assert_true(pos > 300);
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
