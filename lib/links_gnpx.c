/* links_gnpx.c - `trace --gnpx`: GNPX's "super link" radiation search, as the
 * seed document 002 describes it and its three figures show it.
 *
 * The links are static, read once from the position:
 *   - cell links: for a digit in a house, a strong link (S) between its two
 *     cells when it has exactly two there (a strong link is a weak one too),
 *     weak links (W) between every two of its cells otherwise;
 *   - ALS links: in an almost locked set (n cells of one house, n+1 digits,
 *     n from 2 to 5, no locked set inside it), a digit a removed from the
 *     cells that hold it locks the rest, so the cells holding another digit b
 *     become a true group: [S (ALS:set) cells-of-a/-a -> cells-of-b/+b]. A set
 *     found in two houses counts once; among sets giving the same link, the
 *     smallest.
 *
 * The search is breadth first over links, not candidates: a queue of links,
 * each followed by the links that may come next in an alternating chain,
 *   S->W same digit, W->S same digit, S->S another digit (through the cell),
 *   W->W another digit, through a bivalue cell only;
 * an ALS link only after a weak link whose target is exactly the set's cells
 * holding the removed digit, and after an ALS link only weak links: from its
 * true group into the rest of a house that holds the group. Two ALS links
 * never follow each other. A link is queued only when it brings news (a
 * strong link's target not yet true, a weak link's target not yet false), in
 * the order GNPX lists a cell's links (strong before weak, then by digit,
 * then by the far cell), ALS links after them. Links inside a cell are
 * recorded, never queued: a cell made true makes its other digits false; a
 * bivalue cell made false passes on through its weak W->W links only (GNPX
 * writes its other digit true only next to the assumption, whose own weak
 * links come first; its other digits are false and lead nowhere). So an
 * in-cell link is only ever the last link of a consequence's chain.
 *
 * Each consequence is shown with the chain of links that set it. The first
 * candidate found both true and false ends the search: the assumption is
 * false, shown with the chain that made the candidate false, then the one
 * that made it true. */
#include "links_gnpx.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "sudoku/alloc.h"

enum { S = 1, W = 2 };
enum { ROOT, CELL, INCELL, ALS, GROUP };

/* One link of the search; pre: the link before it (-1: none). */
typedef struct glink {
    uint8_t type, kind;
    uint8_t no, no2; /* digit at the start and at the end, 1..9 */
    sdk_bb from, to;
    sdk_bb set; /* ALS: the set's cells */
    int pre;
} glink;

typedef struct clink {
    uint8_t type, no, to;
} clink;

typedef struct alink {
    sdk_bb set, from, to;
    uint8_t no, no2;
    int seq; /* the order it was made in: the first of equal links stays */
} alink;

enum { MAX_CLINKS = 224, MAX_LINKS = 1 << 17, ALS_MAX = 5 };

typedef struct gnpx {
    const sdk_grid *g;
    clink cl[SDK_CELLS][MAX_CLINKS];
    int ncl[SDK_CELLS];
    alink *al;
    int nal, capal;
    glink *L;
    int nL, capL;
    int *q;
    int qh, qt;
    bool t[SDK_NCAND], f[SDK_NCAND];  /* candidate found true / false */
    int dt[SDK_NCAND], df[SDK_NCAND]; /* the link that made it so */
    int origin;
    int clash; /* a candidate both true and false, or -1 */
} gnpx;

/* ---- the static links ---------------------------------------------------- */

static void add_clink(gnpx *x, int type, int no, int a, int b)
{
    for (int i = 0; i < x->ncl[a]; i++) {
        const clink *k = &x->cl[a][i];
        if (k->type == type && k->no == no && k->to == b) return;
    }
    if (x->ncl[a] < MAX_CLINKS)
        x->cl[a][x->ncl[a]++] = (clink){(uint8_t)type, (uint8_t)no, (uint8_t)b};
}

static int cmp_clink(const void *pa, const void *pb)
{
    const clink *a = pa, *b = pb;
    if (a->type != b->type) return a->type - b->type;
    if (a->no != b->no) return a->no - b->no;
    return a->to - b->to;
}

