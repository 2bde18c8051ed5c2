/* test_ate.c - aligned-triple-exclusion (Sudoku Explainer's Aligned Triplet
 * Exclusion) in the misc plugin.
 *
 * 1. A built position: text, eliminations, marks, difficulty 7.5.
 * 2. A reference: a plain, slow rewrite of SE's rules (base cells, triples
 *    SE reaches, two common excluders, excluded combinations) must give the
 *    same triples with the same eliminations as the plugin, at positions of
 *    real solves.
 * 3. Soundness: walks of a few hundred unique puzzles (simple techniques
 *    first, else the solution digit of the emptiest cell), every step at every
 *    position checked against the solution; and the technique must find
 *    things that Aligned Pair Exclusion does not.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "sudoku/solver.h"
#include "testutil.h"

/* The plugins these tests take techniques from (tu_plugin loads and keeps them). */
static const char *const plugin_names[] = {"misc", "singles", "intersections", "subsets"};

static const sdk_technique *tech(const char *id)
{
    for (size_t p = 0; p < sizeof plugin_names / sizeof *plugin_names; p++)
        for (const sdk_technique *const *t = tu_plugin(plugin_names[p]); t && *t; t++)
            if (!strcmp((*t)->id, id)) return *t;
    fail_msg("technique %s not found", id);
    return NULL;
}

/* Every step of t on g (the search stops after 5000). */
static void run(const sdk_technique *t, const sdk_grid *g, tu_steps *out)
{
    out->limit = 5000;
    tu_find_all(t, NULL, g, out);
}

/* ---- the reference: SE's rules written out plainly ------------------------------ */

static bool peers(int a, int b)
{
    return a != b && (a / 9 == b / 9 || a % 9 == b % 9 || sdk_box(a) == sdk_box(b));
}

static int ncand(const sdk_grid *g, int c)
{
    return g->value[c] ? 0 : sdk_mask_count(g->cand[c]);
}

static bool is_base(const sdk_grid *g, int c)
{
    if (ncand(g, c) < 2) return false;
    bool excl = false;
    for (int p = 0; p < 81; p++) {
        if (!peers(c, p)) continue;
        if (ncand(g, p) == 1) return false;
        if (ncand(g, p) == 2 || ncand(g, p) == 3) excl = true;
    }
    return excl;
}

/* Eliminations of the triple (a, b, c) by SE's rules, as one mask per cell;
 * false when SE never looks at this triple. */
static bool reference_triple(const sdk_grid *g, const int t[3], unsigned gone[3])
{
    /* SE reaches it from a pair when the third cell is an excluder of one of
     * the pair: it holds 2-3 digits and sees it */
    bool reach = false;
    for (int i = 0; i < 3; i++)
        for (int j = 0; j < 3; j++)
            if (i != j && ncand(g, t[i]) <= 3 && peers(t[i], t[j])) reach = true;
    if (!reach) return false;
    int ex[81], nex = 0;
    for (int p = 0; p < 81; p++)
        if ((ncand(g, p) == 2 || ncand(g, p) == 3) && peers(p, t[0]) && peers(p, t[1]) &&
            peers(p, t[2]))
            ex[nex++] = p;
    if (nex < 2) return false;
    unsigned ok[3] = {0, 0, 0};
    for (int x = 1; x <= 9; x++)
        for (int y = 1; y <= 9; y++)
            for (int z = 1; z <= 9; z++) {
                int v[3] = {x, y, z};
                bool possible = true;
                for (int i = 0; i < 3; i++) possible &= sdk_grid_has(g, t[i], v[i]);
                if (!possible) continue;
                for (int i = 0; i < 3; i++)
                    for (int j = i + 1; j < 3; j++)
                        if (v[i] == v[j] && peers(t[i], t[j])) possible = false;
                for (int k = 0; k < nex && possible; k++) {
                    bool left = false;
                    for (int d = 1; d <= 9; d++)
                        if (sdk_grid_has(g, ex[k], d) && d != x && d != y && d != z) left = true;
                    if (!left) possible = false;
                }
                if (!possible) continue;
                for (int i = 0; i < 3; i++) ok[i] |= 1u << v[i];
            }
    for (int i = 0; i < 3; i++) {
        gone[i] = 0;
        for (int d = 1; d <= 9; d++)
            if (sdk_grid_has(g, t[i], d) && !(ok[i] & (1u << d))) gone[i] |= 1u << d;
    }
    return gone[0] || gone[1] || gone[2];
}

/* Compare the plugin with the reference at one position; returns the number of
 * triples found (both agree) or fails. */
