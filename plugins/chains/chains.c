/* chains.c - nice loops and AICs (plain and grouped, optionally with ALS
 * nodes) on the link model of links.h, with HoDoKu's semantics: for every
 * candidate premise (true and false) the shortest implication tree is built;
 * a chain that comes back to its start cell is a nice loop (continuous or
 * discontinuous), a chain from a false premise to a true candidate is an AIC.
 * Lassos are rejected, one step is kept per set of eliminations (the shortest
 * chain), and the grouped techniques report only chains with a group or ALS
 * node.
 *
 * One search finds the chains of all three kinds (continuous, discontinuous,
 * AIC) and each technique reports its own kind, so the search's result is
 * kept per thread for the last position (plain and grouped apart): the
 * techniques of a family run one after the other on a position whenever the
 * earlier ones find nothing, and the later ones read what the first found.
 *
 * Most premises reach nothing a check looks at: reach.c rules them out for
 * the whole position at once (reachability sets of the true literals), and
 * only the others are searched. A position searched a little earlier without
 * result (an exact repeat, frequent within nested forcing chains) is
 * answered from a table of recent misses (../misc/grid_memo.h, "whole
 * positions"). */
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "sudoku/alloc.h"
#include "sudoku/cache.h"
#include "sudoku/links.h"
#include "sudoku/technique.h"
#include "../misc/grid_memo.h"
#include "reach.h"

enum { T_CNL = 0, T_DNL, T_AIC };

#define MAXCH 160

typedef struct found {
    int type;
    bool grouped, als;
    int len; /* HoDoKu length (distance) */
    int nlit;
    int lit[MAXCH];
    int nelim;
    uint16_t elim[SDK_STEP_MAX_ELIM]; /* cand index cell*9+d-1 */
} found;

typedef struct search {
    const sdk_grid *g;
    const sdk_links *L;      /* the position's graph (sdk_links_shared: not ours) */
    sdk_lsearch S, S2;       /* S2: searches that avoid the end cells (lassos) */
    bool need[2][SDK_NCAND]; /* per pass and premise: the lifo search repeats it */
    chain_reach R;           /* which premises can reach a literal to check */
    bool only_grouped;
    int n, cap;
    found *f;
    /* dedup: elimination sets -> index of the kept step */
    int hcap;
    int *hidx;
    uint64_t *hkey;
    /* AICs found from the premises of the nice loops' second pass (the
     * same premises, the same chains), recorded after that pass as a pass
     * of their own would record them: their literals in plit */
    struct pending *pd;
    int npd, cappd;
    int *plit;
    int nplit, capplit;
} search;

/* ---- elimination sets -------------------------------------------------- */

typedef struct elims {
    uint64_t bits[12];
    int n;
} elims;

static void el_add(elims *e, const sdk_grid *g, int cell, int d)
{
    if (!sdk_grid_has(g, cell, d)) return;
    int k = cell * 9 + d - 1;
    if (e->bits[k >> 6] >> (k & 63) & 1) return;
    e->bits[k >> 6] |= 1ULL << (k & 63);
    e->n++;
}

typedef struct pending {
    int n, len, at; /* chain: plit[at .. at + n) */
    elims e;
} pending;

static uint64_t el_hash(const elims *e)
{
    uint64_t h = 1469598103934665603ULL;
    for (int i = 0; i < 12; i++) {
        h ^= e->bits[i];
        h *= 1099511628211ULL;
        h ^= h >> 29;
    }
    return h | 1;
}

static bool el_same(const elims *e, const found *f)
{
    elims t = {{0}, 0};
    for (int i = 0; i < f->nelim; i++) t.bits[f->elim[i] >> 6] |= 1ULL << (f->elim[i] & 63);
    return memcmp(t.bits, e->bits, sizeof t.bits) == 0;
}

/* Lookup slot for e (open addressing). */
static int *slot(search *s, const elims *e, uint64_t key)
{
    if (!s->hcap) return NULL;
    for (int i = (int)(key % (uint64_t)s->hcap);; i = (i + 1) % s->hcap) {
        if (s->hkey[i] == 0) return &s->hidx[i];
        if (s->hkey[i] == key && el_same(e, &s->f[s->hidx[i]])) return &s->hidx[i];
    }
}

