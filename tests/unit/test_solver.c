/* test_solver.c - the brute-force solver (sdk_solve, sdk_solve_grid) and the
 * naive backtracking trace of the Dutch seed (sdk_backtrack_trace).
 *
 * Solutions are checked against the givens and the rules with a checker of
 * its own, on a sample of every puzzle file of the shared data; counts to 2
 * must give 1 everywhere but serg_benchmark (2). On puzzles with many
 * solutions the counts up to a limit agree with a plain counter. */
#include "testutil.h"
#include "sudoku/grid.h"
#include "sudoku/solver.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const char *SEED_PUZZLE =
    "..76.......3.45..2......59........4..41.2....3....9...5..7.49...8.9...7...4..2.8.";
static const char *SEED_SOLUTION =
    "257691438693845712418237596829576143741328659365419827532784961186953274974162385";

static void parse(const char *s, uint8_t v[81])
{
    for (int i = 0; i < 81; i++) v[i] = (s[i] >= '1' && s[i] <= '9') ? (uint8_t)(s[i] - '0') : 0;
}

/* Every house holds 1..9 once, and the givens are kept. */
static bool valid_solution(const uint8_t given[81], const uint8_t sol[81])
{
    for (int i = 0; i < 81; i++) {
        if (sol[i] < 1 || sol[i] > 9) return false;
        if (given && given[i] && given[i] != sol[i]) return false;
    }
    for (int h = 0; h < 27; h++) {
        unsigned seen = 0;
        for (int k = 0; k < 9; k++) {
            int c = h < 9    ? h * 9 + k
                    : h < 18 ? k * 9 + (h - 9)
                             : ((h - 18) / 3) * 27 + ((h - 18) % 3) * 3 + (k / 3) * 9 + k % 3;
            seen |= 1u << sol[c];
        }
        if (seen != 0x3feu) return false;
    }
    return true;
}

static void check_file(const char *name, int max, int stride, int expect)
{
    uint8_t(*p)[81];
    int n = tu_read_puzzles(name, max, stride, &p);
    assert_true(n > 0);
    for (int k = 0; k < n; k++) {
        uint8_t sol[2][81];
        sdk_solver_stats st = {0};
        int c = sdk_solve(p[k], 2, sol, &st);
        if (c != expect) fail_msg("%s #%d: %d solutions, expected %d", name, k * stride, c, expect);
        if (!valid_solution(p[k], sol[0])) fail_msg("%s #%d: bad solution", name, k * stride);
        if (c == 2) {
            assert_true(valid_solution(p[k], sol[1]));
            assert_memory_not_equal(sol[0], sol[1], 81);
        }
        /* First-solution mode finds the same first solution. */
        uint8_t one[2][81];
        assert_int_equal(sdk_solve(p[k], 1, one, NULL), 1);
        assert_memory_equal(one[0], sol[0], 81);
    }
    free(p);
}

static void test_data_17clue(void **state)
{
    (void)state;
    check_file("17clue.txt", 800, 61, 1);
}
static void test_data_top1465(void **state)
{
    (void)state;
    check_file("top1465.txt", 300, 5, 1);
}
static void test_data_hardest_1905(void **state)
{
    (void)state;
    check_file("forum_hardest_1905_11plus.txt", 300, 163, 1);
}
static void test_data_hardest_1106(void **state)
{
    (void)state;
    check_file("forum_hardest_1106.txt", 200, 2, 1);
}
static void test_data_msolve(void **state)
{
    (void)state;
    check_file("forum_hardest_1905_msolve_hardest_to_solve_1k.txt", 100, 10, 1);
    check_file("forum_hardest_1905_msolve_hardest_to_verify_1k.txt", 100, 10, 1);
    check_file("msolve_most_difficult_100.txt", 25, 4, 1);
}
static void test_data_easy(void **state)
{
    (void)state;
    check_file("kaggle_10k.txt", 500, 20, 1);
    check_file("unbiased_1k.txt", 250, 4, 1);
    check_file("hard_public.txt", 100, 2, 1);
}
static void test_data_serg_two_solutions(void **state)
{
    (void)state;
    check_file("serg_benchmark.txt", 500, 20, 2);
}

/* A plain counter to check counts against: the empty cell with the fewest
 * candidates, every digit in turn, up to limit solutions. */
static int plain_count(uint8_t v[81], int limit)
{
    int best = -1, bn = 10;
    unsigned bmask = 0;
    for (int c = 0; c < 81 && bn > 1; c++) {
        if (v[c]) continue;
        unsigned used = 0;
        int r = c / 9, col = c % 9, b0 = (r / 3) * 27 + (col / 3) * 3;
        for (int k = 0; k < 9; k++)
            used |= 1u << v[r * 9 + k] | 1u << v[k * 9 + col] | 1u << v[b0 + (k / 3) * 9 + k % 3];
        unsigned free = ~used & 0x3feu;
        int n = __builtin_popcount(free);
        if (n < bn) bn = n, best = c, bmask = free;
    }
    if (best < 0) return 1;
    int count = 0;
    for (int d = 1; d <= 9 && count < limit; d++) {
        if (!((bmask >> d) & 1)) continue;
        v[best] = (uint8_t)d;
        count += plain_count(v, limit - count);
    }
    v[best] = 0;
    return count;
}