static int compare_reference(const sdk_grid *g, tu_steps *st)
{
    run(tech("aligned-triple-exclusion"), g, st);
    int base[81], nb = 0;
    for (int c = 0; c < 81; c++)
        if (is_base(g, c)) base[nb++] = c;
    int found = 0;
    for (int i = 0; i < nb; i++)
        for (int j = i + 1; j < nb; j++)
            for (int k = j + 1; k < nb; k++) {
                int t[3] = {base[i], base[j], base[k]};
                unsigned gone[3];
                if (!reference_triple(g, t, gone)) continue;
                found++;
                /* the plugin's step for these cells */
                const sdk_step *s = NULL;
                for (int q = 0; q < st->n && !s; q++) {
                    int nbase = 0, hit = 0;
                    for (int m = 0; m < st->s[q].nmark; m++)
                        if (st->s[q].mark[m].role == SDK_ROLE_BASE && !st->s[q].mark[m].digit) {
                            nbase++;
                            for (int r = 0; r < 3; r++) hit += st->s[q].mark[m].cell == t[r];
                        }
                    if (nbase == 3 && hit == 3) s = &st->s[q];
                }
                if (!s) {
                    char a[8], b[8], c[8], line[730];
                    fail_msg("reference finds %s,%s,%s, plugin does not\n  %s",
                             sdk_cell_name(t[0], a), sdk_cell_name(t[1], b), sdk_cell_name(t[2], c),
                             sdk_format_cands729(g, line));
                }
                unsigned got[3] = {0, 0, 0};
                for (int e = 0; e < s->nelim; e++)
                    for (int r = 0; r < 3; r++)
                        if (s->elim[e].cell == t[r]) got[r] |= 1u << s->elim[e].digit;
                for (int r = 0; r < 3; r++)
                    if (got[r] != gone[r]) fail_msg("different eliminations: %s", s->text);
            }
    if (found != st->n) {
        char line[730];
        for (int q = 0; q < st->n; q++) printf("  plugin: %s\n", st->s[q].text);
        fail_msg("plugin %d steps, reference %d\n  %s", st->n, found, sdk_format_cands729(g, line));
    }
    return found;
}

/* ---- a built position ----------------------------------------------------------- */

/* Row 1: r1c1 {12}, r1c2 {13}, r1c3 {234}; the rest of row 1 and box 1 see
 * all three. Excluders r1c4 {14} and r1c5 {24} kill the combinations (x, y, 4)
 * with {x, y} holding 1 or 2, that is every one with r1c3=4: r1c3 loses 4.
 * Other cells keep all nine digits (no excluder, no naked single). */
static void build_row(sdk_grid *g)
{
    sdk_grid_init(g);
    const int cells[5] = {0, 1, 2, 3, 4};
    const unsigned keep[5] = {0x3, 0x5, 0xe, 0x9, 0xa};
    for (int i = 0; i < 5; i++)
        for (int d = 1; d <= 9; d++)
            if (!(keep[i] & sdk_digit_bit(d))) sdk_grid_eliminate(g, cells[i], d);
}

static void test_built(void **state)
{
    (void)state;
    assert_int_equal(tech("aligned-triple-exclusion")->flags, 0);
    assert_int_equal(tech("aligned-triple-exclusion")->difficulty, 75);
    sdk_grid g;
    build_row(&g);
    tu_steps st = {0};
    run(tech("aligned-triple-exclusion"), &g, &st);
    bool found = false;
    for (int i = 0; i < st.n; i++) {
        const sdk_step *s = &st.s[i];
        assert_int_equal(s->difficulty, 75);
        if (strcmp(s->text, "Aligned Triplet Exclusion: r1c1,r1c2,r1c3 => r1c3<>4")) continue;
        found = true;
        int nbase = 0, ncover = 0, ntarget = 0;
        for (int m = 0; m < s->nmark; m++) {
            if (s->mark[m].role == SDK_ROLE_BASE && !s->mark[m].digit) nbase++;
            if (s->mark[m].role == SDK_ROLE_COVER) {
                ncover++;
                assert_true(s->mark[m].cell == 3 || s->mark[m].cell == 4);
            }
            if (s->mark[m].role == SDK_ROLE_TARGET) {
                ntarget++;
                assert_int_equal(s->mark[m].cell, 2);
                assert_int_equal(s->mark[m].digit, 4);
            }
        }
        assert_int_equal(nbase, 3);
        assert_int_equal(ncover, 2);
        assert_int_equal(ntarget, 1);
    }
    if (!found)
        for (int i = 0; i < st.n; i++) printf("  got: %s\n", st.s[i].text);
    assert_true(found);
    compare_reference(&g, &st);

    /* a pending naked single next to a base cell takes it out (SE skips such
     * cells): r2c1 down to one digit */
    for (int d = 2; d <= 9; d++) sdk_grid_eliminate(&g, 9, d);
    run(tech("aligned-triple-exclusion"), &g, &st);
    for (int i = 0; i < st.n; i++) assert_null(strstr(st.s[i].text, "r1c1,r1c2,r1c3"));
    /* a single common excluder is not enough: r1c5 back to nine digits */
    sdk_grid_init(&g);
    const unsigned keep[4] = {0x3, 0x5, 0xe, 0x9};
    for (int i = 0; i < 4; i++)
        for (int d = 1; d <= 9; d++)
            if (!(keep[i] & sdk_digit_bit(d))) sdk_grid_eliminate(&g, i, d);
    run(tech("aligned-triple-exclusion"), &g, &st);
    for (int i = 0; i < st.n; i++) assert_null(strstr(st.s[i].text, "r1c1,r1c2,r1c3"));
    compare_reference(&g, &st);
    tu_steps_free(&st);
}