static bool grow(search *s)
{
    if (s->n < s->cap) return true;
    int nc = s->cap ? s->cap * 2 : 64;
    found *p = sdk_xrealloc(s->f, sizeof *p * (size_t)nc);
    s->f = p;
    s->cap = nc;
    if (s->hcap < nc * 2) {
        int hc = nc * 4;
        int *hi = sdk_xmalloc(sizeof(int) * (size_t)hc);
        uint64_t *hk = sdk_xcalloc((size_t)hc, sizeof(uint64_t));
        int oc = s->hcap;
        int *ohi = s->hidx;
        uint64_t *ohk = s->hkey;
        s->hidx = hi;
        s->hkey = hk;
        s->hcap = hc;
        for (int i = 0; i < oc; i++) {
            if (!ohk[i]) continue;
            for (int j = (int)(ohk[i] % (uint64_t)hc);; j = (j + 1) % hc)
                if (!hk[j]) {
                    hk[j] = ohk[i];
                    hi[j] = ohi[i];
                    break;
                }
        }
        free(ohi);
        free(ohk);
    }
    return true;
}

/* ---- chain checks ------------------------------------------------------- */

static int node_cell(const sdk_links *L, int lit)
{
    return L->node[SDK_LIT_NODE(lit)].cell;
}

/* HoDoKu's lasso test. */
static bool lasso_ok(const sdk_links *L, const int *ch, int n, bool nice, bool aic)
{
    sdk_bb lasso = sdk_bb_none();
    int last = -1, lastlit = -1;
    int first = node_cell(L, ch[0]);
    if (nice && n > 1 && node_cell(L, ch[0]) == node_cell(L, ch[1])) return false;
    for (int i = 0; i < n; i++) {
        int nc = node_cell(L, ch[i]);
        if (sdk_bb_has(lasso, nc)) return false;
        if (last != -1 && (last != first || aic)) {
            sdk_bb_add(&lasso, last);
            const sdk_lnode *nd = &L->node[SDK_LIT_NODE(lastlit)];
            if (nd->kind != SDK_LN_CAND) lasso = sdk_bb_or(lasso, nd->cells);
        }
        last = nc;
        lastlit = ch[i];
    }
    return true;
}

static void record(search *s, int type, const int *ch, int n, int len, const elims *e)
{
    bool grouped = false, als = false;
    for (int i = 0; i < n; i++) {
        int k = s->L->node[SDK_LIT_NODE(ch[i])].kind;
        if (k != SDK_LN_CAND) grouped = true;
        if (k == SDK_LN_ALS) als = true;
    }
    if (s->only_grouped && !grouped) return;
    if (n > MAXCH || e->n > SDK_STEP_MAX_ELIM) return;
    uint64_t key = el_hash(e);
    int *sl = slot(s, e, key);
    if (sl && s->hkey[sl - s->hidx] && s->f[*sl].len <= len) return;
    if (!grow(s)) return;
    sl = slot(s, e, key); /* the table may have moved */
    found *f = &s->f[s->n];
    f->type = type;
    f->grouped = grouped;
    f->als = als;
    f->len = len;
    f->nlit = n;
    memcpy(f->lit, ch, sizeof(int) * (size_t)n);
    f->nelim = 0;
    for (int k = 0; k < SDK_NCAND; k++)
        if (e->bits[k >> 6] >> (k & 63) & 1) f->elim[f->nelim++] = (uint16_t)k;
    s->hkey[sl - s->hidx] = key;
    *sl = s->n;
    s->n++;
}

/* The shortest chain start..end of an AIC was a lasso (it ran through the
 * start or the end cell on the way): look for the shortest one that stays
 * out of them. (Not for nice loops: HoDoKu does not find those either.) */
static int retry_path(search *s, int start, int end, int *ch, int *len, bool nice)
{
    const sdk_links *L = s->L;
    sdk_bb avoid = sdk_bb_or(L->node[SDK_LIT_NODE(start)].cells, L->node[SDK_LIT_NODE(end)].cells);
    if (!s->S2.dist) sdk_lsearch_init(&s->S2, L); /* first use */
    sdk_links_search_avoid(L, start, avoid, end, &s->S2);
    if (s->S2.dist[end] == INT_MAX || s->S2.dist[end] <= 2) return 0;
    int n = sdk_links_path(&s->S2, end, ch, MAXCH);
    if (n < 2 || !lasso_ok(L, ch, n, nice, !nice)) return 0;
    *len = s->S2.dist[end];
    return n;
}

