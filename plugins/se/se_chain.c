/* se_chain.c - Sudoku Explainer's chaining family with SE's rules and
 * difficulties (SE 1.2.1 Chaining): bidirectional X/Y/XY cycles (6.5/7.0),
 * forcing X-chains (6.6) and forcing chains (7.0), Nishio (7.5), cell and
 * region forcing chains (8.0), dynamic contradiction/double/cell/region
 * forcing chains (8.5), dynamic (+) with locking, hidden/naked pairs and
 * X-Wing inside the chains (9.0) and nested forcing chains (9.5, 10.0, ...),
 * each plus SE's length increment on (complexity - 2), complexity being the
 * distinct potentials among the ancestors of every chain end (plus nested
 * chains). Like SE, a search collects every hint, sorts by difficulty,
 * complexity and kind, drops hints with the same eliminations, and emits in
 * that order. The propagation itself is lib/links_se.c. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "se.h"
#include "se_memo.h"
#include "sudoku/alloc.h"
#include "sudoku/cache.h"
#include "sudoku/links.h"
#ifdef __SSE2__
#include <emmintrin.h>
#endif

enum {
    K_XCYCLE,
    K_YCYCLE,
    K_XYCYCLE,
    K_XCHAIN,
    K_XYCHAIN, /* unary */
    K_CONTRA,
    K_DOUBLE,
    K_NISHIO,
    K_CELL,
    K_REGION, /* multiple */
};

typedef struct hint {
    int diff, cplx, sortkey, seq, kind;
    int ntar, tar[9];
    int nrem;
    int16_t rem[9];
    int place; /* cand placed or -1 */
    int src;   /* binary: source literal; cell: cell; region: house */
    int value;
} hint;

typedef struct hlist {
    hint *h;
    int n, cap;
} hlist;

/* Nested chains met during one search, by content: SE counts a nested chain
 * once per hint however many times it was found (FullChain: same targets and
 * the same breadth-first ancestor lists), so equal chains get the same id. */
typedef struct nest_reg {
    uint64_t *key; /* open addressing; 0 = empty slot */
    int *id;
    int cap, n;
} nest_reg;

/* Buffers of finished (nested) searches, kept for the next one of the same
 * find: a nested search runs once per propagation step, and fresh blocks of
 * this size cost page faults every time (malloc gives them back to the
 * system). Arenas keep their capacity; blocks are by kind, one size each. */
enum { B_RUN, B_SET, B_ONBITS, B_CLOSURE, B_ONCACHE, B_ONWORDS, B_KINDS };
#define POOL_ARENAS 16
#define POOL_BLOCKS 1024
#define POOL_SCRATCH 16
/* A search's growing buffers (chainer: onlit, onpos, flat, the hint list,
 * blob, rule hints), kept with their capacity; flat is all zero when kept. */
typedef struct scratch {
    void *onlit, *hints, *rh;
    int onlitcap, hintcap;
    int16_t *onpos;
    int onposcap;
    int *flat;
    int flatcap;
    unsigned char *blob;
    size_t blobcap;
} scratch;
typedef struct pool {
    sdk_se_arena arena[POOL_ARENAS];
    int narena;
    void **blk[B_KINDS];
    int nblk[B_KINDS];
    scratch sc[POOL_SCRATCH];
    int nsc;
} pool;

static void *pool_get(pool *pl, int kind, size_t size)
{
    if (pl->nblk[kind]) return pl->blk[kind][--pl->nblk[kind]];
    void *b = sdk_xmalloc(size);
    return b;
}

static void pool_put(pool *pl, int kind, void *b)
{
    if (!b) return;
    if (!pl->blk[kind]) {
        pl->blk[kind] = sdk_xmalloc(sizeof(void *) * POOL_BLOCKS);
    }
    if (pl->nblk[kind] < POOL_BLOCKS)
        pl->blk[kind][pl->nblk[kind]++] = b;
    else
        free(b);
}

/* A set, empty and initialised (a pooled one was, and is cleared by use). */
static sdk_se_set *set_get(pool *pl)
{
    if (pl->nblk[B_SET]) return pl->blk[B_SET][--pl->nblk[B_SET]];
    sdk_se_set *s = pool_get(pl, B_SET, sizeof *s);
    sdk_se_set_init(s);
    return s;
}

static void scratch_free(scratch *x)
{
    free(x->onlit);
    free(x->onpos);
    free(x->hints);
    free(x->rh);
    free(x->flat);
    free(x->blob);
}

static void pool_free(pool *pl)
{
    for (int i = 0; i < pl->nsc; i++) scratch_free(&pl->sc[i]);
    for (int i = 0; i < pl->narena; i++) sdk_se_arena_free(&pl->arena[i]);
    for (int k = 0; k < B_KINDS; k++) {
        for (int i = 0; i < pl->nblk[k]; i++) free(pl->blk[k][i]);
        free(pl->blk[k]);
    }
}

/* The thread's pool, kept from one search to the next: the buffers of a
 * search (arenas, sets, run caches, closure tables: several MB on the
 * hardest puzzles) freed at its end went back to the system, and the next
 * search took fresh pages again (half the page faults of line 113 of
 * forum_hardest_1106). Pooled buffers are handed out in the state a search
 * leaves them in (see pool_get's users), so a kept pool reads as a new one.
 * It goes with the plugin, or when the host releases the caches. */
static _Thread_local pool *kept_pool;

static void chain_caches_release(void);

/* Every search takes the pool first: the thread's caches of this file
 * (pool, handoffs, closures, static links) are registered here, and
 * released together (chain_caches_release). */
static pool *thread_pool(void)
{
    if (!kept_pool) {
        kept_pool = sdk_xcalloc(1, sizeof *kept_pool);
        sdk_cache_register(chain_caches_release);
    }
    return kept_pool;
}

__attribute__((destructor)) static void pool_at_unload(void)
{
    if (!kept_pool) return;
    pool_free(kept_pool);
    free(kept_pool);
    kept_pool = NULL;
}

/* By component of a static graph: the literals it reaches, and bit w set
 * where word w of them is not 0 (see closures). */
typedef struct closure_tab {
    uint64_t reach[1458][SDK_SE_SET_WORDS];
    uint32_t words[1458];
} closure_tab;

typedef struct chainer {
    const sdk_grid *g;
    sdk_se_arena A;
    hlist H;
    bool multiple, dynamic, nishio;
    int level;
    nest_reg *reg; /* nested chain ids (shared by the nested searches) */
    pool *pool;    /* spare buffers (shared by the nested searches) */
    sdk_se_run *run;
    struct onrun *oncache;       /* propagation from each candidate on, made once */
    struct oncache_block *onblk; /* oncache's block (onblk->run) */
    /* the literals of each oncache set, side by side: the intersections read
     * only these, and the sets themselves are large and mostly cold */
    sdk_se_lits *onbits;
    uint64_t *onwords; /* bit w: word w of onbits[cand] is not 0 */
    /* ... and their literals in insertion order with their nodes (a set is
     * 9 KB, mostly cold: the runs go through one set, onset, kept here) */
    struct onlit *onlit;
    int nonlit, onlitcap;
    /* where each literal of a run kept with its potentials is in its
     * onlit list, 2 * 729 entries a run (onrun.pos): written for the run's
     * literals only, and read only for literals the run holds */
    int16_t *onpos;
    int nonpos, onposcap;
    sdk_se_set *onset;
    struct rule_hint *rh; /* advanced(): rule hints of one call */
    unsigned char *blob;  /* advanced(): a nested search's result, packed */
    size_t blobcap;
    int *flat;                 /* finish(): ancestors + 1 by node, 0 unknown (level 0) */
    int flatcap, flathi;       /* flat is 0 from flathi on */
    const sdk_se_static *stat; /* the links of g (static multiple chains), or NULL */
    /* static multiple chains: every literal the run from a candidate on can
     * reach, by the component of that true literal in scc (see closures) */
    const sdk_se_scc *scc;
    const struct closure_tab *closure;
    const struct handoff *from; /* the runs of a lower level on this grid, or NULL */
    struct handoff *rec;        /* where this search's runs are kept, or NULL */
    int start_rule;             /* advanced(): the first rule of its next call */
    bool last_open;             /* advanced(): its last call had no rule hint */
    bool counted;               /* hcount holds g's house counts (dynamic runs) */
    uint8_t hcount[27][9];
    uint8_t ccount[81]; /* ... and ccount its sdk_se_closure_cells */
    /* literals_first: the candidates by which g differs from the grid of
     * the closures kept (closures_last), or ndiff < 0: none to take (-1:
     * not looked at yet) */
    int ndiff;
    int16_t diff[16];
} chainer;

/* A propagation from cand on is the same every time it is asked for (cell
 * chains, region chains of up to three houses): it is kept, as its literals
 * (c->onbits) and its potentials in insertion order, trues then falses
 * (c->onlit[at .. at + non + noff)). */
typedef struct onlit {
    int lit, node;
} onlit;

typedef struct onrun {
    bool done, bad;
    bool nodes; /* made with its potentials (else its literals only) */
    int absurd_on, absurd_off;
    int at, non, noff;
    int pos; /* nodes: its literals' places in onlit at c->onpos + pos */
} onrun;

/* A search's on-run cache and the candidates whose entry it made: the
 * block goes back to the pool all zero by resetting those entries alone
 * (clearing the whole 20 KB at each search's first run was 1% of line
 * 113's instructions, forum_hardest_1106). */
typedef struct oncache_block {
    onrun run[729];
    int nmade;
    int16_t made[729];
} oncache_block;

/* An on-run cache block, all zero (a pooled one was left so, see
 * chainer_free). */
static oncache_block *oncache_get(pool *pl)
{
    if (pl->nblk[B_ONCACHE]) return pl->blk[B_ONCACHE][--pl->nblk[B_ONCACHE]];
    return sdk_xcalloc(1, sizeof(oncache_block));
}

static int reg_id(nest_reg *r, uint64_t key)
{
    if (!key) key = 1;
    if (2 * (r->n + 1) > r->cap) {
        int ncap = r->cap ? r->cap * 2 : 256;
        uint64_t *nk = sdk_xcalloc((size_t)ncap, sizeof *nk);
        int *ni = sdk_xcalloc((size_t)ncap, sizeof *ni);
        for (int i = 0; i < r->cap; i++) {
            if (!r->key[i]) continue;
            int j = (int)(r->key[i] & (uint64_t)(ncap - 1));
            while (nk[j]) j = (j + 1) & (ncap - 1);
            nk[j] = r->key[i];
            ni[j] = r->id[i];
        }
        free(r->key);
        free(r->id);
        r->key = nk;
        r->id = ni;
        r->cap = ncap;
    }
    int j = (int)(key & (uint64_t)(r->cap - 1));
    while (r->key[j]) {
        if (r->key[j] == key) return r->id[j];
        j = (j + 1) & (r->cap - 1);
    }
    r->key[j] = key;
    r->id[j] = r->n;
    return r->n++;
}

static const int unit_order[3] = {SDK_BOX, SDK_ROW, SDK_COL};

static hint *hadd(hlist *l)
{
    if (l->n == l->cap) {
        l->cap = l->cap ? l->cap * 2 : 64;
        l->h = sdk_xrealloc(l->h, sizeof *l->h * (size_t)l->cap);
    }
    hint *h = &l->h[l->n];
    memset(h, 0, sizeof *h);
    h->seq = l->n++;
    h->place = -1;
    return h;
}

/* Removables: cand off, or (place) every other candidate of its cell. */
static void set_result(hint *h, const sdk_grid *g, int cand, bool on)
{
    if (!on) {
        h->rem[h->nrem++] = (int16_t)cand;
        return;
    }
    int cell = cand / 9;
    h->place = cand;
    SDK_MASK_FOREACH(v, g->cand[cell]) {
        if (v != cand % 9 + 1) h->rem[h->nrem++] = (int16_t)(cell * 9 + v - 1);
    }
}

static int rule_base(const chainer *c)
{
    if (c->level >= 2) return 95 + 5 * (c->level - 2);
    if (c->level > 0) return 90;
    if (c->nishio) return 75;
    if (c->dynamic) return 85;
    return 80;
}

/* The ancestors of node (itself included), counted once per node: the
 * potentials of a search never change, and a chain end often ends several
 * hints (a region's, a cell's). For searches without nested chains. */
