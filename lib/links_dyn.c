/* links_dyn.c - the dynamic implication search of the link model: assume a
 * candidate true or false, propagate breadth first through cell and house
 * links (and optionally group and ALS links) on a copy of the grid, record
 * the reason for every consequence, detect contradictions, and print the
 * consequences in the GNPX "super link" notation for `trace`. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "sudoku/alloc.h"
#include "sudoku/links.h"

typedef struct dq {
    int16_t q[SDK_NCAND * 2];
    int head, tail;
} dq;

static void set_lit(sdk_dyn *d, dq *q, int lit, int from, int kind, int strong, sdk_bb cells)
{
    if (d->contradiction) return;
    int cand = lit >> 1;
    int val = (lit & 1) ? 1 : -1;
    if (d->state[cand] == val) return;
    sdk_dyn_reason r = {(int16_t)from, (uint8_t)kind, (uint8_t)strong, cells};
    if (d->state[cand] == -val) {
        d->contradiction = true;
        d->bad_lit = lit ^ 1; /* the literal already derived */
        d->bad_reason = r;
        char a[8];
        snprintf(d->why_text, sizeof d->why_text, "%s/#%d is both true and false",
                 sdk_cell_name(cand / 9, a), cand % 9 + 1);
        return;
    }
    d->state[cand] = (int8_t)val;
    d->why[cand] = r;
    d->depth[cand] = (uint16_t)(from >= 0 ? d->depth[from >> 1] + 1 : 0);
    d->order[d->n++] = (int16_t)lit;
    q->q[q->tail++] = (int16_t)lit;
}

/* Remaining (not false) cells of digit dg in house h. */
static sdk_bb remaining(const sdk_dyn *d, int h, int dg)
{
    sdk_bb b = sdk_house_digit(&d->g, h, dg), r = sdk_bb_none();
    SDK_BB_FOREACH(c, b)
        if (d->state[c * 9 + dg - 1] != -1) sdk_bb_add(&r, c);
    return r;
}

static void on_off(sdk_dyn *d, dq *q, int lit, unsigned flags, const sdk_als_list *als)
{
    int cand = lit >> 1, c = cand / 9, dg = cand % 9 + 1;
    const sdk_grid *g = &d->g;
    bool nishio = flags & SDK_DYN_NISHIO;
    if (lit & 1) { /* true */
        if (!nishio) {
            SDK_MASK_FOREACH(e, g->cand[c]) {
                if (e != dg)
                    set_lit(d, q, SDK_LIT(SDK_CAND_NODE(c, e), 0), lit, SDK_LINK_CELL, 0,
                            sdk_bb_none());
            }
        }
        sdk_bb peers = sdk_bb_and(sdk_peer_bb[c], g->digit[dg - 1]);
        SDK_BB_FOREACH(p, peers)
            set_lit(d, q, SDK_LIT(SDK_CAND_NODE(p, dg), 0), lit, SDK_LINK_HOUSE, 0, sdk_bb_none());
        return;
    }
    /* false */
    if (!nishio) {
        int left = 0, last = -1;
        SDK_MASK_FOREACH(e, g->cand[c]) {
            if (d->state[c * 9 + e - 1] != -1) {
                left++;
                last = e;
            }
        }
        if (left == 0) {
            d->contradiction = true;
            d->bad_cell = c;
            char a[8];
            snprintf(d->why_text, sizeof d->why_text, "%s has no candidate left",
                     sdk_cell_name(c, a));
            return;
        }
        if (left == 1)
            set_lit(d, q, SDK_LIT(SDK_CAND_NODE(c, last), 1), lit, SDK_LINK_CELL, 1, sdk_bb_none());
    }
    for (int k = 0; k < 3 && !d->contradiction; k++) {
        int h = sdk_cell_house[c][k];
        sdk_bb r = remaining(d, h, dg);
        int n = sdk_bb_count(r);
        if (n == 0) {
            d->contradiction = true;
            d->bad_house = h;
            d->bad_digit = dg;
            char a[16];
            snprintf(d->why_text, sizeof d->why_text, "digit %d has no place in %s", dg,
                     sdk_house_name(h, a));
            return;
        }
        if (n == 1) {
            set_lit(d, q, SDK_LIT(SDK_CAND_NODE(sdk_bb_first(r), dg), 1), lit, SDK_LINK_HOUSE, 1,
                    sdk_bb_none());
            continue;
        }
        if ((flags & SDK_DYN_LOCKED) && n <= 3) {
            /* confined to one box segment: the digit leaves the crossing house */
            for (int o = 0; o < 27; o++) {
                if (o == h || !sdk_bb_subset(r, sdk_house_bb[o])) continue;
                sdk_bb rest = sdk_bb_andnot(sdk_house_digit(g, o, dg), r);
                SDK_BB_FOREACH(x, rest)
                    set_lit(d, q, SDK_LIT(SDK_CAND_NODE(x, dg), 0), lit, SDK_LINK_GROUP, 0, r);
            }
        }
    }
    if (!(flags & SDK_DYN_ALS) || !als || d->contradiction) return;
    for (int i = 0; i < als->n && !d->contradiction; i++) {
        const sdk_als *A = &als->als[i];
        if (!sdk_bb_has(A->dcells[dg - 1], c)) continue;
        bool gone = true;
        SDK_BB_FOREACH(x, A->dcells[dg - 1])
            if (d->state[x * 9 + dg - 1] != -1) gone = false;
        if (!gone) continue;
        SDK_MASK_FOREACH(m, A->digits) {
            if (m == dg) continue;
            sdk_bb rm = sdk_bb_none();
            SDK_BB_FOREACH(x, A->dcells[m - 1])
                if (d->state[x * 9 + m - 1] != -1) sdk_bb_add(&rm, x);
            if (sdk_bb_empty(rm)) {
                d->contradiction = true;
                char a[64];
                snprintf(d->why_text, sizeof d->why_text, "a locked set misses digit %d", m);
                (void)a;
                return;
            }
            if (sdk_bb_count(rm) == 1)
                set_lit(d, q, SDK_LIT(SDK_CAND_NODE(sdk_bb_first(rm), m), 1), lit, SDK_LINK_ALS, 1,
                        A->cells);
            sdk_bb out = sdk_bb_andnot(sdk_bb_and(sdk_common_peers(rm), g->digit[m - 1]), A->cells);
            SDK_BB_FOREACH(x, out)
                set_lit(d, q, SDK_LIT(SDK_CAND_NODE(x, m), 0), lit, SDK_LINK_ALS, 0, A->cells);
        }
    }
}

