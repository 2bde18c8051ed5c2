/* test_se_static.c - the static links of lib/links_se.c as the SE chaining
 * searches (plugins/se/se_chain.c) read them: sdk_se_static_peers against
 * SE's getOnToOff order made here from the grid, and the graph with cell
 * and house links (sdk_se_scc_init y and x) as the filter of the unary
 * searches.
 *
 * The filter's claims (se_chain.c, unary): the graph with cell and house
 * links has every edge of the graphs with house links alone or cell links
 * alone, so a search with one kind of links that it skips (a forcing chain
 * whose source does not reach its target, a cycle from a true literal
 * alone in its component) finds nothing; and no cycle search (X, Y or XY)
 * finds anything from a true literal in a component of two literals.
 * Checked by running every such search anyway, on hard positions
 * (forum_hardest_1106 after singles, then with wrong candidates dropped a
 * few at a time).
 *
 * sdk_se_static_update: a table carried from position to position by it
 * ends byte for byte as sdk_se_static_init leaves a copy of the table it
 * started from (same positions: a few candidates apart, or far).
 *
 * sdk_se_scc_init finds components among the linked literals only, and
 * numbers each unlinked true literal alone after them: its components,
 * numbers, order and sdk_se_reach's answers are checked against the
 * reachability of the whole graph (every literal, every edge) made here
 * by a search from each literal, for y and x, y alone, x alone. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "sudoku/links_se.h"
#include "testutil.h"
#include "walk.h"

typedef struct counts {
    long positions, cands, peers;
    long cycles_skipped, forcing_skipped;     /* by the graph with cell links too */
    long cycles_skipped_x, forcing_skipped_x; /* by the graph of house links alone */
    long pair_skipped;                        /* cycles from a literal in a component of two */
    long updates, updates_near;               /* sdk_se_static_update, and from a near grid */
    long reach_pairs;                         /* sdk_se_reach against full_reach */
} counts;

/* The table carried by sdk_se_static_update against a full remake. */
static void check_update(const sdk_grid *g, counts *c)
{
    static sdk_se_static carried, full;
    static bool started;
    if (!started) {
        memset(&carried, 0, sizeof carried);
        sdk_se_static_init(&carried, g);
        started = true;
        return;
    }
    int ndiff = 0;
    for (int cell = 0; cell < 81; cell++)
        ndiff += sdk_mask_count(carried.cand[cell] ^ g->cand[cell]);
    memcpy(&full, &carried, sizeof full);
    sdk_se_static_init(&full, g);
    sdk_se_static_update(&carried, g);
    assert_memory_equal(&carried, &full, sizeof full);
    c->updates++;
    c->updates_near += ndiff > 0 && ndiff <= 12;
}

/* SE's getOnToOff peers of cand on g, with their causes: the box's cells in
 * increasing order, then the row's outside the box, then the column's. */
static int se_peers(const sdk_grid *g, int cand, int *peer, int *cause)
{
    int cell = cand / 9, d = cand % 9 + 1, n = 0;
    static const int kinds[3] = {SDK_BOX, SDK_ROW, SDK_COL};
    static const int causes[3] = {SDK_SE_BLOCK, SDK_SE_ROW, SDK_SE_COL};
    int box = sdk_cell_house[cell][SDK_BOX];
    for (int k = 0; k < 3; k++) {
        int h = sdk_cell_house[cell][kinds[k]];
        for (int x = 0; x < 81; x++) {
            if (x == cell || !sdk_bb_has(sdk_house_bb[h], x)) continue;
            if (k > 0 && sdk_bb_has(sdk_house_bb[box], x)) continue;
            if (!(g->cand[x] & sdk_digit_bit(d))) continue;
            peer[n] = x * 9 + d - 1;
            cause[n++] = causes[k];
        }
    }
    return n;
}

static void check_peers(const sdk_se_static *t, const sdk_grid *g, int cand, counts *c)
{
    int peer[20], cause[20], n = se_peers(g, cand, peer, cause), m = 0;
    sdk_bb pb[3];
    sdk_se_static_peers(t, cand, pb);
    static const int causes[3] = {SDK_SE_BLOCK, SDK_SE_ROW, SDK_SE_COL};
    for (int k = 0; k < 3; k++)
        SDK_BB_FOREACH(x, pb[k]) {
            assert_true(m < n);
            assert_int_equal(peer[m], x * 9 + cand % 9);
            assert_int_equal(cause[m], causes[k]);
            m++;
        }
    assert_int_equal(m, n);
    c->peers += n;
}

/* The literals literal `lit` reaches on g, itself included, by the edges
 * of the whole graph: a true literal makes false its cell's other
 * candidates (y) and its peers with the digit; a false one makes true the
 * other candidate of its cell when it has two (y), the other place of
 * its digit in a house with two (x). */
