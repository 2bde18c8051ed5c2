/* xchain.c - X-Chains of one digit (HoDoKu): a chain of alternating strong and
 * weak links that starts and ends with a strong link; one of its two ends is
 * the digit, so a cell seeing both ends loses it. Turbot Fish is the X-Chain
 * of exactly three links (it covers skyscrapers and kites too, as in HoDoKu).
 *
 * The X-Chain search is a breadth-first search over (cell, true/false) from
 * every start, so every pair of ends gets a shortest chain; steps go out per
 * digit, shortest chains first, one per elimination set. */
#include <stdlib.h>
#include <string.h>
#include "sudoku/alloc.h"
#include "sudoku/strong.h"
#include "sudoku/technique.h"
#include "single_digit.h"
#include "../misc/grid_memo.h"

static int find_turbot(const sdk_ctx *ctx, const sdk_grid *g, sdk_sink *sink);
static int find_xchain(const sdk_ctx *ctx, const sdk_grid *g, sdk_sink *sink);

const sdk_technique sd_turbot_fish = {
    .abi = SDK_ABI_VERSION,
    .size = sizeof(sdk_technique),
    .id = "turbot-fish",
    .name = "Turbot Fish",
    .difficulty = 42,
    .score = 120,
    .level = SDK_LEVEL_HARD,
    .find = find_turbot,
    .summary = "an X-Chain of three links: strong, weak, strong",
};
const sdk_technique sd_x_chain = {
    .abi = SDK_ABI_VERSION,
    .size = sizeof(sdk_technique),
    .id = "x-chain",
    .name = "X-Chain",
    .difficulty = 65,
    .score = 260,
    .level = SDK_LEVEL_UNFAIR,
    .find = find_xchain,
    .summary = "alternating strong and weak links of one digit; a cell seeing both ends "
               "loses it (option max-length, links, default 19)",
};

/* Sudoku Explainer's length increment for a chain of n nodes, in tenths. */
static int length_tenths(int n)
{
    int added = 0, ceil = 4;
    bool odd = false;
    while (n > ceil) {
        added++;
        ceil = odd ? ceil * 4 / 3 : ceil * 3 / 2;
        odd = !odd;
    }
    return added;
}

/* Fill a chain step: cells c[0..n-1], links strong/weak alternating from strong. */
static void chain_step(sdk_step *s, int d, const int *c, int n, const char *name)
{
    char buf[8];
    sdk_step_printf(s, "%s: %d %s", name, d, sdk_cell_name(c[0], buf));
    for (int i = 0; i < n; i++) {
        sdk_step_mark(s, c[i], d, i % 2 ? SDK_ROLE_ON : SDK_ROLE_OFF);
        if (i == 0) continue;
        bool strong = i % 2 == 1;
        sdk_step_printf(s, " %c%d%c %s", strong ? '=' : '-', d, strong ? '=' : '-',
                        sdk_cell_name(c[i], buf));
        sdk_link l;
        memset(&l, 0, sizeof l);
        l.from = (sdk_node){(uint8_t)d, (uint8_t)(i % 2 == 0), 1, {(uint8_t)c[i - 1], 0, 0}};
        l.to = (sdk_node){(uint8_t)d, (uint8_t)(i % 2 == 1), 1, {(uint8_t)c[i], 0, 0}};
        l.strong = strong;
        l.kind = SDK_LINK_HOUSE;
        sdk_step_link(s, &l);
    }
}

/* Remembered elimination sets (one step per set). */
typedef struct seen {
    int n, cap;
    sdk_bb *set;
} seen;

static bool seen_add(seen *v, sdk_bb b)
{
    for (int i = 0; i < v->n; i++)
        if (sdk_bb_eq(v->set[i], b)) return false;
    if (v->n == v->cap) {
        int cap = v->cap ? v->cap * 2 : 64;
        sdk_bb *p = sdk_xrealloc(v->set, sizeof *p * (size_t)cap);
        v->set = p;
        v->cap = cap;
    }
    v->set[v->n++] = b;
    return true;
}

