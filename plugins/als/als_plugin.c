/* als_plugin.c - the almost-locked-set techniques after HoDoKu's definitions:
 * ALS-XZ (singly and doubly linked), ALS-XY-Wing, ALS chain and Death
 * Blossom. Every find() lists the ALSs and their restricted commons with
 * lib/als.c, gathers every instance (one per set of eliminations, the one with
 * the fewest ALS cells kept), sorts them the way HoDoKu does (most
 * eliminations first) and emits them in that order.
 *
 * order=hodoku (ALS-XZ, ALS-XY-Wing): HoDoKu's solver takes the first of
 * these it finds, not the best: the instances are emitted as found, in its
 * search order (ALSs house by house, rows, columns, boxes; restricted commons
 * pair by pair; for a wing, two of those in list order sharing an ALS).
 * For ALS chains it keeps HoDoKu's restriction: each next ALS of a chain
 * comes later in that list (its solver collects only those restricted
 * commons), the chains are then sorted as usual.
 *
 * Options: overlap=0|1 (ALSs may overlap, default 0); als-chain also takes
 * max-length=N (most ALSs in a chain, default 7 = HoDoKu's 6 links) and every
 * search is bounded by max-nodes=N (search nodes, default 100000000, about a second). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "sudoku/alloc.h"
#include "sudoku/cache.h"
#include "sudoku/als.h"
#include "sudoku/technique.h"
#include "../misc/grid_memo.h"

enum { K_XZ, K_XY, K_CHAIN, K_DB };

#define MAX_RECORD_ALS 10
#define DEEP_MAX 5 /* reach_edges lists kept for up to this many links */

typedef struct list_slot {
    unsigned gen;
    int at;
} list_slot;
/* The reach lists of one key (set k, first RC, excl) for the current start
 * (valid while gen is its generation): at[j - 1] the offset of the list for
 * j links in the pool (-1: not built yet). Only lists that are not empty
 * are built (see reach_state). */
typedef struct reach_slot {
    unsigned gen;
    int at[DEEP_MAX];
} reach_slot;
/* What is known of a key's lists being empty, in one word: the current
 * start's generation << 6 (another generation: nothing known), the fewest
 * links whose list is known not to be empty << 3 (0: none), the most links
 * whose list is known to be empty (0: none). A list for j links holds
 * those for fewer (an end within j - 1 links is one within j): empty for j
 * links, empty for fewer; not empty for j, not empty for more. */
enum { STATE_GEN_SHIFT = 6, STATE_MAX_GEN = 1 << 26 };
/* bulk_counted's sum over the next sets of (k, excl) for the current
 * search (valid while gen is its call_gen). */
typedef struct bulk_slot {
    unsigned gen;
    long whole;
} bulk_slot;
/* bulk_counted's count for (k, excl, m), in an open-addressed table: key
 * (k * 9 + excl digit) << 32 | m, valid while gen is the search's call_gen. */
typedef struct shared_slot {
    uint64_t key;
    unsigned gen;
    int count;
} shared_slot;
/* An edge i of the graph to set b, with its actual RC act under some excl
 * and the index of act's lowest digit (the next link's excl). */
typedef struct next_edge {
    int i, b;
    int key; /* b * 9 + lowx: b's state and usable slot for the next link */
    uint16_t act;
    uint8_t lowx;
} next_edge;

/* One instance found, compact: rebuilt into a step when emitted. */
typedef struct rec {
    uint8_t kind, nals, locked, stem;
    int als[MAX_RECORD_ALS];
    /* XZ: rc[0] the RCs of A-B. XY: rc[0] A-C, rc[1] B-C. Chain: rc[i] the
     * actual RC(s) between als[i] and als[i+1]. DB: rc[i] the stem digit of
     * als[i]. */
    uint16_t rc[MAX_RECORD_ALS];
    uint16_t zmask; /* digits eliminated by the common-candidate rule */
    int nelim, ncells, order;
    sdk_bb elim[9];
} rec;

typedef struct recs {
    int n, cap;
    rec *r;
    int *slot; /* hash of elimination sets -> index + 1, 0 empty */
    int nslot;
    bool oom;
    long nodes, max_nodes; /* search budget */
    /* order=hodoku (ALS-XZ, ALS-XY-Wing): each new instance is emitted as
     * found, in HoDoKu's search order (it takes the first); a later one with
     * the same eliminations is dropped. SDK_STOP ends the search (oom set). */
    const sdk_ctx *ctx;
    sdk_sink *sink;
    const sdk_technique *t;
    int ret;
} recs;

static void build_step(sdk_step *s, const sdk_technique *t, const sdk_als_list *l, const rec *r);

static uint64_t elim_hash(const rec *r)
{
    uint64_t h = 1469598103934665603ULL;
    for (int d = 0; d < 9; d++) {
        h = (h ^ r->elim[d].lo) * 1099511628211ULL;
        h = (h ^ r->elim[d].hi) * 1099511628211ULL;
        h ^= h >> 29;
    }
    return h;
}

static bool same_elims(const rec *a, const rec *b)
{
    for (int d = 0; d < 9; d++)
        if (!sdk_bb_eq(a->elim[d], b->elim[d])) return false;
    return true;
}

static bool rehash(recs *R, int nslot)
{
    int *s = sdk_xcalloc((size_t)nslot, sizeof *s);
    for (int i = 0; i < R->n; i++) {
        size_t k = elim_hash(&R->r[i]) & (size_t)(nslot - 1);
        while (s[k]) k = (k + 1) & (size_t)(nslot - 1);
        s[k] = i + 1;
    }
    free(R->slot);
    R->slot = s;
    R->nslot = nslot;
    return true;
}

/* Add an instance (its elim/nelim must be set), or replace the one with the
 * same eliminations if this one uses fewer cells. */
static void recs_add(recs *R, rec *r, const sdk_als_list *l)
{
    if (R->oom) return;
    r->ncells = 0;
    for (int i = 0; i < r->nals; i++) r->ncells += l->als[r->als[i]].ncell;
    if ((R->n + 1) * 2 > R->nslot && !rehash(R, R->nslot ? R->nslot * 2 : 256)) {
        R->oom = true;
        return;
    }
    size_t k = elim_hash(r) & (size_t)(R->nslot - 1);
    while (R->slot[k]) {
        rec *o = &R->r[R->slot[k] - 1];
        if (same_elims(o, r)) {
            if (!R->sink && r->ncells < o->ncells) {
                int order = o->order;
                *o = *r;
                o->order = order;
            }
            return;
        }
        k = (k + 1) & (size_t)(R->nslot - 1);
    }
    if (R->n == R->cap) {
        int cap = R->cap ? R->cap * 2 : 64;
        rec *p = sdk_xrealloc(R->r, sizeof *p * (size_t)cap);
        R->r = p;
        R->cap = cap;
    }
    r->order = R->n;
    R->r[R->n] = *r;
    R->slot[k] = ++R->n;
    if (R->sink) {
        sdk_step *s = sdk_scratch_step(R->ctx, 0);
        build_step(s, R->t, l, r);
        if (sdk_emit(R->sink, s) == SDK_STOP) {
            R->ret = SDK_STOP;
            R->oom = true;
        }
    }
}

static void recs_free(recs *R)
{
    free(R->r);
    free(R->slot);
    memset(R, 0, sizeof *R);
}

static int elim_index_sum(const rec *r)
{
    int s = 0;
    for (int d = 0; d < 9; d++)
        SDK_BB_FOREACH(c, r->elim[d]) s += c * 10 + d + 1;
    return s;
}

/* HoDoKu's order: most eliminations, then lowest index sum of the
 * eliminations, then fewest ALSs, then fewest ALS cells, then found first. */
static int rec_cmp(const void *pa, const void *pb)
{
    const rec *a = pa, *b = pb;
    if (a->nelim != b->nelim) return b->nelim - a->nelim;
    int sa = elim_index_sum(a), sb = elim_index_sum(b);
    if (sa != sb) return sa - sb;
    if (a->nals != b->nals) return a->nals - b->nals;
    if (a->ncells != b->ncells) return a->ncells - b->ncells;
    return a->order - b->order;
}

/* Add cells as eliminations of digit d to r. */
static void rec_elim(rec *r, sdk_bb cells, int d)
{
    sdk_bb fresh = sdk_bb_andnot(cells, r->elim[d - 1]);
    r->nelim += sdk_bb_count(fresh);
    r->elim[d - 1] = sdk_bb_or(r->elim[d - 1], fresh);
}

/* ---- the searches ------------------------------------------------------ */

/* dirty (NULL: every pattern is searched): per set of the list, whether a
 * cell of it changed since a search of the same kind found nothing (see
 * miss_base). A pattern of sets that all kept their cells was one of that
 * search with the same restricted commons and found nothing then: it is
 * skipped, the others are searched in the same order. */
static void search_xz(const sdk_als_list *l, const sdk_rcc_graph *gr, const uint8_t *dirty, recs *R)
{
    for (int e = 0; e < gr->n && !R->oom; e++) {
        const sdk_rcc *rc = &gr->edge[e];
        if (rc->a > rc->b) continue; /* each pair once */
        if (dirty && !dirty[rc->a] && !dirty[rc->b]) continue;
        const sdk_als *A = &l->als[rc->a], *B = &l->als[rc->b];
        rec r;
        memset(&r, 0, sizeof r);
        r.kind = K_XZ;
        r.nals = 2;
        r.als[0] = rc->a;
        r.als[1] = rc->b;
        r.rc[0] = rc->digits;
        bool doubly = sdk_mask_count(rc->digits) >= 2;
        unsigned common = A->digits & B->digits;
        unsigned zs = doubly ? common : common & ~rc->digits;
        SDK_MASK_FOREACH(z, zs) {
            sdk_bb cells = sdk_als_common_peers(A, B, z);
            if (sdk_bb_empty(cells)) continue;
            rec_elim(&r, cells, z);
            r.zmask |= (uint16_t)sdk_digit_bit(z);
        }
        if (doubly) {
            /* both sets become locked sets on their other digits */
            for (int side = 0; side < 2; side++) {
                const sdk_als *P = side ? B : A, *Q = side ? A : B;
                SDK_MASK_FOREACH(d, P->digits & ~rc->digits) {
                    sdk_bb cells = sdk_bb_andnot(P->peers[d - 1], Q->cells);
                    if (sdk_bb_empty(cells)) continue;
                    rec_elim(&r, cells, d);
                    r.locked = 1;
                }
            }
        }
        if (r.nelim) recs_add(R, &r, l);
    }
}

/* The ALS-XY-Wing of A and B, each restricted to C (by the digits rca and
 * rcb): every digit z common to A and B but neither restricted common is
 * removed where it sees all of A's and B's z cells. */
static void add_xy_wing(const sdk_als_list *l, int a, int b, int c, unsigned rca, unsigned rcb,
                        bool overlap, recs *R)
{
    const sdk_als *A = &l->als[a], *B = &l->als[b];
    if (!overlap && sdk_als_overlap(A, B)) return;
    sdk_bb u = sdk_bb_or(A->cells, B->cells);
    if (sdk_bb_eq(u, A->cells) || sdk_bb_eq(u, B->cells)) return;
    unsigned zs = A->digits & B->digits & ~rca & ~rcb;
    if (!zs) return;
    rec r;
    memset(&r, 0, sizeof r);
    SDK_MASK_FOREACH(z, zs) {
        sdk_bb cells = sdk_als_common_peers(A, B, z);
        if (sdk_bb_empty(cells)) continue;
        rec_elim(&r, cells, z);
        r.zmask |= (uint16_t)sdk_digit_bit(z);
    }
    if (!r.nelim) return;
    r.kind = K_XY;
    r.nals = 3;
    r.als[0] = a;
    r.als[1] = b;
    r.als[2] = c;
    r.rc[0] = rca;
    r.rc[1] = rcb;
    recs_add(R, &r, l);
}

static void search_xy(const sdk_als_list *l, const sdk_rcc_graph *gr, bool overlap,
                      const uint8_t *dirty, recs *R)
{
    for (int c = 0; c < l->n && !R->oom; c++) {
        for (int i = gr->first[c]; i < gr->first[c + 1]; i++) {
            const sdk_rcc *ea = &gr->edge[i];
            bool clean = dirty && !dirty[c] && !dirty[ea->b];
            for (int j = i + 1; j < gr->first[c + 1]; j++) {
                const sdk_rcc *eb = &gr->edge[j];
                if (clean && !dirty[eb->b]) continue;
                if (sdk_mask_count(ea->digits) == 1 && ea->digits == eb->digits) continue;
                add_xy_wing(l, ea->b, eb->b, c, ea->digits, eb->digits, overlap, R);
            }
        }
    }
}

/* HoDoKu's ALS-XY-Wing search: its list of restricted commons holds each
 * pair of ALSs once (lower index first), pairs in list order; two of them,
 * in list order, that share one ALS (C) make a wing with the other two. */
static void search_xy_hodoku(const sdk_als_list *l, const sdk_rcc_graph *gr, bool overlap,
                             const uint8_t *dirty, recs *R)
{
    int *fwd = sdk_xmalloc(sizeof *fwd * (size_t)(gr->n + 1)), nf = 0;
    for (int e = 0; e < gr->n; e++)
        if (gr->edge[e].a < gr->edge[e].b) fwd[nf++] = e;
    for (int i = 0; i < nf && !R->oom; i++) {
        const sdk_rcc *r1 = &gr->edge[fwd[i]];
        for (int j = i + 1; j < nf && !R->oom; j++) {
            const sdk_rcc *r2 = &gr->edge[fwd[j]];
            if (sdk_mask_count(r1->digits) == 1 && r1->digits == r2->digits) continue;
            if (dirty && !dirty[r1->a] && !dirty[r1->b] && !dirty[r2->a] && !dirty[r2->b]) continue;
            int a, b, c;
            if (r1->a == r2->a && r1->b != r2->b)
                c = r1->a, a = r1->b, b = r2->b;
            else if (r1->b == r2->a && r1->a != r2->b)
                c = r1->b, a = r1->a, b = r2->b;
            else if (r1->a == r2->b && r1->b != r2->a)
                c = r1->a, a = r1->b, b = r2->a;
            else if (r1->b == r2->b && r1->a != r2->a)
                c = r1->b, a = r1->a, b = r2->a;
            else
                continue;
            add_xy_wing(l, a, b, c, r1->digits, r2->digits, overlap, R);
        }
    }
    free(fwd);
}

