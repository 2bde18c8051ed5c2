/* test_links.c - the link model (links.h): static graph and shortest chains,
 * the dynamic search and the `trace` output on the three puzzles of the GNPX
 * "super links" seed (002): the consequences the seed lists for r2c2=1 and
 * r1c1=2 must all be derived, and r1c6=8 must be shown false. */
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "walk.h"
#include "sudoku/format.h"
#include "sudoku/links.h"
#include "sudoku/solver.h"

/* Naive basic solving (singles, locked candidates, naked/hidden subsets) to
 * reach the position the seed's pictures show. */
static bool subsets(sdk_grid *g)
{
    bool ch = false;
    for (int h = 0; h < 27; h++) {
        int cells[9], n = 0;
        for (int i = 0; i < 9; i++) {
            int c = sdk_house_cell[h][i];
            if (!g->value[c]) cells[n++] = c;
        }
        for (int k = 2; k <= 4 && k < n; k++) {
            for (int mask = 0; mask < (1 << n); mask++) {
                if (__builtin_popcount((unsigned)mask) != k) continue;
                unsigned u = 0;
                for (int i = 0; i < n; i++)
                    if (mask >> i & 1) u |= g->cand[cells[i]];
                if (sdk_mask_count(u) != k) continue;
                for (int i = 0; i < n; i++)
                    if (!(mask >> i & 1))
                        SDK_MASK_FOREACH(dd, u) ch |= sdk_grid_eliminate(g, cells[i], dd);
            }
            for (int dm = 0; dm < 512; dm++) {
                if (__builtin_popcount((unsigned)dm) != k) continue;
                int where = 0;
                bool ok = true;
                SDK_MASK_FOREACH(dd, (unsigned)dm) {
                    int w = 0;
                    for (int i = 0; i < n; i++)
                        if (sdk_grid_has(g, cells[i], dd)) w |= 1 << i;
                    if (!w) ok = false;
                    where |= w;
                }
                if (!ok || __builtin_popcount((unsigned)where) != k) continue;
                for (int i = 0; i < n; i++)
                    if (where >> i & 1)
                        SDK_MASK_FOREACH(dd, g->cand[cells[i]] & ~(unsigned)dm)
                            ch |= sdk_grid_eliminate(g, cells[i], dd);
            }
        }
    }
    return ch;
}

/* Singles and locked candidates (walk_basic) and subsets until none applies. */
static void parse(const char *p, sdk_grid *g, bool basic)
{
    sdk_error e;
    assert_true(sdk_parse(p, g, &e));
    if (!basic) return;
    do {
        walk_basic(g);
    } while (subsets(g));
}

typedef struct lines {
    int n;
    char lit[SDK_NCAND][8]; /* "r2c6/+8" */
    char summary[8192];
} lines;

static void grab(void *ctx, int lit, const char *line)
{
    lines *l = ctx;
    if (lit < 0) {
        snprintf(l->summary, sizeof l->summary, "%s", line);
        return;
    }
    sscanf(line, "%7s", l->lit[l->n++]);
    if (getenv("LINKS_VERBOSE")) printf("%s\n", line);
}

static bool has(const lines *l, const char *lit)
{
    for (int i = 0; i < l->n; i++)
        if (!strcmp(l->lit[i], lit)) return true;
    return false;
}

static const char *P1 =
    ".4...1.286..5....7..7.46...7.3..98..9.......2..12..3.9...95.1..1....2..559.1...7.";
static const char *P2 =
    "..9..154..5..9.....6.5..92.8..3..1.41..4.6..95.4..8..2.42..9.6.....6..1..187..2..";
static const char *P3 =
    ".9..4..6.4..15...2..6..91....4....7.36.....15.8....3....82..4..9...34..1.4..8..3.";

