/* test_als.c - tests of the ALS module (lib/als.c) and the ALS plugin
 * (plugins/als): the enumeration and RCCs against brute force, the HoDoKu
 * regression library entries 0901-0904 (all instances with the entry's
 * digits must eliminate exactly the listed candidates), and soundness on hard
 * puzzles (no step ever eliminates a solution digit). The plugin source is
 * compiled into this test so its techniques are called directly (registered
 * as plugin "als" for the shared harness). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "reglib_harness.h"
#include "walk.h"
#include "sudoku/als.h"

#include "../../plugins/als/als_plugin.c"

static const sdk_technique *tech(const char *id)
{
    return tu_tech("als", id);
}

/* The plugin's techniques come from the source compiled in above. */
static int setup(void **state)
{
    (void)state;
    tu_plugin_register("als", sudoku_techniques());
    return 0;
}

/* ---- enumeration against brute force ------------------------------------ */

static void check_enumeration(const sdk_grid *g)
{
    sdk_als_list l;
    assert_true(sdk_als_collect(g, NULL, &l) >= 0);
    /* every listed set is an ALS inside its house, listed once */
    for (int i = 0; i < l.n; i++) {
        const sdk_als *a = &l.als[i];
        assert_true(sdk_bb_subset(a->cells, sdk_house_bb[a->house]));
        assert_int_equal(sdk_bb_count(a->cells), a->ncell);
        unsigned m = 0;
        SDK_BB_FOREACH(c, a->cells) {
            assert_int_equal(g->value[c], 0);
            m |= g->cand[c];
        }
        assert_int_equal(m, a->digits);
        assert_int_equal(sdk_mask_count(m), a->ncell + 1);
        for (int d = 1; d <= 9; d++) {
            sdk_bb dc = sdk_bb_and(a->cells, g->digit[d - 1]);
            assert_true(sdk_bb_eq(dc, a->dcells[d - 1]));
            /* peers: exactly the outside cells holding d that see all of dc */
            for (int c = 0; c < 81; c++) {
                bool want = (a->digits & sdk_digit_bit(d)) && !sdk_bb_has(a->cells, c) &&
                            sdk_grid_has(g, c, d);
                SDK_BB_FOREACH(x, dc) want = want && sdk_sees(c, x);
                assert_int_equal(want, sdk_bb_has(a->peers[d - 1], c));
            }
        }
        for (int j = i + 1; j < l.n; j++) assert_false(sdk_bb_eq(a->cells, l.als[j].cells));
    }
    /* every subset of every house that is an ALS is listed */
    int found = 0;
    for (int h = 0; h < 27; h++) {
        for (unsigned sub = 1; sub < 512; sub++) {
            sdk_bb cells = sdk_bb_none();
            unsigned m = 0;
            bool ok = true;
            for (int k = 0; k < 9; k++) {
                if (!(sub & (1u << k))) continue;
                int c = sdk_house_cell[h][k];
                if (g->value[c]) ok = false;
                sdk_bb_add(&cells, c);
                m |= g->cand[c];
            }
            int n = __builtin_popcount(sub);
            if (!ok || n > 8 || sdk_mask_count(m) != n + 1) continue;
            bool listed = false;
            for (int i = 0; i < l.n && !listed; i++) listed = sdk_bb_eq(l.als[i].cells, cells);
            assert_true(listed);
            found++;
        }
    }
    assert_true(found >= l.n);
    /* RCCs against the definition */
    for (int i = 0; i < l.n; i += 7) {
        for (int j = 0; j < l.n; j += 3) {
            const sdk_als *a = &l.als[i], *b = &l.als[j];
            if (i == j) continue;
            for (int ov = 0; ov < 2; ov++) {
                unsigned want = 0;
                bool shared = sdk_als_overlap(a, b);
                if (!shared || ov) {
                    SDK_MASK_FOREACH(d, a->digits & b->digits) {
                        bool ok = true;
                        SDK_BB_FOREACH(x, a->dcells[d - 1]) {
                            SDK_BB_FOREACH(y, b->dcells[d - 1]) ok = ok && sdk_sees(x, y);
                        }
                        if (ok) want |= sdk_digit_bit(d);
                    }
                }
                assert_int_equal(want, sdk_als_rcc(a, b, ov));
                assert_int_equal(want, sdk_als_rcc(b, a, ov));
            }
        }
    }
    sdk_als_list_free(&l);
}

static void test_enumeration(void **state)
{
    (void)state;
    uint8_t(*p)[81];
    int n = tu_read_puzzles("top1465.txt", 12, 97, &p);
    assert_true(n > 5);
    for (int i = 0; i < n; i++) {
        sdk_grid g;
        sdk_grid_from_values(&g, p[i]);
        check_enumeration(&g);
    }
    free(p);
}