/* Puzzles with several solutions (17-clue puzzles less one or two givens):
 * the count up to a limit agrees with the plain counter, and the two
 * solutions returned are valid and differ. */
static void test_counts_many_solutions(void **state)
{
    (void)state;
    uint8_t(*p)[81];
    int n = tu_read_puzzles("17clue.txt", 24, 2011, &p);
    assert_true(n > 0);
    for (int k = 0; k < n; k++) {
        for (int drop = 1; drop <= 2; drop++) {
            uint8_t v[81];
            memcpy(v, p[k], 81);
            for (int i = 0, left = drop; i < 81 && left; i++)
                if (v[(i * 7 + k) % 81]) v[(i * 7 + k) % 81] = 0, left--;
            uint8_t sol[2][81], w[81];
            memcpy(w, v, 81);
            int want = plain_count(w, 12);
            assert_int_equal(sdk_solve(v, 12, sol, NULL), want);
            assert_true(want >= 2);
            assert_true(valid_solution(v, sol[0]) && valid_solution(v, sol[1]));
            assert_memory_not_equal(sol[0], sol[1], 81);
            assert_int_equal(sdk_solve(v, 2, NULL, NULL), 2);
        }
    }
    free(p);
}

static void test_seed_example(void **state)
{
    (void)state;
    uint8_t v[81], want[81], sol[2][81];
    parse(SEED_PUZZLE, v);
    parse(SEED_SOLUTION, want);
    sdk_solver_stats st = {0};
    assert_int_equal(sdk_solve(v, 2, sol, &st), 1);
    assert_memory_equal(sol[0], want, 81);
    assert_int_equal(sdk_solve(v, 1, NULL, NULL), 1); /* sol may be NULL */
    assert_int_equal(sdk_solve(v, 0, NULL, NULL), 1); /* limit < 1 acts as 1 */
}

static void test_empty_and_full(void **state)
{
    (void)state;
    uint8_t v[81] = {0}, sol[2][81];
    sdk_solver_stats st = {0};
    assert_int_equal(sdk_solve(v, 2, sol, &st), 2);
    assert_true(valid_solution(v, sol[0]));
    assert_true(valid_solution(v, sol[1]));
    assert_memory_not_equal(sol[0], sol[1], 81);
    assert_true(st.guesses > 0);
    assert_int_equal(sdk_solve(v, 1000, NULL, NULL), 1000);

    parse(SEED_SOLUTION, v);
    st.guesses = 99;
    assert_int_equal(sdk_solve(v, 2, sol, &st), 1);
    assert_memory_equal(sol[0], v, 81);
    assert_int_equal(st.guesses, 0);
}

/* A unique puzzle with one more given that differs from its solution has no
 * solution at all (any solution would also solve the original). */
static void test_no_solution(void **state)
{
    (void)state;
    uint8_t v[81], want[81];
    parse(SEED_PUZZLE, v);
    parse(SEED_SOLUTION, want);
    int tried = 0;
    for (int cell = 0; cell < 81; cell++) {
        if (v[cell]) continue;
        for (int d = 1; d <= 9; d++) {
            if (d == want[cell]) continue;
            uint8_t w[81];
            memcpy(w, v, 81);
            w[cell] = (uint8_t)d;
            sdk_solver_stats st;
            assert_int_equal(sdk_solve(w, 2, NULL, &st), 0);
            tried++;
        }
    }
    assert_true(tried > 300);

    /* No candidate left for r1c9, though no digit repeats. */
    parse("12345678."
          "........9"
          "...............................................................",
          v);
    assert_int_equal(sdk_solve(v, 2, NULL, NULL), 0);
}

static void test_conflicting_givens(void **state)
{
    (void)state;
    static const char *bad[] = {
        "5...5............................................................................",
        "5........5.......................................................................",
        "5.........5......................................................................",
        "..76.......3.45..2......59........4..41.2....3....9...5..7.49...8.9...7...4..2.88",
    };
    for (size_t i = 0; i < sizeof bad / sizeof *bad; i++) {
        uint8_t v[81], sol[2][81];
        parse(bad[i], v);
        sdk_solver_stats st = {.guesses = 7};
        assert_int_equal(sdk_solve(v, 2, sol, &st), 0);
        assert_int_equal(st.guesses, 0);
        sdk_grid g;
        sdk_grid_init(&g);
        for (int c = 0; c < 81; c++) {
            /* place by hand: sdk_grid_place would already clear the clash */
            if (v[c]) {
                g.value[c] = v[c];
                g.given[c] = 1;
                g.cand[c] = 0;
            }
        }
        assert_int_equal(sdk_solve_grid(&g, 2, sol, NULL), 0);
    }
}