/* ---- GNPX super links --------------------------------------------------
 *
 * GNPX chains from the assumption level by level, a level being one link
 * between cells (a house link or an ALS link); the links inside a cell cost
 * nothing: a candidate that becomes true makes the rest of its cell false and
 * a false one leaves a bivalue cell's other digit true at the same level. A
 * level expands the candidates of the level before in the order GNPX lists
 * them (by cell, then digit): first their house links (row, column, box),
 * then their ALS links: a digit removed from an ALS by a weak link from
 * outside it turns the set into a locked set; a digit left in one cell of the
 * set becomes true there ([S (ALS:r2c68) r2c8/-1 -> r2c6/+8]), a digit left
 * in several leaves their common peers (written through the set's cells:
 * [S (ALS:r9c69) r9c6/-8 -> r9c69/+4] => [W r9c69/+4 -> r9c3/-4]). Two ALS
 * links never follow each other. The assumed cell is fixed (its other digits
 * are not consequences). A candidate is shown with the first link between
 * cells that reached it at its depth, a false digit of a cell with a true one
 * from the true one, and links inside a cell only as a chain's last link. */

typedef struct lvl {
    int16_t lit[SDK_NCAND];
    int n;
} lvl;

/* Reach lit at depth `depth` through reason r; in-cell consequences follow at
 * once. A candidate already reached at the same depth only through its cell
 * keeps the first link between cells as the one shown. */