static void full_reach(const sdk_grid *g, int lit, bool y, bool x, uint64_t out[23])
{
    int queue[1458], head = 0, tail = 0;
    memset(out, 0, sizeof(uint64_t) * 23);
    out[lit >> 6] |= 1ull << (lit & 63);
    queue[tail++] = lit;
    while (head < tail) {
        int v = queue[head++], cand = v >> 1, cell = cand / 9, d = cand % 9 + 1;
        int next[32], n = 0;
        if (v & 1) {
            for (int e = 1; y && e <= 9; e++)
                if (e != d && (g->cand[cell] & sdk_digit_bit(e)))
                    next[n++] = (cell * 9 + e - 1) * 2;
            for (int p = 0; p < 81; p++)
                if (sdk_sees(cell, p) && (g->cand[p] & sdk_digit_bit(d)))
                    next[n++] = (p * 9 + d - 1) * 2;
        } else {
            if (y && sdk_mask_count(g->cand[cell]) == 2)
                next[n++] =
                    (cell * 9 + sdk_mask_first(g->cand[cell] & ~sdk_digit_bit(d)) - 1) * 2 + 1;
            for (int k = 0; x && k < 3; k++) {
                int h = sdk_cell_house[cell][k], other = -1, places = 0;
                for (int p = 0; p < 81; p++)
                    if (sdk_bb_has(sdk_house_bb[h], p) && (g->cand[p] & sdk_digit_bit(d))) {
                        places++;
                        if (p != cell) other = p;
                    }
                if (places == 2) next[n++] = (other * 9 + d - 1) * 2 + 1;
            }
        }
        for (int i = 0; i < n; i++) {
            int w = next[i];
            if ((out[w >> 6] >> (w & 63)) & 1) continue;
            out[w >> 6] |= 1ull << (w & 63);
            queue[tail++] = w;
        }
    }
}

static bool has_lit(const uint64_t *set, int lit)
{
    return (set[lit >> 6] >> (lit & 63)) & 1;
}

/* What sdk_se_reach answers: whether `from` reaches `to` in the whole
 * graph, but false from a true literal with no edge in r's graph to
 * another literal (it reaches only unlinked false literals, which lead
 * nowhere; its callers ask a literal about its own opposite). */
static bool expect_reach(const sdk_se_scc *r, const uint64_t (*reach)[23], int from, int to)
{
    int v = r->node[from];
    if (from != to && r->first[v + 1] == r->first[v]) return false;
    return has_lit(reach[from], to);
}

/* sdk_se_scc_init(y, x) on g against full_reach: the literals in the
 * graph are the true ones and the false ones of linked candidates; two
 * share a component exactly when each reaches the other; one reaching
 * another in a different component has the larger number; the sizes and
 * the order are those components; and sdk_se_reach answers as
 * expect_reach for a third of the pairs of a source in the graph and a
 * literal of g. */
static void check_scc(const sdk_grid *g, const sdk_se_static *t, bool y, bool x, long *pairs)
{
    static sdk_se_scc r;
    static uint64_t reach[1458][23];
    sdk_se_scc_init(&r, t, y, x);
    int lits[1458], nl = 0;
    for (int lit = 0; lit < 1458; lit++) {
        int cand = lit >> 1;
        bool present = !g->value[cand / 9] && (g->cand[cand / 9] & sdk_digit_bit(cand % 9 + 1));
        if (!present) {
            assert_int_equal(r.comp[lit], -1);
            continue;
        }
        bool linked = (y && sdk_mask_count(g->cand[cand / 9]) == 2) ||
                      (x && ((t->conj[cand][0] & t->conj[cand][1] & t->conj[cand][2]) >= 0));
        assert_int_equal(r.linked[cand], linked);
        if (!(lit & 1) && !linked) {
            assert_int_equal(r.comp[lit], -1);
            continue;
        }
        assert_true(r.comp[lit] >= 0 && r.comp[lit] < r.ncomp);
        lits[nl++] = lit;
        full_reach(g, lit, y, x, reach[lit]);
    }
    assert_int_equal(nl, r.nnode);
    int count[1458] = {0};
    for (int i = 0; i < nl; i++) {
        int a = lits[i];
        count[r.comp[a]]++;
        for (int j = 0; j < nl; j++) {
            int b = lits[j];
            bool ab = has_lit(reach[a], b), ba = has_lit(reach[b], a);
            assert_int_equal(r.comp[a] == r.comp[b], ab && ba);
            if (ab && r.comp[a] != r.comp[b]) assert_true(r.comp[a] > r.comp[b]);
        }
    }
    for (int k = 0; k < r.ncomp; k++) {
        assert_int_equal(r.size[k], count[k]);
        assert_true(r.ostart[k] + r.size[k] <= r.norder);
        for (int i = r.ostart[k]; i < r.ostart[k] + r.size[k]; i++)
            assert_int_equal(r.comp[r.order[i]], k);
    }
    assert_int_equal(r.norder, nl);
    /* sdk_se_reach, 1458 questions at a time */
    static int from[1458], to[1458];
    static bool out[1458];
    int nq = 0;
    for (int i = 0; i < nl; i++)
        for (int to_lit = 0; to_lit < 1458; to_lit++) {
            int cand = to_lit >> 1;
            if (g->value[cand / 9] || !(g->cand[cand / 9] & sdk_digit_bit(cand % 9 + 1))) continue;
            /* a sample of the pairs: each source, a third of the targets */
            if ((to_lit + i) % 3) continue;
            from[nq] = lits[i];
            to[nq++] = to_lit;
            if (nq == 1458 || (i == nl - 1 && to_lit >= 1456)) {
                sdk_se_reach(&r, from, to, nq, out);
                for (int q = 0; q < nq; q++)
                    assert_int_equal(out[q], expect_reach(&r, reach, from[q], to[q]));
                *pairs += nq;
                nq = 0;
            }
        }
    if (nq) {
        sdk_se_reach(&r, from, to, nq, out);
        for (int q = 0; q < nq; q++)
            assert_int_equal(out[q], expect_reach(&r, reach, from[q], to[q]));
        *pairs += nq;
    }
}

