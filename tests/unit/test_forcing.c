/* test_forcing.c - soundness walk for every technique of the chains and
 * forcing plugins: along a solving path of hard puzzles (basic reduction, then
 * the first step found by the cheapest of our techniques), every step of every
 * technique is checked against the brute-force solution. Also checks that each
 * forcing technique finds something on these puzzles, and prints timings
 * (informational only). CHAINS_SOUND_N sets the number of puzzles per file,
 * KRAKEN_ALS_N those of the kraken als=1 comparison. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include "walk.h"
#include "sudoku/links.h"
#include "sudoku/solver.h"

static walk_tech techs[] = {
    WALK_TECH("chains", "continuous-nice-loop", NULL),
    WALK_TECH("chains", "discontinuous-nice-loop", NULL),
    WALK_TECH("chains", "aic", NULL),
    WALK_TECH("chains", "grouped-continuous-nice-loop", "als=1"),
    WALK_TECH("chains", "grouped-discontinuous-nice-loop", "als=1"),
    WALK_TECH("chains", "grouped-aic", "als=1"),
    WALK_TECH("forcing", "nishio", NULL),
    WALK_TECH("forcing", "kraken-fish", NULL),
    WALK_TECH("forcing", "forcing-chain-contradiction", "als=1"),
    WALK_TECH("forcing", "forcing-chain-verity", "als=1"),
    WALK_TECH("forcing", "forcing-net-contradiction", NULL),
    WALK_TECH("forcing", "forcing-net-verity", NULL),
    WALK_TECH("forcing", "dynamic-forcing-chain", NULL),
    WALK_TECH("forcing", "nested-forcing-chain", NULL),
    WALK_TECH("forcing", "kraken-fish-2", NULL),
    WALK_TECH("forcing", "kraken-fish", "franken=1"),
    WALK_TECH("forcing", "kraken-fish-2", "franken=1 max-size=3"),
    WALK_TECH("forcing", "kraken-fish", "als=1"),
    WALK_TECH("forcing", "kraken-fish-2", "als=1"),
};
#define NT (int)(sizeof techs / sizeof techs[0])

/* Every step shows its chains: links, and one trace line per chain. */
static void check_links(void *ctx, walk_tech *t, const sdk_step *s, const uint8_t *sol)
{
    (void)t;
    (void)sol;
    int *nolinks = ctx;
    static char text[SDK_STEP_MAX_LINK * 128];
    if (!s->nlink || !sdk_step_trace_text(s, text, sizeof text)[0]) {
        if (!*nolinks) fprintf(stderr, "NO LINKS: %s\n", s->text);
        ++*nolinks;
    }
    for (int i = 0; i < s->nlink && i < SDK_STEP_MAX_LINK; i++) {
        const sdk_link *l = &s->link[i];
        if (l->from.digit < 1 || l->from.digit > 9 || l->to.digit < 1 || l->to.digit > 9 ||
            !l->from.ncell || !l->to.ncell || l->from.cell[0] > 80 || l->to.cell[0] > 80)
            ++*nolinks;
    }
}

static void test_soundness_walk(void **state)
{
    (void)state;
    const char *e = getenv("CHAINS_SOUND_N");
    int npuz = e ? atoi(e) : 6, nolinks = 0;
    /* singles and locked candidates, then the first step found (the cheapest
     * technique's), at most 12 positions a puzzle */
    walk_spec w = {.npuz = npuz,
                   .max_iter = 12,
                   .reduce = WALK_REDUCE_BASIC,
                   .stuck = WALK_STUCK_STOP,
                   .tech = techs,
                   .ntech = NT,
                   .on_step = check_links,
                   .ctx = &nolinks};
    walk_result r = {0};
    static const char *files[] = {"top1465.txt", "forum_hardest_1905_11plus.txt"};
    for (int f = 0; f < 2; f++) {
        long before = r.puzzles;
        w.file = files[f];
        walk_run(&w, &r);
        assert_true(r.puzzles > before);
    }
    for (int k = 0; k < NT; k++)
        fprintf(stderr, "%-30s %-20s positions with steps %4ld/%4ld, mean %.1f ms\n", techs[k].id,
                techs[k].opts ? techs[k].opts : "", techs[k].found, techs[k].calls,
                techs[k].calls ? techs[k].ms / (double)techs[k].calls : 0);
    fprintf(stderr, "soundness walk: %d puzzles per file, %ld steps, %ld wrong\n", npuz, r.steps,
            r.wrong);
    assert_int_equal(r.wrong, 0);
    assert_int_equal(nolinks, 0);
    assert_true(r.steps > 0);
    /* the dynamic techniques always find something on the hardest puzzles */
    assert_true(techs[12].found > 0);
    assert_true(techs[10].found > 0);
    /* kraken fish of both types, basic and Franken */
    assert_true(techs[7].found > 0);
    assert_true(techs[14].found > 0);
    assert_true(techs[15].found >= techs[7].found);
    assert_true(techs[16].found > 0);
    /* with ALS links too: more positions with steps, none wrong */
    assert_true(techs[17].found >= techs[7].found && techs[17].found > 0);
    assert_true(techs[18].found >= techs[14].found && techs[18].found > 0);
}

typedef struct k2 {
    const uint8_t *sol;
    int steps, other_digit, wrong, short_trace;
} k2;

static void count_line(void *ctx, const sdk_node *derived, const char *line)
{
    (void)derived;
    (void)line;
    (*(int *)ctx)++;
}