static void check_nice_loop(search *s, int start, int end)
{
    const sdk_links *L = s->L;
    const sdk_grid *g = s->g;
    if (s->S.dist[end] <= 2) return;
    int ch[MAXCH];
    int n = sdk_links_path(&s->S, end, ch, MAXCH), len = s->S.dist[end];
    if (n < 2 || !lasso_ok(L, ch, n, true, false)) return;
    end = ch[n - 1];
    bool fs = SDK_LIT_ON(ch[1]), ls = SDK_LIT_ON(end);
    int sc = L->node[SDK_LIT_NODE(start)].digit, ec = L->node[SDK_LIT_NODE(end)].digit;
    int si = L->node[SDK_LIT_NODE(start)].cell;
    elims e = {{0}, 0};
    int type = T_DNL;
    if (!fs && !ls && sc == ec) {
        el_add(&e, g, si, sc);
    } else if (fs && ls && sc == ec) {
        SDK_MASK_FOREACH(x, g->cand[si])
            if (x != sc) el_add(&e, g, si, x);
    } else if (fs != ls && sc != ec) {
        el_add(&e, g, si, fs ? ec : sc);
    } else if ((!fs && !ls && sdk_mask_count(g->cand[si]) == 2 && sc != ec) ||
               (fs && ls && sc != ec) || (fs != ls && sc == ec)) {
        type = T_CNL;
        /* The cells of the chain are not eliminated from, as in HoDoKu,
         * except those of a group node just before the link back into the
         * start cell (HoDoKu's chain set leaves that node out; reglib lines
         * 1245, 1254 need it). Either way is sound: in a continuous loop
         * every weak link has exactly one true end. */
        sdk_bb chaincells = sdk_bb_none();
        for (int i = 0; i < n; i++) {
            const sdk_lnode *nd = &L->node[SDK_LIT_NODE(ch[i])];
            if (i == n - 2 && nd->kind == SDK_LN_GROUP) continue;
            if (nd->kind == SDK_LN_ALS)
                sdk_bb_add(&chaincells, nd->cell);
            else
                chaincells = sdk_bb_or(chaincells, nd->cells);
        }
        int last = n - 1;
        for (int i = 0; i <= last; i++) {
            bool st = SDK_LIT_ON(ch[i]);
            if ((i == 0 && fs && ls) ||
                (i > 0 && st && i <= last - 2 && node_cell(L, ch[i - 1]) != node_cell(L, ch[i]))) {
                if (i == 0 ||
                    (!SDK_LIT_ON(ch[i + 1]) && node_cell(L, ch[i]) == node_cell(L, ch[i + 1]) &&
                     SDK_LIT_ON(ch[i + 2]) && node_cell(L, ch[i + 1]) != node_cell(L, ch[i + 2]))) {
                    int c1 = L->node[SDK_LIT_NODE(ch[i])].digit;
                    int c2 = i + 2 <= last ? L->node[SDK_LIT_NODE(ch[i + 2])].digit : 0;
                    if (i == 0) {
                        c1 = sc;
                        c2 = ec;
                    }
                    int cell = node_cell(L, ch[i]);
                    SDK_MASK_FOREACH(x, g->cand[cell])
                        if (x != c1 && x != c2) el_add(&e, g, cell, x);
                }
            }
            if (i > 0 && !st && node_cell(L, ch[i - 1]) != node_cell(L, ch[i])) {
                int ac = L->node[SDK_LIT_NODE(ch[i])].digit;
                sdk_bb t = sdk_bb_and(sdk_links_node_buddies(L, SDK_LIT_NODE(ch[i - 1]), ac),
                                      sdk_links_node_buddies(L, SDK_LIT_NODE(ch[i]), ac));
                t = sdk_bb_andnot(t, chaincells);
                sdk_bb_del(&t, si);
                t = sdk_bb_and(t, g->digit[ac - 1]);
                SDK_BB_FOREACH(x, t) el_add(&e, g, x, ac);
                const sdk_lnode *an = &L->node[SDK_LIT_NODE(ch[i])];
                if (an->kind == SDK_LN_ALS) {
                    const sdk_als *A = &L->als.als[an->als];
                    bool force = i < last && SDK_LIT_ON(ch[i + 1]);
                    unsigned exits = 0;
                    int next = i < last ? node_cell(L, ch[i + 1]) : -1;
                    if (force) {
                        exits =
                            g->cand[next] & ~sdk_digit_bit(L->node[SDK_LIT_NODE(ch[i + 1])].digit);
                    } else if (i < last) {
                        exits = sdk_digit_bit(L->node[SDK_LIT_NODE(ch[i + 1])].digit);
                    }
                    SDK_MASK_FOREACH(j, A->digits) {
                        if (j == ac || (exits & sdk_digit_bit(j))) continue;
                        sdk_bb t2 = sdk_bb_and(A->peers[j - 1], g->digit[j - 1]);
                        SDK_BB_FOREACH(x, t2) el_add(&e, g, x, j);
                    }
                    if (force) {
                        SDK_MASK_FOREACH(j, exits) {
                            if (!(A->digits & sdk_digit_bit(j))) continue;
                            sdk_bb t2 = sdk_bb_and(sdk_bb_and(A->peers[j - 1], sdk_peer_bb[next]),
                                                   g->digit[j - 1]);
                            SDK_BB_FOREACH(x, t2) el_add(&e, g, x, j);
                        }
                    }
                }
            }
        }
    }
    if (e.n == 0) return;
    record(s, type, ch, n, len, &e);
}