static void grid_from(sdk_grid *g, const uint8_t v[81])
{
    sdk_grid_init(g);
    for (int c = 0; c < 81; c++)
        if (v[c]) sdk_grid_place(g, c, v[c], true);
}

static void test_grid_eliminations(void **state)
{
    (void)state;
    uint8_t v[81], want[81], sol[2][81];
    parse(SEED_PUZZLE, v);
    parse(SEED_SOLUTION, want);
    sdk_grid g;
    grid_from(&g, v);
    assert_int_equal(sdk_solve_grid(&g, 2, sol, NULL), 1);
    assert_memory_equal(sol[0], want, 81);

    /* Removing the true candidate of any empty cell kills every solution. */
    for (int cell = 0; cell < 81; cell++) {
        if (v[cell]) continue;
        sdk_grid h = g;
        assert_true(sdk_grid_eliminate(&h, cell, want[cell]));
        assert_int_equal(sdk_solve_grid(&h, 2, NULL, NULL), 0);
    }
    /* Removing false candidates changes nothing; a non-given value is kept. */
    sdk_grid h = g;
    for (int cell = 0; cell < 81; cell++)
        for (int d = 1; d <= 9; d++)
            if (d != want[cell] && (cell + d) % 3 == 0) sdk_grid_eliminate(&h, cell, d);
    sdk_grid_place(&h, 40, want[40], false);
    assert_int_equal(sdk_solve_grid(&h, 2, sol, NULL), 1);
    assert_memory_equal(sol[0], want, 81);

    /* Serg puzzles have two solutions; forbidding the first one's digit where
     * they differ leaves only solutions that avoid it. */
    uint8_t(*p)[81];
    int n = tu_read_puzzles("serg_benchmark.txt", 40, 250, &p);
    assert_true(n > 0);
    for (int k = 0; k < n; k++) {
        uint8_t two[2][81];
        assert_int_equal(sdk_solve(p[k], 2, two, NULL), 2);
        int cell = 0;
        while (two[0][cell] == two[1][cell]) cell++;
        grid_from(&g, p[k]);
        assert_true(sdk_grid_eliminate(&g, cell, two[0][cell]));
        int c = sdk_solve_grid(&g, 2, sol, NULL);
        assert_true(c >= 1);
        for (int i = 0; i < c && i < 2; i++) {
            assert_true(valid_solution(p[k], sol[i]));
            assert_int_not_equal(sol[i][cell], two[0][cell]);
        }
        /* and a placed value (not a given) is honoured too */
        grid_from(&g, p[k]);
        sdk_grid_place(&g, cell, two[1][cell], false);
        assert_true(sdk_solve_grid(&g, 1, sol, NULL) == 1);
        assert_int_equal(sol[0][cell], two[1][cell]);
    }
    free(p);
}

/* ---- the trace ---------------------------------------------------------- */

typedef struct trace_log {
    long events, accepted, backtracks, last_step;
    long bad_order; /* step numbers must not decrease, and grow by one per step */
    sdk_trace_event first[40];
} trace_log;

static void log_event(void *ctx, const sdk_trace_event *ev)
{
    trace_log *t = ctx;
    if (t->events < 40) t->first[t->events] = *ev;
    if (ev->step != t->last_step && ev->step != t->last_step + 1) t->bad_order++;
    t->last_step = ev->step;
    t->events++;
    if (ev->result == SDK_TRACE_ACCEPTED) t->accepted++;
    if (ev->result == SDK_TRACE_BACKTRACK) t->backtracks++;
}

