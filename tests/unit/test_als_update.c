/* test_als_update.c - the ALS plugin (plugins/als) reuses its work from one
 * position to the next, per thread, and this test checks that the reuse is
 * exact on real paths:
 *   - the RCC graph of a position that descends from the last one is not
 *     built but updated from the last graph (rcc_update: kept sets' rows
 *     mapped over, only pairs with a changed set tested). At every position,
 *     for both overlap options, it must equal sdk_rcc_graph_build on the same
 *     list, edge by edge and row by row; and that one (which tests only
 *     the sets holding a cell of each set's all_peers) must equal the
 *     graph of every pair tested with sdk_als_rcc.
 *   - after a chain search that found nothing, the next search on a
 *     descendant grid only walks chains that start or end at a changed set
 *     or take a link the base did not have (chain_since_of). At every
 *     position its instances must be those of a search from scratch: same
 *     chains, same RCs and eliminations, in the same order (so the same
 *     steps, the first one included). The paths must also hold changed
 *     sets that kept links of the base (the chains through them that the
 *     reuse skips are checked by the comparison).
 *   - the ALS list of such a position is updated too (only houses with a
 *     changed cell walked again): it must equal sdk_als_collect's.
 *   - the cruder bounds of the chain search's nodes (chain_nodes_fit_quick,
 *     chain_set_bound) are never below chain_node_bound, which equals the
 *     bound computed with a binary search per edge (ref_node_bound).
 *   - a counted chain search that ended within its budget leaves its node
 *     count with its graph (count_memo); a later position with the same
 *     graph is not counted when that count fits. At every position, with
 *     two budgets (the default and a small one, where searches are counted
 *     and cut), the search as find_chains runs it must give the instances
 *     of a search from scratch (no base, no memo), and a known count must
 *     be the count of the search from scratch.
 *   - ALS-XZ, ALS-XY-Wing and Death Blossom after a search of theirs that
 *     found nothing search only patterns with a changed set or stem
 *     (miss_dirty): at every position, the same instances in the same
 *     order as a search from scratch.
 * The paths: the standard profile's steps on a few of the hardest puzzles
 * (the grid before each step, as the engine asks), and random removals of
 * false candidates with singles placed now and then (walk_hard_rounds:
 * small and large changes, cell values too). ALS_UPDATE_PUZZLES=N walks N puzzles of the
 * profile (default 1), ALS_UPDATE_MAX_RC=N sets the chain links (5). The
 * plugin source is compiled in, so its internal functions are called
 * directly, as find() calls them. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "testutil.h"
#include "walk.h"
#include "sudoku/als.h"
#include "sudoku/format.h"
#include "sudoku/solver.h"

#include "../../plugins/als/als_plugin.c"

/* max-length 6 (the default is 7): the searches from scratch on the first
 * positions of the hardest puzzles cost seconds at 7; the reuse code is the
 * same for every length */
static int chain_max_rc = 5;
/* puzzles of the standard profile path (ALS_UPDATE_PUZZLES: more) */
static int profile_puzzles = 1;
#define CHAIN_MAX_NODES 100000000L
/* a budget that counts and cuts searches on these paths (ALS_UPDATE_BUDGET) */
static long small_budget = 200000;

typedef struct stats {
    long positions;
    long updated;   /* graphs made by rcc_update */
    long reused;    /* chain searches that walked only the changed sets' chains */
    long chains;    /* chain instances found (and compared) */
    long with_find; /* positions where the chain search found some */
    long kept;      /* reused searches with a changed set that kept a base link */
    long listed;    /* ALS lists updated from the last one */
    long kind_reused[3], kind_found[3]; /* XZ, XY, DB searches after a miss; with finds */
    long memo_known; /* chain searches whose graph's count was known (count_memo) */
    long memo_fit;   /* ... and fit the budget (not counted, their bound was over) */
    long memo_edge;  /* searches not counted by the memo with the budget at their count */
} stats;

/* chain_node_bound as first written: the edge back found by a binary search
 * in the other set's row. */