typedef struct chain_walk {
    const sdk_als_list *l;
    const sdk_rcc_graph *gr;
    recs *R;
    int max_rc;
    int n;                        /* RCs in the chain */
    int als[MAX_RECORD_ALS];      /* als[0..n] */
    uint16_t act[MAX_RECORD_ALS]; /* act[i]: actual RC(s) between als[i] and als[i+1] */
    bool *in_chain;
    uint16_t *uz; /* uz[e]: digits z with cells seeing every z of the start and of set e
                   * (set when the start begins, 0 between searches) */
    unsigned gen; /* one per start searched (per thread: see chain_space) */
    bool forward; /* order=hodoku: each next ALS comes later in the list (HoDoKu's
                   * solver keeps only those restricted commons; it finds fewer chains) */
    /* The last link of a chain only looks for eliminations, and almost every
     * restricted common it scans gives none (the end set shares no digit z
     * with the start that some cell sees in both, or the link's only RC digit
     * is the one the link before used). For the current start, the record
     * reach[(f * cap + k) * 9 + x] (reach_slot) has at[0]: the list (in
     * pool, count first) of the edges of set k that can give one when the
     * chain's first RC is digit f + 1 and the last link may not use digit
     * x + 1; built the first time a chain ends next to k so. */
    /* The same j = 2..DEEP_MAX links before the end: at[j - 1] of the record
     * lists the edges of k to a set that may end a chain (the test of
     * at[0]) or whose own list for j - 1 is not empty; the others only
     * count their search nodes (j = 2) or find nothing. reach_edges builds
     * them. Nearly all are empty, so a walk without node counting takes
     * them from 5 links left on (the start's next set): a set whose list
     * is empty is not entered, and the lists are shared by every path to
     * the same set with the same first and excl (3 links: 13% more
     * instructions over the standard profile's chain searches). */
    /* Nearly all lists are empty (99.5% on the hardest puzzles' nested
     * searches): whether a list is empty is found first, without building
     * it (list_empty; what is known in state[(f * cap + k) * 9 + x], see
     * STATE_GEN_SHIFT); an empty list is not built but read at pool offset
     * 0, the empty list. */
    reach_slot *reach;
    uint32_t *state;
    /* Per search: seeing[(c * 9 + z - 1) * words ..] the sets (bits) whose
     * peers[z - 1] hold cell c (acc: words of scratch). */
    uint64_t *seeing, *acc;
    int words;
    int cap; /* sets the tables are sized for (chain_space) */
    int *pool, npool, cappool;
    /* The lists above scan the edges of k that a chain entering k with excl
     * may take (digits & ~excl not empty: most edges are single-digit, and
     * many are excl's): usable[k * 9 + x].at is their offset in nx (a
     * header whose i is the count, then the edges in graph order with their
     * act, for excl digit x + 1), built once per search (call_gen). */
    list_slot *usable;
    unsigned call_gen;
    next_edge *nx;
    int nnx, capnx;
    /* Per set k, over its edges that the walk may take (forward): the sum of
     * the next sets' edge counts (deg), and the same for the edges of one RC
     * digit x only (sum1[k * 9 + x]). */
    long *sum, *sum1;
    /* bulk_counted's sums, kept for the search (call_gen): per (k, excl)
     * in bulk[k * 9 + x]; per (k, excl, m) in shared (capshared slots, a
     * power of two, nshared of them used). */
    bulk_slot *bulk;
    shared_slot *shared;
    int capshared, nshared;
    uint16_t edig[MAX_RECORD_ALS]; /* edig[i]: every RC digit between als[i] and als[i+1] */
    uint16_t *pairdig; /* RC digits of sets a and b at a * nals + b (0: no edge); NULL: too
                        * many sets, the edge is looked up in a's row */
    /* count: search nodes are counted against R's budget; when false, the
     * budget is known to hold for the whole search (chain_node_bound), so
     * nothing is counted and no set is entered only to count. */
    bool count;
    /* since (NULL: every chain is searched): what changed since a search
     * that found nothing (chain_since). Only a chain that starts or ends
     * at a changed set or takes a new link can eliminate anything; the
     * others are not extended beyond what can still become one. */
    const struct chain_since *since;
    int nfresh;                    /* the start changed (1) + new links in the chain */
    uint8_t fresh[MAX_RECORD_ALS]; /* fresh[i]: the link into als[i] is new */
} chain_walk;

/* What changed since the last search that found nothing (see chain_base):
 * per set, its cells changed (then an end there may eliminate more); per
 * edge, a link the base did not have, same two sets with the same digits;
 * per set, the fewest links from it to a changed set or over a new link
 * (capped at max_rc + 1). */
typedef struct chain_since {
    uint8_t *dirty; /* per set */
    uint8_t *fresh; /* per edge */
    uint8_t *need;  /* per set */
} chain_since;

/* May the chain (als[0..n]) take edge i to set b, as far as what changed
 * goes: it can eliminate already, or the link is new, or b lies close
 * enough to a changed end or a new link. */
static bool may_take(const chain_walk *w, int i, int b)
{
    const chain_since *c = w->since;
    return !c || w->nfresh || c->fresh[i] || c->need[b] <= w->max_rc - (w->n + 1);
}

/* Can the chain (its last set pushed) eliminate anything? */
static bool may_check(const chain_walk *w)
{
    return !w->since || w->nfresh || w->since->dirty[w->als[w->n]];
}

/* Push set b, reached over edge i. */
static void chain_push(chain_walk *w, int b, int i)
{
    w->als[++w->n] = b;
    w->in_chain[b] = true;
    w->fresh[w->n] = w->since && w->since->fresh[i];
    w->nfresh += w->fresh[w->n];
}

static void chain_pop(chain_walk *w)
{
    w->in_chain[w->als[w->n]] = false;
    w->nfresh -= w->fresh[w->n--];
}

/* The uz of the last start's sets back to 0: all of them at once (a start
 * gives about 70 sets a uz, of some 500, and clearing those one by one
 * cost more: session 29). */
static void uz_clear(chain_walk *w)
{
    memset(w->uz, 0, sizeof *w->uz * (size_t)w->l->n);
}

/* uz[e] for every set e of the current start (chain_walk_start): z is in
 * uz[e] when some cell is in both the start's and e's peers[z - 1] (empty
 * for a digit the set does not hold), that is when e is among the sets
 * seeing[c, z] of a cell c of the start's peers[z - 1]. (The sets with a z
 * are not listed for uz_clear: session 29, an int list with a test per set
 * and digit of whether the set was listed already, cost more.) */
static void uz_start(chain_walk *w)
{
    const sdk_als *S = &w->l->als[w->als[0]];
    uz_clear(w);
    SDK_MASK_FOREACH(z, S->digits) {
        if (sdk_bb_empty(S->peers[z - 1])) continue;
        memset(w->acc, 0, sizeof *w->acc * (size_t)w->words);
        SDK_BB_FOREACH(c, S->peers[z - 1]) {
            const uint64_t *row = w->seeing + (size_t)(c * 9 + z - 1) * (size_t)w->words;
            for (int i = 0; i < w->words; i++) w->acc[i] |= row[i];
        }
        const uint16_t bit = (uint16_t)sdk_digit_bit(z);
        for (int i = 0; i < w->words; i++)
            for (uint64_t m = w->acc[i]; m; m &= m - 1) w->uz[i * 64 + __builtin_ctzll(m)] |= bit;
    }
}

static inline unsigned uz_of(const chain_walk *w, int e)
{
    return w->uz[e];
}

static void chain_check(chain_walk *w, unsigned zs)
{
    if (!may_check(w)) return; /* a chain the base had: nothing */
    const sdk_als *S = &w->l->als[w->als[0]], *E = &w->l->als[w->als[w->n]];
    rec r;
    memset(&r, 0, sizeof r);
    SDK_MASK_FOREACH(z, zs) {
        sdk_bb cells = sdk_als_common_peers(S, E, z);
        if (!sdk_bb_empty(cells)) {
            rec_elim(&r, cells, z);
            r.zmask |= (uint16_t)sdk_digit_bit(z);
        }
    }
    if (!r.nelim) return;
    r.kind = K_CHAIN;
    r.nals = (uint8_t)(w->n + 1);
    for (int i = 0; i <= w->n; i++) r.als[i] = w->als[i];
    for (int i = 0; i < w->n; i++) r.rc[i] = w->act[i];
    recs_add(w->R, &r, w->l);
}

static void pool_reserve(chain_walk *w, int more)
{
    if (w->npool + more <= w->cappool) return;
    int cap = w->cappool * 2 > w->npool + more ? w->cappool * 2 : w->npool + more;
    w->pool = sdk_xrealloc(w->pool, sizeof *w->pool * (size_t)cap);
    w->cappool = cap;
}

/* The edges of k usable with excl (one digit): offset in nx, see usable
 * (usable_at: built already, without the call). */
static int usable_edges(chain_walk *w, int k, unsigned excl)
{
    list_slot *slot = &w->usable[k * 9 + __builtin_ctz(excl)];
    int lo = w->gr->first[k], hi = w->gr->first[k + 1];
    if (w->nnx + hi - lo + 1 > w->capnx) {
        int cap = w->capnx * 2 > w->nnx + hi - lo + 1 ? w->capnx * 2 : w->nnx + hi - lo + 1;
        w->nx = sdk_xrealloc(w->nx, sizeof *w->nx * (size_t)cap);
        w->capnx = cap;
    }
    int at = w->nnx, n = 0;
    for (int i = lo; i < hi; i++) {
        unsigned act = w->gr->edge[i].digits & ~excl;
        if (act)
            w->nx[at + 1 + n++] =
                (next_edge){i, w->gr->edge[i].b, w->gr->edge[i].b * 9 + __builtin_ctz(act),
                            (uint16_t)act, (uint8_t)__builtin_ctz(act)};
    }
    w->nx[at].i = n;
    w->nnx += n + 1;
    slot->at = at;
    slot->gen = w->call_gen;
    return at;
}

static inline int usable_at(chain_walk *w, int k, unsigned excl)
{
    const list_slot *slot = &w->usable[k * 9 + __builtin_ctz(excl)];
    return slot->gen == w->call_gen ? slot->at : usable_edges(w, k, excl);
}

/* The record of the lists above: first and excl are one digit each. */
static inline reach_slot *reach_slot_at(const chain_walk *w, int k, unsigned first, unsigned excl)
{
    return &w->reach[((size_t)__builtin_ctz(first) * (size_t)w->cap + (size_t)k) * 9 +
                     (size_t)__builtin_ctz(excl)];
}

/* The record, made the current start's (nothing built) if it was not. */
static reach_slot *reach_slot_of(const chain_walk *w, int k, unsigned first, unsigned excl)
{
    reach_slot *r = reach_slot_at(w, k, first, excl);
    if (r->gen != w->gen) {
        r->gen = w->gen;
        for (int j = 0; j < DEEP_MAX; j++) r->at[j] = -1;
    }
    return r;
}

/* The reach lists of set k, for a chain from the current start whose first
 * RC is digit fx + 1 and whose link from k may not use digit x + 1 (the
 * start itself left out: it is always in the chain):
 *   list_1(k, x): the edges k -> b whose act = digits & ~excl is not empty
 *     that end a chain with eliminations: uz[b] & ~first & ~act not empty;
 *   list_j(k, x), j = 2..DEEP_MAX: those edges, and the edges (act not
 *     empty) whose next set b has list_{j-1}(b, act's lowest digit) not
 *     empty.
 * Is list_j(k, x) empty? What is known answers (see STATE_GEN_SHIFT),
 * else list_scan finds out. */
static bool list_scan(chain_walk *w, int j, uint32_t *stf, int key, unsigned not_first);

/* The same for key = k * 9 + x among stf, the state words of the first RC
 * (not_first: every digit but its own). */
static inline bool key_empty(chain_walk *w, int j, uint32_t *stf, int key, unsigned not_first)
{
    uint32_t st = stf[key];
    if (st >> STATE_GEN_SHIFT == w->gen) {
        if ((int)(st & 7) >= j) return true;
        unsigned some = st >> 3 & 7;
        if (some && (int)some <= j) return false;
    }
    return list_scan(w, j, stf, key, not_first);
}

static inline bool list_empty(chain_walk *w, int j, int k, int fx, int x)
{
    return key_empty(w, j, w->state + (size_t)fx * (size_t)w->cap * 9, k * 9 + x, ~(1u << fx));
}

/* list_j(k, x) is empty when no edge would be in it: each edge is tested
 * as the list's definition says until one is (its next set's list for j -
 * 1 links found out the same way, and kept). What was found is noted in
 * the key's state: an edge ending a chain is in list_1, so the list is not
 * empty from 1 link on; another edge, from j links on; none, empty up to
 * j links.
 * Half the scans are of a key known empty up to e links (1 <= e < j),
 * asked again for more: then list_1 is empty, so no edge ends a chain and
 * only the next sets' lists are tested (edges_scan with ends false).
 * Measured and slower (callgrind, standard profile on the 8 median
 * puzzles, 5,566M in all): the exact fewest links of every key by a
 * breadth-first search back from the ends per start and first RC, 9,228M
 * (levels 1-2 only, the scan above beyond them, 8,268M; level 1 only,
 * 6,550M: about 33 sets per start have a uz, 150 edges, so the ends are
 * near many keys never asked); a memo of the lists without the first RC's
 * exclusion asked first, 6,190M (it is seldom empty when the first RC's
 * is); noting 1 + the least depth known empty of the next sets, 5,614M;
 * the scan for 1 link inlined, 5,591M. Per start: 1.6 first RCs; 4.7M
 * scans, 4 edges each, under 1% not empty.
 * A key with no usable edge (k has no RC to a set outside excl) has every
 * list empty, whatever the links: no edge ends a chain and none leads on.
 * It is noted empty for any links (7, as the start's keys), so it is not
 * scanned again for more (session 29: 5,159.2M -> 5,146.9M). Measured and
 * slower (same 8 puzzles, from 5,159.2M): the same for a key whose next
 * sets are all empty for any links (the and of their states), 5,190.7M;
 * list_scan as a loop over an explicit stack of the open scans (same
 * order, same states), 5,231.1M, and with only key and edge kept per
 * frame, 5,172.1M: gcc keeps the recursion's state in callee-saved
 * registers, and a frame pushed and popped by hand costs about what its
 * prologue and epilogue do. */
