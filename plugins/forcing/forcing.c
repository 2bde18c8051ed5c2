/* forcing.c - forcing chains and nets on the link model of links.h:
 *
 *  forcing-chain-contradiction / -verity  static chains (HoDoKu tables, with
 *      group nodes; ALS nodes with als=1): a premise that implies a candidate
 *      both true and false, two digits in a cell, a digit twice in a house, an
 *      empty cell or house is false; what every candidate of a cell (every
 *      place of a digit in a house, or a candidate true and false) implies is
 *      true.
 *  forcing-net-contradiction / -verity, dynamic-forcing-chain  the same with
 *      the dynamic search (consequences narrow the grid as they come: singles).
 *  nishio          one digit only: a placement that leaves a house without it.
 *  nested-forcing-chain  an assumption followed by the profile's earlier
 *      techniques (ctx->propagate; propagate-upto=N: only its first N) breaks
 *      the grid; without an engine, by dynamic chains nested inside dynamic
 *      chains (bivalue cells).
 *
 * Kraken fish (finned fish followed by the same static chains) are in
 * kraken.c; forcing_private.h holds the tables both read. Ratings follow
 * Sudoku Explainer: base plus its length increment. */
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "sudoku/alloc.h"
#include "sudoku/cache.h"
#include "sudoku/links.h"
#include "sudoku/solver.h"
#include "sudoku/technique.h"
#include "forcing_private.h"
#include "dyn_memo.h"
#include "inner.h"
#include "table_scan.h"

static const sdk_technique fcc, fcv, fnc, fnv, nishio, dfc, nfc;

/* ---- steps from static chains ----------------------------------------- */

bool forcing_static_init(sctx *s, const sdk_grid *g, unsigned flags, const uint8_t *false_of)
{
    if (!forcing_links_init(s, g, flags)) return false;
    for (int c = 0; c < 81; c++) {
        if (g->value[c]) continue;
        SDK_MASK_FOREACH(d, g->cand[c]) {
            for (int on = 0; on < 2; on++) {
                if (false_of && (false_of[c] == d) == on) continue; /* true in the solution */
                int lit = SDK_LIT(SDK_CAND_NODE(c, d), on);
                /* a valid table is what forcing_table() would return as is
                 * (after the first call, tables_all() made them all) */
                if (!s->t[lit].valid) forcing_table(s, lit);
            }
        }
    }
    return true;
}

/* The position a per-thread cache below holds: values, candidates and the
 * flags its search ran with. A hit compares them whole, so it is exact. */
typedef struct position_key {
    uint8_t value[SDK_CELLS];
    uint16_t cand[SDK_CELLS];
    unsigned flags;
    bool used;
} position_key;

static bool key_holds(const position_key *k, const sdk_grid *g, unsigned flags)
{
    return k->used && k->flags == flags && !memcmp(k->value, g->value, sizeof k->value) &&
           !memcmp(k->cand, g->cand, sizeof k->cand);
}

static void key_set(position_key *k, const sdk_grid *g, unsigned flags)
{
    memcpy(k->value, g->value, sizeof k->value);
    memcpy(k->cand, g->cand, sizeof k->cand);
    k->flags = flags;
    k->used = true;
}

/* The premise tables of the last position searched, per thread. Forcing
 * chain contradiction, kraken fish (both types) and forcing chain verity run
 * one after the other on the same position whenever none of them finds
 * anything, and a table depends only on the position (values, candidates)
 * and the link kinds: each reads what the earlier ones searched. One
 * context holds the tables at a time (finds of a thread do not overlap). */
typedef struct table_cache {
    position_key key;
    table t[2 * SDK_NCAND];
} table_cache;
static _Thread_local table_cache tables;

/* A search buffer on the links of the last position, per thread. The links
 * themselves come from sdk_links_shared(): the chains plugin's grouped AICs
 * and nice loops read the same graph earlier on a position, and forcing
 * chain contradiction, kraken fish and forcing chain verity one after the
 * other. The buffer is made again when the graph is another build (serial),
 * and freed by the thread that unloads the plugin. */
typedef struct links_cache {
    bool used;
    uint64_t serial; /* the build of the graph the buffer is made on */
    sdk_lsearch S;
} links_cache;
static _Thread_local links_cache *links_last;

static void tables_work_release(void);
static void forcing_caches_release(void);

__attribute__((destructor)) static void links_cache_release(void)
{
    tables_work_release();
    if (!links_last) return;
    if (links_last->used) sdk_lsearch_free(&links_last->S);
    free(links_last);
    links_last = NULL;
}

bool forcing_links_init(sctx *s, const sdk_grid *g, unsigned flags)
{
    memset(s, 0, sizeof *s);
    s->g = g;
    const sdk_links *L = sdk_links_shared(g, flags, &s->serial);
    if (!L) return false;
    s->L = L; /* s->S: made on the first search (search_buffer) */
    table_cache *tc = &tables;
    if (!key_holds(&tc->key, g, flags)) {
        key_set(&tc->key, g, flags);
        for (int i = 0; i < 2 * SDK_NCAND; i++) tc->t[i].valid = false;
    }
    s->t = tc->t;
    return true;
}

/* The search buffer on s's links, made when first wanted: most finds read
 * only the tables (made together, without it) and write no chain. */
static sdk_lsearch *search_buffer(sctx *s)
{
    if (s->S) return s->S;
    if (!links_last) {
        links_last = sdk_xcalloc(1, sizeof *links_last);
        sdk_cache_register(forcing_caches_release);
    }
    links_cache *lc = links_last;
    if (!lc->used || lc->serial != s->serial) {
        if (lc->used) sdk_lsearch_free(&lc->S);
        lc->used = false;
        sdk_lsearch_init(&lc->S, s->L);
        lc->used = true;
        lc->serial = s->serial;
    }
    s->S = &lc->S;
    return s->S;
}

/* A solution of the last grids, per thread. The finds of one puzzle's path
 * (and of the nested propagations from it) each want a solution of their
 * grid; a grid only loses candidates along a path, so:
 *  - a solution of an earlier grid that agrees with g (each cell's digit is
 *    its value or one of its candidates) is a solution of g;
 *  - a grid whose possible digits (value or candidates) are all possible in
 *    a grid without a solution has none either.
 * Either way the solver is not called. The solution may be another than
 * the solver's first when g has several: the callers only skip premises a
 * solution makes true (sound for any solution), so their steps are the same
 * (and a puzzle has one when uniqueness techniques run). */
typedef struct solution_cache {
    bool have; /* sol: a solution of a grid seen */
    uint8_t sol[SDK_CELLS];
    bool have_none; /* none: possible digits of a grid without solution */
    uint16_t none[SDK_CELLS];
} solution_cache;
static _Thread_local solution_cache solved;

static unsigned possible(const sdk_grid *g, int c)
{
    return g->value[c] ? sdk_digit_bit(g->value[c]) : g->cand[c];
}

/* The thread's solution cache, its address taken out of line (as
 * tables_work_mine() below: GCC would call __tls_get_addr again for every
 * cell of the loop). */
static __attribute__((noinline)) solution_cache *solution_mine(void)
{
    return &solved;
}

bool forcing_solution(const sdk_grid *g, uint8_t sol[SDK_CELLS])
{
    solution_cache *sc = solution_mine();
    bool fits = sc->have, within = sc->have_none;
    for (int c = 0; c < SDK_CELLS && (fits || within); c++) {
        unsigned m = possible(g, c);
        if (fits && !(m & sdk_digit_bit(sc->sol[c]))) fits = false;
        if (within && (m & ~(unsigned)sc->none[c])) within = false;
    }
    if (fits) {
        memcpy(sol, sc->sol, SDK_CELLS);
        return true;
    }
    if (within) return false;
    uint8_t found[SDK_CELLS];
    if (sdk_solve_grid(g, 1, &found, NULL) > 0) {
        memcpy(sc->sol, found, SDK_CELLS);
        sc->have = true;
        memcpy(sol, found, SDK_CELLS);
        return true;
    }
    for (int c = 0; c < SDK_CELLS; c++) sc->none[c] = (uint16_t)possible(g, c);
    sc->have_none = true;
    return false;
}