static long ref_node_bound(const sdk_rcc_graph *gr, int max_rc)
{
    const long cap = 1L << 50;
    int n = gr->nals, ne = gr->n;
    long *cur = sdk_xmalloc(sizeof *cur * (size_t)(ne + 1));
    long *next = sdk_xmalloc(sizeof *next * (size_t)(ne + 1));
    long *sum = sdk_xmalloc(sizeof *sum * (size_t)(n + 1));
    long *sum1 = sdk_xmalloc(sizeof *sum1 * (size_t)(9 * n + 1));
    int *rev = sdk_xmalloc(sizeof *rev * (size_t)(ne + 1));
    for (int k = 0; k < n; k++)
        for (int i = gr->first[k]; i < gr->first[k + 1]; i++) {
            int b = gr->edge[i].b, lo = gr->first[b], hi = gr->first[b + 1];
            while (lo < hi) {
                int mid = (lo + hi) / 2;
                if (gr->edge[mid].b < k)
                    lo = mid + 1;
                else
                    hi = mid;
            }
            assert_true(lo < gr->first[b + 1] && gr->edge[lo].b == k);
            assert_int_equal(gr->edge[lo].digits, gr->edge[i].digits);
            rev[i] = lo;
            cur[i] = gr->first[b + 1] - gr->first[b];
        }
    for (int j = 1; j <= max_rc - 2; j++) {
        for (int k = 0; k < n; k++) {
            sum[k] = 0;
            for (int x = 0; x < 9; x++) sum1[k * 9 + x] = 0;
            for (int i = gr->first[k]; i < gr->first[k + 1]; i++) {
                sum[k] += cur[i];
                if (sdk_mask_count(gr->edge[i].digits) == 1)
                    sum1[k * 9 + __builtin_ctz(gr->edge[i].digits)] += cur[i];
            }
        }
        for (int i = 0; i < ne; i++) {
            const sdk_rcc *e = &gr->edge[i];
            long t = gr->first[e->b + 1] - gr->first[e->b] + sum[e->b];
            t -= sdk_mask_count(e->digits) == 1 ? sum1[e->b * 9 + __builtin_ctz(e->digits)]
                                                : cur[rev[i]];
            next[i] = t < cap ? t : cap;
        }
        long *x = cur;
        cur = next;
        next = x;
    }
    long total = ne;
    for (int i = 0; i < ne && total < cap; i++)
        total += (sdk_mask_count(gr->edge[i].digits) >= 2 ? 2 : 1) * cur[i];
    free(cur);
    free(next);
    free(sum);
    free(sum1);
    free(rev);
    return total < cap ? total : cap;
}

static void assert_same_graph(const sdk_rcc_graph *got, const sdk_rcc_graph *want, long pos, int ov)
{
    if (got->nals != want->nals || got->n != want->n)
        fail_msg("position %ld overlap=%d: updated graph has %d sets %d edges, built %d sets %d "
                 "edges",
                 pos, ov, got->nals, got->n, want->nals, want->n);
    for (int k = 0; k <= want->nals; k++)
        if (got->first[k] != want->first[k])
            fail_msg("position %ld overlap=%d: row %d starts at %d, built at %d", pos, ov, k,
                     got->first[k], want->first[k]);
    for (int e = 0; e < want->n; e++) {
        const sdk_rcc *a = &got->edge[e], *b = &want->edge[e];
        if (a->a != b->a || a->b != b->b || a->digits != b->digits)
            fail_msg("position %ld overlap=%d: edge %d is %d-%d/%x, built %d-%d/%x", pos, ov, e,
                     a->a, a->b, a->digits, b->a, b->b, b->digits);
    }
}

/* The graph of l from every ordered pair (the definition). */
static void every_pair_graph(const sdk_als_list *l, bool overlap, sdk_rcc_graph *out)
{
    memset(out, 0, sizeof *out);
    out->nals = l->n;
    out->first = calloc((size_t)l->n + 1, sizeof *out->first);
    assert_non_null(out->first);
    for (int i = 0; i < l->n; i++) {
        out->first[i] = out->n;
        for (int j = 0; j < l->n; j++) {
            unsigned r = j == i ? 0 : sdk_als_rcc(&l->als[i], &l->als[j], overlap);
            if (r) rcc_push(out, i, j, r);
        }
    }
    out->first[l->n] = out->n;
}