/* ---- walks --------------------------------------------------------------------- */

typedef struct walk_stats {
    long positions, steps, bad, reference_triples, beyond_ape;
    char example[SDK_STEP_TEXT];
} walk_stats;

static void walk(const char *file, int npuz, int reference_every, walk_stats *ws)
{
    const sdk_technique *ate = tech("aligned-triple-exclusion");
    const sdk_technique *ape = tech("aligned-pair-exclusion");
    const char *simple[] = {"full-house",         "naked-single", "hidden-single-box",
                            "hidden-single-line", "pointing",     "claiming",
                            "naked-pair",         "hidden-pair",  "naked-triple"};
    const sdk_technique *adv[9];
    int nadv = 0;
    for (int i = 0; i < 9; i++) adv[nadv++] = tech(simple[i]);
    uint8_t(*puz)[81];
    int n = tu_read_puzzles(file, npuz, 1, &puz);
    tu_steps st = {0}, st2 = {0};
    for (int p = 0; p < n; p++) {
        uint8_t sol[2][81];
        if (sdk_solve(puz[p], 2, sol, NULL) != 1) continue;
        sdk_grid g;
        sdk_grid_from_values(&g, puz[p]);
        while (!sdk_grid_solved(&g)) {
            ws->positions++;
            if (reference_every && ws->positions % reference_every == 0)
                ws->reference_triples += compare_reference(&g, &st);
            run(ate, &g, &st);
            ws->steps += st.n;
            for (int k = 0; k < st.n; k++) {
                const sdk_step *s = &st.s[k];
                for (int e = 0; e < s->nelim; e++)
                    if (sol[0][s->elim[e].cell] == s->elim[e].digit) {
                        char line[82];
                        printf("VIOLATION: %s\n  grid %s\n", s->text, sdk_format_line(&g, line));
                        ws->bad++;
                        break;
                    }
            }
            bool moved = false;
            for (int a = 0; a < nadv && !moved; a++) {
                run(adv[a], &g, &st2);
                if (st2.n) {
                    sdk_step_apply(&st2.s[0], &g);
                    moved = true;
                }
            }
            if (moved) continue;
            if (st.n) {
                /* does APE see any of it? */
                run(ape, &g, &st2);
                if (!st2.n) {
                    ws->beyond_ape++;
                    if (!ws->example[0]) {
                        char line[730];
                        snprintf(ws->example, sizeof ws->example, "%s\n    %s", st.s[0].text,
                                 sdk_format_cands729(&g, line));
                    }
                }
                sdk_step_apply(&st.s[0], &g);
                continue;
            }
            int best = -1;
            for (int c = 0; c < 81; c++)
                if (!g.value[c] &&
                    (best < 0 || sdk_mask_count(g.cand[c]) < sdk_mask_count(g.cand[best])))
                    best = c;
            sdk_grid_place(&g, best, sol[0][best], false);
        }
    }
    tu_steps_free(&st);
    tu_steps_free(&st2);
    free(puz);
}

static void test_soundness(void **state)
{
    (void)state;
    walk_stats ws;
    memset(&ws, 0, sizeof ws);
    walk("top1465.txt", 300, 25, &ws);
    walk("unbiased_1k.txt", 300, 25, &ws);
    walk("forum_hardest_1106.txt", 100, 25, &ws);
    printf("  aligned-triple-exclusion: %ld positions, %ld steps, %ld violations\n", ws.positions,
           ws.steps, ws.bad);
    printf("  reference agreed on %ld triples; %ld positions where APE finds nothing\n",
           ws.reference_triples, ws.beyond_ape);
    if (getenv("ATE_EXAMPLES")) printf("    %s\n", ws.example);
    assert_int_equal(ws.bad, 0);
    assert_true(ws.steps > 0);
    assert_true(ws.reference_triples > 0);
    assert_true(ws.beyond_ape > 0);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_built),
        cmocka_unit_test(test_soundness),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