static int edges_scan(chain_walk *w, int j, uint32_t *stf, int u, bool ends, unsigned not_first);

static bool list_scan(chain_walk *w, int j, uint32_t *stf, int key, unsigned not_first)
{
    uint32_t *sp = &stf[key];
    bool known = *sp >> STATE_GEN_SHIFT == w->gen;
    bool ends = !known || !(*sp & 7);
    const list_slot *slot = &w->usable[key]; /* usable_at's, read by key */
    int u = slot->gen == w->call_gen ? slot->at : usable_edges(w, key / 9, 1u << key % 9);
    int some = edges_scan(w, j, stf, u, ends, not_first);
    /* the key's state read again: the walk above may have noted some */
    uint32_t st = *sp >> STATE_GEN_SHIFT == w->gen ? *sp : w->gen << STATE_GEN_SHIFT;
    if (some) {
        unsigned seen = st >> 3 & 7;
        if (!seen || (unsigned)some < seen) st = (st & ~(7u << 3)) | (unsigned)some << 3;
    } else if (!w->nx[u].i) { /* no edge: empty for any links */
        st |= 7u;
    } else if ((int)(st & 7) < j) {
        st = (st & ~7u) | (unsigned)j;
    }
    *sp = st;
    return !some;
}

/* The scan of list_scan over the usable edges at nx offset u: 1 when an
 * edge ends a chain (tested only when ends), j when a next set's list for
 * j - 1 links is not empty, 0 when neither. The start is not tested: its
 * uz is 0 and its keys read empty (chain_walk_start). */
static int edges_scan(chain_walk *w, int j, uint32_t *stf, int u, bool ends, unsigned not_first)
{
    int cnt = w->nx[u].i;
    if (ends) {
        for (int p = 0; p < cnt; p++) {
            const next_edge *q = &w->nx[u + 1 + p];
            if (w->uz[q->b] & not_first & ~(unsigned)q->act) return 1;
        }
    }
    if (j == 1) return 0;
    for (int p = 0; p < cnt; p++) {
        int key = w->nx[u + 1 + p].key; /* nx may move below */
        if (!key_empty(w, j - 1, stf, key, not_first)) return j;
    }
    return 0;
}

/* list_j(k, excl) of the current start and first RC (one digit each): its
 * offset in pool, the count n then n edge indices in graph order (0, the
 * empty list, when it is empty). */
static int reach_edges(chain_walk *w, int j, int k, unsigned first, unsigned excl)
{
    const int fx = __builtin_ctz(first);
    if (list_empty(w, j, k, fx, __builtin_ctz(excl))) return 0;
    reach_slot *slot = reach_slot_of(w, k, first, excl);
    if (slot->at[j - 1] >= 0) return slot->at[j - 1];
    const int start = w->als[0];
    int u = usable_at(w, k, excl), cnt = w->nx[u].i;
    pool_reserve(w, cnt + 1);
    int at = w->npool, n = 0;
    for (int p = 0; p < cnt; p++) {
        next_edge q = w->nx[u + 1 + p]; /* nx may move below: a copy */
        if (q.b == start) continue;
        if ((uz_of(w, q.b) & ~first & ~(unsigned)q.act) ||
            (j > 1 && !list_empty(w, j - 1, q.b, fx, q.lowx)))
            w->pool[at + 1 + n++] = q.i;
    }
    w->pool[at] = n;
    w->npool += n + 1;
    slot->at[j - 1] = at;
    return at;
}

/* The last link from set k (the chain's last set): only eliminations. The
 * edges left out of list_1 would all give zs == 0 below. */
static void chain_leaf(chain_walk *w, int k, unsigned excl)
{
    unsigned first = w->act[0];
    int at = reach_edges(w, 1, k, first, excl);
    for (int i = 0; i < w->pool[at]; i++) {
        const sdk_rcc *e = &w->gr->edge[w->pool[at + 1 + i]];
        unsigned act = e->digits & ~excl;
        if (!act || w->in_chain[e->b] || (w->forward && e->b < k)) continue;
        if (!may_take(w, w->pool[at + 1 + i], e->b)) continue;
        unsigned zs = uz_of(w, e->b) & ~first & ~act;
        if (!zs) continue;
        w->act[w->n] = (uint16_t)act;
        chain_push(w, e->b, w->pool[at + 1 + i]);
        chain_check(w, zs);
        chain_pop(w);
    }
}

/* The search nodes of the next sets of k (its last link may not use excl)
 * that chain_preleaf counts at once: those of every next set but the sets
 * already in the chain. */
static long preleaf_nodes(const chain_walk *w, int k, unsigned excl, int nprev, int last,
                          unsigned last_digits)
{
    const sdk_rcc *edge = w->gr->edge;
    const int *first_of = w->gr->first;
    long nodes = w->sum[k] - (excl ? w->sum1[k * 9 + __builtin_ctz(excl)] : 0);
    /* sets in the chain (als[0..nprev - 1], then last before k) are not
     * entered (the last one is linked to k with the same digits as k to it:
     * RCs are symmetric) */
    int m = last;
    if (!(w->forward && m < k) && (last_digits & ~excl)) nodes -= first_of[m + 1] - first_of[m];
    for (int i = 0; i < nprev; i++) {
        m = w->als[i];
        unsigned digits = 0;
        if (w->pairdig) {
            digits = w->pairdig[(size_t)k * (size_t)w->gr->nals + (size_t)m];
        } else {
            int lo = first_of[k], hi = first_of[k + 1];
            while (lo < hi) {
                int mid = (lo + hi) / 2;
                if (edge[mid].b < m)
                    lo = mid + 1;
                else
                    hi = mid;
            }
            if (lo < first_of[k + 1] && edge[lo].b == m) digits = edge[lo].digits;
        }
        if ((w->forward && m < k) || !(digits & ~excl)) continue;
        nodes -= first_of[m + 1] - first_of[m];
    }
    return nodes;
}

/* The link before the last from set k, when the search nodes of every next
 * set fit in the budget (none of them stops on it): the next sets that can
 * give nothing only add their node counts, at once. */
static void chain_preleaf(chain_walk *w, int k, unsigned excl)
{
    const sdk_rcc *edge = w->gr->edge;
    if (w->count)
        w->R->nodes += preleaf_nodes(w, k, excl, w->n - 1, w->als[w->n - 1], w->edig[w->n - 1]);
    unsigned first = w->act[0];
    int at = reach_edges(w, 2, k, first, excl);
    for (int i = 0; i < w->pool[at]; i++) {
        const sdk_rcc *e = &edge[w->pool[at + 1 + i]];
        unsigned act = e->digits & ~excl;
        if (!act || w->in_chain[e->b] || (w->forward && e->b < k)) continue;
        if (!may_take(w, w->pool[at + 1 + i], e->b)) continue;
        /* what chain_leaf would find nothing on, and the check here */
        bool leaf = !list_empty(w, 1, e->b, __builtin_ctz(first), __builtin_ctz(act));
        unsigned zs = w->n + 1 >= 3 ? uz_of(w, e->b) & ~first & ~act : 0;
        if (!leaf && !zs) continue;
        w->act[w->n] = (uint16_t)act;
        chain_push(w, e->b, (int)(e - edge));
        if (zs) chain_check(w, zs);
        if (leaf) chain_leaf(w, e->b, act & (0u - act));
        chain_pop(w);
    }
}

/* The next set e->b (actual RC act) when chain_dfs there would only count
 * its search nodes and those of chain_preleaf (no check, no list to walk):
 * count them here, without entering it. Returns whether it did. */
static bool counted_only(chain_walk *w, const sdk_rcc *e, unsigned act)
{
    int b = e->b;
    unsigned first = w->act[0];
    if (!may_take(w, (int)(e - w->gr->edge), b)) return true; /* nothing to find (nor count) */
    if (w->n + 1 >= 3 && (uz_of(w, b) & ~first & ~act)) return false;
    if (!w->count) /* nothing to count: skipped when nothing to find */
        return list_empty(w, 2, b, __builtin_ctz(first), __builtin_ctz(act));
    recs *R = w->R;
    long deg = w->gr->first[b + 1] - w->gr->first[b];
    if (R->nodes + deg > R->max_nodes || R->oom) { /* chain_dfs returns at once */
        R->nodes += deg;
        return true;
    }
    if (R->nodes + deg + w->sum[b] > R->max_nodes) return false;
    unsigned excl = act & (0u - act);
    if (!list_empty(w, 2, b, __builtin_ctz(first), __builtin_ctz(excl))) return false;
    R->nodes += deg + preleaf_nodes(w, b, excl, w->n, w->als[w->n], e->digits);
    return true;
}

static void chain_dfs(chain_walk *w, unsigned prev);
static void chain_step(chain_walk *w, int i, int b, unsigned act);

/* Off only in tests: the counted walk two links before the last without
 * bulk_counted (each next set counted on its own, as counted_only). */
static bool chain_count_bulk = true;

/* The nodes next set b (over edge q of k, usable with excl) counts when
 * the chain holds none of its neighbours but k: deg(b) + preleaf_nodes(b,
 * x, ...) with x = q's lowest actual digit, less k's edges when k is
 * linked to b by more than x (k is not entered from b). */
static long next_nodes(const chain_walk *w, int k, int b, unsigned digits, unsigned act)
{
    const int *first_of = w->gr->first;
    unsigned x = act & (0u - act);
    long t = first_of[b + 1] - first_of[b] + w->sum[b] - w->sum1[b * 9 + __builtin_ctz(x)];
    if (!(w->forward && k < b) && (digits & ~x)) t -= first_of[k + 1] - first_of[k];
    return t;
}

/* Whether set m of the chain keeps its edges out of next set b's count (b
 * reached from k with actual RC act): m is linked to b by more than x, as
 * preleaf_nodes tests it. */
static inline bool chain_set_counts(const chain_walk *w, int m, int b, unsigned act)
{
    unsigned x = act & (0u - act);
    return !(w->forward && m < b) && (w->pairdig[(size_t)m * (size_t)w->gr->nals + (size_t)b] & ~x);
}

/* The sum of next_nodes over every next set of (k, excl) (the edges in nx
 * at u; b < k left out when forward), as if no set of the chain but k
 * were a neighbour. Computed once per search. */
static long bulk_whole(chain_walk *w, int k, unsigned excl, int u)
{
    bulk_slot *slot = &w->bulk[k * 9 + __builtin_ctz(excl)];
    if (slot->gen == w->call_gen) return slot->whole;
    long total = 0;
    for (int p = 0; p < w->nx[u].i; p++) {
        const next_edge *q = &w->nx[u + 1 + p];
        if (w->forward && q->b < k) continue;
        total += next_nodes(w, k, q->b, w->gr->edge[q->i].digits, q->act);
    }
    slot->gen = w->call_gen;
    slot->whole = total;
    return total;
}

static void shared_grow(chain_walk *w)
{
    int cap = w->capshared * 2;
    shared_slot *t = sdk_xcalloc((size_t)cap, sizeof *t);
    for (int i = 0; i < w->capshared; i++) {
        const shared_slot *o = &w->shared[i];
        if (o->gen != w->call_gen) continue;
        size_t h = (size_t)((o->key * 0x9e3779b97f4a7c15ULL) >> 32) & (size_t)(cap - 1);
        while (t[h].gen == w->call_gen) h = (h + 1) & (size_t)(cap - 1);
        t[h] = *o;
    }
    free(w->shared);
    w->shared = t;
    w->capshared = cap;
}

/* How many next sets of (k, excl) (as bulk_whole) set m keeps its edges
 * out of (chain_set_counts). Computed once per search. */
static int bulk_shared(chain_walk *w, int k, unsigned excl, int u, int m)
{
    uint64_t key = (uint64_t)(k * 9 + __builtin_ctz(excl)) << 32 | (uint32_t)m;
    size_t mask = (size_t)w->capshared - 1;
    size_t h = (size_t)((key * 0x9e3779b97f4a7c15ULL) >> 32) & mask;
    for (; w->shared[h].gen == w->call_gen; h = (h + 1) & mask)
        if (w->shared[h].key == key) return w->shared[h].count;
    int count = 0;
    for (int p = 0; p < w->nx[u].i; p++) {
        const next_edge *q = &w->nx[u + 1 + p];
        if (w->forward && q->b < k) continue;
        count += chain_set_counts(w, m, q->b, q->act);
    }
    if ((w->nshared + 1) * 2 > w->capshared) {
        shared_grow(w);
        mask = (size_t)w->capshared - 1;
        h = (size_t)((key * 0x9e3779b97f4a7c15ULL) >> 32) & mask;
        while (w->shared[h].gen == w->call_gen) h = (h + 1) & mask;
    }
    w->shared[h] = (shared_slot){key, w->call_gen, count};
    w->nshared++;
    return count;
}

/* The counted walk at set k (k = als[n], n = max_rc - 3 > 0: every next set
 * is counted_only's case), when the nodes of all of k's next sets fit in
 * the budget. Each next set b (edge q, usable with excl, b not in the
 * chain) counts next_nodes(b) less the edges of each set m of the chain
 * with chain_set_counts(m, b) (preleaf_nodes), whether it is entered
 * (chain_dfs counts deg(b), then chain_preleaf its preleaf_nodes) or only
 * counted (counted_only): the total T is known before the walk. If nodes
 * + T fits in max_nodes, no budget test on the way can fail (nodes only
 * grows, up to nodes + T), so T is added at once and the next sets are
 * walked uncounted: only those counted_only would enter, the edges of
 * reach_edges(3, k, ...) (a set that may end a chain, or whose list for
 * 2 links is not empty; the test for an end there is made for n + 1 >= 3
 * only, a superset otherwise: a set entered uncounted that can find
 * nothing finds nothing). Returns false (nothing done) when T does not
 * fit: the caller counts edge by edge, and the budget stops it exactly
 * where it stopped.
 *
 * T, summed over the next sets b not in the chain, is rearranged into
 * sums over every next set, which depend on (k, excl) or (k, excl, m)
 * alone and are kept for the search (the same k is reached again and
 * again on other paths): bulk_whole less deg(m) * bulk_shared(m) for
 * each set m of the chain, less the whole term of each next set that is
 * in the chain (a set of the chain linked to k, computed here). Integer
 * sums in another order: the same T. */