static void assert_same_list(const sdk_als_list *got, const sdk_als_list *want, long pos)
{
    if (got->n != want->n)
        fail_msg("position %ld: kept list has %d sets, collected %d", pos, got->n, want->n);
    for (int i = 0; i < want->n; i++) {
        const sdk_als *a = &got->als[i], *b = &want->als[i];
        bool same = sdk_bb_eq(a->cells, b->cells) && sdk_bb_eq(a->all_peers, b->all_peers) &&
                    a->digits == b->digits && a->ncell == b->ncell && a->house == b->house;
        for (int d = 0; same && d < 9; d++)
            same = sdk_bb_eq(a->dcells[d], b->dcells[d]) && sdk_bb_eq(a->peers[d], b->peers[d]);
        if (!same) fail_msg("position %ld: kept set %d differs from the collected one", pos, i);
    }
}

/* Every field of every instance (any kind). */
static void assert_same_instances(const recs *got, const recs *want, long pos, const char *what)
{
    if (got->n != want->n)
        fail_msg("position %ld: %s after a miss found %d, from scratch %d", pos, what, got->n,
                 want->n);
    for (int i = 0; i < want->n; i++) {
        const rec *a = &got->r[i], *b = &want->r[i];
        bool same = a->kind == b->kind && a->nals == b->nals && a->locked == b->locked &&
                    a->stem == b->stem && a->zmask == b->zmask && a->nelim == b->nelim &&
                    a->ncells == b->ncells && a->order == b->order && same_elims(a, b);
        for (int k = 0; same && k < b->nals; k++)
            same = a->als[k] == b->als[k] && a->rc[k] == b->rc[k];
        if (!same) fail_msg("position %ld: %s instance %d differs from scratch", pos, what, i);
    }
}

/* ALS-XZ, ALS-XY-Wing and Death Blossom as find_als runs them for the
 * standard profile (no overlap, every instance): with the kind's base, and
 * from scratch. */
static void check_kinds(stats *st, const sdk_grid *g, als_cache *ac, long pos)
{
    static const int kind_of[3] = {K_XZ, K_XY, K_DB};
    static const char *name[3] = {"als-xz", "als-xy-wing", "death-blossom"};
    const sdk_rcc_graph *gr = rcc_of(ac, false);
    assert_non_null(gr);
    for (int t = 0; t < 3; t++) {
        int kind = kind_of[t];
        sdk_bb changed = sdk_bb_none();
        uint8_t *dirty = miss_dirty(kind, g, &ac->l, false, 0, &changed);
        recs scratch, reuse;
        memset(&scratch, 0, sizeof scratch);
        memset(&reuse, 0, sizeof reuse);
        scratch.max_nodes = reuse.max_nodes = CHAIN_MAX_NODES;
        for (int pass = 0; pass < 2; pass++) {
            recs *R = pass ? &reuse : &scratch;
            const uint8_t *dp = pass ? dirty : NULL;
            if (kind == K_XZ)
                search_xz(&ac->l, gr, dp, R);
            else if (kind == K_XY)
                search_xy(&ac->l, gr, false, dp, R);
            else
                search_db(g, &ac->l, false, dp, changed, R);
            if (R->n > 1) qsort(R->r, (size_t)R->n, sizeof *R->r, rec_cmp);
        }
        assert_same_instances(&reuse, &scratch, pos, name[t]);
        if (dirty) {
            st->kind_reused[t]++;
            st->kind_found[t] += scratch.n > 0;
        }
        if (scratch.n == 0 && !scratch.oom && scratch.nodes <= scratch.max_nodes)
            miss_set(kind, g, false, 0);
        free(dirty);
        recs_free(&scratch);
        recs_free(&reuse);
    }
}

static void assert_same_recs(const recs *got, const recs *want, long pos)
{
    if (got->n != want->n)
        fail_msg("position %ld: reuse search found %d chains, from scratch %d", pos, got->n,
                 want->n);
    for (int i = 0; i < want->n; i++) {
        const rec *a = &got->r[i], *b = &want->r[i];
        bool same = a->kind == b->kind && a->nals == b->nals && a->zmask == b->zmask &&
                    a->nelim == b->nelim && a->ncells == b->ncells && a->order == b->order &&
                    same_elims(a, b);
        for (int k = 0; same && k < b->nals; k++) same = a->als[k] == b->als[k];
        for (int k = 0; same && k + 1 < b->nals; k++) same = a->rc[k] == b->rc[k];
        if (!same) fail_msg("position %ld: chain %d differs from the search from scratch", pos, i);
    }
}