static void gnpx_reach(sdk_dyn *d, lvl *next, int lit, int from, int kind, int strong, sdk_bb cells,
                       int depth)
{
    if (d->contradiction) return;
    int cand = lit >> 1, c = cand / 9;
    if (c == (d->start >> 1) / 9) return; /* the assumed cell is fixed */
    int val = (lit & 1) ? 1 : -1;
    sdk_dyn_reason r = {(int16_t)from, (uint8_t)kind, (uint8_t)strong, cells};
    bool outer = from >= 0 && (from >> 1) / 9 != c;
    if (d->state[cand] == val) {
        if (outer && !d->has_shown[cand] && d->depth[cand] == depth) {
            d->shown[cand] = r;
            d->has_shown[cand] = true;
        }
        return;
    }
    if (d->state[cand] == -val) {
        d->contradiction = true;
        d->bad_lit = lit ^ 1;
        d->bad_reason = r;
        char a[8];
        snprintf(d->why_text, sizeof d->why_text, "%s/#%d is both true and false",
                 sdk_cell_name(c, a), cand % 9 + 1);
        return;
    }
    d->state[cand] = (int8_t)val;
    d->why[cand] = r;
    d->depth[cand] = (uint16_t)depth;
    if (outer) {
        d->shown[cand] = r;
        d->has_shown[cand] = true;
    }
    d->order[d->n++] = (int16_t)lit;
    next->lit[next->n++] = (int16_t)lit;
    const sdk_grid *g = &d->g;
    int dg = cand % 9 + 1;
    if (val > 0) {
        SDK_MASK_FOREACH(e, g->cand[c]) {
            if (e != dg)
                gnpx_reach(d, next, SDK_LIT(SDK_CAND_NODE(c, e), 0), lit, SDK_LINK_CELL, 0,
                           sdk_bb_none(), depth);
        }
        return;
    }
    int left = 0, last = -1;
    SDK_MASK_FOREACH(e, g->cand[c]) {
        if (d->state[c * 9 + e - 1] != -1) {
            left++;
            last = e;
        }
    }
    if (left == 0) {
        d->contradiction = true;
        d->bad_cell = c;
        char a[8];
        snprintf(d->why_text, sizeof d->why_text, "%s has no candidate left", sdk_cell_name(c, a));
        return;
    }
    if (left == 1 && d->state[c * 9 + last - 1] == 0)
        gnpx_reach(d, next, SDK_LIT(SDK_CAND_NODE(c, last), 1), lit, SDK_LINK_CELL, 1,
                   sdk_bb_none(), depth);
}

static void gnpx_houses(sdk_dyn *d, lvl *next, int lit, int depth)
{
    int cand = lit >> 1, c = cand / 9, dg = cand % 9 + 1;
    const sdk_grid *g = &d->g;
    for (int k = 0; k < 3 && !d->contradiction; k++) {
        int h = sdk_cell_house[c][k];
        if (lit & 1) {
            sdk_bb peers = sdk_bb_andnot(sdk_house_digit(g, h, dg), sdk_bb_cell(c));
            SDK_BB_FOREACH(p, peers)
                gnpx_reach(d, next, SDK_LIT(SDK_CAND_NODE(p, dg), 0), lit, SDK_LINK_HOUSE, 0,
                           sdk_bb_none(), depth);
            continue;
        }
        sdk_bb r = remaining(d, h, dg);
        if (sdk_bb_count(r) == 1)
            gnpx_reach(d, next, SDK_LIT(SDK_CAND_NODE(sdk_bb_first(r), dg), 1), lit, SDK_LINK_HOUSE,
                       1, sdk_bb_none(), depth);
    }
}

static void gnpx_als(sdk_dyn *d, lvl *next, int lit, const sdk_als_list *als, int depth)
{
    int cand = lit >> 1, c = cand / 9, dg = cand % 9 + 1;
    const sdk_dyn_reason *w = &d->why[cand];
    /* entered by a weak link between cells, not by an ALS link */
    if ((lit & 1) || w->from < 0 || w->strong || w->kind == SDK_LINK_ALS) return;
    int src = (w->from >> 1) / 9;
    if (src == c) return;
    const sdk_grid *g = &d->g;
    for (int i = 0; i < als->n && !d->contradiction; i++) {
        const sdk_als *A = &als->als[i];
        if (!sdk_bb_has(A->dcells[dg - 1], c) || sdk_bb_has(A->cells, src)) continue;
        if (w->kind == SDK_LINK_ALS && !sdk_bb_empty(sdk_bb_and(A->cells, w->als))) continue;
        bool gone = true;
        SDK_BB_FOREACH(x, A->dcells[dg - 1])
            if (d->state[x * 9 + dg - 1] != -1) gone = false;
        if (!gone) continue;
        SDK_MASK_FOREACH(m, A->digits) {
            if (m == dg) continue;
            sdk_bb rm = sdk_bb_none();
            SDK_BB_FOREACH(x, A->dcells[m - 1])
                if (d->state[x * 9 + m - 1] != -1) sdk_bb_add(&rm, x);
            if (sdk_bb_count(rm) == 1) {
                gnpx_reach(d, next, SDK_LIT(SDK_CAND_NODE(sdk_bb_first(rm), m), 1), lit,
                           SDK_LINK_ALS, 1, A->cells, depth);
                continue;
            }
            /* m is locked in several cells of the set: it leaves their
             * common peers (written as the set's m-cells, true, then a weak
             * link) */
            sdk_bb out = sdk_bb_andnot(sdk_bb_and(sdk_common_peers(rm), g->digit[m - 1]), A->cells);
            SDK_BB_FOREACH(x, out)
                gnpx_reach(d, next, SDK_LIT(SDK_CAND_NODE(x, m), 0), lit, SDK_LINK_ALS, 0, A->cells,
                           depth);
        }
    }
}