/* The AIC start..end, kept for record_aics() when it eliminates. */
static void check_aic(search *s, int start, int end)
{
    const sdk_links *L = s->L;
    const sdk_grid *g = s->g;
    if (s->S.dist[end] <= 2) return;
    int sc = L->node[SDK_LIT_NODE(start)].digit, ec = L->node[SDK_LIT_NODE(end)].digit;
    int si = L->node[SDK_LIT_NODE(start)].cell, ei = L->node[SDK_LIT_NODE(end)].cell;
    elims e = {{0}, 0};
    if (sc == ec) {
        sdk_bb t = sdk_bb_and(sdk_bb_and(sdk_peer_bb[si], sdk_peer_bb[ei]), g->digit[sc - 1]);
        if (sdk_bb_count(t) > 1)
            SDK_BB_FOREACH(x, t) el_add(&e, g, x, sc);
    } else {
        el_add(&e, g, si, ec);
        el_add(&e, g, ei, sc);
    }
    if (e.n == 0) return;
    int ch[MAXCH];
    int n = sdk_links_path(&s->S, end, ch, MAXCH), len = s->S.dist[end];
    if (n < 2 || !lasso_ok(L, ch, n, false, true)) {
        n = retry_path(s, start, end, ch, &len, false);
        if (!n) return;
    }
    if (s->npd == s->cappd) {
        s->cappd = s->cappd ? s->cappd * 2 : 256;
        s->pd = sdk_xrealloc(s->pd, sizeof *s->pd * (size_t)s->cappd);
    }
    if (s->nplit + n > s->capplit) {
        s->capplit = s->capplit * 2 > s->nplit + n ? s->capplit * 2 : s->nplit + n + 4096;
        s->plit = sdk_xrealloc(s->plit, sizeof *s->plit * (size_t)s->capplit);
    }
    memcpy(s->plit + s->nplit, ch, sizeof(int) * (size_t)n);
    s->pd[s->npd++] = (pending){n, len, s->nplit, e};
    s->nplit += n;
}

static void record_aics(search *s)
{
    for (int i = 0; i < s->npd; i++) {
        const pending *p = &s->pd[i];
        record(s, T_AIC, s->plit + p->at, p->n, p->len, &p->e);
    }
    s->npd = s->nplit = 0;
}