/* The chain search at g with this budget, as find_chains runs it (with the
 * thread's base and count memo), against a search from scratch. */
static void check_chains(stats *st, const sdk_grid *g, als_cache *ac, const sdk_rcc_graph *gr,
                         long budget, long pos)
{
    bool count = chain_must_count(gr, chain_max_rc, false, budget);
    long known = count_memo_of(gr, chain_max_rc, false);
    chain_since *since = count ? NULL : chain_since_of(g, &ac->l, gr, chain_max_rc, false, 0);
    recs scratch, reuse;
    memset(&scratch, 0, sizeof scratch);
    memset(&reuse, 0, sizeof reuse);
    scratch.max_nodes = reuse.max_nodes = budget;
    chain_base base = chain_last[0];
    count_memo memo = count_last;
    memset(&chain_last[0], 0, sizeof chain_last[0]); /* nothing to reuse */
    memset(&count_last, 0, sizeof count_last);
    find_chains(g, &ac->l, gr, chain_max_rc, false, false, 0, &scratch);
    chain_base_clear(&chain_last[0]);
    count_memo_release();
    chain_last[0] = base;
    count_last = memo;
    if (since) {
        bool kept = false;
        for (int i = 0; i < ac->l.n && !kept; i++)
            for (int e = gr->first[i]; e < gr->first[i + 1] && since->dirty[i]; e++)
                if (!since->fresh[e]) kept = true;
        st->kept += kept;
    }
    find_chains(g, &ac->l, gr, chain_max_rc, false, false, 0, &reuse);
    assert_same_recs(&reuse, &scratch, pos);
    if (known >= 0 && scratch.nodes > 0) { /* counted from scratch */
        st->memo_known++;
        bool complete = scratch.nodes <= budget;
        if (complete ? known != scratch.nodes : known <= budget)
            fail_msg("position %ld: count memo %ld, counted from scratch %ld (budget %ld)", pos,
                     known, scratch.nodes, budget);
        st->memo_fit += !count;
    }
    if (since) {
        st->reused++;
        st->chains += scratch.n;
        st->with_find += scratch.n > 0;
    }
    chain_since_free(since);
    recs_free(&scratch);
    recs_free(&reuse);
}

/* The count memo at the edge of the budget: with gr's whole count n kept,
 * find_chains with budget n must not count and give the counted search's
 * instances; with n - 1, count (and be cut as the counted search is). */
static void check_count_edge(stats *st, const sdk_grid *g, als_cache *ac, const sdk_rcc_graph *gr,
                             long pos)
{
    recs whole;
    memset(&whole, 0, sizeof whole);
    whole.max_nodes = 1L << 60;
    search_chain(&ac->l, gr, chain_max_rc, false, true, NULL, &whole);
    long n = whole.nodes;
    recs_free(&whole);
    if (n < 2 || chain_set_bound(gr, chain_max_rc) <= n) return; /* the memo never decides */
    chain_base base = chain_last[0];
    count_memo memo = count_last;
    memset(&chain_last[0], 0, sizeof chain_last[0]);
    memset(&count_last, 0, sizeof count_last);
    for (long budget = n; budget >= n - 1; budget--) {
        count_memo_set(gr, chain_max_rc, false, n);
        if (chain_must_count(gr, chain_max_rc, false, budget) != (budget < n))
            fail_msg("position %ld: count memo %ld decides wrong for budget %ld", pos, n, budget);
        recs counted, got;
        memset(&counted, 0, sizeof counted);
        memset(&got, 0, sizeof got);
        counted.max_nodes = got.max_nodes = budget;
        search_chain(&ac->l, gr, chain_max_rc, false, true, NULL, &counted);
        if ((counted.nodes <= budget) != (budget == n))
            fail_msg("position %ld: counted %ld nodes, budget %ld, whole %ld", pos, counted.nodes,
                     budget, n);
        find_chains(g, &ac->l, gr, chain_max_rc, false, false, 0, &got);
        assert_same_recs(&got, &counted, pos);
        st->memo_edge += budget == n;
        recs_free(&counted);
        recs_free(&got);
        chain_base_clear(&chain_last[0]);
    }
    count_memo_release();
    chain_last[0] = base;
    count_last = memo;
}