static int cmp_lit16(const void *a, const void *b)
{
    return *(const int16_t *)a - *(const int16_t *)b;
}

static void gnpx_run(sdk_dyn *d, int start, unsigned flags, const sdk_als_list *als)
{
    memset(d->has_shown, 0, sizeof d->has_shown);
    lvl *cur = sdk_xmalloc(sizeof *cur), *next = sdk_xmalloc(sizeof *next);
    cur->n = 0;
    int cand = start >> 1;
    d->state[cand] = (start & 1) ? 1 : -1;
    d->why[cand] = (sdk_dyn_reason){-1, SDK_LINK_CELL, (uint8_t)(start & 1), sdk_bb_none()};
    d->depth[cand] = 0;
    d->order[d->n++] = (int16_t)start;
    cur->lit[cur->n++] = (int16_t)start;
    for (int depth = 1; cur->n && !d->contradiction; depth++) {
        next->n = 0;
        /* a level is expanded in the order GNPX lists it: by cell, then digit */
        qsort(cur->lit, (size_t)cur->n, sizeof cur->lit[0], cmp_lit16);
        for (int i = 0; i < cur->n && !d->contradiction; i++)
            gnpx_houses(d, next, cur->lit[i], depth);
        if ((flags & SDK_DYN_ALS) && als)
            for (int i = 0; i < cur->n && !d->contradiction; i++)
                gnpx_als(d, next, cur->lit[i], als, depth);
        lvl *t = cur;
        cur = next;
        next = t;
    }
    free(cur);
    free(next);
}

bool sdk_dyn_run(const sdk_grid *g, int cell, int digit, bool on, unsigned flags,
                 const sdk_als_list *als, sdk_dyn *d)
{
    d->g = *g;
    memset(d->state, 0, sizeof d->state);
    d->n = 0;
    d->contradiction = false;
    d->bad_lit = -1;
    d->bad_cell = d->bad_house = -1;
    d->bad_digit = 0;
    d->why_text[0] = 0;
    d->gnpx = (flags & SDK_DYN_GNPX) != 0;
    dq *q = sdk_xmalloc(sizeof *q);
    q->head = q->tail = 0;
    int lit = SDK_LIT(SDK_CAND_NODE(cell, digit), on);
    d->start = lit;
    if (d->gnpx) {
        free(q);
        gnpx_run(d, lit, flags, als);
        return d->contradiction;
    }
    set_lit(d, q, lit, -1, SDK_LINK_CELL, on, sdk_bb_none());
    while (q->head < q->tail && !d->contradiction) on_off(d, q, q->q[q->head++], flags, als);
    free(q);
    return d->contradiction;
}

int sdk_dyn_chain(const sdk_dyn *d, int lit, int *out, int max)
{
    int cand = lit >> 1;
    int val = (lit & 1) ? 1 : -1;
    if (d->state[cand] != val) return 0;
    int n = 0;
    for (int x = lit; x >= 0; x = d->why[x >> 1].from) {
        if (n >= max) return 0;
        out[n++] = x;
    }
    for (int i = 0; i < n / 2; i++) {
        int t = out[i];
        out[i] = out[n - 1 - i];
        out[n - 1 - i] = t;
    }
    return n;
}

static char *lit_text(int lit, char *buf)
{
    char a[8];
    sprintf(buf, "%s/%c%d", sdk_cell_name((lit >> 1) / 9, a), (lit & 1) ? '+' : '-',
            (lit >> 1) % 9 + 1);
    return buf;
}

