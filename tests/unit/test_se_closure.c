/* test_se_closure.c - sdk_se_closure (lib/links_se.c) against the run it
 * stands for (sdk_se_chain with potentials), as plugins/se/se_chain.c uses
 * it for the dynamic runs of level 0; and sdk_se_closure_keeps (a closure
 * taken over by a grid a few candidates apart) against sdk_se_closure.
 *
 * The claim (links_se.h): a dynamic run from one literal, without `more`,
 * that meets no clash reaches exactly the least set of literals closed under
 * the propagation rules, whatever the order; and the closure returns false
 * exactly when the ordered run meets a clash. So on every position, from
 * every candidate as true and as false, with cell links (y) and without,
 * the two must agree: both clash, or neither does and their literals are
 * the same.
 *
 * Positions: hard puzzles (forum_hardest_1106) after singles and locked
 * candidates, then with wrong candidates removed a few at a time, so runs
 * from true and from false candidates, with and without clashes, are all
 * met. The run is set up as se_chain.c's run_from does for a dynamic search
 * (SDK_SE_DYNAMIC, SDK_SE_NISHIO when not y, the grid's house counts given,
 * no static links, no `more`). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "sudoku/links_se.h"
#include "sudoku/solver.h"
#include "testutil.h"
#include "walk.h"

typedef struct counts {
    long runs, clashes, equal, positions;
    long kept, kept_checked; /* sdk_se_closure_keeps: said yes, and asked */
} counts;

/* The ordered run from lit on g: true on a clash; its literals into *lits. */
static bool ordered_run(sdk_se_run *r, const sdk_grid *g, const uint8_t hc[27][9], int lit, bool y,
                        sdk_se_lits *lits)
{
    r->a->n = r->a->npar = 0;
    sdk_se_set_clear(r->s);
    int p = sdk_se_new(r->a, lit >> 1, lit & 1, SDK_SE_ASSUMED, NULL, 0);
    sdk_se_set_add(r->s, r->a, p);
    r->flags = SDK_SE_DYNAMIC | (y ? 0 : SDK_SE_NISHIO);
    r->t = NULL;
    r->more = NULL;
    r->more_ctx = NULL;
    r->hcount0 = hc;
    bool bad = sdk_se_chain(r, g);
    if (!bad) sdk_se_lits_of_set(r->s, lits);
    return bad;
}

/* "r1c2=3" of a literal's candidate, into buf. */
static const char *cand_name(int lit, char buf[16])
{
    int cand = lit >> 1;
    snprintf(buf, 16, "r%dc%d=%d", cand / 81 + 1, cand / 9 % 9 + 1, cand % 9 + 1);
    return buf;
}

static void first_difference(const sdk_se_lits *run, const sdk_se_lits *clo, int lit, bool y)
{
    char from[16], at[16];
    for (int l = 0; l < 2 * 729; l++)
        if (sdk_se_lits_has(run, l) != sdk_se_lits_has(clo, l))
            fail_msg("from %s %s (y %d): %s %s only in %s", cand_name(lit, from),
                     lit & 1 ? "on" : "off", y, cand_name(l, at), l & 1 ? "on" : "off",
                     sdk_se_lits_has(run, l) ? "the run" : "the closure");
    fail_msg("from %s: boards differ with the same literals", cand_name(lit, from));
}

/* Every candidate of g, true and false, with y and without. */
static void check_position(sdk_se_run *r, const sdk_grid *g, counts *c)
{
    uint8_t hc[27][9], cc[81];
    sdk_se_house_counts(g, hc);
    sdk_se_closure_cells(g, cc);
    c->positions++;
    for (int cell = 0; cell < 81; cell++) {
        if (sdk_mask_count(g->cand[cell]) < 2) continue;
        SDK_MASK_FOREACH(d, g->cand[cell]) {
            for (int k = 0; k < 4; k++) {
                int lit = (cell * 9 + d - 1) * 2 + (k & 1);
                bool y = k < 2;
                sdk_se_lits run, clo;
                bool clash = ordered_run(r, g, hc, lit, y, &run);
                bool closed = sdk_se_closure(g, hc, cc, lit, y, &clo);
                c->runs++;
                if (clash == closed)
                    fail_msg("r%dc%d=%d %s (y %d): the run %s, the closure %s", cell / 9 + 1,
                             cell % 9 + 1, d, k & 1 ? "on" : "off", y,
                             clash ? "clashes" : "does not clash", closed ? "does not" : "does");
                if (clash) {
                    c->clashes++;
                    continue;
                }
                if (memcmp(&run, &clo, sizeof run) != 0) first_difference(&run, &clo, lit, y);
                c->equal++;
            }
        }
    }
}