static void cell_links(gnpx *x)
{
    for (int h = 0; h < SDK_HOUSES; h++) {
        for (int d = 1; d <= 9; d++) {
            int c[9], n = 0;
            SDK_BB_FOREACH(p, sdk_house_digit(x->g, h, d)) c[n++] = p;
            for (int i = 0; i < n; i++)
                for (int j = 0; j < n; j++) {
                    if (i == j) continue;
                    if (n == 2) add_clink(x, S, d, c[i], c[j]);
                    add_clink(x, W, d, c[i], c[j]);
                }
        }
    }
    for (int c = 0; c < SDK_CELLS; c++)
        qsort(x->cl[c], (size_t)x->ncl[c], sizeof(clink), cmp_clink);
}

/* Cells of a set in ascending order; UGrCells order: digit, size, cells. */
static int cmp_group(int na, sdk_bb a, int nb, sdk_bb b)
{
    if (na != nb) return na - nb;
    int ca = sdk_bb_count(a), cb = sdk_bb_count(b);
    if (ca != cb) return ca - cb;
    while (!sdk_bb_empty(a)) {
        int x = sdk_bb_first(a), y = sdk_bb_first(b);
        if (x != y) return x - y;
        a = sdk_bb_andnot(a, sdk_bb_cell(x));
        b = sdk_bb_andnot(b, sdk_bb_cell(y));
    }
    return 0;
}

static int cmp_alink(const void *pa, const void *pb)
{
    const alink *a = pa, *b = pb;
    int r = cmp_group(a->no, a->from, b->no, b->from);
    if (!r) r = cmp_group(a->no2, a->to, b->no2, b->to);
    return r ? r : a->seq - b->seq;
}

typedef struct aset {
    sdk_bb cells;
    int size, house;
} aset;

/* GNPX's order of sets: by size, house, then combination (cells). */
static int cmp_aset(const void *pa, const void *pb)
{
    const aset *a = pa, *b = pb;
    if (a->size != b->size) return a->size - b->size;
    if (a->house != b->house) return a->house - b->house;
    return cmp_group(0, a->cells, 0, b->cells);
}

static unsigned cands_of(const sdk_grid *g, sdk_bb cells)
{
    unsigned m = 0;
    SDK_BB_FOREACH(c, cells) m |= g->cand[c];
    return m;
}

/* No locked set of 2..size-2 of its cells inside (GNPX's "pure" ALS). */
static bool pure(const sdk_grid *g, const int *cells, int size)
{
    for (unsigned m = 1; m < (1u << size); m++) {
        int k = __builtin_popcount(m);
        if (k < 2 || k >= size - 1) continue;
        unsigned u = 0;
        for (int i = 0; i < size; i++)
            if (m >> i & 1) u |= g->cand[cells[i]];
        if (sdk_mask_count(u) == k) return false;
    }
    return true;
}