static int flat_of(chainer *c, int node)
{
    if (node >= c->flatcap) {
        int ncap = c->A.n > node ? c->A.n : node + 1;
        ncap += ncap / 2;
        c->flat = sdk_xrealloc(c->flat, sizeof *c->flat * (size_t)ncap);
        memset(c->flat + c->flatcap, 0, sizeof *c->flat * (size_t)(ncap - c->flatcap));
        c->flatcap = ncap;
    }
    if (node >= c->flathi) c->flathi = node + 1;
    if (c->flat[node]) return c->flat[node] - 1;
    /* Runs of multiple and dynamic chains keep one potential per literal in
     * their set and take parents from it, and a new potential's literal is
     * not there: a potential's literal is never among its ancestors. So one
     * with a single parent has one ancestor more than that parent (not so
     * for cycles, whose end is their start again). */
    int up[256], n = 0, x = node;
    if (c->multiple || c->dynamic)
        while (!c->flat[x] && c->A.p[x].np == 1 && n < 256) {
            up[n++] = x;
            x = c->A.par[c->A.p[x].par];
        }
    if (!c->flat[x]) c->flat[x] = sdk_se_complexity(&c->A, &x, 1) + 1;
    for (int i = n - 1; i >= 0; i--) c->flat[up[i]] = c->flat[x] + (n - i);
    return c->flat[node] - 1;
}

static void finish(chainer *c, hint *h, int base)
{
    /* SE: ancestors of each chain end, plus every distinct nested chain met
     * by any of them, counted once for the hint (level 0: none) */
    if (c->level == 0) {
        h->cplx = 0;
        for (int i = 0; i < h->ntar; i++) h->cplx += flat_of(c, h->tar[i]);
    } else
        h->cplx = sdk_se_complexity(&c->A, h->tar, h->ntar);
    h->diff = base + sdk_chain_length_tenths(h->cplx - 2);
}

/* ---- unary: cycles and forcing X/Y-chains -------------------------------- */

static void cycle_hint(chainer *c, int dst, bool y, bool x)
{
    const sdk_se_arena *a = &c->A;
    const sdk_grid *g = c->g;
    sdk_bb cells = sdk_bb_none();
    for (int p = dst; a->p[p].np; p = a->par[a->p[p].par]) sdk_bb_add(&cells, a->p[p].cand / 9);
    sdk_bb forw[9], back[9];
    memset(forw, 0, sizeof forw);
    memset(back, 0, sizeof back);
    for (int p = dst; a->p[p].np; p = a->par[a->p[p].par]) {
        int cl = a->p[p].cand / 9, d = a->p[p].cand % 9 + 1;
        sdk_bb t = sdk_bb_andnot(sdk_bb_and(sdk_peer_bb[cl], g->digit[d - 1]), cells);
        if (a->p[p].on)
            forw[d - 1] = sdk_bb_or(forw[d - 1], t);
        else
            back[d - 1] = sdk_bb_or(back[d - 1], t);
    }
    int16_t rem[9];
    int nrem = 0;
    for (int d = 1; d <= 9; d++) {
        sdk_bb r = sdk_bb_and(forw[d - 1], back[d - 1]);
        SDK_BB_FOREACH(x2, r) {
            if (nrem < 9) rem[nrem++] = (int16_t)(x2 * 9 + d - 1);
        }
    }
    if (!nrem) return;
    hint *h = hadd(&c->H);
    h->kind = (x && y) ? K_XYCYCLE : y ? K_YCYCLE : K_XCYCLE;
    h->sortkey = (x && y) ? 4 : y ? 3 : 2;
    h->ntar = 1;
    h->tar[0] = dst;
    h->nrem = nrem;
    memcpy(h->rem, rem, sizeof rem);
    h->src = a->p[dst].cand;
    finish(c, h, (x && y) ? 70 : 65);
}

static void chain_hint(chainer *c, int target, bool y)
{
    hint *h = hadd(&c->H);
    h->kind = y ? K_XYCHAIN : K_XCHAIN;
    h->sortkey = y ? 4 : 2;
    h->ntar = 1;
    h->tar[0] = target;
    set_result(h, c->g, c->A.p[target].cand, c->A.p[target].on);
    if (!h->nrem) {
        c->H.n--;
        return;
    }
    finish(c, h, y ? 70 : 66);
}

static const sdk_se_scc *static_scc_xy(void);

/* Which forcing chains can reach their target on g, in the graph scc: for
 * each candidate of a cell with two or more, in order, whether its true
 * literal reaches its false one, then the other way. */
static void forcing_reach(const sdk_grid *g, const sdk_se_scc *scc, bool *reach)
{
    int from[1458], to[1458], nq = 0;
    for (int cell = 0; cell < 81; cell++) {
        if (g->value[cell] || sdk_mask_count(g->cand[cell]) < 2) continue;
        SDK_MASK_FOREACH(d, g->cand[cell]) {
            int cand = cell * 9 + d - 1;
            from[nq] = cand * 2 + 1;
            to[nq++] = cand * 2;
            from[nq] = cand * 2;
            to[nq++] = cand * 2 + 1;
        }
    }
    sdk_se_reach(scc, from, to, nq, reach);
}

/* t: the thread's static links of c->g (static_links). Searches that
 * cannot find anything are skipped, by the graph with cell and house links
 * (scc; reach: its forcing_reach, with house links only). That graph has
 * every literal and edge of the graphs with house links alone (X-cycles,
 * forcing X-chains) or cell links alone (Y-cycles): the literals with a
 * conjugate, or a bivalue partner; a true literal's edges to the false
 * literals of its cell's other linked candidates and of its linked peers,
 * a false one's to its conjugates' or partner's true ones; and more. So a
 * literal it does not reach is not reached in the smaller ones, and the
 * closed walks through a literal stay in its component there. A cycle
 * search from cand true finds a cycle of four links or more back to it: a
 * closed walk that leaves cand's true literal once (it is expanded once)
 * and comes back from a false literal made by another true literal, in
 * its component; so where the component holds two literals or fewer there
 * is none. The searches skipped find nothing, and those run are the same
 * searches. */
static void unary(chainer *c, const sdk_se_static *t, bool y, bool x, const sdk_se_scc *scc,
                  const bool *reach)
{
    const sdk_grid *g = c->g;
    int out[512];
    int nq = 0;
    for (int cell = 0; cell < 81; cell++) {
        if (g->value[cell] || sdk_mask_count(g->cand[cell]) < 2) continue;
        if (sdk_mask_count(g->cand[cell]) > 2 && !x) continue;
        SDK_MASK_FOREACH(d, g->cand[cell]) {
            int cand = cell * 9 + d - 1;
            int n = !scc || scc->size[scc->comp[cand * 2 + 1]] > 2
                        ? sdk_se_cycles(&c->A, t, cand, y, x, out, 512)
                        : 0;
            int m = 0, chains[64];
            if (x) {
                if (!scc || reach[nq++]) m = sdk_se_forcing(&c->A, t, cand, true, y, chains, 32);
                if (!scc || reach[nq++])
                    m += sdk_se_forcing(&c->A, t, cand, false, y, chains + m, 32);
            }
            for (int i = 0; i < n; i++) cycle_hint(c, out[i], y, x);
            for (int i = 0; i < m; i++) chain_hint(c, chains[i], y);
        }
    }
}

/* ---- multiple and dynamic ---------------------------------------------- */

static int advanced(void *ctx, sdk_se_arena *a, sdk_se_set *s, const sdk_grid *cur,
                    const sdk_grid *src);

/* A candidate that cand false makes true on g: the other candidate of a
 * bivalue cell (y), else the other place of its digit in a house (box, row,
 * column) where it has two; -1 when there is none. */
static int strong_partner(const sdk_grid *g, int cand, bool y)
{
    int cell = cand / 9, d = cand % 9 + 1;
    if (y && sdk_mask_count(g->cand[cell]) == 2)
        return cell * 9 + sdk_mask_first(g->cand[cell] & ~sdk_digit_bit(d)) - 1;
    for (int k = 0; k < 3; k++) {
        sdk_bb pos = sdk_house_digit(g, sdk_cell_house[cell][k], d);
        if (sdk_bb_count(pos) != 2) continue;
        sdk_bb_del(&pos, cell);
        return sdk_bb_first(pos) * 9 + d - 1;
    }
    return -1;
}

/* Whether cand false implies nothing on g: its cell is not bivalue (or cell
 * links are off) and no house of the cell has exactly two places for its
 * digit. A propagation from it without nested rules is that one potential. */
static bool off_leads_nowhere(const sdk_grid *g, int cand, bool y)
{
    return strong_partner(g, cand, y) < 0;
}

/* The places of each digit in each house of c->g, counted once. */
static const uint8_t (*grid_counts(chainer *c))[9]
{
    if (!c->counted) {
        sdk_se_house_counts(c->g, c->hcount);
        sdk_se_closure_cells(c->g, c->ccount);
    }
    c->counted = true;
    return (const uint8_t(*)[9])c->hcount;
}

/* Propagate from one assumption into set s; true on a contradiction. */
static bool run_from(chainer *c, sdk_se_set *s, int cand, bool on)
{
    sdk_se_set_clear(s); /* sets come from set_get: initialised */
    int p = sdk_se_new(&c->A, cand, on, SDK_SE_ASSUMED, NULL, 0);
    sdk_se_set_add(s, &c->A, p);
    if (!on && c->level == 0 && off_leads_nowhere(c->g, cand, !c->nishio)) return false;
    sdk_se_run *r = c->run;
    r->a = &c->A;
    r->s = s;
    r->flags = (c->dynamic ? SDK_SE_DYNAMIC : 0) | (c->nishio ? SDK_SE_NISHIO : 0);
    r->more = c->level > 0 ? advanced : NULL;
    r->more_ctx = c;
    r->t = c->dynamic ? NULL : c->stat;
    r->hcount0 = NULL;
    if (c->dynamic) r->hcount0 = grid_counts(c);
    return sdk_se_chain(r, c->g);
}

/* ---- handing runs from one nesting level to the next ------------------- */

/* The nested levels add rules to advanced(): level 1 has rules 0-3
 * (locking, pairs, X-Wing), 2 adds rule 4 (forcing chains), 3 rule 5
 * (multiple forcing chains); level 4 has rules 0-3 and its own rule 4
 * (dynamic forcing chains), 5 adds rule 5. A run of level L (from one
 * assumption on one grid) therefore goes exactly as the same run of the
 * level it extends (1 for 2 and 4, 2 for 3, 4 for 5) as long as a rule that
 * both have yields a hint at every stall: it ends with the same
 * contradiction, or stalls where a common rule yields only known
 * eliminations (closed); only where every rule of the lower level yielded
 * nothing (open) does the higher one go on, with its new rules. The engine
 * asks the levels in that order on the same grid when the lower finds
 * nothing, so each thread keeps the end of every run of levels 1, 2 and 4
 * (set, working grid, arena, nested chain ids) and the next level starts
 * there. Nothing else differs: the same potentials in the same order, the
 * same hints. */
enum { END_NONE, END_BAD, END_CLOSED, END_OPEN };

typedef struct runstate {
    int at, non, noff; /* the set's members: mem[at..], see members_keep */
    sdk_grid work;
    int8_t end;
    int absurd_on, absurd_off;
} runstate;

typedef struct handoff {
    int level;
    sdk_grid grid;
    sdk_se_arena A;
    nest_reg reg;
    int32_t *mem; /* the members of the runs' sets: (cand, node) pairs */
    int nmem, memcap;
    runstate run[2 * 729]; /* by literal cand*2 + on */
} handoff;

/* slot_first: level 1; slot_last: level 2 or 4, on the same grid. */
static _Thread_local handoff *slot_first, *slot_last;

static void handoff_free(handoff *h)
{
    if (!h) return;
    free(h->mem);
    sdk_se_arena_free(&h->A);
    free(h->reg.key);
    free(h->reg.id);
    free(h);
}

/* A hand-off with no run kept yet: END_NONE marks a run as not kept (run_lit
 * reads nothing else of it), so only that is cleared, not the 741 KiB of the
 * 1458 runs that calloc zeroed (0.28% of line 113's instructions, for each
 * of the 82 hand-offs of its search). */
