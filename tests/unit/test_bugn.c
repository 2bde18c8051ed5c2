/* test_bugn.c - bug-plus-n (Sudoku Explainer's BUG types 1 with several
 * extras, 2, 3 and 4) in the uniqueness plugin.
 *
 * 1. Fixed positions, one per type: the step's text, eliminations,
 *    difficulty (SE's) and marks.
 * 2. The BUG argument itself, by brute force: wherever the technique acts,
 *    the grid without the extra candidates (the ones marked as the pattern's
 *    base) has no solution or at least two.
 * 3. Soundness: walks of a few hundred unique puzzles towards BUG positions
 *    (simple techniques first, else a wrong candidate of a cell with three or
 *    more digits is removed), every step at every position checked against
 *    the solution; each type must have acted.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "sudoku/solver.h"
#include "testutil.h"

/* The plugins these tests take techniques from (tu_plugin loads and keeps them). */
static const char *const plugin_names[] = {"uniqueness", "singles", "intersections", "subsets"};

static const sdk_technique *tech(const char *id)
{
    for (size_t p = 0; p < sizeof plugin_names / sizeof *plugin_names; p++)
        for (const sdk_technique *const *t = tu_plugin(plugin_names[p]); t && *t; t++)
            if (!strcmp((*t)->id, id)) return *t;
    fail_msg("technique %s not found", id);
    return NULL;
}

/* Every step of t on g (the search stops after 2000). */
static void run(const sdk_technique *t, const sdk_grid *g, tu_steps *out)
{
    out->limit = 2000;
    tu_find_all(t, NULL, g, out);
}

static int step_type(const sdk_step *s)
{
    const char *p = strstr(s->text, " Type ");
    return p ? p[6] - '0' : 0;
}

/* The BUG argument: without the extras (base marks) the grid has 0 or >= 2
 * solutions. */
static bool bug_argument_holds(const sdk_grid *g, const sdk_step *s)
{
    sdk_grid b = *g;
    for (int i = 0; i < s->nmark; i++)
        if (s->mark[i].role == SDK_ROLE_BASE && s->mark[i].digit)
            sdk_grid_eliminate(&b, s->mark[i].cell, s->mark[i].digit);
    return sdk_solve_grid(&b, 2, NULL, NULL) != 1;
}

/* Structure every step must have: SE's difficulty for its type, a target mark
 * per elimination, extras marked as base, a house for types 3 and 4. */
static void check_structure(const sdk_step *s)
{
    int type = step_type(s);
    assert_true(type >= 1 && type <= 4);
    int nbase = 0, ntarget = 0;
    for (int i = 0; i < s->nmark; i++) {
        nbase += s->mark[i].role == SDK_ROLE_BASE;
        ntarget += s->mark[i].role == SDK_ROLE_TARGET;
    }
    assert_true(nbase >= 2);
    assert_int_equal(ntarget, s->nelim);
    assert_true(s->nelim > 0);
    if (type == 1) assert_int_equal(s->difficulty, 56);
    if (type == 2 || type == 4) assert_int_equal(s->difficulty, 57);
    if (type == 3) {
        assert_true(s->difficulty >= 58 && s->difficulty <= 62);
        assert_int_equal(s->nhouse, 1);
    }
    if (type == 4) assert_int_equal(s->nhouse, 1);
}

/* ---- fixed positions (found by the walk below, 729-char candidate grids) ---- */

typedef struct fixed {
    const char *grid, *text;
    int difficulty;
} fixed;