/* The AIC ends (true candidates) from the false premise (c, d) that could
 * eliminate something: sharing d with two cells seeing both ends, or seeing
 * the start with the digits crossed (in a cell holding d, as the first kind).
 * Read from the literals the search reached (a few dozen) rather than from
 * every cell holding d, and only those check_aic() looks at (distance above
 * 2); into ends[] in the order of the cells and digits, the order in which the
 * full enumeration checks them. Returns their count. */
static int aic_ends_reached(const search *s, int c, int d, const int *reached, int nreached,
                            int *ends)
{
    const sdk_grid *g = s->g;
    int n = 0;
    for (int i = 0; i < nreached; i++) {
        int lit = reached[i];
        if (!SDK_LIT_ON(lit) || SDK_LIT_NODE(lit) >= SDK_NCAND || s->S.dist[lit] <= 2) continue;
        if (!chain_aic_end(g, c, d, SDK_LIT_NODE(lit) / 9, SDK_LIT_NODE(lit) % 9 + 1)) continue;
        int j = n++;
        for (; j > 0 && ends[j - 1] > lit; j--) ends[j] = ends[j - 1];
        ends[j] = lit;
    }
    return n;
}

/* The same from every cell holding d (a search that did not list what it
 * reached: weighted links). */
static int aic_ends_all(const search *s, int c, int d, int *ends)
{
    const sdk_grid *g = s->g;
    sdk_bb bud = sdk_peer_bb[c];
    sdk_bb dcells = g->digit[d - 1];
    int n = 0;
    SDK_BB_FOREACH(ec, dcells) {
        if (ec == c) continue;
        unsigned m = 0;
        sdk_bb t = sdk_bb_and(sdk_bb_and(bud, sdk_peer_bb[ec]), dcells);
        if (sdk_bb_count(t) >= 2) m |= sdk_digit_bit(d);
        if (sdk_bb_has(bud, ec)) m |= g->cand[c] & ~sdk_digit_bit(d);
        SDK_MASK_FOREACH(ed, m) {
            int lit = SDK_LIT(SDK_CAND_NODE(ec, ed), 1);
            if (s->S.dist[lit] != INT_MAX && s->S.dist[lit] > 2) ends[n++] = lit;
        }
    }
    return n;
}

/* All chains from every premise. The second search of the grouped kind
 * (lifo: other shortest chains, the same distances) only repeats the
 * premises whose first search had a literal to check past distance 2: for
 * the others every check stops at the distance, whatever the chain. */
static void run_search(search *s, bool lifo)
{
    const sdk_links *L = s->L;
    const sdk_grid *g = s->g;
    int ends[2 * SDK_NCAND];
    /* pass 0: true premises, nice loops; pass 1: false premises, nice loops
     * and AICs (recorded after the loops, as a third pass would) */
    for (int pass = 0; pass < 2; pass++) {
        int on = pass == 0 ? 1 : 0;
        for (int c = 0; c < 81; c++) {
            if (g->value[c]) continue;
            SDK_MASK_FOREACH(d, g->cand[c]) {
                bool *need = &s->need[pass][SDK_CAND_NODE(c, d)];
                if (lifo && !*need) continue;
                int start = SDK_LIT(SDK_CAND_NODE(c, d), on);
                /* a false premise without a strong link reaches nothing (as
                 * chain_reach_false_may_chain() answers, without the call) */
                if (s->R.ok && !(pass == 0 ? chain_reach_true_may_loop(&s->R, g, c, d)
                                           : L->first[start] != L->first[start + 1] &&
                                                 chain_reach_false_may_chain(&s->R, L, g, c, d))) {
                    *need = false;
                    continue;
                }
                if (!s->S.dist) sdk_lsearch_init(&s->S, L); /* first use */
                if (lifo)
                    sdk_links_search_lifo(L, start, &s->S);
                else
                    sdk_links_search(L, start, &s->S);
                bool deep = false;
                /* nice loops: back in the start cell */
                SDK_MASK_FOREACH(x, g->cand[c]) {
                    for (int v = 0; v < 2; v++) {
                        int lit = SDK_LIT(SDK_CAND_NODE(c, x), v);
                        if (lit == start || s->S.dist[lit] == INT_MAX) continue;
                        if (s->S.dist[lit] > 2) deep = true;
                        check_nice_loop(s, start, lit);
                    }
                }
                if (pass == 1) {
                    const int *reached;
                    int nreached = sdk_lsearch_reached(&s->S, &reached);
                    int nends = nreached >= 0 ? aic_ends_reached(s, c, d, reached, nreached, ends)
                                              : aic_ends_all(s, c, d, ends);
                    if (nends) deep = true;
                    for (int i = 0; i < nends; i++) check_aic(s, start, ends[i]);
                }
                if (!lifo) *need = deep;
            }
        }
    }
    record_aics(s);
}