static handoff *handoff_new(int level, const sdk_grid *g)
{
    handoff *h = sdk_xmalloc(sizeof *h);
    h->level = level;
    h->grid = *g;
    memset(&h->A, 0, sizeof h->A);
    memset(&h->reg, 0, sizeof h->reg);
    h->mem = NULL;
    h->nmem = h->memcap = 0;
    for (int i = 0; i < 2 * 729; i++) h->run[i].end = END_NONE;
    return h;
}

static void handoffs_drop(void)
{
    handoff_free(slot_first);
    handoff_free(slot_last);
    slot_first = slot_last = NULL;
}

/* What the loading thread still keeps goes with the plugin. */
__attribute__((destructor)) static void handoffs_at_unload(void)
{
    handoffs_drop();
}

static bool same_grid(const sdk_grid *a, const sdk_grid *b)
{
    return !memcmp(a->cand, b->cand, sizeof a->cand) &&
           !memcmp(a->value, b->value, sizeof a->value);
}

/* The level a nested level extends (0: none). */
static int extended_level(int level)
{
    return level == 2 || level == 4 ? 1 : level == 3 || level == 5 ? level - 1 : 0;
}

/* The rules advanced() runs at a level: the next level starts after them. */
static int level_rules(int level)
{
    return level == 1 ? 4 : level == 2 || level == 4 ? 5 : 6;
}

static void arena_copy(sdk_se_arena *to, const sdk_se_arena *from)
{
    if (to->cap < from->n) {
        to->cap = from->n;
        to->p = sdk_xrealloc(to->p, sizeof *to->p * (size_t)to->cap);
    }
    if (to->parcap < from->npar) {
        to->parcap = from->npar;
        to->par = sdk_xrealloc(to->par, sizeof *to->par * (size_t)to->parcap);
    }
    if (from->n) memcpy(to->p, from->p, sizeof *to->p * (size_t)from->n);
    if (from->npar) memcpy(to->par, from->par, sizeof *to->par * (size_t)from->npar);
    to->n = from->n;
    to->npar = from->npar;
}

static void reg_copy(nest_reg *to, const nest_reg *from)
{
    *to = *from;
    if (!from->cap) return;
    to->key = sdk_xmalloc(sizeof *to->key * (size_t)from->cap);
    to->id = sdk_xmalloc(sizeof *to->id * (size_t)from->cap);
    memcpy(to->key, from->key, sizeof *to->key * (size_t)from->cap);
    memcpy(to->id, from->id, sizeof *to->id * (size_t)from->cap);
}

/* Keep the members of set s in h (on ones, then off ones, each with its
 * node) for run t: a set is 9 KB, a run's members a few hundred, and 1458
 * sets of a hand-off each faulted in pages anew. The set's bits are its
 * members (set_put is their only writer), so members_load gives back the
 * same bits, counts, order and idx of members; idx is read only where a
 * bit is set, so the rest of it may stay as it was. */
static void members_keep(handoff *h, runstate *t, const sdk_se_set *s)
{
    int need = h->nmem + 2 * (s->non + s->noff);
    if (need > h->memcap) {
        h->memcap = need > 2 * h->memcap ? need : 2 * h->memcap;
        h->mem = sdk_xrealloc(h->mem, sizeof *h->mem * (size_t)h->memcap);
    }
    int32_t *m = h->mem + h->nmem;
    t->at = h->nmem;
    t->non = s->non;
    t->noff = s->noff;
    for (int i = 0; i < s->non; i++) {
        *m++ = s->on_ord[i];
        *m++ = s->idx[s->on_ord[i] * 2 + 1];
    }
    for (int i = 0; i < s->noff; i++) {
        *m++ = s->off_ord[i];
        *m++ = s->idx[s->off_ord[i] * 2];
    }
    h->nmem = need;
}

/* Set s made the set kept for run f (members_keep). */
static void members_load(sdk_se_set *s, const handoff *h, const runstate *f)
{
    const int32_t *m = h->mem + f->at;
    memset(s->bits, 0, sizeof s->bits);
    s->non = f->non;
    s->noff = f->noff;
    for (int i = 0; i < f->non; i++, m += 2) {
        int lit = m[0] * 2 + 1;
        s->on_ord[i] = (int16_t)m[0];
        s->idx[lit] = m[1];
        s->bits[lit >> 6] |= 1ull << (lit & 63);
    }
    for (int i = 0; i < f->noff; i++, m += 2) {
        int lit = m[0] * 2;
        s->off_ord[i] = (int16_t)m[0];
        s->idx[lit] = m[1];
        s->bits[lit >> 6] |= 1ull << (lit & 63);
    }
}

/* A run from cand on/off into s: taken over from the lower level where it
 * ran, else made; kept when this level's runs are handed on. */
static bool run_lit(chainer *c, sdk_se_set *s, int cand, bool on)
{
    const runstate *f = c->from ? &c->from->run[cand * 2 + on] : NULL;
    sdk_se_run *r = c->run;
    bool bad;
    c->last_open = false;
    if (f && f->end != END_NONE) {
        members_load(s, c->from, f);
        r->a = &c->A;
        r->s = s;
        r->flags = SDK_SE_DYNAMIC;
        r->t = NULL;
        r->more = advanced;
        r->more_ctx = c;
        r->work = f->work;
        if (f->end == END_OPEN) {
            c->start_rule = level_rules(c->from->level);
            bad = sdk_se_chain_resume(r, c->g);
        } else {
            r->absurd_on = f->absurd_on;
            r->absurd_off = f->absurd_off;
            bad = f->end == END_BAD;
        }
    } else
        bad = run_from(c, s, cand, on);
    if (c->rec) {
        runstate *t = &c->rec->run[cand * 2 + on];
        members_keep(c->rec, t, s);
        t->work = r->work;
        t->end = bad ? END_BAD : c->last_open ? END_OPEN : END_CLOSED;
        t->absurd_on = r->absurd_on;
        t->absurd_off = r->absurd_off;
    }
    return bad;
}

/* Whether c's runs are first found as literals alone (sdk_se_closure):
 * dynamic searches without nested rules (level 0), most of which are the
 * nested searches of level 4 and above. Few of their runs end in a hint (5%
 * on the hardest puzzles); only those, and those that meet a clash, are
 * made with their potentials, and the hints come from those potentials in
 * the same order as before (at other places in the arena, which nothing
 * reads). */
static bool literals_first(const chainer *c)
{
    return c->dynamic && c->level == 0;
}

/* The words of l, as 36 64-bit words (board i's low word is word 2i), and
 * bit w set where word w is not 0. */
static const uint64_t *lits_word(const sdk_se_lits *l)
{
    return (const uint64_t *)l->b;
}

static uint64_t lits_words(const sdk_se_lits *l)
{
    uint64_t words = 0;
#ifdef __SSE2__
    /* a board at a time: its two words' 32-bit halves compared with 0, the
     * halves of each word and-ed, the two signs taken (bit set: word 0) */
    const __m128i zero = _mm_setzero_si128();
    for (int i = 0; i < 18; i++) {
        __m128i e = _mm_cmpeq_epi32(_mm_loadu_si128((const __m128i *)&l->b[i]), zero);
        e = _mm_and_si128(e, _mm_shuffle_epi32(e, _MM_SHUFFLE(2, 3, 0, 1)));
        words |= (uint64_t)_mm_movemask_pd(_mm_castsi128_pd(e)) << 2 * i;
    }
    words = ~words & ((1ull << 36) - 1);
#else
    for (int i = 0; i < 18; i++)
        words |= (uint64_t)(l->b[i].lo != 0) << 2 * i | (uint64_t)(l->b[i].hi != 0) << (2 * i + 1);
#endif
    return words;
}

/* The closures of the last search whose runs were first found as literals
 * alone (literals_first), kept per thread for the next one: the nested
 * searches of a step run one after the other on grids that often differ
 * from the one just before in a few candidates (of the 9,031 on line 113 of
 * forum_hardest_1106 that se_memo does not answer, 5,748 in 16 or fewer),
 * and a closure that reads none of them is the same on both grids
 * (sdk_se_closure_keeps says when, and why): 21.6% of their closures are
 * taken over. A search that differs in more candidates makes its own. */
typedef struct closures_kept {
    sdk_grid grid;
    bool y;
    sdk_se_lits *bits; /* by candidate, from the search's onbits */
    uint64_t *words;   /* ... and its onwords */
    bool ok[729];      /* bits[cand] is the closure from cand on, found */
} closures_kept;

static _Thread_local closures_kept *closures_last;

__attribute__((destructor)) static void closures_at_unload(void)
{
    if (!closures_last) return;
    free(closures_last->bits);
    free(closures_last->words);
    free(closures_last);
    closures_last = NULL;
}

/* Keep the closures of c (literals_first, with an on-run cache) for the next
 * search: its onbits and onwords go to closures_last, whose blocks (the same
 * size) go back to c in their place, for the pool. */
static void closures_keep(chainer *c)
{
    closures_kept *k = closures_last;
    if (!k) k = closures_last = sdk_xcalloc(1, sizeof *k);
    sdk_se_lits *bits = k->bits;
    uint64_t *words = k->words;
    k->bits = c->onbits, k->words = c->onwords;
    c->onbits = bits, c->onwords = words;
    k->grid = *c->g;
    k->y = !c->nishio;
    /* a run made with its potentials without a clash reaches the literals
     * of its closure (sdk_se_closure); one that met a clash holds where it
     * stopped */
    memset(k->ok, 0, sizeof k->ok);
    const oncache_block *b = c->onblk;
    for (int i = 0; i < b->nmade; i++) k->ok[b->made[i]] = !b->run[b->made[i]].bad;
}

/* The closure from cand on taken from closures_last into c's onbits, where
 * it is c's too; false when it is not. */
static bool closure_from_last(chainer *c, int cand)
{
    const closures_kept *k = closures_last;
    if (c->ndiff == -1) {
        c->ndiff = -2;
        if (k && k->bits && k->y == !c->nishio) {
            int n = 0;
            for (int cell = 0; cell < 81 && n >= 0; cell++)
                for (unsigned m = c->g->cand[cell] ^ k->grid.cand[cell]; m && n >= 0; m &= m - 1) {
                    if (n == (int)(sizeof c->diff / sizeof c->diff[0]))
                        n = -2;
                    else
                        c->diff[n++] = (int16_t)(cell * 9 + __builtin_ctz(m));
                }
            c->ndiff = n;
        }
    }
    if (c->ndiff < 0 || !k->ok[cand] ||
        !sdk_se_closure_keeps(&k->bits[cand], c->diff, c->ndiff, !c->nishio))
        return false;
    c->onbits[cand] = k->bits[cand];
    c->onwords[cand] = k->words[cand];
    return true;
}

/* The run from cand on with its potentials, kept in the on-run cache. */
static void on_run_nodes_make(chainer *c, onrun *o, int cand)
{
    {
        if (!c->onset) c->onset = set_get(c->pool);
        sdk_se_set *s = c->onset;
        /* made before as literals alone (sdk_se_closure): the run reaches
         * the same literals, without a clash, and they are kept already */
        bool known = o->done;
        if (!known) c->onblk->made[c->onblk->nmade++] = (int16_t)cand;
        o->done = o->nodes = true;
        o->bad = run_lit(c, s, cand, true);
        o->absurd_on = c->run->absurd_on;
        o->absurd_off = c->run->absurd_off;
        if (!known) {
            sdk_se_lits_of_set(s, &c->onbits[cand]);
            c->onwords[cand] = lits_words(&c->onbits[cand]);
        }
        int need = c->nonlit + s->non + s->noff;
        if (need > c->onlitcap) {
            c->onlitcap = need * 2 > 4096 ? need * 2 : 4096;
            c->onlit = sdk_xrealloc(c->onlit, sizeof *c->onlit * (size_t)c->onlitcap);
        }
        o->at = c->nonlit;
        o->non = s->non;
        o->noff = s->noff;
        if (c->nonpos + 2 * 729 > c->onposcap) {
            c->onposcap = c->onposcap ? 2 * c->onposcap : 32 * 2 * 729;
            c->onpos = sdk_xrealloc(c->onpos, sizeof *c->onpos * (size_t)c->onposcap);
        }
        o->pos = c->nonpos;
        c->nonpos += 2 * 729;
        int16_t *pos = c->onpos + o->pos;
        onlit *l = c->onlit + c->nonlit;
        for (int i = 0; i < s->non; i++) {
            l->lit = s->on_ord[i] * 2 + 1;
            pos[l->lit] = (int16_t)i;
            l++->node = s->idx[s->on_ord[i] * 2 + 1];
        }
        for (int i = 0; i < s->noff; i++) {
            l->lit = s->off_ord[i] * 2;
            pos[l->lit] = (int16_t)(s->non + i);
            l++->node = s->idx[s->off_ord[i] * 2];
        }
        c->nonlit = need;
    }
}