static const fixed fixed_cases[] = {
    /* one BUG cell with two extras: it keeps them */
    {"...4......2.......1.....7..1.....7.........89.......89....5......3...........6......"
     "..6..9......7.9....5.........67....3.......2.4............8..2.4.....1..........3...."
     "8...3....8.1....6...1....6....2.4.........5.....2.4.............9......7........7...."
     ".4............8.....5....1..........3.......2...6....2...6...........9.2......91....."
     "....2......9.......8......6.........7....3..........5.......4.........5.........6...."
     ".3..............9.2.4......2.4.....1..............7.........8..2.....8.....5.....2..."
     ".7.....4...........78......6...........91..........3......1...............89...4.6.."
     "...3..........5...........89......7.....4.6....2.........3..6.....3...7.....4.67.9.2"
     ".............7.91...........4.6..........8.....5....",
     "Bivalue Universal Grave + n Type 1: r9c3 {67} => r9c3<>4, r9c3<>9", 56},
    /* two BUG cells, one extra digit: cells seeing both lose it */
    {"1...............8....4......23.5........56....2...6....23..............9......7....3"
     ".......2.............7..........91...........4............8......6.......5..........."
     ".9....5.........6..........8.......7...23.......23.........4.....1...........4......."
     "......9.2.....8......6.....3......1............5..........7...2.....8......6...1....."
     "....23..........5.7......5..8.......78....4......23..............9....5..........7..."
     ".3....8....4......2...............9.....6...1..........3....8.......7.......6...1...."
     ".....23.........4.........5............9.......8..23.......2..........4.........5...9"
     "1...............89..3....8.......7....3.5.........6..........8...3..........5...9.2."
     "...7.......6..9.2...67..1.........2..5.......4.....",
     "Bivalue Universal Grave + n Type 2: 2 in r1c4,r9c6 => r13c6,r79c4<>2", 57},
    /* two BUG cells of row 9: extras 5/8, r9c4 {58} completes a naked pair */
    {"......7...2..............8.........9...4..........6.....3......1...5....1...5........"
     "....9..3.........4......2...........5....1.............6.........78.......78.....5.."
     "..1.............6.........78...3............78..2..........4.............91........."
     "..4.........5.7......5.7..........9..3.............8..2............6.....3.........."
     ".6...........9...4............8..2.......1............5.7......5.7.........8.....5.7"
     "...2.......1.............6.......5.7.....4.............9..3.......2...............9.."
     "3.5.........6...1............5..8.......7....3....8....4........4............8.1....."
     ".....3............7..........9....5.........6....2............6.......5.7....3.5.7.."
     "....5..8..2..........4.............91.3....8.1......8.",
     "Bivalue Universal Grave + n Type 3: r9c38 {58} + Naked Pair 5/8 in r9 (r9c4) => "
     "r9c2<>5, r9c9<>8",
     58},
    /* the same position: 3 is locked in r9c38, each keeps 3 and its extra */
    {"......7...2..............8.........9...4..........6.....3......1...5....1...5........"
     "....9..3.........4......2...........5....1.............6.........78.......78.....5.."
     "..1.............6.........78...3............78..2..........4.............91........."
     "..4.........5.7......5.7..........9..3.............8..2............6.....3.........."
     ".6...........9...4............8..2.......1............5.7......5.7.........8.....5.7"
     "...2.......1.............6.......5.7.....4.............9..3.......2...............9.."
     "3.5.........6...1............5..8.......7....3....8....4........4............8.1....."
     ".....3............7..........9....5.........6....2............6.......5.7....3.5.7.."
     "....5..8..2..........4.............91.3....8.1......8.",
     "Bivalue Universal Grave + n Type 4: r9c3 {5}, r9c8 {8}, 3 locked in r9 => r9c8<>1, "
     "r9c3<>7",
     57},
    /* a naked quadruple in box 1 with the extras 6/9 of r3c12 */
    {"..3....8......6.8.1...........4.......3..6.........7..........9.2...........5........"
     "5.......4.......3.....9.2.......1..........3.....9.....6..........8.......7...2....7."
     "9.....67.9.2...6..........8......6..9....5.......4.....1..........3.........4........"
     ".5...........8......6.....3.....9..3.....91..............7...2.............7.91....."
     "........6..9....5.7...2..............8...3..........56......4......23...........67.."
     ".23..........5.7.....4.....1...............8.....56...........9.....6.....3........."
     "4.....1............5.....2.............7..........9.......8........89.......89....5."
     ".....3............7.......6....2..........4.....1........1.........2.............7.."
     "........9.......8....4.........5......3...........6...",
     "Bivalue Universal Grave + n Type 3: r3c12 {69} + Naked Quadruple 3/6/8/9 in b1 "
     "(r1c12,r2c3) => r3c3<>6",
     60},
    /* three BUG cells, extra 3 everywhere, two of them in row 5 and box 5 (3
     * is there four times, in two wide cells each): SukakuExplainer's type 2
     * (its default lkSudoku fix), on 17clue.txt line 14243 */
    {"......7.........8..2.........3.....9.....6...1..........3.....9...4.........5.......4"
     "5.......45.........6.........78...3...7.9..3....8...3.....91.........2.......1......."
     ".........9..3.......2..........4.........5.........6..........8.......7.....45......."
     "...7..........91..4.....1...5.........6..........8..2.........3.......2.........3.5.."
     "..1..........3....89..3.5...9..3....8....4...........7.......6........6.....34......."
     ".....8....4..7....3...7...2.......1............5............9..3......1............5."
     "........6..........8.......7...2...............9...4............8......6......4......"
     "...5.....2...............9......7....3......1................9.2.............7..1.3.."
     "....1.3.........4.........5.........6..........8.",
     "Bivalue Universal Grave + n Type 2: 3 in r25c5,r5c4 => r6c5<>3", 57},
};