/* ---- techniques ------------------------------------------------------- */

static const char *type_name(int type, bool grouped)
{
    static const char *names[2][3] = {
        {"Continuous Nice Loop", "Discontinuous Nice Loop", "AIC"},
        {"Grouped Continuous Nice Loop", "Grouped Discontinuous Nice Loop", "Grouped AIC"}};
    return names[grouped ? 1 : 0][type];
}

static int difficulty(const sdk_links *L, int type, bool grouped, bool als, const int *lit,
                      int nlit)
{
    bool one_digit = true;
    int d0 = L->node[SDK_LIT_NODE(lit[0])].digit;
    for (int i = 1; i < nlit; i++)
        if (L->node[SDK_LIT_NODE(lit[i])].digit != d0) one_digit = false;
    int base;
    if (type == T_CNL)
        base = one_digit ? 65 : 70;
    else
        base = one_digit ? 66 : 70;
    if (grouped) base += 2;
    if (als) base += 3;
    return base + sdk_chain_length_tenths(nlit);
}

/* What a chain technique looks for: its descriptor's data. */
typedef struct chain_kind {
    int type; /* T_* */
    bool grouped;
} chain_kind;

/* ---- the per-thread result of the last search ---------------------------- */

/* Fixed sizes (about 46 KB per slot; the hardest public puzzles need at
 * most 45 chains, 600 literals, 75 eliminations): a search whose result
 * does not fit is not kept (each technique of the family then searches
 * again, as without the cache). */
#define CACHE_FOUND 256
#define CACHE_LITS 8192
#define CACHE_ELIMS 4096

typedef struct cached_found {
    uint8_t type;
    bool grouped, als;
    int nlit, lit_at, nelim, elim_at;
} cached_found;

/* The chains one search found on a position (values, candidates) with the
 * given link flags, in the order found: lit[] and elim[] hold the records'
 * literals and eliminations one after the other. */
typedef struct chain_cache {
    uint8_t value[SDK_CELLS];
    uint16_t cand[SDK_CELLS];
    unsigned flags;
    bool used;
    bool complete; /* false: the result did not fit */
    int n, nlit, nelim;
    cached_found f[CACHE_FOUND];
    int lit[CACHE_LITS];
    uint16_t elim[CACHE_ELIMS];
} chain_cache;
static _Thread_local chain_cache cache[2]; /* plain, grouped */

static bool cache_hit(const chain_cache *c, const sdk_grid *g, unsigned flags)
{
    return c->used && c->flags == flags && !memcmp(c->value, g->value, sizeof c->value) &&
           !memcmp(c->cand, g->cand, sizeof c->cand);
}

/* Keep the search's result: false when it does not fit. */
static bool cache_store(chain_cache *c, const sdk_grid *g, unsigned flags, const search *s)
{
    memcpy(c->value, g->value, sizeof c->value);
    memcpy(c->cand, g->cand, sizeof c->cand);
    c->flags = flags;
    c->used = true;
    c->complete = false;
    c->n = c->nlit = c->nelim = 0;
    if (s->n > CACHE_FOUND) return false;
    for (int i = 0; i < s->n; i++) {
        const found *f = &s->f[i];
        if (c->nlit + f->nlit > CACHE_LITS || c->nelim + f->nelim > CACHE_ELIMS) return false;
        c->f[i] = (cached_found){(uint8_t)f->type, f->grouped, f->als,  f->nlit,
                                 c->nlit,          f->nelim,   c->nelim};
        memcpy(c->lit + c->nlit, f->lit, sizeof(int) * (size_t)f->nlit);
        memcpy(c->elim + c->nelim, f->elim, sizeof(uint16_t) * (size_t)f->nelim);
        c->nlit += f->nlit;
        c->nelim += f->nelim;
    }
    c->n = s->n;
    c->complete = true;
    return true;
}