static void als_links(gnpx *x)
{
    const sdk_grid *g = x->g;
    int cap = 1024, n = 0;
    aset *sets = sdk_xmalloc(sizeof *sets * (size_t)cap);
    for (int h = 0; h < SDK_HOUSES; h++) {
        int c[9], m = 0;
        for (int i = 0; i < 9; i++)
            if (!g->value[sdk_house_cell[h][i]]) c[m++] = sdk_house_cell[h][i];
        for (unsigned sub = 1; sub < (1u << m); sub++) {
            int size = __builtin_popcount(sub);
            if (size < 2 || size > ALS_MAX) continue;
            int pick[9], k = 0;
            sdk_bb cells = sdk_bb_none();
            for (int i = 0; i < m; i++)
                if (sub >> i & 1) {
                    pick[k++] = c[i];
                    sdk_bb_add(&cells, c[i]);
                }
            if (sdk_mask_count(cands_of(g, cells)) != size + 1 || !pure(g, pick, size)) continue;
            bool seen = false; /* the same set in an earlier house */
            for (int i = 0; i < n && !seen; i++) seen = sdk_bb_eq(sets[i].cells, cells);
            if (seen) continue;
            if (n == cap) sets = sdk_xrealloc(sets, sizeof *sets * (size_t)(cap *= 2));
            sets[n] = (aset){cells, size, h};
            n++;
        }
    }
    qsort(sets, (size_t)n, sizeof *sets, cmp_aset);
    for (int i = 0; i < n; i++) {
        unsigned digits = cands_of(g, sets[i].cells);
        SDK_MASK_FOREACH(a, digits) {
            SDK_MASK_FOREACH(b, digits) {
                if (a == b) continue;
                alink l = {sets[i].cells, sdk_bb_none(), sdk_bb_none(),
                           (uint8_t)a,    (uint8_t)b,    x->nal};
                SDK_BB_FOREACH(p, sets[i].cells) {
                    if (g->cand[p] & (1u << (a - 1))) sdk_bb_add(&l.from, p);
                    if (g->cand[p] & (1u << (b - 1))) sdk_bb_add(&l.to, p);
                }
                if (x->nal == x->capal)
                    x->al =
                        sdk_xrealloc(x->al, sizeof *x->al * (size_t)(x->capal = x->capal * 2 + 64));
                x->al[x->nal++] = l;
            }
        }
    }
    /* sorted as GNPX sorts them; of equal links the first made (the
     * smallest set) stays */
    qsort(x->al, (size_t)x->nal, sizeof *x->al, cmp_alink);
    int k = 0;
    for (int i = 0; i < x->nal; i++) {
        const alink *p = &x->al[i], *q = k ? &x->al[k - 1] : NULL;
        if (q && q->no == p->no && q->no2 == p->no2 && sdk_bb_eq(q->from, p->from) &&
            sdk_bb_eq(q->to, p->to))
            continue;
        x->al[k++] = *p;
    }
    x->nal = k;
    free(sets);
}

/* ---- the search ----------------------------------------------------------- */

static int add_link(gnpx *x, glink l)
{
    if (x->nL == x->capL) x->L = sdk_xrealloc(x->L, sizeof *x->L * (size_t)(x->capL *= 2));
    x->L[x->nL] = l;
    return x->nL++;
}

static void enqueue(gnpx *x, int i)
{
    x->q[x->qt++] = i;
}

static void set_true(gnpx *x, int c, int d, int by)
{
    int k = SDK_CAND_NODE(c, d);
    x->t[k] = true;
    x->dt[k] = by;
    if (x->f[k] && x->clash < 0) x->clash = k;
}

static void set_false(gnpx *x, int c, int d, int by)
{
    int k = SDK_CAND_NODE(c, d);
    x->f[k] = true;
    x->df[k] = by;
    if (x->t[k] && x->clash < 0) x->clash = k;
}

static bool any(const bool *v, sdk_bb cells, int d)
{
    SDK_BB_FOREACH(c, cells)
        if (v[SDK_CAND_NODE(c, d)]) return true;
    return false;
}

/* Follow link l (after link pre) if it brings news: set its target, record
 * the in-cell consequences, queue it. first: one of the assumption's own
 * weak links (a bivalue cell it reaches gets its other digit true). */
static void follow(gnpx *x, glink l, int pre, bool first)
{
    if (x->clash >= 0 || x->nL >= MAX_LINKS) return;
    if (pre >= 0) {
        const glink *r = &x->L[pre];
        /* straight back over the link it came by */
        if (r->type != l.type && r->no == l.no2 && sdk_bb_eq(r->from, l.to)) return;
    }
    const sdk_grid *g = x->g;
    if (any(l.type == S ? x->t : x->f, l.to, l.no2)) return;
    l.pre = pre;
    int i = add_link(x, l);
    int single = sdk_bb_count(l.to) == 1 ? sdk_bb_first(l.to) : -1;
    if (l.type == S) {
        if (single >= 0) {
            set_true(x, single, l.no2, i);
            SDK_MASK_FOREACH(e, g->cand[single]) {
                if (e == l.no2) continue;
                int k = add_link(
                    x, (glink){W, INCELL, l.no2, (uint8_t)e, l.to, l.to, sdk_bb_none(), i});
                set_false(x, single, e, k);
            }
        }
    } else {
        SDK_BB_FOREACH(c, l.to) set_false(x, c, l.no2, i);
        if (first && single >= 0 && sdk_mask_count(g->cand[single]) == 2) {
            int e = __builtin_ctz(g->cand[single] & ~(1u << (l.no2 - 1))) + 1;
            int k =
                add_link(x, (glink){S, INCELL, l.no2, (uint8_t)e, l.to, l.to, sdk_bb_none(), i});
            set_true(x, single, e, k);
        }
    }
    enqueue(x, i);
}