static void check_position(const sdk_grid *g, sdk_se_arena *a, counts *c)
{
    static sdk_se_static t;
    static sdk_se_scc xy, xo;
    check_update(g, c);
    sdk_se_static_init(&t, g);
    sdk_se_scc_init(&xy, &t, true, true);
    sdk_se_scc_init(&xo, &t, false, true);
    if (c->positions % 4 == 0) {
        check_scc(g, &t, true, true, &c->reach_pairs);
        check_scc(g, &t, true, false, &c->reach_pairs);
        check_scc(g, &t, false, true, &c->reach_pairs);
    }
    c->positions++;
    int from[1458], to[1458], nq = 0;
    for (int cand = 0; cand < 729; cand++) {
        if (g->value[cand / 9] || sdk_mask_count(g->cand[cand / 9]) < 2) continue;
        if (!(g->cand[cand / 9] & sdk_digit_bit(cand % 9 + 1))) continue;
        from[nq] = cand * 2 + 1, to[nq++] = cand * 2;
        from[nq] = cand * 2, to[nq++] = cand * 2 + 1;
    }
    bool rxy[1458], rxo[1458];
    sdk_se_reach(&xy, from, to, nq, rxy);
    sdk_se_reach(&xo, from, to, nq, rxo);
    int out[512];
    for (int i = 0; i < nq; i += 2) {
        int cand = from[i] >> 1;
        c->cands++;
        check_peers(&t, g, cand, c);
        a->n = a->npar = 0;
        int cyc = sdk_se_cycles(a, &t, cand, false, true, out, 512);
        if (xy.size[xy.comp[cand * 2 + 1]] <= 1) {
            c->cycles_skipped++;
            assert_int_equal(cyc, 0);
        }
        if (xo.size[xo.comp[cand * 2 + 1]] <= 1) c->cycles_skipped_x++;
        /* a component of two literals holds no cycle of four or more */
        if (xy.size[xy.comp[cand * 2 + 1]] == 2) {
            c->pair_skipped++;
            assert_int_equal(cyc, 0);
            if (sdk_mask_count(g->cand[cand / 9]) == 2)
                assert_int_equal(sdk_se_cycles(a, &t, cand, true, false, out, 512), 0);
            assert_int_equal(sdk_se_cycles(a, &t, cand, true, true, out, 512), 0);
        }
        for (int on = 1; on >= 0; on--) {
            int j = i + (on ? 0 : 1);
            int m = sdk_se_forcing(a, &t, cand, on, false, out, 32);
            if (!rxy[j]) {
                c->forcing_skipped++;
                assert_int_equal(m, 0);
                assert_false(rxo[j]); /* a subgraph reaches less */
            }
            if (!rxo[j]) c->forcing_skipped_x++;
        }
    }
}

typedef struct visit_ctx {
    sdk_se_arena *a;
    counts *c;
} visit_ctx;

static void visit(const sdk_grid *before, const sdk_grid *after, void *ctx)
{
    (void)after;
    visit_ctx *v = ctx;
    check_position(before, v->a, v->c);
}

static void test_static_links(void **state)
{
    (void)state;
    uint8_t(*puz)[81] = NULL;
    int n = tu_read_puzzles("forum_hardest_1106.txt", 60, 7, &puz);
    if (n <= 0) skip();
    sdk_se_arena A;
    memset(&A, 0, sizeof A);
    counts c = {0};
    uint32_t seed = 1106;
    visit_ctx v = {&A, &c};
    const walk_hard_pace pace = {.rounds = 8, .tries_min = 3, .tries_max = 3};
    assert_true(walk_hard_rounds((const uint8_t(*)[81])puz, n, &pace, &seed, visit, &v));
    sdk_se_arena_free(&A);
    free(puz);
    print_message("positions %ld, candidates %ld, peers %ld; skipped with cell links too: "
                  "cycles %ld, forcing %ld (house links alone: %ld, %ld); in a component of "
                  "two: %ld; updates %ld (%ld near); reach pairs %ld\n",
                  c.positions, c.cands, c.peers, c.cycles_skipped, c.forcing_skipped,
                  c.cycles_skipped_x, c.forcing_skipped_x, c.pair_skipped, c.updates,
                  c.updates_near, c.reach_pairs);
    assert_true(c.positions >= 100);
    assert_true(c.cycles_skipped > 100 && c.forcing_skipped > 100);
    assert_true(c.updates_near > 50);
    assert_true(c.reach_pairs > 100000);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_static_links),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