/* Turbot fish and X-chains of digit d depend on d's candidates only: per
 * thread, the digits before the first that gave a step on an earlier grid,
 * with the same candidates now, are skipped (grid_memo.h, digit_memo). */
static _Thread_local digit_memo turbot_last[2], xchain_last[2];

static int find_turbot(const sdk_ctx *ctx, const sdk_grid *g, sdk_sink *sink)
{
    sdk_bb strong[SDK_CELLS];
    seen v = {0, 0, NULL};
    int rc = SDK_CONTINUE, first = 10;
    unsigned skip = digit_memo_begin(turbot_last, g, 0);
    for (int d = 1; d <= 9 && rc == SDK_CONTINUE; d++) {
        const sdk_bb cand = g->digit[d - 1];
        if (skip >> d & 1) continue;
        if (sdk_strong_graph(g, d, strong) == 0) continue;
        v.n = 0;
        SDK_BB_FOREACH(a, cand) {
            SDK_BB_FOREACH(b, strong[a]) {
                sdk_bb weak = sdk_bb_and(sdk_peer_bb[b], cand);
                SDK_BB_FOREACH(c, weak) {
                    if (c == a) continue;
                    SDK_BB_FOREACH(e, strong[c]) {
                        if (e == a || e == b || e <= a) continue;
                        sdk_bb t = sdk_bb_and(sdk_bb_and(sdk_peer_bb[a], sdk_peer_bb[e]), cand);
                        if (sdk_bb_empty(t) || !seen_add(&v, t)) continue;
                        int chain[4] = {a, b, c, e};
                        sdk_step *s = sdk_scratch_step(ctx, 0);
                        sdk_step_init(s, &sd_turbot_fish);
                        sdk_step_elim_bb(s, g, t, d);
                        chain_step(s, d, chain, 4, sd_turbot_fish.name);
                        if (first == 10) first = d;
                        if (sdk_emit(sink, s) == SDK_STOP) {
                            rc = SDK_STOP;
                            goto out;
                        }
                    }
                }
            }
        }
    }
out:
    free(v.set);
    digit_memo_end(turbot_last, ctx, g, 0, first);
    return rc;
}

/* One found chain: ends, length (links) and elimination set. */
typedef struct found {
    int start, end, links;
    sdk_bb elim;
} found;

static int cmp_found(const void *x, const void *y)
{
    const found *a = x, *b = y;
    if (a->links != b->links) return a->links - b->links;
    if (a->start != b->start) return a->start - b->start;
    return a->end - b->end;
}

/* Breadth-first search from start (assumed false) over states cell*2+on.
 * pred[] receives the predecessor state, dist[] the number of links, of the
 * states reached only; *reached_on: the cells reached true. What is reached
 * is kept per truth value as a bitboard, so the links out of a state come
 * from one mask operation (in increasing cell order, as the queue wants). */
static void bfs(const sdk_grid *g, int d, const sdk_bb *strong, int start, int maxlinks,
                short *dist, short *pred, sdk_bb *reached_on)
{
    short queue[2 * SDK_CELLS];
    int head = 0, tail = 0;
    sdk_bb reached[2] = {sdk_bb_cell(start), sdk_bb_none()}; /* false, true */
    dist[start * 2] = 0;
    pred[start * 2] = -1;
    queue[tail++] = (short)(start * 2);
    const sdk_bb cand = g->digit[d - 1];
    while (head < tail) {
        int st = queue[head++], cell = st / 2, on = st % 2;
        if (dist[st] >= maxlinks) continue;
        /* false -> strong link -> true; true -> weak link -> false (never
         * back into the start, in either state) */
        sdk_bb next = on ? sdk_bb_and(sdk_peer_bb[cell], cand) : strong[cell];
        next = sdk_bb_andnot(next, reached[!on]);
        sdk_bb_del(&next, start);
        reached[!on] = sdk_bb_or(reached[!on], next);
        SDK_BB_FOREACH(n, next) {
            int ns = n * 2 + !on;
            dist[ns] = (short)(dist[st] + 1);
            pred[ns] = (short)st;
            queue[tail++] = (short)ns;
        }
    }
    *reached_on = reached[1];
}