static bool bulk_counted(chain_walk *w, int k, unsigned excl, int u)
{
    const int *first_of = w->gr->first;
    const int n = w->n, nk = w->gr->nals;
    long total = bulk_whole(w, k, excl, u);
    for (int i = 0; i < n; i++) {
        int m = w->als[i];
        total -= (long)(first_of[m + 1] - first_of[m]) * bulk_shared(w, k, excl, u, m);
    }
    for (int j = 0; j < n; j++) { /* next sets in the chain: not entered */
        int b = w->als[j];
        unsigned digits = w->pairdig[(size_t)k * (size_t)nk + (size_t)b], act = digits & ~excl;
        if (!act || (w->forward && b < k)) continue;
        long t = next_nodes(w, k, b, digits, act);
        for (int i = 0; i < n; i++) {
            int m = w->als[i];
            if (chain_set_counts(w, m, b, act)) t -= first_of[m + 1] - first_of[m];
        }
        total -= t;
    }
    recs *R = w->R;
    if (R->nodes + total > R->max_nodes) return false;
    R->nodes += total;
    w->count = false;
    unsigned first = w->act[0];
    int at = reach_edges(w, 3, k, first, excl);
    for (int i = 0; i < w->pool[at]; i++) {
        int fi = w->pool[at + 1 + i];
        const sdk_rcc *f = &w->gr->edge[fi];
        if (w->in_chain[f->b] || (w->forward && f->b < k)) continue;
        chain_step(w, fi, f->b, f->digits & ~excl);
        at = reach_edges(w, 3, k, first, excl); /* the pool may have moved: same list */
    }
    w->count = true;
    return true;
}

/* Take edge i to set b with actual RC act: push b, check, extend, pop. */
static void chain_step(chain_walk *w, int i, int b, unsigned act)
{
    w->act[w->n] = (uint16_t)act;
    w->edig[w->n] = w->gr->edge[i].digits;
    chain_push(w, b, i);
    if (w->n >= 3) {
        unsigned zs = uz_of(w, b) & ~w->act[0] & ~act;
        if (zs) chain_check(w, zs);
    }
    chain_dfs(w, act);
    chain_pop(w);
}

/* Extend the chain from its last set; prev is the actual RC of the last link. */
static void chain_dfs(chain_walk *w, unsigned prev)
{
    int k = w->als[w->n];
    const sdk_rcc *e = &w->gr->edge[w->gr->first[k]], *end = &w->gr->edge[w->gr->first[k + 1]];
    if (w->count) w->R->nodes += end - e;
    if (w->R->nodes > w->R->max_nodes || w->R->oom) return;
    /* the previous actual RC may not be used again (HoDoKu excludes only the
     * lower digit when the previous link used two) */
    unsigned excl = prev & (0u - prev);
    if (w->n + 1 == w->max_rc) {
        chain_leaf(w, k, excl);
        return;
    }
    if (w->n + 2 == w->max_rc && w->n > 0 &&
        (!w->count || w->R->nodes + w->sum[k] <= w->R->max_nodes)) {
        chain_preleaf(w, k, excl);
        return;
    }
    int j = w->max_rc - w->n;
    if (!w->count && w->n > 0 && j >= 3 && j <= DEEP_MAX) {
        /* nothing counted: only the edges that can lead to an end (every
         * other next set would find nothing, its checks included) */
        unsigned first = w->act[0];
        int at = reach_edges(w, j, k, first, excl);
        for (int i = 0; i < w->pool[at] && !w->R->oom; i++) {
            int fi = w->pool[at + 1 + i];
            const sdk_rcc *f = &w->gr->edge[fi];
            if (w->in_chain[f->b] || (w->forward && f->b < k) || !may_take(w, fi, f->b)) continue;
            chain_step(w, fi, f->b, f->digits & ~excl);
            at = reach_edges(w, j, k, first, excl); /* the pool may have moved: same list */
        }
        return;
    }
    if (w->n > 0) { /* the edges usable with excl (the others: act empty) */
        int u = usable_at(w, k, excl), cnt = w->nx[u].i;
        if (w->count && !w->since && w->n + 3 == w->max_rc && w->pairdig && chain_count_bulk &&
            bulk_counted(w, k, excl, u))
            return;
        for (int p = 0; p < cnt; p++) {
            next_edge q = w->nx[u + 1 + p]; /* nx may move below: a copy */
            if (w->in_chain[q.b] || (w->forward && q.b < k)) continue;
            if (!w->count && !may_take(w, q.i, q.b)) continue;
            if (w->n + 3 == w->max_rc && counted_only(w, &w->gr->edge[q.i], q.act)) continue;
            chain_step(w, q.i, q.b, q.act);
        }
        return;
    }
    for (; e < end; e++) { /* the first link */
        if (w->in_chain[e->b] || (w->forward && e->b < k)) continue;
        if (!w->count && !may_take(w, (int)(e - w->gr->edge), e->b)) continue;
        /* a doubly linked pair gives two chains, one per RC */
        int ntry = 0;
        SDK_MASK_FOREACH(d, e->digits) {
            if (ntry++ < 2) chain_step(w, (int)(e - w->gr->edge), e->b, sdk_digit_bit(d));
        }
    }
}

/* The chain search's tables, kept per thread from one search to the next
 * (allocating and clearing them cost more than most searches): sized for
 * cap sets; an entry of uz or reach is valid while its gen is the current
 * start's generation, so nothing is cleared between starts or searches.
 * in_chain is all false between searches. */
typedef struct chain_space {
    int cap;
    bool *in_chain;
    uint16_t *uz; /* all 0 between searches */
    reach_slot *reach;
    uint32_t *state;
    uint64_t *seeing, *acc; /* for cap sets */
    list_slot *usable;
    int *pool, cappool;
    unsigned gen, call_gen;
    next_edge *nx;
    int capnx;
    bulk_slot *bulk;
    shared_slot *shared;
    int capshared;
} chain_space;
static _Thread_local chain_space *chain_space_last;

static void chain_space_free(chain_space *sp)
{
    free(sp->in_chain);
    free(sp->uz);
    free(sp->reach);
    free(sp->state);
    free(sp->seeing);
    free(sp->acc);
    free(sp->usable);
    free(sp->nx);
    free(sp->pool);
    free(sp->bulk);
    free(sp->shared);
    free(sp);
}

/* The thread's tables, for n sets at least. */
static chain_space *chain_space_of(int n)
{
    chain_space *sp = chain_space_last;
    if (sp && sp->cap >= n) return sp;
    if (sp) chain_space_free(sp);
    int cap = n < 256 ? 256 : n + n / 4;
    sp = sdk_xcalloc(1, sizeof *sp);
    sp->cap = cap;
    sp->in_chain = sdk_xcalloc((size_t)cap, sizeof *sp->in_chain);
    sp->uz = sdk_xcalloc((size_t)cap, sizeof *sp->uz);
    sp->reach = sdk_xcalloc((size_t)cap * 81, sizeof *sp->reach);
    sp->state = sdk_xcalloc((size_t)cap * 81, sizeof *sp->state);
    size_t words = ((size_t)cap + 63) / 64;
    sp->seeing = sdk_xmalloc(sizeof *sp->seeing * SDK_CELLS * 9 * words);
    sp->acc = sdk_xmalloc(sizeof *sp->acc * words);
    sp->pool = sdk_xmalloc(sizeof *sp->pool * 256);
    sp->cappool = 256;
    sp->usable = sdk_xcalloc((size_t)cap * 9, sizeof *sp->usable);
    sp->nx = sdk_xmalloc(sizeof *sp->nx * 1024);
    sp->capnx = 1024;
    sp->bulk = sdk_xcalloc((size_t)cap * 9, sizeof *sp->bulk);
    sp->capshared = 4096;
    sp->shared = sdk_xcalloc((size_t)sp->capshared, sizeof *sp->shared);
    chain_space_last = sp;
    return sp;
}

/* A fresh generation (never 0, the value of a cleared entry; below
 * STATE_MAX_GEN, as the state words keep it). */
static unsigned chain_space_next_gen(chain_space *sp)
{
    if (++sp->gen == STATE_MAX_GEN) { /* wrapped: clear, start again */
        memset(sp->reach, 0, sizeof *sp->reach * (size_t)sp->cap * 81);
        memset(sp->state, 0, sizeof *sp->state * (size_t)sp->cap * 81);
        sp->gen = 1;
    }
    return sp->gen;
}

/* An upper bound of the search nodes chain_dfs counts on gr (each set
 * entered with n links counts its edges, n < max_rc): walks instead of
 * chains, only never straight back to the set they come from and never on
 * a link of the same single RC digit as the one before (as the chains); a
 * doubly linked first link counts twice. N_j(e), for the edge e = k->b:
 * the nodes counted from entering b through e with j links left,
 *   N_0(e) = deg(b),
 *   N_j(e) = deg(b) + S_{j-1}(b) - (e single digit x ? S1_{j-1}(b, x) : N_{j-1}(b->k)),
 * S(b) summing N over b's edges, S1(b, x) over those of the single digit x
 * (b->k, whose digits are e's, is among them). When the bound fits in the
 * budget, the search cannot stop on it. */
