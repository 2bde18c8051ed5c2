/* test_sudokilo.c - the sudokilo plugin (seed 000): every step makes the
 * deduction the seed shows on its example position (rebuilt from the seed's
 * diagrams as candidate grids: the digits shown are placed, the "forced" and
 * "placeable only at" statements become candidate eliminations), and no
 * step ever contradicts the brute-force solution. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "reglib_harness.h"
#include "walk.h"

#define SK "sudokilo"

/* Place "r c d" triples: "115 129" puts 5 in r1c1 and 9 in r1c2. */
static void put(sdk_grid *g, const char *list)
{
    for (const char *p = list; p[0] && p[1] && p[2];) {
        if (p[0] == ' ') {
            p++;
            continue;
        }
        sdk_grid_place(g, (p[0] - '1') * 9 + p[1] - '1', p[2] - '0', true);
        p += 3;
    }
}

/* Remove digit d from cells "rc rc ...". */
static void drop(sdk_grid *g, int d, const char *cells)
{
    for (const char *p = cells; p[0] && p[1];) {
        if (p[0] == ' ') {
            p++;
            continue;
        }
        sdk_grid_eliminate(g, (p[0] - '1') * 9 + p[1] - '1', d);
        p += 2;
    }
}

/* Keep digit d in a house only at the cells "rc rc ..." given. */
static void only(sdk_grid *g, int d, int house, const char *cells)
{
    sdk_bb keep = sdk_bb_none();
    for (const char *p = cells; p[0] && p[1];) {
        if (p[0] == ' ') {
            p++;
            continue;
        }
        sdk_bb_add(&keep, (p[0] - '1') * 9 + p[1] - '1');
        p += 2;
    }
    sdk_bb gone = sdk_bb_andnot(sdk_house_digit(g, house, d), keep);
    SDK_BB_FOREACH(c, gone) sdk_grid_eliminate(g, c, d);
}

static bool has_elim(const sdk_step *s, int r, int c, int d)
{
    for (int i = 0; i < s->nelim; i++)
        if (s->elim[i].cell == (r - 1) * 9 + c - 1 && s->elim[i].digit == d) return true;
    return false;
}

/* The step of technique id whose eliminations are exactly `elims` (and that
 * places nothing), or fail. */
static void expect_step(const char *id, const sdk_grid *g, const char *elims)
{
    tu_steps st = {0};
    tu_find_all(tu_tech(SK, id), NULL, g, &st);
    rh_cands want, got;
    assert_true(rh_cands_parse(elims, &want));
    for (int i = 0; i < st.n; i++) {
        rh_step_elims(&st.s[i], &got);
        if (rh_cands_eq(&got, &want) && !st.s[i].nplace) {
            printf("  %s\n", st.s[i].text);
            tu_steps_free(&st);
            return;
        }
    }
    for (int i = 0; i < st.n; i++) printf("  got: %s\n", st.s[i].text);
    tu_steps_free(&st);
    fail_msg("%s: no step eliminating exactly %s", id, elims);
}

/* Rule 1: 4 in b1 (r1) and b3 (r2); row 3 of b2 has one empty cell: r3c5. */
static void test_rule1(void **state)
{
    (void)state;
    sdk_grid g;
    sdk_grid_init(&g);
    put(&g, "114 274 341 362");
    tu_steps st = {0};
    tu_find_all(tu_tech(SK, "band-hatching"), NULL, &g, &st);
    bool found = false;
    for (int i = 0; i < st.n; i++)
        found |= st.s[i].nplace == 1 && st.s[i].place[0].cell == 2 * 9 + 4 &&
                 st.s[i].place[0].digit == 4;
    assert_true(found);
    /* with r3c4 empty there are two free cells: no placement of 4 in b2 */
    sdk_grid_init(&g);
    put(&g, "114 274 362");
    tu_find_all(tu_tech(SK, "band-hatching"), NULL, &g, &st);
    for (int i = 0; i < st.n; i++) assert_false(st.s[i].place[0].digit == 4);
    tu_steps_free(&st);
}

/* Step 2: 2,3,4 forced on r1c789, 7 forced on r2c123: 7 goes to r3c789 (and
 * to r1c45 in b2). */
static void test_step2(void **state)
{
    (void)state;
    sdk_grid g;
    sdk_grid_init(&g);
    put(&g, "165");
    for (int d = 2; d <= 4; d++) drop(&g, d, "27 28 29 37 38 39");
    drop(&g, 7, "11 12 13 31 32 33");
    expect_step("segment-lock-filled", &g, "717 718 719 724 725 726 727 728 729 734 735 736");
}

/* Step 6: 9 only in r1c2/r2c1 (b1) and r1c8/r2c8 (b3): 9 is on r3 in b2. */
static void test_step6(void **state)
{
    (void)state;
    sdk_grid g;
    sdk_grid_init(&g);
    put(&g, "113 175 198 311 337 354 373 396");
    only(&g, 9, 18, "12 21");
    only(&g, 9, 20, "18 28");
    expect_step("segment-lock-band", &g, "914 915 916 924 925 926");
}