/* on_run for a run not made yet (or no cache yet). */
static __attribute__((noinline)) const onrun *on_run_make(chainer *c, int cand)
{
    if (!c->oncache) {
        c->onblk = oncache_get(c->pool);
        c->oncache = c->onblk->run;
        c->onbits = pool_get(c->pool, B_ONBITS, sizeof *c->onbits * 729);
        c->onwords = pool_get(c->pool, B_ONWORDS, sizeof *c->onwords * 729);
    }
    onrun *o = &c->oncache[cand];
    if (o->done) return o;
    if (literals_first(c) && closure_from_last(c, cand)) {
        o->done = true;
        c->onblk->made[c->onblk->nmade++] = (int16_t)cand;
        return o;
    }
    if (literals_first(c) && sdk_se_closure(c->g, grid_counts(c), c->ccount, cand * 2 + 1,
                                            !c->nishio, &c->onbits[cand])) {
        o->done = true;
        c->onblk->made[c->onblk->nmade++] = (int16_t)cand;
        c->onwords[cand] = lits_words(&c->onbits[cand]);
        return o;
    }
    on_run_nodes_make(c, o, cand);
    return o;
}

/* The run from cand on, kept: its literals (c->onbits), and where it has
 * potentials (o->nodes) those too (c->onlit). Most calls find it made (a
 * region's candidates are asked for again from each of its cells' searches):
 * those return here, without on_run_make's frame. */
static inline const onrun *on_run(chainer *c, int cand)
{
    if (c->oncache && c->oncache[cand].done) return &c->oncache[cand];
    return on_run_make(c, cand);
}

/* on_run with its potentials: the run made again where only its literals
 * were found (the same literals). */
static const onrun *on_run_nodes(chainer *c, int cand)
{
    onrun *o = &c->oncache[cand];
    if (!o->done || !o->nodes) on_run_nodes_make(c, o, cand);
    return o;
}

/* Where literal lit (known to be there) is in the list of the run from
 * cand on, kept with its potentials. */
static int onrun_pos(const chainer *c, int cand, int lit)
{
    return c->onpos[c->oncache[cand].pos + lit];
}

/* The node of literal lit (known to be there) in the kept run from cand on. */
static int onrun_node(const chainer *c, int cand, int lit)
{
    return c->onlit[c->oncache[cand].at + onrun_pos(c, cand, lit)].node;
}

/* The true (on) or false literals of the kept run from cand on, in order. */
static int onrun_lits(const chainer *c, int cand, bool on, int *out)
{
    const onrun *o = &c->oncache[cand];
    const onlit *l = c->onlit + o->at + (on ? 0 : o->non);
    int n = on ? o->non : o->noff;
    for (int i = 0; i < n; i++) out[i] = l[i].lit;
    return n;
}

static void binary_hint(chainer *c, int kind, int src_lit, int don, int doff, int result_lit)
{
    hint *h = hadd(&c->H);
    h->kind = kind;
    h->sortkey = kind == K_DOUBLE ? 1 : 7;
    h->ntar = 2;
    h->tar[0] = don;
    h->tar[1] = doff;
    h->src = src_lit;
    set_result(h, c->g, result_lit >> 1, result_lit & 1);
    if (!h->nrem) {
        c->H.n--;
        return;
    }
    finish(c, h, rule_base(c));
}

/* Cell (kind K_CELL, src = cell) or region (K_REGION, src = house) hint on
 * the potential lit implied by every run from n candidates on; nodes[i]:
 * lit's node in the i-th run. */
static void multi_hint(chainer *c, int kind, int src, int value, const int *nodes, int n, int lit)
{
    hint *h = hadd(&c->H);
    h->kind = kind;
    h->sortkey = kind == K_CELL ? 5 : 6;
    h->src = src;
    h->value = value;
    set_result(h, c->g, lit >> 1, lit & 1);
    if (!h->nrem) {
        c->H.n--;
        return;
    }
    for (int i = 0; i < n && i < 9; i++) h->tar[h->ntar++] = nodes[i];
    finish(c, h, rule_base(c));
}

/* The on runs of cands[0..n) (kept in c->oncache): the hints on what they
 * all imply. */
static void intersect_hints(chainer *c, int kind, int src, int value, const int *cands, int n)
{
    /* what every set holds, a word at a time (most often nothing), only in
     * the words where every set has something */
    sdk_se_lits common;
    uint64_t *cw = (uint64_t *)common.b, any = 0;
    uint64_t words = c->onwords[cands[0]];
    for (int j = 1; j < n && words; j++) words &= c->onwords[cands[j]];
    if (!words) return;
    /* only the words in `words` are written, and only those are read */
    for (uint64_t m = words; m; m &= m - 1) {
        int w = __builtin_ctzll(m);
        uint64_t b = lits_word(&c->onbits[cands[0]])[w];
        for (int j = 1; j < n && b; j++) b &= lits_word(&c->onbits[cands[j]])[w];
        cw[w] = b;
        any |= b;
    }
    if (!any) return;
    for (int j = 0; j < n; j++) on_run_nodes(c, cands[j]);
    /* the common literals in the first run's order (its list: its true
     * literals, then its false ones, as found), by their places in it */
    int lits[2 * 729], place[2 * 729], k = 0;
    for (uint64_t m = words; m; m &= m - 1) {
        int w = __builtin_ctzll(m), board = w >> 1, di = board % 9, on = board < 9;
        for (uint64_t b = cw[w]; b; b &= b - 1) {
            int cell = (w & 1) * 64 + __builtin_ctzll(b), lit = (cell * 9 + di) * 2 + on;
            int at = onrun_pos(c, cands[0], lit), i = k++;
            for (; i > 0 && place[i - 1] > at; i--) place[i] = place[i - 1], lits[i] = lits[i - 1];
            place[i] = at, lits[i] = lit;
        }
    }
    for (int t = 0; t < k; t++) {
        int nodes[9];
        for (int j = 0; j < n && j < 9; j++) nodes[j] = onrun_node(c, cands[j], lits[t]);
        multi_hint(c, kind, src, value, nodes, n, lits[t]);
    }
}

/* Static multiple chains: a run on a grid that does not change only follows
 * the links of sdk_se_static, so what it holds (stopped early or not) is
 * among the literals its source reaches in that graph. Where the literals
 * reached from every source of a cell or region have nothing in common, no
 * hint can come from their runs, and they are not made: most cells and
 * regions, most searches (nested rule 5 of level 3). The reach of every
 * literal is computed at once, component by component of the graph (sinks
 * first: a component reaches its own literals, the false literals its true
 * ones see, which lead nowhere when unlinked and so are not in the graph,
 * and what its successors reach). */
static closure_tab *closures(pool *pl, const sdk_se_scc *r, const sdk_se_static *t)
{
    closure_tab *ct = pool_get(pl, B_CLOSURE, sizeof *ct);
    uint64_t(*reach)[SDK_SE_SET_WORDS] = ct->reach;
    /* the words where a component's set is not 0 are kept as it is made:
     * its own bits, and its successors' words (made before it) */
    int cur = -1;
    uint32_t words = 0;
    for (int i = 0; i < r->norder; i++) {
        int v = r->order[i], k = r->comp[v];
        uint64_t *m = reach[k];
        if (k != cur) { /* components are contiguous in order */
            if (cur >= 0) ct->words[cur] = words;
            memset(m, 0, sizeof *reach);
            cur = k;
            words = 0;
        }
        m[v >> 6] |= 1ull << (v & 63);
        words |= 1u << (v >> 6);
        if (v & 1) { /* true: its cell's other candidates and its peers false */
            int cand = v >> 1, cell = cand / 9;
            /* the false literals of the cell are bits cell * 18 + 2 * digit
             * index: its other candidates' mask with a 0 after each bit,
             * shifted there (in one word or across two) */
            uint64_t f = t->cand[cell] & ~(1u << (cand % 9));
            f = (f | f << 8) & 0x00ff00ffu;
            f = (f | f << 4) & 0x0f0f0f0fu;
            f = (f | f << 2) & 0x33333333u;
            f = (f | f << 1) & 0x55555555u;
            int base = cell * 18, wl = base >> 6, sh = base & 63;
            if (f << sh) {
                m[wl] |= f << sh;
                words |= 1u << wl;
            }
            if (sh && f >> (64 - sh)) {
                m[wl + 1] |= f >> (64 - sh);
                words |= 1u << (wl + 1);
            }
            sdk_bb all = sdk_bb_and(t->digit[cand % 9], sdk_peer_bb[cell]);
            for (int half = 0; half < 2; half++)
                for (uint64_t w = half ? all.hi : all.lo; w; w &= w - 1) {
                    int off = ((half * 64 + __builtin_ctzll(w)) * 9 + cand % 9) * 2;
                    m[off >> 6] |= 1ull << (off & 63);
                    words |= 1u << (off >> 6);
                }
        }
        for (int e = r->first[r->node[v]]; e < r->first[r->node[v] + 1]; e++) {
            int w = r->cnode[r->adj[e]];
            if (w == k) continue;
            uint32_t ws = ct->words[w];
            words |= ws;
            for (; ws; ws &= ws - 1) {
                int x = __builtin_ctz(ws);
                m[x] |= reach[w][x];
            }
        }
    }
    if (cur >= 0) ct->words[cur] = words;
    return ct;
}

/* Whether the runs from cands[0..n) on may have a literal in common (always
 * without closures: dynamic runs). */
static bool closures_meet(const chainer *c, const int *cands, int n)
{
    if (!c->closure) return true;
    const closure_tab *ct = c->closure;
    const int16_t *comp = c->scc->comp;
    int k[9];
    uint32_t words = ~0u;
    for (int j = 0; j < n && words; j++) {
        k[j] = comp[cands[j] * 2 + 1];
        words &= ct->words[k[j]];
    }
    for (; words; words &= words - 1) {
        int w = __builtin_ctz(words);
        uint64_t b = ct->reach[k[0]][w];
        for (int j = 1; j < n && b; j++) b &= ct->reach[k[j]][w];
        if (b) return true;
    }
    return false;
}

static void region_chains(chainer *c, int cell, int d)
{
    const sdk_grid *g = c->g;
    for (int k = 0; k < 3; k++) {
        int h = sdk_cell_house[cell][unit_order[k]];
        sdk_bb pos = sdk_house_digit(g, h, d);
        int n = sdk_bb_count(pos);
        if (!(n == 2 || (c->multiple && n > 2))) continue;
        /* from its first position (a house lists its cells in increasing
         * order, so the house's order is the bitboard's) */
        if (sdk_bb_first(pos) != cell) continue;
        int cands[9], ns = 0;
        SDK_BB_FOREACH(oc, pos) cands[ns++] = oc * 9 + d - 1;
        if (!closures_meet(c, cands, ns)) continue;
        for (int i = 0; i < ns; i++) on_run(c, cands[i]);
        intersect_hints(c, K_REGION, h, d, cands, ns);
    }
}