static int on_k2(void *ctx, const sdk_step *s)
{
    k2 *k = ctx;
    k->steps++;
    int d = 0;
    const char *p = strstr(s->text, "Kraken Fish Type 2: ");
    assert_non_null(p);
    p = strchr(p + 20, ':');
    assert_non_null(p);
    d = atoi(p + 1);
    assert_true(d >= 1 && d <= 9);
    for (int i = 0; i < s->nelim; i++) {
        if (s->elim[i].digit != d) k->other_digit++;
        if (k->sol[s->elim[i].cell] == s->elim[i].digit) k->wrong++;
    }
    /* one chain per base candidate of the cover house and per fin: >= 2 */
    int lines = 0;
    sdk_links_trace_lines(s->link, s->nlink, count_line, &lines);
    if (lines < 2) k->short_trace++;
    return SDK_CONTINUE;
}

/* Kraken type 2 makes eliminations of other digits than the fish's, which
 * type 1 never does; every step shows a chain per premise. */
static void test_kraken_type2(void **state)
{
    (void)state;
    uint8_t(*p)[81];
    int n = tu_read_puzzles("top1465.txt", 30, 1, &p);
    assert_true(n > 0);
    const sdk_technique *t = tu_tech("forcing", "kraken-fish-2");
    k2 k = {0};
    for (int i = 0; i < n; i++) {
        uint8_t sol[2][81];
        if (sdk_solve(p[i], 2, sol, NULL) != 1) continue;
        sdk_grid g;
        sdk_grid_from_values(&g, p[i]);
        walk_basic(&g);
        sdk_ctx ctx;
        memset(&ctx, 0, sizeof ctx);
        sdk_options o;
        memset(&o, 0, sizeof o);
        ctx.self = t;
        ctx.opts = &o;
        ctx.unique = true;
        k.sol = sol[0];
        sdk_sink sink = {on_k2, &k};
        t->find(&ctx, &g, &sink);
    }
    fprintf(stderr, "kraken type 2: %d steps on %d puzzles, %d eliminations of another digit\n",
            k.steps, n, k.other_digit);
    assert_int_equal(k.wrong, 0);
    assert_int_equal(k.short_trace, 0);
    assert_true(k.steps > 0);
    assert_true(k.other_digit > 0);
    free(p);
}

/* Kraken fish with als=1: the chains take ALS links too (links.h, as the
 * forcing chains with als=1). More links only add implications, so on every
 * position the eliminations with als=1 include those without; the test
 * wants some that only ALS links reach (a step with an ALS link), and none
 * wrong. */
typedef struct kals {
    const uint8_t *sol;
    bool elim[SDK_NCAND];
    int steps, with_als, wrong;
} kals;

static int on_kals(void *ctx, const sdk_step *s)
{
    kals *k = ctx;
    k->steps++;
    for (int i = 0; i < s->nelim; i++) {
        k->elim[s->elim[i].cell * 9 + s->elim[i].digit - 1] = true;
        if (k->sol[s->elim[i].cell] == s->elim[i].digit) k->wrong++;
    }
    for (int i = 0; i < s->nlink; i++)
        if (s->link[i].kind == SDK_LINK_ALS) {
            k->with_als++;
            break;
        }
    return SDK_CONTINUE;
}

static void kraken_run(const sdk_technique *t, const char *opts, const sdk_grid *g, kals *k)
{
    sdk_ctx ctx;
    memset(&ctx, 0, sizeof ctx);
    sdk_options o;
    char why[128];
    assert_true(sdk_options_parse(opts, &o, why, sizeof why));
    ctx.self = t;
    ctx.opts = &o;
    ctx.unique = true;
    sdk_sink sink = {on_kals, k};
    t->find(&ctx, g, &sink);
}

static void test_kraken_als(void **state)
{
    (void)state;
    uint8_t(*p)[81];
    const char *e = getenv("KRAKEN_ALS_N"); /* puzzles (default 12) */
    int n = tu_read_puzzles("top1465.txt", e ? atoi(e) : 12, 1, &p);
    assert_true(n > 0);
    static const char *const ids[] = {"kraken-fish", "kraken-fish-2"};
    for (int t = 0; t < 2; t++) {
        const sdk_technique *tech = tu_tech("forcing", ids[t]);
        clock_t t0 = clock();
        int plain = 0, als = 0, more = 0, steps = 0, with_als = 0, wrong = 0;
        for (int i = 0; i < n; i++) {
            uint8_t sol[2][81];
            if (sdk_solve(p[i], 2, sol, NULL) != 1) continue;
            sdk_grid g;
            sdk_grid_from_values(&g, p[i]);
            walk_basic(&g);
            static kals a, b;
            memset(&a, 0, sizeof a);
            memset(&b, 0, sizeof b);
            a.sol = b.sol = sol[0];
            kraken_run(tech, "", &g, &a);
            kraken_run(tech, "als=1", &g, &b);
            for (int c = 0; c < SDK_NCAND; c++) {
                plain += a.elim[c];
                als += b.elim[c];
                more += b.elim[c] && !a.elim[c];
                assert_false(a.elim[c] && !b.elim[c]); /* als=1 keeps all */
            }
            assert_int_equal(a.with_als, 0);
            steps += b.steps;
            with_als += b.with_als;
            wrong += a.wrong + b.wrong;
        }
        fprintf(stderr,
                "%s on %d puzzles: %d eliminations, %d with als=1 (%d more; %d of %d steps "
                "with an ALS link), %.1f s CPU\n",
                ids[t], n, plain, als, more, with_als, steps,
                (double)(clock() - t0) / CLOCKS_PER_SEC);
        assert_int_equal(wrong, 0);
        assert_true(more > 0);
        assert_true(with_als > 0);
    }
    free(p);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_soundness_walk),
        cmocka_unit_test(test_kraken_type2),
        cmocka_unit_test(test_kraken_als),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