/* Search what lit implies and write it into t. */
static void table_search(sctx *s, int lit, table *t)
{
    sdk_lsearch *S = search_buffer(s);
    sdk_links_search(s->L, lit, S);
    const int *reached;
    int nreached = sdk_lsearch_reached(S, &reached);
    if (nreached >= 0) { /* the literals reached, from the search's queue */
        memset(&t->on, 0, sizeof t->on);
        memset(&t->off, 0, sizeof t->off);
        for (int i = 0; i < nreached; i++) {
            int l = reached[i], k = l >> 1;
            if (k < SDK_NCAND) cs_add((l & 1) ? &t->on : &t->off, k);
        }
        return;
    }
    /* word by word, without branches (this runs for every premise) */
    const int *dist = S->dist;
    for (int w = 0; w < 12; w++) {
        uint64_t on_w = 0, off_w = 0;
        int k0 = w * 64, k1 = k0 + 64 < SDK_NCAND ? k0 + 64 : SDK_NCAND;
        for (int k = k0; k < k1; k++) {
            on_w |= (uint64_t)(dist[2 * k + 1] != INT_MAX) << (k - k0);
            off_w |= (uint64_t)(dist[2 * k] != INT_MAX) << (k - k0);
        }
        t->on.w[w] = on_w;
        t->off.w[w] = off_w;
    }
}

/* Every premise's table at once. A static search is plain reachability in
 * the link graph (no edge depends on the way in), so what a literal reaches
 * is itself plus what its successors reach; literals that reach each other
 * (a strongly connected component: "k false" and its strong partner "p
 * true", and longer cycles) reach the same set. Tarjan's algorithm finds
 * the components in an order where each comes after every component it
 * reaches, so each component's set is the union of its successors' sets,
 * computed once: one pass over the graph instead of a search per premise.
 * Sets as the tables keep them: candidates only (group and ALS nodes pass
 * implications on but are no premise). Only the grid's candidates get a
 * table (valid), as forcing_static_init() leaves them. False when out of
 * memory (then tables are searched one by one). */
/* A literal that no link leaves (most of them: a candidate made false
 * whose cell and houses hold no strong link) reaches itself only. The pass
 * leaves such literals out of the graph it hands to Tarjan: an edge to one
 * adds one bit to the set of the component it leaves, and the leaf is no
 * component (unless it is a premise itself, then a component of its own
 * with no successor). Four edges in five lead to a leaf on the hardest
 * puzzles, so the search, the components and the component graph shrink. */
/* tables_all()'s work arrays, per thread, kept between positions (grown
 * when a graph needs more): eight ints and one table per literal. */
enum { COMP_UNKNOWN = 0, COMP_CLEAN, COMP_BROKEN }; /* tables_work.cstate */
typedef struct tables_work {
    int cap;
    int *ints;
    table *reach;
    /* the component graph of the last tables_all(): successors of
     * component c are cedge[cfirst[c] .. cfirst[c + 1]); cstate: COMP_* */
    int ecap;
    int *cfirst, *cedge, *cstack;
    uint8_t *cstate;
    /* the graph without its leaves, for sdk_graph_scc: literal v's
     * successors that are no leaf are to[first[v] .. first[v + 1]), its
     * leaves leafto[leaf_first[v] .. leaf_first[v + 1]) (ecap, cap + 1) */
    int *to, *leafto, *first, *leaf_first;
    bool *root; /* the premises: the grid's candidates, both literals (cap) */
    bool *leaf; /* the literals no link leaves (cap) */
    long nleaf; /* edges to a leaf in the last pass (test_forcing_tables) */
} tables_work;
static _Thread_local tables_work twork;

static void tables_work_release(void)
{
    free(twork.ints);
    free(twork.reach);
    free(twork.cfirst);
    free(twork.cedge);
    free(twork.cstack);
    free(twork.cstate);
    free(twork.to);
    free(twork.leafto);
    free(twork.first);
    free(twork.leaf_first);
    free(twork.root);
    free(twork.leaf);
    memset(&twork, 0, sizeof twork);
}

/* The host's release (sudoku/cache.h), between requests: the search buffer
 * and tables_all()'s arrays go. The premise tables of the last position
 * stay (static storage) but are forgotten, since a table made by
 * tables_all() reads its sets in twork (table.sets): the next find on any
 * position makes its tables again, the same ones. The solutions kept
 * (solved) are static too and hold no pointer. */
static void forcing_caches_release(void)
{
    links_cache_release();
    tables.key.used = false;
}

/* The thread's twork. In a plugin (a shared object) a thread-local
 * variable's address costs a call to __tls_get_addr, and GCC makes that
 * call again inside loops rather than keep the address (even through a
 * pointer argument, when every caller passes &twork): so it is taken here,
 * out of line, once per find, and passed on to the functions below. */
static __attribute__((noinline)) tables_work *tables_work_mine(void)
{
    return &twork;
}

static void comp_mark_clean(tables_work *tw, int c)
{
    int sp = 0;
    tw->cstate[c] = COMP_CLEAN;
    tw->cstack[sp++] = c;
    while (sp) {
        int u = tw->cstack[--sp];
        for (int e = tw->cfirst[u]; e < tw->cfirst[u + 1]; e++) {
            int v = tw->cedge[e];
            if (tw->cstate[v] == COMP_CLEAN) continue;
            tw->cstate[v] = COMP_CLEAN;
            tw->cstack[sp++] = v;
        }
    }
}

/* tables_all()'s state for the callback. */
typedef struct tables_pass {
    tables_work *tw; /* twork: the graph without leaves (to, first, leafto, leaf_first) */
    const int *comp;
    int *merged; /* merged[c] == the completing component: c is in its set */
    int nce;     /* edges of the component graph so far */
    bool graph;  /* the component graph is kept */
} tables_pass;

/* Literal w's candidate into table r (group and ALS nodes have none). */
static inline void table_add_lit(table *r, int w)
{
    int kc = w >> 1;
    if (kc < SDK_NCAND) cs_add((w & 1) ? &r->on : &r->off, kc);
}

/* A component completed (every one it reaches came first): its set is its
 * members' candidates, the leaves they lead to (a bit each) and its
 * successor components' sets. */
static void tables_component(void *ctx, int c, const int *members, int k)
{
    tables_pass *p = ctx;
    tables_work *tw = p->tw;
    table *r = &tw->reach[c];
    memset(r, 0, sizeof *r);
    if (p->graph) tw->cfirst[c] = p->nce;
    for (int i = 0; i < k; i++) {
        int w = members[i];
        table_add_lit(r, w);
        for (int e = tw->leaf_first[w]; e < tw->leaf_first[w + 1]; e++)
            table_add_lit(r, tw->leafto[e]);
        for (int e = tw->first[w]; e < tw->first[w + 1]; e++) {
            int to = p->comp[tw->to[e]];
            if (to == c || p->merged[to] == c) continue;
            p->merged[to] = c;
            if (p->graph) tw->cedge[p->nce++] = to;
            for (int x = 0; x < 12; x++) {
                r->on.w[x] |= tw->reach[to].on.w[x];
                r->off.w[x] |= tw->reach[to].off.w[x];
            }
        }
    }
}