static void multiple_cell(chainer *c, int cell)
{
    const sdk_grid *g = c->g;
    int card = sdk_mask_count(g->cand[cell]);
    sdk_se_set *off_set = set_get(c->pool);
    int on_cands[9], nv = 0;
    SDK_MASK_FOREACH(d, g->cand[cell]) {
        int cand = cell * 9 + d - 1;
        bool dbl = card >= 3 && !c->nishio && c->dynamic;
        bool contra = c->dynamic || c->nishio;
        int kind = c->nishio ? K_NISHIO : K_CONTRA;
        /* static multiple chains read the on runs only where they meet */
        const onrun *o = contra || dbl ? on_run(c, cand) : NULL;
        const uint64_t *on_bits = o ? lits_word(&c->onbits[cand]) : NULL;
        if (o && o->bad && contra) /* a clash: the run was made with its potentials */
            binary_hint(c, kind, cand * 2 + 1, o->absurd_on, o->absurd_off, cand * 2);
        /* the run from cand off gives contradiction and double chains only:
         * static multiple chains (neither) do not make it; with potentials
         * only where a hint needs them (literals_first) */
        bool off_bad = false, off_nodes = false;
        sdk_se_lits off_lits;
        const uint64_t *off_bits = lits_word(&off_lits);
        /* literals_first: a false candidate without a strong link is its
         * own run, which no run from cand on holds (they hold cand on);
         * else its strong partner q is true in its run, which makes it
         * false: the two runs reach the same literals (sdk_se_closure),
         * and meet a clash together */
        int q = literals_first(c) ? strong_partner(g, cand, !c->nishio) : -1;
        bool lone = literals_first(c) && q < 0;
        const onrun *oq = q >= 0 && (contra || dbl) ? on_run(c, q) : NULL;
        if (oq && !oq->bad)
            off_bits = lits_word(&c->onbits[q]);
        else if ((contra || dbl) && !lone) {
            off_bad = run_lit(c, off_set, cand, false);
            /* its literals are read for double chains only (ws below is 0
             * without dbl); a contradiction needs the run's potentials */
            if (dbl) sdk_se_lits_of_set(off_set, &off_lits);
            off_nodes = true;
        }
        if (off_bad && contra)
            binary_hint(c, kind, cand * 2, c->run->absurd_on, c->run->absurd_off, cand * 2 + 1);
        uint64_t both = 0; /* most often the two sets share nothing */
        uint64_t ws = dbl && !lone ? c->onwords[cand] : 0;
        for (; ws && !both; ws &= ws - 1) {
            int w = __builtin_ctzll(ws);
            both = on_bits[w] & off_bits[w];
        }
        if (both) {
            on_run_nodes(c, cand);
            if (!off_nodes) run_lit(c, off_set, cand, false);
            int lits[729];
            for (int on = 1; on >= 0; on--) {
                int m = onrun_lits(c, cand, on, lits);
                for (int i = 0; i < m; i++)
                    if (sdk_se_set_has(off_set, lits[i]))
                        binary_hint(c, K_DOUBLE, cand * 2, onrun_node(c, cand, lits[i]),
                                    off_set->idx[lits[i]], lits[i]);
            }
        }
        if (!c->nishio) region_chains(c, cell, d);
        on_cands[nv++] = cand;
    }
    if (!c->nishio && (card == 2 || (c->multiple && card > 2)) && closures_meet(c, on_cands, nv)) {
        for (int i = 0; i < nv; i++) on_run(c, on_cands[i]);
        intersect_hints(c, K_CELL, cell, 0, on_cands, nv);
    }
    pool_put(c->pool, B_SET, off_set);
}

static void multiple(chainer *c)
{
    for (int cell = 0; cell < 81; cell++) {
        if (c->g->value[cell]) continue;
        int card = sdk_mask_count(c->g->cand[cell]);
        if (card > 2 || (card > 1 && c->dynamic)) multiple_cell(c, cell);
    }
}

/* ---- sorting, names, steps ----------------------------------------------- */

/* A hint's place in SE's order (difficulty, complexity, kind, then the
 * order found) as two unsigned words, and its index. */
typedef struct hint_key {
    uint64_t hi, lo;
    int idx;
} hint_key;

static inline uint64_t key_word(int a, int b)
{
    return (uint64_t)((uint32_t)a ^ 0x80000000u) << 32 | ((uint32_t)b ^ 0x80000000u);
}

static inline bool key_less(const hint_key *a, const hint_key *b)
{
    return a->hi < b->hi || (a->hi == b->hi && a->lo < b->lo);
}

/* Sort keys (all distinct: seq is unique) by insertion in runs of 16, then
 * merges, each pass from one of k and tmp into the other (tmp has room for
 * n); the sorted keys end in k. A copy back after every pass was 0.75% of
 * line 113's instructions (forum_hardest_1106). */
static void sort_keys(hint_key *k, hint_key *tmp, int n)
{
    for (int b = 0; b < n; b += 16) {
        int e = b + 16 < n ? b + 16 : n;
        for (int i = b + 1; i < e; i++) {
            hint_key x = k[i];
            int j = i;
            for (; j > b && key_less(&x, &k[j - 1]); j--) k[j] = k[j - 1];
            k[j] = x;
        }
    }
    hint_key *from = k, *to = tmp;
    for (int w = 16; w < n; w *= 2) {
        for (int b = 0; b < n; b += 2 * w) {
            int m = b + w < n ? b + w : n, e = b + 2 * w < n ? b + 2 * w : n;
            int i = b, j = m, o = b;
            while (i < m && j < e) to[o++] = key_less(&from[j], &from[i]) ? from[j++] : from[i++];
            while (i < m) to[o++] = from[i++];
            while (j < e) to[o++] = from[j++];
        }
        hint_key *t = from;
        from = to;
        to = t;
    }
    if (from != k) memcpy(k, from, sizeof *k * (size_t)n);
}

static void sort_i16(int16_t *v, int n)
{
    for (int i = 1; i < n; i++) {
        int16_t x = v[i];
        int j = i;
        for (; j > 0 && x < v[j - 1]; j--) v[j] = v[j - 1];
        v[j] = x;
    }
}

static bool same_effect(const hint *a, const hint *b)
{
    return a->nrem == b->nrem && memcmp(a->rem, b->rem, sizeof a->rem[0] * (size_t)a->nrem) == 0;
}

/* Sort (stable) and drop hints whose eliminations an easier one has. */
static void sort_dedup(hlist *l)
{
    int n = l->n;
    if (n == 0) return; /* l->h may be NULL */
    for (int i = 0; i < n; i++)
        if (l->h[i].nrem > 1) sort_i16(l->h[i].rem, l->h[i].nrem);
    hint_key kbuf[2 * 256], *keys = n <= 256 ? kbuf : sdk_xmalloc(sizeof *keys * 2 * (size_t)n);
    for (int i = 0; i < n; i++) {
        const hint *h = &l->h[i];
        keys[i].hi = key_word(h->diff, h->cplx);
        keys[i].lo = key_word(h->sortkey, h->seq);
        keys[i].idx = i;
    }
    sort_keys(keys, keys + n, n);
    /* the hints kept so far by the hash of their eliminations (an
     * open-addressing table of their indices in out, -1 empty) */
    int cap = 64;
    while (cap < 2 * n) cap *= 2;
    int tbuf[1024], *tab = cap <= 1024 ? tbuf : sdk_xmalloc(sizeof *tab * (size_t)cap);
    memset(tab, 0xff, sizeof *tab * (size_t)cap);
    hint *out = sdk_xmalloc(sizeof *out * (size_t)n);
    int k = 0;
    for (int i = 0; i < n; i++) {
        const hint *h = &l->h[keys[i].idx];
        uint32_t hash = 2166136261u ^ (uint32_t)h->nrem;
        for (int r = 0; r < h->nrem; r++) hash = (hash ^ (uint16_t)h->rem[r]) * 16777619u;
        int j = (int)(hash & (uint32_t)(cap - 1));
        bool dup = false;
        for (; tab[j] >= 0 && !dup; j = (j + 1) & (cap - 1)) dup = same_effect(&out[tab[j]], h);
        if (dup) continue;
        tab[j] = k;
        out[k++] = *h;
    }
    if (tab != tbuf) free(tab);
    if (keys != kbuf) free(keys);
    free(l->h);
    l->h = out;
    l->cap = n;
    l->n = k;
}

static const char *nested_suffix(int level, char *buf, size_t n)
{
    char inner[96];
    switch (level) {
    case 0:
        snprintf(buf, n, "%s", "");
        break;
    case 1:
        snprintf(buf, n, " (+)");
        break;
    case 2:
        snprintf(buf, n, " (+ Forcing Chains)");
        break;
    case 3:
        snprintf(buf, n, " (+ Multiple Forcing Chains)");
        break;
    case 4:
        snprintf(buf, n, " (+ Dynamic Forcing Chains)");
        break;
    default:
        snprintf(buf, n, " (+ Dynamic Forcing Chains%s)",
                 nested_suffix(level - 3, inner, sizeof inner));
    }
    return buf;
}

static void hint_name(const chainer *c, const hint *h, char *buf, size_t n)
{
    char suf[128];
    const char *pre = (c->level > 0 || (c->dynamic && !c->nishio)) ? "Dynamic "
                      : c->nishio                                  ? "Nishio "
                                                                   : "";
    nested_suffix(c->level, suf, sizeof suf);
    switch (h->kind) {
    case K_XCYCLE: {
        int cells = 0;
        for (int p = h->tar[0]; c->A.p[p].np; p = c->A.par[c->A.p[p].par]) cells++;
        snprintf(buf, n, "%s", cells == 4 ? "Generalized X-Wing" : "Bidirectional X-Cycle");
        break;
    }
    case K_YCYCLE:
        snprintf(buf, n, "Bidirectional Y-Cycle");
        break;
    case K_XYCYCLE:
        snprintf(buf, n, "Bidirectional Cycle");
        break;
    case K_XCHAIN:
        snprintf(buf, n, "%s",
                 sdk_se_ancestors(&c->A, h->tar[0], NULL) == 6 ? "Turbot Fish" : "Forcing X-Chain");
        break;
    case K_XYCHAIN:
        snprintf(buf, n, "Forcing Chain");
        break;
    case K_NISHIO:
        snprintf(buf, n, "Nishio Forcing Chains");
        break;
    case K_CONTRA:
        snprintf(buf, n, "%sContradiction Forcing Chains%s", pre, suf);
        break;
    case K_DOUBLE:
        snprintf(buf, n, "%sDouble Forcing Chains%s", pre, suf);
        break;
    case K_CELL:
        snprintf(buf, n, "%sCell Forcing Chains%s", pre, suf);
        break;
    default:
        snprintf(buf, n, "%sRegion Forcing Chains%s", pre, suf);
        break;
    }
}

static const char *pot_text(int cand, bool on, char *buf)
{
    char cn[8];
    sprintf(buf, "%s.%d %s", sdk_cell_name(cand / 9, cn), cand % 9 + 1, on ? "on" : "off");
    return buf;
}

static int emit_hint(const chainer *c, const hint *h, const sdk_technique *t, sdk_sink *sink,
                     sdk_step *st)
{
    char name[160], a[32], b[32], hn[16];
    sdk_step_init(st, t);
    st->difficulty = h->diff;
    hint_name(c, h, name, sizeof name);
    const sdk_se_pot *t0 = &c->A.p[h->tar[0]];
    switch (h->kind) {
    case K_XCYCLE:
    case K_YCYCLE:
    case K_XYCYCLE:
        sdk_step_printf(st, "%s: cycle through %s", name, pot_text(h->src, true, a));
        break;
    case K_XCHAIN:
    case K_XYCHAIN:
        sdk_step_printf(st, "%s: %s", name, pot_text(t0->cand, t0->on, a));
        break;
    case K_CONTRA:
    case K_NISHIO:
        sdk_step_printf(st, "%s: %s ==> %s both on & off", name,
                        pot_text(h->src >> 1, h->src & 1, a), pot_text(t0->cand, true, b));
        break;
    case K_DOUBLE:
        sdk_step_printf(st, "%s: %s on & off ==> %s", name, pot_text(h->src >> 1, true, a),
                        pot_text(t0->cand, t0->on, b));
        break;
    case K_CELL:
        sdk_step_printf(st, "%s: %s ==> %s", name, sdk_cell_name(h->src, hn),
                        pot_text(t0->cand, t0->on, b));
        break;
    default:
        sdk_step_printf(st, "%s: %d in %s ==> %s", name, h->value, sdk_house_name(h->src, hn),
                        pot_text(t0->cand, t0->on, b));
    }
    sdk_step_printf(st, " (%d nodes)", h->cplx - 2);
    for (int i = 0; i < h->ntar; i++) {
        char path[600];
        sdk_se_path_text(&c->A, h->tar[i], path, sizeof path);
        if (strlen(st->text) + strlen(path) + 64 < SDK_STEP_TEXT)
            sdk_step_printf(st, " [%s]", path);
        sdk_se_to_step(&c->A, h->tar[i], st);
    }
    if (h->place >= 0) sdk_step_place(st, h->place / 9, h->place % 9 + 1);
    for (int i = 0; i < h->nrem; i++) sdk_step_elim(st, h->rem[i] / 9, h->rem[i] % 9 + 1);
    return sdk_emit(sink, st);
}