static void test_graph_and_text(void **state)
{
    (void)state;
    uint8_t(*p)[81];
    int n = tu_read_puzzles("top1465.txt", 1, 1, &p);
    assert_int_equal(n, 1);
    sdk_grid g;
    sdk_grid_from_values(&g, p[0]);
    sdk_als_list l;
    assert_true(sdk_als_collect(&g, &(sdk_als_opts){.min_cells = 2, .max_cells = 3}, &l) > 0);
    for (int i = 0; i < l.n; i++) assert_true(l.als[i].ncell >= 2 && l.als[i].ncell <= 3);
    sdk_rcc_graph gr;
    assert_true(sdk_rcc_graph_build(&l, false, &gr) > 0);
    for (int a = 0; a < l.n; a++) {
        for (int e = gr.first[a]; e < gr.first[a + 1]; e++) {
            assert_int_equal(gr.edge[e].a, a);
            assert_int_equal(gr.edge[e].digits,
                             sdk_als_rcc(&l.als[a], &l.als[gr.edge[e].b], false));
        }
    }
    sdk_rcc_graph_free(&gr);
    sdk_als_list_free(&l);
    /* the text of a hand-made set */
    sdk_als a;
    memset(&a, 0, sizeof a);
    sdk_bb_add(&a.cells, 40);
    sdk_bb_add(&a.cells, 41);
    a.digits = sdk_digit_bit(2) | sdk_digit_bit(3) | sdk_digit_bit(4);
    char buf[64];
    assert_string_equal(sdk_als_text(&a, buf, sizeof buf), "r5c56 {234}");
    free(p);
}

/* ---- the regression library ---------------------------------------------- */

static void test_reglib(void **state)
{
    (void)state;
    rh_code map[32];
    int nmap = rh_map_tsv("09", "als", rh_digits_elim, map, 32);
    assert_true(nmap >= 4);
    static const char *const codes[] = {"0901", "0902", "0903", "0904", NULL};
    rh_spec spec = {.map = map, .nmap = nmap, .require = codes};
    rh_result res;
    rh_run(&spec, &res);
    int all = 0, allp = 0;
    for (int k = 0; k < 4; k++) {
        rh_row r = rh_sum(&res, codes[k]);
        print_message("reglib %s: %d/%d pass\n", codes[k], r.pass, r.total);
        all += r.total;
        allp += r.pass;
    }
    assert_true(all >= 60);
    assert_int_equal(allp, all);
}

/* ---- step structure and text --------------------------------------------- */

/* The first step of technique id on a reglib position whose eliminations are
 * exactly elim (a reglib candidate list); fails when there is none. */
static sdk_step *step_for(const char *id, const char *grid, const char *removed, const char *elim,
                          tu_steps *got)
{
    sdk_grid g;
    rh_position(grid, removed, &g);
    rh_cands want, have;
    assert_true(rh_cands_parse(elim, &want));
    tu_find_all(tech(id), NULL, &g, got);
    for (int i = 0; i < got->n; i++) {
        sdk_step *s = &got->s[i];
        rh_step_elims(s, &have);
        if (rh_cands_eq(&have, &want)) return s;
    }
    fail_msg("%s: no step eliminating %s", id, elim);
    return NULL;
}

static int role_of(const sdk_step *s, int cell, int digit)
{
    for (int i = 0; i < s->nmark; i++)
        if (s->mark[i].cell == cell && s->mark[i].digit == digit) return s->mark[i].role;
    return -1;
}