static bool tables_all(sctx *s)
{
    const sdk_links *L = s->L;
    const sdk_grid *g = s->g;
    int nlit = 2 * L->nnode;
    tables_work *tw = tables_work_mine();
    if (tw->cap < nlit) {
        sdk_cache_register(forcing_caches_release);
        free(tw->ints);
        free(tw->reach);
        free(tw->cfirst);
        free(tw->cstack);
        free(tw->cstate);
        free(tw->root);
        free(tw->leaf);
        free(tw->first);
        free(tw->leaf_first);
        tw->ints = malloc(sizeof(int) * (size_t)nlit * 8);
        tw->reach = malloc(sizeof(table) * (size_t)nlit);
        tw->cfirst = malloc(sizeof(int) * (size_t)(nlit + 2));
        tw->cstack = malloc(sizeof(int) * (size_t)nlit);
        tw->cstate = malloc((size_t)nlit);
        tw->root = malloc(sizeof(bool) * (size_t)nlit);
        tw->leaf = malloc(sizeof(bool) * (size_t)nlit);
        tw->first = malloc(sizeof(int) * (size_t)(nlit + 1));
        tw->leaf_first = malloc(sizeof(int) * (size_t)(nlit + 1));
        tw->cap =
            tw->ints && tw->reach && tw->root && tw->leaf && tw->first && tw->leaf_first ? nlit : 0;
        if (!tw->cap) return false;
    }
    int ne = L->first[nlit];
    if (tw->ecap < ne || !tw->cedge || !tw->to || !tw->leafto) {
        free(tw->cedge);
        free(tw->to);
        free(tw->leafto);
        tw->cedge = malloc(sizeof(int) * (size_t)(ne ? ne : 1));
        tw->to = malloc(sizeof(int) * (size_t)(ne ? ne : 1));
        tw->leafto = malloc(sizeof(int) * (size_t)(ne ? ne : 1));
        tw->ecap = tw->cedge && tw->to && tw->leafto ? ne : 0;
        if (!tw->to || !tw->leafto) return false;
    }
    /* work: 5 * nlit */
    int *comp = tw->ints, *merged = comp + nlit, *work = merged + nlit;
    /* from the premises (the grid's candidates, both literals): what none
     * of them reaches needs no set */
    memset(tw->root, 0, sizeof(bool) * (size_t)nlit);
    memset(merged, 0xff, sizeof(int) * (size_t)nlit);
    for (int c = 0; c < SDK_CELLS; c++)
        SDK_MASK_FOREACH(d, g->cand[c]) {
            int k = SDK_CAND_NODE(c, d);
            tw->root[2 * k] = tw->root[2 * k + 1] = true;
        }
    /* the edges, those to a leaf apart (a literal's flag made once) */
    bool *leaf = tw->leaf;
    for (int v = 0; v < nlit; v++) leaf[v] = L->first[v] == L->first[v + 1];
    int nto = 0, nleaf = 0;
    for (int v = 0; v < nlit; v++) {
        tw->first[v] = nto;
        tw->leaf_first[v] = nleaf;
        for (int e = L->first[v]; e < L->first[v + 1]; e++) {
            int w = L->edge[e].to;
            if (leaf[w])
                tw->leafto[nleaf++] = w;
            else
                tw->to[nto++] = w;
        }
    }
    tw->first[nlit] = nto;
    tw->leaf_first[nlit] = nleaf;
    tw->nleaf = nleaf;
    tables_pass p = {.tw = tw,
                     .comp = comp,
                     .merged = merged,
                     .graph = tw->cedge && tw->cfirst && tw->cstack && tw->cstate};
    int ncomp = sdk_graph_scc(nlit, tw->first, tw->to, tw->root, comp, work, tables_component, &p);
    bool graph = p.graph;
    table *reach = tw->reach;
    if (graph) {
        tw->cfirst[ncomp] = p.nce;
        memset(tw->cstate, 0, (size_t)ncomp);
    }
    for (int c = 0; c < 81; c++) {
        if (g->value[c]) continue;
        SDK_MASK_FOREACH(d, g->cand[c]) {
            for (int on = 0; on < 2; on++) {
                int l = SDK_LIT(SDK_CAND_NODE(c, d), on);
                table *t = &s->t[l];
                t->sets = &reach[comp[l]]; /* shared, not copied */
                t->comp = graph ? comp[l] : -1;
                t->valid = true;
            }
        }
    }
    return true;
}

const table *forcing_table(sctx *s, int lit)
{
    table *t = &s->t[lit];
    if (t->valid) return t->sets;
    /* the first table asked for on a position: all of them */
    if (!s->all_tried) {
        s->all_tried = true;
        if (tables_all(s) && t->valid) return t->sets;
    }
    table_search(s, lit, t);
    t->comp = -1;
    t->sets = t;
    t->valid = true;
    return t;
}

void forcing_static_free(sctx *s)
{
    /* s->L, s->S and s->t stay in the per-thread caches */
    (void)s;
}

/* Add the chain premise -> lit to the step; returns its node count. */
int forcing_add_chain(sctx *s, int premise, int lit, sdk_step *st, char *txt, size_t n)
{
    sdk_lsearch *S = search_buffer(s);
    sdk_links_search(s->L, premise, S);
    int ch[256];
    int m = sdk_links_path(S, lit, ch, 256);
    if (m <= 0) return 0;
    sdk_links_to_step(s->L, ch, m, st);
    if (txt) sdk_links_eureka(s->L, ch, m, txt, n);
    return m;
}

static const char *lit_name(int lit, char *buf)
{
    char a[8];
    sprintf(buf, "%s%s%d", sdk_cell_name((lit >> 1) / 9, a), (lit & 1) ? "=" : "<>",
            (lit >> 1) % 9 + 1);
    return buf;
}

/* The nine bits of candidates c*9 .. c*9+8 of a set (bit d-1: digit d). */
static unsigned cs_cell(const cset *s, int c)
{
    int b = c * 9, w = b >> 6, o = b & 63;
    uint64_t v = s->w[w] >> o;
    if (o > 55) v |= s->w[w + 1] << (64 - o);
    return (unsigned)v & 0x1ffu;
}

/* The chains of the contradiction a table shows by itself (kinds 2, 4 and
 * 6 of static_contradiction below; table_scan() tells whether there is one),
 * in its fixed order: a candidate true and false, cells, then houses digit
 * by digit. The chains from premise p go into st (len: their node count);
 * returns the kind found, 0 for none. */
static int table_contradiction(sctx *s, int p, const table *t, sdk_step *st, int *len)
{
    const sdk_grid *g = s->g;
    for (int w = 0; w < 12; w++) {
        uint64_t both = t->on.w[w] & t->off.w[w];
        if (!both) continue;
        int k = w * 64 + __builtin_ctzll(both);
        if (k >= SDK_NCAND) break;
        char a[512], b[512];
        int l1 = forcing_add_chain(s, p, 2 * k + 1, st, a, sizeof a);
        int l2 = forcing_add_chain(s, p, 2 * k, st, b, sizeof b);
        *len = l1 + l2;
        sdk_step_printf(st, "%s / %s", a, b);
        return 2;
    }
    /* Kinds 3 (two digits of a cell made true) and 5 (a digit made true
     * twice in a house) never come here: a table is closed under the links,
     * and a true candidate's links make the other candidates of its cell and
     * the other places of its digit in its houses false, so the second true
     * one would be true and false (kind 2, above). Left: a cell or a house's
     * digit with every candidate made false. Per cell: the candidates the
     * premise leaves alive. */
    uint16_t alive_c[SDK_CELLS];
    for (int c = 0; c < 81; c++) {
        unsigned cand = g->cand[c]; /* 0 for a solved cell */
        unsigned off = cs_cell(&t->off, c) & cand;
        alive_c[c] = (uint16_t)(cand & ~off);
        if (g->value[c] || off != cand) continue;
        SDK_MASK_FOREACH(d, cand) *len += forcing_add_chain(s, p, 2 * (c * 9 + d - 1), st, NULL, 0);
        char a[8];
        sdk_step_printf(st, "%s has no candidate left", sdk_cell_name(c, a));
        return 4;
    }
    /* houses: a digit with every place made false (the masks of a house's
     * nine cells tell which digits, as bits; the first in order (house,
     * digit) gets its chains) */
    for (int h = 0; h < 27; h++) {
        unsigned present = 0, alive = 0;
        for (int i = 0; i < 9; i++) {
            int c = sdk_house_cell[h][i];
            present |= g->cand[c];
            alive |= alive_c[c];
        }
        unsigned bad = present & ~alive;
        if (!bad) continue;
        int d = __builtin_ctz(bad) + 1;
        sdk_bb b = sdk_house_digit(g, h, d);
        char hn[16];
        SDK_BB_FOREACH(c, b) *len += forcing_add_chain(s, p, 2 * (c * 9 + d - 1), st, NULL, 0);
        sdk_step_printf(st, "digit %d has no place in %s", d, sdk_house_name(h, hn));
        return 6;
    }
    return 0;
}

/* A table's verdict (table_contradiction() found nothing: clean) holds for
 * its component, and clean passes down the component graph: a component
 * reaches what its successors reach and more, every contradiction of a set
 * is one of any larger set, so a component reached from a clean one is
 * clean (comp_mark_clean). Component states in twork.cstate (tw). */

/* Static contradiction of premise p: returns the kind found, fills the chains.
 * The tests run in a fixed order (the premise's negation, then what the
 * table shows, table_contradiction()). */