static long chain_node_bound(const sdk_rcc_graph *gr, int max_rc)
{
    const long cap = 1L << 50; /* saturate far above any budget */
    int n = gr->nals, ne = gr->n;
    long *cur = sdk_xmalloc(sizeof *cur * (size_t)(ne + 1));
    long *next = sdk_xmalloc(sizeof *next * (size_t)(ne + 1));
    long *sum = sdk_xmalloc(sizeof *sum * (size_t)(n + 1));
    long *sum1 = sdk_xmalloc(sizeof *sum1 * (size_t)(9 * n + 1));
    int *rev = sdk_xmalloc(sizeof *rev * (size_t)(ne + 1));
    /* rev[i]: the edge b->k of edge i = k->b (the graph is symmetric). A
     * row is sorted by its other end, so walking the rows k = 0, 1, ...
     * meets the edges into b in the order of b's row: a cursor per row. */
    int *cursor = sdk_xmalloc(sizeof *cursor * (size_t)(n + 1));
    memcpy(cursor, gr->first, sizeof *cursor * (size_t)n);
    for (int k = 0; k < n; k++)
        for (int i = gr->first[k]; i < gr->first[k + 1]; i++) {
            int b = gr->edge[i].b;
            rev[i] = cursor[b]++;
            cur[i] = gr->first[b + 1] - gr->first[b];
        }
    free(cursor);
    for (int j = 1; j <= max_rc - 2; j++) {
        for (int k = 0; k < n; k++) {
            long t = 0;
            for (int x = 0; x < 9; x++) sum1[k * 9 + x] = 0;
            for (int i = gr->first[k]; i < gr->first[k + 1]; i++) {
                t += cur[i];
                if (sdk_mask_count(gr->edge[i].digits) == 1)
                    sum1[k * 9 + __builtin_ctz(gr->edge[i].digits)] += cur[i];
            }
            sum[k] = t;
        }
        for (int i = 0; i < ne; i++) {
            const sdk_rcc *e = &gr->edge[i];
            long t = gr->first[e->b + 1] - gr->first[e->b] + sum[e->b];
            if (sdk_mask_count(e->digits) == 1)
                t -= sum1[e->b * 9 + __builtin_ctz(e->digits)];
            else
                t -= cur[rev[i]];
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

/* A cruder bound than chain_node_bound, per set instead of per edge, at a
 * fraction of its cost: T_0(b) = deg(b), T_j(b) = deg(b) + the sum of
 * T_{j-1} over b's neighbours (the edge back counted too), so N_j(e) <=
 * T_j(b) for every edge e into b; total ne + sum over edges of T(b), twice
 * for a doubly linked one. Saturated as chain_node_bound. */
static long chain_set_bound(const sdk_rcc_graph *gr, int max_rc)
{
    const long cap = 1L << 50;
    int n = gr->nals;
    long *cur = sdk_xmalloc(sizeof *cur * (size_t)(n + 1));
    long *next = sdk_xmalloc(sizeof *next * (size_t)(n + 1));
    for (int k = 0; k < n; k++) cur[k] = gr->first[k + 1] - gr->first[k];
    for (int j = 1; j <= max_rc - 2; j++) {
        for (int k = 0; k < n; k++) {
            long t = gr->first[k + 1] - gr->first[k];
            for (int i = gr->first[k]; i < gr->first[k + 1]; i++) t += cur[gr->edge[i].b];
            next[k] = t < cap ? t : cap; /* each term below cap: no overflow */
        }
        long *x = cur;
        cur = next;
        next = x;
    }
    long total = gr->n;
    for (int i = 0; i < gr->n && total < cap; i++)
        total += (sdk_mask_count(gr->edge[i].digits) >= 2 ? 2 : 1) * cur[gr->edge[i].b];
    free(cur);
    free(next);
    return total < cap ? total : cap;
}

/* Does a cruder bound than chain_node_bound fit in max_nodes (then that one
 * does too)? The bound from the largest degree D alone: N_0 <= D, N_j <= D
 * + (D - 1) N_{j-1} (the edge back is always left out of S_{j-1}), total <=
 * ne + 2 ne N. A graph without a set of high degree fits in it, at no cost. */
static bool chain_nodes_fit_quick(const sdk_rcc_graph *gr, int max_rc, long max_nodes)
{
    long deg = 0;
    for (int k = 0; k < gr->nals; k++)
        if (gr->first[k + 1] - gr->first[k] > deg) deg = gr->first[k + 1] - gr->first[k];
    const long cap = 1L << 50;
    long m = deg;
    for (int j = 1; j <= max_rc - 2 && m < cap; j++) m = deg + (deg > 1 ? deg - 1 : 0) * m;
    return m < cap && max_nodes >= gr->n && m <= (max_nodes - gr->n) / (2L * gr->n + 1);
}

/* The walk of one chain search on l and gr (see search_chain) in the
 * thread's tables sp: what it keeps for the search set up. */
static void chain_walk_open(chain_walk *w, chain_space *sp, const sdk_als_list *l,
                            const sdk_rcc_graph *gr, int max_rc, bool forward, bool count,
                            const chain_since *since, recs *R)
{
    *w = (chain_walk){.l = l,
                      .gr = gr,
                      .R = R,
                      .max_rc = max_rc,
                      .in_chain = sp->in_chain,
                      .uz = sp->uz,
                      .reach = sp->reach,
                      .state = sp->state,
                      .seeing = sp->seeing,
                      .acc = sp->acc,
                      .words = (l->n + 63) / 64,
                      .cap = sp->cap,
                      .pool = sp->pool,
                      .cappool = sp->cappool,
                      .forward = forward,
                      .count = count,
                      .since = since};
    if (++sp->call_gen == 0) { /* wrapped: clear, start again */
        memset(sp->usable, 0, sizeof *sp->usable * (size_t)sp->cap * 9);
        memset(sp->bulk, 0, sizeof *sp->bulk * (size_t)sp->cap * 9);
        memset(sp->shared, 0, sizeof *sp->shared * (size_t)sp->capshared);
        sp->call_gen = 1;
    }
    w->usable = sp->usable;
    w->call_gen = sp->call_gen;
    w->nx = sp->nx;
    w->capnx = sp->capnx;
    w->bulk = sp->bulk;
    w->shared = sp->shared;
    w->capshared = sp->capshared;
    /* seeing (uz_start) */
    memset(w->seeing, 0, sizeof *w->seeing * SDK_CELLS * 9 * (size_t)w->words);
    for (int e = 0; e < l->n; e++)
        SDK_MASK_FOREACH(z, l->als[e].digits) {
            SDK_BB_FOREACH(c, l->als[e].peers[z - 1])
                w->seeing[(size_t)(c * 9 + z - 1) * (size_t)w->words + (size_t)(e >> 6)] |=
                    1ULL << (e & 63);
        }
    if (count) { /* what preleaf_nodes and counted_only count with */
        w->sum = sdk_xcalloc((size_t)l->n + 1, sizeof *w->sum);
        w->sum1 = sdk_xcalloc((size_t)(9 * l->n + 1), sizeof *w->sum1);
        if (l->n <= 2048)
            w->pairdig = sdk_xcalloc((size_t)l->n * (size_t)l->n + 1, sizeof *w->pairdig);
        for (int k = 0; k < l->n; k++)
            for (int i = gr->first[k]; i < gr->first[k + 1]; i++) {
                const sdk_rcc *e = &gr->edge[i];
                if (w->pairdig) w->pairdig[(size_t)k * (size_t)l->n + (size_t)e->b] = e->digits;
                if (forward && e->b < k) continue;
                long deg = gr->first[e->b + 1] - gr->first[e->b];
                w->sum[k] += deg;
                if (sdk_mask_count(e->digits) == 1)
                    w->sum1[k * 9 + __builtin_ctz(e->digits)] += deg;
            }
    }
}

/* The walk begins a chain at set s: a fresh generation for its tables. */
static void chain_walk_start(chain_walk *w, chain_space *sp, int s)
{
    w->gen = chain_space_next_gen(sp);
    w->pool[0] = 0; /* the empty list read for those known empty */
    w->npool = 1;
    w->n = 0;
    w->als[0] = s;
    w->fresh[0] = w->since && w->since->dirty[s];
    w->nfresh = w->fresh[0];
    uz_start(w);
    /* The start is in every chain: no scan may step on it. Its uz (read
     * nowhere else: every other reader skips the sets in the chain) to 0
     * and its keys known empty for any links (never scanned then, nor
     * asked: every query is of a set not in the chain) make edges_scan
     * pass it by as the test b != start did. The first RC of a chain is
     * an RC of the start, one of its digits: only those first RCs' keys are
     * written (all 9 excl, in one go). */
    w->uz[s] = 0;
    const uint32_t empty = w->gen << STATE_GEN_SHIFT | 7u;
    SDK_MASK_FOREACH(f, w->l->als[s].digits) {
        uint32_t *keys = w->state + ((size_t)(f - 1) * (size_t)w->cap + (size_t)s) * 9;
        for (int x = 0; x < 9; x++) keys[x] = empty;
    }
}

/* The search is over: what grew goes back to sp, the rest is freed. */
static void chain_walk_close(chain_walk *w, chain_space *sp)
{
    uz_clear(w);
    sp->pool = w->pool; /* grown by pool_reserve */
    sp->cappool = w->cappool;
    sp->nx = w->nx; /* grown by usable_edges */
    sp->capnx = w->capnx;
    sp->shared = w->shared; /* grown by shared_grow */
    sp->capshared = w->capshared;
    free(w->sum);
    free(w->sum1);
    free(w->pairdig);
}

/* Every ALS chain of l (up to max_rc links) with eliminations, recorded in
 * the order of the search. count: see chain_walk. since: NULL, or what
 * changed since a search that found nothing (then only chains that can
 * eliminate something since are wanted, and count must be false). */
static void search_chain(const sdk_als_list *l, const sdk_rcc_graph *gr, int max_rc, bool forward,
                         bool count, const chain_since *since, recs *R)
{
    chain_space *sp = chain_space_of(l->n);
    chain_walk w;
    chain_walk_open(&w, sp, l, gr, max_rc, forward, count, since, R);
    for (int s = 0; s < l->n && !R->oom && R->nodes <= R->max_nodes; s++) {
        if (gr->first[s] == gr->first[s + 1]) continue;
        if (since && !since->dirty[s] && since->need[s] > max_rc) continue;
        chain_walk_start(&w, sp, s);
        w.in_chain[s] = true;
        chain_dfs(&w, 0);
        w.in_chain[s] = false;
    }
    chain_walk_close(&w, sp);
}

typedef struct blossom {
    const sdk_grid *g;
    const sdk_als_list *l;
    recs *R;
    bool overlap;
    int stem;
    unsigned stem_digits;
    int *list[9]; /* ALSs usable for each stem digit */
    int nlist[9];
    int chosen[9]; /* ALS per stem digit (-1 none) */
    /* dirty (see search_xz): a stem cell that kept its candidates needs a
     * petal that changed; dirty_from[d - 1]: the stem digits from d up
     * with such a petal to choose */
    const uint8_t *dirty;
    unsigned dirty_from[10];
} blossom;

static void blossom_leaf(blossom *b, sdk_bb used, unsigned common)
{
    rec r;
    memset(&r, 0, sizeof r);
    SDK_MASK_FOREACH(z, common & ~b->stem_digits) {
        sdk_bb zc = sdk_bb_none();
        for (int d = 0; d < 9; d++)
            if (b->chosen[d] >= 0) zc = sdk_bb_or(zc, b->l->als[b->chosen[d]].dcells[z - 1]);
        sdk_bb cells = sdk_bb_and(sdk_common_peers(zc), b->g->digit[z - 1]);
        cells = sdk_bb_andnot(cells, used);
        sdk_bb_del(&cells, b->stem);
        if (sdk_bb_empty(cells)) continue;
        rec_elim(&r, cells, z);
        r.zmask |= (uint16_t)sdk_digit_bit(z);
    }
    if (!r.nelim) return;
    r.kind = K_DB;
    r.stem = (uint8_t)b->stem;
    for (int d = 0; d < 9; d++) {
        if (b->chosen[d] < 0) continue;
        r.als[r.nals] = b->chosen[d];
        r.rc[r.nals] = (uint16_t)(d + 1);
        r.nals++;
    }
    recs_add(b->R, &r, b->l);
}

/* Choose an ALS for each stem digit from d up. common: digits held by every
 * chosen set; live[z-1]: the cells z could still be eliminated from (they see
 * every z of the chosen sets and lie outside them), which only shrinks, so a
 * choice that leaves no live non-stem digit is cut. */
static void blossom_rec(blossom *b, int d, sdk_bb used, unsigned common, const sdk_bb *live,
                        bool need_dirty)
{
    while (d <= 9 && !(b->stem_digits & sdk_digit_bit(d))) d++;
    if (need_dirty && !b->dirty_from[d - 1]) return; /* found nothing before */
    if (d > 9) {
        blossom_leaf(b, used, common);
        return;
    }
    for (int i = 0; i < b->nlist[d - 1] && !b->R->oom; i++) {
        if (++b->R->nodes > b->R->max_nodes) return;
        const sdk_als *a = &b->l->als[b->list[d - 1][i]];
        /* the last stem digit with a changed petal to choose: only those */
        bool dirty_here = need_dirty && b->dirty[b->list[d - 1][i]];
        if (need_dirty && !dirty_here && !(b->dirty_from[d - 1] & ~sdk_digit_bit(d))) continue;
        if (!b->overlap && !sdk_bb_empty(sdk_bb_and(a->cells, used))) continue;
        unsigned nc = common & a->digits;
        if (!nc) continue;
        sdk_bb nlive[9];
        unsigned alive = 0;
        SDK_MASK_FOREACH(z, nc & ~b->stem_digits) {
            nlive[z - 1] = sdk_bb_andnot(sdk_bb_and(live[z - 1], a->peers[z - 1]), a->cells);
            if (!sdk_bb_empty(nlive[z - 1])) alive |= sdk_digit_bit(z);
        }
        if (!alive) continue;
        SDK_MASK_FOREACH(z, nc & ~b->stem_digits & ~alive) nlive[z - 1] = sdk_bb_none();
        b->chosen[d - 1] = b->list[d - 1][i];
        blossom_rec(b, d + 1, sdk_bb_or(used, a->cells), nc & (alive | b->stem_digits), nlive,
                    need_dirty && !dirty_here);
        b->chosen[d - 1] = -1;
    }
}

/* The search nodes search_db counts at most (each petal tried at each
 * stem digit, under every choice of the digits before), saturated. */
static long db_node_bound(const sdk_grid *g, const int *at)
{
    const long cap = 1L << 50;
    long total = 0;
    for (int stem = 0; stem < SDK_CELLS && total < cap; stem++) {
        if (g->value[stem] || !g->cand[stem]) continue;
        long paths = 1;
        SDK_MASK_FOREACH(d, g->cand[stem]) {
            long n = at[stem * 9 + d] - at[stem * 9 + d - 1];
            if (!n) break;
            paths = paths * n < cap ? paths * n : cap;
            total = total + paths < cap ? total + paths : cap;
        }
    }
    return total;
}

/* dirty: see search_xz; when the search may stop on its node budget, it is
 * searched whole (the budget would stop it elsewhere). */
static void search_db(const sdk_grid *g, const sdk_als_list *l, bool overlap, const uint8_t *dirty,
                      sdk_bb changed, recs *R)
{
    /* per cell and digit d, the ALSs holding d whose d cells all see the
     * cell (in list order): at[c * 9 + d - 1] .. at[c * 9 + d] in store */
    int *at = sdk_xcalloc(SDK_CELLS * 9 + 1, sizeof *at);
    for (int i = 0; i < l->n; i++)
        SDK_MASK_FOREACH(d, l->als[i].digits) {
            SDK_BB_FOREACH(c, l->als[i].peers[d - 1]) at[c * 9 + d - 1 + 1]++;
        }
    for (int k = 0; k < SDK_CELLS * 9; k++) at[k + 1] += at[k];
    int *store = sdk_xmalloc(sizeof *store * (size_t)(at[SDK_CELLS * 9] + 1));
    int *fill = sdk_xmalloc(sizeof *fill * SDK_CELLS * 9);
    memcpy(fill, at, sizeof *fill * SDK_CELLS * 9);
    for (int i = 0; i < l->n; i++)
        SDK_MASK_FOREACH(d, l->als[i].digits) {
            SDK_BB_FOREACH(c, l->als[i].peers[d - 1]) store[fill[c * 9 + d - 1]++] = i;
        }
    free(fill);
    if (dirty && db_node_bound(g, at) > R->max_nodes - R->nodes) dirty = NULL;
    blossom b = {.g = g, .l = l, .R = R, .overlap = overlap, .dirty = dirty};
    for (int stem = 0; stem < SDK_CELLS && !R->oom && R->nodes <= R->max_nodes; stem++) {
        if (g->value[stem] || !g->cand[stem]) continue;
        b.stem = stem;
        b.stem_digits = g->cand[stem];
        bool ok = true;
        for (int d = 1; d <= 9; d++) {
            b.nlist[d - 1] = 0;
            b.chosen[d - 1] = -1;
            if (!(b.stem_digits & sdk_digit_bit(d))) continue;
            b.list[d - 1] = store + at[stem * 9 + d - 1];
            b.nlist[d - 1] = at[stem * 9 + d] - at[stem * 9 + d - 1];
            if (!b.nlist[d - 1]) {
                ok = false;
                break;
            }
        }
        if (!ok) continue;
        bool need_dirty = dirty && !sdk_bb_has(changed, stem);
        if (need_dirty) {
            b.dirty_from[9] = 0;
            for (int d = 9; d >= 1; d--) {
                unsigned here = 0;
                for (int i = 0; i < b.nlist[d - 1] && !here; i++)
                    if (dirty[b.list[d - 1][i]]) here = sdk_digit_bit(d);
                b.dirty_from[d - 1] = b.dirty_from[d] | here;
            }
        }
        sdk_bb live[9];
        for (int z = 1; z <= 9; z++) {
            live[z - 1] = g->digit[z - 1];
            sdk_bb_del(&live[z - 1], stem);
        }
        blossom_rec(&b, 1, sdk_bb_none(), SDK_ALL_DIGITS, live, need_dirty);
    }
    free(store);
    free(at);
}

/* ---- steps ------------------------------------------------------------- */

static char *digits_text(unsigned mask, const char *sep, char *buf, size_t n)
{
    size_t len = 0;
    buf[0] = 0;
    SDK_MASK_FOREACH(d, mask) {
        int k = snprintf(buf + len, n - len, "%s%d", len ? sep : "", d);
        if (k < 0 || (size_t)k >= n - len) break;
        len += (size_t)k;
    }
    return buf;
}

static unsigned elim_digits(const rec *r)
{
    unsigned m = 0;
    for (int d = 0; d < 9; d++)
        if (!sdk_bb_empty(r->elim[d])) m |= 1u << d;
    return m;
}

/* Mark the candidates of an ALS: RC digits as pivots, Z digits as fins, the
 * rest as ALS members. */
static void mark_als(sdk_step *s, const sdk_als *a, unsigned rc, unsigned z)
{
    SDK_BB_FOREACH(c, a->cells) {
        SDK_MASK_FOREACH(d, a->digits) {
            if (!sdk_bb_has(a->dcells[d - 1], c)) continue;
            unsigned bit = sdk_digit_bit(d);
            sdk_role role = (rc & bit) ? SDK_ROLE_PIVOT : (z & bit) ? SDK_ROLE_FIN : SDK_ROLE_ALS;
            sdk_step_mark(s, c, d, role);
        }
    }
}

static void node_of(sdk_node *n, sdk_bb cells, int d, bool on)
{
    memset(n, 0, sizeof *n);
    n->digit = (uint8_t)d;
    n->on = on;
    SDK_BB_FOREACH(c, cells) {
        if (n->ncell == 3) break;
        n->cell[n->ncell++] = (uint8_t)c;
    }
}

/* The restricted common d between P and Q: d true in P makes it false in Q. */
static void link_rc(sdk_step *s, const sdk_als *P, const sdk_als *Q, int d)
{
    sdk_link k;
    memset(&k, 0, sizeof k);
    node_of(&k.from, P->dcells[d - 1], d, true);
    node_of(&k.to, Q->dcells[d - 1], d, false);
    k.strong = 0;
    k.kind = SDK_LINK_ALS;
    SDK_BB_FOREACH(c, Q->cells) k.als[k.nals++] = (uint8_t)c;
    if (sdk_bb_count(P->dcells[d - 1]) > 3 || sdk_bb_count(Q->dcells[d - 1]) > 3) s->truncated = 1;
    sdk_step_link(s, &k);
}

static void build_step(sdk_step *s, const sdk_technique *t, const sdk_als_list *l, const rec *r)
{
    char a[4][160], d1[24], d2[24];
    sdk_step_init(s, t);
    for (int d = 1; d <= 9; d++)
        SDK_BB_FOREACH(c, r->elim[d - 1]) sdk_step_elim(s, c, d);
    const sdk_als *S[MAX_RECORD_ALS];
    for (int i = 0; i < r->nals; i++) S[i] = &l->als[r->als[i]];
    switch (r->kind) {
    case K_XZ:
        mark_als(s, S[0], r->rc[0], r->zmask);
        mark_als(s, S[1], r->rc[0], r->zmask);
        SDK_MASK_FOREACH(d, r->rc[0]) link_rc(s, S[0], S[1], d);
        sdk_step_printf(s, "%s: A=%s, B=%s, X=%s", t->name, sdk_als_text(S[0], a[0], 160),
                        sdk_als_text(S[1], a[1], 160), digits_text(r->rc[0], ",", d1, sizeof d1));
        if (r->zmask && !r->locked)
            sdk_step_printf(s, ", Z=%s", digits_text(r->zmask, ",", d2, sizeof d2));
        break;
    case K_XY:
        mark_als(s, S[0], r->rc[0], r->zmask);
        mark_als(s, S[1], r->rc[1], r->zmask);
        mark_als(s, S[2], r->rc[0] | r->rc[1], 0);
        SDK_MASK_FOREACH(d, r->rc[0]) link_rc(s, S[0], S[2], d);
        SDK_MASK_FOREACH(d, r->rc[1]) link_rc(s, S[2], S[1], d);
        sdk_step_printf(s, "%s: A=%s, B=%s, C=%s, X,Y=%s, Z=%s", t->name,
                        sdk_als_text(S[0], a[0], 160), sdk_als_text(S[1], a[1], 160),
                        sdk_als_text(S[2], a[2], 160),
                        digits_text(r->rc[0] | r->rc[1], ",", d1, sizeof d1),
                        digits_text(r->zmask, ",", d2, sizeof d2));
        break;
    case K_CHAIN: {
        s->difficulty += r->nals - 4;
        digits_text(elim_digits(r), "", d2, sizeof d2);
        sdk_step_printf(s, "%s: %s-", t->name, d2);
        for (int i = 0; i < r->nals; i++) {
            unsigned rc = (i > 0 ? r->rc[i - 1] : 0) | (i + 1 < r->nals ? r->rc[i] : 0);
            mark_als(s, S[i], rc, (i == 0 || i + 1 == r->nals) ? r->zmask : 0);
            sdk_step_printf(s, " %s", sdk_als_text(S[i], a[0], 160));
            if (i + 1 < r->nals) {
                SDK_MASK_FOREACH(d, r->rc[i]) link_rc(s, S[i], S[i + 1], d);
                sdk_step_printf(s, " -%s-", digits_text(r->rc[i], "", d1, sizeof d1));
            }
        }
        sdk_step_printf(s, " -%s", d2);
        break;
    }
    case K_DB: {
        char cell[8];
        s->difficulty += r->nals - 2;
        sdk_step_mark(s, r->stem, 0, SDK_ROLE_PIVOT);
        sdk_step_printf(s, "%s: %s", t->name, sdk_cell_name(r->stem, cell));
        for (int i = 0; i < r->nals; i++) {
            int d = r->rc[i];
            sdk_step_mark(s, r->stem, d, SDK_ROLE_PIVOT);
            mark_als(s, S[i], sdk_digit_bit(d), r->zmask);
            sdk_link k;
            memset(&k, 0, sizeof k);
            node_of(&k.from, sdk_bb_cell(r->stem), d, true);
            node_of(&k.to, S[i]->dcells[d - 1], d, false);
            k.kind = SDK_LINK_ALS;
            SDK_BB_FOREACH(c, S[i]->cells) k.als[k.nals++] = (uint8_t)c;
            sdk_step_link(s, &k);
            sdk_step_printf(s, ", -%d- %s", d, sdk_als_text(S[i], a[0], 160));
        }
        break;
    }
    }
}

/* ---- the ALSs of the last position ------------------------------------- */

/* ALS-XZ, ALS-XY-Wing, ALS chain and Death Blossom run one after the other
 * on a position whenever the earlier ones find nothing, and all of them
 * start from the same list of ALSs (and the first three from the same
 * restricted commons): per thread, the list and graphs of the last position
 * (values, candidates) are kept and freed when the position changes.
 *
 * The next position usually descends from it (fewer candidates, no other
 * change): then an ALS whose cells kept their candidates is an ALS of both,
 * and the restricted commons of two such sets (which depend only on their
 * own cells) are the old ones. The list keeps its order (house by house,
 * each house's cell subsets in the same order whatever cells left), so the
 * old graph's rows are mapped over, and only pairs with a changed set are
 * tested again (rcc_update).
 *
 * The engine's own path (ctx->depth 0) and the grids assumed inside a
 * propagation (depth > 0, nested forcing chains: ~51 steps each) keep a
 * cache each: the many assumed grids would otherwise replace the path's
 * every time, and the path's next position (which descends from its last
 * one, not from the last assumed grid) be built whole. An assumed grid
 * that does not descend from the last assumed one descends from the path's
 * position it was assumed on: its cache starts from a copy of the path's. */
typedef struct als_cache {
    uint8_t value[SDK_CELLS];
    uint16_t cand[SDK_CELLS];
    bool used;
    sdk_als_list l;
    bool have_graph[2]; /* per overlap option */
    sdk_rcc_graph gr[2];
    /* The previous position, when this one descends from it: its list and
     * graphs, old_of[i] (set i of l in prev_l, -1 when a cell changed) and
     * new_of[] (the other way, -1 when not kept). */
    bool have_prev;
    sdk_als_list prev_l;
    bool prev_have_graph[2];
    sdk_rcc_graph prev_gr[2];
    int *old_of, *new_of;
    int nchanged; /* sets of l with old_of -1 */
} als_cache;
static _Thread_local als_cache *als_last[2]; /* [inside a propagation] */

static void als_cache_drop_prev(als_cache *c)
{
    if (!c->have_prev) return;
    sdk_als_list_free(&c->prev_l);
    for (int i = 0; i < 2; i++)
        if (c->prev_have_graph[i]) sdk_rcc_graph_free(&c->prev_gr[i]);
    free(c->old_of);
    free(c->new_of);
    c->have_prev = false;
    c->nchanged = 0;
    c->prev_have_graph[0] = c->prev_have_graph[1] = false;
    c->old_of = c->new_of = NULL;
}

static void als_cache_clear(als_cache *c)
{
    als_cache_drop_prev(c);
    if (!c->used) return;
    sdk_als_list_free(&c->l);
    for (int i = 0; i < 2; i++)
        if (c->have_graph[i]) sdk_rcc_graph_free(&c->gr[i]);
    memset(c, 0, sizeof *c);
}

/* The thread unloading the plugin (the one that used it, in a daemon
 * worker) frees its cache; so does the host's release between requests
 * (sudoku/cache.h), registered when a thread first makes its ALS cache
 * (every search starts there, als_of). After it each kept thing is made
 * again on first use: the bases, misses and counts are only read for a
 * grid they were kept for, so a search without them finds the same. */
static void chain_base_release(void);
static void count_memo_release(void);
static void seen_release(void);

__attribute__((destructor)) static void als_cache_release(void)
{
    chain_base_release();
    count_memo_release();
    seen_release();
    if (chain_space_last) chain_space_free(chain_space_last);
    chain_space_last = NULL;
    for (int side = 0; side < 2; side++) {
        if (!als_last[side]) continue;
        als_cache_clear(als_last[side]);
        free(als_last[side]);
        als_last[side] = NULL;
    }
}

/* Pair the sets of c->l whose cells are outside changed with those of
 * prev_l (same cells): false when one is missing (then nothing is reused). */
static bool als_cache_map(als_cache *c, sdk_bb changed)
{
    const sdk_als_list *o = &c->prev_l, *l = &c->l;
    c->old_of = sdk_xmalloc(sizeof *c->old_of * (size_t)(l->n + 1));
    c->new_of = sdk_xmalloc(sizeof *c->new_of * (size_t)(o->n + 1));
    for (int p = 0; p < o->n; p++) c->new_of[p] = -1;
    c->nchanged = 0;
    int p = 0;
    for (int i = 0; i < l->n; i++) {
        const sdk_als *a = &l->als[i];
        c->old_of[i] = -1;
        if (!sdk_bb_empty(sdk_bb_and(a->cells, changed))) {
            c->nchanged++;
            continue;
        }
        while (p < o->n && !sdk_bb_eq(o->als[p].cells, a->cells)) p++;
        if (p == o->n) return false;
        c->old_of[i] = p;
        c->new_of[p] = i;
        p++;
    }
    return true;
}

/* Does g descend from c's position (a subset of its candidates in every
 * cell)? */
static bool als_cache_holds(const als_cache *c, const sdk_grid *g)
{
    if (!c || !c->used) return false;
    for (int k = 0; k < SDK_CELLS; k++)
        if (g->cand[k] & ~c->cand[k]) return false;
    return true;
}

/* c (cleared) becomes a copy of p's position: values, candidates, list and
 * graphs (not p's previous position). */
static void als_cache_copy(als_cache *c, const als_cache *p)
{
    memcpy(c->value, p->value, sizeof c->value);
    memcpy(c->cand, p->cand, sizeof c->cand);
    c->l = p->l;
    c->l.cap = p->l.n;
    c->l.als = sdk_xmalloc(sizeof *c->l.als * (size_t)(p->l.n + 1));
    memcpy(c->l.als, p->l.als, sizeof *c->l.als * (size_t)p->l.n);
    for (int i = 0; i < 2; i++) {
        c->have_graph[i] = p->have_graph[i];
        if (!p->have_graph[i]) continue;
        const sdk_rcc_graph *pg = &p->gr[i];
        sdk_rcc_graph *cg = &c->gr[i];
        *cg = *pg;
        cg->cap = pg->n;
        cg->edge = sdk_xmalloc(sizeof *cg->edge * (size_t)(pg->n + 1));
        memcpy(cg->edge, pg->edge, sizeof *cg->edge * (size_t)pg->n);
        cg->first = sdk_xmalloc(sizeof *cg->first * (size_t)(pg->nals + 1));
        memcpy(cg->first, pg->first, sizeof *cg->first * (size_t)(pg->nals + 1));
    }
    c->used = true;
}

/* The ALSs of g (NULL when out of memory); inside: g is an assumed grid
 * (see als_cache). */
static als_cache *als_of(const sdk_grid *g, int inside)
{
    if (!als_last[inside]) {
        als_last[inside] = sdk_xcalloc(1, sizeof *als_last[inside]);
        sdk_cache_register(als_cache_release);
    }
    als_cache *c = als_last[inside];
    if (c->used && !memcmp(c->value, g->value, sizeof c->value) &&
        !memcmp(c->cand, g->cand, sizeof c->cand))
        return c;
    als_cache_drop_prev(c);
    if (inside && !als_cache_holds(c, g) && als_cache_holds(als_last[0], g)) {
        als_cache_clear(c); /* from the path's position instead */
        als_cache_copy(c, als_last[0]);
    }
    bool descends = c->used;
    sdk_bb changed = sdk_bb_none();
    for (int k = 0; descends && k < SDK_CELLS; k++) {
        if (g->cand[k] & ~c->cand[k]) descends = false;
        if (g->cand[k] != c->cand[k] || g->value[k] != c->value[k]) sdk_bb_add(&changed, k);
    }
    if (descends) { /* the current list and graphs become the previous ones */
        c->prev_l = c->l;
        for (int i = 0; i < 2; i++) {
            c->prev_have_graph[i] = c->have_graph[i];
            c->prev_gr[i] = c->gr[i];
            c->have_graph[i] = false;
        }
        memset(&c->l, 0, sizeof c->l);
        c->have_prev = true;
        c->used = false;
    } else {
        als_cache_clear(c);
    }
    /* a descendant's list: only the houses with a changed cell walked */
    int n = c->have_prev ? sdk_als_collect_since(g, &c->prev_l, changed, &c->l)
                         : sdk_als_collect(g, NULL, &c->l);
    if (n < 0) {
        als_cache_drop_prev(c);
        return NULL;
    }
    memcpy(c->value, g->value, sizeof c->value);
    memcpy(c->cand, g->cand, sizeof c->cand);
    c->used = true;
    if (c->have_prev && !als_cache_map(c, changed)) als_cache_drop_prev(c);
    return c;
}

static void rcc_push(sdk_rcc_graph *gr, int a, int b, unsigned digits)
{
    if (gr->n == gr->cap) {
        int cap = gr->cap ? gr->cap * 2 : 1024;
        gr->edge = sdk_xrealloc(gr->edge, sizeof *gr->edge * (size_t)cap);
        gr->cap = cap;
    }
    gr->edge[gr->n++] = (sdk_rcc){a, b, (uint16_t)digits};
}

/* The restricted commons of sets i and j of l, as sdk_rcc_graph_build tests
 * them (0: no edge). */
static unsigned rcc_pair(const sdk_als_list *l, int i, int j, bool overlap)
{
    const sdk_als *a = &l->als[i], *b = &l->als[j];
    if (!(a->digits & b->digits)) return 0;
    if (sdk_bb_empty(sdk_bb_and(b->cells, a->all_peers))) return 0;
    return sdk_als_rcc(a, b, overlap);
}

/* sdk_rcc_graph_build's graph of c->l from the previous position's (see
 * als_cache): a kept set's row is its old row (mapped, in the same order)
 * merged with its edges to the changed sets; a changed set's row is built
 * whole. */
static void rcc_update(const als_cache *c, bool overlap, sdk_rcc_graph *out)
{
    const sdk_als_list *l = &c->l;
    const sdk_rcc_graph *old = &c->prev_gr[overlap ? 1 : 0];
    size_t n = (size_t)l->n;
    memset(out, 0, sizeof *out);
    out->nals = l->n;
    out->first = sdk_xmalloc(sizeof *out->first * (n + 1));
    int *changed = sdk_xmalloc(sizeof *changed * (n + 1)), nchanged = 0;
    int *slot = sdk_xmalloc(sizeof *slot * (n + 1)); /* changed set -> its row */
    for (int i = 0; i < l->n; i++) {
        slot[i] = -1;
        if (c->old_of[i] < 0) {
            slot[i] = nchanged;
            changed[nchanged++] = i;
        }
    }
    changed[nchanged] = l->n; /* sentinel */
    /* A set with an RCC with a holds a cell in a's all_peers (rcc_pair's
     * quick reject): the sets holding each cell, as bits, give those. */
    size_t words = (n + 63) / 64;
    uint64_t *holds = sdk_xcalloc((size_t)SDK_CELLS * words + 1, sizeof *holds);
    for (int i = 0; i < l->n; i++)
        SDK_BB_FOREACH(cell, l->als[i].cells)
            holds[(size_t)cell * words + (size_t)(i >> 6)] |= 1ULL << (i & 63);
    uint64_t *near = sdk_xmalloc(sizeof *near * (words + 1));
    /* The rows of the changed sets first: RCCs are symmetric (the test is a
     * quick reject, then sdk_als_rcc, both symmetric), so a kept set's RCCs
     * with them are read there; each kept set's changed partners are noted
     * (pair_*, in row order), then gathered per kept set (kept_at). */
    uint16_t *row = sdk_xcalloc((size_t)nchanged * n + 1, sizeof *row);
    int *kept_at = sdk_xcalloc(n + 2, sizeof *kept_at);
    int npair = 0, cappair = 256;
    int *pair_set = sdk_xmalloc(sizeof *pair_set * (size_t)cappair);
    int *pair_row = sdk_xmalloc(sizeof *pair_row * (size_t)cappair);
    for (int r = 0; r < nchanged; r++) {
        int a = changed[r];
        memset(near, 0, sizeof *near * words);
        SDK_BB_FOREACH(cell, l->als[a].all_peers) {
            const uint64_t *h = holds + (size_t)cell * words;
            for (size_t w = 0; w < words; w++) near[w] |= h[w];
        }
        uint16_t *ra = row + (size_t)r * n;
        for (size_t w = 0; w < words; w++)
            for (uint64_t m = near[w]; m; m &= m - 1) {
                int j = (int)(w * 64) + __builtin_ctzll(m);
                if (j == a) continue;
                unsigned v = slot[j] >= 0 && slot[j] < r /* both changed: tested once */
                                 ? row[(size_t)slot[j] * n + (size_t)a]
                                 : rcc_pair(l, a, j, overlap);
                ra[j] = (uint16_t)v;
                if (!v || c->old_of[j] < 0) continue;
                if (npair == cappair) {
                    cappair *= 2;
                    pair_set = sdk_xrealloc(pair_set, sizeof *pair_set * (size_t)cappair);
                    pair_row = sdk_xrealloc(pair_row, sizeof *pair_row * (size_t)cappair);
                }
                pair_set[npair] = j;
                pair_row[npair++] = r;
                kept_at[j + 1]++;
            }
    }
    for (size_t i = 0; i < n; i++) kept_at[i + 1] += kept_at[i];
    int *partner = sdk_xmalloc(sizeof *partner * (size_t)(npair + 1)); /* rows, per kept set */
    for (int k = 0; k < npair; k++) partner[kept_at[pair_set[k]]++] = pair_row[k];
    for (size_t i = n; i > 0; i--) kept_at[i] = kept_at[i - 1]; /* back to the starts */
    kept_at[0] = 0;
    for (int i = 0; i < l->n; i++) {
        out->first[i] = out->n;
        int o = c->old_of[i];
        if (o < 0) {
            const uint16_t *ri = row + (size_t)slot[i] * n;
            /* nearly all zero: four entries read at once, the same pushes
             * in the same order */
            int j = 0;
            for (; j + 4 <= l->n; j += 4) {
                uint64_t four;
                memcpy(&four, ri + j, sizeof four);
                if (!four) continue;
                for (int k = j; k < j + 4; k++)
                    if (ri[k]) rcc_push(out, i, k, ri[k]);
            }
            for (; j < l->n; j++)
                if (ri[j]) rcc_push(out, i, j, ri[j]);
            continue;
        }
        int e = old->first[o], eend = old->first[o + 1], p = kept_at[i], pend = kept_at[i + 1];
        int next_old = -1; /* new index of old edge e's other set */
        while (e < eend && (next_old = c->new_of[old->edge[e].b]) < 0) e++;
        while (e < eend || p < pend) {
            if (e < eend && (p == pend || next_old < changed[partner[p]])) {
                rcc_push(out, i, next_old, old->edge[e].digits);
                for (e++; e < eend && (next_old = c->new_of[old->edge[e].b]) < 0;) e++;
            } else {
                int r = partner[p++];
                rcc_push(out, i, changed[r], row[(size_t)r * n + (size_t)i]);
            }
        }
    }
    out->first[l->n] = out->n;
    free(partner);
    free(pair_set);
    free(pair_row);
    free(kept_at);
    free(row);
    free(near);
    free(holds);
    free(slot);
    free(changed);
}

/* Their restricted commons (NULL when out of memory). */
static const sdk_rcc_graph *rcc_of(als_cache *c, bool overlap)
{
    int i = overlap ? 1 : 0;
    if (!c->have_graph[i]) {
        /* rcc_update keeps a row per changed set: not when most changed */
        if (c->have_prev && c->prev_have_graph[i] && c->nchanged <= c->l.n / 2) {
            rcc_update(c, overlap, &c->gr[i]);
        } else if (sdk_rcc_graph_build(&c->l, overlap, &c->gr[i]) < 0) {
            return NULL;
        }
        if (c->prev_have_graph[i]) { /* used once */
            sdk_rcc_graph_free(&c->prev_gr[i]);
            c->prev_have_graph[i] = false;
        }
        c->have_graph[i] = true;
    }
    return &c->gr[i];
}

/* ---- ALS chains after a search that found nothing ---------------------- */

/* Within one puzzle's path the grid only loses candidates. If a complete
 * chain search (not cut by the node budget) found nothing on grid B, and g
 * has a subset of B's candidates in every cell, consider a chain of g that
 * neither starts nor ends at a changed set (one with a cell whose
 * candidates changed) and whose links are all links of B (same two sets,
 * same digits, same restricted commons). With the same links its actual
 * RCs were the same: it was a chain of B. Its ends kept their digit cells, so the cells that see
 * them are B's less the lost candidates: its eliminations on g are a subset of those on B, none. So
 * on g only chains with a changed end or a new link are searched, in the same order: the result is
 * the full search's. (A changed set in the middle usually keeps most of its links: a candidate lost
 * from its cells only adds restricted commons.)
 *
 * Per thread, the last such B: its candidates and the options it was
 * searched with, its sets (cells, digits; a hash of the cells) and its
 * graph (per set, the other sets and the RC digits, sorted). One for the
 * engine's path and one for assumed grids (as the ALS lists: see
 * als_cache); an assumed grid that does not descend from the last assumed
 * base may descend from the path's. */
typedef struct chain_base {
    bool valid, overlap;
    int max_rc;
    uint16_t cand[SDK_CELLS];
    int nals, nedge, capals, capedge;
    sdk_bb *cells;
    uint16_t *digits;
    int *first; /* nals + 1 */
    int *to;    /* per edge, in the graph's order */
    uint16_t *rc;
    int *slot, nslot; /* hash of cells -> set + 1, 0 empty */
} chain_base;
static _Thread_local chain_base chain_last[2]; /* [inside a propagation] */

static void chain_base_clear(chain_base *b)
{
    free(b->cells);
    free(b->digits);
    free(b->first);
    free(b->to);
    free(b->rc);
    free(b->slot);
    memset(b, 0, sizeof *b);
}

static void chain_base_release(void)
{
    chain_base_clear(&chain_last[0]);
    chain_base_clear(&chain_last[1]);
}

static size_t cells_hash(sdk_bb c)
{
    uint64_t h = (c.lo * 0x9e3779b97f4a7c15ULL) ^ (c.hi * 0xc2b2ae3d27d4eb4fULL);
    return (size_t)(h ^ h >> 31);
}

/* g (searched with these options, list l and graph gr) found nothing:
 * it becomes the thread's base. */
static void chain_base_set(const sdk_grid *g, const sdk_als_list *l, const sdk_rcc_graph *gr,
                           int max_rc, bool overlap, int inside)
{
    chain_base *b = &chain_last[inside];
    b->valid = true;
    b->overlap = overlap;
    b->max_rc = max_rc;
    memcpy(b->cand, g->cand, sizeof b->cand);
    if (l->n + 1 > b->capals) {
        b->capals = l->n + 1 + l->n / 4;
        b->cells = sdk_xrealloc(b->cells, sizeof *b->cells * (size_t)b->capals);
        b->digits = sdk_xrealloc(b->digits, sizeof *b->digits * (size_t)b->capals);
        b->first = sdk_xrealloc(b->first, sizeof *b->first * (size_t)b->capals);
    }
    if (gr->n + 1 > b->capedge) {
        b->capedge = gr->n + 1 + gr->n / 4;
        b->to = sdk_xrealloc(b->to, sizeof *b->to * (size_t)b->capedge);
        b->rc = sdk_xrealloc(b->rc, sizeof *b->rc * (size_t)b->capedge);
    }
    int nslot = 64;
    while (nslot < 2 * l->n) nslot *= 2;
    if (nslot != b->nslot) {
        free(b->slot);
        b->slot = sdk_xmalloc(sizeof *b->slot * (size_t)nslot);
        b->nslot = nslot;
    }
    memset(b->slot, 0, sizeof *b->slot * (size_t)nslot);
    b->nals = l->n;
    b->nedge = gr->n;
    for (int i = 0; i < l->n; i++) {
        b->cells[i] = l->als[i].cells;
        b->digits[i] = l->als[i].digits;
        b->first[i] = gr->first[i];
        size_t k = cells_hash(b->cells[i]) & (size_t)(nslot - 1);
        while (b->slot[k]) k = (k + 1) & (size_t)(nslot - 1);
        b->slot[k] = i + 1;
    }
    b->first[l->n] = gr->first[l->n];
    for (int e = 0; e < gr->n; e++) {
        b->to[e] = gr->edge[e].b;
        b->rc[e] = gr->edge[e].digits;
    }
}

/* The base's set with these cells and digits, or -1. */
static int base_set_of(const chain_base *b, const sdk_als *a)
{
    size_t k = cells_hash(a->cells) & (size_t)(b->nslot - 1);
    for (; b->slot[k]; k = (k + 1) & (size_t)(b->nslot - 1)) {
        int i = b->slot[k] - 1;
        if (sdk_bb_eq(b->cells[i], a->cells)) return b->digits[i] == a->digits ? i : -1;
    }
    return -1;
}

/* Did the base link its sets p and q with exactly these RC digits? */
static bool base_has_link(const chain_base *b, int p, int q, unsigned digits)
{
    int lo = b->first[p], hi = b->first[p + 1];
    while (lo < hi) { /* a row is sorted by the other set */
        int mid = (lo + hi) / 2;
        if (b->to[mid] < q)
            lo = mid + 1;
        else
            hi = mid;
    }
    return lo < b->first[p + 1] && b->to[lo] == q && b->rc[lo] == digits;
}

static void chain_since_free(chain_since *c)
{
    if (!c) return;
    free(c->dirty);
    free(c->fresh);
    free(c->need);
    free(c);
}

/* Does g descend from base b, searched with these options? */
static bool chain_base_holds(const chain_base *b, const sdk_grid *g, int max_rc, bool overlap)
{
    if (!b->valid || b->max_rc != max_rc || b->overlap != overlap) return false;
    for (int c = 0; c < SDK_CELLS; c++)
        if (g->cand[c] & ~b->cand[c]) return false;
    return true;
}

/* When g descends from the thread's chain_base (inside: the assumed grids'
 * one, else the path's; same options): what changed since, for list l and
 * graph gr (malloc'd); else NULL. */
static chain_since *chain_since_of(const sdk_grid *g, const sdk_als_list *l,
                                   const sdk_rcc_graph *gr, int max_rc, bool overlap, int inside)
{
    const chain_base *b = &chain_last[inside];
    if (!chain_base_holds(b, g, max_rc, overlap)) {
        b = &chain_last[0];
        if (!inside || !chain_base_holds(b, g, max_rc, overlap)) return NULL;
    }
    sdk_bb changed = sdk_bb_none();
    for (int c = 0; c < SDK_CELLS; c++)
        if (g->cand[c] != b->cand[c]) sdk_bb_add(&changed, c);
    chain_since *cs = sdk_xcalloc(1, sizeof *cs);
    cs->dirty = sdk_xmalloc((size_t)l->n + 1);
    cs->need = sdk_xmalloc((size_t)l->n + 1);
    cs->fresh = sdk_xcalloc((size_t)gr->n + 1, 1);
    int *base_of = sdk_xmalloc(sizeof *base_of * (size_t)(l->n + 1));
    int *queue = sdk_xmalloc(sizeof *queue * (size_t)(l->n + 1)), head = 0, tail = 0;
    for (int i = 0; i < l->n; i++) {
        cs->dirty[i] = !sdk_bb_empty(sdk_bb_and(l->als[i].cells, changed));
        cs->need[i] = cs->dirty[i] ? 0 : (uint8_t)(max_rc + 1);
        if (cs->dirty[i]) queue[tail++] = i;
        base_of[i] = -2; /* not looked up yet */
    }
    /* a link between two unchanged sets is the base's; the others are
     * looked up */
    for (int i = 0; i < l->n; i++)
        for (int e = gr->first[i]; e < gr->first[i + 1]; e++) {
            int j = gr->edge[e].b;
            if (!cs->dirty[i] && !cs->dirty[j]) continue;
            if (base_of[i] == -2) base_of[i] = base_set_of(b, &l->als[i]);
            if (base_of[j] == -2) base_of[j] = base_set_of(b, &l->als[j]);
            if (base_of[i] >= 0 && base_of[j] >= 0 &&
                base_has_link(b, base_of[i], base_of[j], gr->edge[e].digits))
                continue;
            cs->fresh[e] = 1;
            if (cs->need[i] > 1) { /* one link from i: over this one */
                cs->need[i] = 1;
                queue[tail++] = i;
            }
        }
    /* the queue holds the 0s, then the 1s: a breadth-first search from them
     * (a set queued as 1 and lowered to 0 later cannot be: 0s come first) */
    while (head < tail) {
        int v = queue[head++];
        if (cs->need[v] >= max_rc) continue;
        for (int e = gr->first[v]; e < gr->first[v + 1]; e++) {
            int u = gr->edge[e].b;
            if (cs->need[u] > cs->need[v] + 1) {
                cs->need[u] = (uint8_t)(cs->need[v] + 1);
                queue[tail++] = u;
            }
        }
    }
    free(queue);
    free(base_of);
    return cs;
}

/* ---- the node count of a graph searched whole --------------------------- */

/* The search nodes chain_dfs counts depend on the graph alone (its sets'
 * edges and their digits, max_rc and forward), not on the grid: the same
 * graph counts the same nodes, in the same places. So when a counted search
 * ends within its budget, its count is kept per thread with a copy of the
 * graph; the next position often has the same graph (only candidates that
 * change no set's digits or restricted commons gone), and then the budget
 * is known to hold without counting (nor the bound computed). */
typedef struct count_memo {
    bool valid, forward;
    int max_rc, nals, nedge, capals, capedge;
    long nodes;
    int *first;
    sdk_rcc *edge;
} count_memo;
static _Thread_local count_memo count_last;

static void count_memo_release(void)
{
    free(count_last.first);
    free(count_last.edge);
    memset(&count_last, 0, sizeof count_last);
}

/* The nodes a counted search of gr counted whole, or -1 when not known. */
static long count_memo_of(const sdk_rcc_graph *gr, int max_rc, bool forward)
{
    const count_memo *m = &count_last;
    if (!m->valid || m->max_rc != max_rc || m->forward != forward || m->nals != gr->nals ||
        m->nedge != gr->n || memcmp(m->first, gr->first, sizeof *m->first * (size_t)(gr->nals + 1)))
        return -1;
    for (int e = 0; e < gr->n; e++)
        if (m->edge[e].b != gr->edge[e].b || m->edge[e].digits != gr->edge[e].digits) return -1;
    return m->nodes;
}

/* A counted search of gr counted nodes and was not cut by its budget. */
static void count_memo_set(const sdk_rcc_graph *gr, int max_rc, bool forward, long nodes)
{
    count_memo *m = &count_last;
    if (gr->nals + 1 > m->capals) {
        m->capals = gr->nals + 1 + gr->nals / 4;
        m->first = sdk_xrealloc(m->first, sizeof *m->first * (size_t)m->capals);
    }
    if (gr->n + 1 > m->capedge) {
        m->capedge = gr->n + 1 + gr->n / 4;
        m->edge = sdk_xrealloc(m->edge, sizeof *m->edge * (size_t)m->capedge);
    }
    memcpy(m->first, gr->first, sizeof *m->first * (size_t)(gr->nals + 1));
    memcpy(m->edge, gr->edge, sizeof *m->edge * (size_t)gr->n);
    m->valid = true;
    m->forward = forward;
    m->max_rc = max_rc;
    m->nals = gr->nals;
    m->nedge = gr->n;
    m->nodes = nodes;
}

/* Must the search of gr count its nodes against max_nodes (may the budget
 * stop it)? */
static bool chain_must_count(const sdk_rcc_graph *gr, int max_rc, bool forward, long max_nodes)
{
    if (chain_nodes_fit_quick(gr, max_rc, max_nodes)) return false;
    if (chain_set_bound(gr, max_rc) <= max_nodes) return false;
    long known = count_memo_of(gr, max_rc, forward);
    if (known >= 0) return known > max_nodes;
    return chain_node_bound(gr, max_rc) > max_nodes;
}

/* The chain search of find_als: whole, or only where g changed since the
 * thread's chain_base; g becomes the new base when it finds nothing. */
static void find_chains(const sdk_grid *g, const sdk_als_list *l, const sdk_rcc_graph *gr,
                        int max_rc, bool forward, bool overlap, int inside, recs *R)
{
    bool count = chain_must_count(gr, max_rc, forward, R->max_nodes);
    chain_since *since =
        !count && !forward ? chain_since_of(g, l, gr, max_rc, overlap, inside) : NULL;
    search_chain(l, gr, max_rc, forward, count, since, R);
    chain_since_free(since);
    bool complete = !R->oom && R->nodes <= R->max_nodes;
    if (count && complete) count_memo_set(gr, max_rc, forward, R->nodes);
    if (!forward && complete && R->n == 0) chain_base_set(g, l, gr, max_rc, overlap, inside);
}

/* ---- ALS-XZ, ALS-XY-Wing, Death Blossom after a search that found nothing */

/* The same rule as for chains: if a search of one kind found nothing on
 * grid B and g has a subset of B's candidates in every cell, a pattern of
 * g whose sets (and stem cell) all kept their cells' candidates was a
 * pattern of B with the same restricted commons, and its eliminations on
 * g are a subset of those on B: none. So only patterns with a changed set
 * (or stem) are searched, in the same order: the same instances as a
 * whole search. Per thread and kind, the last such B and its option, for
 * the engine's path and for assumed grids (see chain_base). */
typedef struct miss_base {
    bool valid, overlap;
    uint16_t cand[SDK_CELLS];
} miss_base;
static _Thread_local miss_base miss_last[2][4]; /* [inside][K_*]; chains keep chain_base */

/* Does g descend from miss base b, searched with this option? */
static bool miss_holds(const miss_base *b, const sdk_grid *g, bool overlap)
{
    if (!b->valid || b->overlap != overlap) return false;
    for (int c = 0; c < SDK_CELLS; c++)
        if (g->cand[c] & ~b->cand[c]) return false;
    return true;
}

/* When g descends from the kind's miss_base (inside: the assumed grids'
 * one, else the path's; same option): the cells whose candidates changed
 * since (*changed), and per set of l whether it holds one (malloc'd); else
 * NULL. */
static uint8_t *miss_dirty(int kind, const sdk_grid *g, const sdk_als_list *l, bool overlap,
                           int inside, sdk_bb *changed)
{
    const miss_base *b = &miss_last[inside][kind];
    if (!miss_holds(b, g, overlap)) {
        b = &miss_last[0][kind]; /* an assumed grid: the path's miss */
        if (!inside || !miss_holds(b, g, overlap)) return NULL;
    }
    *changed = sdk_bb_none();
    for (int c = 0; c < SDK_CELLS; c++)
        if (g->cand[c] != b->cand[c]) sdk_bb_add(changed, c);
    uint8_t *dirty = sdk_xmalloc((size_t)l->n + 1);
    for (int i = 0; i < l->n; i++) dirty[i] = !sdk_bb_empty(sdk_bb_and(l->als[i].cells, *changed));
    return dirty;
}

/* g (searched with this option) found nothing: the kind's new base. */
static void miss_set(int kind, const sdk_grid *g, bool overlap, int inside)
{
    miss_base *b = &miss_last[inside][kind];
    b->valid = true;
    b->overlap = overlap;
    memcpy(b->cand, g->cand, sizeof b->cand);
}

/* ---- grids searched before ---------------------------------------------
 * Nested forcing chains' propagations meet the same grid again (another
 * assumption leads to the same position: about 8% of the ALS calls inside
 * them on the hardest puzzles, most within the last few hundred calls).
 * What a search finds depends on the grid and the options alone (the
 * memos above only spare work), so per thread and kind the grids where a
 * whole search (not cut by its budget) found nothing are kept in a
 * direct-mapped table by a hash of their candidates, values and the
 * options; the same grid with the same options again finds nothing at once
 * (after a full comparison). */
enum { SEEN_SLOTS = 256 };
static _Thread_local position_miss *seen_last[4]; /* by K_*; grid_memo.h */

static void seen_release(void)
{
    for (int k = 0; k < 4; k++) {
        free(seen_last[k]);
        seen_last[k] = NULL;
    }
}

/* The options a search's result depends on, as one key (max_nodes is an
 * int option, max_len at most MAX_RECORD_ALS). */
static uint64_t seen_key(long max_nodes, int max_len, bool overlap, bool hodoku)
{
    return (uint64_t)(uint32_t)max_nodes << 32 | (uint64_t)max_len << 2 | (uint64_t)overlap << 1 |
           (uint64_t)hodoku;
}

/* One find for the family: the kind (K_*) is the descriptor's data. */
static int find_als(const sdk_ctx *ctx, const sdk_grid *g, sdk_sink *sink)
{
    const sdk_technique *t = ctx->self;
    int kind = *(const int *)t->data;
    bool overlap = sdk_opt_bool(ctx, "overlap", false);
    const char *order = sdk_opt(ctx, "order");
    bool hodoku = order && !strcmp(order, "hodoku") && (kind == K_XZ || kind == K_XY);
    recs R;
    memset(&R, 0, sizeof R);
    if (hodoku) {
        R.ctx = ctx;
        R.sink = sink;
        R.t = t;
        R.ret = SDK_CONTINUE;
    }
    R.max_nodes = sdk_opt_int(ctx, "max-nodes", 100000000);
    int max_len = sdk_opt_int(ctx, "max-length", 7);
    if (max_len > MAX_RECORD_ALS) max_len = MAX_RECORD_ALS;
    if (max_len < 4) max_len = 4;
    uint64_t key = seen_key(R.max_nodes, kind == K_CHAIN ? max_len : 0, overlap,
                            order && !strcmp(order, "hodoku"));
    if (position_miss_seen(seen_last[kind], SEEN_SLOTS, g, key))
        return SDK_CONTINUE;     /* found nothing before */
    int inside = ctx->depth > 0; /* an assumed grid (see als_cache) */
    als_cache *ac = als_of(g, inside);
    if (!ac) return SDK_CONTINUE;
    const sdk_als_list *lp = &ac->l;
    sdk_bb changed = sdk_bb_none();
    uint8_t *dirty = kind != K_CHAIN ? miss_dirty(kind, g, lp, overlap, inside, &changed) : NULL;
    if (kind == K_DB) {
        search_db(g, lp, overlap, dirty, changed, &R);
    } else {
        const sdk_rcc_graph *gr = rcc_of(ac, overlap);
        if (!gr) {
            free(dirty);
            return SDK_CONTINUE;
        }
        if (kind == K_XZ)
            search_xz(lp, gr, dirty, &R);
        else if (kind == K_XY && hodoku)
            search_xy_hodoku(lp, gr, overlap, dirty, &R);
        else if (kind == K_XY)
            search_xy(lp, gr, overlap, dirty, &R);
        else {
            find_chains(g, lp, gr, max_len - 1, order && !strcmp(order, "hodoku"), overlap, inside,
                        &R);
        }
    }
    free(dirty);
    if (R.n == 0 && !R.oom && R.nodes <= R.max_nodes) {
        if (kind != K_CHAIN) miss_set(kind, g, overlap, inside);
        position_miss_note(&seen_last[kind], SEEN_SLOTS, g, key);
    }
    int ret = SDK_CONTINUE;
    if (hodoku) { /* emitted as found */
        ret = R.ret;
        R.n = 0;
    }
    if (R.n > 1) qsort(R.r, (size_t)R.n, sizeof *R.r, rec_cmp);
    sdk_step *s = sdk_scratch_step(ctx, 0);
    for (int i = 0; s && i < R.n; i++) {
        build_step(s, t, lp, &R.r[i]);
        if (sdk_emit(sink, s) == SDK_STOP) {
            ret = SDK_STOP;
            break;
        }
    }
    recs_free(&R);
    return ret;
}

static const int kinds[] = {K_XZ, K_XY, K_CHAIN, K_DB};

static const sdk_technique als_xz = {
    .abi = SDK_ABI_VERSION,
    .size = sizeof(sdk_technique),
    .id = "als-xz",
    .name = "ALS-XZ",
    .difficulty = 70,
    .score = 300,
    .level = SDK_LEVEL_UNFAIR,
    .find = find_als,
    .data = &kinds[K_XZ],
    .summary = "two almost locked sets joined by a restricted common (singly or doubly linked)",
};
static const sdk_technique als_xy_wing = {
    .abi = SDK_ABI_VERSION,
    .size = sizeof(sdk_technique),
    .id = "als-xy-wing",
    .name = "ALS-XY-Wing",
    .difficulty = 72,
    .score = 320,
    .level = SDK_LEVEL_UNFAIR,
    .find = find_als,
    .data = &kinds[K_XY],
    .summary = "three almost locked sets: A and B each linked to C by a different RC",
};
static const sdk_technique als_chain = {
    .abi = SDK_ABI_VERSION,
    .size = sizeof(sdk_technique),
    .id = "als-chain",
    .name = "ALS-Chain",
    .difficulty = 74,
    .score = 340,
    .level = SDK_LEVEL_UNFAIR,
    .find = find_als,
    .data = &kinds[K_CHAIN],
    .summary = "a chain of 4 or more almost locked sets linked by restricted commons",
};
static const sdk_technique death_blossom = {
    .abi = SDK_ABI_VERSION,
    .size = sizeof(sdk_technique),
    .id = "death-blossom",
    .name = "Death Blossom",
    .difficulty = 75,
    .score = 360,
    .level = SDK_LEVEL_UNFAIR,
    .find = find_als,
    .data = &kinds[K_DB],
    .summary = "a stem cell whose every candidate sees one almost locked set (a petal)",
};

SDK_PLUGIN(&als_xz, &als_xy_wing, &als_chain, &death_blossom)