/* ---- a search --------------------------------------------------------------- */

enum { M_UNARY_X = 1, M_UNARY_Y = 2, M_UNARY_XY = 4 };

static void chainer_init(chainer *c, const sdk_grid *g, bool multi, bool dyn, bool nishio,
                         int level, nest_reg *reg, pool *pl)
{
    memset(c, 0, sizeof *c);
    c->g = g;
    c->multiple = multi;
    c->dynamic = dyn;
    c->nishio = nishio;
    c->level = level;
    c->reg = reg;
    c->pool = pl;
    c->ndiff = -1;
    c->run = pool_get(pl, B_RUN, sizeof *c->run);
    if (pl->narena) c->A = pl->arena[--pl->narena];
    if (pl->nsc) {
        scratch *x = &pl->sc[--pl->nsc];
        c->onlit = x->onlit, c->onlitcap = x->onlitcap;
        c->onpos = x->onpos, c->onposcap = x->onposcap;
        c->H.h = x->hints, c->H.cap = x->hintcap;
        c->rh = x->rh;
        c->flat = x->flat, c->flatcap = x->flatcap;
        c->blob = x->blob, c->blobcap = x->blobcap;
    }
}

static void chainer_free(chainer *c)
{
    if (c->oncache) {
        if (literals_first(c)) closures_keep(c);
        oncache_block *b = c->onblk;
        for (int i = 0; i < b->nmade; i++) b->run[b->made[i]] = (onrun){0};
        b->nmade = 0;
        pool_put(c->pool, B_ONCACHE, b);
        pool_put(c->pool, B_ONBITS, c->onbits);
        pool_put(c->pool, B_ONWORDS, c->onwords);
    }
    if (c->onset) pool_put(c->pool, B_SET, c->onset);
    scratch x = {.onlit = c->onlit,
                 .onpos = c->onpos,
                 .onposcap = c->onposcap,
                 .hints = c->H.h,
                 .rh = c->rh,
                 .onlitcap = c->onlitcap,
                 .hintcap = c->H.cap,
                 .flat = c->flat,
                 .flatcap = c->flatcap,
                 .blob = c->blob,
                 .blobcap = c->blobcap};
    if (c->flat) memset(c->flat, 0, sizeof *c->flat * (size_t)c->flathi);
    if (c->pool->nsc < POOL_SCRATCH)
        c->pool->sc[c->pool->nsc++] = x;
    else
        scratch_free(&x);
    pool_put(c->pool, B_RUN, c->run);
    if (c->pool->narena < POOL_ARENAS) {
        c->A.n = c->A.npar = 0; /* the nodes go, the capacity stays */
        c->pool->arena[c->pool->narena++] = c->A;
    } else
        sdk_se_arena_free(&c->A);
}

/* The static links of the last grid a static search ran on, and their
 * graph with cell and house links, per thread: the nested levels 2 and 3
 * run forcing chains (rule 4) and then, where those give nothing, static
 * multiple chains (rule 5) on the same grid, and both start from these.
 * Static searches nest nothing, so one at a time reads them. */
typedef struct static_slot {
    sdk_grid grid;
    bool valid, has_xy;
    sdk_se_static t;
    sdk_se_scc xy;
} static_slot;

static _Thread_local static_slot *last_static;

__attribute__((destructor)) static void static_at_unload(void)
{
    free(last_static);
    last_static = NULL;
}

/* The host's release (sudoku/cache.h), between requests: what this file
 * keeps per thread goes, as when the plugin is unloaded. Each cache is
 * made again on first use, and none changes an answer: the pool's buffers
 * are handed out as new ones (pool_get), a handoff, kept closures and
 * static links are taken only on the very grid (or the closure test) they
 * were made for, so a search without them finds the same. */
static void chain_caches_release(void)
{
    pool_at_unload();
    handoffs_at_unload();
    closures_at_unload();
    static_at_unload();
}

static const sdk_se_static *static_links(const sdk_grid *g)
{
    static_slot *sl = last_static;
    if (!sl) sl = last_static = sdk_xcalloc(1, sizeof *sl);
    if (!sl->valid || !same_grid(&sl->grid, g)) {
        /* nested grids one after the other are often a few candidates
         * apart (another grid each time: a cache of 4 to 64 grids would
         * have met 0 to 13 of line 113's 26,112 again) */
        if (sl->valid)
            sdk_se_static_update(&sl->t, g);
        else
            sdk_se_static_init(&sl->t, g);
        sl->grid = *g;
        sl->valid = true;
        sl->has_xy = false;
    }
    return &sl->t;
}

/* The graph (cell and house links) of the links static_links gave last. */
static const sdk_se_scc *static_scc_xy(void)
{
    static_slot *sl = last_static;
    if (!sl->has_xy) sdk_se_scc_init(&sl->xy, &sl->t, true, true);
    sl->has_xy = true;
    return &sl->xy;
}

static void collect(chainer *c, unsigned unary_modes)
{
    if (c->multiple || c->dynamic) {
        const sdk_se_scc *scc = NULL;
        closure_tab *reach = NULL;
        if (!c->dynamic) { /* static runs: the links once for all of them */
            const sdk_se_static *t = static_links(c->g);
            c->stat = t;
            scc = static_scc_xy();
            reach = closures(c->pool, scc, t);
            c->scc = scc;
            c->closure = reach;
        }
        multiple(c);
        c->stat = NULL;
        c->scc = NULL;
        c->closure = NULL;
        pool_put(c->pool, B_CLOSURE, reach);
    } else {
        const sdk_se_static *t = static_links(c->g);
        const sdk_se_scc *scc = static_scc_xy();
        bool reach[1458];
        if (unary_modes & (M_UNARY_X | M_UNARY_XY)) forcing_reach(c->g, scc, reach);
        if (unary_modes & M_UNARY_X) unary(c, t, false, true, scc, reach);
        if (unary_modes & M_UNARY_Y) unary(c, t, true, false, scc, NULL);
        if (unary_modes & M_UNARY_XY) unary(c, t, true, true, scc, reach);
    }
    sort_dedup(&c->H);
}

/* ---- nested levels: SE's getAdvancedPotentials ------------------------------- */

#define RH_MAXREM 32
#define RH_MAXPAR 256
typedef struct rule_hint {
    int16_t rem[RH_MAXREM];
    int nrem;
    int16_t par[RH_MAXPAR];
    int npar;
    uint64_t key;                  /* nested: the chain's identity (full_chain_key) */
    int cplx;                      /* nested: the chain's complexity */
    uint64_t has[(729 + 63) / 64]; /* the candidates in par, as a bit set */
} rule_hint;

static void rh_reset(rule_hint *r)
{
    r->nrem = r->npar = 0;
    memset(r->has, 0, sizeof r->has);
}

static void rh_parent(rule_hint *r, int cand)
{
    if ((r->has[cand >> 6] >> (cand & 63)) & 1) return;
    if (r->npar < RH_MAXPAR) {
        r->par[r->npar++] = (int16_t)cand;
        r->has[cand >> 6] |= 1ull << (cand & 63);
    }
}

/* Candidates d of cells removed between src and cur. */
static void removed_in(rule_hint *r, const sdk_grid *src, const sdk_grid *cur, sdk_bb cells, int d)
{
    sdk_bb gone = sdk_bb_andnot(sdk_bb_and(cells, src->digit[d - 1]), cur->digit[d - 1]);
    SDK_BB_FOREACH(x, gone) rh_parent(r, x * 9 + d - 1);
}

/* The nested rules below follow SE's Locking, HiddenSet(2), NakedSet(2) and
 * Fisherman(2): same house order, value/position tuples in increasing bit
 * order (SE's Permutations), CommonTuples' "every member has >= 2" rule,
 * and getRuleParents of each hint. */
static int rules_locking(const sdk_grid *g, const sdk_grid *src, const uint8_t (*hc)[9],
                         rule_hint *out, int max)
{
    int n = 0;
    static const int pairs[4][2] = {{2, 1}, {2, 0}, {1, 2}, {0, 2}};
    /* SukakuExplainer's Locking: each pair of house types, then each digit,
     * then each crossing pair of houses */
    for (int pr = 0; pr < 4; pr++)
        for (int d = 1; d <= 9; d++)
            for (int i1 = 0; i1 < 9; i1++) {
                int h1 = pairs[pr][0] * 9 + i1;
                if (hc[h1][d - 1] < 2) continue;
                sdk_bb p = sdk_house_digit(g, h1, d);
                /* of the crossing houses only the one holding p's first cell
                 * can hold all of p (two cells or more) */
                int h2 = sdk_cell_house[sdk_bb_first(p)][pairs[pr][1]];
                if (n >= max || !sdk_bb_subset(p, sdk_house_bb[h2])) continue;
                sdk_bb rm = sdk_bb_andnot(sdk_house_digit(g, h2, d), sdk_house_bb[h1]);
                if (sdk_bb_empty(rm)) continue;
                rule_hint *r = &out[n];
                rh_reset(r);
                SDK_BB_FOREACH(x, rm)
                    if (r->nrem < RH_MAXREM) r->rem[r->nrem++] = (int16_t)(x * 9 + d - 1);
                /* LockingHint: removed from the base house outside the cover */
                removed_in(r, src, g, sdk_bb_andnot(sdk_house_bb[h1], sdk_house_bb[h2]), d);
                n++;
            }
    return n;
}

static const int set_order[3] = {18, 9, 0};

static int rules_hidden_pair(const sdk_grid *g, const sdk_grid *src, const uint8_t (*hc)[9],
                             rule_hint *out, int max)
{
    int n = 0;
    for (int o = 0; o < 3; o++)
        for (int k = 0; k < 9; k++) {
            int h = set_order[o] + k;
            if (sdk_bb_count(sdk_bb_andnot(sdk_house_bb[h], g->solved)) <= 4) continue;
            /* both >= 2 places and two places together: the same two; so
             * only digits with two places pair */
            unsigned two = 0;
            for (int d = 1; d <= 9; d++)
                if (hc[h][d - 1] == 2) two |= sdk_digit_bit(d);
            SDK_MASK_FOREACH(b, two) /* {a,b} in increasing bit order */
                SDK_MASK_FOREACH(a, two & (sdk_digit_bit(b) - 1)) {
                    if (n >= max) return n;
                    sdk_bb pa = sdk_house_digit(g, h, a), pb = sdk_house_digit(g, h, b);
                    if (pa.lo != pb.lo || pa.hi != pb.hi) continue;
                    sdk_bb cells = pa;
                    rule_hint *r = &out[n];
                    rh_reset(r);
                    unsigned keep = sdk_digit_bit(a) | sdk_digit_bit(b);
                    SDK_BB_FOREACH(x, cells) {
                        SDK_MASK_FOREACH(v, g->cand[x] & ~keep) {
                            if (r->nrem < RH_MAXREM) r->rem[r->nrem++] = (int16_t)(x * 9 + v - 1);
                        }
                    }
                    if (!r->nrem) continue;
                    removed_in(r, src, g, sdk_house_bb[h], a);
                    removed_in(r, src, g, sdk_house_bb[h], b);
                    n++;
                }
        }
    return n;
}