static void test_structure(void **state)
{
    (void)state;
    tu_steps got = {0};
    /* singly linked ALS-XZ (reglib 0901-1, first entry) */
    sdk_step *s = step_for(
        "als-xz",
        ".24.6.+7..5.74.9.1.....+7......+5.9+4+87+14+7.+6.85.3..8..7.6.+7......46.+"
        "46..3.+57.5.7+4+61..",
        "314 819 225 134 237 937 238 938 239 839 269 372 972 973 274 291 891 999", "327", &got);
    assert_non_null(strstr(s->text, "ALS-XZ: A="));
    assert_non_null(strstr(s->text, "{1358}"));
    assert_non_null(strstr(s->text, "{3589}"));
    assert_non_null(strstr(s->text, ", X=5, Z=3 => r2c7<>3"));
    assert_int_equal(s->difficulty, 70);
    /* A = r1c4,r1c6,r2c5 {1358}: 5 is the RC (pivot), 3 the Z digit (fin) */
    int pivots = 0, fins = 0, members = 0;
    for (int i = 0; i < s->nmark; i++) {
        pivots += s->mark[i].role == SDK_ROLE_PIVOT;
        fins += s->mark[i].role == SDK_ROLE_FIN;
        members += s->mark[i].role == SDK_ROLE_ALS;
        if (s->mark[i].role == SDK_ROLE_PIVOT) assert_int_equal(s->mark[i].digit, 5);
        if (s->mark[i].role == SDK_ROLE_FIN) assert_int_equal(s->mark[i].digit, 3);
    }
    assert_true(pivots >= 2 && fins >= 2 && members >= 2);
    assert_int_equal(s->nlink, 1);
    assert_int_equal(s->link[0].kind, SDK_LINK_ALS);
    assert_int_equal(s->link[0].from.digit, 5);
    assert_int_equal(s->link[0].strong, 0);
    /* ALS-XY-Wing (0902-1) */
    s = step_for(
        "als-xy-wing",
        "+8...43..+1.+3+1.5+7..8.721......9+3+5+1......5....1.18.3..........1.67..7..91..3+1+8+"
        "76592+4",
        "441 247 451 254 454 854 255 257 265 267 471 274 875 481 284 885", "768", &got);
    assert_non_null(strstr(s->text, "ALS-XY-Wing: A="));
    assert_non_null(strstr(s->text, ", C="));
    assert_non_null(strstr(s->text, ", Z=7 => r6c8<>7"));
    assert_int_equal(s->nlink, 2);
    /* Death Blossom (0904-1): stem r8c6 {145}, one petal per stem digit */
    s = step_for(
        "death-blossom",
        "8+7+14..6..5+42...7..+93+6+8+57+42+1.28.7.+3.....3.6+2....+3+21.54..1.7..+93.+3.9..."
        "8+72.+87..3+1.4",
        "915 919 924 929 641 946 948 958 959 669 475 675 476 584 694", "966", &got);
    assert_non_null(strstr(s->text, "Death Blossom: r8c6, -1- "));
    assert_non_null(strstr(s->text, "-4- "));
    assert_non_null(strstr(s->text, "-5- "));
    assert_int_equal(s->nlink, 3);
    assert_int_equal(role_of(s, sdk_cell_at(7, 5), 0), SDK_ROLE_PIVOT);
    assert_int_equal(s->difficulty, 76);
    /* ALS chain (0903-1): text "7- A -x- B ... -7", 4 or more sets */
    s = step_for("als-chain",
                 "...3.721....2.......9.6.38.8.6..1.....5+8.+6.2..9.....68.4357+8.+9.7+5....8..+9.."
                 "...5..",
                 "421 622 727 545 748 749 949 759", "763", &got);
    assert_non_null(strstr(s->text, "ALS-Chain: 7- "));
    assert_true(strlen(s->text) > 20);
    assert_non_null(strstr(s->text, " -7 => r6c3<>7"));
    assert_true(s->nlink >= 3);
    assert_true(s->difficulty >= 74);
    tu_steps_free(&got);
}

/* ---- soundness ----------------------------------------------------------- */

static void test_soundness(void **state)
{
    (void)state;
    const char *env = getenv("SUDOKU_ALS_PUZZLES");
    int max = env ? atoi(env) : 40;
    static const char *ids[] = {"als-xz", "als-xy-wing", "als-chain", "death-blossom"};
    /* the chain search is bounded lower than its default here: the point is
     * to check many steps, not to find every last chain */
#define OV0 "overlap=0 max-nodes=5000000"
#define OV1 "overlap=1 max-nodes=5000000"
    walk_tech t[] = {WALK_TECH("als", "als-xz", OV0),       WALK_TECH("als", "als-xy-wing", OV0),
                     WALK_TECH("als", "als-xy-wing", OV1),  WALK_TECH("als", "als-chain", OV0),
                     WALK_TECH("als", "als-chain", OV1),    WALK_TECH("als", "death-blossom", OV0),
                     WALK_TECH("als", "death-blossom", OV1)};
    /* singles, then the first step found applied at once; when none is found,
     * one false candidate removed at random */
    walk_spec w = {.file = "top1465.txt",
                   .npuz = max,
                   .stride = 1465 / max > 0 ? 1465 / max : 1,
                   .max_iter = 200,
                   .reduce = WALK_REDUCE_SINGLES,
                   .at_once = true,
                   .stuck = WALK_STUCK_ELIM_RANDOM,
                   .tech = t,
                   .ntech = (int)(sizeof t / sizeof *t)};
    walk_result r = {0};
    walk_run(&w, &r);
    assert_int_equal(r.unique, r.puzzles);
    assert_int_equal(r.wrong, 0);
    print_message("soundness: %ld puzzles, %ld states\n", r.puzzles, r.positions);
    long steps[4] = {0}, elims[4] = {0};
    for (int k = 0; k < 4; k++) {
        for (int i = 0; i < w.ntech; i++)
            if (!strcmp(t[i].id, ids[k])) {
                steps[k] += t[i].steps;
                elims[k] += t[i].elims;
            }
        print_message("  %-14s %ld steps, %ld eliminations, none wrong\n", ids[k], steps[k],
                      elims[k]);
    }
    assert_true(steps[0] > 0);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_enumeration), cmocka_unit_test(test_graph_and_text),
        cmocka_unit_test(test_reglib),      cmocka_unit_test(test_structure),
        cmocka_unit_test(test_soundness),
    };
    return cmocka_run_group_tests(tests, setup, NULL);
}