static void test_fixed(void **state)
{
    (void)state;
    const sdk_technique *t = tech("bug-plus-n");
    assert_true(t->flags & SDK_TF_UNIQUENESS);
    assert_int_equal(t->difficulty, 57);
    tu_steps st = {0};
    for (int i = 0; i < (int)(sizeof fixed_cases / sizeof *fixed_cases); i++) {
        const fixed *f = &fixed_cases[i];
        assert_int_equal(strlen(f->grid), 729);
        sdk_grid g;
        sdk_error err;
        if (!sdk_parse(f->grid, &g, &err)) fail_msg("case %d: %s", i, err.msg);
        assert_int_equal(sdk_solve_grid(&g, 2, NULL, NULL), 1);
        run(t, &g, &st);
        bool found = false;
        for (int k = 0; k < st.n; k++) {
            check_structure(&st.s[k]);
            assert_true(bug_argument_holds(&g, &st.s[k]));
            if (!strcmp(st.s[k].text, f->text)) {
                found = true;
                assert_int_equal(st.s[k].difficulty, f->difficulty);
                assert_ptr_equal(st.s[k].tech, t);
            }
        }
        if (!found)
            for (int k = 0; k < st.n; k++) printf("  case %d got: %s\n", i, st.s[k].text);
        assert_true(found);
    }
    tu_steps_free(&st);
}

/* No extras, no step: a pure BUG (two solutions) and a grid with a digit three
 * times in a house among bivalue cells only. Also: bug-plus-1's case (one cell,
 * one extra) is left to bug-plus-1. */
static void test_negative(void **state)
{
    (void)state;
    const sdk_technique *t = tech("bug-plus-n");
    const sdk_technique *b1 = tech("bug-plus-1");
    tu_steps st = {0};
    /* the type 1 position with r9c3 down to one extra (7): a BUG+1 */
    sdk_grid g;
    sdk_error err;
    assert_true(sdk_parse(fixed_cases[0].grid, &g, &err));
    sdk_grid_eliminate(&g, 8 * 9 + 2, 6);
    run(t, &g, &st);
    assert_int_equal(st.n, 0);
    run(b1, &g, &st);
    assert_int_equal(st.n, 1);
    /* ... and with both extras gone it is a pure BUG: no extra, nothing to say */
    sdk_grid_eliminate(&g, 8 * 9 + 2, 7);
    run(t, &g, &st);
    assert_int_equal(st.n, 0);
    assert_int_not_equal(sdk_solve_grid(&g, 2, NULL, NULL), 1);
    /* an empty grid: every cell has nine digits, every digit nine places */
    sdk_grid_init(&g);
    run(t, &g, &st);
    assert_int_equal(st.n, 0);
    tu_steps_free(&st);
}

/* ---- the walk ------------------------------------------------------------------- */

typedef struct walk_stats {
    long positions, steps, bad, argument_bad;
    long per_type[5];
    char example[5][730]; /* a position where each type acted (729 chars) */
    char example_text[5][SDK_STEP_TEXT];
} walk_stats;

static uint32_t lcg(uint32_t *s)
{
    *s = *s * 1664525u + 1013904223u;
    return *s >> 8;
}