static int rules_naked_pair(const sdk_grid *g, const sdk_grid *src, rule_hint *out, int max)
{
    int n = 0;
    for (int o = 0; o < 3; o++)
        for (int k = 0; k < 9; k++) {
            int h = set_order[o] + k;
            if (sdk_bb_count(sdk_bb_andnot(sdk_house_bb[h], g->solved)) < 4) continue;
            /* two empty cells with >= 2 candidates and two together: two
             * bivalue cells with the same two, so only bivalue cells pair */
            unsigned bi = 0; /* bit q: the house's q-th cell is bivalue */
            for (int q = 0; q < 9; q++) {
                int x = sdk_house_cell[h][q];
                if (!g->value[x] && sdk_mask_count(g->cand[x]) == 2) bi |= 1u << q;
            }
            for (unsigned mj = bi & (bi - 1); mj; mj &= mj - 1) /* {i,j} in increasing bit order */
                for (unsigned mi = bi & ((1u << __builtin_ctz(mj)) - 1); mi; mi &= mi - 1) {
                    if (n >= max) return n;
                    int i = __builtin_ctz(mi), j = __builtin_ctz(mj);
                    int ci = sdk_house_cell[h][i], cj = sdk_house_cell[h][j];
                    unsigned m = g->cand[ci] | g->cand[cj];
                    if (sdk_mask_count(m) != 2) continue;
                    rule_hint *r = &out[n];
                    rh_reset(r);
                    /* cell by cell in the house's order, as SE meets them */
                    for (int q = 0; q < 9; q++) {
                        int x = sdk_house_cell[h][q];
                        if (q == i || q == j) continue;
                        SDK_MASK_FOREACH(v, m) {
                            if (sdk_bb_has(g->digit[v - 1], x) && r->nrem < RH_MAXREM)
                                r->rem[r->nrem++] = (int16_t)(x * 9 + v - 1);
                        }
                    }
                    if (!r->nrem) continue;
                    int cs[2] = {ci, cj};
                    for (int q = 0; q < 2; q++) {
                        unsigned gone = src->cand[cs[q]] & ~g->cand[cs[q]] & ~m;
                        SDK_MASK_FOREACH(v, gone) rh_parent(r, cs[q] * 9 + v - 1);
                    }
                    n++;
                }
        }
    return n;
}

static int rules_xwing(const sdk_grid *g, const sdk_grid *src, const uint8_t (*hc)[9],
                       rule_hint *out, int max)
{
    int n = 0, placed[10] = {0};
    for (int c = 0; c < 81; c++)
        if (g->value[c]) placed[g->value[c]]++;
    static const int base_type[2] = {1, 0}; /* SE: columns as base lines, then rows */
    for (int tt = 0; tt < 2; tt++) {
        int t = base_type[tt];
        for (int j = 1; j < 9; j++)
            for (int i = 0; i < j; i++)
                for (int d = 1; d <= 9 && n < max; d++) {
                    if (placed[d] + 4 > 9) continue;
                    int h1 = t * 9 + i, h2 = t * 9 + j;
                    if (hc[h1][d - 1] != 2 || hc[h2][d - 1] != 2) continue;
                    sdk_bb p1 = sdk_house_digit(g, h1, d), p2 = sdk_house_digit(g, h2, d);
                    unsigned lines = 0;
                    sdk_bb both = sdk_bb_or(p1, p2), cover = sdk_bb_none();
                    SDK_BB_FOREACH(x, both) lines |= 1u << (t == 0 ? sdk_col(x) : sdk_row(x));
                    if (sdk_mask_count(lines) != 2) continue;
                    rule_hint *r = &out[n];
                    rh_reset(r);
                    for (int l = 0; l < 9; l++) {
                        if (!(lines >> l & 1)) continue;
                        int hc = (1 - t) * 9 + l;
                        cover = sdk_bb_or(cover, sdk_house_bb[hc]);
                        sdk_bb rm = sdk_bb_andnot(sdk_house_digit(g, hc, d), both);
                        SDK_BB_FOREACH(x, rm)
                            if (r->nrem < RH_MAXREM) r->rem[r->nrem++] = (int16_t)(x * 9 + d - 1);
                    }
                    if (!r->nrem) continue;
                    /* LockingHint: removed from the base lines outside the cover lines */
                    removed_in(r, src, g, sdk_bb_andnot(sdk_house_bb[h1], cover), d);
                    removed_in(r, src, g, sdk_bb_andnot(sdk_house_bb[h2], cover), d);
                    n++;
                }
    }
    return n;
}

/* SE's collectRuleParents for a nested chain hint on the reduced grid, in
 * two halves: where the parents come from (spec: a cell, whose candidates
 * removed since the start are parents, or a house and digit, the digit's
 * places removed in it), which depends on the nested search alone, then the
 * parents themselves (spec_apply), which depend on the start grid too. The
 * spec keeps the order of the walk; an item met again adds nothing. */
enum { SPEC_HOUSE = 81, SPEC_ITEMS = 81 + 27 * 9 };

static int spec_item(uint64_t *done, uint16_t *spec, int n, int item)
{
    if ((done[item >> 6] >> (item & 63)) & 1) return n;
    done[item >> 6] |= 1ull << (item & 63);
    spec[n] = (uint16_t)item;
    return n + 1;
}

/* The spec item of true potential p (cause, SE's meaning) of cell and digit d. */
static int cause_item(int cause, int cell, int d)
{
    if (cause == SDK_SE_CELL) return cell;
    int type = cause == SDK_SE_BLOCK ? SDK_BOX : cause == SDK_SE_ROW ? SDK_ROW : SDK_COL;
    return SPEC_HOUSE + sdk_cell_house[cell][type] * 9 + d - 1;
}

static int chain_spec(const chainer *sub, const hint *h, uint16_t *spec)
{
    uint64_t done[(SPEC_ITEMS + 63) / 64];
    memset(done, 0, sizeof done);
    int ns = 0;
    uint64_t seen[SDK_SE_SET_WORDS]; /* by literal */
    for (int t = 0; t < h->ntar; t++) {
        memset(seen, 0, sizeof seen); /* SE: each chain end on its own */
        int stack[8192], n = 0;
        stack[n++] = h->tar[t];
        while (n) {
            int x = stack[--n];
            const sdk_se_pot *p = &sub->A.p[x];
            int lit = p->cand * 2 + p->on;
            if (seen[lit >> 6] >> (lit & 63) & 1) continue;
            seen[lit >> 6] |= 1ull << (lit & 63);
            int cause = p->cause;
            if (cause == SDK_SE_ASSUMED)
                cause = h->kind == K_CELL     ? SDK_SE_CELL
                        : h->kind == K_REGION ? (h->src >= 18  ? SDK_SE_BLOCK
                                                 : h->src >= 9 ? SDK_SE_COL
                                                               : SDK_SE_ROW)
                                              : SDK_SE_ASSUMED;
            if (p->on && cause != SDK_SE_ASSUMED && cause != SDK_SE_ADVANCED)
                ns = spec_item(done, spec, ns, cause_item(cause, p->cand / 9, p->cand % 9 + 1));
            for (int i = 0; i < p->np && n < 8192; i++) stack[n++] = sub->A.par[p->par + i];
        }
    }
    if (h->kind == K_XCYCLE || h->kind == K_YCYCLE || h->kind == K_XYCYCLE) {
        /* SE's CycleHint has the reversed cycle as a second chain: its on
         * potentials are the false ones of the cycle, with their causes */
        for (int x = h->tar[0]; sub->A.p[x].np; x = sub->A.par[sub->A.p[x].par]) {
            const sdk_se_pot *p = &sub->A.p[x];
            if (p->on || p->cause == SDK_SE_ASSUMED || p->cause == SDK_SE_ADVANCED) continue;
            ns = spec_item(done, spec, ns, cause_item(p->cause, p->cand / 9, p->cand % 9 + 1));
        }
    }
    return ns;
}

static void spec_apply(const uint16_t *spec, int n, const sdk_grid *src, const sdk_grid *cur,
                       rule_hint *r)
{
    for (int i = 0; i < n; i++) {
        int item = spec[i];
        if (item < SPEC_HOUSE) {
            unsigned gone = src->cand[item] & ~cur->cand[item];
            SDK_MASK_FOREACH(v, gone) rh_parent(r, item * 9 + v - 1);
        } else {
            int h = (item - SPEC_HOUSE) / 9, d = (item - SPEC_HOUSE) % 9 + 1;
            removed_in(r, src, cur, sdk_house_bb[h], d);
        }
    }
}

/* SE's FullChain identity of a nested hint: its targets, each with its
 * ancestors in breadth-first order (first parent first), as one hash. */
static uint64_t full_chain_key(const chainer *sub, const hint *h)
{
    uint64_t k = 1469598103934665603ull;
    const sdk_se_arena *a = &sub->A;
    uint64_t seen[SDK_SE_SET_WORDS]; /* by literal */
    int buf_a[4096], buf_b[4096], *level = buf_a, *next = buf_b;
    for (int t = 0; t < h->ntar; t++) {
        memset(seen, 0, sizeof seen);
        int nt = 0;
        level[nt++] = h->tar[t];
        while (nt) {
            int nn = 0;
            for (int i = 0; i < nt; i++) {
                const sdk_se_pot *p = &a->p[level[i]];
                int lit = p->cand * 2 + p->on;
                if (seen[lit >> 6] >> (lit & 63) & 1) continue;
                seen[lit >> 6] |= 1ull << (lit & 63);
                k = (k ^ (uint64_t)(lit + 1)) * 1099511628211ull;
                for (int j = 0; j < p->np && nn < 4096; j++) next[nn++] = a->par[p->par + j];
            }
            int *sw = level;
            level = next;
            next = sw;
            nt = nn;
        }
        k = (k ^ 0xffffu) * 1099511628211ull; /* end of this target's chain */
    }
    return k;
}

/* SE keeps a rule's removable candidates in a java.util.HashMap keyed by
 * cell, whose hash is the cell's index, and turns them into false potentials
 * in that map's iteration order: by bucket (index modulo the table size: 16,
 * doubled each time the cells exceed three quarters of it), cells sharing a
 * bucket in the order the rule met them, each cell's digits ascending. That
 * order is the order the nested search queues them, so it decides which
 * contradiction a chain meets first. rem holds the rule's removables in the
 * order the rule met them; they are put in the map's order. */
static void hashmap_order(int16_t *rem, int n)
{
    int cells[RH_MAXREM], nc = 0, cap = 16;
    for (int i = 0; i < n; i++) {
        int cell = rem[i] / 9;
        bool seen = false;
        for (int j = 0; j < nc && !seen; j++) seen = cells[j] == cell;
        if (!seen) cells[nc++] = cell;
    }
    while (nc > cap * 3 / 4) cap *= 2;
    int16_t out[RH_MAXREM];
    int m = 0;
    for (int b = 0; b < cap; b++)
        for (int j = 0; j < nc; j++) {
            if ((cells[j] & (cap - 1)) != b) continue;
            for (int d = 0; d < 9; d++)
                for (int i = 0; i < n; i++)
                    if (rem[i] == cells[j] * 9 + d) out[m++] = rem[i];
        }
    memcpy(rem, out, sizeof *rem * (size_t)m);
}

/* A nested search's hints as the outer chain takes them, for se_memo: per
 * hint its identity, complexity, removables and parent spec, packed. */
static size_t pack_nested(chainer *c, const chainer *sub, int n)
{
    uint16_t spec[SPEC_ITEMS];
    size_t len = 0;
    for (int i = 0; i < n; i++) {
        const hint *h = &sub->H.h[i];
        int ns = chain_spec(sub, h, spec);
        uint64_t key = ns ? full_chain_key(sub, h) : 0; /* no spec: no parents, never used */
        int32_t cplx = h->cplx;
        uint16_t nrem = (uint16_t)h->nrem, nspec = (uint16_t)ns;
        size_t need = len + 12 + 4 + 2 * (size_t)(nrem + nspec);
        if (need > c->blobcap) {
            c->blobcap = need * 2 > 65536 ? need * 2 : 65536;
            c->blob = sdk_xrealloc(c->blob, c->blobcap);
        }
        unsigned char *b = c->blob + len;
        memcpy(b, &key, 8);
        memcpy(b + 8, &cplx, 4);
        memcpy(b + 12, &nrem, 2);
        memcpy(b + 14, &nspec, 2);
        memcpy(b + 16, h->rem, 2 * (size_t)nrem);
        memcpy(b + 16 + 2 * nrem, spec, 2 * (size_t)nspec);
        len = need;
    }
    return len;
}

/* Rules 4 and 5 of advanced(): a nested search on cur (or its kept result),
 * its hints into rh as rule hints. Returns their number. */