/* The checks at one position g (the thread's caches hold the last one). */
static void check_position(stats *st, const sdk_grid *g)
{
    long pos = ++st->positions;
    bool had_list = als_last[0] && als_last[0]->used; /* als_of may update the list */
    als_cache *ac = als_of(g, 0);
    assert_non_null(ac);
    sdk_als_list all;
    assert_true(sdk_als_collect(g, NULL, &all) >= 0);
    assert_same_list(&ac->l, &all, pos);
    sdk_als_list_free(&all);
    st->listed += had_list && ac->have_prev;
    for (int ov = 0; ov < 2; ov++) {
        bool update = !ac->have_graph[ov] && ac->have_prev && ac->prev_have_graph[ov] &&
                      ac->nchanged <= ac->l.n / 2;
        const sdk_rcc_graph *gr = rcc_of(ac, ov);
        assert_non_null(gr);
        sdk_rcc_graph full;
        assert_true(sdk_rcc_graph_build(&ac->l, ov, &full) >= 0);
        assert_same_graph(gr, &full, pos, ov);
        sdk_rcc_graph every;
        every_pair_graph(&ac->l, ov, &every);
        assert_same_graph(&full, &every, pos, ov);
        sdk_rcc_graph_free(&every);
        sdk_rcc_graph_free(&full);
        st->updated += update;
    }
    /* the chain search, as find_als runs it for the standard profile */
    const sdk_rcc_graph *gr = rcc_of(ac, false);
    /* the cruder bounds of the nodes are above the bound itself */
    long bound = chain_node_bound(gr, chain_max_rc);
    if (bound != ref_node_bound(gr, chain_max_rc))
        fail_msg("position %ld: chain_node_bound %ld, by binary search %ld", pos, bound,
                 ref_node_bound(gr, chain_max_rc));
    if (chain_set_bound(gr, chain_max_rc) < bound)
        fail_msg("position %ld: chain_set_bound %ld below the bound %ld", pos,
                 chain_set_bound(gr, chain_max_rc), bound);
    const long budgets[] = {CHAIN_MAX_NODES, 1000000, 10000, 100};
    for (int k = 0; k < 4; k++)
        if (chain_nodes_fit_quick(gr, chain_max_rc, budgets[k]) && bound > budgets[k])
            fail_msg("position %ld: chain_nodes_fit_quick(%ld) fits, the bound %ld does not", pos,
                     budgets[k], bound);
    for (int b = 0; b < 2; b++)
        check_chains(st, g, ac, gr, b ? small_budget : CHAIN_MAX_NODES, pos);
    if (pos % 5 == 1) check_count_edge(st, g, ac, gr, pos); /* counted searches: a sample */
    check_kinds(st, g, ac, pos);
}

static void on_step(void *ctx, const sdk_step *s, const sdk_grid *before, const uint8_t *sol,
                    int nstep)
{
    (void)s;
    (void)sol;
    (void)nstep;
    check_position(ctx, before);
}

/* Forget what the thread kept (an earlier test or walk). */
static void reset_caches(void)
{
    als_cache_release(); /* the chain base too */
    memset(miss_last, 0, sizeof miss_last);
}

static void test_profile_path(void **state)
{
    (void)state;
    sdk_config cfg;
    tu_load_config(&cfg);
    const sdk_profile *p = sdk_config_profile(&cfg, "standard");
    assert_non_null(p);
    reset_caches();
    stats st = {0};
    walk_result r = {0};
    walk_profile(p, "forum_hardest_1106.txt", profile_puzzles, 97, on_step, &st, &r, NULL);
    assert_int_equal(r.wrong, 0);
    print_message("standard path: %ld positions, %ld lists and %ld graphs updated, %ld chain "
                  "searches reused "
                  "(%ld with a changed set keeping base links), %ld of them with chains (%ld "
                  "chains)\n",
                  st.positions, st.listed, st.updated, st.reused, st.kept, st.with_find, st.chains);
    print_message("  count memo: %ld searches with a known count, %ld of them not counted; %ld "
                  "with the budget at the count\n",
                  st.memo_known, st.memo_fit, st.memo_edge);
    /* the paths must exercise both reuses, not only full builds */
    assert_true(st.positions > 60);
    assert_true(st.updated > st.positions / 2);
    assert_true(st.reused > 20);
    assert_true(st.with_find > 2);
    assert_true(st.kept > 10);
    assert_true(st.listed > st.positions / 2);
    print_message("  after a miss: als-xz %ld searches (%ld with finds), als-xy-wing %ld (%ld), "
                  "death-blossom %ld (%ld)\n",
                  st.kind_reused[0], st.kind_found[0], st.kind_reused[1], st.kind_found[1],
                  st.kind_reused[2], st.kind_found[2]);
    for (int t = 0; t < 3; t++) assert_true(st.kind_reused[t] > 20);
    assert_true(st.memo_edge > 5);
    assert_true(st.kind_found[0] + st.kind_found[1] + st.kind_found[2] > 2);
    sdk_config_free(&cfg);
    reset_caches();
}