static void walk(const char *file, int npuz, int nseed, walk_stats *ws)
{
    const sdk_technique *bugn = tech("bug-plus-n");
    const char *simple[] = {"full-house", "naked-single", "hidden-single-box", "hidden-single-line",
                            "pointing",   "claiming",     "naked-pair",        "hidden-pair"};
    const sdk_technique *adv[8];
    int nadv = 0;
    for (size_t p = 0; p < sizeof plugin_names / sizeof *plugin_names; p++)
        for (const sdk_technique *const *t = tu_plugin(plugin_names[p]); t && *t; t++)
            for (int i = 0; i < (int)(sizeof simple / sizeof *simple); i++)
                if (!strcmp((*t)->id, simple[i]) && nadv < 8) adv[nadv++] = *t;
    uint8_t(*puz)[81];
    int n = tu_read_puzzles(file, npuz, 1, &puz);
    tu_steps st = {0};
    for (int p = 0; p < n; p++) {
        uint8_t sol[2][81];
        if (sdk_solve(puz[p], 2, sol, NULL) != 1) continue;
        for (int r = 0; r < nseed; r++) {
            uint32_t seed = (uint32_t)p * 2654435761u + 7u + (uint32_t)r * 977u;
            sdk_grid g;
            sdk_grid_from_values(&g, puz[p]);
            while (!sdk_grid_solved(&g)) {
                ws->positions++;
                run(bugn, &g, &st);
                ws->steps += st.n;
                for (int k = 0; k < st.n; k++) {
                    const sdk_step *s = &st.s[k];
                    int type = step_type(s);
                    ws->per_type[type >= 1 && type <= 4 ? type : 0]++;
                    if (type >= 1 && type <= 4 && !ws->example[type][0]) {
                        sdk_format_cands729(&g, ws->example[type]);
                        snprintf(ws->example_text[type], SDK_STEP_TEXT, "%s", s->text);
                    }
                    check_structure(s);
                    if (!bug_argument_holds(&g, s)) {
                        printf("BUG ARGUMENT FAILS: %s\n", s->text);
                        ws->argument_bad++;
                    }
                    for (int e = 0; e < s->nelim; e++)
                        if (sol[0][s->elim[e].cell] == s->elim[e].digit) {
                            char line[730];
                            printf("VIOLATION: %s\n  grid %s\n", s->text,
                                   sdk_format_cands729(&g, line));
                            ws->bad++;
                            break;
                        }
                }
                if (st.n) {
                    sdk_step_apply(&st.s[0], &g);
                    continue;
                }
                bool moved = false;
                for (int a = 0; a < nadv && !moved; a++) {
                    run(adv[a], &g, &st);
                    if (st.n) {
                        sdk_step_apply(&st.s[0], &g);
                        moved = true;
                    }
                }
                if (moved) continue;
                /* remove a wrong candidate of a cell with 3+ digits, else place */
                int wide[81], nw = 0;
                for (int c = 0; c < 81; c++)
                    if (!g.value[c] && sdk_mask_count(g.cand[c]) >= 3) wide[nw++] = c;
                if (nw) {
                    int c = wide[lcg(&seed) % (unsigned)nw];
                    unsigned wrong = g.cand[c] & ~sdk_digit_bit(sol[0][c]);
                    int k = (int)(lcg(&seed) % (unsigned)sdk_mask_count(wrong));
                    SDK_MASK_FOREACH(d, wrong) {
                        if (k-- == 0) {
                            sdk_grid_eliminate(&g, c, d);
                            break;
                        }
                    }
                } else {
                    for (int c = 0; c < 81; c++)
                        if (!g.value[c]) {
                            sdk_grid_place(&g, c, sol[0][c], false);
                            break;
                        }
                }
            }
        }
    }
    tu_steps_free(&st);
    free(puz);
}

static void test_soundness(void **state)
{
    (void)state;
    walk_stats ws;
    memset(&ws, 0, sizeof ws);
    const char *e = getenv("BUGN_SEEDS");
    int nseed = e ? atoi(e) : 4;
    walk("top1465.txt", 1465, nseed, &ws);
    walk("unbiased_1k.txt", 1000, nseed, &ws);
    printf("  bug-plus-n: %ld positions, %ld steps, %ld violations, %ld argument failures\n",
           ws.positions, ws.steps, ws.bad, ws.argument_bad);
    for (int t = 1; t <= 4; t++) {
        printf("    type %d: %ld steps\n", t, ws.per_type[t]);
        if (getenv("BUGN_EXAMPLES") && ws.example[t][0])
            printf("    %s\n    %s\n", ws.example_text[t], ws.example[t]);
    }
    assert_int_equal(ws.bad, 0);
    assert_int_equal(ws.argument_bad, 0);
    assert_int_equal(ws.per_type[0], 0);
    for (int t = 1; t <= 4; t++) assert_true(ws.per_type[t] > 0);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_fixed),
        cmocka_unit_test(test_negative),
        cmocka_unit_test(test_soundness),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
