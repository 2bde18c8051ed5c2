/* test_wings.c - the wings plugin (XY-Wing, XYZ-Wing, W-Wing, WXYZ-Wing,
 * Remote Pair, XY-Chain).
 *
 * 1. HoDoKu's regression library, the strict way (reglib FORMAT.md §6): every
 *    instance whose digits field equals the line's must make exactly the
 *    line's eliminations. Pass counts per code; an unlisted failure fails.
 * 2. Hand-checked texts and structure (pivot/pincers, chain links).
 * 3. Soundness: on a few hundred unique puzzles, at every position of a walk
 *    to the solution, no technique eliminates a solution digit.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "reglib_harness.h"
#include "walk.h"

#define W "wings"

static const rh_code map[] = {
    {"0800", W, "xy-wing", NULL, rh_digits_text},
    {"0801", W, "xyz-wing", NULL, rh_digits_text},
    {"0803", W, "w-wing", NULL, rh_digits_text},
    {"0702", W, "xy-chain", NULL, rh_digits_text_first},
    {"0703", W, "remote-pair", NULL, rh_digits_text},
};

static void test_reglib(void **state)
{
    (void)state;
    assert_int_equal(rh_run_table(map, (int)(sizeof map / sizeof *map)), 0);
}

/* XY-Wing from HoDoKu's source comment: 1/2/3 in r2c7,r3c18 => r3c7<>3. */
static void test_xy_wing_text(void **state)
{
    (void)state;
    sdk_grid g;
    rh_position(
        "..+8+2..57.+7.+54....+8..9+8+57...4+5+17+2+98+6+3+2765+83+94+1+9+8+3+6+1+4+7+526+9+"
        "23+4+5+1+8+7537+168...+81+4+9+726+3+5",
        "", &g);
    tu_steps st = {0};
    tu_find_all(tu_tech(W, "xy-wing"), NULL, &g, &st);
    bool found = false;
    for (int i = 0; i < st.n; i++) {
        if (strcmp(st.s[i].text, "XY-Wing: 1/2/3 in r3c8,r2c7,r3c1 => r3c7<>3")) continue;
        found = true;
        int pivots = 0, pincers = 0;
        for (int k = 0; k < st.s[i].nmark; k++) {
            if (st.s[i].mark[k].role == SDK_ROLE_PIVOT) pivots++;
            if (st.s[i].mark[k].role == SDK_ROLE_PINCER) pincers++;
        }
        assert_int_equal(pivots, 1);
        assert_int_equal(pincers, 2);
    }
    if (!found)
        for (int i = 0; i < st.n; i++) printf("  got: %s\n", st.s[i].text);
    assert_true(found);
    tu_steps_free(&st);
}

/* The first XY-Chain of reglib: digit 7, links alternate cell (strong) and
 * house (weak), both ends hold 7. */
static void test_xy_chain_links(void **state)
{
    (void)state;
    sdk_grid g;
    rh_position(
        "4+7+2+35+698153+1..+8.+2.+86+91.+2.53+158.2+7+34.+2+9+64+13+8+7+57+4+38.+5....+8..."
        "9....2..+8+1...+91..+3+4.68",
        "", &g);
    tu_steps st = {0};
    tu_find_all(tu_tech(W, "xy-chain"), NULL, &g, &st);
    bool found = false;
    for (int i = 0; i < st.n; i++) {
        const sdk_step *s = &st.s[i];
        if (s->nelim != 1 || s->elim[0].cell != 6 * 9 + 4 || s->elim[0].digit != 6) continue;
        found = true;
        assert_true(strncmp(s->text, "XY-Chain: 6 6- ", 15) == 0);
        assert_true(s->nlink >= 3 && s->nlink % 2 == 1);
        for (int k = 0; k < s->nlink; k++) assert_int_equal(s->link[k].strong, k % 2 == 0);
        assert_int_equal(s->link[0].from.digit, 6);
        assert_int_equal(s->link[s->nlink - 1].to.digit, 6);
    }
    assert_true(found);
    tu_steps_free(&st);
}

static void test_soundness(void **state)
{
    (void)state;
    walk_tech t[] = {WALK_TECH(W, "xy-wing", NULL),     WALK_TECH(W, "xyz-wing", NULL),
                     WALK_TECH(W, "w-wing", NULL),      WALK_TECH(W, "wxyz-wing", NULL),
                     WALK_TECH(W, "remote-pair", NULL), WALK_TECH(W, "xy-chain", NULL)};
    int nt = (int)(sizeof t / sizeof *t);
    walk_result r = {0};
    walk_standard(t, nt, NULL, &r);
    assert_int_equal(r.wrong, 0);
    assert_true(r.steps > 0);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_xy_wing_text),
        cmocka_unit_test(test_xy_chain_links),
        cmocka_unit_test(test_reglib),
        cmocka_unit_test(test_soundness),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