static void cells_list(sdk_bb cells, char *buf, size_t n)
{
    int rows = 0, cols = 0;
    SDK_BB_FOREACH(c, cells) {
        rows |= 1 << sdk_row(c);
        cols |= 1 << sdk_col(c);
    }
    size_t k = 0;
    buf[0] = 0;
    if (sdk_mask_count((unsigned)rows) > 1 && sdk_mask_count((unsigned)cols) == 1) {
        k += (size_t)snprintf(buf + k, n - k, "r");
        for (int r = 0; r < 9; r++)
            if (rows >> r & 1) k += (size_t)snprintf(buf + k, n - k, "%d", r + 1);
        snprintf(buf + k, n - k, "c%d", __builtin_ctz((unsigned)cols) + 1);
        return;
    }
    bool first = true;
    for (int r = 0; r < 9 && k < n; r++) {
        if (!(rows >> r & 1)) continue;
        k += (size_t)snprintf(buf + k, n - k, "%sr%dc", first ? "" : " ", r + 1);
        first = false;
        for (int c = 0; c < 9 && k < n; c++)
            if (sdk_bb_has(cells, r * 9 + c)) k += (size_t)snprintf(buf + k, n - k, "%d", c + 1);
    }
}

/* "[W r2c2/+1 -> r2c8/-1]" for the link into lit with reason r. */
static size_t link_text(const sdk_dyn *d, int lit, const sdk_dyn_reason *r, char *buf, size_t n)
{
    char a[16], b[16], cl[64];
    if (r->kind == SDK_LINK_ALS && !r->strong && d->gnpx) {
        /* GNPX: into the set, then out of the digit's cells in it */
        int m = (lit >> 1) % 9 + 1;
        sdk_bb mc = sdk_bb_and(r->als, d->g.digit[m - 1]);
        char ml[64];
        cells_list(r->als, cl, sizeof cl);
        cells_list(mc, ml, sizeof ml);
        return (size_t)snprintf(buf, n, "[S (ALS:%s) %s -> %s/+%d] => [W %s/+%d -> %s]", cl,
                                lit_text(r->from, a), ml, m, ml, m, lit_text(lit, b));
    }
    if (r->kind == SDK_LINK_ALS || r->kind == SDK_LINK_GROUP) {
        cells_list(r->als, cl, sizeof cl);
        return (size_t)snprintf(buf, n, "[%c (%s:%s) %s -> %s]", r->strong ? 'S' : 'W',
                                r->kind == SDK_LINK_ALS ? "ALS" : "GROUP", cl, lit_text(r->from, a),
                                lit_text(lit, b));
    }
    return (size_t)snprintf(buf, n, "[%c %s -> %s]", r->strong ? 'S' : 'W', lit_text(r->from, a),
                            lit_text(lit, b));
}

/* An in-cell link (the literal and the one it came from share a cell). */
static bool in_cell(const sdk_dyn *d, int lit)
{
    int from = d->why[lit >> 1].from;
    return from >= 0 && (from >> 1) / 9 == (lit >> 1) / 9;
}

static size_t chain_text_more(const sdk_dyn *d, int lit, bool more, char *buf, size_t n);

static size_t chain_text(const sdk_dyn *d, int lit, char *buf, size_t n)
{
    return chain_text_more(d, lit, false, buf, n);
}

/* more: links follow, so the chain's last link is in the middle too. */
static size_t chain_text_more(const sdk_dyn *d, int lit, bool more, char *buf, size_t n)
{
    int ch[SDK_NCAND];
    int m = sdk_dyn_chain(d, lit, ch, SDK_NCAND);
    size_t k = 0;
    bool first = true;
    buf[0] = 0;
    for (int i = 1; i < m && k < n; i++) {
        /* GNPX passes through a cell silently: an in-cell link is only
         * written as the chain's last one */
        if (d->gnpx && (more || i < m - 1) && in_cell(d, ch[i])) continue;
        if (!first) k += (size_t)snprintf(buf + k, n - k, " => ");
        first = false;
        if (k >= n) break;
        k += link_text(d, ch[i], &d->why[ch[i] >> 1], buf + k, n - k);
    }
    return k;
}

/* GNPX's line for a consequence: a false digit of a cell with a true one is
 * shown from the true one; otherwise the first link between cells that
 * reached the candidate at its depth, after the chain to where it came from. */