/* Emit one chain as a step of technique t. */
static int emit_chain(const sdk_ctx *ctx, sdk_sink *sink, const sdk_links *L, int type,
                      bool grouped, const cached_found *f, const int *lit, const uint16_t *elim)
{
    int nlit = f->nlit, nelim = f->nelim;
    sdk_step *st = sdk_scratch_step(ctx, 0);
    sdk_step_init(st, ctx->self);
    st->difficulty = difficulty(L, type, f->grouped, f->als, lit, nlit);
    for (int k = 0; k < nelim; k++) sdk_step_elim(st, elim[k] / 9, elim[k] % 9 + 1);
    sdk_links_to_step(L, lit, nlit, st);
    char buf[SDK_STEP_TEXT];
    sdk_links_eureka(L, lit, nlit, buf, sizeof buf - 64);
    sdk_step_printf(st, "%s: %s", type_name(type, grouped), buf);
    return sdk_emit(sink, st);
}

/* The steps of one kind from the kept result (the links rebuilt only when
 * there is one: the chains' literals name the same nodes). */
static int emit_cached(const sdk_ctx *ctx, const sdk_grid *g, sdk_sink *sink, const chain_cache *c,
                       int type, bool grouped)
{
    bool any = false;
    for (int i = 0; i < c->n && !any; i++) any = c->f[i].type == type;
    if (!any) return SDK_CONTINUE;
    const sdk_links *L = sdk_links_shared(g, c->flags, NULL);
    if (!L) return SDK_CONTINUE;
    int ret = SDK_CONTINUE;
    for (int i = 0; i < c->n && ret != SDK_STOP; i++) {
        const cached_found *f = &c->f[i];
        if (f->type != type) continue;
        ret = emit_chain(ctx, sink, L, type, grouped, f, c->lit + f->lit_at, c->elim + f->elim_at);
    }
    return ret;
}

/* The reachability arrays of the thread's last search (reused), freed by
 * the thread that unloads the plugin, or by the host's release between
 * requests (sudoku/cache.h; registered by each search that keeps them).
 * Both are made again on first use; a miss is only read for its grid. */
static _Thread_local chain_reach reach_kept;

/* The thread's recent misses, by position and link flags (grid_memo.h). */
enum { MISS_SLOTS = 512 };
static _Thread_local position_miss *misses;

__attribute__((destructor)) static void reach_kept_release(void)
{
    chain_reach_free(&reach_kept);
    free(misses);
    misses = NULL;
}

static int find_chains(const sdk_ctx *ctx, const sdk_grid *g, sdk_sink *sink)
{
    const sdk_technique *t = ctx->self;
    const chain_kind *kind = t->data;
    int type = kind->type;
    bool grouped = kind->grouped;
    unsigned flags = 0;
    if (grouped) {
        flags |= SDK_LINKS_GROUPS;
        if (sdk_opt_bool(ctx, "als", false)) flags |= SDK_LINKS_ALS;
    }
    /* reuse=0: every premise searched, neither the kept result nor the
     * misses read or written (tests compare the two) */
    bool reuse = sdk_opt_bool(ctx, "reuse", true);
    chain_cache *c = &cache[grouped ? 1 : 0];
    if (reuse && cache_hit(c, g, flags) && c->complete)
        return emit_cached(ctx, g, sink, c, type, grouped);
    if (reuse && position_miss_seen(misses, MISS_SLOTS, g, flags)) return SDK_CONTINUE;
    search *s = sdk_xcalloc(1, sizeof *s);
    s->g = g;
    s->only_grouped = grouped;
    int ret = SDK_CONTINUE;
    /* the graph from the per-thread cache: the forcing chains that come
     * later on the position read the same one */
    s->L = sdk_links_shared(g, flags, NULL);
    if (!s->L) goto out;
    /* the searches' work areas (S, S2) are made on first use: the
     * reachability sets leave most positions without a search; their
     * arrays are kept for the thread's next search */
    sdk_cache_register(reach_kept_release);
    s->R = reach_kept;
    memset(&reach_kept, 0, sizeof reach_kept); /* ours until the end */
    chain_reach_build(s->L, &s->R);
    run_search(s, false);
    /* grouped: also the other shortest chains (ties broken the other way),
     * which may give other eliminations */
    if (grouped) run_search(s, true);
    if (reuse) {
        cache_store(c, g, flags, s);
        if (s->n == 0) position_miss_note(&misses, MISS_SLOTS, g, flags);
    }
    for (int i = 0; i < s->n && ret != SDK_STOP; i++) {
        const found *f = &s->f[i];
        if (f->type != type) continue;
        cached_found cf = {(uint8_t)f->type, f->grouped, f->als, f->nlit, 0, f->nelim, 0};
        ret = emit_chain(ctx, sink, s->L, type, grouped, &cf, f->lit, f->elim);
    }
    sdk_lsearch_free(&s->S);
    sdk_lsearch_free(&s->S2);
    chain_reach_free(&reach_kept); /* empty, unless a nested find kept its own */
    reach_kept = s->R;
out:
    free(s->f);
    free(s->hidx);
    free(s->hkey);
    free(s->pd);
    free(s->plit);
    free(s);
    return ret;
}