static void test_seed_trace_1(void **state)
{
    (void)state;
    sdk_grid g;
    parse(P1, &g, true);
    /* the seed's position: r2c8 {1,3}, r2c6 {3,8} */
    assert_int_equal(g.cand[1 * 9 + 7], 0x5);
    assert_int_equal(g.cand[1 * 9 + 5], 0x84);
    static lines l;
    memset(&l, 0, sizeof l);
    bool bad = sdk_trace_assumption(&g, 1 * 9 + 1, 1, true, SDK_DYN_ALS, grab, &l);
    assert_false(bad);
    static const char *want[] = {"r2c6/-3", "r2c6/+8", "r2c8/-1", "r2c8/+3", "r3c2/-1", "r3c2/+8",
                                 "r3c4/+3", "r3c4/-8", "r3c9/+1", "r3c9/-3", "r4c5/+1", "r4c5/-6",
                                 "r4c9/-1", "r5c4/-3", "r5c5/-1", "r5c6/-8", "r5c8/+1", "r5c8/-4",
                                 "r5c8/-6", "r6c6/-8", "r7c6/-8", "r7c8/-3", "r8c4/-3", "r8c8/-3",
                                 "r9c3/-4", "r9c5/-3", "r9c6/-8"};
    for (size_t i = 0; i < sizeof want / sizeof want[0]; i++) {
        if (!has(&l, want[i])) fail_msg("r2c2=1 does not give %s", want[i]);
    }
    assert_non_null(strstr(l.summary, "no contradiction"));
}

static void test_seed_trace_2(void **state)
{
    (void)state;
    sdk_grid g;
    parse(P2, &g, true);
    static lines l;
    memset(&l, 0, sizeof l);
    sdk_trace_assumption(&g, 0, 2, true, SDK_DYN_ALS, grab, &l);
    static const char *want[] = {
        "r1c4/-2", "r1c4/+6", "r1c5/-2", "r1c9/-6", "r2c1/-2", "r2c3/+1", "r2c3/-3", "r2c3/-7",
        "r2c4/-6", "r2c4/-8", "r2c6/-2", "r2c9/-1", "r2c9/-3", "r2c9/+6", "r2c9/-7", "r2c9/-8",
        "r3c3/-1", "r3c5/-3", "r3c5/-4", "r3c5/-7", "r3c5/+8", "r3c9/+1", "r3c9/-3", "r3c9/-7",
        "r3c9/-8", "r4c5/+2", "r4c5/-5", "r4c5/-7", "r4c6/-2", "r7c5/-3", "r7c5/-8", "r7c7/-8",
        "r7c9/-3", "r7c9/-7", "r8c4/-2", "r8c4/+8", "r8c6/+2", "r8c6/-3", "r8c9/-8", "r9c5/-3",
        "r9c5/+4", "r9c5/-5", "r9c6/-4"};
    for (size_t i = 0; i < sizeof want / sizeof want[0]; i++)
        if (!has(&l, want[i])) fail_msg("r1c1=2 does not give %s", want[i]);
}

static void test_seed_trace_3(void **state)
{
    (void)state;
    sdk_grid g;
    parse(P3, &g, false);
    static lines l;
    memset(&l, 0, sizeof l);
    assert_true(sdk_trace_assumption(&g, 5, 8, true, SDK_DYN_ALS, grab, &l));
    assert_non_null(strstr(l.summary, "r1c6/#8 is false"));
    memset(&l, 0, sizeof l);
    assert_true(sdk_trace_assumption(&g, 5, 8, true, 0, grab, &l));
    /* a true candidate is never refuted */
    uint8_t v[81], sol[2][81];
    for (int i = 0; i < 81; i++) v[i] = P3[i] == '.' ? 0 : (uint8_t)(P3[i] - '0');
    assert_int_equal(sdk_solve(v, 2, sol, NULL), 1);
    for (int c = 0; c < 81; c++) {
        if (g.value[c]) continue;
        memset(&l, 0, sizeof l);
        assert_false(sdk_trace_assumption(&g, c, sol[0][c], true, SDK_DYN_ALS, grab, &l));
    }
}

/* The static graph: a bivalue cell is a strong link, a chain is found and
 * written in Eureka notation. */
