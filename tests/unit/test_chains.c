/* test_chains.c - the chains plugin (nice loops, AICs, grouped, ALS nodes)
 * against HoDoKu's regression library, strictly as FORMAT.md section 6 says:
 * ALL instances are enumerated; every instance whose digits field (the set of
 * eliminated digits) equals the test's must make exactly the test's
 * eliminations, and there must be at least one. The "extra" field is ignored.
 * Also checks soundness on a few positions and the chain text, and that the
 * plugin's reuse of earlier searches (the last result, the recent misses)
 * answers as a search from scratch (reuse=0). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "reglib_harness.h"
#include "sudoku/solver.h"
#include "walk.h"

#define CH "chains"

static const rh_code cmap[] = {
    {"0706", CH, "continuous-nice-loop", NULL, rh_digits_effect},
    {"0707", CH, "discontinuous-nice-loop", NULL, rh_digits_effect},
    {"0708", CH, "aic", NULL, rh_digits_effect},
    {"0709-1", CH, "grouped-continuous-nice-loop", "als=0", rh_digits_effect},
    {"0709-2", CH, "grouped-continuous-nice-loop", "als=1", rh_digits_effect},
    {"0710-1", CH, "grouped-discontinuous-nice-loop", "als=0", rh_digits_effect},
    {"0710-2", CH, "grouped-discontinuous-nice-loop", "als=0", rh_digits_effect},
    {"0710-3", CH, "grouped-discontinuous-nice-loop", "als=1", rh_digits_effect},
    {"0710-4", CH, "grouped-discontinuous-nice-loop", "als=1", rh_digits_effect},
    {"0711-1", CH, "grouped-aic", "als=0", rh_digits_effect},
    {"0711-2", CH, "grouped-aic", "als=0", rh_digits_effect},
    {"0711-3", CH, "grouped-aic", "als=1", rh_digits_effect},
    {"0711-4", CH, "grouped-aic", "als=1", rh_digits_effect},
};

static void test_reglib_chains(void **state)
{
    (void)state;
    static const char *const codes[] = {"0706", "0707", "0708", "0709", "0710", "0711", NULL};
    rh_spec spec = {.map = cmap,
                    .nmap = (int)(sizeof cmap / sizeof *cmap),
                    .require = codes,
                    .quiet = !getenv("CHAINS_VERBOSE")};
    rh_result res;
    int fails = rh_run(&spec, &res);
    for (int i = 0; codes[i]; i++) {
        rh_row r = rh_sum(&res, codes[i]);
        fprintf(stderr, "reglib %s: %d/%d strict pass, %d/%d step found\n", codes[i], r.pass,
                r.total, r.found, r.total);
    }
    int total = res.lines;
    rh_row all = rh_sum(&res, "07");
    fprintf(stderr, "reglib chains total: %d/%d pass, %d known failures (known_failures.tsv)\n",
            all.pass, total, all.known);
    assert_true(total > 150);
    /* strict: every failing line is listed in tests/reglib/known_failures.tsv */
    assert_int_equal(fails, 0);
}

/* Soundness on hard puzzles: every technique at the starting position never
 * removes a solution digit (nor places a wrong one). */
static void test_chains_sound(void **state)
{
    (void)state;
    walk_tech t[] = {
        WALK_TECH(CH, "continuous-nice-loop", NULL),
        WALK_TECH(CH, "discontinuous-nice-loop", NULL),
        WALK_TECH(CH, "aic", NULL),
        WALK_TECH(CH, "grouped-continuous-nice-loop", "als=1"),
        WALK_TECH(CH, "grouped-discontinuous-nice-loop", "als=1"),
        WALK_TECH(CH, "grouped-aic", "als=1"),
    };
    walk_spec w = {
        .file = "top1465.txt", .npuz = 20, .stride = 70, .max_iter = 1, .tech = t, .ntech = 6};
    walk_result r = {0};
    walk_run(&w, &r);
    assert_true(r.puzzles > 5);
    assert_int_equal(r.unique, r.puzzles);
    fprintf(stderr, "chains soundness: %ld steps on %ld puzzles, %ld wrong\n", r.steps, r.puzzles,
            r.wrong);
    assert_int_equal(r.wrong, 0);
    assert_true(r.steps > 0);
}

/* The same steps, in the same order, text and eliminations included. */
static void same_steps(const tu_steps *a, const tu_steps *b, const char *id)
{
    if (a->n != b->n) fail_msg("%s: %d steps with reuse, %d from scratch", id, a->n, b->n);
    for (int i = 0; i < a->n; i++) {
        const sdk_step *x = &a->s[i], *y = &b->s[i];
        if (strcmp(x->text, y->text) || x->difficulty != y->difficulty || x->nelim != y->nelim ||
            memcmp(x->elim, y->elim, sizeof *x->elim * x->nelim))
            fail_msg("%s: step %d differs: \"%s\" / \"%s\"", id, i, x->text, y->text);
    }
}

/* Positions of hard puzzles, each searched with the plugin's reuse and from
 * scratch; positions searched before are asked again (the misses kept), in
 * the order a nested forcing chain would: back to earlier ones after later
 * ones. */
static void test_chains_reuse(void **state)
{
    (void)state;
    static const char *const ids[] = {"aic", "continuous-nice-loop", "discontinuous-nice-loop",
                                      "grouped-aic", "grouped-continuous-nice-loop"};
    enum { NIDS = 5, MAXPOS = 16 };
    uint8_t(*puz)[81] = NULL;
    int n = tu_read_puzzles("forum_hardest_1106.txt", 6, 60, &puz);
    if (n <= 0) skip();
    tu_steps a = {0}, b = {0};
    uint32_t seed = 777;
    int positions = 0, again = 0, again_miss = 0, found = 0;
    for (int p = 0; p < n; p++) {
        sdk_grid g, pos[MAXPOS];
        uint8_t sol[81];
        assert_true(walk_hard_start(&g, puz[p], sol));
        int np = 0;
        for (int round = 0; round < MAXPOS && sdk_grid_empty_count(&g) > 0; round++) {
            pos[np++] = g;
            for (int k = 0; k < NIDS; k++) {
                const sdk_technique *t = tu_tech(CH, ids[k]);
                tu_find_all(t, NULL, &g, &a);
                tu_find_all(t, "reuse=0", &g, &b);
                same_steps(&a, &b, ids[k]);
                found += b.n > 0;
            }
            positions++;
            /* an earlier position again, after this one */
            const sdk_grid *old = &pos[(round * 7) % np];
            for (int k = 0; k < NIDS; k++) {
                const sdk_technique *t = tu_tech(CH, ids[k]);
                tu_find_all(t, NULL, old, &a);
                tu_find_all(t, "reuse=0", old, &b);
                same_steps(&a, &b, ids[k]);
                again_miss += b.n == 0;
            }
            again++;
            walk_drop_wrong(&g, sol, 2, &seed);
            if (!walk_basic(&g)) break;
        }
    }
    free(puz);
    tu_steps_free(&a);
    tu_steps_free(&b);
    print_message("chains reuse: %d positions (%d searches with steps), %d asked again (%d "
                  "searches without steps)\n",
                  positions, found, again, again_miss);
    assert_true(positions > 20);
    assert_true(found > 0);
    assert_true(again_miss > 0);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_chains_reuse),
        cmocka_unit_test(test_chains_sound),
        cmocka_unit_test(test_reglib_chains),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