static int static_contradiction(sctx *s, tables_work *tw, const table_scan_grid *sg, int p,
                                sdk_step *st, int *len)
{
    const table *t = &s->t[p], *sets = t->sets;
    char txt[512];
    *len = 0;
    /* the premise implies its own negation */
    if (cs_has((p & 1) ? &sets->off : &sets->on, p >> 1)) {
        *len = forcing_add_chain(s, p, p ^ 1, st, txt, sizeof txt);
        sdk_step_printf(st, "%s", txt);
        return 1;
    }
    /* the rest reads the table only: its component's verdict, when known */
    if (t->comp >= 0 && tw->cstate[t->comp] == COMP_CLEAN) return 0;
    int kind = table_scan(sg, &sets->on, &sets->off);
    if (kind) kind = table_contradiction(s, p, sets, st, len);
    if (t->comp >= 0) {
        if (kind)
            tw->cstate[t->comp] = COMP_BROKEN;
        else
            comp_mark_clean(tw, t->comp);
    }
    return kind;
}

/* false when static_contradiction() certainly finds nothing for premise
 * p: it does not imply its own negation and its component is known clean
 * (the rest of the test reads only the table). */
static bool static_may_contradict(const sctx *s, const tables_work *tw, int p)
{
    const table *t = &s->t[p];
    if (cs_has((p & 1) ? &t->sets->off : &t->sets->on, p >> 1)) return true;
    return t->comp < 0 || tw->cstate[t->comp] != COMP_CLEAN;
}

/* table_scan()'s verdict on the set of a premise p that no link leaves:
 * p alone. Nothing is both true and false; an empty cell has every
 * candidate false only when it has none at all (empty_cell), or when p
 * makes its cell's last candidate false; a house's digit loses every place
 * only when p makes its last place false. */
static bool lone_broken(const sdk_grid *g, int p, bool empty_cell)
{
    if (empty_cell) return true;
    if (p & 1) return false;
    int k = p >> 1, c = k / 9, d = k % 9 + 1;
    if (g->cand[c] == sdk_digit_bit(d)) return true;
    for (int i = 0; i < 3; i++)
        if (sdk_bb_count(sdk_house_digit(g, sdk_cell_house[c][i], d)) == 1) return true;
    return false;
}

/* The verdicts of the premises' components, sources first: a clean one
 * spares the scan of every component below it. want[p]: premise p is
 * scanned by find_fcc; true_known: the others are true in a solution. A
 * premise that no link leaves is no successor in the component graph
 * (tables_all leaves it out): its verdict comes from lone_broken(). */
static void comp_verdicts(sctx *s, tables_work *tw, const table_scan_grid *sg, const bool *want,
                          bool true_known)
{
    const sdk_grid *g = s->g;
    bool empty_cell = false;
    for (int c = 0; c < 81; c++)
        if (!g->value[c] && !g->cand[c]) empty_cell = true;
    /* a wanted premise per component (its members share one table), the
     * components then taken from the last one down */
    int ncomp = 2 * s->L->nnode;
    int *rep = sdk_xmalloc(sizeof(int) * (size_t)ncomp);
    for (int c = 0; c < ncomp; c++) rep[c] = -1;
    for (int p = 0; p < 2 * SDK_NCAND; p++)
        if (want[p] && s->t[p].valid && s->t[p].comp >= 0) rep[s->t[p].comp] = p;
    /* a premise a solution makes true (not wanted) breaks nothing: its
     * component is clean, and so is all it reaches */
    if (true_known)
        for (int p = 0; p < 2 * SDK_NCAND; p++)
            if (!want[p] && s->t[p].valid && s->t[p].comp >= 0 &&
                tw->cstate[s->t[p].comp] != COMP_CLEAN)
                comp_mark_clean(tw, s->t[p].comp);
    for (int c = ncomp - 1; c >= 0; c--) {
        if (rep[c] < 0 || tw->cstate[c] != COMP_UNKNOWN) continue;
        const int *first = s->L->first;
        if (first[rep[c]] == first[rep[c] + 1]
                ? lone_broken(g, rep[c], empty_cell)
                : table_scan(sg, &s->t[rep[c]].sets->on, &s->t[rep[c]].sets->off))
            tw->cstate[c] = COMP_BROKEN;
        else
            comp_mark_clean(tw, c);
    }
    free(rep);
}

static int find_fcc(const sdk_ctx *ctx, const sdk_grid *g, sdk_sink *sink)
{
    unsigned flags = SDK_LINKS_GROUPS | (sdk_opt_bool(ctx, "als", false) ? SDK_LINKS_ALS : 0);
    sctx s;
    int ret = SDK_CONTINUE;
    sdk_step *st = sdk_scratch_step(ctx, 0);
    seen *sn = sdk_xcalloc(1, sizeof *sn);
    /* Only a false premise can lead to a contradiction (the chains are sound),
     * so with a solution of g at hand only the premises it makes false get a
     * table: half the searches, the same steps. */
    uint8_t solution[SDK_CELLS];
    bool have_solution = forcing_solution(g, solution);
    if (!forcing_static_init(&s, g, flags, have_solution ? solution : NULL)) goto out;
    bool *want = sdk_xcalloc(2 * SDK_NCAND, sizeof *want);
    for (int p = 0; p < 2 * SDK_NCAND; p++) {
        int pk = p >> 1;
        want[p] = !have_solution || (solution[pk / 9] == pk % 9 + 1) != (p & 1);
    }
    table_scan_grid sg;
    table_scan_grid_init(&sg, g);
    tables_work *tw = tables_work_mine();
    comp_verdicts(&s, tw, &sg, want, have_solution);
    free(want);
    for (int p = 0; p < 2 * SDK_NCAND && ret != SDK_STOP; p++) {
        if (!s.t[p].valid) continue;
        int pk = p >> 1; /* a true premise's table may be cached: it breaks nothing */
        if (have_solution && (solution[pk / 9] == pk % 9 + 1) == (p & 1)) continue;
        if (!static_may_contradict(&s, tw, p)) continue; /* no step to write */
        sdk_step_init(st, &fcc);
        char a[16];
        sdk_step_printf(st, "Forcing Chain Contradiction: %s => ", lit_name(p, a));
        int len;
        if (!static_contradiction(&s, tw, &sg, p, st, &len)) continue;
        if (!seen_add(sn, p ^ 1)) continue;
        conclude(st, p ^ 1);
        st->difficulty = diff_len(fcc.difficulty, len);
        ret = sdk_emit(sink, st);
    }
    forcing_static_free(&s);
out:
    free(sn);
    return ret;
}

/* The premise set of a verity by name: unit of pass 0 (a candidate true or
 * false), 1 (a cell), 2 (a digit in a house; unit = house * 9 + digit - 1). */
static const char *verity_what(int pass, int unit, char what[32])
{
    if (pass == 0) {
        snprintf(what, 32, "true/false");
    } else if (pass == 1) {
        sdk_cell_name(unit, what);
    } else {
        char hn[8];
        snprintf(what, 32, "%d in %s", unit % 9 + 1, sdk_house_short(unit / 9, hn));
    }
    return what;
}

/* Verity: the premises ps[0..n) (one of them is true) all imply lit. */
static int emit_verity(sctx *s, const int *ps, int n, int lit, int pass, int unit,
                       const sdk_technique *t, int base, seen *sn, sdk_sink *sink, sdk_step *st)
{
    if (!seen_add(sn, lit)) return SDK_CONTINUE;
    char what[32];
    verity_what(pass, unit, what);
    sdk_step_init(st, t);
    /* the conclusion comes once, at the end (sdk_emit) */
    sdk_step_printf(st, "Forcing Chain Verity (%s):", what);
    int len = 0;
    for (int i = 0; i < n; i++) {
        char txt[256];
        len += forcing_add_chain(s, ps[i], lit, st, txt, sizeof txt);
        sdk_step_printf(st, "%s %s", i ? ";" : "", txt);
    }
    conclude(st, lit);
    st->difficulty = diff_len(base, len);
    return sdk_emit(sink, st);
}

/* Intersect the tables of premises; emit every common conclusion. The
 * premise set (pass, unit: verity_what) is named only for a step, which
 * most sets do not give. */