static void test_static_graph(void **state)
{
    (void)state;
    sdk_grid g;
    parse(P1, &g, true);
    sdk_links L;
    assert_true(sdk_links_build(&g, SDK_LINKS_GROUPS | SDK_LINKS_ALS, &L));
    assert_true(L.nnode > SDK_NCAND);
    sdk_lsearch S;
    assert_true(sdk_lsearch_init(&S, &L));
    int start = SDK_LIT(SDK_CAND_NODE(1 * 9 + 1, 1), 1); /* r2c2=1 */
    sdk_links_search(&L, start, &S);
    int target = SDK_LIT(SDK_CAND_NODE(1 * 9 + 7, 3), 1); /* r2c8=3 */
    assert_int_equal(S.dist[target], 2);
    int ch[16];
    int n = sdk_links_path(&S, target, ch, 16);
    assert_int_equal(n, 3);
    char buf[256];
    sdk_links_eureka(&L, ch, n, buf, sizeof buf);
    assert_string_equal(buf, "(1)r2c2-(1)r2c8=(3)r2c8");
    /* soundness of the static graph: from every true candidate nothing true is
     * implied false */
    uint8_t v[81], sol[2][81];
    for (int i = 0; i < 81; i++) v[i] = g.value[i];
    assert_int_equal(sdk_solve_grid(&g, 2, sol, NULL), 1);
    for (int c = 0; c < 81; c++) {
        if (g.value[c]) continue;
        sdk_links_search(&L, SDK_LIT(SDK_CAND_NODE(c, sol[0][c]), 1), &S);
        for (int k = 0; k < SDK_NCAND; k++) {
            if (g.value[k / 9]) continue;
            bool truth = sol[0][k / 9] == k % 9 + 1;
            if (S.dist[SDK_LIT(k, !truth)] != INT_MAX)
                fail_msg("true r%dc%d=%d implies a wrong value for %d", c / 9 + 1, c % 9 + 1,
                         sol[0][c], k);
        }
    }
    (void)v;
    assert_int_equal(sdk_chain_length_tenths(4), 0);
    assert_int_equal(sdk_chain_length_tenths(5), 1);
    assert_int_equal(sdk_chain_length_tenths(7), 2);
    assert_int_equal(sdk_chain_length_tenths(13), 4);
    sdk_lsearch_free(&S);
    sdk_links_free(&L);
}

/* A step holding the dynamic chain to lit (as the forcing plugin builds it). */
static void dyn_step(const sdk_dyn *d, int lit, sdk_step *st)
{
    int ch[SDK_NCAND];
    int m = sdk_dyn_chain(d, lit, ch, SDK_NCAND);
    assert_true(m > 1);
    for (int i = 1; i < m; i++) {
        sdk_link l;
        memset(&l, 0, sizeof l);
        int f = ch[i - 1] >> 1, k = ch[i] >> 1;
        l.from =
            (sdk_node){(uint8_t)(f % 9 + 1), (uint8_t)(ch[i - 1] & 1), 1, {(uint8_t)(f / 9), 0, 0}};
        l.to = (sdk_node){(uint8_t)(k % 9 + 1), (uint8_t)(ch[i] & 1), 1, {(uint8_t)(k / 9), 0, 0}};
        l.strong = d->why[k].strong;
        l.kind = d->why[k].kind;
        if (l.kind == SDK_LINK_ALS || l.kind == SDK_LINK_GROUP)
            SDK_BB_FOREACH(c, d->why[k].als) {
                if (l.nals < 9) l.als[l.nals++] = (uint8_t)c;
            }
        sdk_step_link(st, &l);
    }
}