/* Each position of the random path is checked. */
static void visit(const sdk_grid *before, const sdk_grid *after, void *ctx)
{
    (void)after;
    check_position(ctx, before);
}

static void test_random_path(void **state)
{
    (void)state;
    uint8_t(*puz)[81];
    int n = tu_read_puzzles("forum_hardest_1106.txt", 3, 97, &puz);
    assert_true(n > 0);
    reset_caches();
    stats st = {0};
    uint32_t seed = 12345;
    /* 1..3 tries at a false candidate a round; every 10th round the singles */
    const walk_hard_pace pace = {.rounds = 60, .tries_min = 1, .tries_max = 3, .basic_every = 10};
    assert_true(walk_hard_rounds((const uint8_t(*)[81])puz, n, &pace, &seed, visit, &st));
    free(puz);
    print_message(
        "random path: %d puzzles, %ld positions, %ld graphs updated, %ld chain searches reused "
        "(%ld with a changed set keeping base links), %ld of them with chains (%ld chains)\n",
        n, st.positions, st.updated, st.reused, st.kept, st.with_find, st.chains);
    print_message("  count memo: %ld searches with a known count, %ld of them not counted; %ld "
                  "with the budget at the count\n",
                  st.memo_known, st.memo_fit, st.memo_edge);
    assert_true(st.positions > 50);
    assert_true(st.updated > st.positions / 2);
    assert_true(st.reused > 50);
    assert_true(st.kept > 20);
    assert_true(st.with_find > 20);
    reset_caches();
}

/* ---- the path's memos kept apart from the assumed grids' ---------------
 *
 * find_als keeps its list, graphs and last misses apart for the engine's
 * path (ctx->depth 0) and for assumed grids (depth > 0), and an assumed
 * grid that does not descend from the last assumed one starts from the
 * path's (als_of, chain_since_of, miss_dirty). The walk here does what
 * nested forcing chains do: from a path position, several "propagations"
 * (an assumed grid made from it by removing candidates, true ones too, then
 * a few steps removing more, at depth 1), then the path's next position
 * (depth 0). At every call, the steps find_als emits for each of the four
 * techniques must be those of find_als with no memo at all. */

typedef struct texts {
    char *buf;
    size_t len, cap;
} texts;

static int collect_text(void *ctx, const sdk_step *s)
{
    texts *t = ctx;
    size_t n = strlen(s->text) + 1;
    if (t->len + n + 1 > t->cap) {
        t->cap = (t->len + n + 1) * 2;
        t->buf = realloc(t->buf, t->cap);
        assert_non_null(t->buf);
    }
    memcpy(t->buf + t->len, s->text, n);
    t->len += n;
    t->buf[t->len - 1] = '\n';
    t->buf[t->len] = 0;
    return SDK_CONTINUE;
}

static const sdk_technique *const kind_tech[4] = {&als_xz, &als_xy_wing, &als_chain,
                                                  &death_blossom};

static void run_find(int kind, const sdk_grid *g, int depth, const sdk_options *opts, texts *out)
{
    sdk_ctx ctx;
    memset(&ctx, 0, sizeof ctx);
    ctx.self = kind_tech[kind];
    ctx.opts = opts;
    ctx.depth = depth;
    out->len = 0;
    if (out->buf) out->buf[0] = 0;
    sdk_sink sink = {collect_text, out};
    find_als(&ctx, g, &sink);
}