static void test_trace_seed(void **state)
{
    (void)state;
    uint8_t v[81], want[81];
    parse(SEED_PUZZLE, v);
    parse(SEED_SOLUTION, want);
    trace_log t = {0};
    assert_int_equal(sdk_backtrack_trace(v, 0, log_event, &t), 1);
    assert_memory_equal(v, want, 81);
    /* The seed counts a step per accepted digit and per backtrack. */
    assert_int_equal(t.last_step, 10789);
    assert_int_equal(t.accepted + t.backtracks, 10789);
    assert_int_equal(t.bad_order, 0);
    assert_true(t.events > 10789);

    /* The first tries as the seed prints them (cells 0-based here). */
    const sdk_trace_event seed[] = {
        {1, 0, 1, SDK_TRACE_ACCEPTED}, {2, 1, 1, SDK_TRACE_IN_ROW}, {2, 1, 2, SDK_TRACE_ACCEPTED},
        {3, 4, 1, SDK_TRACE_IN_ROW},   {3, 4, 2, SDK_TRACE_IN_ROW}, {3, 4, 3, SDK_TRACE_ACCEPTED},
    };
    for (size_t i = 0; i < sizeof seed / sizeof *seed; i++) {
        assert_int_equal(t.first[i].step, seed[i].step);
        assert_int_equal(t.first[i].cell, seed[i].cell);
        assert_int_equal(t.first[i].digit, seed[i].digit);
        assert_int_equal(t.first[i].result, seed[i].result);
    }
    /* Steps 6-9: backtracks from r1c8, r1c7, r1c6, then r1c5 goes on with 4
     * (in column 5) and 5 (in box 2). */
    int found = 0;
    for (int i = 0; i < 40; i++) {
        const sdk_trace_event *e = &t.first[i];
        if (e->step == 6 && e->result == SDK_TRACE_BACKTRACK)
            found |= 1, assert_int_equal(e->cell, 7);
        if (e->step == 7 && e->result == SDK_TRACE_BACKTRACK)
            found |= 2, assert_int_equal(e->cell, 6);
        if (e->step == 8 && e->result == SDK_TRACE_BACKTRACK)
            found |= 4, assert_int_equal(e->cell, 5);
        if (e->step == 8 && e->digit == 9)
            found |= 8, assert_int_equal(e->result, SDK_TRACE_IN_COL);
        if (e->step == 9 && e->digit == 4)
            found |= 16, assert_int_equal(e->result, SDK_TRACE_IN_COL);
        if (e->step == 9 && e->digit == 5)
            found |= 32, assert_int_equal(e->result, SDK_TRACE_IN_BOX);
    }
    assert_int_equal(found, 63);
}

static void test_trace_cutoff_and_failures(void **state)
{
    (void)state;
    uint8_t v[81], orig[81];
    parse(SEED_PUZZLE, v);
    memcpy(orig, v, 81);
    trace_log t = {0};
    assert_int_equal(sdk_backtrack_trace(v, 100, log_event, &t), -1);
    assert_int_equal(t.events, 100);
    assert_memory_equal(v, orig, 81);

    /* No callback is fine. */
    assert_int_equal(sdk_backtrack_trace(v, 0, NULL, NULL), 1);

    /* Conflicting givens: 0 at once. */
    parse("5...5............................................................................", v);
    memset(&t, 0, sizeof t);
    assert_int_equal(sdk_backtrack_trace(v, 0, log_event, &t), 0);
    assert_int_equal(t.events, 0);

    /* No solution, found by exhausting the search: agrees with sdk_solve. */
    parse("12345678."
          "........9"
          "...............................................................",
          v);
    memcpy(orig, v, 81);
    memset(&t, 0, sizeof t);
    assert_int_equal(sdk_backtrack_trace(v, 0, log_event, &t), 0);
    assert_true(t.backtracks > 0);
    assert_memory_equal(v, orig, 81);
}

static void test_trace_texts(void **state)
{
    (void)state;
    const char *seen[5];
    for (int r = SDK_TRACE_ACCEPTED; r <= SDK_TRACE_BACKTRACK; r++) {
        seen[r] = sdk_trace_result_text(r);
        assert_non_null(seen[r]);
        assert_true(strlen(seen[r]) > 5);
        for (int q = 0; q < r; q++) assert_string_not_equal(seen[q], seen[r]);
    }
    assert_non_null(strstr(sdk_trace_result_text(SDK_TRACE_IN_ROW), "row"));
    assert_non_null(strstr(sdk_trace_result_text(SDK_TRACE_IN_COL), "column"));
    assert_non_null(strstr(sdk_trace_result_text(SDK_TRACE_IN_BOX), "box"));
    assert_non_null(strstr(sdk_trace_result_text(SDK_TRACE_BACKTRACK), "backtrack"));
    assert_non_null(sdk_trace_result_text(42));
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_seed_example),
        cmocka_unit_test(test_empty_and_full),
        cmocka_unit_test(test_no_solution),
        cmocka_unit_test(test_conflicting_givens),
        cmocka_unit_test(test_grid_eliminations),
        cmocka_unit_test(test_data_17clue),
        cmocka_unit_test(test_data_top1465),
        cmocka_unit_test(test_data_hardest_1905),
        cmocka_unit_test(test_data_hardest_1106),
        cmocka_unit_test(test_data_msolve),
        cmocka_unit_test(test_data_easy),
        cmocka_unit_test(test_data_serg_two_solutions),
        cmocka_unit_test(test_counts_many_solutions),
        cmocka_unit_test(test_trace_seed),
        cmocka_unit_test(test_trace_cutoff_and_failures),
        cmocka_unit_test(test_trace_texts),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