/* Step 7: 1,2,3 forced on r2c123 and 4,5,6 on r2c789: 7,8,9 on r2c456. */
static void test_step7(void **state)
{
    (void)state;
    sdk_grid g;
    sdk_grid_init(&g);
    put(&g, "115 129 198 316 337 354 373 392");
    for (int d = 1; d <= 3; d++) drop(&g, d, "13 32");
    for (int d = 4; d <= 6; d++) drop(&g, d, "17 18 38");
    tu_steps st = {0};
    tu_find_all(tu_tech(SK, "segment-lock-line"), NULL, &g, &st);
    bool found = false;
    for (int i = 0; i < st.n; i++) {
        const sdk_step *s = &st.s[i];
        if (!strstr(s->text, "789 in r2c456")) continue;
        found = true;
        printf("  %s\n", s->text);
        assert_true(has_elim(s, 1, 4, 7) && has_elim(s, 3, 6, 8) && has_elim(s, 3, 4, 9) &&
                    has_elim(s, 2, 1, 8));
        assert_true(has_elim(s, 2, 4, 1) && has_elim(s, 2, 6, 6));
        assert_false(has_elim(s, 2, 4, 7) || has_elim(s, 2, 5, 8) || has_elim(s, 2, 6, 9));
    }
    assert_true(found);
    tu_steps_free(&st);
}

/* Step 8: b3 holds 5,3 / 6,1 on its first lines, r3 holds 4 and 2: r3c789
 * takes 7,8,9. */
static void test_step8(void **state)
{
    (void)state;
    sdk_grid g;
    sdk_grid_init(&g);
    put(&g, "185 193 276 291 314 332");
    tu_steps st = {0};
    tu_find_all(tu_tech(SK, "segment-lock-exclusion"), NULL, &g, &st);
    bool found = false;
    for (int i = 0; i < st.n; i++) {
        const sdk_step *s = &st.s[i];
        if (!has_elim(s, 1, 7, 7)) continue;
        found = true;
        printf("  %s\n", s->text);
        assert_true(has_elim(s, 1, 7, 8) && has_elim(s, 2, 8, 9) && has_elim(s, 3, 2, 7) &&
                    has_elim(s, 3, 5, 8) && has_elim(s, 3, 6, 9));
        assert_false(has_elim(s, 3, 7, 7) || has_elim(s, 3, 8, 8) || has_elim(s, 3, 9, 9));
    }
    assert_true(found);
    tu_steps_free(&st);
}

/* Step 9: 7 forced on r2c123, 7 placed in r1c5: 7 is on r3 in b3. */
static void test_step9(void **state)
{
    (void)state;
    sdk_grid g;
    sdk_grid_init(&g);
    put(&g, "115 129 157 198 284 316 354 373");
    drop(&g, 7, "13 32 33");
    /* r1c7 and r1c8 already lost 7 to r1c5 */
    expect_step("segment-lock-hatching", &g, "727 729");
}

/* Step 21: 7 in c2 only at r2/r6, in c8 only at r2, r4, r5: 7 leaves r6 in b6. */
static void test_step21(void **state)
{
    (void)state;
    sdk_grid g;
    sdk_grid_init(&g);
    put(&g, "115 129 198 211 316 354 373 493 612 655");
    only(&g, 7, 9 + 1, "22 62");
    only(&g, 7, 9 + 7, "28 48 58");
    expect_step("bracket-vertical", &g, "767 769");
}

/* Step 22: 7 in r2 only at c2/c7, in r6 only at c2, c8, c9: 7 leaves c7 in b6. */
static void test_step22(void **state)
{
    (void)state;
    sdk_grid g;
    sdk_grid_init(&g);
    put(&g, "115 129 198 211 316 354 373 493 612 655");
    only(&g, 7, 1, "22 27");
    only(&g, 7, 5, "62 68 69");
    expect_step("bracket-horizontal", &g, "747 757");
}

static void test_soundness(void **state)
{
    (void)state;
    walk_tech t[] = {
        WALK_TECH(SK, "band-hatching", NULL),          WALK_TECH(SK, "segment-lock-filled", NULL),
        WALK_TECH(SK, "segment-lock-band", NULL),      WALK_TECH(SK, "segment-lock-line", NULL),
        WALK_TECH(SK, "segment-lock-exclusion", NULL), WALK_TECH(SK, "segment-lock-hatching", NULL),
        WALK_TECH(SK, "bracket-vertical", NULL),       WALK_TECH(SK, "bracket-horizontal", NULL),
    };
    int nt = (int)(sizeof t / sizeof *t);
    walk_result r = {0}, r2 = {0};
    walk_singles_first(t, nt, "top1465.txt", 300, 4, &r);
    walk_singles_first(t, nt, "kaggle_10k.txt", 200, 50, &r2);
    printf("soundness: %ld + %ld positions\n", r.positions, r2.positions);
    for (int i = 0; i < nt; i++) printf("  %-24s %7ld steps checked\n", t[i].id, t[i].steps);
    assert_int_equal(r.wrong + r2.wrong, 0);
    assert_true(r.positions > 1000);
    for (int i = 0; i < nt; i++) assert_true(t[i].steps > 0);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_rule1),     cmocka_unit_test(test_step2),
        cmocka_unit_test(test_step6),     cmocka_unit_test(test_step7),
        cmocka_unit_test(test_step8),     cmocka_unit_test(test_step9),
        cmocka_unit_test(test_step21),    cmocka_unit_test(test_step22),
        cmocka_unit_test(test_soundness),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