static int verity_of(sctx *s, const int *ps, int n, int exclude_cell, int pass, int unit, int base,
                     seen *sn, sdk_sink *sink, sdk_step *st)
{
    /* premise by premise: most sets have nothing in common after two */
    cset on = s->t[ps[0]].sets->on, off = s->t[ps[0]].sets->off, any;
    for (int i = 1; i < n; i++)
        if (!cs_and_pair(&on, &off, &s->t[ps[i]].sets->on, &s->t[ps[i]].sets->off))
            return SDK_CONTINUE;
    uint64_t all = 0;
    for (int w = 0; w < 12; w++) {
        any.w[w] = on.w[w] | off.w[w];
        all |= any.w[w];
    }
    if (!all) return SDK_CONTINUE;
    for (int k = cs_next(&any, 0); k < SDK_NCAND; k = cs_next(&any, k + 1)) {
        if (k / 9 == exclude_cell) continue;
        bool premise = false;
        for (int i = 0; i < n; i++)
            if ((ps[i] >> 1) == k) premise = true;
        if (premise) continue;
        if (cs_has(&on, k) &&
            emit_verity(s, ps, n, 2 * k + 1, pass, unit, &fcv, base, sn, sink, st) == SDK_STOP)
            return SDK_STOP;
        if (cs_has(&off, k) &&
            emit_verity(s, ps, n, 2 * k, pass, unit, &fcv, base, sn, sink, st) == SDK_STOP)
            return SDK_STOP;
    }
    return SDK_CONTINUE;
}

static int find_fcv(const sdk_ctx *ctx, const sdk_grid *g, sdk_sink *sink)
{
    unsigned flags = SDK_LINKS_GROUPS | (sdk_opt_bool(ctx, "als", false) ? SDK_LINKS_ALS : 0);
    sctx s;
    int ret = SDK_CONTINUE;
    sdk_step *st = sdk_scratch_step(ctx, 0);
    seen *sn = sdk_xcalloc(1, sizeof *sn);
    if (!forcing_static_init(&s, g, flags, NULL)) goto out;
    /* a candidate true and false; "k false" that no link leaves implies
     * only itself, in the cell left out */
    for (int k = 0; k < SDK_NCAND && ret != SDK_STOP; k++) {
        if (!s.t[2 * k].valid || s.L->first[2 * k] == s.L->first[2 * k + 1]) continue;
        int ps[2] = {2 * k + 1, 2 * k};
        ret = verity_of(&s, ps, 2, k / 9, 0, k, 80, sn, sink, st);
    }
    /* cells */
    for (int c = 0; c < 81 && ret != SDK_STOP; c++) {
        if (g->value[c]) continue;
        int ps[9] = {0}, n = 0;
        SDK_MASK_FOREACH(d, g->cand[c]) ps[n++] = SDK_LIT(SDK_CAND_NODE(c, d), 1);
        ret = verity_of(&s, ps, n, -1, 1, c, 83, sn, sink, st);
    }
    /* houses */
    for (int h = 0; h < 27 && ret != SDK_STOP; h++)
        for (int d = 1; d <= 9 && ret != SDK_STOP; d++) {
            sdk_bb b = sdk_house_digit(g, h, d);
            if (sdk_bb_count(b) < 2) continue;
            int ps[9] = {0}, n = 0;
            SDK_BB_FOREACH(c, b) ps[n++] = SDK_LIT(SDK_CAND_NODE(c, d), 1);
            ret = verity_of(&s, ps, n, -1, 2, h * 9 + d - 1, 82, sn, sink, st);
        }
    forcing_static_free(&s);
out:
    free(sn);
    return ret;
}

/* ---- dynamic ------------------------------------------------------------ */

/* The link from literal `from` to literal `to` with the reason r. */
static void dyn_link(int from, int to, const sdk_dyn_reason *r, sdk_step *st)
{
    sdk_link l;
    memset(&l, 0, sizeof l);
    int f = from >> 1, k = to >> 1;
    l.from = (sdk_node){(uint8_t)(f % 9 + 1), (uint8_t)(from & 1), 1, {(uint8_t)(f / 9), 0, 0}};
    l.to = (sdk_node){(uint8_t)(k % 9 + 1), (uint8_t)(to & 1), 1, {(uint8_t)(k / 9), 0, 0}};
    l.strong = r->strong;
    l.kind = r->kind;
    if (r->kind == SDK_LINK_ALS || r->kind == SDK_LINK_GROUP) {
        SDK_BB_FOREACH(c, r->als) {
            if (l.nals == 9) break;
            l.als[l.nals++] = (uint8_t)c;
        }
    }
    sdk_step_link(st, &l);
}

/* Append the dynamic chain to lit as step links; returns its node count. */
static int dyn_links(const sdk_dyn *d, int lit, sdk_step *st)
{
    int ch[SDK_NCAND];
    int m = sdk_dyn_chain(d, lit, ch, SDK_NCAND);
    for (int i = 0; i < m; i++) {
        int k = ch[i] >> 1;
        sdk_step_mark(st, k / 9, k % 9 + 1, (ch[i] & 1) ? SDK_ROLE_ON : SDK_ROLE_OFF);
        if (i > 0) dyn_link(ch[i - 1], ch[i], &d->why[k], st);
    }
    return m;
}

/* The literals at an end of the step's links from link `from` on, as a set
 * over the 2 * 729 literals, taken in as links are appended (dyn_support()
 * only appends: the links before `upto` stay as they were). */
typedef struct link_ends {
    uint64_t w[(2 * SDK_NCAND + 63) / 64];
    int upto; /* links [from, upto) are in w */
} link_ends;

static void link_ends_init(link_ends *e, int from)
{
    memset(e->w, 0, sizeof e->w);
    e->upto = from;
}

/* Is lit the end of a link of st from link `from` on (the links e took in
 * and those appended since)? The same answer as walking the links. */
static bool dyn_has(link_ends *e, const sdk_step *st, int lit)
{
    for (; e->upto < st->nlink; e->upto++) {
        const sdk_link *l = &st->link[e->upto];
        const sdk_node *nd[2] = {&l->from, &l->to};
        for (int i = 0; i < 2; i++) {
            if (nd[i]->ncell != 1 || !nd[i]->digit || nd[i]->digit > 9 || nd[i]->on > 1) continue;
            int x = 2 * (nd[i]->cell[0] * 9 + nd[i]->digit - 1) + nd[i]->on;
            e->w[x >> 6] |= 1ULL << (x & 63);
        }
    }
    return e->w[lit >> 6] >> (lit & 63) & 1;
}

/* Append the chain to lit from the last of its nodes the step's links (from
 * link `from` on) already reach: a branch that starts where another one has
 * been. False (and the step marked truncated) when it does not fit. */
static bool dyn_links_after(const sdk_dyn *d, int lit, sdk_step *st, link_ends *ends)
{
    int ch[SDK_NCAND];
    int m = sdk_dyn_chain(d, lit, ch, SDK_NCAND);
    int j = 0;
    for (int i = m - 1; i > 0; i--)
        if (dyn_has(ends, st, ch[i])) {
            j = i;
            break;
        }
    if (st->nlink + (m - 1 - j) > SDK_STEP_MAX_LINK) {
        st->truncated = 1;
        return false;
    }
    for (int i = j; i < m; i++) {
        int k = ch[i] >> 1;
        sdk_step_mark(st, k / 9, k % 9 + 1, (ch[i] & 1) ? SDK_ROLE_ON : SDK_ROLE_OFF);
        if (i > j) dyn_link(ch[i - 1], ch[i], &d->why[k], st);
    }
    return true;
}

/* When the search derived each literal: its index in d->order, INT_MAX if
 * never. */
static void dyn_when_table(const sdk_dyn *d, int *when)
{
    for (int i = 0; i < 2 * SDK_NCAND; i++) when[i] = INT_MAX;
    for (int i = 0; i < d->n; i++) when[d->order[i]] = i;
}

/* A literal a strong link leans on: lit (a candidate false), derived by the
 * search itself, or known because the search placed another digit in its cell
 * (via: that placement; the step then shows the placement and the link inside
 * the cell). */
typedef struct dyn_need {
    int lit, via;
} dyn_need;

/* When the candidate of off-literal lit was known false: when the search
 * derived it or placed another digit in its cell, whichever came first;
 * *via gets the placement (or -1). */