static const chain_kind k_cnl = {T_CNL, false}, k_dnl = {T_DNL, false}, k_aic = {T_AIC, false},
                        k_gcnl = {T_CNL, true}, k_gdnl = {T_DNL, true}, k_gaic = {T_AIC, true};

static const sdk_technique cnl = {
    .abi = SDK_ABI_VERSION,
    .size = sizeof(sdk_technique),
    .id = "continuous-nice-loop",
    .name = "Continuous Nice Loop",
    .difficulty = 70,
    .score = 280,
    .level = SDK_LEVEL_UNFAIR,
    .find = find_chains,
    .data = &k_cnl,
    .summary = "a closed alternating loop: every weak link eliminates",
};
static const sdk_technique dnl = {
    .abi = SDK_ABI_VERSION,
    .size = sizeof(sdk_technique),
    .id = "discontinuous-nice-loop",
    .name = "Discontinuous Nice Loop",
    .difficulty = 70,
    .score = 280,
    .level = SDK_LEVEL_UNFAIR,
    .find = find_chains,
    .data = &k_dnl,
    .summary = "a loop broken in its start cell: the start candidate is set or removed",
};
static const sdk_technique aic = {
    .abi = SDK_ABI_VERSION,
    .size = sizeof(sdk_technique),
    .id = "aic",
    .name = "AIC",
    .difficulty = 70,
    .score = 280,
    .level = SDK_LEVEL_UNFAIR,
    .find = find_chains,
    .data = &k_aic,
    .summary = "alternating inference chain: one of its two ends is true",
};
static const sdk_technique gcnl = {
    .abi = SDK_ABI_VERSION,
    .size = sizeof(sdk_technique),
    .id = "grouped-continuous-nice-loop",
    .name = "Grouped Continuous Nice Loop",
    .difficulty = 72,
    .score = 300,
    .level = SDK_LEVEL_UNFAIR,
    .find = find_chains,
    .data = &k_gcnl,
    .summary = "continuous nice loop with group (and ALS with als=1) nodes",
};
static const sdk_technique gdnl = {
    .abi = SDK_ABI_VERSION,
    .size = sizeof(sdk_technique),
    .id = "grouped-discontinuous-nice-loop",
    .name = "Grouped Discontinuous Nice Loop",
    .difficulty = 72,
    .score = 300,
    .level = SDK_LEVEL_UNFAIR,
    .find = find_chains,
    .data = &k_gdnl,
    .summary = "discontinuous nice loop with group (and ALS with als=1) nodes",
};
static const sdk_technique gaic = {
    .abi = SDK_ABI_VERSION,
    .size = sizeof(sdk_technique),
    .id = "grouped-aic",
    .name = "Grouped AIC",
    .difficulty = 72,
    .score = 300,
    .level = SDK_LEVEL_UNFAIR,
    .find = find_chains,
    .data = &k_gaic,
    .summary = "AIC with group (and ALS with als=1) nodes",
};

SDK_PLUGIN(&cnl, &dnl, &aic, &gcnl, &gdnl, &gaic)