/* sdk_step_trace_text writes a step's chains as the trace does. */
static void test_step_trace_text(void **state)
{
    (void)state;
    sdk_grid g;
    parse(P1, &g, true);
    static sdk_dyn d;
    sdk_als_list als = {0};
    sdk_als_opts o = {2, 8};
    assert_true(sdk_als_collect(&g, &o, &als) >= 0);
    assert_false(sdk_dyn_run(&g, 1 * 9 + 1, 1, true, SDK_DYN_ALS, &als, &d));
    static sdk_step st;
    char want[8192], got[8192];
    int checked = 0;
    for (int i = 1; i < d.n; i++) {
        sdk_step_init(&st, NULL);
        dyn_step(&d, d.order[i], &st);
        sdk_dyn_explain(&d, d.order[i], want, sizeof want);
        sdk_step_trace_text(&st, got, sizeof got);
        assert_string_equal(got, want);
        checked++;
    }
    assert_true(checked >= 27);
    /* the seed's line for r2c6=8, through the ALS r2c68 */
    sdk_step_init(&st, NULL);
    sdk_link l1 = {{1, 1, 1, {1 * 9 + 1}}, {1, 0, 1, {1 * 9 + 7}}, 0, SDK_LINK_HOUSE, 0, {0}};
    sdk_link l2 = {{1, 0, 1, {1 * 9 + 7}}, {8, 1, 1, {1 * 9 + 5}}, 1, SDK_LINK_ALS, 2, {14, 16}};
    sdk_step_link(&st, &l1);
    sdk_step_link(&st, &l2);
    assert_string_equal(sdk_step_trace_text(&st, got, sizeof got),
                        "r2c6/+8 [W r2c2/+1 -> r2c8/-1] => [S (ALS:r2c68) r2c8/-1 -> r2c6/+8]");
    /* two chains in one step: two lines */
    sdk_step_link(&st, &l1);
    sdk_step_trace_text(&st, got, sizeof got);
    assert_non_null(strstr(got, "\nr2c8/-1 [W r2c2/+1 -> r2c8/-1]"));
    char small[16];
    sdk_step_trace_text(&st, small, sizeof small); /* truncation stays a string */
    assert_int_equal(strlen(small), 15);

    /* a static chain, and one through an ALS node (folded into one link) */
    sdk_links L;
    assert_true(sdk_links_build(&g, SDK_LINKS_GROUPS | SDK_LINKS_ALS, &L));
    sdk_lsearch S;
    assert_true(sdk_lsearch_init(&S, &L));
    int start = SDK_LIT(SDK_CAND_NODE(1 * 9 + 1, 1), 1);
    sdk_links_search(&L, start, &S);
    int ch[64];
    int n = sdk_links_path(&S, SDK_LIT(SDK_CAND_NODE(1 * 9 + 7, 3), 1), ch, 64);
    sdk_step_init(&st, NULL);
    sdk_links_to_step(&L, ch, n, &st);
    assert_string_equal(sdk_step_trace_text(&st, got, sizeof got),
                        "r2c8/+3 [W r2c2/+1 -> r2c8/-1] => [S r2c8/-1 -> r2c8/+3]");
    int folded = 0;
    for (int k = 0; k < SDK_NCAND && folded < 5; k++) {
        for (int on = 0; on < 2; on++) {
            int lit = SDK_LIT(k, on);
            n = sdk_links_path(&S, lit, ch, 64);
            if (n < 3) continue;
            int nals = 0;
            for (int i = 0; i < n; i++) nals += L.node[SDK_LIT_NODE(ch[i])].kind == SDK_LN_ALS;
            if (!nals || L.node[SDK_LIT_NODE(ch[n - 1])].kind == SDK_LN_ALS) continue;
            sdk_step_init(&st, NULL);
            sdk_links_to_step(&L, ch, n, &st);
            sdk_step_trace_text(&st, got, sizeof got);
            int brackets = 0;
            for (const char *q = got; *q; q++) brackets += *q == '[';
            if (brackets != n - 1 - nals) fail_msg("%d links, %d ALS nodes: %s", n - 1, nals, got);
            assert_non_null(strstr(got, "(ALS:"));
            if (getenv("LINKS_VERBOSE")) printf("static: %s\n", got);
            assert_null(strchr(got, '\n'));
            folded++;
        }
    }
    assert_true(folded > 0);
    sdk_lsearch_free(&S);
    sdk_links_free(&L);
    sdk_als_list_free(&als);
}

static void test_node_parse(void **state)
{
    (void)state;
    static const char *good[] = {"r2c2/+1", "r2c46/-1", "r46c2/+9", "r1c1,r2c3/-1", "r9c789/+5"};
    for (size_t i = 0; i < sizeof good / sizeof *good; i++) {
        sdk_node nd;
        char buf[48];
        if (!sdk_node_parse(good[i], &nd)) fail_msg("'%s' not parsed", good[i]);
        assert_string_equal(sdk_node_text(&nd, buf, sizeof buf), good[i]);
    }
    sdk_node nd;
    assert_true(sdk_node_parse("r46c2/+9", &nd));
    assert_int_equal(nd.ncell, 2);
    assert_int_equal(nd.cell[0], 3 * 9 + 1);
    assert_int_equal(nd.cell[1], 5 * 9 + 1);
    assert_int_equal(nd.on, 1);
    assert_int_equal(nd.digit, 9);
    static const char *bad[] = {"",         "r2c/+1",  "r2c2/1",   "r2c2/+0",    "r12c34/+1",
                                "r2c2/+1x", "r0c1/+1", "r1c1,/+1", "r1c1234/+1", "c1r1/+1"};
    for (size_t i = 0; i < sizeof bad / sizeof *bad; i++)
        if (sdk_node_parse(bad[i], &nd)) fail_msg("'%s' parsed", bad[i]);
    assert_int_equal(sdk_link_kind_parse("als"), SDK_LINK_ALS);
    assert_int_equal(sdk_link_kind_parse("house"), SDK_LINK_HOUSE);
    assert_int_equal(sdk_link_kind_parse("nope"), -1);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_static_graph),    cmocka_unit_test(test_seed_trace_1),
        cmocka_unit_test(test_seed_trace_2),    cmocka_unit_test(test_seed_trace_3),
        cmocka_unit_test(test_step_trace_text), cmocka_unit_test(test_node_parse),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