static int dyn_off_at(const int *at, int lit, int *via)
{
    int k = lit >> 1, c = k / 9, x = k % 9 + 1, best = at[lit];
    *via = -1;
    for (int y = 1; y <= 9; y++) {
        int on = SDK_LIT(SDK_CAND_NODE(c, y), 1);
        if (y != x && at[on] < best) best = at[on], *via = on;
    }
    return best;
}

/* Does the chain to lit pass through dep? */
static bool dyn_depends(const sdk_dyn *d, int lit, int dep)
{
    int ch[SDK_NCAND];
    int m = sdk_dyn_chain(d, lit, ch, SDK_NCAND);
    for (int i = 0; i < m; i++)
        if (ch[i] == dep) return true;
    return false;
}

/* Is off-literal lit known without `to` (strict: before `when`; else: any
 * time, by a chain that does not pass through `to`)? Fills n. */
static bool dyn_known_off(const sdk_dyn *d, const int *at, int lit, int to, int when, bool strict,
                          dyn_need *n)
{
    n->lit = lit;
    int t = dyn_off_at(at, lit, &n->via);
    if (strict) return t < when;
    if (t == INT_MAX) return false;
    return !dyn_depends(d, n->via >= 0 ? n->via : lit, to);
}

/* The literals that made `to` (cell b, digit db) true when the search derived
 * it (index `when` in d->order), besides the link's own start a_lit: the
 * cell's other candidates false (a single), or the digit's other places in a
 * house false (a hidden single); the link's own form first; strict
 * about the order first, then any derivation that does not go through `to`
 * (the search may drop a candidate from its grid before it reaches that
 * literal). Returns how many went into need (0 when no form holds). */
static int dyn_why_true(const sdk_grid *g0, const sdk_dyn *d, const int *at, int b, int db,
                        int a_lit, int when, dyn_need need[9])
{
    int to = SDK_LIT(SDK_CAND_NODE(b, db), 1), a_cell = (a_lit >> 1) / 9;
    int hs[3] = {b / 9, 9 + b % 9, 18 + sdk_box(b)};
    for (int strict = 1; strict >= 0; strict--) {
        for (int form = 0; form < 5; form++) {
            /* form 0: the single when the link is inside the cell; 1-3: the
             * houses; 4: the single otherwise */
            if ((form == 0) != (a_cell == b) && (form == 0 || form == 4)) continue;
            int nn = 0;
            bool ok = true;
            if (form == 0 || form == 4) {
                SDK_MASK_FOREACH(x, g0->cand[b]) {
                    int lit = SDK_LIT(SDK_CAND_NODE(b, x), 0);
                    if (x == db || lit == a_lit) continue;
                    if (!dyn_known_off(d, at, lit, to, when, strict, &need[nn++])) ok = false;
                }
            } else {
                int h = hs[form - 1];
                SDK_BB_FOREACH(c, sdk_house_digit(g0, h, db)) {
                    int lit = SDK_LIT(SDK_CAND_NODE(c, db), 0);
                    if (c == b || lit == a_lit) continue;
                    if (!dyn_known_off(d, at, lit, to, when, strict, &need[nn++])) ok = false;
                }
            }
            if (ok) return nn;
        }
    }
    return 0;
}

/* Make the chains of one premise checkable link by link. A strong link of the
 * dynamic search ("r3c7<>2, so r7c7=2") holds because the digit's other places
 * in the house (the cell's other candidates) were already false: the search
 * knows why, the chain alone does not say. Append the chain to each such
 * earlier elimination, and to theirs in turn (links from `from` on are the
 * premise's; g0 is the grid the search started from). Bounded by the step's
 * room for links (then marked truncated). */
static void dyn_support(const sdk_grid *g0, const sdk_dyn *d, sdk_step *st, int from)
{
    int at[2 * SDK_NCAND];
    dyn_when_table(d, at);
    link_ends ends;
    link_ends_init(&ends, from);
    for (int i = from; i < st->nlink; i++) {
        sdk_link l = st->link[i];
        if (!l.strong || l.from.ncell != 1 || l.to.ncell != 1) continue;
        if (l.kind != SDK_LINK_CELL && l.kind != SDK_LINK_HOUSE) continue;
        dyn_need need[9];
        int b = l.to.cell[0], db = l.to.digit;
        int a_lit = SDK_LIT(SDK_CAND_NODE(l.from.cell[0], l.from.digit), 0);
        int when = at[SDK_LIT(SDK_CAND_NODE(b, db), 1)];
        int nn = dyn_why_true(g0, d, at, b, db, a_lit, when, need);
        for (int k = 0; k < nn; k++) {
            if (dyn_has(&ends, st, need[k].lit)) continue;
            if (need[k].via < 0) {
                if (!dyn_links_after(d, need[k].lit, st, &ends)) return;
                continue;
            }
            /* the placement, then the link inside its cell */
            if (!dyn_has(&ends, st, need[k].via) && !dyn_links_after(d, need[k].via, st, &ends))
                return;
            if (st->nlink >= SDK_STEP_MAX_LINK) {
                st->truncated = 1;
                return;
            }
            sdk_dyn_reason r;
            memset(&r, 0, sizeof r);
            r.from = (int16_t)need[k].via;
            r.kind = SDK_LINK_CELL;
            int kk = need[k].lit >> 1;
            sdk_step_mark(st, kk / 9, kk % 9 + 1, SDK_ROLE_OFF);
            dyn_link(need[k].via, need[k].lit, &r, st);
        }
    }
}

/* Chains of a dynamic contradiction; returns the total length. A literal
 * derived both ways gives two chains: one to it, one to its negation (the
 * second ends with the link that clashed). */
static int dyn_contra_links(const sdk_dyn *d, sdk_step *st)
{
    int len = 0;
    if (d->bad_lit >= 0) {
        len += dyn_links(d, d->bad_lit, st);
        if (d->bad_reason.from >= 0) {
            len += dyn_links(d, d->bad_reason.from, st) + 1;
            dyn_link(d->bad_reason.from, d->bad_lit ^ 1, &d->bad_reason, st);
        }
    } else if (d->bad_cell >= 0) {
        SDK_MASK_FOREACH(x, d->g.cand[d->bad_cell])
            len += dyn_links(d, SDK_LIT(SDK_CAND_NODE(d->bad_cell, x), 0), st);
    } else if (d->bad_house >= 0) {
        sdk_bb b = sdk_house_digit(&d->g, d->bad_house, d->bad_digit);
        SDK_BB_FOREACH(c, b) len += dyn_links(d, SDK_LIT(SDK_CAND_NODE(c, d->bad_digit), 0), st);
    }
    if (len == 0) {
        int m = 0;
        for (int i = 0; i < d->n; i++)
            if (d->depth[d->order[i] >> 1] > m) m = d->depth[d->order[i] >> 1];
        len = m + 1;
    }
    return len;
}

/* dyn_all()'s verdict per premise for the verities: DT_VALID (its
 * literals are the cache's on/off of this position), DT_CONTRA (it broke
 * the grid), or neither (not searched). */
enum { DT_VALID = 1, DT_CONTRA = 2 };

/* Run the dynamic search from every premise; contradictions are emitted as
 * they come (when want_contra), tables are kept for verities. */
/* dyn_all flag: emit only steps whose chains fit whole (checkable=1). */
#define DYN_CHECKABLE 0x40000000u

static void seen_del(seen *sn, int lit)
{
    cset *s = (lit & 1) ? &sn->place : &sn->elim;
    s->w[(lit >> 1) >> 6] &= ~(1ULL << ((lit >> 1) & 63));
}