/* find_als on g with none of the thread's memos (they are put back after). */
static void run_scratch(int kind, const sdk_grid *g, const sdk_options *opts, texts *out)
{
    als_cache *als_saved[2] = {als_last[0], als_last[1]};
    chain_base chain_saved[2] = {chain_last[0], chain_last[1]};
    count_memo count_saved = count_last;
    miss_base miss_saved[2][4];
    memcpy(miss_saved, miss_last, sizeof miss_saved);
    chain_space *space = chain_space_last;
    position_miss *seen_saved[4];
    memcpy(seen_saved, seen_last, sizeof seen_saved);
    memset(seen_last, 0, sizeof seen_last);
    als_last[0] = als_last[1] = NULL;
    memset(chain_last, 0, sizeof chain_last);
    memset(&count_last, 0, sizeof count_last);
    memset(miss_last, 0, sizeof miss_last);
    chain_space_last = NULL;
    run_find(kind, g, 0, opts, out);
    als_cache_release();
    als_last[0] = als_saved[0];
    als_last[1] = als_saved[1];
    chain_last[0] = chain_saved[0];
    chain_last[1] = chain_saved[1];
    count_last = count_saved;
    memcpy(miss_last, miss_saved, sizeof miss_saved);
    chain_space_last = space;
    memcpy(seen_last, seen_saved, sizeof seen_saved);
}

typedef struct side_stats {
    long calls[2];     /* find_als calls at depth 0, inside */
    long from_path[3]; /* inside: list seeded from the path's; chain base, misses of the path */
    long found;        /* calls that emitted steps */
    long seen;         /* calls on a grid where the same search found nothing before */
    long foreign;      /* inside chain searches whose last inside base does not hold g */
} side_stats;

/* The four techniques on g at depth, each against a search from scratch. */
static void check_sides(side_stats *st, const sdk_grid *g, int depth, const sdk_options *opts,
                        texts *got, texts *want)
{
    int inside = depth > 0;
    for (int kind = 0; kind < 4; kind++) {
        if (inside) {
            st->from_path[0] +=
                kind == K_XZ && !als_cache_holds(als_last[1], g) && als_cache_holds(als_last[0], g);
            st->foreign += kind == K_CHAIN && chain_last[1].valid &&
                           !chain_base_holds(&chain_last[1], g, 4, false);
            if (kind == K_CHAIN)
                st->from_path[1] += !chain_base_holds(&chain_last[1], g, 4, false) &&
                                    chain_base_holds(&chain_last[0], g, 4, false);
            else
                st->from_path[2] += !miss_holds(&miss_last[1][kind], g, false) &&
                                    miss_holds(&miss_last[0][kind], g, false);
        }
        /* a base is used only when g descends from it: the side's own, or
         * (inside) the path's */
        if (kind == K_CHAIN || kind == K_XZ) {
            als_cache *ac = als_of(g, inside);
            assert_non_null(ac);
            sdk_bb changed;
            bool want_base;
            void *since;
            if (kind == K_CHAIN) {
                want_base = chain_base_holds(&chain_last[inside], g, 4, false) ||
                            (inside && chain_base_holds(&chain_last[0], g, 4, false));
                since = chain_since_of(g, &ac->l, rcc_of(ac, false), 4, false, inside);
                chain_since_free(since);
            } else {
                want_base = miss_holds(&miss_last[inside][kind], g, false) ||
                            (inside && miss_holds(&miss_last[0][kind], g, false));
                since = miss_dirty(kind, g, &ac->l, false, inside, &changed);
                free(since);
            }
            if (want_base != (since != NULL))
                fail_msg("%s at depth %d: a base %s, reused %d", kind_tech[kind]->id, depth,
                         want_base ? "holds g" : "does not hold g", since != NULL);
        }
        bool seen = position_miss_seen(seen_last[kind], SEEN_SLOTS, g,
                                       seen_key(100000000, kind == K_CHAIN ? 5 : 0, false, false));
        st->seen += seen;
        run_scratch(kind, g, opts, want);
        run_find(kind, g, depth, opts, got);
        if (seen && want->len)
            fail_msg("%s: a grid known to give nothing gives steps from scratch",
                     kind_tech[kind]->id);
        st->calls[inside]++;
        st->found += want->len > 0;
        if (strcmp(got->buf ? got->buf : "", want->buf ? want->buf : ""))
            fail_msg("%s at depth %d differs from scratch:\n%s\nscratch:\n%s", kind_tech[kind]->id,
                     depth, got->buf ? got->buf : "", want->buf ? want->buf : "");
    }
}