/* May cell link (type, no) follow link r? */
static bool in_sequence(const gnpx *x, const glink *r, int type, int no)
{
    int tp = r->kind == ALS ? S : r->type;
    if (tp == S) return type == S ? no != r->no2 : no == r->no2;
    if (type == S) return no == r->no2;
    return no != r->no2 && sdk_mask_count(cands_of(x->g, r->to)) == 2;
}

static void expand(gnpx *x, int ri)
{
    const glink r = x->L[ri];
    bool after_als = r.kind == ALS;
    if (sdk_bb_count(r.to) == 1) {
        int u = sdk_bb_first(r.to);
        for (int i = 0; i < x->ncl[u] && x->clash < 0; i++) {
            const clink *k = &x->cl[u][i];
            if (after_als && k->type != W) continue;
            if (!in_sequence(x, &r, k->type, k->no)) continue;
            follow(x,
                   (glink){k->type, CELL, k->no, k->no, r.to, sdk_bb_cell(k->to), sdk_bb_none(), 0},
                   ri, false);
        }
    }
    if (r.type == W && !after_als)
        for (int i = 0; i < x->nal && x->clash < 0; i++) {
            const alink *a = &x->al[i];
            if (a->no == r.no2 && sdk_bb_eq(a->from, r.to))
                follow(x, (glink){S, ALS, a->no, a->no2, a->from, a->to, a->set, 0}, ri, false);
        }
    if (!after_als) return;
    /* out of the ALS's true group: weak links into the rest of each house
     * that holds the group, every subset of it (the single cells first) */
    for (int h = 0; h < SDK_HOUSES && x->clash < 0; h++) {
        sdk_bb hs = sdk_house_digit(x->g, h, r.no2);
        if (!sdk_bb_empty(sdk_bb_andnot(r.to, hs))) continue;
        sdk_bb rest = sdk_bb_andnot(hs, r.to);
        int c[9], n = 0;
        SDK_BB_FOREACH(p, rest) c[n++] = p;
        for (unsigned m = 1; m < (1u << n) && x->clash < 0; m++) {
            sdk_bb to = sdk_bb_none();
            for (int i = 0; i < n; i++)
                if (m >> i & 1) sdk_bb_add(&to, c[i]);
            follow(x, (glink){W, GROUP, r.no2, r.no2, r.to, to, sdk_bb_none(), 0}, ri, false);
        }
    }
}

static void run(gnpx *x, int cell, int digit, bool on)
{
    const sdk_grid *g = x->g;
    x->origin = cell;
    sdk_bb o = sdk_bb_cell(cell);
    if (!on) { /* as if a weak link had just made it false */
        int root = add_link(x, (glink){W, ROOT, (uint8_t)digit, (uint8_t)digit, sdk_bb_none(), o,
                                       sdk_bb_none(), -1});
        x->f[SDK_CAND_NODE(cell, digit)] = true;
        x->df[SDK_CAND_NODE(cell, digit)] = root;
        if (sdk_mask_count(g->cand[cell]) == 2) {
            int e = __builtin_ctz(g->cand[cell] & ~(1u << (digit - 1))) + 1;
            set_true(x, cell, e,
                     add_link(x, (glink){S, INCELL, (uint8_t)digit, (uint8_t)e, o, o, sdk_bb_none(),
                                         root}));
        }
        enqueue(x, root);
    } else {
        int root = add_link(x, (glink){S, ROOT, (uint8_t)digit, (uint8_t)digit, sdk_bb_none(), o,
                                       sdk_bb_none(), -1});
        x->t[SDK_CAND_NODE(cell, digit)] = true;
        x->dt[SDK_CAND_NODE(cell, digit)] = root;
        /* its weak links first */
        for (int i = 0; i < x->ncl[cell]; i++) {
            const clink *k = &x->cl[cell][i];
            if (k->type == W && k->no == digit)
                follow(x, (glink){W, CELL, k->no, k->no, o, sdk_bb_cell(k->to), sdk_bb_none(), 0},
                       root, true);
        }
        /* its other digits are false; their strong links lead out */
        SDK_MASK_FOREACH(e, g->cand[cell]) {
            if (e == digit) continue;
            int k = add_link(
                x, (glink){W, INCELL, (uint8_t)digit, (uint8_t)e, o, o, sdk_bb_none(), root});
            set_false(x, cell, e, k);
        }
    }
    while (x->qh < x->qt && x->clash < 0) expand(x, x->q[x->qh++]);
}