static size_t gnpx_text(const sdk_dyn *d, int lit, char *buf, size_t n)
{
    int cand = lit >> 1, c = cand / 9;
    size_t k = 0;
    buf[0] = 0;
    if (!(lit & 1)) {
        for (int e = 0; e < 9; e++) {
            int t = c * 9 + e;
            if (t == cand || d->state[t] != 1) continue;
            int tl = SDK_LIT(t, 1);
            if (!d->has_shown[t] && d->why[t].from == lit) break; /* lit made t true */
            k = gnpx_text(d, tl, buf, n);
            sdk_dyn_reason w = {(int16_t)tl, SDK_LINK_CELL, 0, sdk_bb_none()};
            if (k < n) k += (size_t)snprintf(buf + k, n - k, "%s", k ? " => " : "");
            if (k < n) k += link_text(d, lit, &w, buf + k, n - k);
            return k;
        }
    }
    if (!d->has_shown[cand] || d->why[cand].from < 0) return chain_text(d, lit, buf, n);
    const sdk_dyn_reason *r = &d->shown[cand];
    k = chain_text_more(d, r->from, true, buf, n);
    if (k < n) k += (size_t)snprintf(buf + k, n - k, "%s", k ? " => " : "");
    if (k < n) k += link_text(d, lit, r, buf + k, n - k);
    return k;
}

char *sdk_dyn_explain(const sdk_dyn *d, int lit, char *buf, size_t n)
{
    char a[16];
    size_t k = (size_t)snprintf(buf, n, "%s ", lit_text(lit, a));
    if (k < n) {
        if (d->gnpx)
            gnpx_text(d, lit, buf + k, n - k);
        else
            chain_text(d, lit, buf + k, n - k);
    }
    return buf;
}

static int cmp_lit(const void *a, const void *b)
{
    int x = *(const int *)a, y = *(const int *)b;
    /* by cell, then digit */
    return (x >> 1) - (y >> 1);
}

/* GNPX tries the smaller sets first (stable: house order among equals). */
static void sort_als_by_size(sdk_als_list *l)
{
    for (int i = 1; i < l->n; i++) {
        sdk_als x = l->als[i];
        int j = i;
        for (; j > 0 && l->als[j - 1].ncell > x.ncell; j--) l->als[j] = l->als[j - 1];
        l->als[j] = x;
    }
}

bool sdk_trace_assumption(const sdk_grid *g, int cell, int digit, bool on, unsigned flags,
                          sdk_trace_fn fn, void *ctx)
{
    sdk_dyn *d = sdk_xmalloc(sizeof *d);
    char *line = sdk_xmalloc(8192);
    sdk_als_list als = {0};
    bool have_als = false;
    if (flags & SDK_DYN_ALS) {
        sdk_als_opts o = {2, 8};
        have_als = sdk_als_collect(g, &o, &als) >= 0;
        if (have_als && (flags & SDK_DYN_GNPX)) sort_als_by_size(&als);
    }
    bool bad = sdk_dyn_run(g, cell, digit, on, flags, have_als ? &als : NULL, d);
    int lits[SDK_NCAND];
    int n = 0;
    for (int i = 1; i < d->n; i++) lits[n++] = d->order[i];
    qsort(lits, (size_t)n, sizeof lits[0], cmp_lit);
    for (int i = 0; i < n; i++) {
        sdk_dyn_explain(d, lits[i], line, 8192);
        fn(ctx, lits[i], line);
    }
    char a[8];
    if (bad) {
        size_t k = (size_t)snprintf(line, 8192, "%s/#%d is %s", sdk_cell_name(cell, a), digit,
                                    on ? "false" : "true");
        if (!d->gnpx) k += (size_t)snprintf(line + k, 8192 - k, ": %s", d->why_text);
        if (d->bad_lit >= 0) {
            /* the two chains that clash: the one found first, then the
             * other (GNPX: the chain to the false literal first) */
            char *held = sdk_xmalloc(4096), *clash = sdk_xmalloc(4096);
            if (d->gnpx)
                gnpx_text(d, d->bad_lit, held, 4096);
            else
                chain_text(d, d->bad_lit, held, 4096);
            size_t c = 0;
            clash[0] = 0;
            if (d->bad_reason.from >= 0) {
                c = chain_text_more(d, d->bad_reason.from, true, clash, 4096);
                if (c) c += (size_t)snprintf(clash + c, 4096 - c, " => ");
            }
            if (c < 4096) link_text(d, d->bad_lit ^ 1, &d->bad_reason, clash + c, 4096 - c);
            bool clash_first = d->gnpx && (d->bad_lit & 1);
            snprintf(line + k, 8192 - k, "\n%s\n%s", clash_first ? clash : held,
                     clash_first ? held : clash);
            free(held);
            free(clash);
        }
        fn(ctx, -1, line);
    } else {
        snprintf(line, 8192, "%s/%c%d: no contradiction, %d consequences", sdk_cell_name(cell, a),
                 on ? '+' : '-', digit, n);
        fn(ctx, -1, line);
    }
    sdk_als_list_free(&als);
    free(line);
    free(d);
    return bad;
}