/* A three-link chain start = x - y = end for ends that are also strongly
 * linked (the breadth-first search then only knows the direct link). */
static bool three_link(const sdk_grid *g, int d, const sdk_bb *strong, int s, int e, int *x, int *y)
{
    SDK_BB_FOREACH(a, strong[s]) {
        if (a == e) continue;
        SDK_BB_FOREACH(b, strong[e]) {
            if (b == s || b == a || !sdk_sees(a, b) || !sdk_grid_has(g, b, d)) continue;
            *x = a;
            *y = b;
            return true;
        }
    }
    return false;
}

static int find_xchain(const sdk_ctx *ctx, const sdk_grid *g, sdk_sink *sink)
{
    int maxlinks = sdk_opt_int(ctx, "max-length", 19);
    if (maxlinks < 3) maxlinks = 3;
    if (maxlinks > 2 * SDK_CELLS) maxlinks = 2 * SDK_CELLS;
    sdk_bb strong[SDK_CELLS];
    short dist[SDK_CELLS][2 * SDK_CELLS], pred[SDK_CELLS][2 * SDK_CELLS];
    found *f = sdk_xmalloc(sizeof *f * SDK_CELLS * SDK_CELLS / 2);
    seen v = {0, 0, NULL};
    int rc = SDK_CONTINUE, first = 10;
    unsigned skip = digit_memo_begin(xchain_last, g, maxlinks);
    for (int d = 1; d <= 9 && rc == SDK_CONTINUE; d++) {
        const sdk_bb cand = g->digit[d - 1];
        if (skip >> d & 1) continue;
        if (sdk_strong_graph(g, d, strong) == 0) continue;
        int nf = 0;
        SDK_BB_FOREACH(s, cand) {
            if (sdk_bb_empty(strong[s])) continue;
            sdk_bb ends;
            bfs(g, d, strong, s, maxlinks, dist[s], pred[s], &ends);
            SDK_BB_FOREACH(e, ends) {
                if (e <= s) continue;
                sdk_bb t = sdk_bb_and(sdk_bb_and(sdk_peer_bb[s], sdk_peer_bb[e]), cand);
                if (sdk_bb_empty(t)) continue;
                int links = dist[s][e * 2 + 1], x, y;
                if (links == 1) {
                    if (!three_link(g, d, strong, s, e, &x, &y)) continue;
                    links = 3;
                }
                f[nf++] = (found){s, e, links, t};
            }
        }
        qsort(f, (size_t)nf, sizeof *f, cmp_found);
        v.n = 0;
        for (int i = 0; i < nf; i++) {
            if (!seen_add(&v, f[i].elim)) continue;
            int chain[2 * SDK_CELLS + 1], n = 0, s = f[i].start, e = f[i].end;
            if (dist[s][e * 2 + 1] == 1) {
                int x = -1, y = -1;
                three_link(g, d, strong, s, e, &x, &y);
                chain[0] = s, chain[1] = x, chain[2] = y, chain[3] = e, n = 4;
            } else {
                /* walk back from (e, on) to the start, then reverse */
                for (int st = e * 2 + 1; st >= 0; st = pred[s][st]) chain[n++] = st / 2;
                for (int a = 0, b = n - 1; a < b; a++, b--) {
                    int tmp = chain[a];
                    chain[a] = chain[b];
                    chain[b] = tmp;
                }
            }
            sdk_step *st = sdk_scratch_step(ctx, 0);
            sdk_step_init(st, &sd_x_chain);
            st->difficulty = sd_x_chain.difficulty + length_tenths(n);
            sdk_step_elim_bb(st, g, f[i].elim, d);
            chain_step(st, d, chain, n, sd_x_chain.name);
            if (first == 10) first = d;
            if (sdk_emit(sink, st) == SDK_STOP) {
                rc = SDK_STOP;
                break;
            }
        }
    }
    free(f);
    free(v.set);
    digit_memo_end(xchain_last, ctx, g, maxlinks, first);
    return rc;
}