/* ---- the text ------------------------------------------------------------- */

static size_t link_text(const glink *l, char *buf, size_t n)
{
    char a[64], b[64], s[64];
    sdk_cells_text(l->from, a, sizeof a);
    sdk_cells_text(l->to, b, sizeof b);
    switch (l->kind) {
    case ALS:
        sdk_cells_text(l->set, s, sizeof s);
        return (size_t)snprintf(buf, n, "[S (ALS:%s) %s/-%d -> %s/+%d]", s, a, l->no, b, l->no2);
    default:
        if (l->type == S)
            return (size_t)snprintf(buf, n, "[S %s/-%d -> %s/+%d]", a, l->no, b, l->no2);
        return (size_t)snprintf(buf, n, "[W %s/+%d -> %s/-%d]", a, l->no, b, l->no2);
    }
}

static size_t chain_text(const gnpx *x, int i, char *buf, size_t n)
{
    int ch[64], m = 0;
    for (; i >= 0 && x->L[i].kind != ROOT && m < 64; i = x->L[i].pre) ch[m++] = i;
    size_t k = 0;
    buf[0] = 0;
    for (int j = m - 1; j >= 0 && k < n; j--) {
        if (j < m - 1) k += (size_t)snprintf(buf + k, n - k, " => ");
        if (k < n) k += link_text(&x->L[ch[j]], buf + k, n - k);
    }
    return k;
}

bool sdk_gnpx_trace(const sdk_grid *g, int cell, int digit, bool on, unsigned flags,
                    sdk_trace_fn fn, void *ctx)
{
    gnpx *x = sdk_xcalloc(1, sizeof *x);
    x->g = g;
    x->clash = -1;
    x->capL = 1024;
    x->L = sdk_xmalloc(sizeof *x->L * (size_t)x->capL);
    x->q = sdk_xmalloc(sizeof *x->q * MAX_LINKS);
    cell_links(x);
    if (flags & SDK_DYN_ALS) als_links(x);
    run(x, cell, digit, on);
    char *line = sdk_xmalloc(8192), a[16];
    int n = 0;
    for (int k = 0; k < SDK_NCAND; k++) {
        if (k / 9 == cell) continue;
        for (int v = 1; v >= 0; v--) {
            if (!(v ? x->t[k] : x->f[k])) continue;
            size_t w = (size_t)snprintf(line, 8192, "%s/%c%d ", sdk_cell_name(k / 9, a),
                                        v ? '+' : '-', k % 9 + 1);
            chain_text(x, v ? x->dt[k] : x->df[k], line + w, 8192 - w);
            fn(ctx, SDK_LIT(k, v), line);
            n++;
        }
    }
    bool bad = x->clash >= 0;
    if (bad) {
        size_t w = (size_t)snprintf(line, 8192, "%s/#%d is %s\n", sdk_cell_name(cell, a), digit,
                                    on ? "false" : "true");
        w += chain_text(x, x->df[x->clash], line + w, 8192 - w);
        if (w < 8192) w += (size_t)snprintf(line + w, 8192 - w, "\n");
        if (w < 8192) chain_text(x, x->dt[x->clash], line + w, 8192 - w);
    } else {
        snprintf(line, 8192, "%s/%c%d: no contradiction, %d consequences", sdk_cell_name(cell, a),
                 on ? '+' : '-', digit, n);
    }
    fn(ctx, -1, line);
    free(line);
    free(x->q);
    free(x->L);
    free(x->al);
    free(x);
    return bad;
}