static int nested_rule(chainer *c, bool multi, bool dyn, int lvl, const sdk_grid *cur,
                       const sdk_grid *src, rule_hint *rh)
{
    int kind = (multi ? 1 : 0) | (dyn ? 2 : 0) | lvl << 2;
    size_t len = 0;
    const unsigned char *b = se_memo_get(kind, cur, &len);
    if (!b) {
        chainer sub;
        chainer_init(&sub, cur, multi, dyn, false, lvl, c->reg, c->pool);
        collect(&sub, M_UNARY_X | M_UNARY_Y | M_UNARY_XY);
        len = pack_nested(c, &sub, sub.H.n < 512 ? sub.H.n : 512);
        chainer_free(&sub);
        se_memo_put(kind, cur, c->blob, len);
        b = c->blob;
    }
    int n = 0;
    for (size_t at = 0; at < len; n++) {
        uint16_t nrem, nspec, spec[SPEC_ITEMS];
        rule_hint *r = &rh[n];
        rh_reset(r);
        memcpy(&r->key, b + at, 8);
        int32_t cplx;
        memcpy(&cplx, b + at + 8, 4);
        r->cplx = cplx;
        memcpy(&nrem, b + at + 12, 2);
        memcpy(&nspec, b + at + 14, 2);
        memcpy(r->rem, b + at + 16, 2 * (size_t)nrem);
        r->nrem = nrem;
        memcpy(spec, b + at + 16 + 2 * nrem, 2 * (size_t)nspec);
        spec_apply(spec, nspec, src, cur, r);
        at += 16 + 2 * (size_t)(nrem + nspec);
    }
    return n;
}

static int advanced(void *ctx, sdk_se_arena *a, sdk_se_set *s, const sdk_grid *cur,
                    const sdk_grid *src)
{
    chainer *c = ctx;
    int added = 0;
    if (!c->rh) {
        c->rh = sdk_xmalloc(sizeof *c->rh * 512);
    }
    rule_hint *rh = c->rh;
    /* places of each digit in each house: a dynamic run keeps them with
     * its working grid (cur) */
    uint8_t hbuf[27][9];
    const uint8_t(*hc)[9] = hbuf;
    if (cur == &c->run->work && (c->run->flags & SDK_SE_DYNAMIC))
        hc = (const uint8_t(*)[9])c->run->hcount;
    else
        sdk_se_house_counts(cur, hbuf);
    int first = c->start_rule;
    c->start_rule = 0;
    c->last_open = true;
    for (int rule = first; rule < 6; rule++) {
        int n = 0, ncplx = 0;
        bool nested = false;
        switch (rule) {
        case 0:
            n = rules_locking(cur, src, hc, rh, 512);
            break;
        case 1:
            n = rules_hidden_pair(cur, src, hc, rh, 512);
            break;
        case 2:
            n = rules_naked_pair(cur, src, rh, 512);
            break;
        case 3:
            n = rules_xwing(cur, src, hc, rh, 512);
            break;
        default: {
            /* level 2: forcing chains; 3: + multiple; 4: dynamic; 5+: nested dynamic */
            bool use;
            bool multi = false, dyn = false;
            int lvl = 0;
            if (c->level < 4) {
                use = (rule == 4 && c->level >= 2) || (rule == 5 && c->level >= 3);
                multi = rule == 5;
            } else {
                use = (rule == 4) || (rule == 5 && c->level >= 5);
                multi = dyn = true;
                lvl = rule == 5 ? c->level - 3 : 0;
            }
            if (!use) continue;
            n = nested_rule(c, multi, dyn, lvl, cur, src, rh);
            nested = true;
        }
        }
        int got = 0;
        for (int i = 0; i < n; i++) {
            if (!rh[i].npar) continue;
            int par[RH_MAXPAR], np = 0;
            for (int k = 0; k < rh[i].npar; k++) {
                int lit = rh[i].par[k] * 2;
                if (sdk_se_set_has(s, lit)) par[np++] = s->idx[lit];
            }
            int id = nested ? reg_id(c->reg, rh[i].key) : -1;
            if (nested) ncplx = rh[i].cplx;
            hashmap_order(rh[i].rem, rh[i].nrem);
            for (int k = 0; k < rh[i].nrem; k++) {
                int node = sdk_se_new(a, rh[i].rem[k], 0, SDK_SE_ADVANCED, par, np);
                a->p[node].nested = id;
                a->p[node].ncplx = ncplx;
                got++;
                if (sdk_se_push_off(c->run, node)) added++;
            }
        }
        if (got) {
            c->last_open = false;
            break;
        }
    }
    return added;
}

/* ---- techniques ---------------------------------------------------------------- */

typedef struct spec {
    bool multi, dyn, nishio;
    int level;
    unsigned unary;
    int only_kind; /* -1: every kind */
} spec;

static const sdk_technique *kind_tech(int kind, const sdk_technique *def);

/* One find for every chain technique: what it runs is its descriptor's spec. */
static int find_chains(const sdk_ctx *ctx, const sdk_grid *g, sdk_sink *sink)
{
    const sdk_technique *t = ctx->self;
    const spec sp = *(const spec *)t->data;
    nest_reg reg = {0};
    pool *pl = thread_pool();
    chainer c;
    int level = sdk_opt_int(ctx, "level", sp.level);
    chainer_init(&c, g, sp.multi, sp.dyn, sp.nishio, level, &reg, pl);
    se_memo_begin(g);
    /* nested levels: start from the runs of the level this one extends */
    bool nestable = sp.multi && sp.dyn && !sp.nishio && level >= 1 && level <= 5;
    if (nestable) {
        if ((slot_first && !same_grid(&slot_first->grid, g)) ||
            (slot_last && !same_grid(&slot_last->grid, g)))
            handoffs_drop();
        int ext = extended_level(level);
        const handoff *from = ext == 1                               ? slot_first
                              : slot_last && slot_last->level == ext ? slot_last
                                                                     : NULL;
        if (ext && from) {
            arena_copy(&c.A, &from->A);
            reg_copy(&reg, &from->reg);
            c.from = from;
        }
        if (level == 1 || level == 2 || level == 4) c.rec = handoff_new(level, g);
    }
    collect(&c, sp.unary);
    sdk_step *st = sdk_scratch_step(ctx, 0);
    int ret = SDK_CONTINUE;
    for (int i = 0; st && i < c.H.n && ret != SDK_STOP; i++) {
        if (sp.only_kind >= 0 && c.H.h[i].kind != sp.only_kind) continue;
        ret = emit_hint(&c, &c.H.h[i], kind_tech(c.H.h[i].kind, t), sink, st);
    }
    if (nestable) {
        /* a hint found: the grid changes, nothing is handed on */
        if (c.H.n || level == 5) {
            handoffs_drop();
            handoff_free(c.rec);
        } else if (c.rec) {
            c.rec->A = c.A; /* the arena and the ids go with the runs */
            memset(&c.A, 0, sizeof c.A);
            c.rec->reg = reg;
            memset(&reg, 0, sizeof reg);
            handoff **slot = level == 1 ? &slot_first : &slot_last;
            handoff_free(*slot);
            *slot = c.rec;
        } else if (level == 3) {
            handoff_free(slot_last);
            slot_last = NULL;
        }
    }
    chainer_free(&c);
    free(reg.key);
    free(reg.id);
    return ret;
}

/* Every technique of the family: its id and name, and in its data what the
 * chainer runs (spec). */
#define TECH(var, id_, name_, diff, score_, sum, ...)                                              \
    static const spec spec_##var = {__VA_ARGS__};                                                  \
    static const sdk_technique var = {.abi = SDK_ABI_VERSION,                                      \
                                      .size = sizeof(sdk_technique),                               \
                                      .id = id_,                                                   \
                                      .name = name_,                                               \
                                      .difficulty = diff,                                          \
                                      .score = score_,                                             \
                                      .level = SDK_LEVEL_EXTREME,                                  \
                                      .find = find_chains,                                         \
                                      .summary = sum,                                              \
                                      .data = &spec_##var};

#define ALLU (M_UNARY_X | M_UNARY_Y | M_UNARY_XY)
TECH(t_fcc, "se-forcing-chains-cycles", "Forcing Chains & Cycles", 65, 500,
     "SE's unary chains: X/Y/XY cycles, forcing X-chains and forcing chains, easiest first",
     .unary = ALLU, .only_kind = -1)
TECH(t_xcycle, "se-bidirectional-x-cycle", "Bidirectional X-Cycle", 65, 500,
     "a loop of one digit whose two colourings both eliminate", .unary = M_UNARY_X,
     .only_kind = K_XCYCLE)
TECH(t_ycycle, "se-bidirectional-y-cycle", "Bidirectional Y-Cycle", 65, 500,
     "a loop of bivalue cells whose two colourings both eliminate", .unary = M_UNARY_Y,
     .only_kind = K_YCYCLE)
TECH(t_cycle, "se-bidirectional-cycle", "Bidirectional Cycle", 70, 500,
     "a loop of cell and house links whose two colourings both eliminate", .unary = M_UNARY_XY,
     .only_kind = K_XYCYCLE)
TECH(t_xchain, "se-forcing-x-chain", "Forcing X-Chain", 66, 500,
     "a one-digit chain from a candidate back to its own negation", .unary = M_UNARY_X,
     .only_kind = K_XCHAIN)
TECH(t_chain, "se-forcing-chain", "Forcing Chain", 70, 500,
     "a chain of cell and house links from a candidate to its own negation", .unary = M_UNARY_XY,
     .only_kind = K_XYCHAIN)
TECH(t_nishio, "se-nishio", "Nishio Forcing Chains", 75, 600,
     "a digit placed (or removed) contradicts itself through house links", .dyn = true,
     .nishio = true, .only_kind = -1)
TECH(t_multi, "se-multiple-forcing-chain", "Multiple Forcing Chains", 80, 700,
     "SE's cell and region forcing chains, easiest first", .multi = true, .only_kind = -1)
TECH(t_cellfc, "se-cell-forcing-chain", "Cell Forcing Chains", 80, 700,
     "every candidate of a cell leads to the same conclusion", .multi = true, .only_kind = K_CELL)
TECH(t_regionfc, "se-region-forcing-chain", "Region Forcing Chains", 80, 700,
     "every place of a digit in a house leads to the same conclusion", .multi = true,
     .only_kind = K_REGION)
TECH(t_dyn, "se-dynamic-forcing-chain", "Dynamic Forcing Chains", 85, 800,
     "dynamic contradiction, double, cell and region forcing chains", .multi = true, .dyn = true,
     .only_kind = -1)
TECH(t_plus, "se-dynamic-forcing-chain-plus", "Dynamic Forcing Chains (+)", 90, 900,
     "dynamic forcing chains that also use locking, hidden/naked pairs and X-Wings", .multi = true,
     .dyn = true, .level = 1, .only_kind = -1)
TECH(t_nested, "se-nested-forcing-chain", "Nested Forcing Chains", 95, 1000,
     "dynamic forcing chains with forcing chains nested inside (level=2..5)", .multi = true,
     .dyn = true, .level = 2, .only_kind = -1)
TECH(t_nested3, "se-nested-forcing-chain-3", "Nested Forcing Chains (+ Multiple)", 100, 1000,
     "dynamic forcing chains with multiple forcing chains nested inside", .multi = true,
     .dyn = true, .level = 3, .only_kind = -1)
/* SE's last producers: dynamic forcing chains nested inside (level 4), and
 * those with dynamic forcing chains nested again (level 5). */
TECH(t_nested4, "se-nested-forcing-chain-4", "Nested Forcing Chains (+ Dynamic)", 105, 1000,
     "dynamic forcing chains with dynamic forcing chains nested inside", .multi = true, .dyn = true,
     .level = 4, .only_kind = -1)
TECH(t_nested5, "se-nested-forcing-chain-5", "Nested Forcing Chains (+ Dynamic, nested)", 110, 1000,
     "dynamic forcing chains nesting dynamic chains that nest forcing chains", .multi = true,
     .dyn = true, .level = 5, .only_kind = -1)

static const sdk_technique *kind_tech(int kind, const sdk_technique *def)
{
    switch (kind) {
    case K_XCYCLE:
        return &t_xcycle;
    case K_YCYCLE:
        return &t_ycycle;
    case K_XYCYCLE:
        return &t_cycle;
    case K_XCHAIN:
        return &t_xchain;
    case K_XYCHAIN:
        return &t_chain;
    default:
        return def;
    }
}

SDK_PLUGIN(&se_direct_pointing, &se_direct_claiming, &se_direct_hidden_pair,
           &se_direct_hidden_triple, &t_fcc, &t_xcycle, &t_ycycle, &t_cycle, &t_xchain, &t_chain,
           &t_nishio, &t_multi, &t_cellfc, &t_regionfc, &t_dyn, &t_plus, &t_nested, &t_nested3,
           &t_nested4, &t_nested5)