/* sdk_se_closure_keeps: every closure of a that it says is also b's (a and
 * b differ in a few candidates) must be what sdk_se_closure finds on b. */
static void check_kept(const sdk_grid *a, const sdk_grid *b, counts *c)
{
    int16_t diff[64];
    int n = 0;
    for (int cell = 0; cell < 81; cell++)
        for (unsigned m = a->cand[cell] ^ b->cand[cell]; m; m &= m - 1)
            if (n < 64) diff[n++] = (int16_t)(cell * 9 + __builtin_ctz(m));
    if (n == 0 || n == 64) return;
    uint8_t ha[27][9], hb[27][9], ca[81], cb[81];
    sdk_se_house_counts(a, ha);
    sdk_se_house_counts(b, hb);
    sdk_se_closure_cells(a, ca);
    sdk_se_closure_cells(b, cb);
    for (int cand = 0; cand < 729; cand++) {
        if (!(a->cand[cand / 9] & (1u << cand % 9))) continue;
        for (int y = 0; y < 2; y++)
            for (int on = 0; on < 2; on++) {
                int lit = cand * 2 + on;
                sdk_se_lits la, lb;
                if (!sdk_se_closure(a, ha, ca, lit, y, &la)) continue;
                c->kept_checked++;
                if (!sdk_se_closure_keeps(&la, diff, n, y)) continue;
                c->kept++;
                char nm[16];
                if (!sdk_se_closure(b, hb, cb, lit, y, &lb))
                    fail_msg("%s %s (y %d): kept, but it clashes on the other grid",
                             cand_name(lit, nm), on ? "on" : "off", y);
                if (memcmp(&la, &lb, sizeof la) != 0) first_difference(&lb, &la, lit, y);
            }
    }
}

typedef struct visit_ctx {
    sdk_se_run *r;
    counts *c;
} visit_ctx;

/* A position of the walk, and closures kept from it to the next and back. */
static void visit(const sdk_grid *before, const sdk_grid *after, void *ctx)
{
    visit_ctx *v = ctx;
    check_position(v->r, before, v->c);
    check_kept(before, after, v->c);
    check_kept(after, before, v->c);
}

static void test_closure_is_run(void **state)
{
    (void)state;
    uint8_t(*puz)[81] = NULL;
    int n = tu_read_puzzles("forum_hardest_1106.txt", 220, 5, &puz);
    if (n <= 0) skip();
    sdk_se_arena A;
    memset(&A, 0, sizeof A);
    sdk_se_set *s = malloc(sizeof *s);
    sdk_se_run *r = calloc(1, sizeof *r);
    assert_non_null(s);
    assert_non_null(r);
    sdk_se_set_init(s);
    r->a = &A;
    r->s = s;
    counts c = {0};
    uint32_t seed = 1106;
    visit_ctx v = {r, &c};
    const walk_hard_pace pace = {.rounds = 8, .tries_min = 3, .tries_max = 3};
    assert_true(walk_hard_rounds((const uint8_t(*)[81])puz, n, &pace, &seed, visit, &v));
    sdk_se_arena_free(&A);
    free(r);
    free(s);
    free(puz);
    print_message("positions %ld, runs %ld: %ld clashes, %ld equal literal sets; "
                  "closures kept for a grid with a few candidates more or less: %ld of %ld\n",
                  c.positions, c.runs, c.clashes, c.equal, c.kept, c.kept_checked);
    assert_true(c.positions >= 400);
    assert_true(c.clashes > 1000);
    assert_true(c.equal > 1000);
    assert_true(c.kept > 1000 && c.kept < c.kept_checked);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_closure_is_run),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