static int dyn_all(const sdk_ctx *ctx, const sdk_grid *g, unsigned flags, const sdk_technique *ct,
                   const sdk_technique *vt, int cbase, int vbase, const char *label, sdk_sink *sink)
{
    int ret = SDK_CONTINUE;
    sdk_dyn *d = sdk_xmalloc(sizeof *d);
    sdk_step *st = sdk_scratch_step(ctx, 0);
    seen *sn = sdk_xcalloc(1, sizeof *sn);
    uint8_t *t = vt ? sdk_xcalloc(2 * SDK_NCAND, sizeof *t) : NULL;
    /* Without verities only contradictions are wanted, and only a false
     * premise leads to one (the chains are sound): with a solution of g at
     * hand, the premises it makes true are not run. The same steps. */
    uint8_t solution[SDK_CELLS];
    bool skip_true = !t && forcing_solution(g, solution);
    unsigned run_flags = flags & ~DYN_CHECKABLE;
    /* the searches of the last position where they still hold (dyn_memo.c);
     * nested propagations keep theirs apart */
    dyn_memo *dc = dyn_memo_for(g, run_flags, ctx->depth > 0);

    for (int c = 0; c < 81 && ret != SDK_STOP; c++) {
        if (g->value[c]) continue;
        SDK_MASK_FOREACH(dg, g->cand[c]) {
            for (int on = 1; on >= 0 && ret != SDK_STOP; on--) {
                if ((flags & SDK_DYN_NISHIO) && !on) continue;
                if (skip_true && (solution[c] == dg) == on) continue;
                int p = SDK_LIT(SDK_CAND_NODE(c, dg), on);
                bool searched = dc->state[p] == DYN_UNKNOWN;
                int q = searched && !on && run_flags == 0 ? dyn_strong_partner(g, p >> 1) : -1;
                if (q >= 0) {
                    /* "k false" and its strong partner "q true" imply each
                     * other (a single in the cell or house): the search
                     * ends in the same place, broken or with the same
                     * literals (what it derives is forced whatever the
                     * order). One search for both; the chains of a step
                     * are searched from p itself below. */
                    dyn_memo_fill(dc, g, 2 * q + 1, d);
                    dyn_memo_share(dc, p, 2 * q + 1);
                    searched = false;
                } else if (searched) {
                    searched = dyn_memo_fill(dc, g, p, d); /* d holds p's search? */
                }
                if (dc->state[p] == DYN_BROKEN) {
                    if (t) t[p] |= DT_CONTRA;
                    if (!ct || !seen_add(sn, p ^ 1)) continue;
                    if (!searched) sdk_dyn_run(g, c, dg, on, run_flags, NULL, d);
                    sdk_step_init(st, ct);
                    char a[16];
                    sdk_step_printf(st, "%s Contradiction: %s => %s", label, lit_name(p, a),
                                    d->why_text);
                    int len = dyn_contra_links(d, st);
                    dyn_support(g, d, st, 0);
                    if ((flags & DYN_CHECKABLE) && st->truncated) {
                        seen_del(sn, p ^ 1); /* another premise may prove it */
                        continue;
                    }
                    conclude(st, p ^ 1);
                    st->difficulty = diff_len(cbase, len);
                    ret = sdk_emit(sink, st);
                    continue;
                }
                if (t) t[p] |= DT_VALID;
            }
        }
    }
    if (!t || ret == SDK_STOP) goto out;
    /* verities: premise sets that cover all cases (contradictory premises drop out) */
    for (int pass = 0; pass < 3 && ret != SDK_STOP; pass++) {
        for (int unit = 0; unit < (pass == 0   ? SDK_NCAND
                                   : pass == 1 ? 81
                                               : 27 * 9) &&
                           ret != SDK_STOP;
             unit++) {
            int ps[9], n = 0, excl = -1;
            if (pass == 0) {
                int k = unit;
                if (g->value[k / 9] || !sdk_grid_has(g, k / 9, k % 9 + 1)) continue;
                ps[n++] = 2 * k + 1;
                ps[n++] = 2 * k;
                excl = k / 9;
            } else if (pass == 1) {
                if (g->value[unit]) continue;
                SDK_MASK_FOREACH(x, g->cand[unit]) ps[n++] = SDK_LIT(SDK_CAND_NODE(unit, x), 1);
            } else {
                int h = unit / 9, dg = unit % 9 + 1;
                sdk_bb b = sdk_house_digit(g, h, dg);
                if (sdk_bb_count(b) < 2) continue;
                SDK_BB_FOREACH(x, b) ps[n++] = SDK_LIT(SDK_CAND_NODE(x, dg), 1);
            }
            /* contradictory premises are impossible: leave them out */
            int live[9], nl = 0;
            for (int i = 0; i < n; i++)
                if (!(t[ps[i]] & DT_CONTRA)) live[nl++] = ps[i];
            if (nl < 2) continue;
            bool ok = true;
            for (int i = 0; i < nl; i++)
                if (!(t[live[i]] & DT_VALID)) ok = false;
            if (!ok) continue;
            cset on = dc->on[live[0]], off = dc->off[live[0]];
            bool left = true; /* premise by premise: most have nothing in common after two */
            for (int i = 1; i < nl && left; i++)
                left = cs_and_pair(&on, &off, &dc->on[live[i]], &dc->off[live[i]]);
            if (!left) continue;
            cset any;
            for (int w = 0; w < 12; w++) any.w[w] = on.w[w] | off.w[w];
            for (int k = cs_next(&any, 0); k < SDK_NCAND && ret != SDK_STOP;
                 k = cs_next(&any, k + 1)) {
                if (k / 9 == excl) continue;
                for (int v = 1; v >= 0 && ret != SDK_STOP; v--) {
                    if (!cs_has(v ? &on : &off, k)) continue;
                    bool premise = false;
                    for (int i = 0; i < n; i++)
                        if ((ps[i] >> 1) == k) premise = true;
                    if (premise || !seen_add(sn, 2 * k + v)) continue;
                    sdk_step_init(st, vt);
                    /* the conclusion comes once, at the end (sdk_emit) */
                    char what[32];
                    sdk_step_printf(st, "%s Verity (%s)", label, verity_what(pass, unit, what));
                    int len = 0;
                    for (int i = 0; i < nl; i++) {
                        sdk_dyn_run(g, (live[i] >> 1) / 9, (live[i] >> 1) % 9 + 1, live[i] & 1,
                                    flags & ~DYN_CHECKABLE, NULL, d);
                        int first = st->nlink;
                        len += dyn_links(d, 2 * k + v, st);
                        dyn_support(g, d, st, first);
                    }
                    if ((flags & DYN_CHECKABLE) && st->truncated) {
                        seen_del(sn, 2 * k + v);
                        continue;
                    }
                    conclude(st, 2 * k + v);
                    st->difficulty = diff_len(vbase, len);
                    ret = sdk_emit(sink, st);
                }
            }
        }
    }
out:
    free(t);
    free(d);
    free(sn);
    return ret;
}

/* The dynamic techniques: one find, what each looks for in its data. */
typedef struct dyn_kind {
    unsigned flags;     /* SDK_DYN_* */
    bool contradiction; /* report contradictions (difficulty: the descriptor's) */
    bool verity;        /* report verities */
    int verity_extra;   /* a verity's base difficulty over the descriptor's */
    const char *label;
} dyn_kind;

static int find_dyn(const sdk_ctx *ctx, const sdk_grid *g, sdk_sink *sink)
{
    const sdk_technique *t = ctx->self;
    const dyn_kind *k = t->data;
    /* checkable=1: only steps whose chains fit the step whole (reading profile) */
    unsigned flags = k->flags | (sdk_opt_int(ctx, "checkable", 0) ? DYN_CHECKABLE : 0);
    return dyn_all(ctx, g, flags, k->contradiction ? t : NULL, k->verity ? t : NULL,
                   k->contradiction ? t->difficulty : 0,
                   k->verity ? t->difficulty + k->verity_extra : 0, k->label, sink);
}

static const dyn_kind k_fnc = {0, true, false, 0, "Forcing Net"},
                      k_fnv = {0, false, true, 0, "Forcing Net"},
                      k_nishio = {SDK_DYN_NISHIO, true, false, 0, "Nishio"},
                      k_dfc = {0, true, true, 5, "Dynamic Forcing Chain"};

/* ---- nested ------------------------------------------------------------- */

/* The grid reached by a dynamic search (its consequences applied). */
static bool dyn_grid(const sdk_dyn *d, sdk_grid *out)
{
    *out = d->g;
    for (int i = 0; i < d->n; i++) {
        int l = d->order[i], k = l >> 1, c = k / 9, dg = k % 9 + 1;
        if (l & 1) {
            if (out->value[c]) continue;
            if (!sdk_grid_has(out, c, dg)) return false;
            sdk_grid_place(out, c, dg, false);
        } else {
            sdk_grid_eliminate(out, c, dg);
        }
    }
    char why[64];
    return sdk_grid_check(out, why, sizeof why);
}