/* Remove k candidates of cells with two or more, at random, true ones too
 * (an assumed grid need not have a solution). */
static void remove_random(sdk_grid *g, uint32_t *seed, int k)
{
    for (int j = 0; j < k; j++) {
        int cands[729], nc = 0;
        for (int c = 0; c < 81; c++)
            if (sdk_mask_count(g->cand[c]) >= 2)
                SDK_MASK_FOREACH(d, g->cand[c]) {
                    cands[nc++] = c * 9 + d - 1;
                }
        if (!nc) return;
        *seed = *seed * 1103515245u + 12345u;
        int x = cands[(*seed >> 8) % (unsigned)nc];
        sdk_grid_eliminate(g, x / 9, x % 9 + 1);
    }
}

typedef struct sides_walk {
    side_stats st;
    sdk_options opts;
    texts got, want;
    uint32_t seed; /* the propagations' removals */
} sides_walk;

/* A path position (depth 0), then several propagations from it (depth 1). */
static void visit_sides(const sdk_grid *before, const sdk_grid *after, void *ctx)
{
    (void)after;
    sides_walk *w = ctx;
    check_sides(&w->st, before, 0, &w->opts, &w->got, &w->want);
    uint32_t again = w->seed;
    for (int prop = 0; prop < 4; prop++) { /* propagations from this position */
        if (prop == 3) w->seed = again;    /* the first one again: the same grids */
        sdk_grid a = *before;
        remove_random(&a, &w->seed, 1);
        for (int k = 0; k < 4; k++) {
            check_sides(&w->st, &a, 1, &w->opts, &w->got, &w->want);
            remove_random(&a, &w->seed, 1);
        }
    }
}

static void test_propagation_sides(void **state)
{
    (void)state;
    uint8_t(*puz)[81];
    int n = tu_read_puzzles("forum_hardest_1106.txt", 2, 157, &puz);
    assert_true(n > 0);
    reset_caches();
    sides_walk w = {.seed = 4242};
    char why[128];
    assert_true(sdk_options_parse("max-length=5", &w.opts, why, sizeof why)); /* max_rc 4 */
    uint32_t seed = 4242;
    /* the path's next position: 2 tries at a false candidate; every 4th the singles */
    const walk_hard_pace pace = {.rounds = 12, .tries_min = 2, .tries_max = 2, .basic_every = 4};
    assert_true(walk_hard_rounds((const uint8_t(*)[81])puz, n, &pace, &seed, visit_sides, &w));
    free(puz);
    free(w.got.buf);
    free(w.want.buf);
    const side_stats st = w.st;
    print_message("path and propagations: %ld calls on the path, %ld inside; inside from the "
                  "path's list %ld, chain base %ld, misses %ld; %ld calls with steps; %ld inside "
                  "chain searches where the last inside base does not hold the grid; %ld on a "
                  "grid known to give nothing\n",
                  st.calls[0], st.calls[1], st.from_path[0], st.from_path[1], st.from_path[2],
                  st.found, st.foreign, st.seen);
    assert_true(st.calls[0] > 80);
    assert_true(st.from_path[0] > 80);
    assert_true(st.from_path[1] > 100);
    assert_true(st.from_path[2] > 300);
    assert_true(st.found > 300);
    assert_true(st.foreign > 100);
    assert_true(st.seen > 100);
    reset_caches();
}

int main(void)
{
    const char *rc = getenv("ALS_UPDATE_MAX_RC");
    if (rc && *rc) chain_max_rc = atoi(rc);
    const char *np = getenv("ALS_UPDATE_PUZZLES");
    if (np && *np) profile_puzzles = atoi(np);
    const char *nb = getenv("ALS_UPDATE_BUDGET");
    if (nb && *nb) small_budget = atol(nb);
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_profile_path),
        cmocka_unit_test(test_random_path),
        cmocka_unit_test(test_propagation_sides),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