/* Without an engine: candidates of bivalue cells whose dynamic search breaks
 * the grid are removed, repeatedly; true when the grid breaks. */
static bool nested_fallback(sdk_grid *w, sdk_dyn *d2)
{
    for (int round = 0; round < 20; round++) {
        bool changed = false;
        for (int c = 0; c < 81; c++) {
            if (w->value[c] || sdk_mask_count(w->cand[c]) != 2) continue;
            SDK_MASK_FOREACH(x, w->cand[c]) {
                if (sdk_dyn_run(w, c, x, true, 0, NULL, d2)) {
                    sdk_grid_eliminate(w, c, x);
                    changed = true;
                    if (!w->cand[c]) return true;
                    break;
                }
            }
        }
        char why[64];
        if (!sdk_grid_check(w, why, sizeof why)) return true;
        if (!changed) return false;
        /* settle singles */
        for (int c = 0; c < 81; c++)
            if (!w->value[c] && sdk_mask_count(w->cand[c]) == 1) {
                sdk_grid_place(w, c, sdk_mask_first(w->cand[c]), false);
                if (!sdk_grid_check(w, why, sizeof why)) return true;
            }
    }
    return false;
}

static int find_nfc(const sdk_ctx *ctx, const sdk_grid *g, sdk_sink *sink)
{
    int ret = SDK_CONTINUE;
    sdk_dyn *d = sdk_xmalloc(sizeof *d), *d2 = sdk_xmalloc(sizeof *d2);
    sdk_step *st = sdk_scratch_step(ctx, 0);
    sdk_grid *w = sdk_xmalloc(sizeof *w);
    bool engine = ctx->propagate && ctx->depth < 2;
    inner_log *log = engine ? inner_log_new(ctx) : NULL;
    /* propagate-upto=N: the nested propagation uses only the profile's first N
     * techniques (default: all before this one). A speed bound that changes
     * what is found: the profile chooses it. */
    sdk_ctx pctx = *ctx;
    int upto = sdk_opt_int(ctx, "propagate-upto", 0);
    bool checkable = sdk_opt_int(ctx, "checkable", 0) != 0;
    if (upto > 0 && upto < pctx.position) pctx.position = upto;
    /* An assumption that agrees with a solution of g cannot break the grid
     * (every chain and technique is sound), so it is not tried: one solver
     * call spares the longest propagations (those end stuck or solved, never
     * broken). The steps found are the same. */
    uint8_t solution[SDK_CELLS];
    bool have_solution = forcing_solution(g, solution);
    for (int c = 0; c < 81 && ret != SDK_STOP; c++) {
        if (g->value[c]) continue;
        if (!engine && sdk_mask_count(g->cand[c]) != 2) continue;
        SDK_MASK_FOREACH(dg, g->cand[c]) {
            if (ret == SDK_STOP) break;
            if (have_solution && solution[c] == dg) continue;
            if (sdk_dyn_run(g, c, dg, true, 0, NULL, d)) continue; /* plain dynamic: not nested */
            bool broken;
            char why[256] = "";
            if (!dyn_grid(d, w)) {
                broken = true;
            } else if (engine) {
                sdk_prop_result res;
                memset(&res, 0, sizeof res);
                /* with the steps it applies, for the reader (inner.c) */
                broken = (ctx->propagate_steps
                              ? ctx->propagate_steps(&pctx, w, 2000, &res, inner_log_start(log, w))
                              : ctx->propagate(&pctx, w, 2000, &res)) == SDK_PROP_CONTRADICTION;
                snprintf(why, sizeof why, "%s", res.why);
            } else {
                broken = nested_fallback(w, d2);
                snprintf(why, sizeof why, "nested dynamic chains break the grid");
            }
            if (!broken) continue;
            sdk_step_init(st, &nfc);
            char a[16];
            sdk_step_printf(st, "Nested Forcing Chain: %s => %s",
                            lit_name(SDK_LIT(SDK_CAND_NODE(c, dg), 1), a), why);
            int m = 0;
            for (int i = 0; i < d->n; i++)
                if (d->depth[d->order[i] >> 1] > m) m = d->depth[d->order[i] >> 1];
            sdk_step_mark(st, c, dg, SDK_ROLE_ON);
            /* the chains to the digits the assumption places (the grid the
             * nested search starts from; without any, to its eliminations),
             * shortest first, while they fit */
            for (int want = 1; want >= 0 && !st->nlink; want--)
                for (int i = 1; i < d->n; i++) {
                    int l = d->order[i];
                    if ((l & 1) != want) continue;
                    if (st->nlink + d->depth[l >> 1] + 1 > SDK_STEP_MAX_LINK) {
                        st->truncated = 1;
                        break;
                    }
                    dyn_links(d, l, st);
                }
            dyn_support(g, d, st, 0);
            if (engine && ctx->propagate_steps) inner_log_explain(log, st);
            if (checkable && st->truncated)
                continue; /* checkable=1: whole chains and inner steps */
            sdk_step_elim(st, c, dg);
            st->difficulty = diff_len(nfc.difficulty, m + 1);
            ret = sdk_emit(sink, st);
        }
    }
    free(d);
    free(d2);
    free(w);
    inner_log_free(log);
    return ret;
}

static const sdk_technique fcc = {
    .abi = SDK_ABI_VERSION,
    .size = sizeof(sdk_technique),
    .id = "forcing-chain-contradiction",
    .name = "Forcing Chain Contradiction",
    .difficulty = 80,
    .score = 500,
    .level = SDK_LEVEL_EXTREME,
    .find = find_fcc,
    .summary = "an assumption whose chains contradict each other is false",
};
static const sdk_technique fcv = {
    .abi = SDK_ABI_VERSION,
    .size = sizeof(sdk_technique),
    .id = "forcing-chain-verity",
    .name = "Forcing Chain Verity",
    .difficulty = 82,
    .score = 500,
    .level = SDK_LEVEL_EXTREME,
    .find = find_fcv,
    .summary = "what every candidate of a cell or house implies by chains is true",
};
static const sdk_technique fnc = {
    .abi = SDK_ABI_VERSION,
    .size = sizeof(sdk_technique),
    .id = "forcing-net-contradiction",
    .name = "Forcing Net Contradiction",
    .difficulty = 85,
    .score = 700,
    .level = SDK_LEVEL_EXTREME,
    .find = find_dyn,
    .data = &k_fnc,
    .summary = "dynamic chains (nets) from an assumption break the grid",
};
static const sdk_technique fnv = {
    .abi = SDK_ABI_VERSION,
    .size = sizeof(sdk_technique),
    .id = "forcing-net-verity",
    .name = "Forcing Net Verity",
    .difficulty = 87,
    .score = 700,
    .level = SDK_LEVEL_EXTREME,
    .find = find_dyn,
    .data = &k_fnv,
    .summary = "what every case of a cell or house implies through nets is true",
};
static const sdk_technique nishio = {
    .abi = SDK_ABI_VERSION,
    .size = sizeof(sdk_technique),
    .id = "nishio",
    .name = "Nishio Forcing Chain",
    .difficulty = 75,
    .score = 500,
    .level = SDK_LEVEL_EXTREME,
    .find = find_dyn,
    .data = &k_nishio,
    .summary = "placing a digit leaves a house without that digit",
};
static const sdk_technique dfc = {
    .abi = SDK_ABI_VERSION,
    .size = sizeof(sdk_technique),
    .id = "dynamic-forcing-chain",
    .name = "Dynamic Forcing Chain",
    .difficulty = 85,
    .score = 700,
    .level = SDK_LEVEL_EXTREME,
    .find = find_dyn,
    .data = &k_dfc,
    .summary = "dynamic forcing chains: contradiction, double, cell and region forms",
};
static const sdk_technique nfc = {
    .abi = SDK_ABI_VERSION,
    .size = sizeof(sdk_technique),
    .id = "nested-forcing-chain",
    .name = "Nested Forcing Chain",
    .difficulty = 95,
    .score = 900,
    .level = SDK_LEVEL_EXTREME,
    .flags = SDK_TF_USES_ENGINE,
    .find = find_nfc,
    .summary = "an assumption plus the earlier techniques breaks the grid",
};
SDK_PLUGIN(&fcc, &fcv, &fnc, &fnv, &nishio, &dfc, &nfc, &kraken_type1, &kraken_type2)
